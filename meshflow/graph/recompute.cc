// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/recompute.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "meshflow/graph/passes.h"
#include "meshflow/ops/op.h"

namespace mf::graph {
namespace {

// Megatron's selective recomputation keeps what matmuls and attention make and recomputes
// what is cheap to make again: elementwise ops (activations, dropout's mask and scaling),
// softmax, random draws.
bool cheap(const Node& node) {
  return node.kind == NodeKind::kOp && (node.op->elementwise || node.op->draws_random || node.name == "softmax" ||
                                        node.name == "log_softmax");
}

bool recomputable(const LogicalGraph& g, const Node& node) {
  if (node.checkpoint < 0 || node.recomputes >= 0 || node.kind == NodeKind::kInput) return false;
  return g.checkpoints.at(static_cast<size_t>(node.checkpoint)) == Recompute::kFull || cheap(node);
}

struct Uses {
  explicit Uses(const LogicalGraph& g) : readers(g.values.size()), sink(g.values.size(), false) {
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      for (int v : g.nodes[n].inputs) {
        std::vector<int>& r = readers[v];
        if (r.empty() || r.back() != static_cast<int>(n)) r.push_back(static_cast<int>(n));
      }
    }
    for (int v : g.outputs) sink[v] = true;
    for (const auto& [var, v] : g.writes) sink[v] = true;
  }
  std::vector<std::vector<int>> readers;  // per value: the nodes reading it, in order
  std::vector<bool> sink;                 // returned or written
};

bool outside(const LogicalGraph& g, int reader, int v) {
  return g.nodes[reader].checkpoint != g.nodes[g.values[v].producer].checkpoint;
}

// Whether backward need not keep v: its maker may be recomputed, and outside the maker's
// region only backward reads it.
bool droppable(const LogicalGraph& g, const Uses& u, int v) {
  if (!recomputable(g, g.nodes[g.values[v].producer]) || u.sink[v]) return false;
  for (int r : u.readers[v]) {
    if (outside(g, r, v) && !g.nodes[r].no_grad) return false;
  }
  return true;
}

int64_t logical_bytes(const Value& v) { return static_cast<int64_t>(numel(v.shape) * dtype_size(v.dtype)); }

// Region r's copies, appended to `copies` in program order, their values to g.values;
// copy[v] is v's copy. Returns the index of the first backward node reading one of the
// region's dropped values (-1: none reads any).
int copy_region(LogicalGraph& g, const Uses& u, const std::vector<bool>& dropped, int r, std::vector<int>& copy,
                std::vector<Node>& copies, RecomputeStats& stats) {
  int first = -1;
  std::vector<int> todo;
  for (size_t v = 0; v < dropped.size(); ++v) {
    if (!dropped[v] || g.nodes[g.values[v].producer].checkpoint != r) continue;
    bool read = false;
    for (int reader : u.readers[v]) {
      if (!outside(g, reader, static_cast<int>(v))) continue;
      read = true;
      first = first < 0 ? reader : std::min(first, reader);
    }
    if (!read) continue;
    todo.push_back(g.values[v].producer);
    stats.dropped_bytes += logical_bytes(g.values[v]);
  }
  // The dropped values' makers, back through dropped inputs to what is kept.
  std::vector<bool> take(g.nodes.size(), false);
  while (!todo.empty()) {
    const int n = todo.back();
    todo.pop_back();
    if (take[n]) continue;
    take[n] = true;
    for (int v : g.nodes[n].inputs) {
      if (dropped[v]) todo.push_back(g.values[v].producer);
    }
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!take[n]) continue;
    Node c = g.nodes[n];
    c.checkpoint = -1;
    c.no_grad = true;
    c.recomputes = g.nodes[n].outputs[0];
    for (int& v : c.inputs) {
      if (dropped[v]) v = copy[v];
    }
    for (int& v : c.outputs) {
      const Value made = g.values[v];
      g.values.push_back(made);
      copy[v] = static_cast<int>(g.values.size()) - 1;
      v = copy[v];
    }
    copies.push_back(std::move(c));
    stats.recomputed_ops += 1;
  }
  stats.regions += first >= 0;
  return first;
}

}  // namespace

RecomputeStats recompute_activations(LogicalGraph& g) {
  RecomputeStats stats;
  if (g.checkpoints.empty()) return stats;
  const Uses u(g);
  const size_t values = g.values.size();
  std::vector<bool> dropped(values, false);
  for (size_t v = 0; v < values; ++v) dropped[v] = droppable(g, u, static_cast<int>(v));
  std::vector<int> copy(values, -1);
  std::map<int, std::vector<Node>> before;  // node index -> the copies that go just before it
  for (int r = 0; r < static_cast<int>(g.checkpoints.size()); ++r) {
    std::vector<Node> copies;
    const int first = copy_region(g, u, dropped, r, copy, copies, stats);
    if (first < 0) continue;
    std::vector<Node>& at = before[first];
    for (Node& c : copies) at.push_back(std::move(c));
  }
  if (before.empty()) return stats;
  // Backward reads the copies.
  for (Node& node : g.nodes) {
    if (!node.no_grad) continue;
    for (int& v : node.inputs) {
      if (v < static_cast<int>(values) && dropped[v] && node.checkpoint != g.nodes[g.values[v].producer].checkpoint) {
        v = copy[v];
      }
    }
  }
  std::vector<Node> nodes;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    auto it = before.find(static_cast<int>(n));
    if (it != before.end()) {
      for (Node& c : it->second) nodes.push_back(std::move(c));
    }
    nodes.push_back(std::move(g.nodes[n]));
  }
  g.nodes = std::move(nodes);
  g.renumber_producers();
  return stats;
}

void check_recomputed(const LogicalGraph& g, const std::string& after) {
  auto broken = [&](const std::string& what) { throw std::logic_error("graph: after the " + after + " pass, " + what); };
  const Uses u(g);
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (!droppable(g, u, static_cast<int>(v))) continue;
    for (int r : u.readers[v]) {
      if (outside(g, r, static_cast<int>(v))) {
        broken(g.nodes[r].name + " (node " + std::to_string(r) + ", backward) reads %" + std::to_string(v) +
               ", an activation of checkpointed region " + std::to_string(g.nodes[g.values[v].producer].checkpoint) +
               " that it should read recomputed");
      }
    }
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& c = g.nodes[n];
    if (c.recomputes < 0) continue;
    const Node& original = g.nodes[g.values.at(c.recomputes).producer];
    if (original.name != c.name || original.op != c.op || original.signature.str() != c.signature.str() ||
        original.outputs.size() != c.outputs.size() || original.recomputes >= 0) {
      broken(c.name + " (node " + std::to_string(n) + ") recomputes %" + std::to_string(c.recomputes) +
             ", which another op or signature makes");
    }
    for (int v : c.outputs) {
      for (int r : u.readers[v]) {
        if (!g.nodes[r].no_grad) {
          broken(g.nodes[r].name + " (node " + std::to_string(r) + "), a forward op, reads the recomputed %" +
                 std::to_string(v));
        }
      }
    }
  }
}

void recompute(Compilation& c) {
  const RecomputeStats stats = recompute_activations(c.graph);
  c.stats.recomputed_ops = stats.recomputed_ops;
  c.stats.checkpointed_regions = stats.regions;
  c.stats.dropped_activation_bytes = stats.dropped_bytes;
  c.stats.graph_nodes = static_cast<int>(c.graph.nodes.size());
}

}  // namespace mf::graph
