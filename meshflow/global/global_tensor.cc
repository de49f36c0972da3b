// Copyright 2026 The meshflow Authors.
#include "meshflow/global/global_tensor.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>

#include "meshflow/boxing/execute.h"
#include "meshflow/comm/among.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/error.h"
#include "meshflow/device/device.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

constexpr int kMaxDims = 16;

// What each rank tells the others before a local -> global conversion.
struct PartInfo {
  int32_t participates;
  int32_t dtype;
  int32_t ndim;
  int32_t pad;
  int64_t shape[kMaxDims];
  uint64_t value_hash;
};

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("to_global: " + what); }

uint64_t layout_hash(const Placement& p, const NdSbp& s) { return p.hash() * 1000003u ^ hash_value(s); }

// Checks the target layout (and, for ndim >= 0, its split dims) on every rank at once: a
// rank that got bad or different arguments makes every rank throw, none waits forever.
void agree_on_layout(const Placement& placement, const NdSbp& nd_sbp, int64_t ndim, uint64_t call_hash,
                     const std::string& call = "to_global") {
  std::string error;
  try {
    placement.check_in_world(comm::world_size());
    check_nd_sbp(nd_sbp, placement, ndim < 0 ? std::numeric_limits<int64_t>::max() : ndim);
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  comm::agree(error, call_hash ^ layout_hash(placement, nd_sbp), call);
}

std::string rank_name(const Placement& p, int id) {
  return "rank " + std::to_string(p.ranks()[id]) + " (coordinate " + to_string(p.coordinate(id)) + ")";
}

// The logical shape formed by the parts of the ranks below `coord[0..axis)`, with each
// part's region (by parallel id) in `boxes`. Throws when the parts cannot fit together.
Shape compose(const Placement& p, const NdSbp& nd_sbp, const std::vector<Shape>& parts, Shape& coord, int axis,
              int& first_id) {
  if (axis == p.ndim()) {
    first_id = p.parallel_id(p.rank_at(coord));
    return parts[first_id];
  }
  const Sbp& s = nd_sbp[axis];
  Shape total;
  int total_id = -1;
  for (int64_t i = 0; i < p.hierarchy()[axis]; ++i) {
    coord[axis] = i;
    int id = -1;
    Shape sub = compose(p, nd_sbp, parts, coord, axis + 1, id);
    if (i == 0) {
      total = sub;
      total_id = id;
      continue;
    }
    for (size_t d = 0; d < sub.size(); ++d) {
      if (s.is_split() && static_cast<int>(d) == s.split_dim()) continue;
      if (sub[d] != total[d]) {
        fail("local parts cannot form one tensor with sbp " + to_string(nd_sbp) + ": " + rank_name(p, id) +
             " has shape " + to_string(sub) + " but " + rank_name(p, total_id) + " has " + to_string(total) +
             (s.is_split() ? "; expected equal sizes except along split dim " + std::to_string(s.split_dim())
                           : "; expected equal shapes along " + s.str() + " axis " + std::to_string(axis)));
      }
    }
    if (s.is_split()) total[s.split_dim()] += sub[s.split_dim()];
  }
  coord[axis] = 0;
  return total;
}

// The region each part covers (by parallel id), laying parts out in coordinate order.
void place_parts(const Placement& p, const NdSbp& nd_sbp, const std::vector<Shape>& parts, const Shape& logical,
                 std::vector<Box>& boxes) {
  boxes.assign(p.size(), Box::whole(logical));
  for (int id = 0; id < p.size(); ++id) {
    Shape c = p.coordinate(id);
    Box& b = boxes[id];
    b.extent = parts[id];
    for (int axis = 0; axis < p.ndim(); ++axis) {
      if (!nd_sbp[axis].is_split()) continue;
      const int d = nd_sbp[axis].split_dim();
      // Add the sizes of the earlier siblings along this axis (same outer coordinates).
      for (int64_t j = 0; j < c[axis]; ++j) {
        Shape sib = c;
        sib[axis] = j;
        for (int inner = axis + 1; inner < p.ndim(); ++inner) sib[inner] = 0;
        // The sibling's subtree extent along d: sum of its parts along inner splits of d.
        int64_t extent = 0;
        std::function<void(Shape, int)> walk = [&](Shape s, int k) {
          if (k == p.ndim()) {
            extent += parts[p.parallel_id(p.rank_at(s))][d];
            return;
          }
          if (nd_sbp[k].is_split() && nd_sbp[k].split_dim() == d) {
            for (int64_t m = 0; m < p.hierarchy()[k]; ++m) {
              s[k] = m;
              walk(s, k + 1);
            }
          } else {
            walk(s, k + 1);
          }
        };
        walk(sib, axis + 1);
        b.start[d] += extent;
      }
    }
  }
}

}  // namespace

