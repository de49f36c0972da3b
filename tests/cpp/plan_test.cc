// Copyright 2026 The meshflow Authors.
// The boxing planner (CONCEPTS section 5), tested without MPI: the collectives it picks for
// the table's cases, their costs, and a sweep over every pair of layouts in which a small
// in-memory simulator runs each plan on per-rank local tensors and checks that the result
// holds the same logical value. The simulator does what execute.cc does with the same
// boxes and messages, with every rank in one process, and checks the preconditions that
// the collectives rely on (equal shapes for all-reduce, pieces that tile the output, ...).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/boxing/execute.h"
#include "meshflow/boxing/plan.h"
#include "meshflow/core/tensor.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace mf::boxing {
namespace {

// ---------------------------------------------------------------------------------------
// Helpers

const Sbp S0 = Sbp::split(0), S1 = Sbp::split(1), B = Sbp::broadcast(), P = Sbp::partial_sum(),
          Pmax = Sbp::partial_max(), Pmin = Sbp::partial_min();

Placement flat(std::vector<int> ranks) { return Placement("cpu", std::move(ranks)); }
Placement grid(Shape hierarchy, std::vector<int> ranks) { return Placement("cpu", std::move(hierarchy), std::move(ranks)); }
Placement first_n(const Shape& hierarchy) {
  std::vector<int> ranks(numel(hierarchy));
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int>(i);
  return grid(hierarchy, ranks);
}

// Every N-d SBP for a tensor of `ndim` dims on `axes` hierarchy axes.
std::vector<NdSbp> all_nd_sbps(int axes, int64_t ndim) {
  std::vector<Sbp> one{B, P, Pmax, Pmin};
  for (int d = 0; d < ndim; ++d) one.push_back(Sbp::split(d));
  std::vector<NdSbp> all{{}};
  for (int a = 0; a < axes; ++a) {
    std::vector<NdSbp> next;
    for (const NdSbp& prefix : all) {
      for (const Sbp& s : one) {
        NdSbp n = prefix;
        n.push_back(s);
        next.push_back(n);
      }
    }
    all = next;
  }
  return all;
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }
void require(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

bool inside(const Box& inner, const Box& outer) { return intersect(inner, outer) == inner || inner.empty(); }

double value_at(const Tensor& t, int64_t i) {
  return visit_dtype(t.dtype(), [&](auto v) { return static_cast<double>(t.data_as<decltype(v)>()[i]); });
}
void set_value(const Tensor& t, int64_t i, double x) {
  visit_dtype(t.dtype(), [&](auto v) { t.data_as<decltype(v)>()[i] = static_cast<decltype(v)>(x); });
}
Tensor full(const Shape& shape, DType dtype, double x) {
  Tensor t = Tensor::empty(shape, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) set_value(t, i, x);
  return t;
}
// What a simulated collective leaves where nothing was written: visible in any diff.
constexpr double kUnwritten = 12345;

std::string values_str(const Tensor& t) {
  std::ostringstream s;
  s << to_string(t.shape()) << " {";
  for (int64_t i = 0; i < std::min<int64_t>(t.numel(), 24); ++i) s << (i ? ", " : "") << value_at(t, i);
  if (t.numel() > 24) s << ", ...";
  return s.str() + "}";
}

// The logical value: small nonzero integers, exact in every dtype.
Tensor logical_value(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t v = (i * 7 + 3) % 23 - 11;
    set_value(t, i, v == 0 ? 12 : v);
  }
  return t;
}

// A small deterministic "random" integer in [0, 5).
int64_t noise(int64_t element, int64_t index, int64_t salt) {
  uint64_t h = 1469598103934665603ull;
  for (int64_t x : {element, index, salt}) h = (h ^ static_cast<uint64_t>(x + 17)) * 1099511628211ull;
  return static_cast<int64_t>((h >> 29) % 5);
}

// ---------------------------------------------------------------------------------------
// Per-rank local tensors of a layout, and the logical value they stand for

using Locals = std::map<int, Tensor>;  // world rank -> local tensor

// The region of the logical tensor that the outer `axes` axes give to `coordinate`.
Box region(const Shape& logical, const Layout& l, const Shape& coordinate, int axes) {
  NdSbp outer(l.nd_sbp.begin(), l.nd_sbp.begin() + axes);
  Shape h(l.placement.hierarchy().begin(), l.placement.hierarchy().begin() + axes);
  return local_box(logical, h, outer, coordinate);
}

// Locals that represent `value` in layout `l`, with partial values that differ from rank
// to rank (sum: noise that cancels; max/min: one rank per element holds the value, the
// others something smaller/larger), so a plan that mixes them up shows.
Locals distribute(const Tensor& value, const Layout& l) {
  const Placement& p = l.placement;
  const Shape& logical = value.shape();
  Locals locals;
  std::function<void(int, Shape&, const Tensor&)> walk = [&](int axis, Shape& c, const Tensor& v) {
    if (axis == p.ndim()) {
      locals[p.rank_at(c)] = v;
      return;
    }
    const Sbp& s = l.nd_sbp[axis];
    const Box here = region(logical, l, c, axis);
    const int64_t n = p.hierarchy()[axis];
    for (int64_t i = 0; i < n; ++i) {
      c[axis] = i;
      Tensor child;
      if (s.is_split()) {
        child = slice(v, relative_to(region(logical, l, c, axis + 1), here)).clone();
      } else if (s.is_broadcast()) {
        child = v.clone();
      } else {
        // Differ between sibling subtrees of outer split or partial axes too, so that
        // reducing across the wrong axis shows. Replicas along a broadcast axis hold equal
        // locals (what make_global's consistency check demands), so those are left out.
        int64_t salt = axis;
        for (int k = 0; k < axis; ++k) salt = salt * 7 + (l.nd_sbp[k].is_broadcast() ? 0 : c[k] + 1);
        child = v.clone();
        for (int64_t e = 0; e < v.numel(); ++e) {
          double x = value_at(v, e);
          if (s.reduce_op() == ReduceOp::kSum) {
            if (i == 0) {
              for (int64_t k = 1; k < n; ++k) x -= noise(e, k, salt);
            } else {
              x = noise(e, i, salt);
            }
          } else if ((e + salt) % n != i) {
            double off = 1 + noise(e, i, salt);
            x += s.reduce_op() == ReduceOp::kMax ? -off : off;
          }
          set_value(child, e, x);
        }
      }
      walk(axis + 1, c, child);
    }
    c[axis] = 0;
  };
  Shape c(p.ndim(), 0);
  walk(0, c, value);
  return locals;
}

// The logical value that `locals` stand for in layout `l`; throws when they cannot stand
// for one (wrong shapes, replicas that differ).
Tensor assemble(const Locals& locals, const Shape& logical, DType dtype, const Layout& l) {
  const Placement& p = l.placement;
  for (const auto& [rank, t] : locals) require(p.contains(rank), "rank " + std::to_string(rank) + " holds a local but is not in " + p.str());
  std::function<Tensor(int, Shape&)> walk = [&](int axis, Shape& c) -> Tensor {
    if (axis == p.ndim()) {
      const int rank = p.rank_at(c);
      auto it = locals.find(rank);
      require(it != locals.end(), "rank " + std::to_string(rank) + " holds no local");
      const Box box = local_box(logical, p.hierarchy(), l.nd_sbp, c);
      require(it->second.shape() == box.extent && it->second.dtype() == dtype,
              "rank " + std::to_string(rank) + " holds " + to_string(it->second.shape()) + ", expected " +
                  to_string(box.extent));
      return it->second;
    }
    const Sbp& s = l.nd_sbp[axis];
    const Box here = region(logical, l, c, axis);
    Tensor out = full(here.extent, dtype, kUnwritten);
    for (int64_t i = 0; i < p.hierarchy()[axis]; ++i) {
      c[axis] = i;
      Tensor child = walk(axis + 1, c);
      if (s.is_split()) {
        copy_box(child, Box::whole(child.shape()), out, relative_to(region(logical, l, c, axis + 1), here).start);
      } else if (i == 0) {
        out = child.clone();
      } else if (s.is_broadcast()) {
        require(equal(child, out), "replicas differ along broadcast axis " + std::to_string(axis) + ": " +
                                       values_str(child) + " vs " + values_str(out));
      } else {
        reduce_into(out, child, s.reduce_op());
      }
    }
    c[axis] = 0;
    return out;
  };
  Shape c(p.ndim(), 0);
  return walk(0, c);
}

// ---------------------------------------------------------------------------------------
// The simulator: one step at a time, every rank in this process

Locals run_axis_step(const Step& step, const Shape& logical, const Locals& in) {
  const Placement& p = step.from.placement;
  require(step.to.placement == p, "an axis step changes the placement");
  require(step.axis >= 0 && step.axis < p.ndim(), "axis out of range");
  for (int a = 0; a < p.ndim(); ++a) {
    require((a == step.axis) == (step.from.nd_sbp[a] != step.to.nd_sbp[a]), "the step does not change exactly its axis");
  }
  const int axis = step.axis;
  const Sbp& x = step.from.nd_sbp[axis];
  const Sbp& y = step.to.nd_sbp[axis];
  const int64_t n = p.hierarchy()[axis];
  switch (step.kind) {
    case StepKind::kSlice: require(x.is_broadcast() && y.is_split(), "slice is B -> S"); break;
    case StepKind::kKeepOrZero: require(x.is_broadcast() && y.is_partial(), "keep_or_zero is B -> P"); break;
    case StepKind::kScatterIntoPartial: require(x.is_split() && y.is_partial(), "scatter_into_partial is S -> P"); break;
    case StepKind::kAllGather: require(x.is_split() && y.is_broadcast(), "all_gather is S -> B"); break;
    case StepKind::kAllReduce: require(x.is_partial() && y.is_broadcast(), "all_reduce is P -> B"); break;
    case StepKind::kReduceScatter: require(x.is_partial() && y.is_split(), "reduce_scatter is P -> S"); break;
    case StepKind::kAllToAll: require(x.is_split() && y.is_split(), "all_to_all is S -> S"); break;
    case StepKind::kTransfer: fail("not an axis step");
  }
  Locals out;
  int64_t most_moved = 0;  // the step's cost, from every rank's boxes
  for (int id = 0; id < p.size(); ++id) {
    const Shape coord = p.coordinate(id);
    const int me = p.ranks()[id];
    const int my = static_cast<int>(coord[axis]);
    std::vector<Box> src(n), dst(n);
    std::vector<Tensor> member(n);
    for (int64_t m = 0; m < n; ++m) {
      Shape c = coord;
      c[axis] = m;
      src[m] = local_box(logical, p.hierarchy(), step.from.nd_sbp, c);
      dst[m] = local_box(logical, p.hierarchy(), step.to.nd_sbp, c);
      member[m] = in.at(p.rank_at(c));
      require(member[m].shape() == src[m].extent, "a local does not have its box's shape");
    }
    const Tensor& local = member[my];
    const Box& my_src = src[my];
    const Box& my_dst = dst[my];
    const DType dtype = local.dtype();
    const int64_t moved = step.kind == StepKind::kAllGather     ? my_dst.numel() - my_src.numel()
                          : step.kind == StepKind::kReduceScatter ? my_src.numel() - my_dst.numel()
                          : step.kind == StepKind::kAllReduce     ? 2 * my_src.numel() * (n - 1) / n
                          : step.kind == StepKind::kAllToAll
                              ? std::max(my_src.numel(), my_dst.numel()) - intersect(my_src, my_dst).numel()
                              : 0;
    most_moved = std::max(most_moved, moved * static_cast<int64_t>(dtype_size(dtype)));
    Tensor result;
    switch (step.kind) {
      case StepKind::kSlice:
        require(inside(my_dst, my_src), "slice: target box " + my_dst.str() + " not inside " + my_src.str());
        result = slice(local, relative_to(my_dst, my_src)).clone();
        break;
      case StepKind::kKeepOrZero:
        require(my_src == my_dst, "keep_or_zero changes the box");
        result = y.reduce_op() == ReduceOp::kSum && my != 0 ? Tensor::zeros(local.shape(), dtype) : local.clone();
        break;
      case StepKind::kScatterIntoPartial:
        require(inside(my_src, my_dst), "scatter_into_partial: " + my_src.str() + " not inside " + my_dst.str());
        result = Tensor::identity_of(y.reduce_op(), my_dst.extent, dtype);
        copy_box(local, Box::whole(local.shape()), result, relative_to(my_src, my_dst).start);
        break;
      case StepKind::kAllReduce:
        result = local.clone();
        for (int64_t m = 0; m < n; ++m) {
          require(src[m] == my_dst, "all_reduce over boxes that differ: " + src[m].str() + " vs " + my_dst.str());
          if (m != my) reduce_into(result, member[m], x.reduce_op());
        }
        break;
      case StepKind::kReduceScatter: {
        result = Tensor::identity_of(x.reduce_op(), my_dst.extent, dtype);
        for (int64_t m = 0; m < n; ++m) {
          require(inside(my_dst, src[m]), "reduce_scatter: " + my_dst.str() + " not inside " + src[m].str());
          reduce_into(result, slice(member[m], relative_to(my_dst, src[m])).clone(), x.reduce_op());
        }
        break;
      }
      case StepKind::kAllGather:
      case StepKind::kAllToAll: {
        // Member m's piece of my target box; the pieces must tile it.
        result = full(my_dst.extent, dtype, kUnwritten);
        int64_t covered = 0;
        for (int64_t m = 0; m < n; ++m) {
          Box piece = intersect(src[m], my_dst);
          if (step.kind == StepKind::kAllGather) {
            require(inside(src[m], my_dst), "all_gather: " + src[m].str() + " not inside " + my_dst.str());
          }
          covered += piece.numel();
          if (piece.empty()) continue;
          copy_box(member[m], relative_to(piece, src[m]), result, relative_to(piece, my_dst).start);
        }
        require(covered == my_dst.numel(), std::string(step_kind_name(step.kind)) + ": the pieces do not tile " +
                                               my_dst.str());
        break;
      }
      case StepKind::kTransfer: break;
    }
    out[me] = result;
  }
  require(step.cost == most_moved, "the step costs " + std::to_string(step.cost) + " B, its ranks move up to " +
                                       std::to_string(most_moved) + " B");
  return out;
}

// Every message of a transfer, from what each rank derives for itself; throws unless each
// message is listed by both its ranks, as the executor needs (a message that one side does
// not post hangs).
std::vector<TransferMessage> every_message(const Shape& logical, const Layout& from, const Layout& to,
                                           const std::vector<Box>* src_boxes = nullptr) {
  std::set<int> ranks(from.placement.ranks().begin(), from.placement.ranks().end());
  ranks.insert(to.placement.ranks().begin(), to.placement.ranks().end());
  std::map<int, std::vector<TransferMessage>> listed;
  for (int rank : ranks) listed[rank] = transfer_messages(logical, from, to, rank, src_boxes);
  auto key = [](const TransferMessage& m) { return std::to_string(m.src_rank) + ">" + std::to_string(m.dst_rank) + " " + m.box.str(); };
  std::multiset<std::string> sent, received;
  std::vector<TransferMessage> all;
  for (auto& [rank, messages] : listed) {
    for (const TransferMessage& m : messages) {
      require(m.src_rank == rank || m.dst_rank == rank,
              "rank " + std::to_string(rank) + " lists a message of others: " + key(m));
      if (m.src_rank == rank) {
        sent.insert(key(m));
        all.push_back(m);
      }
      if (m.dst_rank == rank) received.insert(key(m));
    }
  }
  for (const std::string& m : sent) require(received.count(m) == 1, "sent but not received once: " + m);
  for (const std::string& m : received) require(sent.count(m) == 1, "received but not sent once: " + m);
  return all;
}

Locals run_transfer(const Step& step, const Shape& logical, DType dtype, const Locals& in) {
  const Layout& from = step.from;
  const Layout& to = step.to;
  std::vector<ReduceOp> ops;
  for (const Sbp& s : from.nd_sbp) {
    if (s.is_partial()) ops.push_back(s.reduce_op());
  }
  for (ReduceOp op : ops) require(op == ops[0], "transfer from partial values of different reductions");
  const bool partial = !ops.empty();
  Locals out;
  std::map<int, Box> dst_box, src_box;
  std::map<int, int64_t> received;
  for (int q = 0; q < to.placement.size(); ++q) {
    const Shape cd = to.placement.coordinate(q);
    const int rank = to.placement.ranks()[q];
    dst_box[rank] = local_box(logical, to.placement.hierarchy(), to.nd_sbp, cd);
    const Shape& ext = dst_box[rank].extent;
    out[rank] = !holds_partial_sum_value(to.nd_sbp, cd) ? Tensor::zeros(ext, dtype)
                : partial                               ? Tensor::identity_of(ops[0], ext, dtype)
                                                        : full(ext, dtype, kUnwritten);
  }
  for (int id = 0; id < from.placement.size(); ++id) {
    src_box[from.placement.ranks()[id]] =
        local_box(logical, from.placement.hierarchy(), from.nd_sbp, from.placement.coordinate(id));
  }
  for (const TransferMessage& m : every_message(logical, from, to)) {
    require(src_box.count(m.src_rank), "message from rank " + std::to_string(m.src_rank) + ", not a source");
    require(dst_box.count(m.dst_rank), "message to rank " + std::to_string(m.dst_rank) + ", not a target");
    const Box& sb = src_box[m.src_rank];
    const Box& db = dst_box[m.dst_rank];
    require(!m.box.empty(), "an empty message");
    require(inside(m.box, sb) && inside(m.box, db), "message " + m.box.str() + " outside its boxes");
    Tensor piece = slice(in.at(m.src_rank), relative_to(m.box, sb)).clone();
    Box where = relative_to(m.box, db);
    if (partial) {
      Tensor region_now = slice(out[m.dst_rank], where).clone();
      reduce_into(region_now, piece, ops[0]);
      copy_box(region_now, Box::whole(where.extent), out[m.dst_rank], where.start);
    } else {
      copy_box(piece, Box::whole(piece.shape()), out[m.dst_rank], where.start);
    }
    received[m.dst_rank] += m.box.numel();
  }
  if (!partial) {
    // Without reductions every element arrives exactly once.
    for (int q = 0; q < to.placement.size(); ++q) {
      const int rank = to.placement.ranks()[q];
      if (!holds_partial_sum_value(to.nd_sbp, to.placement.coordinate(q))) continue;
      require(received[rank] == dst_box[rank].numel(),
              "rank " + std::to_string(rank) + " receives " + std::to_string(received[rank]) + " elements for a box of " +
                  std::to_string(dst_box[rank].numel()));
    }
  }
  return out;
}

// Runs `plan` on `locals` (layout `from`, holding `value`); returns the locals of its last
// layout. Throws with the reason when a step cannot run as the executor would run it, or
// when a layout on the way does not hold `value`.
Locals simulate(const Plan& plan, const Tensor& value, const Layout& from, const Layout& to, Locals locals) {
  const Shape& logical = value.shape();
  const DType dtype = value.dtype();
  Layout at = from;
  int64_t cost = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& step = plan.steps[i];
    try {
      require(step.from.same_data(at), "the step starts from " + step.from.str() + ", not " + at.str());
      locals = step.kind == StepKind::kTransfer ? run_transfer(step, logical, dtype, locals)
                                                : run_axis_step(step, logical, locals);
      // Every layout on the way holds the value.
      Tensor now = assemble(locals, logical, dtype, step.to);
      require(equal(now, value), "wrong value: " + values_str(now) + ", expected " + values_str(value));
    } catch (const std::exception& e) {
      fail("step " + std::to_string(i) + " (" + step.str() + "): " + e.what());
    }
    at = step.to;
    cost += step.cost;
  }
  require(at.same_data(to), "the plan ends at " + at.str() + ", not " + to.str());
  require(cost == plan.cost, "the plan's cost " + std::to_string(plan.cost) + " is not the sum of its steps' " +
                                 std::to_string(cost));
  return locals;
}

