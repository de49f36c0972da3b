// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/compile.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/graph/passes.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {

struct CompiledGraph::Impl {
  LogicalGraph traced;
  RankPlan plan;
  std::vector<std::string> reasons;  // explain(), one per boxing node the compiler placed
};

namespace {

// Attributes read anew (random draws, a schedule's values) node by node, on every rank
// whether or not it runs the node, micro-batch k's after those of micro-batches 0 .. k-1
// as eager steps over the micro-batches in turn would draw them. So the generator advances
// alike on every rank and in every call, the first included (the trace drew its
// micro-batch 0). A recomputed copy takes what its original drew (recompute.h).
void read_fresh_attributes(RankPlan& m) {
  const LogicalGraph& p = m.graph;
  const int mb = m.micro_batches;
  std::vector<std::vector<Attrs>> fresh(p.nodes.size());
  for (int k = 0; k < mb; ++k) {
    for (size_t n = 0; n < p.nodes.size(); ++n) {
      if (m.fresh_attrs[n] > k) fresh[n].push_back((*p.nodes[n].run_time_attrs)());
    }
  }
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const Node& node = p.nodes[n];
    if (node.recomputes >= 0 && node.run_time_attrs) fresh[n] = fresh[p.values[node.recomputes].producer];
  }
  for (RankPlan::Task& task : m.tasks) {
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
}

}  // namespace