namespace {
// Comm work: it runs on failed inputs (every rank must take part), its outputs in `outputs`.
vm::Flags comm_flags(Memory& outputs) {
  vm::Flags flags;
  flags.run_on_failed_inputs = true;
  flags.outputs_in = &outputs;
  return flags;
}
}  // namespace

bool consistency_check_enabled() {
  const char* v = std::getenv("MESHFLOW_CHECK_CONSISTENCY");
  return v && std::strcmp(v, "0") != 0 && *v;
}

GlobalTensor make_global(const Tensor& local_in, const Placement& placement, const NdSbp& nd_sbp,
                         bool check_consistency) {
  const Tensor local = in_format(local_in, MemoryFormat::kContiguous);
  vm::Issuing issuing;
  // Split dims are checked below, once the parts' ndim is known on every rank.
  agree_on_layout(placement, nd_sbp, -1, check_consistency);
  // Every rank of the job tells its part, or those of an Among scope (the others make no call).
  comm::Group& tellers = comm::among();
  const int me = comm::world_rank();
  PartInfo info{};
  info.participates = placement.contains(me);
  info.dtype = static_cast<int32_t>(local.dtype());
  info.ndim = static_cast<int32_t>(local.ndim());
  for (int d = 0; d < std::min<int>(info.ndim, kMaxDims); ++d) info.shape[d] = local.shape()[d];
  info.value_hash = check_consistency && info.participates ? vm::copy_to(local, device::cpu()).content_hash() : 0;
  std::vector<PartInfo> told(tellers.size());
  tellers.gather_metadata(&info, told.data(), sizeof(PartInfo));
  std::vector<PartInfo> all(comm::world_size());  // by world rank
  for (int i = 0; i < tellers.size(); ++i) all[tellers.world_ranks()[i]] = told[i];

  // Every rank reaches the same verdict from the same gathered facts.
  std::vector<Shape> parts(placement.size());
  const PartInfo& first = all[placement.ranks()[0]];
  for (int id = 0; id < placement.size(); ++id) {
    const int r = placement.ranks()[id];
    const PartInfo& pi = all[r];
    if (pi.ndim > kMaxDims) fail("rank " + std::to_string(r) + "'s part has more than 16 dims; not supported");
    if (pi.dtype != first.dtype) {
      fail("rank " + std::to_string(r) + "'s part is " + dtype_name(static_cast<DType>(pi.dtype)) + " but rank " +
           std::to_string(placement.ranks()[0]) + "'s is " + dtype_name(static_cast<DType>(first.dtype)) +
           "; expected one dtype");
    }
    if (pi.ndim != first.ndim) {
      fail("rank " + std::to_string(r) + "'s part has " + std::to_string(pi.ndim) + " dims but rank " +
           std::to_string(placement.ranks()[0]) + "'s has " + std::to_string(first.ndim) + "; expected equal");
    }
    parts[id] = Shape(pi.shape, pi.shape + pi.ndim);
  }
  check_nd_sbp(nd_sbp, placement, first.ndim);
  Shape coord(placement.ndim(), 0);
  int unused = -1;
  Shape logical = compose(placement, nd_sbp, parts, coord, 0, unused);

  if (check_consistency) {
    for (int id = 0; id < placement.size(); ++id) {
      // Replicas differ only along broadcast axes; compare each with its coordinate-0 replica.
      Shape c = placement.coordinate(id);
      for (int a = 0; a < placement.ndim(); ++a) {
        if (nd_sbp[a].is_broadcast()) c[a] = 0;
      }
      const int r = placement.ranks()[id], base = placement.rank_at(c);
      if (all[r].value_hash != all[base].value_hash) {
        fail("values differ between rank " + std::to_string(base) + " and rank " + std::to_string(r) +
             ", which should hold equal replicas for sbp " + to_string(nd_sbp));
      }
    }
    // Equal parts along a split axis are, but for chance, a whole value every rank loaded:
    // taken as each rank's own part (OneFlow's rule), it would be silently repeated.
    for (int a = 0; a < placement.ndim(); ++a) {
      if (!nd_sbp[a].is_split() || placement.hierarchy()[a] < 2) continue;
      bool equal = true;
      for (int id = 0; id < placement.size() && equal; ++id) {
        Shape c = placement.coordinate(id);
        c[a] = 0;
        const int r = placement.ranks()[id], base = placement.rank_at(c);
        equal = numel(parts[id]) > 0 && all[r].value_hash == all[base].value_hash &&
                parts[id] == parts[placement.parallel_id(base)];
      }
      if (equal) {
        const std::string d = std::to_string(nd_sbp[a].split_dim());
        fail("to_global(split(" + d + ")) of equal parts on every rank of mesh axis " + std::to_string(a) +
             ": a local tensor is this rank's own part (OneFlow's rule), so the result would repeat it " +
             std::to_string(placement.hierarchy()[a]) + " times along dim " + d +
             "; to split a whole value every rank holds, write mf.tensor(x, placement=, sbp=) or "
             "x.to_global(placement, broadcast).to_global(sbp=split(" + d + ")) (checked under "
             "MESHFLOW_CHECK_CONSISTENCY=1)");
      }
    }
  }

  const DType dtype = static_cast<DType>(first.dtype);
  const int my_id = placement.parallel_id(me);
  std::vector<Box> held;
  place_parts(placement, nd_sbp, parts, logical, held);
  bool balanced = true;
  for (int id = 0; id < placement.size(); ++id) {
    balanced = balanced && held[id] == local_box(logical, placement.hierarchy(), nd_sbp, placement.coordinate(id));
  }
  // The part moves to the placement's device.
  Memory& memory = placement.memory();
  Tensor mine = my_id >= 0 ? vm::copy_to(local, placement.device()) : boxing::empty_local(logical, dtype, memory);
  if (!balanced) {
    const boxing::Layout layout{placement, nd_sbp};
    mine = vm::launch("to_global", device::StreamKind::kComm, {mine}, {local_meta(logical, dtype, layout)},
                      [logical, layout, held](const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{boxing::rebalance(in[0], logical, layout, held)};
                      },
                      comm_flags(memory))[0];
  }
  return GlobalTensor(logical, placement, nd_sbp, mine);
}

