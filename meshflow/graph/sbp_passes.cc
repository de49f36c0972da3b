// Copyright 2026 The meshflow Authors.
// The passes that decide layouts (passes.h): cleanup, sbp, boxing.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
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

// An op call's valid N-d signatures by what decides them, computed once per compilation:
// a model's repeated layers (and a gradient's repeated shapes) share them.
struct CallKey {
  const OpDef* op;
  Attrs attrs;
  std::vector<TensorMeta> inputs;
  Shape hierarchy;
  bool operator==(const CallKey& o) const {
    return op == o.op && hierarchy == o.hierarchy && inputs == o.inputs && attrs == o.attrs;
  }
};

struct CallKeyHash {
  size_t operator()(const CallKey& k) const {
    size_t h = std::hash<const void*>()(k.op) ^ k.attrs.hash() * 31;
    for (const TensorMeta& m : k.inputs) {
      h = h * 131 + static_cast<size_t>(m.dtype);
      for (int64_t d : m.shape) h = h * 1000003 + std::hash<int64_t>()(d);
    }
    for (int64_t d : k.hierarchy) h = h * 31 + std::hash<int64_t>()(d);
    return h;
  }
};

// One use of a value (an edge of the search): an op node's input, a kept conversion's input,
// or a sink (a layout the run must deliver: a returned output, a variable's new value). Its
// cost depends on the producer's candidate and the consumer's only; the search asks for it
// along a row (the producer's candidate as it stands, each of the consumer's) or along a
// column (the reverse), so each is cached for the choice it was computed under.
struct Edge {
  int value = 0;
  int from = -1;  // the producing op node; -1: the value's layout is fixed
  int to = -1;    // the consuming op node; -1: `target` is fixed
  int input = 0;
  std::optional<boxing::Layout> target;
  int row_for = -1, col_for = -1;  // the candidate the row (column) holds costs for
  std::vector<int64_t> row, col;   // -1: not computed yet
};

