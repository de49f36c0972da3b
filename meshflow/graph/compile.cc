// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/compile.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/boxing/execute.h"
#include "meshflow/comm/comm.h"
#include "meshflow/graph/fusion.h"
#include "meshflow/ops/op.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {
namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;
constexpr int64_t kAlign = 64;

int64_t add_sat(int64_t a, int64_t b) { return std::min(kInf, a + b); }
int64_t aligned(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

int64_t box_cost(const Value& v, const boxing::Layout& from, const boxing::Layout& to) {
  if (from == to || from.same_data(to)) return 0;
  return boxing::cached_plan(v.shape, v.dtype, from, to)->cost;
}

// Eager's rule: an input is never boxed into partial (it costs nothing here but makes every
// later consumer reduce).
bool partial_ok(const NdSbp& have, const NdSbp& want) {
  for (size_t a = 0; a < want.size(); ++a) {
    if (want[a].is_partial() && want[a] != have[a]) return false;
  }
  return true;
}

int64_t bytes_on_first_rank(const Value& v, const Shape& hierarchy, const NdSbp& nd_sbp) {
  return local_box(v.shape, hierarchy, nd_sbp, Shape(hierarchy.size(), 0)).numel() *
         static_cast<int64_t>(dtype_size(v.dtype));
}

bool satisfies(const NdSignature& s, const Constraints& c) {
  if (c.signature && !(s == *c.signature)) return false;
  for (size_t i = 0; i < c.outputs.size() && i < s.outputs.size(); ++i) {
    if (c.outputs[i] && *c.outputs[i] != s.outputs[i]) return false;
  }
  return true;
}

// Where a value goes: an op's input, a kept conversion's input, or a sink (a layout the
// run must deliver: a returned output, a variable's new value).
struct Use {
  int node = -1;  // -1: a sink
  int input = 0;
  std::optional<boxing::Layout> sink;
};

}  // namespace

int64_t plan_arena(const std::vector<RegisterUse>& registers, const std::function<bool(int, int)>& ordered,
                   std::vector<int64_t>& offsets) {
  offsets.assign(registers.size(), 0);
  // Whether every reader of q finishes before r's writer starts.
  auto dead_before = [&](const RegisterUse& q, const RegisterUse& r) {
    if (q.consumers.empty()) return ordered(q.producer, r.producer);
    for (int c : q.consumers) {
      if (!ordered(c, r.producer)) return false;
    }
    return true;
  };
  std::vector<int> order(registers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return registers[a].bytes > registers[b].bytes; });
  std::vector<int> placed;
  int64_t arena = 0;
  for (int r : order) {
    const int64_t size = aligned(registers[r].bytes);
    if (size == 0) continue;
    std::vector<std::pair<int64_t, int64_t>> taken;  // [begin, end) of conflicting registers
    for (int q : placed) {
      if (!dead_before(registers[q], registers[r]) && !dead_before(registers[r], registers[q])) {
        taken.emplace_back(offsets[q], offsets[q] + aligned(registers[q].bytes));
      }
    }
    std::sort(taken.begin(), taken.end());
    int64_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (begin - offset >= size) break;
      offset = std::max(offset, end);
    }
    offsets[r] = offset;
    arena = std::max(arena, offset + size);
    placed.push_back(r);
  }
  return arena;
}

int64_t max_live_bytes(const std::vector<RegisterUse>& registers, int tasks) {
  std::vector<int64_t> delta(static_cast<size_t>(tasks) + 1, 0);
  for (const RegisterUse& r : registers) {
    int last = r.producer;
    for (int c : r.consumers) last = std::max(last, c);
    delta[r.producer] += aligned(r.bytes);
    delta[last + 1] -= aligned(r.bytes);
  }
  int64_t live = 0, peak = 0;
  for (int t = 0; t < tasks; ++t) peak = std::max(peak, live += delta[t]);
  return peak;
}

// Where a task runs in a run split into micro-batches: once before them (what reads only
// variables and constants), once per micro-batch (what reads the arguments), once after
// them (what reads the gradients: clipping, the optimizers).
enum class Phase { kPre = 0, kMicro = 1, kPost = 2 };

// The device of every placement in the graph: a graph runs on one device type (a conversion
// between device types is eager's copy through the host, which no task holds yet).
device::Device& device_of(const LogicalGraph& g) {
  device::Device* found = nullptr;
  for (const Value& v : g.values) {
    device::Device& d = v.layout.placement.device();
    if (found && found != &d) {
      throw std::invalid_argument("nn.Graph: a graph runs on one device type; this one has tensors on '" +
                                  found->name() + "' and on '" + d.name() +
                                  "' (convert them with to_global before calling it)");
    }
    found = &d;
  }
  return found ? *found : vm::device();
}

struct CompiledGraph::Impl {
  LogicalGraph traced;
  LogicalGraph phys;  // after the passes: op nodes carry their chosen signature, boxing nodes their plan
  std::vector<std::string> reasons;        // explain(), one per boxing node the compiler placed

  // This rank's plan.
  struct Ref {
    enum Kind { kRegister, kBound, kFixed, kAccumulator } kind;
    int index;
    std::optional<Shape> view;  // read in this local shape (the output of a reshape)
  };
  struct Register {
    TensorMeta meta;
    bool persistent = false;
    // Non-persistent: its memory, one slot per piece in flight (regst_num): one in the
    // arena, or several of their own for a pipeline's micro-batches.
    std::vector<Tensor> slots;
    const Tensor& slot(int piece) const {
      static const Tensor none;
      return slots.empty() ? none : slots[static_cast<size_t>(piece) % slots.size()];
    }
    int stage = 0;  // the pipeline stage its value lives on
    Tensor value;  // persistent: what the last run produced
  };
  struct Task {
    int node;
    std::vector<Ref> inputs;
    std::vector<int> outputs;  // registers
    std::shared_ptr<KernelCall> call;  // op tasks
    Kernel kernel;                     // op tasks: the op's kernel for the graph's device
    std::vector<std::shared_ptr<KernelCall>> piece_calls;  // a random op among micro-batches: its call per micro-batch
    device::Stream* lane = nullptr;  // a transfer between pipeline stages: its stream
    int lane_id = 0;
    Phase phase = Phase::kMicro;
    int accumulator = -1;  // an accumulate task: adds its input into this accumulator
  };
  std::vector<Ref> refs;      // per phys value
  std::vector<Tensor> bound;  // per phys value of an input node, set at each run
  std::vector<Tensor> fixed;
  std::vector<Register> registers;
  std::vector<Task> tasks;
  // Gradient accumulation: per-run sums (then means) of the micro-batches' values that the
  // step's end reads, and the micro-batch the micro phase is running.
  std::vector<Tensor> accumulators;
  std::vector<Ref> output_refs;  // where each returned output is read after a run
  int micro_batches = 1;
  int piece = 0;  // the micro-batch running, when they run one after another
  bool pipelined = false;  // micro-batches in flight at once (stages on several placements)
  // A program that placed nothing (LogicalGraph::local): no other rank takes part, so a
  // call's errors need no agreement (and the call may be made on some ranks only).
  bool alone = false;
  std::vector<std::vector<Tensor>> argument_pieces;  // per phys value: an argument's micro-batches, during a run
  std::vector<std::unique_ptr<device::Stream>> lanes;
  std::pair<int64_t, int64_t> micro_window{0, 0};  // pipelined: the last run's micro-batches (vm::now_us)
  std::vector<std::unique_ptr<ActorSystem>> phases;  // pre, micro, post (empty ones null)
  std::vector<int> register_phase_index;  // each register's index in its phase's system
  // Per phys node: how many sets of attributes it reads anew at each call (0: none; a
  // random op among micro-batches: one per micro-batch).
  std::vector<int> fresh_attrs;
  std::shared_ptr<void> arena;
  int64_t arena_bytes = 0;
  // Where every tensor of the graph lives, and the tasks run (collectives aside: those run
  // on the host's comm stream, in one program order with eager's, through the host).
  device::Device* device = nullptr;
  Memory& memory() const { return device->memory(); }
  // Gradient accumulation's kernels, on the graph's device: acc + x, and acc * (1/m)
  // (kernel_for's, kept for the life of the process).
  const Kernel* add_kernel = nullptr;
  const Kernel* scale_kernel = nullptr;