// The cost of one direct transfer, recomputed from its messages: the most bytes any rank
// sends or receives, not counting what it keeps.
int64_t direct_transfer_cost(const Shape& logical, DType dtype, const Layout& from, const Layout& to) {
  std::map<int, int64_t> in, out;
  for (const TransferMessage& m : every_message(logical, from, to)) {
    if (m.src_rank == m.dst_rank) continue;
    in[m.dst_rank] += m.box.numel();
    out[m.src_rank] += m.box.numel();
  }
  int64_t worst = 0;
  for (auto* side : {&in, &out}) {
    for (auto& [rank, elems] : *side) worst = std::max(worst, elems);
  }
  return worst * static_cast<int64_t>(dtype_size(dtype));
}

bool single_reduction(const NdSbp& nd_sbp) {
  std::vector<ReduceOp> ops;
  for (const Sbp& s : nd_sbp) {
    if (s.is_partial()) ops.push_back(s.reduce_op());
  }
  return std::all_of(ops.begin(), ops.end(), [&](ReduceOp op) { return op == ops[0]; });
}

// Plans and simulates from -> to; returns "" when the plan is valid, else why not.
std::string check_pair(const Shape& logical, DType dtype, const Layout& from, const Layout& to) {
  const std::string what = to_string(logical) + " " + dtype_name(dtype) + ": " + from.str() + " -> " + to.str();
  const Tensor value = logical_value(logical, dtype);
  Plan plan;
  try {
    plan = plan_boxing(logical, dtype, from, to);
  } catch (const std::exception& e) {
    return what + "\n  plan_boxing threw: " + e.what();
  }
  try {
    Locals result = simulate(plan, value, from, to, distribute(value, from));
    Tensor got = assemble(result, logical, dtype, to);
    require(equal(got, value), "wrong value: " + values_str(got) + ", expected " + values_str(value));
    // Without partial axes each local is exactly its slice of the value.
    bool any_partial = std::any_of(to.nd_sbp.begin(), to.nd_sbp.end(), [](const Sbp& s) { return s.is_partial(); });
    if (!any_partial) {
      for (int id = 0; id < to.placement.size(); ++id) {
        Box box = local_box(logical, to.placement.hierarchy(), to.nd_sbp, to.placement.coordinate(id));
        require(equal(result.at(to.placement.ranks()[id]), slice(value, box).clone()),
                "rank " + std::to_string(to.placement.ranks()[id]) + " does not hold its slice");
      }
    }
    // Never dearer than the direct transfer, when that one is valid.
    if (single_reduction(from.nd_sbp)) {
      const int64_t direct = direct_transfer_cost(logical, dtype, from, to);
      const int64_t planned = direct_transfer(logical, dtype, from, to).cost;
      require(planned == direct, "the planner costs the direct transfer " + std::to_string(planned) +
                                     " B, its messages " + std::to_string(direct) + " B");
      require(plan.cost <= direct, "cost " + std::to_string(plan.cost) + " exceeds the direct transfer's " +
                                       std::to_string(direct));
      // And the direct transfer itself is valid.
      Plan transfer{{Step{StepKind::kTransfer, from, to, -1, direct}}, direct};
      Tensor direct_value = assemble(simulate(transfer, value, from, to, distribute(value, from)), logical,
                                     dtype, to);
      require(equal(direct_value, value), "the direct transfer gives " + values_str(direct_value));
    }
  } catch (const std::exception& e) {
    return what + "\n  plan: " + plan.str() + "\n  " + e.what();
  }
  return "";
}

