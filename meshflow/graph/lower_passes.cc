// Copyright 2026 The meshflow Authors.
// The passes that lower the graph to this rank's plan (passes.h): fold, tasks, actors.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "meshflow/boxing/execute.h"
#include "meshflow/graph/passes.h"
#include "meshflow/ops/op.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {
namespace {

using Ref = RankPlan::Ref;

// Op node `node`'s kernel call on the part of the mesh at `coord`.
std::shared_ptr<KernelCall> kernel_call(const LogicalGraph& g, const Node& node, const Placement& placement,
                                        const Shape& coord) {
  auto call = std::make_shared<KernelCall>();
  call->attrs = node.attrs;
  for (size_t j = 0; j < node.inputs.size(); ++j) {
    const Value& v = g.values[node.inputs[j]];
    call->inputs.push_back({v.shape, v.dtype});
    call->input_boxes.push_back(local_box(v.shape, placement.hierarchy(), node.signature.inputs[j], coord));
  }
  for (size_t k = 0; k < node.outputs.size(); ++k) {
    const Value& v = g.values[node.outputs[k]];
    call->outputs.push_back({v.shape, v.dtype});
    call->output_boxes.push_back(local_box(v.shape, placement.hierarchy(), node.signature.outputs[k], coord));
  }
  return call;
}

// An op whose result is read in place, in another local shape: no copy, and no task, unless
// the result outlives the run or is averaged.
bool views_in_place(const Compilation& c, const Node& node) {
  return node.op->output_views_input && !c.persistent[node.outputs[0]] && !c.accumulated[node.outputs[0]];
}

Shape view_shape(const Compilation& c, const Node& node, const Placement& placement, const Shape& coord) {
  const Value& out = c.graph.values[node.outputs[0]];
  return local_box(out.shape, placement.hierarchy(), node.signature.outputs[0], coord).extent;
}

// build_tasks' lowering, node by node.
class TaskBuilder {
 public:
  explicit TaskBuilder(Compilation& c)
      : c_(c), g_(c.graph), m_(c.plan), accumulator_of_(g_.values.size(), Ref{Ref::kFixed, -1, {}}) {
    m_.refs.assign(g_.values.size(), Ref{Ref::kFixed, -1, {}});
    m_.bound.assign(g_.values.size(), Tensor());
    m_.argument_pieces.assign(g_.values.size(), {});
  }

  void run() {
    // Inputs first: an input node may come after a fused node that reads it (fusion puts a
    // chain at its first op's place, and a constant's node is made where it is first used).
    for (const Node& node : g_.nodes) {
      if (node.kind == NodeKind::kInput) m_.refs[node.outputs[0]] = {Ref::kBound, node.outputs[0], {}};
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      if (g_.nodes[n].kind != NodeKind::kInput) lower(n);
    }
    for (int v : g_.outputs) m_.output_refs.push_back(c_.accumulated[v] ? accumulator_of_[v] : m_.refs[v]);
  }

 private:
  int new_register(int v) {
    const Value& val = g_.values[v];
    RankPlan::Register reg;
    reg.meta = local_meta(val.shape, val.dtype, val.layout);
    reg.persistent = c_.persistent[v];
    const auto it = std::find(c_.stages.begin(), c_.stages.end(), val.layout.placement);
    reg.stage = it == c_.stages.end() ? 0 : static_cast<int>(it - c_.stages.begin());
    m_.registers.push_back(std::move(reg));
    m_.refs[v] = {Ref::kRegister, static_cast<int>(m_.registers.size()) - 1, {}};
    return static_cast<int>(m_.registers.size()) - 1;
  }

  // After the task that made v (or now, for a value without one): its accumulator.
  void accumulate(int v) {
    const Ref made = m_.refs[v];
    if (made.kind == Ref::kFixed) {
      accumulator_of_[v] = made;  // this rank holds nothing of it
      return;
    }
    const Value& val = g_.values[v];
    m_.accumulators.push_back(Tensor::empty(local_meta(val.shape, val.dtype, val.layout).shape, val.dtype, m_.memory()));
    accumulator_of_[v] = {Ref::kAccumulator, static_cast<int>(m_.accumulators.size()) - 1, {}};
    RankPlan::Task task;
    task.node = val.producer;
    task.inputs = {made};
    task.phase = Phase::kMicro;
    task.accumulator = accumulator_of_[v].index;
    m_.tasks.push_back(std::move(task));
  }

  Ref read(int v, Phase reader) const {
    return reader == Phase::kPost && c_.accumulated[v] ? accumulator_of_[v] : m_.refs[v];
  }

  // v holds nothing on this rank.
  void nothing_here(int v) {
    m_.fixed.push_back(boxing::empty_local(g_.values[v].shape, g_.values[v].dtype, m_.memory()));
    m_.refs[v] = {Ref::kFixed, static_cast<int>(m_.fixed.size()) - 1, {}};
    if (c_.accumulated[v]) accumulate(v);
  }