GlobalTensor global_from_full(const Tensor& full_in, const Placement& placement, const NdSbp& nd_sbp) {
  const Tensor full = in_format(full_in, MemoryFormat::kContiguous);
  vm::Issuing issuing;
  // Nothing moves, and an invalid layout is invalid on every rank alike: ranks agree (on
  // the shape too) only when the consistency check asks.
  if (consistency_check_enabled()) {
    agree_on_layout(placement, nd_sbp, full.ndim(), shape_hash(full.shape(), full.dtype()));
  } else {
    placement.check_in_world(comm::world_size());
    check_nd_sbp(nd_sbp, placement, full.ndim());
  }
  const int id = placement.parallel_id(comm::world_rank());
  if (id < 0) {
    return GlobalTensor(full.shape(), placement, nd_sbp, boxing::empty_local(full.shape(), full.dtype(), placement.memory()));
  }
  Shape c = placement.coordinate(id);
  Box box = local_box(full.shape(), placement.hierarchy(), nd_sbp, c);
  const Tensor host = vm::copy_to(full, device::cpu());
  const bool holds = boxing::holds_partial_sum_value(nd_sbp, c);
  // Made at the call (the slice waits for the host data): an out of memory there, or one
  // the host data failed with, fails this rank's part and every rank raises it at the next
  // read (vm::made_here), never this rank alone.
  const Tensor local = vm::made_here("to_global", {box.extent, full.dtype()}, host_memory(), [&] {
    return holds ? slice(host, box) : Tensor::zeros(box.extent, full.dtype());
  });
  return GlobalTensor(full.shape(), placement, nd_sbp, vm::copy_to(local, placement.device()));
}

namespace {
thread_local ConversionTracer* tracer = nullptr;
}  // namespace

ConversionTracer* conversion_tracer() { return tracer; }
void set_conversion_tracer(ConversionTracer* t) { tracer = t; }

GlobalTensor to_global(const GlobalTensor& t, const Placement& placement, const NdSbp& nd_sbp) {
  vm::Issuing issuing;
  if (t.placement().size() > 1 || placement.size() > 1) {
    comm::note_global_call("to_global", shape_hash(t.shape(), t.dtype()) * 31 + layout_hash(placement, nd_sbp));
  }
  agree_on_layout(placement, nd_sbp, static_cast<int64_t>(t.shape().size()),
                  shape_hash(t.shape(), t.dtype()) * 31 + layout_hash(t.placement(), t.nd_sbp()));
  if (tracer) return tracer->trace_conversion(t, {placement, nd_sbp}, /*user=*/true);
  return convert(t, placement, nd_sbp);
}