// Checks every pair of N-d SBPs from `src` to `dst` placements (every `stride`-th pair,
// for the larger hierarchies); reports the first failures.
void sweep(const Placement& src, const Placement& dst, const std::vector<Shape>& shapes, DType dtype,
           int stride = 1) {
  int checked = 0, index = 0;
  std::vector<std::string> failures;
  for (const Shape& logical : shapes) {
    const int64_t ndim = static_cast<int64_t>(logical.size());
    for (const NdSbp& x : all_nd_sbps(src.ndim(), ndim)) {
      for (const NdSbp& y : all_nd_sbps(dst.ndim(), ndim)) {
        if (index++ % stride != 0) continue;
        std::string err = check_pair(logical, dtype, {src, x}, {dst, y});
        ++checked;
        if (!err.empty()) failures.push_back(err);
      }
    }
  }
  std::string report;
  for (size_t i = 0; i < std::min<size_t>(failures.size(), 8); ++i) report += failures[i] + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << checked << " conversions " << src.ranks_str() << " -> "
                                << dst.ranks_str() << " are wrong; the first:\n"
                                << report;
  EXPECT_GT(checked, 0);
}

const std::vector<Shape> kShapes{{5, 3}, {4, 6}, {1, 2}, {0, 3}, {7}, {}};

