// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/zero.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "meshflow/graph/passes.h"

namespace mf::graph {
namespace {

// Read in backward: traced with grad mode off, or a recomputed copy (recompute.h).
bool backward(const Node& node) { return node.no_grad || node.recomputes >= 0; }

// A conversion that moves data into a gradient or out of one (its reduction).
bool reduces_gradient(const std::vector<bool>& gradient, const Node& node) {
  return node.kind == NodeKind::kBoxing && (gradient[node.inputs[0]] || gradient[node.outputs[0]]) &&
         (!node.plan || !node.plan->steps.empty());
}

std::vector<bool> gradients_of(const LogicalGraph& g) {
  std::vector<bool> gradient(g.values.size(), false);
  for (int v : g.gradients) gradient[v] = true;
  return gradient;
}

// Per node, the nodes that read one of its outputs, in program order.
std::vector<std::vector<int>> readers_of(const LogicalGraph& g) {
  std::vector<std::vector<int>> readers(g.nodes.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    for (int v : g.nodes[n].inputs) {
      std::vector<int>& r = readers[g.values[v].producer];
      if (r.empty() || r.back() != static_cast<int>(n)) r.push_back(static_cast<int>(n));
    }
  }
  return readers;
}

[[noreturn]] void broken(const std::string& after, const std::string& what) {
  throw std::logic_error("graph: after the " + after + " pass, " + what);
}

}  // namespace

ZeroStats schedule_zero(LogicalGraph& g) {
  ZeroStats stats;
  const size_t n_nodes = g.nodes.size();
  const std::vector<std::vector<int>> readers = readers_of(g);
  const std::vector<bool> gradient = gradients_of(g);
  // New places: nodes to put just before (a backward gather) or just after (a reduction)
  // a node of the old order.
  std::vector<std::vector<int>> before(n_nodes), after(n_nodes);
  std::vector<bool> moved(n_nodes, false);
  for (size_t n = 0; n < n_nodes; ++n) {
    const Node& node = g.nodes[n];
    if (reduces_gradient(gradient, node)) {
      moved[n] = true;
      after[g.values[node.inputs[0]].producer].push_back(static_cast<int>(n));
      stats.moved_reductions += 1;
    }
    if (node.zero != ZeroRole::kGather) continue;
    std::vector<int> late;
    bool early = false;
    for (int r : readers[n]) (backward(g.nodes[r]) ? late.push_back(r) : void(early = true));
    if (!early || late.empty()) continue;
    // Backward's readers read a gather of their own, made just before the first of them.
    Node copy = node;
    copy.no_grad = true;
    copy.checkpoint = -1;
    const int from = node.outputs[0];
    const int out = static_cast<int>(g.values.size());
    g.values.push_back(g.values[from]);
    copy.outputs = {out};
    for (int r : late) std::replace(g.nodes[r].inputs.begin(), g.nodes[r].inputs.end(), from, out);
    before[late.front()].push_back(static_cast<int>(g.nodes.size()));
    g.nodes.push_back(std::move(copy));
    stats.backward_gathers += 1;
  }
  std::vector<Node> ordered;
  ordered.reserve(g.nodes.size());
  // A node, then what moves to just after it (a reduction of a reduction's result too).
  std::function<void(int)> place = [&](int n) {
    ordered.push_back(std::move(g.nodes[n]));
    for (int a : after[n]) place(a);
  };
  for (size_t n = 0; n < n_nodes; ++n) {
    for (int b : before[n]) ordered.push_back(std::move(g.nodes[b]));
    if (!moved[n]) place(static_cast<int>(n));
  }
  g.nodes = std::move(ordered);
  g.renumber_producers();
  return stats;
}

void check_zero(const LogicalGraph& g, const std::string& after) {
  const std::vector<std::vector<int>> readers = readers_of(g);
  const std::vector<bool> gradient = gradients_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (node.zero == ZeroRole::kGather && !readers[n].empty()) {
      const bool late = backward(g.nodes[readers[n][0]]);
      for (int r : readers[n]) {
        if (backward(g.nodes[r]) != late) {
          broken(after, "the gather %" + std::to_string(node.outputs[0]) + " is read in forward and in backward");
        }
      }
    }
    if (!reduces_gradient(gradient, node)) continue;
    const int producer = g.values[node.inputs[0]].producer;
    int k = static_cast<int>(n) - 1;
    while (k > producer && reduces_gradient(gradient, g.nodes[k])) --k;
    if (k != producer) {
      broken(after, "the reduction %" + std::to_string(node.outputs[0]) + " of the gradient %" +
                        std::to_string(node.inputs[0]) + " does not follow the node that makes it");
    }
  }
}