  // Whether an op's task runs once, while compiling (pass 4): every result a constant that no
  // run writes back or accumulates, every input folded already. A constant that a variable
  // takes as its new value (a buffer's fill_) is computed at every run, in a register that
  // holds nothing while compiling, so what reads it is computed at every run too.
  static bool folds(const Task& task, const std::vector<int>& outputs, const std::vector<bool>& constant,
                    const std::vector<bool>& persistent, const std::vector<bool>& accumulated) {
    for (const Ref& r : task.inputs) {
      if (r.kind != Ref::kFixed) return false;
    }
    for (int v : outputs) {
      if (!constant[v] || persistent[v] || accumulated[v]) return false;
    }
    return true;
  }

  Tensor input_of(const Ref& r, int at) const {
    Tensor t;
    switch (r.kind) {
      case Ref::kRegister: {
        const Register& reg = registers[r.index];
        t = reg.persistent ? reg.value : reg.slot(at);
        break;
      }
      case Ref::kBound:
        t = argument_pieces[r.index].empty() ? bound[r.index] : argument_pieces[r.index][at];
        break;
      case Ref::kFixed:
        t = fixed[r.index];
        break;
      case Ref::kAccumulator:
        t = accumulators[r.index];
        break;
    }
    return r.view ? t.view(0, *r.view) : t;
  }

  bool in_arena(const Tensor& t) const {
    if (!arena || t.nbytes() == 0) return false;
    const char* p = static_cast<const char*>(t.data());
    const char* base = static_cast<const char*>(arena.get());
    return p >= base && p < base + arena_bytes;
  }

  // Puts a task's results into its registers: persistent ones keep the tensor (cloned when
  // it lies in the arena, which the next run reuses); the others are copied into their
  // slot unless the kernel already wrote them there.
  void store(const Task& task, std::vector<Tensor>& outs, int at) {
    for (size_t k = 0; k < outs.size(); ++k) {
      const Register& reg = registers[task.outputs[k]];
      const bool in_place = !reg.persistent && (reg.slot(at).nbytes() == 0 || outs[k].data() == reg.slot(at).data());
      if (!in_place && in_arena(outs[k])) outs[k] = outs[k].clone();  // before any slot is overwritten
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      Register& reg = registers[task.outputs[k]];
      if (reg.persistent) {
        reg.value = outs[k];
      } else if (reg.slot(at).nbytes() && outs[k].data() != reg.slot(at).data()) {
        memory().copy_within(reg.slot(at).data(), outs[k].data(), reg.slot(at).nbytes());
      }
    }
  }

  // acc = x at the first micro-batch, acc += x at the others, acc *= 1/m after the last,
  // with the add and mul_scalar ops' kernels for the graph's device, writing into acc
  // (elementwise on operands of one shape: element i reads only element i).
  void accumulate(Tensor& acc, const Tensor& x, int at) const {
    if (!is_floating(x.dtype())) {
      throw std::invalid_argument("graph: gradient accumulation averages floating values; a " +
                                  std::string(dtype_name(x.dtype())) + " value crosses from the micro-batches");
    }
    if (at == 0) {
      memory().copy_within(acc.data(), x.data(), acc.nbytes());
    } else {
      run_into(acc, *add_kernel, {acc, x}, {});
    }
    if (at == micro_batches - 1) run_into(acc, *scale_kernel, {acc}, Attrs{{"value", 1.0 / micro_batches}});
  }

  // A local kernel call on whole tensors of acc's shape, its result written into acc (copied
  // there if the kernel put it elsewhere).
  void run_into(const Tensor& acc, const Kernel& kernel, const std::vector<Tensor>& in, const Attrs& attrs) const {
    std::vector<TensorMeta> metas;
    std::vector<Box> boxes;
    for (const Tensor& t : in) {
      metas.push_back({t.shape(), t.dtype()});
      boxes.push_back(Box::whole(t.shape()));
    }
    const std::vector<TensorMeta> outputs{metas[0]};
    const std::vector<Box> output_boxes{boxes[0]};
    const std::vector<Tensor> given{acc};
    KernelContext ctx{attrs, metas, boxes, outputs, output_boxes};
    ctx.given = &given;
    const Tensor out = kernel(in, ctx)[0];
    if (out.data() != acc.data()) memory().copy_within(acc.data(), out.data(), acc.nbytes());
  }

  // Task t on micro-batch `system_piece` as its actor system counts (pipelined), else on
  // the micro-batch running.
  void act(int t, int64_t system_piece) {
    const int at = pipelined ? static_cast<int>(system_piece) : piece;
    const Task& task = tasks[t];
    const Node& node = phys.nodes[task.node];
    if (task.accumulator >= 0) {
      accumulate(accumulators[task.accumulator], input_of(task.inputs[0], at), at);
      return;
    }
    std::vector<Tensor> in;
    in.reserve(task.inputs.size());
    for (const Ref& r : task.inputs) in.push_back(input_of(r, at));
    // Results go straight into their registers' slots (none for registers that outlive the
    // run: those keep what the kernel made); store() copies what went elsewhere.
    static const Tensor none;
    std::vector<Tensor> given;
    given.reserve(task.outputs.size());
    for (int r : task.outputs) given.push_back(registers[r].persistent ? none : registers[r].slot(at));
    std::vector<Tensor> outs;
    if (node.kind == NodeKind::kOp) {
      const KernelCall& call = task.piece_calls.empty() ? *task.call : *task.piece_calls[at];
      KernelContext ctx = call.context();
      ctx.given = &given;
      try {
        outs = task.kernel(in, ctx);
      } catch (const std::exception& e) {
        // Results of the right sizes (zeros; slots keep what they hold), so that the acts
        // after it still move what the other ranks expect; the error is raised after the run.
        for (int r : task.outputs) {
          if (registers[r].persistent) {
            registers[r].value = Tensor::zeros(registers[r].meta.shape, registers[r].meta.dtype, memory());
          }
        }
        const std::string what = e.what();
        if (what.rfind("[" + node.name + "]", 0) == 0) throw;
        op_error(node.name, what);
      }
    } else {
      const Value& v = phys.values[node.outputs[0]];
      outs.push_back(boxing::execute(*node.plan, v.shape, in[0], task.lane_id, &given[0]));
    }
    store(task, outs, at);
  }
};