// ---------------------------------------------------------------------------------------
// The simulator's own check: it must reject a wrong plan.

TEST(CachedPlan, SameArgumentsSamePlanOtherArgumentsOther) {
  const Placement p = first_n({2, 2});
  const Layout from{p, {Sbp::split(0), Sbp::split(0)}}, to{p, {Sbp::broadcast(), Sbp::broadcast()}};
  const std::shared_ptr<const Plan> first = cached_plan({5, 3}, DType::kFloat32, from, to);
  EXPECT_EQ(first, cached_plan({5, 3}, DType::kFloat32, from, to));
  EXPECT_EQ(first->str(), plan_boxing({5, 3}, DType::kFloat32, from, to).str());
  EXPECT_NE(first, cached_plan({5, 4}, DType::kFloat32, from, to));
  EXPECT_NE(first, cached_plan({5, 3}, DType::kFloat64, from, to));
  EXPECT_NE(first, cached_plan({5, 3}, DType::kFloat32, to, from));
}

// A program whose shapes never repeat keeps at most the capacity's plans; the most recently
// used survive, and a plan evicted while held stays valid for its holder.
TEST(CachedPlan, BoundedLeastRecentlyUsedFirst) {
  const Placement p = first_n({2});
  const Layout from{p, {Sbp::split(0)}}, to{p, {Sbp::broadcast()}};
  set_boxing_cache_capacity(8);
  const std::shared_ptr<const Plan> held = cached_plan({1, 3}, DType::kFloat32, from, to);
  const std::string text = held->str();
  for (int64_t n = 2; n < 2002; ++n) {
    cached_plan({n, 3}, DType::kFloat32, from, to);
    EXPECT_LE(boxing_cache_stats().entries, 8);
  }
  EXPECT_EQ(boxing_cache_stats().entries, 8);
  EXPECT_EQ(held->str(), text);
  const int64_t misses = boxing_cache_stats().misses;
  cached_plan({2001, 3}, DType::kFloat32, from, to);  // recent: kept
  EXPECT_EQ(boxing_cache_stats().misses, misses);
  cached_plan({1, 3}, DType::kFloat32, from, to);  // the oldest: evicted, planned again
  EXPECT_EQ(boxing_cache_stats().misses, misses + 1);
  set_boxing_cache_capacity(default_cache_capacity());
}

