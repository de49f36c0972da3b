// Copyright 2026 The meshflow Authors.
// The passes that decide layouts (passes.h): cleanup, sbp, boxing.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/graph/passes.h"
#include "meshflow/ops/signature_choice.h"

namespace mf::graph {
namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;

int64_t add_sat(int64_t a, int64_t b) { return std::min(kInf, a + b); }

int64_t box_cost(const Value& v, const boxing::Layout& from, const boxing::Layout& to) {
  if (from == to || from.same_data(to)) return 0;
  return boxing::cached_plan(v.shape, v.dtype, from, to)->cost;
}

// Where a value goes: an op's input, a kept conversion's input, or a sink (a layout the
// run must deliver: a returned output, a variable's new value).
struct Use {
  int node = -1;  // -1: a sink
  int input = 0;
  std::optional<boxing::Layout> sink;
};

// The whole-graph search of choose_sbp: each op node's candidates and the one it holds.
class SbpSearch {
 public:
  explicit SbpSearch(const Compilation& c) : g_(c.graph), cands_(g_.nodes.size()), choice_(g_.nodes.size(), -1),
                                            uses_(g_.values.size()) {
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const Node& node = g_.nodes[n];
      for (size_t j = 0; j < node.inputs.size(); ++j) {
        uses_[node.inputs[j]].push_back({static_cast<int>(n), static_cast<int>(j), std::nullopt});
      }
      if (node.kind != NodeKind::kOp) continue;
      std::vector<TensorMeta> metas;
      for (int v : node.inputs) metas.push_back({g_.values[v].shape, g_.values[v].dtype});
      for (const NdSignature& s : valid_nd_signatures(*node.op, metas, node.attrs, placement_of(node).hierarchy())) {
        if (satisfies(s, node.constraints)) cands_[n].push_back(s);
      }
      if (cands_[n].empty()) op_error(node.name, "graph: no valid signature satisfies the traced constraints");
    }
    for (size_t i = 0; i < g_.outputs.size(); ++i) uses_[g_.outputs[i]].push_back({-1, 0, c.output_layouts[i]});
    for (const auto& [var, v] : g_.writes) uses_[v].push_back({-1, 0, g_.values[g_.variable_values[var]].layout});
  }