  // Whether op node n needs no task here; else its task gets its kernel call.
  bool op_without_task(const Node& node, RankPlan::Task& task) {
    const Placement& placement = g_.values[node.outputs[0]].layout.placement;
    const int pid = placement.parallel_id(c_.rank);
    if (pid < 0) {
      for (int v : node.outputs) nothing_here(v);
      return true;
    }
    const Shape coord = placement.coordinate(pid);
    if (views_in_place(c_, node)) {
      // No copy: consumers read the input's memory in the output's local shape.
      Ref view = task.inputs[0];
      view.view = view_shape(c_, node, placement, coord);
      m_.refs[node.outputs[0]] = view;
      return true;
    }
    if (c_.folded[node.outputs[0]]) {
      for (int v : node.outputs) m_.refs[v] = *c_.folded[v];
      return true;
    }
    task.call = kernel_call(g_, node, placement, coord);
    task.kernel = make_kernel_for(*node.op, m_.memory());
    return false;
  }

  // Whether boxing node `node` needs no task here; else a transfer between pipeline stages
  // gets its lane.
  bool boxing_without_task(const Node& node, RankPlan::Task& task) {
    if (node.plan->steps.empty()) {
      m_.refs[node.outputs[0]] = task.inputs[0];  // same local data
      const Ref& in = task.inputs[0];
      if (c_.persistent[node.outputs[0]] && !c_.persistent[node.inputs[0]] && in.kind == Ref::kRegister) {
        m_.registers[in.index].persistent = true;
      }
      if (c_.accumulated[node.outputs[0]]) accumulate(node.outputs[0]);
      return true;
    }
    if (!m_.pipelined || task.phase != Phase::kMicro || !boxing::transfers_only(*node.plan)) return false;
    // A transfer between stages: on a lane of its own, only on the ranks it involves. Its
    // number (and message tag) counts every such transfer, so it is the same on all ranks.
    const int lane_id = ++lanes_seen_;
    const Value& from = g_.values[node.inputs[0]];
    if (from.layout.placement.parallel_id(c_.rank) < 0 && node.to->placement.parallel_id(c_.rank) < 0) {
      nothing_here(node.outputs[0]);
      return true;
    }
    m_.lanes.push_back(vm::device().create_stream(device::StreamKind::kComm));
    task.lane = m_.lanes.back().get();
    task.lane_id = lane_id;
    return false;
  }

  void lower(size_t n) {
    const Node& node = g_.nodes[n];
    RankPlan::Task task;
    task.node = static_cast<int>(n);
    task.phase = c_.node_phase[n];
    for (int v : node.inputs) task.inputs.push_back(read(v, task.phase));
    if (node.kind == NodeKind::kOp ? op_without_task(node, task) : boxing_without_task(node, task)) return;
    for (int v : node.outputs) task.outputs.push_back(new_register(v));
    m_.tasks.push_back(std::move(task));
    for (int v : node.outputs) {
      if (c_.accumulated[v]) accumulate(v);
    }
  }

  Compilation& c_;
  const LogicalGraph& g_;
  RankPlan& m_;
  std::vector<Ref> accumulator_of_;
  int lanes_seen_ = 0;
};

// The micro-phase tasks of a pipeline that only feed the gradients' accumulation (the
// weight gradients and their sums): they can wait.
std::vector<bool> deferrable_tasks(const Compilation& c) {
  const RankPlan& m = c.plan;
  const size_t T = m.tasks.size();
  std::vector<bool> deferrable(T, false);
  for (size_t t = T; t-- > 0;) {
    const RankPlan::Task& task = m.tasks[t];
    if (task.phase != Phase::kMicro || task.lane) continue;
    if (c.graph.nodes[task.node].kind == NodeKind::kBoxing) {
      deferrable[t] = task.accumulator >= 0;
      continue;
    }
    bool only_deferred = !task.outputs.empty();
    for (int r : task.outputs) {
      for (int reader : c.readers[r]) only_deferred = only_deferred && deferrable[reader];
      only_deferred = only_deferred && !c.readers[r].empty();
    }
    deferrable[t] = only_deferred;
  }
  return deferrable;
}

}  // namespace