// Plans on large meshes never list pairs of ranks, collectives or transfers, on one
// placement or between two. (The old planner took seconds and gigabytes here, and failed
// with bad_alloc at 16,384 ranks.)
TEST(PlanScale, PlansOnLargeMeshesCostMillisecondsWhateverTheyMove) {
  const Shape logical{1 << 16, 1 << 14};
  const auto start = std::chrono::steady_clock::now();
  int plans = 0;
  for (const Shape& h : {Shape{16384}, Shape{128, 128}, Shape{64, 64}, Shape{16, 16, 16}, Shape{32, 32, 16},
                         Shape{8, 8, 8, 8}, Shape{16, 8, 8, 16}}) {
    const Placement p = first_n(h);
    const NdSbp all_b(h.size(), B);
    NdSbp partial = all_b, split = all_b, split_other = all_b, rows = all_b, cols = all_b, crossed = all_b;
    partial[0] = P;
    split[0] = S0;
    split_other.back() = S1;
    for (size_t a = 0; a < h.size(); ++a) {
      rows[a] = S0;
      cols[a] = S1;
      crossed[a] = a % 2 ? S0 : S1;
    }
    for (const auto& [from, to] : std::vector<std::pair<NdSbp, NdSbp>>{
             {partial, all_b}, {split, all_b}, {split, split_other}, {all_b, split}, {partial, split},
             {rows, cols}, {crossed, rows}, {cols, crossed}, {partial, cols}}) {
      const Plan plan = plan_boxing(logical, DType::kFloat32, {p, from}, {p, to});
      EXPECT_LE(plan.cost, direct_transfer(logical, DType::kFloat32, {p, from}, {p, to}).cost) << plan.str();
      plans += 2;
    }
  }
  // Pipeline stages: two placements of 4,096 ranks each.
  const Placement first = first_n({64, 64});
  std::vector<int> next_ranks(4096);
  for (int i = 0; i < 4096; ++i) next_ranks[i] = 4096 + i;
  const Placement second("cpu", {64, 64}, next_ranks);
  const Plan stage = plan_boxing(logical, DType::kFloat32, {first, {S0, S1}}, {second, {S0, S1}});
  EXPECT_EQ(stage.cost, numel(logical) / 4096 * 4) << stage.str();
  ++plans;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40 * plans));
}