// The whole-graph search of choose_sbp: each op node's candidates and the one it holds.
class SbpSearch {
 public:
  explicit SbpSearch(const Compilation& c)
      : g_(c.graph), cands_(g_.nodes.size()), choice_(g_.nodes.size(), -1), in_(g_.nodes.size()),
        out_(g_.nodes.size()) {
    std::unordered_map<CallKey, Candidates, CallKeyHash> valid;
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const Node& node = g_.nodes[n];
      if (node.kind != NodeKind::kOp) continue;
      CallKey key{node.op, node.attrs, {}, placement_of(node).hierarchy()};
      for (int v : node.inputs) key.inputs.push_back({g_.values[v].shape, g_.values[v].dtype});
      Candidates& all = valid[key];
      if (!all) all = std::make_shared<const std::vector<NdSignature>>(
                    valid_nd_signatures(*node.op, key.inputs, node.attrs, key.hierarchy));
      cands_[n] = constrained(*all, node.constraints) ? filtered(*all, node.constraints) : all;
      if (cands_[n]->empty()) op_error(node.name, "graph: no valid signature satisfies the traced constraints");
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const Node& node = g_.nodes[n];
      for (size_t j = 0; j < node.inputs.size(); ++j) {
        add_edge(node.inputs[j], node.kind == NodeKind::kOp ? static_cast<int>(n) : -1, static_cast<int>(j),
                 node.kind == NodeKind::kBoxing ? node.to : std::nullopt);
      }
    }
    for (size_t i = 0; i < g_.outputs.size(); ++i) add_edge(g_.outputs[i], -1, 0, c.output_layouts[i]);
    for (const auto& [var, v] : g_.writes) add_edge(v, -1, 0, g_.values[g_.variable_values[var]].layout);
  }

  // Eager's rule (signature_choice.h), node by node in program order, on the layouts the
  // nodes before chose.
  void eager_rule() {
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      if (!cands_[n]) continue;
      const Node& node = g_.nodes[n];
      std::vector<NdSbp> have;
      for (int v : node.inputs) have.push_back(sbp_of(v));
      std::vector<TensorMeta> outputs;
      for (int v : node.outputs) outputs.push_back({g_.values[v].shape, g_.values[v].dtype});
      const Placement& placement = placement_of(node);
      choice_[n] = static_cast<int>(
          choose_signature(*cands_[n], have, outputs, placement.hierarchy(), [&](size_t j, const NdSbp& want) {
            const Value& val = g_.values[node.inputs[j]];
            return box(val, have[j], placement, want);
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
        if (!cands_[n] || cands_[n]->size() < 2) continue;
        int best = choice_[n];
        int64_t best_cost = own_cost_[n] = objective(n, choice_[n]);
        for (size_t s = 0; s < cands_[n]->size(); ++s) {
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
  int64_t total_cost() {
    int64_t total = 0;
    for (Edge& e : edges_) total = add_sat(total, along_row(e, candidate_of(e.to)));
    return total;
  }

  // Per node, the cheapest signature it did not take (for explain()).
  std::vector<Compilation::Rejected> rejected() {
    std::vector<Compilation::Rejected> out(g_.nodes.size());
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      int64_t cheapest = kInf;
      for (size_t s = 0; cands_[n] && s < cands_[n]->size(); ++s) {
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

  const std::vector<Candidates>& candidates() const { return cands_; }

  // Writes the choice into the graph: signatures, and their outputs' layouts.
  void apply(LogicalGraph& g) const {
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (!cands_[n]) continue;
      Node& node = g.nodes[n];
      node.signature = (*cands_[n])[choice_[n]];
      for (size_t k = 0; k < node.outputs.size(); ++k) {
        g.values[node.outputs[k]].layout.nd_sbp = node.signature.outputs[k];
      }
    }
  }

 private:
  static bool constrained(const std::vector<NdSignature>& all, const Constraints& constraints) {
    return std::any_of(all.begin(), all.end(), [&](const NdSignature& s) { return !satisfies(s, constraints); });
  }

  static Candidates filtered(const std::vector<NdSignature>& all, const Constraints& constraints) {
    std::vector<NdSignature> kept;
    for (const NdSignature& s : all) {
      if (satisfies(s, constraints)) kept.push_back(s);
    }
    return std::make_shared<const std::vector<NdSignature>>(std::move(kept));
  }

  void add_edge(int v, int to, int input, std::optional<boxing::Layout> target) {
    const int producer = g_.values[v].producer;
    Edge e;
    e.value = v;
    e.from = cands_[producer] ? producer : -1;
    e.to = to;
    e.input = input;
    e.target = std::move(target);
    const int id = static_cast<int>(edges_.size());
    if (e.from >= 0) out_[e.from].push_back(id);
    if (to >= 0) in_[to].push_back(id);
    edges_.push_back(std::move(e));
  }

  const Placement& placement_of(const Node& node) const { return g_.values[node.outputs[0]].layout.placement; }
  int candidate_of(int node) const { return node < 0 ? 0 : choice_[node]; }

  const NdSbp& sbp_of(int v) const {
    const Value& val = g_.values[v];
    if (!cands_[val.producer]) return val.layout.nd_sbp;
    return (*cands_[val.producer])[choice_[val.producer]].outputs[val.index];
  }

  // Layouts are built only for a use that boxes (copies of their SBPs cost allocations).
  static int64_t box(const Value& val, const NdSbp& have, const Placement& placement, const NdSbp& want) {
    if (have == want && val.layout.placement == placement) return 0;
    return box_cost(val, {val.layout.placement, have}, {placement, want});
  }

  // Edge e's bytes with its producer's candidate ps and its consumer's cs.
  int64_t edge_cost(const Edge& e, int ps, int cs) const {
    const Value& val = g_.values[e.value];
    const NdSbp& have = e.from < 0 ? val.layout.nd_sbp : (*cands_[e.from])[ps].outputs[val.index];
    if (e.to < 0) return box(val, have, e.target->placement, e.target->nd_sbp);
    const NdSbp& want = (*cands_[e.to])[cs].inputs[e.input];
    if (boxes_into_partial(have, want)) return kInf;
    return box(val, have, placement_of(g_.nodes[e.to]), want);
  }

  // Edge e's cost with its producer as it stands and its consumer's candidate cs.
  int64_t along_row(Edge& e, int cs) {
    const int ps = candidate_of(e.from);
    if (e.row_for != ps) {
      e.row.assign(e.to < 0 ? 1 : cands_[e.to]->size(), -1);
      e.row_for = ps;
    }
    if (e.row[cs] < 0) e.row[cs] = edge_cost(e, ps, cs);
    return e.row[cs];
  }

  // Edge e's cost with its producer's candidate ps and its consumer as it stands.
  int64_t along_column(Edge& e, int ps) {
    const int cs = candidate_of(e.to);
    if (e.col_for != cs) {
      e.col.assign(cands_[e.from]->size(), -1);
      e.col_for = cs;
    }
    if (e.col[ps] < 0) e.col[ps] = edge_cost(e, ps, cs);
    return e.col[ps];
  }

  // The bytes node n costs with signature s: boxing its inputs and its outputs' uses.
  int64_t objective(size_t n, int s) {
    int64_t cost = 0;
    for (int e : in_[n]) cost = add_sat(cost, along_row(edges_[e], s));
    for (int e : out_[n]) cost = add_sat(cost, along_column(edges_[e], s));
    return cost;
  }

  const LogicalGraph& g_;
  std::vector<Candidates> cands_;  // null: not an op node
  std::vector<int> choice_;
  std::vector<Edge> edges_;
  std::vector<std::vector<int>> in_, out_;  // per node, the edges it consumes and produces
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
      why += "; the cheapest other signature, " + (*c_.candidates[n])[r.index].str() + ", would cost " +
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
  g.zero_stage = from.zero_stage;
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
    if (node.kind != NodeKind::kBoxing || node.user || node.zero != ZeroRole::kNone) continue;
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
  c.candidates = search.candidates();
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