CompiledGraph::CompiledGraph(LogicalGraph traced) : impl_(std::make_unique<Impl>()) {
  const auto start = std::chrono::steady_clock::now();
  Impl& m = *impl_;
  m.traced = std::move(traced);
  const LogicalGraph& g = m.traced;
  stats_.traced_nodes = static_cast<int>(g.nodes.size());
  m.device = &device_of(g);
  m.add_kernel = &kernel_for(find_op("add"), m.memory());
  m.scale_kernel = &kernel_for(find_op("mul_scalar"), m.memory());

  // 1. Drop planning's conversions (within a placement) and what nothing uses.
  std::vector<int> alias(g.values.size());
  for (size_t v = 0; v < alias.size(); ++v) alias[v] = static_cast<int>(v);
  std::vector<bool> dropped(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (node.kind != NodeKind::kBoxing || node.user) continue;
    const int in = alias[node.inputs[0]];
    if (g.values[in].layout.placement != node.to->placement) continue;
    alias[node.outputs[0]] = in;
    dropped[n] = true;
  }
  std::vector<bool> needed(g.values.size(), false);
  for (int v : g.outputs) needed[alias[v]] = true;
  for (const auto& [var, v] : g.writes) needed[alias[v]] = true;
  std::vector<bool> live(g.nodes.size(), false);
  for (size_t n = g.nodes.size(); n-- > 0;) {
    const Node& node = g.nodes[n];
    if (dropped[n]) continue;
    bool used = node.kind == NodeKind::kInput;
    for (int v : node.outputs) used = used || needed[v];
    if (!used) continue;
    live[n] = true;
    for (int v : node.inputs) needed[alias[v]] = true;
  }

  // Uses of each value, by live nodes and sinks.
  std::vector<std::vector<Use>> uses(g.values.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!live[n]) continue;
    for (size_t j = 0; j < g.nodes[n].inputs.size(); ++j) {
      uses[alias[g.nodes[n].inputs[j]]].push_back({static_cast<int>(n), static_cast<int>(j), std::nullopt});
    }
  }
  for (int v : g.outputs) uses[alias[v]].push_back({-1, 0, g.values[v].layout});
  for (const auto& [var, v] : g.writes) uses[alias[v]].push_back({-1, 0, g.values[g.variable_values[var]].layout});

  // 2. SBP over the whole graph.
  auto placement_of = [&](const Node& node) -> const Placement& { return g.values[node.outputs[0]].layout.placement; };
  std::vector<std::vector<NdSignature>> cands(g.nodes.size());
  std::vector<int> choice(g.nodes.size(), -1);
  std::vector<std::vector<TensorMeta>> metas(g.nodes.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (!live[n] || node.kind != NodeKind::kOp) continue;
    for (int v : node.inputs) metas[n].push_back({g.values[v].shape, g.values[v].dtype});
    for (const NdSignature& s : valid_nd_signatures(*node.op, metas[n], node.attrs, placement_of(node).hierarchy())) {
      if (satisfies(s, node.constraints)) cands[n].push_back(s);
    }
    if (cands[n].empty()) op_error(node.name, "graph: no valid signature satisfies the traced constraints");
  }
  auto layout_of = [&](int v) -> boxing::Layout {
    const Value& val = g.values[v];
    const Node& p = g.nodes[val.producer];
    if (p.kind != NodeKind::kOp) return val.layout;
    return {val.layout.placement, cands[val.producer][choice[val.producer]].outputs[val.index]};
  };
  auto use_cost = [&](int v, const boxing::Layout& have, const Use& u) -> int64_t {
    if (u.node < 0) return box_cost(g.values[v], have, *u.sink);
    const Node& c = g.nodes[u.node];
    if (c.kind == NodeKind::kBoxing) return box_cost(g.values[v], have, *c.to);
    const NdSbp& want = cands[u.node][choice[u.node]].inputs[u.input];
    if (!partial_ok(have.nd_sbp, want)) return kInf;
    return box_cost(g.values[v], have, {placement_of(c), want});
  };
  auto input_cost = [&](size_t n, const NdSignature& s, int* kept) -> int64_t {
    const Node& node = g.nodes[n];
    int64_t cost = 0;
    for (size_t j = 0; j < node.inputs.size(); ++j) {
      const int v = alias[node.inputs[j]];
      const boxing::Layout have = layout_of(v);
      if (!partial_ok(have.nd_sbp, s.inputs[j])) return kInf;
      cost = add_sat(cost, box_cost(g.values[v], have, {placement_of(node), s.inputs[j]}));
      if (kept) *kept += have.nd_sbp == s.inputs[j];
    }
    return cost;
  };
  // The bytes node n costs with signature s: boxing its inputs and its outputs' uses.
  auto objective = [&](size_t n, int s) {
    const int saved = choice[n];
    choice[n] = s;
    int64_t cost = input_cost(n, cands[n][s], nullptr);
    for (int v : g.nodes[n].outputs) {
      for (const Use& u : uses[v]) cost = add_sat(cost, use_cost(v, layout_of(v), u));
    }
    choice[n] = saved;
    return cost;
  };
  // Eager's rule first, in program order.
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (cands[n].empty()) continue;
    std::tuple<int64_t, int, int64_t> best{kInf, 0, 0};
    for (size_t s = 0; s < cands[n].size(); ++s) {
      int kept = 0;
      const int64_t cost = input_cost(n, cands[n][s], &kept);
      int64_t out_bytes = 0;
      for (size_t k = 0; k < g.nodes[n].outputs.size(); ++k) {
        out_bytes += bytes_on_first_rank(g.values[g.nodes[n].outputs[k]], placement_of(g.nodes[n]).hierarchy(),
                                         cands[n][s].outputs[k]);
      }
      const std::tuple<int64_t, int, int64_t> key{cost, -kept, out_bytes};
      if (choice[n] < 0 || key < best) {
        best = key;
        choice[n] = static_cast<int>(s);
      }
    }
  }
  auto total_cost = [&] {
    int64_t total = 0;
    for (size_t v = 0; v < g.values.size(); ++v) {
      if (g.values[v].producer < 0 || !live[g.values[v].producer]) continue;
      for (const Use& u : uses[v]) total = add_sat(total, use_cost(static_cast<int>(v), layout_of(static_cast<int>(v)), u));
    }
    return total;
  };
  stats_.eager_boxing_bytes = total_cost();
  std::vector<std::pair<int, int64_t>> alternative(g.nodes.size(), {-1, kInf});  // best rejected signature
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (cands[n].empty() || cands[n].size() == 1) continue;
      const int64_t current = objective(n, choice[n]);
      int best = choice[n];
      int64_t best_cost = current;
      for (size_t s = 0; s < cands[n].size(); ++s) {
        if (static_cast<int>(s) == choice[n]) continue;
        const int64_t c = objective(n, static_cast<int>(s));
        if (c < best_cost) {
          best = static_cast<int>(s);
          best_cost = c;
        }
      }
      if (best != choice[n]) {
        choice[n] = best;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    for (size_t s = 0; s < cands[n].size(); ++s) {
      if (static_cast<int>(s) == choice[n]) continue;
      const int64_t c = objective(n, static_cast<int>(s));
      if (c < alternative[n].second) alternative[n] = {static_cast<int>(s), c};
    }
  }
  stats_.graph_boxing_bytes = total_cost();

  // 3. The compiled graph, with explicit boxing.
  LogicalGraph& p = m.phys;
  p.arguments.clear();
  std::vector<int> new_id(g.values.size(), -1);
  std::map<std::pair<int, std::string>, int> conversions;  // (value, layout) -> converted value
  auto add_value = [&](const Value& like, const boxing::Layout& layout, int producer, int index) {
    p.values.push_back(Value{like.shape, like.dtype, layout, producer, index});
    return static_cast<int>(p.values.size()) - 1;
  };
  auto add_boxing = [&](int nv, const boxing::Layout& to, const std::string& why) {
    const Value from = p.values[nv];  // a copy: add_value below may move the vector
    Node node{NodeKind::kBoxing, "to_global", {nv}, {}};
    node.to = to;
    const int out = add_value(from, to, static_cast<int>(p.nodes.size()), 0);
    node.outputs.push_back(out);
    node.plan = boxing::cached_plan(from.shape, from.dtype, from.layout, to);
    if (!node.plan->steps.empty()) {
      m.reasons.push_back("%" + std::to_string(out) + " = to_global(%" + std::to_string(nv) + "): " +
                          from.layout.str() + " -> " + to.str() + ", " + std::to_string(node.plan->cost) +
                          " bytes (" + node.plan->str() + "); " + why);
    }
    p.nodes.push_back(std::move(node));
    return out;
  };
  // `nv` in `want`, through a shared conversion when its layout differs.
  auto in_layout = [&](int nv, const boxing::Layout& want, const std::function<std::string()>& why) {
    // Layouts with the same data (they differ on mesh axes of size 1) still get a node, with
    // an empty plan: it moves nothing, and labels the value as its consumer takes it.
    if (p.values[nv].layout == want) return nv;
    const auto key = std::make_pair(nv, want.str());
    auto it = conversions.find(key);
    if (it != conversions.end()) return it->second;
    const int out = add_boxing(nv, want, why());
    conversions.emplace(key, out);
    return out;
  };
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!live[n]) continue;
    const Node& node = g.nodes[n];
    Node copy = node;
    copy.inputs.clear();
    copy.outputs.clear();
    if (node.kind == NodeKind::kOp) {
      copy.signature = cands[n][choice[n]];
      for (size_t j = 0; j < node.inputs.size(); ++j) {
        const boxing::Layout want{placement_of(node), copy.signature.inputs[j]};
        copy.inputs.push_back(in_layout(new_id[alias[node.inputs[j]]], want, [&] {
          std::string why = "input " + std::to_string(j) + " of " + node.name + " " + copy.signature.str();
          if (alternative[n].first >= 0) {
            why += "; the cheapest other signature, " + cands[n][alternative[n].first].str() + ", would cost " +
                   (alternative[n].second >= kInf ? std::string("(invalid)")
                                                  : std::to_string(alternative[n].second) + " bytes") +
                   " against " + std::to_string(objective(n, choice[n])) + " for the node and its consumers";
          }
          return why;
        }));
      }
    } else if (node.kind == NodeKind::kBoxing) {
      copy.inputs.push_back(new_id[alias[node.inputs[0]]]);
    }
    const int id = static_cast<int>(p.nodes.size());
    if (node.kind == NodeKind::kBoxing) {
      const Value& from = p.values[copy.inputs[0]];
      copy.plan = boxing::cached_plan(from.shape, from.dtype, from.layout, *node.to);
    }
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const int v = node.outputs[k];
      const boxing::Layout layout = node.kind == NodeKind::kOp ? layout_of(v) : g.values[v].layout;
      new_id[v] = add_value(g.values[v], layout, id, static_cast<int>(k));
      copy.outputs.push_back(new_id[v]);
    }
    if (node.kind == NodeKind::kInput && node.input_kind == InputKind::kArgument) p.arguments.push_back(copy.outputs[0]);
    p.nodes.push_back(std::move(copy));
  }
  for (int v : g.outputs) {
    p.outputs.push_back(in_layout(new_id[alias[v]], g.values[v].layout, [] { return std::string("a returned output"); }));
  }
  for (const auto& [var, v] : g.writes) {
    p.writes.emplace_back(var, in_layout(new_id[alias[v]], g.values[g.variable_values[var]].layout,
                                         [&] { return "the new value of " + g.variables[var].name; }));
  }
  for (const Node& node : p.nodes) stats_.boxing_nodes += node.kind == NodeKind::kBoxing && !node.plan->steps.empty();
  stats_.graph_nodes = static_cast<int>(p.nodes.size());

  // 4. This rank's tasks and registers. With micro-batches, each node gets a phase: a
  // value's phase is its producer's; arguments are per micro-batch; a node reading a
  // gradient runs after the micro-batches, on the gradients' mean (accumulated by a task
  // after each gradient's producer), as do returned outputs made per micro-batch.
  const int me = comm::world_rank();
  const int mb = g.micro_batches;
  m.micro_batches = mb;
  std::vector<Phase> phase(p.values.size(), Phase::kPre);
  std::vector<bool> is_gradient(p.values.size(), false);
  for (int v : g.gradients) {
    if (new_id[alias[v]] >= 0) is_gradient[new_id[alias[v]]] = true;  // -1: nothing reads it
  }
  std::vector<bool> accumulated;  // read after the micro-batches
  std::vector<Phase> node_phase;
  auto assign_phases = [&] {
    accumulated.assign(p.values.size(), false);
    node_phase.assign(p.nodes.size(), Phase::kMicro);
    if (mb > 1) {
      for (size_t n = 0; n < p.nodes.size(); ++n) {
        const Node& node = p.nodes[n];
        Phase ph = node.kind == NodeKind::kInput && node.input_kind == InputKind::kArgument ? Phase::kMicro : Phase::kPre;
        // A random op (dropout's mask) draws anew for each micro-batch, as each eager step
        // would, even when it reads nothing of the micro-batch.
        if (node.kind == NodeKind::kOp && node.op->draws_random) ph = Phase::kMicro;
        for (int v : node.inputs) ph = std::max(ph, is_gradient[v] && phase[v] == Phase::kMicro ? Phase::kPost : phase[v]);
        for (int v : node.inputs) {
          if (ph != Phase::kPost || phase[v] != Phase::kMicro) continue;
          if (!is_gradient[v]) {
            throw std::invalid_argument(
                "graph: with gradient accumulation, what reads the gradients runs once per call on their mean, but " +
                node.name + " also reads %" + std::to_string(v) + ", a value of each micro-batch");
          }
          accumulated[v] = true;
        }
        node_phase[n] = ph;
        for (int v : node.outputs) phase[v] = ph;
      }
      for (int v : p.outputs) accumulated[v] = accumulated[v] || phase[v] == Phase::kMicro;
      for (const auto& [var, v] : p.writes) {
        if (phase[v] == Phase::kMicro) {
          throw std::invalid_argument("graph: with gradient accumulation, " + g.variables[var].name +
                                      " would get a new value per micro-batch; only what reads the gradients may "
                                      "update variables");
        }
      }
    }
  };
  assign_phases();
  // Constants: what an op computes from nothing but other constants, drawing nothing random
  // and reading no attribute anew, is the same in every run: folded below (pass 4), it
  // runs once, while compiling.
  std::vector<bool> constant(p.values.size(), false);
  for (const Node& node : p.nodes) {
    bool c = node.kind == NodeKind::kOp
                 ? !node.op->draws_random && !node.op->kernel_checks_data && !node.run_time_attrs
                 : node.kind == NodeKind::kBoxing && node.plan->steps.empty();
    for (int v : node.inputs) c = c && constant[v];
    for (int v : node.outputs) constant[v] = c;
  }
  if (g.fuse && runs_fused_chains(m.memory())) {
    // 3b. Fusion (fusion.h), within a phase; then the phases of the fused graph.
    std::vector<bool> keep(p.values.size(), false);
    for (int v : p.outputs) keep[v] = true;
    for (const auto& [var, v] : p.writes) keep[v] = true;
    // Constant ops fuse only among themselves: their chains are folded too.
    std::vector<int> node_class;
    for (size_t n = 0; n < p.nodes.size(); ++n) {
      const bool folds = !p.nodes[n].outputs.empty() && constant[p.nodes[n].outputs[0]];
      node_class.push_back(folds ? -1 : static_cast<int>(node_phase[n]));
    }
    const FusionStats fused = fuse_elementwise(p, node_class, keep, me);
    stats_.fused_chains = fused.chains;
    stats_.fused_ops = fused.fused_ops;
    memory_.unstored_bytes = fused.unstored_bytes;
    stats_.graph_nodes = static_cast<int>(p.nodes.size());
    assign_phases();
  }
  // Pipeline stages: the placements of the micro-batches' ops, those the user named first
  // (set_stage), then in the order they first appear (forward order). With several,
  // micro-batches are in flight at once: each
  // register of stage s gets (stages - s) slots, so stage s can run that many forward
  // passes ahead of their backward passes, and one-forward-one-backward follows.
  m.fresh_attrs.assign(p.nodes.size(), 0);
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const Node& node = p.nodes[n];
    if (!node.run_time_attrs) continue;
    const bool per_micro_batch = node.kind == NodeKind::kOp && node.op->draws_random && node_phase[n] == Phase::kMicro;
    m.fresh_attrs[n] = per_micro_batch ? mb : 1;
  }
  std::vector<Placement> stages = mb > 1 ? g.stage_order : std::vector<Placement>{};
  for (size_t n = 0; n < p.nodes.size() && mb > 1; ++n) {
    const Node& node = p.nodes[n];
    if (node_phase[n] != Phase::kMicro || node.kind != NodeKind::kOp) continue;
    const Placement& placement = p.values[node.outputs[0]].layout.placement;
    if (std::find(stages.begin(), stages.end(), placement) == stages.end()) stages.push_back(placement);
  }
  m.pipelined = stages.size() > 1;
  m.alone = g.local;
  auto stage_of = [&](const Placement& placement) {
    const auto it = std::find(stages.begin(), stages.end(), placement);
    return it == stages.end() ? 0 : static_cast<int>(it - stages.begin());
  };
  std::vector<bool> persistent(p.values.size(), false);
  for (int v : p.outputs) persistent[v] = !accumulated[v];
  for (const auto& [var, v] : p.writes) persistent[v] = true;
  m.refs.assign(p.values.size(), Impl::Ref{Impl::Ref::kFixed, -1, {}});
  m.bound.assign(p.values.size(), Tensor());
  m.argument_pieces.assign(p.values.size(), {});
  auto new_register = [&](int v) {
    const Value& val = p.values[v];
    Impl::Register reg;
    reg.meta = local_meta(val.shape, val.dtype, val.layout);
    reg.persistent = persistent[v];
    reg.stage = stage_of(val.layout.placement);
    m.registers.push_back(std::move(reg));
    m.refs[v] = {Impl::Ref::kRegister, static_cast<int>(m.registers.size()) - 1, {}};
    return static_cast<int>(m.registers.size()) - 1;
  };
  std::vector<Impl::Ref> accumulator_of(p.values.size(), Impl::Ref{Impl::Ref::kFixed, -1, {}});
  // After the task that made v (or now, for a value without one): its accumulator.
  auto accumulate = [&](int v) {
    const Impl::Ref made = m.refs[v];
    if (made.kind == Impl::Ref::kFixed) {
      accumulator_of[v] = made;  // this rank holds nothing of it
      return;
    }
    m.accumulators.push_back(Tensor::empty(local_meta(p.values[v].shape, p.values[v].dtype, p.values[v].layout).shape,
                                           p.values[v].dtype, m.memory()));
    accumulator_of[v] = {Impl::Ref::kAccumulator, static_cast<int>(m.accumulators.size()) - 1, {}};
    Impl::Task task;
    task.node = p.values[v].producer;
    task.inputs = {made};
    task.phase = Phase::kMicro;
    task.accumulator = accumulator_of[v].index;
    m.tasks.push_back(std::move(task));
  };
  auto read = [&](int v, Phase reader) { return reader == Phase::kPost && accumulated[v] ? accumulator_of[v] : m.refs[v]; };
  // Inputs first: an input node may come after a fused node that reads it (fusion puts a
  // chain at its first op's place, and a constant's node is made where it is first used).
  for (const Node& node : p.nodes) {
    if (node.kind == NodeKind::kInput) m.refs[node.outputs[0]] = {Impl::Ref::kBound, node.outputs[0], {}};
  }
  int lanes_seen = 0;
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const Node& node = p.nodes[n];
    if (node.kind == NodeKind::kInput) continue;
    Impl::Task task;
    task.node = static_cast<int>(n);
    task.phase = node_phase[n];
    for (int v : node.inputs) task.inputs.push_back(read(v, task.phase));
    if (node.kind == NodeKind::kBoxing && node.plan->steps.empty()) {
      m.refs[node.outputs[0]] = task.inputs[0];  // same local data
      const Impl::Ref& in = task.inputs[0];
      if (persistent[node.outputs[0]] && !persistent[node.inputs[0]] && in.kind == Impl::Ref::kRegister) {
        m.registers[in.index].persistent = true;
      }
      if (accumulated[node.outputs[0]]) accumulate(node.outputs[0]);
      continue;
    }
    if (node.kind == NodeKind::kOp) {
      const Placement& placement = p.values[node.outputs[0]].layout.placement;
      const int pid = placement.parallel_id(me);
      if (pid < 0) {
        for (int v : node.outputs) {
          m.fixed.push_back(boxing::empty_local(p.values[v].shape, p.values[v].dtype, m.memory()));
          m.refs[v] = {Impl::Ref::kFixed, static_cast<int>(m.fixed.size()) - 1, {}};
          if (accumulated[v]) accumulate(v);
        }
        continue;
      }
      const Shape coord = placement.coordinate(pid);
      if (node.op->output_views_input && !persistent[node.outputs[0]] && !accumulated[node.outputs[0]]) {
        // No copy: consumers read the input's memory in the output's local shape.
        const Value& out = p.values[node.outputs[0]];
        Impl::Ref view = task.inputs[0];
        view.view = local_box(out.shape, placement.hierarchy(), node.signature.outputs[0], coord).extent;
        m.refs[node.outputs[0]] = view;
        continue;
      }
      auto call = std::make_shared<KernelCall>();
      call->attrs = node.attrs;
      for (size_t j = 0; j < node.inputs.size(); ++j) {
        const Value& v = p.values[node.inputs[j]];
        call->inputs.push_back({v.shape, v.dtype});
        call->input_boxes.push_back(local_box(v.shape, placement.hierarchy(), node.signature.inputs[j], coord));
      }
      for (size_t k = 0; k < node.outputs.size(); ++k) {
        const Value& v = p.values[node.outputs[k]];
        call->outputs.push_back({v.shape, v.dtype});
        call->output_boxes.push_back(local_box(v.shape, placement.hierarchy(), node.signature.outputs[k], coord));
      }
      task.call = std::move(call);
      task.kernel = make_kernel_for(*node.op, m.memory());
      if (Impl::folds(task, node.outputs, constant, persistent, accumulated)) {
        std::vector<Tensor> in;
        for (const Impl::Ref& r : task.inputs) in.push_back(m.input_of(r, 0));
        const std::vector<Tensor> outs = task.kernel(in, task.call->context());
        for (size_t k = 0; k < outs.size(); ++k) {
          m.fixed.push_back(outs[k]);
          m.refs[node.outputs[k]] = {Impl::Ref::kFixed, static_cast<int>(m.fixed.size()) - 1, {}};
          memory_.folded_bytes += static_cast<int64_t>(outs[k].nbytes());
        }
        stats_.folded_ops += 1;
        continue;
      }
    }
    if (m.pipelined && task.phase == Phase::kMicro && node.kind == NodeKind::kBoxing &&
        boxing::transfers_only(*node.plan)) {
      // A transfer between stages: on a lane of its own, only on the ranks it involves. Its
      // number (and message tag) counts every such transfer, so it is the same on all ranks.
      const int lane_id = ++lanes_seen;
      const Value& from = p.values[node.inputs[0]];
      if (from.layout.placement.parallel_id(me) < 0 && node.to->placement.parallel_id(me) < 0) {
        m.fixed.push_back(boxing::empty_local(p.values[node.outputs[0]].shape, p.values[node.outputs[0]].dtype, m.memory()));
        m.refs[node.outputs[0]] = {Impl::Ref::kFixed, static_cast<int>(m.fixed.size()) - 1, {}};
        if (accumulated[node.outputs[0]]) accumulate(node.outputs[0]);
        continue;
      }
      m.lanes.push_back(vm::device().create_stream(device::StreamKind::kComm));
      task.lane = m.lanes.back().get();
      task.lane_id = lane_id;
    }
    for (int v : node.outputs) task.outputs.push_back(new_register(v));
    m.tasks.push_back(std::move(task));
    for (int v : node.outputs) {
      if (accumulated[v]) accumulate(v);
    }
  }
  for (int v : p.outputs) m.output_refs.push_back(accumulated[v] ? accumulator_of[v] : m.refs[v]);
  // Tasks in the order they run: phase by phase, each in plan order. A register read in a
  // later phase than its producer's keeps memory of its own (each phase reuses the arena).
  std::stable_sort(m.tasks.begin(), m.tasks.end(),
                   [](const Impl::Task& a, const Impl::Task& b) { return a.phase < b.phase; });
  std::vector<Phase> made_in(m.registers.size(), Phase::kPre);
  for (const Impl::Task& task : m.tasks) {
    for (int r : task.outputs) made_in[r] = task.phase;
  }
  for (const Impl::Task& task : m.tasks) {
    for (const Impl::Ref& r : task.inputs) {
      if (r.kind == Impl::Ref::kRegister && made_in[r.index] != task.phase) m.registers[r.index].persistent = true;
    }
  }
  stats_.tasks = static_cast<int>(m.tasks.size());

  // 5. The memory plan. Task a is ordered before b when b depends on a, or both run on
  // one stream and a comes first (each stream's actors act in plan order), or a's phase
  // runs before b's.
  const size_t T = m.tasks.size();
  const size_t words = (T + 63) / 64;
  std::vector<uint64_t> ancestors(T * words, 0);
  std::vector<uint64_t> earlier_phases(words, 0);
  std::vector<int> producer_task(m.registers.size(), -1);
  std::vector<std::vector<int>> readers(m.registers.size());
  int last_of_stream[2] = {-1, -1};  // compute, comm: each acts in plan order
  for (size_t t = 0; t < T; ++t) {
    uint64_t* mine = &ancestors[t * words];
    if (t > 0 && m.tasks[t].phase != m.tasks[t - 1].phase) {
      for (size_t a = 0; a < t; ++a) earlier_phases[a / 64] |= uint64_t{1} << (a % 64);
    }
    for (size_t w = 0; w < words; ++w) mine[w] |= earlier_phases[w];
    auto inherit = [&](int a) {
      const uint64_t* theirs = &ancestors[static_cast<size_t>(a) * words];
      for (size_t w = 0; w < words; ++w) mine[w] |= theirs[w];
      mine[a / 64] |= uint64_t{1} << (a % 64);
    };
    for (const Impl::Ref& r : m.tasks[t].inputs) {
      if (r.kind != Impl::Ref::kRegister) continue;
      inherit(producer_task[r.index]);
      readers[r.index].push_back(static_cast<int>(t));
    }
    int& last = last_of_stream[m.phys.nodes[m.tasks[t].node].kind == NodeKind::kBoxing && m.tasks[t].accumulator < 0];
    if (last >= 0) inherit(last);
    last = static_cast<int>(t);
    for (int r : m.tasks[t].outputs) producer_task[r] = static_cast<int>(t);
  }
  auto ordered = [&](int a, int b) { return (ancestors[static_cast<size_t>(b) * words + a / 64] >> (a % 64)) & 1; };
  std::vector<RegisterUse> uses_of;
  std::vector<int> planned;  // register index of each planned use
  for (size_t r = 0; r < m.registers.size(); ++r) {
    const int64_t bytes = static_cast<int64_t>(numel(m.registers[r].meta.shape) * dtype_size(m.registers[r].meta.dtype));
    if (m.registers[r].persistent) {
      memory_.persistent_bytes += bytes;
      continue;
    }
    if (m.pipelined && made_in[r] == Phase::kMicro) {
      Impl::Register& reg = m.registers[r];
      for (int k = 0; k < static_cast<int>(stages.size()) - reg.stage; ++k) {
        reg.slots.push_back(Tensor::empty(reg.meta.shape, reg.meta.dtype, m.memory()));
        memory_.buffer_bytes += bytes;
      }
      continue;
    }
    uses_of.push_back({bytes, producer_task[r], readers[r]});
    planned.push_back(static_cast<int>(r));
    memory_.no_reuse_bytes += aligned(bytes);
  }
  std::vector<int64_t> offsets;
  memory_.arena_bytes = plan_arena(uses_of, ordered, offsets);
  memory_.max_live_bytes = max_live_bytes(uses_of, static_cast<int>(T));
  memory_.registers = static_cast<int>(m.registers.size());
  m.arena_bytes = memory_.arena_bytes;
  m.arena = m.memory().allocate(static_cast<size_t>(memory_.arena_bytes));
  for (size_t i = 0; i < planned.size(); ++i) {
    Impl::Register& reg = m.registers[planned[i]];
    reg.slots = {Tensor::wrap(static_cast<char*>(m.arena.get()) + offsets[i], reg.meta.shape, reg.meta.dtype, m.arena,
                              m.memory())};
  }

  // 6. One actor per task; communication tasks act in the plan's order. One actor system
  // per phase (a single one without micro-batches); a register made in an earlier phase
  // is there before the phase starts, so its readers do not wait on it.
  // In a pipeline, what only feeds the gradients' accumulation (the weight gradients) can
  // wait: deferred, it fills the stage's idle moments instead of delaying the input
  // gradient the previous stage waits for (as zero-bubble schedules do, here by priority).
  // What leads to a transfer to the next stage is urgent: it acts before anything else its
  // stream has ready (the first stage's forward pass before its backward pass: one
  // forward, one backward, each activation handed on as soon as it is made).
  std::vector<bool> deferrable(T, false), urgent(T, false);
  if (m.pipelined) {
    for (size_t t = T; t-- > 0;) {
      const Impl::Task& task = m.tasks[t];
      if (task.phase != Phase::kMicro || task.lane || p.nodes[task.node].kind == NodeKind::kBoxing) continue;
      for (int r : task.outputs) {
        for (int reader : readers[r]) urgent[t] = urgent[t] || m.tasks[reader].lane || urgent[reader];
      }
    }
    for (size_t t = T; t-- > 0;) {
      const Impl::Task& task = m.tasks[t];
      if (task.phase != Phase::kMicro || task.lane || p.nodes[task.node].kind == NodeKind::kBoxing) {
        deferrable[t] = task.accumulator >= 0;
        continue;
      }
      bool only_deferred = !task.outputs.empty();
      for (int r : task.outputs) {
        for (int reader : readers[r]) only_deferred = only_deferred && deferrable[reader];
        only_deferred = only_deferred && !readers[r].empty();
      }
      deferrable[t] = only_deferred;
    }
  }
  m.register_phase_index.assign(m.registers.size(), -1);
  for (const Phase ph : {Phase::kPre, Phase::kMicro, Phase::kPost}) {
    std::vector<ActorSpec> specs;
    std::vector<int> local(m.registers.size(), -1);
    std::vector<int> regst_nums;
    for (size_t t = 0; t < T; ++t) {
      if (m.tasks[t].phase != ph) continue;
      for (int r : m.tasks[t].outputs) {
        local[r] = static_cast<int>(regst_nums.size());
        m.register_phase_index[r] = local[r];
        regst_nums.push_back(std::max<int>(1, static_cast<int>(m.registers[r].slots.size())));
      }
    }
    for (size_t t = 0; t < T; ++t) {
      const Impl::Task& task = m.tasks[t];
      if (task.phase != ph) continue;
      const Node& node = p.nodes[task.node];
      ActorSpec spec;
      const bool comm_task = node.kind == NodeKind::kBoxing && task.accumulator < 0;
      spec.name = task.accumulator >= 0 ? "accumulate" : node.name;
      spec.stream = comm_task ? device::StreamKind::kComm : device::StreamKind::kCompute;
      spec.order_group = comm_task ? 0 : 1;
      if (m.pipelined && ph == Phase::kMicro) {
        // Micro-batches in flight: compute acts whenever its data is there (the buffers
        // bound how far ahead); transfers between stages act in piece order on their lanes.
        spec.own_stream = task.lane;
        if (task.lane || !comm_task) spec.order_group = -1;
        spec.deferrable = deferrable[t];
        spec.urgent = urgent[t];
      }
      // Collectives keep one program order with eager's, on the VM's comm stream, whatever the
      // graph's device (its worker is the comm thread: a group made at the first collective
      // of the program, inside this graph, is made right there).
      if (comm_task && !spec.own_stream) spec.own_stream = &vm::comm_stream();
      for (const Impl::Ref& r : task.inputs) {
        if (r.kind == Impl::Ref::kRegister && local[r.index] >= 0 &&
            std::find(spec.inputs.begin(), spec.inputs.end(), local[r.index]) == spec.inputs.end()) {
          spec.inputs.push_back(local[r.index]);
        }
      }
      for (int r : task.outputs) spec.outputs.push_back(local[r]);
      spec.act = [&m, t](int64_t piece) { m.act(static_cast<int>(t), piece); };
      specs.push_back(std::move(spec));
    }
    m.phases.push_back(specs.empty() ? nullptr
                                     : std::make_unique<ActorSystem>(*m.device, std::move(specs), regst_nums));
  }
  stats_.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