GlobalTensor convert(const GlobalTensor& t, const Placement& placement, const NdSbp& nd_sbp) {
  vm::Issuing issuing;
  const boxing::Layout to{placement, nd_sbp};
  if (tracer) return tracer->trace_conversion(t, to, /*user=*/false);
  // From a twin on the same placement, any layout is this rank's slice of it (no collective).
  const GlobalTensor& from = t.twin() && placement == t.placement() ? *whole_here(t) : t;
  return GlobalTensor(t.shape(), placement, nd_sbp,
                      launch_boxing(boxing::cached_plan(t.shape(), t.dtype(), from.layout(), to), t.shape(),
                                    from.local(), to, "to_global"));
}

uint64_t shape_hash(const Shape& shape, DType dtype) {
  uint64_t h = static_cast<uint64_t>(dtype) + 1;
  for (int64_t d : shape) h = h * 1000003u + static_cast<uint64_t>(d);
  return h;
}

TensorMeta local_meta(const Shape& logical, DType dtype, const boxing::Layout& layout) {
  const int id = layout.placement.parallel_id(comm::world_rank());
  if (id < 0) return {boxing::empty_local(logical, dtype).shape(), dtype};
  return {local_box(logical, layout.placement.hierarchy(), layout.nd_sbp, layout.placement.coordinate(id)).extent,
          dtype};
}

Tensor launch_boxing(std::shared_ptr<const boxing::Plan> plan, const Shape& logical, const Tensor& local, const boxing::Layout& to,
                     const std::string& name) {
  if (plan->steps.empty()) return local;
  // The ranks that must learn whether the source failed: all of the plan's, when some
  // target is outside the source placement.
  const Placement& source = plan->steps.front().from.placement;
  bool reaches_out = false;
  for (const boxing::Step& step : plan->steps) {
    if (step.to.placement == source) continue;  // most plans: checked in O(steps)
    for (int r : step.to.placement.ranks()) reaches_out = reaches_out || !source.contains(r);
  }
  std::vector<int> told;
  if (reaches_out) {
    std::set<int> members;
    for (const boxing::Step& step : plan->steps) {
      for (const Placement* p : {&step.from.placement, &step.to.placement}) members.insert(p->ranks().begin(), p->ranks().end());
    }
    if (members.count(comm::world_rank())) told.assign(members.begin(), members.end());
  }
  // The ranks `told` (none: no agreement) first agree on whether the source failed, so that
  // each fails with the source's error instead of receiving zeros.
  // The instruction holds the plan: the cache may evict it before the instruction runs.
  const TensorMeta out = local_meta(logical, local.dtype(), to);
  Memory& target = to.placement.memory();
  return vm::launch(name, device::StreamKind::kComm, {local}, {out},
                    [p = std::move(plan), logical, told = std::move(told), name, out, &target,
                     trail = comm::call_trail()](const std::vector<Tensor>& in) {
                      boxing::PartStatus status{name, in[0].storage()->error(), nullptr, trail};
                      if (!told.empty()) {
                        try {
                          comm::agree(status.own, 0, name, told, &trail);
                        } catch (const std::invalid_argument&) {
                          if (!status.own) throw;  // the source's error, learned here
                          // Its own error, raised once already: the output inherits it.
                          return std::vector<Tensor>{Tensor::zeros(out.shape, out.dtype, target)};
                        }
                      }
                      // A failure the steps' status words told of (boxing::PartStatus) fails
                      // the output here as on the rank it struck.
                      Tensor result = boxing::execute(*p, logical, in[0], 0, nullptr, &status);
                      if (status.learned) std::rethrow_exception(status.learned);
                      return std::vector<Tensor>{result};
                    },
                    comm_flags(target))[0];
}

std::vector<Tensor> launch_fused_boxing(std::shared_ptr<const boxing::Plan> plan, const std::vector<Tensor>& locals,
                                        const std::string& name) {
  std::vector<TensorMeta> metas;
  for (const Tensor& t : locals) metas.push_back({t.shape(), t.dtype()});
  Memory& target = locals.empty() ? host_memory() : locals[0].memory();
  return vm::launch(name, device::StreamKind::kComm, locals, metas,
                    [p = std::move(plan), name, trail = comm::call_trail()](const std::vector<Tensor>& in) {
                      boxing::PartStatus status{name, nullptr, nullptr, trail};
                      for (const Tensor& t : in) status.own = status.own ? status.own : t.storage()->error();
                      std::vector<Tensor> results = boxing::execute_fused(*p, in, &status);
                      if (status.learned) std::rethrow_exception(status.learned);
                      return results;
                    },
                    comm_flags(target));
}