int stage_parts(const Compilation& c, std::vector<int>& part) {
  const RankPlan& m = c.plan;
  const LogicalGraph& g = c.graph;
  part.assign(m.tasks.size(), 0);
  if (!m.pipelined) return 0;
  // Stages that share ranks keep the plan's order on every rank (a shared rank could not
  // follow two stages' orders, and its peers must follow its one).
  std::vector<int> stage_of_rank;
  for (size_t s = 0; s < c.stages.size(); ++s) {
    for (int r : c.stages[s].ranks()) {
      if (r >= static_cast<int>(stage_of_rank.size())) stage_of_rank.resize(r + 1, -1);
      if (stage_of_rank[r] >= 0) return 0;
      stage_of_rank[r] = static_cast<int>(s);
    }
  }
  const int stage = c.rank < static_cast<int>(stage_of_rank.size()) ? stage_of_rank[c.rank] : -1;
  if (stage < 0) return 0;
  auto later_stage = [&](const Placement& p) {
    auto it = std::find(c.stages.begin(), c.stages.end(), p);
    return it != c.stages.end() && it - c.stages.begin() > stage;
  };
  // Per value of the micro phase: whether it depends on a later stage's work.
  std::vector<bool> after(g.values.size(), false);
  std::vector<bool> node_after(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (c.node_phase[n] != Phase::kMicro) continue;
    for (int v : node.inputs) {
      const bool made_later = c.phase[v] == Phase::kMicro && later_stage(g.values[v].layout.placement);
      node_after[n] = node_after[n] || after[v] || made_later;
    }
    for (int v : node.outputs) after[v] = node_after[n];
  }
  // Backward work that reads nothing a later stage made, read only by the backward pass (a
  // checkpointed region's recomputation: recompute.h), runs in the backward pass, so that
  // what it makes is not held from one pass to the other.
  std::vector<std::vector<int>> readers(g.values.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    for (int v : g.nodes[n].inputs) readers[v].push_back(static_cast<int>(n));
  }
  for (size_t n = g.nodes.size(); n-- > 0;) {
    if (c.node_phase[n] != Phase::kMicro || node_after[n] || !g.nodes[n].no_grad) continue;
    bool read = false, only_after = true;
    for (int v : g.nodes[n].outputs) {
      for (int r : readers[v]) {
        read = true;
        only_after = only_after && c.node_phase[r] == Phase::kMicro && node_after[r];
      }
    }
    node_after[n] = read && only_after;
  }
  // What only feeds the gradients' accumulation comes last in its micro-batch's backward
  // pass, so that the input gradient the previous stage waits for goes out first
  // (zero-bubble pipelining's idea, as an order).
  const std::vector<bool> deferrable = deferrable_tasks(c);
  for (size_t t = 0; t < m.tasks.size(); ++t) part[t] = deferrable[t] ? 2 : node_after[m.tasks[t].node] ? 1 : 0;
  return static_cast<int>(c.stages.size()) - 1 - stage;
}

namespace {

// Task t's actor; `local`: each register's index in its phase's actor system.
ActorSpec actor_of(Compilation& c, size_t t, const std::vector<int>& local) {
  RankPlan& m = c.plan;
  const RankPlan::Task& task = m.tasks[t];
  const Node& node = c.graph.nodes[task.node];
  ActorSpec spec;
  const bool comm_task = node.kind == NodeKind::kBoxing && task.accumulator < 0;
  // A transfer between stages, and ZeRO's conversions, are named apart from the other
  // collectives (traces tell them apart).
  spec.name = task.accumulator >= 0                 ? "accumulate"
              : task.lane                           ? node.name + " between stages"
              : node.zero == ZeroRole::kGather      ? node.name + " (ZeRO gather)"
              : node.zero == ZeroRole::kReduce      ? node.name + " (ZeRO reduce)"
                                                    : node.name;
  spec.stream = comm_task ? device::StreamKind::kComm : device::StreamKind::kCompute;
  spec.order_group = comm_task ? 0 : 1;
  if (m.pipelined && task.phase == Phase::kMicro) {
    // Micro-batches in flight: compute and collectives each act in their order of the
    // stage's parts (stage_parts: one forward, one backward), transfers between stages in
    // piece order on their lanes.
    spec.own_stream = task.lane;
    if (task.lane) spec.order_group = -1;
  }
  // Collectives keep one program order with eager's, on the VM's comm stream, whatever the
  // graph's device (its worker is the comm thread: a group made at the first collective of
  // the program, inside this graph, is made right there).
  if (comm_task && !spec.own_stream) spec.own_stream = &vm::comm_stream();
  for (const Ref& r : task.inputs) {
    if (r.kind == Ref::kRegister && local[r.index] >= 0 &&
        std::find(spec.inputs.begin(), spec.inputs.end(), local[r.index]) == spec.inputs.end()) {
      spec.inputs.push_back(local[r.index]);
    }
  }
  for (int r : task.outputs) spec.outputs.push_back(local[r]);
  spec.act = [&m, t](int64_t piece) { m.act(static_cast<int>(t), piece); };
  return spec;
}

}  // namespace