CompiledGraph::~CompiledGraph() = default;

std::vector<Var> CompiledGraph::run(const std::vector<Var>& arguments) {
  vm::Issuing issuing;
  vm::check_collective_thread("graph");  // its actors' collectives follow the run's place in the program
  Impl& m = *impl_;
  const LogicalGraph& p = m.phys;
  if (arguments.size() != p.arguments.size()) {
    throw std::invalid_argument("graph: expected " + std::to_string(p.arguments.size()) + " arguments, got " +
                                std::to_string(arguments.size()));
  }
  const int mb = m.micro_batches;
  auto check = [mb](const std::string& what, const Value& want, const Var& got, bool argument) {
    if (!got.defined() || !got.is_global()) throw std::invalid_argument("graph: " + what + " is not a global tensor");
    const GlobalTensor& t = got.global();
    Shape shape = want.shape;
    if (argument && mb > 1) shape[0] *= mb;  // compiled for one micro-batch
    if (t.shape() != shape || t.dtype() != want.dtype || t.layout() != want.layout) {
      throw std::invalid_argument("graph: " + what + " is " + to_string(t.shape()) + " " + dtype_name(t.dtype()) +
                                  " " + t.layout().str() + "; the graph was compiled for " + to_string(shape) +
                                  " " + dtype_name(want.dtype) + " " + want.layout.str());
    }
    vm::wait(t.local());  // eager work that made it has run (and raised its errors)
    return t.local();
  };
  for (const std::function<void()>& f : m.traced.before_run) f();
  std::vector<std::pair<int, Tensor>> whole_arguments;  // (value, this rank's part of the whole batch)
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const Node& node = p.nodes[n];
    if (node.kind != NodeKind::kInput) continue;
    const int v = node.outputs[0];
    switch (node.input_kind) {
      case InputKind::kArgument:
        m.bound[v] = check("argument " + std::to_string(node.input_index), p.values[v], arguments[node.input_index], true);
        whole_arguments.emplace_back(v, m.bound[v]);
        break;
      case InputKind::kVariable:
        m.bound[v] = check("variable " + m.traced.variables[node.input_index].name, p.values[v],
                           m.traced.variables[node.input_index].get(), false);
        break;
      case InputKind::kConstant:
        m.bound[v] = m.traced.constants[node.input_index].local();
        vm::wait(m.bound[v]);
        break;
    }
  }
  // Attributes read anew (random draws, a schedule's values) node by node, on every rank
  // whether or not it runs the node, micro-batch k's after those of micro-batches 0 .. k-1
  // as eager steps over the micro-batches in turn would draw them. So the generator
  // advances alike on every rank and in every call, the first included (the trace drew its
  // micro-batch 0).
  std::vector<std::vector<Attrs>> fresh(p.nodes.size());
  for (int k = 0; k < mb; ++k) {
    for (size_t n = 0; n < p.nodes.size(); ++n) {
      if (m.fresh_attrs[n] > k) fresh[n].push_back((*p.nodes[n].run_time_attrs)());
    }
  }
  for (Impl::Task& task : m.tasks) {
    const std::vector<Attrs>& attrs = fresh[task.node];
    if (attrs.empty() || !task.call) continue;
    task.call->attrs = attrs[0];
    if (attrs.size() == 1) continue;
    task.piece_calls = {task.call};
    for (size_t k = 1; k < attrs.size(); ++k) {
      task.piece_calls.push_back(std::make_shared<KernelCall>(*task.call));
      task.piece_calls.back()->attrs = attrs[k];
    }
  }
  // Every phase runs even after an error: the other ranks issue their collectives.
  std::string error;
  auto run_phase = [&](Phase ph, int64_t pieces) {
    const std::unique_ptr<ActorSystem>& system = m.phases[static_cast<int>(ph)];
    if (!system) return;
    try {
      system->run(pieces);
    } catch (const std::exception& e) {
      if (error.empty()) error = e.what();
    }
  };
  if (mb > 1) {
    // Each micro-batch reads its rows of every argument.
    for (const auto& [v, whole] : whole_arguments) {
      const Shape part = local_meta(p.values[v].shape, p.values[v].dtype, p.values[v].layout).shape;
      for (int k = 0; k < mb; ++k) m.argument_pieces[v].push_back(whole.view(k * numel(part), part));
    }
  }
  run_phase(Phase::kPre, 1);
  if (m.pipelined) {
    m.micro_window.first = vm::now_us();
    run_phase(Phase::kMicro, mb);
    m.micro_window.second = vm::now_us();
  } else {
    for (m.piece = 0; m.piece < mb; ++m.piece) run_phase(Phase::kMicro, 1);
  }
  run_phase(Phase::kPost, 1);
  if (!m.alone) {
    comm::agree(error, 0, "[graph]");
  } else if (!error.empty()) {
    throw std::invalid_argument(error);
  }
  auto value_of = [&](int v, const Impl::Ref& ref) {
    const Value& val = p.values[v];
    return Var(GlobalTensor(val.shape, val.layout.placement, val.layout.nd_sbp, m.input_of(ref, 0)));
  };
  for (const auto& [var, v] : p.writes) m.traced.variables[var].set(value_of(v, m.refs[v]));
  std::vector<Var> outputs;
  for (size_t i = 0; i < p.outputs.size(); ++i) outputs.push_back(value_of(p.outputs[i], m.output_refs[i]));
  for (size_t v = 0; v < m.bound.size(); ++v) {
    m.bound[v] = Tensor();
    m.argument_pieces[v].clear();
  }
  return outputs;
}