// A transpose of the mesh's splits is one message per rank, which the planner knows
// without listing the 4,096 ranks' messages.
TEST(PlanScale, DirectTransferCostIsExactOnLargeMeshes) {
  const Placement p = first_n({64, 64});
  const Shape logical{1 << 12, 1 << 12};
  const Plan plan = plan_boxing(logical, DType::kFloat32, {p, {S0, S1}}, {p, {S1, S0}});
  ASSERT_EQ(plan.steps.size(), 1u) << plan.str();
  EXPECT_EQ(plan.steps[0].kind, StepKind::kTransfer);
  EXPECT_EQ(plan.cost, numel(logical) / 4096 * 4);
  // Rank 1 at (0, 1) holds rows 0-63, columns 64-127 and needs rows 64-127, columns 0-63,
  // which rank 64 at (1, 0) holds: one message each way.
  const std::vector<TransferMessage> mine = transfer_messages(logical, {p, {S0, S1}}, {p, {S1, S0}}, 1);
  ASSERT_EQ(mine.size(), 2u);
  for (const TransferMessage& m : mine) {
    EXPECT_EQ(m.src_rank + m.dst_rank, 65);
    EXPECT_EQ(m.box.numel(), 64 * 64);
  }
}

TEST(Simulator, RejectsWrongPlans) {
  const Shape logical{5, 3};
  const Placement p = first_n({2, 2});
  // (S(0), S(0)) -> (B, S(0)) as one all-gather on axis 0 is wrong: the inner split must be undone first.
  Layout a{p, {S0, S0}}, b{p, {B, S0}};
  Plan wrong{{Step{StepKind::kAllGather, a, b, 0, 0}}, 0};
  Tensor value = logical_value(logical, DType::kFloat32);
  EXPECT_THROW(simulate(wrong, value, a, b, distribute(value, a)), std::runtime_error);
  // (P, P(max)) -> (B, P(max)) by an all-reduce sum on axis 0 mixes the reductions: wrong value.
  Layout c{p, {P, Pmax}}, d{p, {B, Pmax}};
  Plan mixed{{Step{StepKind::kAllReduce, c, d, 0, 0}}, 0};
  EXPECT_THROW(simulate(mixed, value, c, d, distribute(value, c)), std::runtime_error);
  // A plan that stops early.
  EXPECT_THROW(simulate(Plan{}, value, a, b, distribute(value, a)), std::runtime_error);
  // distribute and assemble are inverse for every layout.
  for (const NdSbp& s : all_nd_sbps(2, 2)) {
    Layout l{p, s};
    EXPECT_TRUE(equal(assemble(distribute(value, l), logical, DType::kFloat32, l), value)) << to_string(s);
  }
  // Partial locals really differ from the value, so a plan that ignores them fails.
  Locals partial = distribute(value, {p, {P, B}});
  EXPECT_FALSE(equal(partial.at(0), value));
}

// ---------------------------------------------------------------------------------------
// The table of CONCEPTS section 5 on one axis: 4 ranks, 16 x 16 float32, T = 1024 bytes.

class OneAxis : public ::testing::Test {
 protected:
  const Placement p = flat({0, 1, 2, 3});
  const Shape logical{16, 16};
  static constexpr int64_t T = 16 * 16 * 4;
  static constexpr int64_t n = 4;

  Plan plan(const Sbp& x, const Sbp& y) { return plan_boxing(logical, DType::kFloat32, {p, {x}}, {p, {y}}); }
  void expect_one(const Sbp& x, const Sbp& y, StepKind kind, int64_t cost) {
    Plan got = plan(x, y);
    ASSERT_EQ(got.steps.size(), 1u) << x.str() << " -> " << y.str() << ": " << got.str();
    EXPECT_EQ(got.steps[0].kind, kind) << got.str();
    EXPECT_EQ(got.steps[0].axis, 0);
    EXPECT_EQ(got.steps[0].cost, cost) << got.str();
    EXPECT_EQ(got.cost, cost);
    EXPECT_EQ(got.steps[0].from, (Layout{p, {x}}));
    EXPECT_EQ(got.steps[0].to, (Layout{p, {y}}));
  }
};

TEST_F(OneAxis, CollectivesAndCosts) {
  expect_one(S0, B, StepKind::kAllGather, T * (n - 1) / n);
  expect_one(S1, B, StepKind::kAllGather, T * (n - 1) / n);
  expect_one(P, B, StepKind::kAllReduce, 2 * T * (n - 1) / n);
  expect_one(Pmax, B, StepKind::kAllReduce, 2 * T * (n - 1) / n);
  expect_one(Pmin, B, StepKind::kAllReduce, 2 * T * (n - 1) / n);
  expect_one(P, S0, StepKind::kReduceScatter, T * (n - 1) / n);
  expect_one(Pmax, S1, StepKind::kReduceScatter, T * (n - 1) / n);
  expect_one(S0, S1, StepKind::kAllToAll, T * (n - 1) / (n * n));
  expect_one(S1, S0, StepKind::kAllToAll, T * (n - 1) / (n * n));
  expect_one(B, S1, StepKind::kSlice, 0);
  expect_one(B, S0, StepKind::kSlice, 0);
  expect_one(B, P, StepKind::kKeepOrZero, 0);
  expect_one(B, Pmax, StepKind::kKeepOrZero, 0);
  expect_one(S0, P, StepKind::kScatterIntoPartial, 0);
  expect_one(S1, Pmin, StepKind::kScatterIntoPartial, 0);
}