void fold_constants(Compilation& c) {
  const LogicalGraph& g = c.graph;
  RankPlan& m = c.plan;
  c.folded.assign(g.values.size(), std::nullopt);
  for (const Node& node : g.nodes) {
    if (node.kind == NodeKind::kBoxing && node.plan->steps.empty()) c.folded[node.outputs[0]] = c.folded[node.inputs[0]];
    if (node.kind != NodeKind::kOp) continue;
    const Placement& placement = g.values[node.outputs[0]].layout.placement;
    const int pid = placement.parallel_id(c.rank);
    bool inputs_folded = pid >= 0;
    for (int v : node.inputs) inputs_folded = inputs_folded && c.folded[v];
    if (!inputs_folded) continue;
    const Shape coord = placement.coordinate(pid);
    if (views_in_place(c, node)) {
      Ref view = *c.folded[node.inputs[0]];
      view.view = view_shape(c, node, placement, coord);
      c.folded[node.outputs[0]] = view;
      continue;
    }
    // A constant that a variable takes as its new value (a buffer's fill_) is computed at
    // every run, in a register that holds nothing while compiling, so what reads it is
    // computed at every run too.
    bool folds = true;
    for (int v : node.outputs) folds = folds && c.constant[v] && !c.persistent[v] && !c.accumulated[v];
    if (!folds) continue;
    const std::shared_ptr<KernelCall> call = kernel_call(g, node, placement, coord);
    std::vector<Tensor> in;
    for (int v : node.inputs) in.push_back(m.input_of(*c.folded[v], 0));
    const std::vector<Tensor> outs = make_kernel_for(*node.op, m.memory())(in, call->context());
    for (size_t k = 0; k < outs.size(); ++k) {
      m.fixed.push_back(outs[k]);
      c.folded[node.outputs[k]] = Ref{Ref::kFixed, static_cast<int>(m.fixed.size()) - 1, {}};
      c.memory.folded_bytes += static_cast<int64_t>(outs[k].nbytes());
    }
    c.stats.folded_ops += 1;
  }
}

void build_tasks(Compilation& c) {
  RankPlan& m = c.plan;
  TaskBuilder(c).run();
  // Tasks in the order they run: phase by phase, each in plan order. A register read in a
  // later phase than its producer's keeps memory of its own (each phase reuses the arena).
  std::stable_sort(m.tasks.begin(), m.tasks.end(),
                   [](const RankPlan::Task& a, const RankPlan::Task& b) { return a.phase < b.phase; });
  c.made_in.assign(m.registers.size(), Phase::kPre);
  c.producer_task.assign(m.registers.size(), -1);
  c.readers.assign(m.registers.size(), {});
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    for (int r : m.tasks[t].outputs) {
      c.made_in[r] = m.tasks[t].phase;
      c.producer_task[r] = static_cast<int>(t);
    }
  }
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    for (const Ref& r : m.tasks[t].inputs) {
      if (r.kind != Ref::kRegister) continue;
      if (c.made_in[r.index] != m.tasks[t].phase) m.registers[r.index].persistent = true;
      c.readers[r.index].push_back(static_cast<int>(t));
    }
  }
  c.stats.tasks = static_cast<int>(m.tasks.size());
}

void build_actors(Compilation& c) {
  RankPlan& m = c.plan;
  std::vector<int> part;
  const int lead = stage_parts(c, part);
  // One actor system per phase; a register made in an earlier phase is there before the
  // phase starts, so its readers do not wait on it.
  m.register_phase_index.assign(m.registers.size(), -1);
  for (const Phase ph : {Phase::kPre, Phase::kMicro, Phase::kPost}) {
    std::vector<ActorSpec> specs;
    std::vector<int> local(m.registers.size(), -1);
    std::vector<int> regst_nums;
    for (const RankPlan::Task& task : m.tasks) {
      if (task.phase != ph) continue;
      for (int r : task.outputs) {
        local[r] = static_cast<int>(regst_nums.size());
        m.register_phase_index[r] = local[r];
        regst_nums.push_back(std::max<int>(1, static_cast<int>(m.registers[r].slots.size())));
      }
    }
    bool parted = false;
    std::vector<int> actor(m.tasks.size(), -1);  // each task's actor in this phase's system
    for (size_t t = 0; t < m.tasks.size(); ++t) {
      if (m.tasks[t].phase != ph) continue;
      actor[t] = static_cast<int>(specs.size());
      specs.push_back(actor_of(c, t, local));
      for (int a : m.tasks[t].after) specs.back().after.push_back(actor[a]);
      if (specs.back().order_group >= 0) specs.back().order_part = part[t];
      parted = parted || (specs.back().order_group >= 0 && part[t] > 0);
    }
    m.phases.push_back(specs.empty() ? nullptr
                                     : std::make_unique<ActorSystem>(*m.device, std::move(specs), regst_nums));
    for (int group = 0; parted && group < m.phases.back()->order_groups(); ++group) {
      m.phases.back()->set_order_lead(group, lead);
    }
  }
}

}  // namespace mf::graph