  // Eager's rule (signature_choice.h), node by node in program order, on the layouts the
  // nodes before chose.
  void eager_rule() {
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      if (cands_[n].empty()) continue;
      const Node& node = g_.nodes[n];
      std::vector<boxing::Layout> have;
      std::vector<NdSbp> have_sbps;
      for (int v : node.inputs) {
        have.push_back(layout_of(v));
        have_sbps.push_back(have.back().nd_sbp);
      }
      std::vector<TensorMeta> outputs;
      for (int v : node.outputs) outputs.push_back({g_.values[v].shape, g_.values[v].dtype});
      const Placement& placement = placement_of(node);
      choice_[n] = static_cast<int>(
          choose_signature(cands_[n], have_sbps, outputs, placement.hierarchy(), [&](size_t j, const NdSbp& want) {
            return box_cost(g_.values[node.inputs[j]], have[j], {placement, want});
          }).index);
    }
  }

  // Rounds in which each node in turn takes the signature that minimizes its objective,
  // until none changes: the total never grows.
  void improve() {
    own_cost_.assign(g_.nodes.size(), 0);
    for (int round = 0; round < 8; ++round) {
      bool changed = false;
      for (size_t n = 0; n < g_.nodes.size(); ++n) {
        if (cands_[n].size() < 2) continue;
        int best = choice_[n];
        int64_t best_cost = own_cost_[n] = objective(n, choice_[n]);
        for (size_t s = 0; s < cands_[n].size(); ++s) {
          if (static_cast<int>(s) == choice_[n]) continue;
          const int64_t cost = objective(n, static_cast<int>(s));
          if (cost < best_cost) {
            best = static_cast<int>(s);
            best_cost = cost;
          }
        }
        changed = changed || best != choice_[n];
        choice_[n] = best;
      }
      if (!changed) {
        converged_ = true;  // own_cost_ holds each node's objective as chosen
        return;
      }
    }
  }

  // Bytes of boxing every use of every value, as the choice stands.
  int64_t total_cost() const {
    int64_t total = 0;
    for (size_t v = 0; v < g_.values.size(); ++v) {
      const boxing::Layout have = layout_of(static_cast<int>(v));
      for (const Use& u : uses_[v]) total = add_sat(total, use_cost(static_cast<int>(v), have, u));
    }
    return total;
  }

  // Per node, the cheapest signature it did not take (for explain()).
  std::vector<Compilation::Rejected> rejected() {
    std::vector<Compilation::Rejected> out(g_.nodes.size());
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      int64_t cheapest = kInf;
      for (size_t s = 0; s < cands_[n].size(); ++s) {
        if (static_cast<int>(s) == choice_[n]) continue;
        const int64_t cost = objective(n, static_cast<int>(s));
        if (cost < cheapest) {
          cheapest = cost;
          out[n].index = static_cast<int>(s);
          out[n].cost = cost;
        }
      }
      if (out[n].index >= 0) out[n].chosen_cost = converged_ ? own_cost_[n] : objective(n, choice_[n]);
    }
    return out;
  }

  std::vector<std::vector<NdSignature>> take_candidates() { return std::move(cands_); }

  // Writes the choice into the graph: signatures, and their outputs' layouts.
  void apply(LogicalGraph& g) const {
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (cands_[n].empty()) continue;
      Node& node = g.nodes[n];
      node.signature = cands_[n][choice_[n]];
      for (size_t k = 0; k < node.outputs.size(); ++k) {
        g.values[node.outputs[k]].layout.nd_sbp = node.signature.outputs[k];
      }
    }
  }

 private:
  const Placement& placement_of(const Node& node) const { return g_.values[node.outputs[0]].layout.placement; }

  boxing::Layout layout_of(int v) const {
    const Value& val = g_.values[v];
    if (g_.nodes[val.producer].kind != NodeKind::kOp) return val.layout;
    return {val.layout.placement, cands_[val.producer][choice_[val.producer]].outputs[val.index]};
  }

  int64_t use_cost(int v, const boxing::Layout& have, const Use& u) const {
    if (u.node < 0) return box_cost(g_.values[v], have, *u.sink);
    const Node& c = g_.nodes[u.node];
    if (c.kind == NodeKind::kBoxing) return box_cost(g_.values[v], have, *c.to);
    const NdSbp& want = cands_[u.node][choice_[u.node]].inputs[u.input];
    if (boxes_into_partial(have.nd_sbp, want)) return kInf;
    if (have.nd_sbp == want && have.placement == placement_of(c)) return 0;  // without a Layout to compare
    return box_cost(g_.values[v], have, {placement_of(c), want});
  }

  int64_t input_cost(size_t n, const NdSignature& s) const {
    const Node& node = g_.nodes[n];
    int64_t cost = 0;
    for (size_t j = 0; j < node.inputs.size(); ++j) {
      const int v = node.inputs[j];
      const boxing::Layout have = layout_of(v);
      if (boxes_into_partial(have.nd_sbp, s.inputs[j])) return kInf;
      if (have.nd_sbp == s.inputs[j] && have.placement == placement_of(node)) continue;
      cost = add_sat(cost, box_cost(g_.values[v], have, {placement_of(node), s.inputs[j]}));
    }
    return cost;
  }

  // The bytes node n costs with signature s: boxing its inputs and its outputs' uses.
  int64_t objective(size_t n, int s) {
    const int saved = choice_[n];
    choice_[n] = s;
    int64_t cost = input_cost(n, cands_[n][s]);
    for (int v : g_.nodes[n].outputs) {
      const boxing::Layout have = layout_of(v);
      for (const Use& u : uses_[v]) cost = add_sat(cost, use_cost(v, have, u));
    }
    choice_[n] = saved;
    return cost;
  }

  const LogicalGraph& g_;
  std::vector<std::vector<NdSignature>> cands_;
  std::vector<int> choice_;
  std::vector<std::vector<Use>> uses_;
  std::vector<int64_t> own_cost_;  // improve()'s last round: each node's objective
  bool converged_ = false;
};