TEST_F(OneAxis, OnlyAllReducePlansFuseAndTheirKeysNameGroupAndReduction) {
  // Gradient buckets fuse conversions with equal keys: same groups, same reductions,
  // whatever the logical shapes.
  const auto other_shape = plan_boxing({3, 5}, DType::kFloat32, {p, {P}}, {p, {B}});
  ASSERT_TRUE(fusion_key(plan(P, B)).has_value());
  EXPECT_EQ(fusion_key(plan(P, B)), fusion_key(other_shape));
  EXPECT_NE(fusion_key(plan(P, B)), fusion_key(plan(Pmax, B)));
  const Placement two = flat({0, 1});
  EXPECT_NE(fusion_key(plan(P, B)), fusion_key(plan_boxing(logical, DType::kFloat32, {two, {P}}, {two, {B}})));
  for (auto [x, y] : {std::pair{P, S0}, {S0, B}, {S0, S1}, {B, S0}, {P, P}}) {
    EXPECT_FALSE(fusion_key(plan(x, y)).has_value()) << x.str() << " -> " << y.str();
  }
}

TEST_F(OneAxis, SameToSameIsNothing) {
  for (const Sbp& s : {S0, S1, B, P, Pmax, Pmin}) {
    Plan got = plan(s, s);
    EXPECT_TRUE(got.steps.empty()) << s.str() << ": " << got.str();
    EXPECT_EQ(got.cost, 0);
    EXPECT_EQ(got.str(), "nothing to do");
  }
}

TEST_F(OneAxis, PartialToOtherPartialGoesThroughBroadcast) {
  // P(max) -> P: all-reduce max, then keep-or-zero (cheaper than a transfer of whole tensors).
  Plan got = plan(Pmax, P);
  ASSERT_EQ(got.steps.size(), 2u) << got.str();
  EXPECT_EQ(got.steps[0].kind, StepKind::kAllReduce);
  EXPECT_EQ(got.steps[1].kind, StepKind::kKeepOrZero);
  EXPECT_EQ(got.cost, 2 * T * (n - 1) / n);
}

TEST_F(OneAxis, UnevenCostIsTheWorstRank) {
  // 6 rows over 4 ranks: parts of 2, 2, 1, 1 rows of 16 floats; the all-gather's worst rank
  // receives 6 - 1 = 5 rows.
  Plan got = plan_boxing({6, 16}, DType::kFloat32, {p, {S0}}, {p, {B}});
  ASSERT_EQ(got.steps.size(), 1u);
  EXPECT_EQ(got.cost, 5 * 16 * 4);
  // float64 doubles it.
  EXPECT_EQ(plan_boxing({6, 16}, DType::kFloat64, {p, {S0}}, {p, {B}}).cost, 2 * 5 * 16 * 4);
}

TEST(PlanStr, Readable) {
  const Placement p = flat({0, 1, 2, 3});
  Plan gather = plan_boxing({16, 16}, DType::kFloat32, {p, {S0}}, {p, {B}});
  EXPECT_EQ(gather.str(), "all_gather on axis 0 (S(0)) -> (B) (768 B)");
  EXPECT_EQ(std::string(step_kind_name(StepKind::kReduceScatter)), "reduce_scatter");

  const Placement q = flat({4, 5});
  Plan moved = plan_boxing({4, 4}, DType::kFloat32, {p, {S0}}, {q, {S0}});
  ASSERT_FALSE(moved.steps.empty());
  const std::string s = moved.str();
  EXPECT_NE(s.find("transfer placement(type=\"cpu\", ranks=[0, 1, 2, 3]) (S(0)) -> "), std::string::npos) << s;
  EXPECT_NE(s.find("ranks=[4, 5]"), std::string::npos) << s;
  EXPECT_NE(s.find(" B)"), std::string::npos) << s;

  const Placement g = first_n({2, 2});
  Plan two = plan_boxing({16, 16}, DType::kFloat32, {g, {S0, S0}}, {g, {B, B}});
  EXPECT_NE(two.str().find("; "), std::string::npos) << two.str();  // steps separated by "; "
  EXPECT_EQ((Layout{g, {S0, B}}).str(), "placement(type=\"cpu\", ranks=[[0, 1], [2, 3]]) (S(0), B)");
}

// ---------------------------------------------------------------------------------------
// Two axes on [[0, 1], [2, 3]]

TEST(TwoAxes, NestedSplitIsUndoneFromTheInside) {
  const Placement p = first_n({2, 2});
  const Shape logical{16, 16};
  Plan got = plan_boxing(logical, DType::kFloat32, {p, {S0, S0}}, {p, {B, B}});
  ASSERT_EQ(got.steps.size(), 2u) << got.str();
  EXPECT_EQ(got.steps[0].kind, StepKind::kAllGather) << got.str();
  EXPECT_EQ(got.steps[0].axis, 1) << got.str();
  EXPECT_EQ(got.steps[0].to.nd_sbp, (NdSbp{S0, B}));
  EXPECT_EQ(got.steps[1].kind, StepKind::kAllGather);
  EXPECT_EQ(got.steps[1].axis, 0);
  // A quarter in, then a half in: 3/4 of T.
  EXPECT_EQ(got.cost, 1024 / 4 + 1024 / 2);
  EXPECT_EQ(check_pair(logical, DType::kFloat32, {p, {S0, S0}}, {p, {B, B}}), "");
}

TEST(TwoAxes, PartialInsideARowIsOneAllReduce) {
  const Placement p = first_n({2, 2});
  Plan got = plan_boxing({16, 16}, DType::kFloat32, {p, {S0, P}}, {p, {S0, B}});
  ASSERT_EQ(got.steps.size(), 1u) << got.str();
  EXPECT_EQ(got.steps[0].kind, StepKind::kAllReduce);
  EXPECT_EQ(got.steps[0].axis, 1);
  // Each rank holds half the tensor (512 B); a 2-rank all-reduce moves 2 * 512 * 1/2.
  EXPECT_EQ(got.cost, 512);
}