std::vector<int> CompiledGraph::peak_register_use() const {
  const Impl& m = *impl_;
  std::vector<int> peaks(m.registers.size(), 0);
  for (const Impl::Task& task : m.tasks) {
    for (int r : task.outputs) peaks[r] = m.phases[static_cast<int>(task.phase)]->peak_in_use()[m.register_phase_index[r]];
  }
  return peaks;
}

std::pair<int64_t, int64_t> CompiledGraph::last_pipeline_us() const { return impl_->micro_window; }

std::vector<CompiledGraph::RegisterReport> CompiledGraph::registers() const {
  const std::vector<int> peaks = peak_register_use();
  std::vector<RegisterReport> out;
  for (size_t r = 0; r < impl_->registers.size(); ++r) {
    const Impl::Register& reg = impl_->registers[r];
    out.push_back({reg.stage, std::max<int>(1, static_cast<int>(reg.slots.size())), peaks[r],
                   static_cast<int64_t>(numel(reg.meta.shape) * dtype_size(reg.meta.dtype))});
  }
  return out;
}

std::string CompiledGraph::str() const {
  std::ostringstream s;
  s << "graph: " << stats_.traced_nodes << " traced nodes -> " << stats_.graph_nodes << " nodes (" << stats_.boxing_nodes
    << " boxing that move data), " << stats_.tasks << " tasks on rank " << comm::world_rank() << " ("
    << stats_.fused_ops << " ops fused into " << stats_.fused_chains << " chains, " << stats_.folded_ops
    << " folded); boxing "
    << stats_.graph_boxing_bytes << " bytes (eager's choices: " << stats_.eager_boxing_bytes << "); arena "
    << memory_.arena_bytes << " bytes (no reuse " << memory_.no_reuse_bytes << ", max live " << memory_.max_live_bytes
    << ")\n";
  return s.str() + impl_->phys.str();
}