// insert_boxing's rewrite: a new graph with the old one's nodes (moved) and conversions.
class BoxingRewrite {
 public:
  BoxingRewrite(Compilation& c, LogicalGraph& old) : c_(c), old_(old), p_(c.graph), new_id_(old.values.size(), -1) {}

  void run() {
    // The variables' layouts, before copy_node moves the old values.
    std::vector<boxing::Layout> written;
    for (const auto& [var, v] : old_.writes) written.push_back(old_.values[old_.variable_values[var]].layout);
    for (size_t n = 0; n < old_.nodes.size(); ++n) copy_node(n);
    for (size_t i = 0; i < old_.outputs.size(); ++i) {
      p_.outputs.push_back(in_layout(new_id_[old_.outputs[i]], c_.output_layouts[i],
                                     [] { return std::string("a returned output"); }));
    }
    for (size_t i = 0; i < old_.writes.size(); ++i) {
      const auto [var, v] = old_.writes[i];
      p_.writes.emplace_back(var, in_layout(new_id_[v], written[i], [&, var = var] {
                               return "the new value of " + c_.traced.variables[var].name;
                             }));
    }
    for (int v : old_.variable_values) p_.variable_values.push_back(new_id_[v]);
    for (int v : old_.gradients) p_.gradients.push_back(new_id_[v]);
  }

 private:
  int add_value(Value value, int producer, int index) {
    value.producer = producer;
    value.index = index;
    p_.values.push_back(std::move(value));
    return static_cast<int>(p_.values.size()) - 1;
  }

  int add_boxing(int nv, const boxing::Layout& to, const std::string& why) {
    const Value from = p_.values[nv];  // a copy: add_value below may move the vector
    Node node{NodeKind::kBoxing, "to_global", {nv}, {}};
    node.to = to;
    // A conversion belongs where its first consumer was traced (its checkpointed region, or
    // backward), for the recompute pass.
    node.checkpoint = consumer_checkpoint_;
    node.no_grad = consumer_no_grad_;
    const int out = add_value(Value{from.shape, from.dtype, to}, static_cast<int>(p_.nodes.size()), 0);
    node.outputs.push_back(out);
    node.plan = boxing::cached_plan(from.shape, from.dtype, from.layout, to);
    if (!node.plan->steps.empty()) {
      c_.reasons.push_back("%" + std::to_string(out) + " = to_global(%" + std::to_string(nv) + "): " +
                           from.layout.str() + " -> " + to.str() + ", " + std::to_string(node.plan->cost) +
                           " bytes (" + node.plan->str() + "); " + why);
    }
    p_.nodes.push_back(std::move(node));
    return out;
  }

  // `nv` in `want`, through a shared conversion when its layout differs.
  int in_layout(int nv, const boxing::Layout& want, const std::function<std::string()>& why) {
    // Layouts with the same data (they differ on mesh axes of size 1) still get a node, with
    // an empty plan: it moves nothing, and labels the value as its consumer takes it.
    if (p_.values[nv].layout == want) return nv;
    const auto key = std::make_pair(nv, want.str());
    auto it = conversions_.find(key);
    if (it != conversions_.end()) return it->second;
    const int out = add_boxing(nv, want, why());
    conversions_.emplace(key, out);
    return out;
  }

  std::string why(size_t n, size_t j, const Node& node) const {
    std::string why = "input " + std::to_string(j) + " of " + node.name + " " + node.signature.str();
    const Compilation::Rejected& r = c_.rejected[n];
    if (r.index >= 0) {
      why += "; the cheapest other signature, " + c_.candidates[n][r.index].str() + ", would cost " +
             std::to_string(r.cost) + " bytes against " + std::to_string(r.chosen_cost) +
             " for the node and its consumers";
    }
    return why;
  }