namespace {

// One kind of window (zero.h): communication tasks in plan order, with the bytes each holds
// whole (a gathered parameter, a partial gradient).
struct Window {
  std::vector<int> tasks;
  std::vector<int64_t> bytes;
};

// Index j of the last entry before k with bytes[j] + .. + bytes[k] > budget, or -1.
int window_start(const Window& w, size_t k, int64_t budget) {
  int64_t held = w.bytes[k];
  for (size_t j = k; j-- > 0;) {
    held += w.bytes[j];
    if (held > budget) return static_cast<int>(j);
  }
  return -1;
}

int64_t budget_of(const Window& w) { return 2 * (w.bytes.empty() ? 0 : *std::max_element(w.bytes.begin(), w.bytes.end())); }

int64_t register_bytes(const RankPlan& m, int r) {
  return static_cast<int64_t>(numel(m.registers[r].meta.shape) * dtype_size(m.registers[r].meta.dtype));
}

bool is_comm(const Compilation& c, int t) {
  return c.graph.nodes[c.plan.tasks[t].node].kind == NodeKind::kBoxing && c.plan.tasks[t].accumulator < 0;
}

// Gathers: each waits for the last compute and the last communication task (each stream acts
// in plan order) among the readers of the gathers up to its window's start.
int gather_windows(Compilation& c, const Window& w) {
  RankPlan& m = c.plan;
  const int64_t budget = budget_of(w);
  int added = 0;
  for (size_t k = 0; k < w.tasks.size(); ++k) {
    const int t = w.tasks[k];
    const int start = window_start(w, k, budget);
    int last[2] = {-1, -1};  // compute, comm
    for (int j = 0; j <= start; ++j) {
      for (int r : m.tasks[w.tasks[j]].outputs) {
        for (int reader : c.readers[r]) {
          if (reader < t && m.tasks[reader].phase == m.tasks[t].phase) {
            int& l = last[is_comm(c, reader)];
            l = std::max(l, reader);
          }
        }
      }
    }
    for (int l : last) {
      if (l >= 0) {
        m.tasks[t].after.push_back(l);
        added += 1;
      }
    }
  }
  return added;
}

// Gradients: the task making gradient k waits for the reduction at its window's start.
int gradient_windows(Compilation& c, const Window& w) {
  RankPlan& m = c.plan;
  const int64_t budget = budget_of(w);
  int added = 0;
  for (size_t k = 0; k < w.tasks.size(); ++k) {
    const int start = window_start(w, k, budget);
    const RankPlan::Ref& in = m.tasks[w.tasks[k]].inputs[0];
    const int maker = c.producer_task[in.index];
    if (start < 0 || w.tasks[start] >= maker) continue;
    m.tasks[maker].after.push_back(w.tasks[start]);
    added += 1;
  }
  return added;
}

}  // namespace

void zero(Compilation& c) {
  if (c.graph.zero_stage == 0) return;
  const ZeroStats stats = schedule_zero(c.graph);
  c.stats.backward_gathers = stats.backward_gathers;
  c.stats.graph_nodes = static_cast<int>(c.graph.nodes.size());
}

void prefetch(Compilation& c) {
  RankPlan& m = c.plan;
  if (c.graph.zero_stage == 0 || m.pipelined) return;
  const std::vector<bool> gradient = gradients_of(c.graph);
  for (const Phase ph : {Phase::kPre, Phase::kMicro, Phase::kPost}) {
    Window gathers, reductions;
    for (size_t t = 0; t < m.tasks.size(); ++t) {
      const RankPlan::Task& task = m.tasks[t];
      if (task.phase != ph || !is_comm(c, static_cast<int>(t)) || task.lane) continue;
      const Node& node = c.graph.nodes[task.node];
      const RankPlan::Ref& in = task.inputs[0];
      if (node.zero == ZeroRole::kGather || in.kind == RankPlan::Ref::kBound) {
        gathers.tasks.push_back(static_cast<int>(t));
        gathers.bytes.push_back(register_bytes(m, task.outputs[0]));
      } else if ((gradient[node.inputs[0]] || gradient[node.outputs[0]]) && in.kind == RankPlan::Ref::kRegister &&
                 !in.view && c.made_in[in.index] == ph && c.producer_task[in.index] >= 0) {
        reductions.tasks.push_back(static_cast<int>(t));
        reductions.bytes.push_back(register_bytes(m, in.index));
      }
    }
    c.stats.prefetch_orders += gather_windows(c, gathers) + gradient_windows(c, reductions);
  }
}

}  // namespace mf::graph