TEST(TwoAxes, BroadcastOuterToNestedSplit) {
  // (B, S(0)) -> (S(0), S(0)): slicing axis 0 under an inner S(0) is not a local slice, so the
  // planner either gathers first or transfers; the transfer moves a quarter of T per rank.
  const Placement p = first_n({2, 2});
  const Shape logical{16, 16};
  Plan got = plan_boxing(logical, DType::kFloat32, {p, {B, S0}}, {p, {S0, S0}});
  EXPECT_EQ(check_pair(logical, DType::kFloat32, {p, {B, S0}}, {p, {S0, S0}}), "");
  EXPECT_LE(got.cost, 1024 / 4) << got.str();
}

TEST(TwoAxes, MixedReductionsAreReducedInnerFirst) {
  // (P, P(max)): the logical value is the sum over rows of each row's max; the max must be
  // reduced inside rows before the sum across them.
  const Placement p = first_n({2, 2});
  Plan got = plan_boxing({4, 4}, DType::kFloat32, {p, {P, Pmax}}, {p, {B, B}});
  ASSERT_EQ(got.steps.size(), 2u) << got.str();
  EXPECT_EQ(got.steps[0].axis, 1);
  EXPECT_EQ(got.steps[0].kind, StepKind::kAllReduce);
  EXPECT_EQ(check_pair({4, 4}, DType::kFloat32, {p, {P, Pmax}}, {p, {B, B}}), "");
}

TEST(TwoAxes, NoScatterIntoPartialOverAnInnerReductionOfAnotherKind) {
  // (S(0), P) -> (P(max), P) as one scatter_into_partial on axis 0 fills the rest of each
  // row's tensors with max's identity, which the inner sum then adds up: for ints,
  // lowest + lowest overflows (the sweep found the planner choosing that step; simulating
  // it here would be the overflow itself, undefined behaviour).
  const Placement p = first_n({2, 2});
  const Layout from{p, {S0, P}}, to{p, {Pmax, P}};
  Plan got = plan_boxing({5, 3}, DType::kInt32, from, to);
  for (const Step& step : got.steps) EXPECT_NE(step.kind, StepKind::kScatterIntoPartial) << got.str();
  EXPECT_EQ(check_pair({5, 3}, DType::kInt32, from, to), "");
}

// ---------------------------------------------------------------------------------------
// Sweeps: every pair of N-d SBPs, checked by simulation

TEST(Sweep, SamePlacementOneAxis) {
  for (const Shape& h : {Shape{2}, Shape{3}}) sweep(first_n(h), first_n(h), kShapes, DType::kFloat32);
}

TEST(Sweep, SamePlacementTwoByTwo) { sweep(first_n({2, 2}), first_n({2, 2}), kShapes, DType::kFloat32); }

TEST(Sweep, SamePlacementTwoByThree) { sweep(first_n({2, 3}), first_n({2, 3}), kShapes, DType::kFloat32); }

TEST(Sweep, ThreeDimsAndOtherDtypes) {
  sweep(first_n({2, 2}), first_n({2, 2}), {{3, 2, 5}}, DType::kFloat32);
  for (DType dtype : {DType::kFloat64, DType::kInt32, DType::kInt64}) {
    sweep(first_n({2, 2}), first_n({2, 2}), {{5, 3}, {2}}, dtype);
  }
}

TEST(Sweep, ThreeAxes) {
  // 216 N-d SBPs, 46656 pairs each: every 13th pair (all of them pass; about 25 s).
  sweep(first_n({2, 2, 2}), first_n({2, 2, 2}), {{5, 3}}, DType::kFloat32, 13);
  sweep(first_n({2, 1, 3}), first_n({2, 1, 3}), {{4, 5}}, DType::kInt32, 13);
}

TEST(Sweep, DisjointPlacements) { sweep(flat({0, 1}), flat({2, 3}), kShapes, DType::kFloat32); }

// One hierarchy, ranks shared and permuted: senders follow coordinates, except that a
// target holding its own group's part copies it.
TEST(Sweep, OverlappingPlacementsOfOneHierarchy) {
  sweep(flat({0, 1, 2}), flat({1, 2, 3}), kShapes, DType::kFloat32);
  sweep(flat({0, 1, 2}), flat({2, 0, 1}), kShapes, DType::kFloat32);
  sweep(first_n({2, 2}), grid({2, 2}, {3, 1, 2, 0}), {{5, 3}, {2}}, DType::kFloat32);
  sweep(first_n({2, 2}), grid({2, 2}, {0, 2, 1, 3}), {{5, 3}, {2}}, DType::kFloat32);
}

TEST(Sweep, FlatToGrid) {
  sweep(flat({0, 1, 2, 3}), first_n({2, 2}), kShapes, DType::kFloat32);
  sweep(first_n({2, 2}), flat({0, 1, 2, 3}), kShapes, DType::kFloat32);
}

TEST(Sweep, OneRankToFour) {
  sweep(flat({0}), flat({0, 1, 2, 3}), kShapes, DType::kFloat32);
  sweep(flat({0, 1, 2, 3}), flat({1}), kShapes, DType::kFloat32);
}

TEST(Sweep, GridsOfDifferentShapes) {
  sweep(first_n({2, 3}), grid({3, 2}, {5, 4, 3, 2, 1, 0}), {{5, 3}, {0, 3}}, DType::kFloat32);
  sweep(first_n({2, 2}), grid({2, 2}, {2, 3, 4, 5}), {{5, 3}, {7}}, DType::kInt64);
}

}  // namespace
}  // namespace mf::boxing