  void copy_node(size_t n) {
    Node node = std::move(old_.nodes[n]);
    const std::vector<int> inputs = std::move(node.inputs);
    const std::vector<int> outputs = std::move(node.outputs);
    node.inputs.clear();
    node.outputs.clear();
    consumer_checkpoint_ = node.checkpoint;
    consumer_no_grad_ = node.no_grad;
    if (node.kind == NodeKind::kOp) {
      const Placement& placement = old_.values[outputs[0]].layout.placement;
      for (size_t j = 0; j < inputs.size(); ++j) {
        node.inputs.push_back(in_layout(new_id_[inputs[j]], {placement, node.signature.inputs[j]},
                                        [&] { return why(n, j, node); }));
      }
    } else if (node.kind == NodeKind::kBoxing) {
      node.inputs.push_back(new_id_[inputs[0]]);
      const Value& from = p_.values[node.inputs[0]];
      node.plan = boxing::cached_plan(from.shape, from.dtype, from.layout, *node.to);
    }
    const int id = static_cast<int>(p_.nodes.size());
    for (size_t k = 0; k < outputs.size(); ++k) {
      new_id_[outputs[k]] = add_value(std::move(old_.values[outputs[k]]), id, static_cast<int>(k));
      node.outputs.push_back(new_id_[outputs[k]]);
    }
    if (node.kind == NodeKind::kInput && node.input_kind == InputKind::kArgument) p_.arguments.push_back(node.outputs[0]);
    p_.nodes.push_back(std::move(node));
    consumer_checkpoint_ = -1;  // the sinks' conversions: outside any region
    consumer_no_grad_ = false;
  }

  Compilation& c_;
  LogicalGraph& old_;
  LogicalGraph& p_;
  std::vector<int> new_id_;
  std::map<std::pair<int, std::string>, int> conversions_;  // (value, layout) -> converted value
  int consumer_checkpoint_ = -1;  // the node whose inputs are being converted: its region
  bool consumer_no_grad_ = false;
};

// A graph with `from`'s settings, and no nodes or values.
LogicalGraph settings_of(const LogicalGraph& from) {
  LogicalGraph g;
  g.micro_batches = from.micro_batches;
  g.stage_order = from.stage_order;
  g.fuse = from.fuse;
  g.local = from.local;
  g.checkpoints = from.checkpoints;
  return g;
}

}  // namespace

void cleanup(Compilation& c) {
  const LogicalGraph& g = c.traced;
  // Planning's conversions within a placement read as what they converted.
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
  // The live nodes, in order, reading through the aliases.
  LogicalGraph out = settings_of(g);
  std::vector<int> id(g.values.size(), -1);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!live[n]) continue;
    Node node = g.nodes[n];
    for (int& v : node.inputs) v = id[alias[v]];
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const Value& val = g.values[node.outputs[k]];
      out.values.push_back(Value{val.shape, val.dtype, val.layout, static_cast<int>(out.nodes.size()), static_cast<int>(k)});
      id[node.outputs[k]] = static_cast<int>(out.values.size()) - 1;
      node.outputs[k] = id[node.outputs[k]];
    }
    if (node.kind == NodeKind::kInput && node.input_kind == InputKind::kArgument) out.arguments.push_back(node.outputs[0]);
    out.nodes.push_back(std::move(node));
  }
  for (int v : g.outputs) {
    out.outputs.push_back(id[alias[v]]);
    c.output_layouts.push_back(g.values[v].layout);
  }
  for (const auto& [var, v] : g.writes) out.writes.emplace_back(var, id[alias[v]]);
  for (int v : g.variable_values) out.variable_values.push_back(id[alias[v]]);
  for (int v : g.gradients) {
    if (id[alias[v]] >= 0) out.gradients.push_back(id[alias[v]]);  // else nothing reads it
  }
  c.graph = std::move(out);
}

void choose_sbp(Compilation& c) {
  SbpSearch search(c);
  search.eager_rule();
  c.stats.eager_boxing_bytes = search.total_cost();
  search.improve();
  c.stats.graph_boxing_bytes = search.total_cost();
  c.rejected = search.rejected();
  search.apply(c.graph);
  c.candidates = search.take_candidates();
}

void insert_boxing(Compilation& c) {
  LogicalGraph old = std::move(c.graph);
  c.graph = settings_of(old);
  BoxingRewrite(c, old).run();
  c.layouts_explicit = true;
  for (const Node& node : c.graph.nodes) c.stats.boxing_nodes += node.kind == NodeKind::kBoxing && !node.plan->steps.empty();
  c.stats.graph_nodes = static_cast<int>(c.graph.nodes.size());
}

}  // namespace mf::graph