namespace {

thread_local bool read_twins_off = false;

bool on_every_rank(const Placement& placement) {
  return comm::world_size() > 1 && placement.size() == comm::world_size();
}

}  // namespace

NoReadTwins::NoReadTwins() : previous_(read_twins_off) { read_twins_off = true; }
NoReadTwins::~NoReadTwins() { read_twins_off = previous_; }
bool NoReadTwins::active() { return read_twins_off; }

GlobalTensor with_read_twin(const GlobalTensor& t, const std::string& name) {
  if (read_twins_off || numel(t.shape()) > kTwinElements || !on_every_rank(t.placement()) ||
      std::none_of(t.nd_sbp().begin(), t.nd_sbp().end(), [](const Sbp& s) { return s.is_partial(); })) {
    return t;
  }
  const boxing::Layout whole{t.placement(), NdSbp(t.nd_sbp().size(), Sbp::broadcast())};
  GlobalTensor out = t;
  // Its all-reduce tells every rank whether any rank's part failed (boxing::PartStatus; an out
  // of memory may strike one rank alone): a read of the twin, made by any rank alone, then
  // raises that error instead of returning a sum with that rank's part missing.
  out.twin_ = launch_boxing(boxing::cached_plan(t.shape(), t.dtype(), t.layout(), whole), t.shape(), t.local(), whole,
                            name + " (its copy for reads on any rank)");
  return out;
}

bool whole_on_every_rank(const GlobalTensor& t) {
  return on_every_rank(t.placement()) &&
         std::all_of(t.nd_sbp().begin(), t.nd_sbp().end(), [](const Sbp& s) { return s.is_broadcast(); });
}

std::optional<GlobalTensor> whole_here(const GlobalTensor& t) {
  if (t.twin()) return GlobalTensor(t.shape(), t.placement(), NdSbp(t.nd_sbp().size(), Sbp::broadcast()), *t.twin());
  if (whole_on_every_rank(t)) return t;
  return std::nullopt;
}

Tensor gather_full(const GlobalTensor& t, const std::string& read) {
  vm::Issuing issuing;
  if (std::optional<GlobalTensor> here = whole_here(t)) {
    try {
      vm::wait(here->local());
    } catch (...) {
      // An out of memory, this rank's or one a conversion's status words told of from another
      // rank (boxing::PartStatus), as raise_together raises it.
      const std::string message = vm::error_message(std::current_exception());
      if (!is_out_of_memory(message)) throw;
      vm::forget_out_of_memory();
      throw OutOfMemoryError(message);
    }
    return here->local().clone();  // a copy: writing into the value never changes the tensor
  }
  const int world = comm::world_size();
  Placement target = t.placement();
  if (target.size() != world) {
    std::vector<int> all(world);
    std::iota(all.begin(), all.end(), 0);
    target = Placement(t.placement().device_type(), all);
  }
  const NdSbp broadcast(target.ndim(), Sbp::broadcast());
  // Agreed on as a read, apart from any conversion (its hash and its name differ): a read
  // some ranks make while others convert raises naming the read, never pairs with them.
  agree_on_layout(target, broadcast, static_cast<int64_t>(t.shape().size()),
                  ~(shape_hash(t.shape(), t.dtype()) * 31 + layout_hash(t.placement(), t.nd_sbp())),
                  read + " on a global tensor (a collective read: every rank must make it, in the same order)");
  Tensor full = convert(t, target, broadcast).local();
  // Reading the value raises the error of the op that failed to make it. Errors are agreed
  // within placements, except out of memory, which may strike one rank alone (vm.h): the
  // ranks agree on the read, so that every rank raises it and may catch it, as an
  // OutOfMemoryError whatever agreement carried it on the way. That one stands for every out
  // of memory of the work before the read, which then counts as raised, so that a program
  // that catches it goes on from there.
  std::exception_ptr failed;
  std::optional<Tensor> value;
  try {
    vm::wait(full);
    // A copy when nothing moved, so that writing into the value never changes the tensor;
    // made before the agreement, which carries its out of memory to every rank: a
    // collective still in flight may hold this rank's memory beyond its limit (a
    // LimitOverdraft), and the copy raised there, on this rank alone, after the others had
    // agreed on the read.
    value = full.shares_memory(t.local()) ? full.clone() : full;
  } catch (...) {
    failed = std::current_exception();
  }
  vm::raise_together(failed, read);
  return *value;
}

}  // namespace mf
