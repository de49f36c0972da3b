// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/passes.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/graph/recompute.h"
#include "meshflow/graph/zero.h"
#include "meshflow/ops/op.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {
namespace {

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

std::atomic<int>& check_setting() {
  static std::atomic<int> on{-1};  // -1: not read yet
  return on;
}

[[noreturn]] void broken(const std::string& after, const std::string& what) {
  throw std::logic_error("graph: after the " + after + " pass, " + what);
}

void check_value(const LogicalGraph& g, int v, const std::string& reader, const std::string& after) {
  const std::string name = "%" + std::to_string(v);
  if (v < 0 || v >= static_cast<int>(g.values.size())) broken(after, reader + " reads " + name + ", which does not exist");
  const Value& val = g.values[v];
  if (val.producer < 0 || val.producer >= static_cast<int>(g.nodes.size()) || val.index < 0 ||
      val.index >= static_cast<int>(g.nodes[val.producer].outputs.size()) ||
      g.nodes[val.producer].outputs[val.index] != v) {
    broken(after, reader + " reads " + name + ", which no node produces");
  }
}

void check_layouts(const LogicalGraph& g, size_t n, const std::string& after) {
  const Node& node = g.nodes[n];
  if (node.kind == NodeKind::kBoxing && g.values[node.outputs[0]].layout != *node.to) {
    broken(after, "%" + std::to_string(node.outputs[0]) + " = to_global(...) has layout " +
                      g.values[node.outputs[0]].layout.str() + "; the conversion targets " + node.to->str());
  }
  if (node.kind != NodeKind::kOp) return;
  const Placement& placement = g.values[node.outputs[0]].layout.placement;
  for (size_t j = 0; j < node.inputs.size(); ++j) {
    const boxing::Layout want{placement, node.signature.inputs.at(j)};
    if (g.values[node.inputs[j]].layout != want) {
      broken(after, "input " + std::to_string(j) + " of " + node.name + " (node " + std::to_string(n) + ") is %" +
                        std::to_string(node.inputs[j]) + " in " + g.values[node.inputs[j]].layout.str() +
                        "; its signature takes " + want.str());
    }
  }
}

// Kahn's algorithm over the producer -> consumer edges (program order need not be
// topological: fusion may put a chain before an input node it reads).
void check_acyclic(const LogicalGraph& g, const std::string& after) {
  std::vector<int> waiting(g.nodes.size(), 0);
  std::vector<std::vector<int>> consumers(g.nodes.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    for (int v : g.nodes[n].inputs) {
      consumers[g.values[v].producer].push_back(static_cast<int>(n));
      waiting[n] += 1;
    }
  }
  std::vector<int> ready;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (waiting[n] == 0) ready.push_back(static_cast<int>(n));
  }
  size_t done = 0;
  while (!ready.empty()) {
    const int n = ready.back();
    ready.pop_back();
    done += 1;
    for (int c : consumers[n]) {
      if (--waiting[c] == 0) ready.push_back(c);
    }
  }
  if (done == g.nodes.size()) return;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (waiting[n] > 0) broken(after, g.nodes[n].name + " (node " + std::to_string(n) + ") is on a cycle or after one");
  }
}

}  // namespace

Compilation::Compilation(const LogicalGraph& traced, RankPlan& plan)
    : traced(traced), plan(plan), graph(plan.graph), rank(comm::world_rank()) {
  plan.device = &device_of(traced);
  plan.add_kernel = &kernel_for(find_op("add"), plan.memory());
  plan.scale_kernel = &kernel_for(find_op("mul_scalar"), plan.memory());
}

const std::vector<Pass>& pipeline() {
  static const std::vector<Pass> passes{
      {"cleanup", cleanup},
      {"sbp", choose_sbp},
      {"boxing", insert_boxing},
      {"recompute", recompute, [](const Compilation& c) { check_recomputed(c.graph, "recompute"); }},
      {"zero", zero, [](const Compilation& c) { if (c.graph.zero_stage > 0) check_zero(c.graph, "zero"); }},
      {"micro_batches", assign_micro_batches},
      {"constants", mark_constants},
      {"fusion", fuse},
      {"stages", place_stages},
      {"fold", fold_constants},
      {"tasks", build_tasks},
      {"prefetch", prefetch},
      {"memory", plan_memory},
      {"actors", build_actors},
  };
  return passes;
}

void run_pipeline(Compilation& c, const std::string& until) {
  bool known = until.empty();
  for (const Pass& pass : pipeline()) known = known || until == pass.name;
  if (!known) {
    std::string names;
    for (const Pass& pass : pipeline()) names += (names.empty() ? "" : ", ") + std::string(pass.name);
    throw std::invalid_argument("graph: no pass is named '" + until + "'; the passes are " + names);
  }
  const bool check = check_passes();
  for (const Pass& pass : pipeline()) {
    const auto start = std::chrono::steady_clock::now();
    pass.run(c);
    c.stats.passes.push_back(
        {pass.name, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()});
    if (check) {
      check_graph(c.graph, c.layouts_explicit, pass.name);
      if (pass.check) pass.check(c);
    }
    if (until == pass.name) return;
  }
}

bool check_passes() {
  int on = check_setting().load();
  if (on < 0) {
#ifdef NDEBUG
    const char* env = std::getenv("MESHFLOW_CHECK_PASSES");
    on = env && std::string(env) != "" && std::string(env) != "0";
#else
    on = 1;
#endif
    check_setting().store(on);
  }
  return on > 0;
}

void set_check_passes(bool on) { check_setting().store(on ? 1 : 0); }

void check_graph(const LogicalGraph& g, bool layouts_explicit, const std::string& after) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    for (int v : node.inputs) check_value(g, v, node.name + " (node " + std::to_string(n) + ")", after);
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const int v = node.outputs[k];
      if (v < 0 || v >= static_cast<int>(g.values.size()) || g.values[v].producer != static_cast<int>(n) ||
          g.values[v].index != static_cast<int>(k)) {
        broken(after, node.name + " (node " + std::to_string(n) + ") lists output %" + std::to_string(v) +
                          ", which it does not produce");
      }
    }
  }
  for (int v : g.outputs) check_value(g, v, "a returned output", after);
  for (const auto& [var, v] : g.writes) check_value(g, v, "the new value of variable " + std::to_string(var), after);
  check_acyclic(g, after);
  if (!layouts_explicit) return;
  for (size_t n = 0; n < g.nodes.size(); ++n) check_layouts(g, n, after);
}

}  // namespace mf::graph