CompiledGraph::CompiledGraph(LogicalGraph traced) : impl_(std::make_unique<Impl>()) {
  const auto start = std::chrono::steady_clock::now();
  impl_->traced = std::move(traced);
  Compilation c(impl_->traced, impl_->plan);
  c.stats.traced_nodes = static_cast<int>(impl_->traced.nodes.size());
  run_pipeline(c);
  impl_->reasons = std::move(c.reasons);
  stats_ = std::move(c.stats);
  memory_ = c.memory;
  stats_.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string CompiledGraph::debug_graph(const std::string& after) const {
  RankPlan plan;
  Compilation c(impl_->traced, plan);
  run_pipeline(c, after.empty() ? pipeline().back().name : after);
  std::ostringstream s;
  s << "after " << c.stats.passes.back().name << ": " << c.graph.nodes.size() << " nodes, " << c.graph.values.size()
    << " values";
  if (!plan.tasks.empty()) {
    s << ", " << plan.tasks.size() << " tasks and " << plan.registers.size() << " registers on rank " << c.rank;
  }
  s << "\n" << c.graph.str();
  // The waits the prefetch pass added (zero.h), by the first value of each task's node.
  auto value_of = [&](int t) { return "%" + std::to_string(c.graph.nodes[plan.tasks[t].node].outputs[0]); };
  for (size_t t = 0; t < plan.tasks.size(); ++t) {
    if (plan.tasks[t].after.empty()) continue;
    s << "  " << value_of(static_cast<int>(t)) << " waits for";
    for (int a : plan.tasks[t].after) s << " " << value_of(a);
    s << "\n";
  }
  return s.str();
}

CompiledGraph::~CompiledGraph() = default;

std::vector<Var> CompiledGraph::run(const std::vector<Var>& arguments) {
  vm::Issuing issuing;
  comm::check_collective_thread("graph");  // its actors' collectives follow the run's place in the program
  RankPlan& m = impl_->plan;
  const LogicalGraph& p = m.graph;
  const LogicalGraph& traced = impl_->traced;
  if (arguments.size() != p.arguments.size()) {
    throw std::invalid_argument("graph: expected " + std::to_string(p.arguments.size()) + " arguments, got " +
                                std::to_string(arguments.size()));
  }
  const int mb = m.micro_batches;
  // The first error of this rank's run: a failed input's (eager work that made it), or a
  // phase's. Every phase runs even after one, for the other ranks' collectives; then the
  // ranks raise it together.
  std::exception_ptr error;
  auto check = [mb, &error](const std::string& what, const Value& want, const Var& got, bool argument) {
    if (!got.defined() || !got.is_global()) throw std::invalid_argument("graph: " + what + " is not a global tensor");
    const GlobalTensor& t = got.global();
    Shape shape = want.shape;
    if (argument && mb > 1) shape[0] *= mb;  // compiled for one micro-batch
    if (t.shape() != shape || t.dtype() != want.dtype || t.layout() != want.layout) {
      throw std::invalid_argument("graph: " + what + " is " + to_string(t.shape()) + " " + dtype_name(t.dtype()) +
                                  " " + t.layout().str() + "; the graph was compiled for " + to_string(shape) +
                                  " " + dtype_name(want.dtype) + " " + want.layout.str());
    }
    vm::wait_run(t.local());  // eager work that made it has run
    if (!error) error = t.local().storage()->error();
    return t.local();
  };
  for (const std::function<void()>& f : traced.before_run) f();
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
        m.bound[v] = check("variable " + traced.variables[node.input_index].name, p.values[v],
                           traced.variables[node.input_index].get(), false);
        break;
      case InputKind::kConstant:
        m.bound[v] = traced.constants[node.input_index].local();
        vm::wait_run(m.bound[v]);
        if (!error) error = m.bound[v].storage()->error();
        break;
    }
  }
  m.bind_donations();
  read_fresh_attributes(m);
  auto run_phase = [&](Phase ph, int64_t pieces) {
    const std::unique_ptr<ActorSystem>& system = m.phases[static_cast<int>(ph)];
    if (!system) return;
    try {
      system->run(pieces);
    } catch (const std::exception&) {
      if (!error) error = std::current_exception();
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
    for (m.piece = 0; m.piece < mb; ++m.piece) {
      for (int i = 0; i < static_cast<int>(m.carried.size()) && m.piece > 0; ++i) {
        const auto& [var, v] = p.writes[m.carried[i]];
        m.bound[p.variable_values[var]] = m.input_of(m.refs[v], 0);
      }
      run_phase(Phase::kMicro, 1);
    }
  }
  run_phase(Phase::kPost, 1);
  if (!m.alone) {
    vm::raise_together(error, "[graph]");
  } else if (error) {
    std::rethrow_exception(error);
  }
  auto value_of = [&](int v, const RankPlan::Ref& ref) {
    const Value& val = p.values[v];
    Tensor local = m.input_of(ref, 0);
    // An accumulator is written again by the next run: a returned one is a copy, so that
    // each call's output keeps its value (a loss kept per step, an array over it).
    if (ref.kind == RankPlan::Ref::kAccumulator) local = local.clone();
    return Var(GlobalTensor(val.shape, val.layout.placement, val.layout.nd_sbp, local));
  };
  for (const auto& [var, v] : p.writes) traced.variables[var].set(value_of(v, m.refs[v]));
  std::vector<Var> outputs;
  // Every rank returns them: a small partial output (a loss) gets its twin for reads that
  // some ranks make alone, as an eager op's.
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    outputs.push_back(Var(with_read_twin(value_of(p.outputs[i], m.output_refs[i]).global(), "graph")));
  }
  for (size_t v = 0; v < m.bound.size(); ++v) {
    m.bound[v] = Tensor();
    m.argument_pieces[v].clear();
  }
  m.bind_donations(true);
  return outputs;
}

std::vector<int> CompiledGraph::peak_register_use() const {
  const RankPlan& m = impl_->plan;
  std::vector<int> peaks(m.registers.size(), 0);
  for (const RankPlan::Task& task : m.tasks) {
    for (int r : task.outputs) peaks[r] = m.phases[static_cast<int>(task.phase)]->peak_in_use()[m.register_phase_index[r]];
  }
  return peaks;
}

std::pair<int64_t, int64_t> CompiledGraph::last_pipeline_us() const { return impl_->plan.micro_window; }

std::vector<CompiledGraph::RegisterReport> CompiledGraph::registers() const {
  const std::vector<int> peaks = peak_register_use();
  std::vector<RegisterReport> out;
  for (size_t r = 0; r < impl_->plan.registers.size(); ++r) {
    const RankPlan::Register& reg = impl_->plan.registers[r];
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
  return s.str() + impl_->plan.graph.str();
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
  const LogicalGraph& p = impl_->plan.graph;
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
