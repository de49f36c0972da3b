// Copyright 2026 The meshflow Authors.
// The passes that decide when what runs (passes.h): micro_batches, constants, fusion, stages.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/graph/fusion.h"
#include "meshflow/graph/passes.h"

namespace mf::graph {
namespace {

// A node's phase from its inputs' (inputs and random ops aside): after the micro-batches
// when it reads a gradient made per micro-batch, which then gets averaged.
Phase phase_of(Compilation& c, const Node& node) {
  Phase ph = Phase::kPre;
  // A random op (dropout's mask) draws anew for each micro-batch, as each eager step
  // would, even when it reads nothing of the micro-batch.
  if (node.kind == NodeKind::kOp && node.op->draws_random) ph = Phase::kMicro;
  // ZeRO stage 3 gathers a parameter for each micro-batch's use, and frees it after: gathered
  // once before them, it would be held whole throughout (zero.h).
  if (node.kind == NodeKind::kBoxing && node.zero == ZeroRole::kGather) ph = Phase::kMicro;
  for (int v : node.inputs) {
    ph = std::max(ph, c.is_gradient[v] && c.phase[v] == Phase::kMicro ? Phase::kPost : c.phase[v]);
  }
  for (int v : node.inputs) {
    if (ph != Phase::kPost || c.phase[v] != Phase::kMicro) continue;
    if (!c.is_gradient[v]) {
      throw std::invalid_argument(
          "graph: with gradient accumulation, what reads the gradients runs once per call on their mean, but " +
          node.name + " also reads %" + std::to_string(v) + ", a value of each micro-batch");
    }
    c.accumulated[v] = true;
  }
  return ph;
}

}  // namespace

void assign_micro_batches(Compilation& c) {
  const LogicalGraph& g = c.graph;
  c.is_gradient.assign(g.values.size(), false);
  for (int v : g.gradients) c.is_gradient[v] = true;
  c.plan.carried.clear();
  c.node_phase.assign(g.nodes.size(), Phase::kMicro);
  c.phase.assign(g.values.size(), Phase::kPre);
  if (g.micro_batches == 1) {
    c.accumulated.assign(g.values.size(), false);
    return;
  }
  // A variable the forward or backward updates (BatchNorm's running statistics, its
  // counter: every write but those that read the gradients) is carried from one
  // micro-batch to the next, as eager steps over them in turn would update it: its old
  // value is per micro-batch (the variable at the first, the previous one's new value
  // after), so what reads it is too. Carrying one can make another's new value per
  // micro-batch: repeat until none changes.
  std::vector<bool> carried(g.values.size(), false);
  for (bool changed = true; changed;) {
    c.accumulated.assign(g.values.size(), false);
    // Inputs first: fusion may put a chain before an input node it reads.
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      const Node& node = g.nodes[n];
      if (node.kind != NodeKind::kInput) continue;
      const bool micro = node.input_kind == InputKind::kArgument || carried[node.outputs[0]];
      c.node_phase[n] = micro ? Phase::kMicro : Phase::kPre;
      c.phase[node.outputs[0]] = c.node_phase[n];
    }
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      const Node& node = g.nodes[n];
      if (node.kind == NodeKind::kInput) continue;
      c.node_phase[n] = phase_of(c, node);
      for (int v : node.outputs) c.phase[v] = c.node_phase[n];
    }
    changed = false;
    for (const auto& [var, v] : g.writes) {
      const int old = g.variable_values[var];
      if (c.phase[v] == Phase::kPost || carried[old]) continue;
      carried[old] = changed = true;
    }
  }
  for (int v : g.outputs) c.accumulated[v] = c.accumulated[v] || c.phase[v] == Phase::kMicro;
  for (size_t i = 0; i < g.writes.size(); ++i) {
    if (carried[g.variable_values[g.writes[i].first]]) c.plan.carried.push_back(static_cast<int>(i));
  }
}

void mark_constants(Compilation& c) {
  c.constant.assign(c.graph.values.size(), false);
  for (const Node& node : c.graph.nodes) {
    bool constant = node.kind == NodeKind::kOp
                        ? !node.op->draws_random && !node.op->kernel_checks_data && !node.run_time_attrs
                        : node.kind == NodeKind::kBoxing && node.plan->steps.empty();
    for (int v : node.inputs) constant = constant && c.constant[v];
    for (int v : node.outputs) c.constant[v] = constant;
  }
}

void fuse(Compilation& c) {
  LogicalGraph& g = c.graph;
  const FusedChains how = fused_chains(c.plan.memory());
  if (!g.fuse || how == FusedChains::kNone) return;
  std::vector<bool> keep(g.values.size(), false);
  for (int v : g.outputs) keep[v] = true;
  for (const auto& [var, v] : g.writes) keep[v] = true;
  // Constant ops fuse only among themselves: their chains are folded too.
  std::vector<int> node_class;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const bool folds = !g.nodes[n].outputs.empty() && c.constant[g.nodes[n].outputs[0]];
    node_class.push_back(folds ? -1 : static_cast<int>(c.node_phase[n]));
  }
  const FusionStats fused = fuse_elementwise(g, node_class, keep, c.rank, how);
  c.stats.fused_chains = fused.chains;
  c.stats.fused_ops = fused.fused_ops;
  c.memory.unstored_bytes = fused.unstored_bytes;
  c.stats.graph_nodes = static_cast<int>(g.nodes.size());
  assign_micro_batches(c);
}

void place_stages(Compilation& c) {
  const LogicalGraph& g = c.graph;
  RankPlan& plan = c.plan;
  const int mb = g.micro_batches;
  plan.micro_batches = mb;
  plan.fresh_attrs.assign(g.nodes.size(), 0);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (!node.run_time_attrs || node.recomputes >= 0) continue;  // a copy takes its original's
    const bool per_micro_batch = node.kind == NodeKind::kOp && node.op->draws_random && c.node_phase[n] == Phase::kMicro;
    plan.fresh_attrs[n] = per_micro_batch ? mb : 1;
  }
  // The placements of the micro-batches' ops, those the user named first (set_stage), then
  // in the order they first appear (forward order).
  c.stages = mb > 1 ? g.stage_order : std::vector<Placement>{};
  for (size_t n = 0; n < g.nodes.size() && mb > 1; ++n) {
    const Node& node = g.nodes[n];
    if (c.node_phase[n] != Phase::kMicro || node.kind != NodeKind::kOp) continue;
    const Placement& placement = g.values[node.outputs[0]].layout.placement;
    if (std::find(c.stages.begin(), c.stages.end(), placement) == c.stages.end()) c.stages.push_back(placement);
  }
  // With several, micro-batches are in flight at once: each register of stage s gets
  // (stages - s) slots, so stage s can run that many forward passes ahead of their backward
  // passes, and one-forward-one-backward follows.
  plan.pipelined = c.stages.size() > 1;
  if (plan.pipelined && !plan.carried.empty()) {
    throw std::invalid_argument(
        "graph: a pipeline of " + std::to_string(c.stages.size()) + " stages runs its micro-batches in flight at "
        "once, but " + c.traced.variables[g.writes[plan.carried[0]].first].name + " gets a new value per "
        "micro-batch, which the next one reads (a forward that updates a buffer, such as BatchNorm's running "
        "statistics in training); expected such a module in eval mode, or a graph on one stage");
  }
  plan.alone = g.local;
  c.persistent.assign(g.values.size(), false);
  for (int v : g.outputs) c.persistent[v] = !c.accumulated[v];
  for (const auto& [var, v] : g.writes) c.persistent[v] = true;
}

}  // namespace mf::graph