std::string CompiledGraph::explain() const {
  std::ostringstream s;
  s << "boxing " << stats_.graph_boxing_bytes << " bytes with the whole-graph choice, " << stats_.eager_boxing_bytes
    << " with eager's per-op choices\n";
  if (impl_->reasons.empty()) s << "no boxing: every producer's layout is what its consumers take\n";
  for (const std::string& r : impl_->reasons) s << "  " << r << "\n";
  return s.str();
}

std::string CompiledGraph::dot() const {
  const LogicalGraph& p = impl_->phys;
  std::ostringstream s;
  s << "digraph meshflow {\n  rankdir=TB;\n  node [fontname=\"monospace\", fontsize=10];\n";
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const Node& node = p.nodes[n];
    s << "  n" << n << " [label=\"" << node.name;
    if (node.kind == NodeKind::kOp) s << "\\n" << node.signature.str();
    if (node.kind == NodeKind::kBoxing) s << "\\n-> " << node.to->str() << "\\n" << node.plan->cost << " bytes";
    s << "\"";
    if (node.kind == NodeKind::kBoxing) s << ", shape=box, style=filled, fillcolor=orange";
    if (node.kind == NodeKind::kInput) s << ", shape=ellipse";
    if (node.kind == NodeKind::kOp) s << ", shape=box";
    s << "];\n";
    for (int v : node.inputs) s << "  n" << p.values[v].producer << " -> n" << n << ";\n";
  }
  s << "}\n";
  return s.str();
}

}  // namespace mf::graph
