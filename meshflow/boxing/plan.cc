// Copyright 2026 The meshflow Authors.
#include "meshflow/boxing/plan.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>

namespace mf::boxing {
namespace {

size_t transfers(const Plan& p) {
  return std::count_if(p.steps.begin(), p.steps.end(), [](const Step& s) { return s.kind == StepKind::kTransfer; });
}

// Cheaper first; at equal cost collectives (tuned by the library) before point-to-point
// transfers, then fewer steps.
bool better(const Plan& a, const Plan& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (transfers(a) != transfers(b)) return transfers(a) < transfers(b);
  return a.steps.size() < b.steps.size();
}

Plan append(Plan a, const Plan& b) {
  a.steps.insert(a.steps.end(), b.steps.begin(), b.steps.end());
  a.cost += b.cost;
  return a;
}

std::optional<StepKind> one_axis_step(const Sbp& x, const Sbp& y) {
  if (x.is_split() && y.is_broadcast()) return StepKind::kAllGather;
  if (x.is_split() && y.is_split()) return StepKind::kAllToAll;
  if (x.is_split() && y.is_partial()) return StepKind::kScatterIntoPartial;
  if (x.is_broadcast() && y.is_split()) return StepKind::kSlice;
  if (x.is_broadcast() && y.is_partial()) return StepKind::kKeepOrZero;
  if (x.is_partial() && y.is_broadcast()) return StepKind::kAllReduce;
  if (x.is_partial() && y.is_split()) return StepKind::kReduceScatter;
  return std::nullopt;  // P(a) -> P(b) goes through B
}

// Whether changing axis `axis` of `state` from x to y, inside each axis group, gives the
// right local tensors given what the inner axes do to them.
bool commutes_with_inner_axes(const NdSbp& state, int axis, const Sbp& x, const Sbp& y) {
  for (size_t k = axis + 1; k < state.size(); ++k) {
    const Sbp& inner = state[k];
    if (inner.is_split()) {
      if (x.is_split() && x.split_dim() == inner.split_dim()) return false;
      if (y.is_split() && y.split_dim() == inner.split_dim()) return false;
    }
    if (inner.is_partial() && x.is_partial() && inner.reduce_op() != x.reduce_op()) return false;
    // S -> P fills the rest of the full-shape tensor with y's identity, which the inner
    // reduction must give back: sum over ints of lowest (the identity of max) overflows.
    if (inner.is_partial() && x.is_split() && y.is_partial() && inner.reduce_op() != y.reduce_op()) return false;
  }
  return true;
}

int64_t axis_step_cost(StepKind kind, const Shape& logical, size_t elem, const Placement& p, const NdSbp& from,
                       const NdSbp& to, int axis) {
  int64_t worst = 0;
  const int64_t n = p.hierarchy()[axis];
  for (int id = 0; id < p.size(); ++id) {
    Shape c = p.coordinate(id);
    Box src = local_box(logical, p.hierarchy(), from, c);
    Box dst = local_box(logical, p.hierarchy(), to, c);
    int64_t elems = 0;
    switch (kind) {
      case StepKind::kAllGather: elems = dst.numel() - src.numel(); break;
      case StepKind::kReduceScatter: elems = src.numel() - dst.numel(); break;
      case StepKind::kAllReduce: elems = 2 * src.numel() * (n - 1) / n; break;
      case StepKind::kAllToAll: {
        int64_t kept = intersect(src, dst).numel();
        elems = std::max(src.numel(), dst.numel()) - kept;
        break;
      }
      default: break;
    }
    worst = std::max(worst, elems);
  }
  return worst * static_cast<int64_t>(elem);
}

std::optional<ReduceOp> single_partial_op(const NdSbp& nd_sbp, bool& mixed) {
  std::optional<ReduceOp> op;
  mixed = false;
  for (const Sbp& s : nd_sbp) {
    if (!s.is_partial()) continue;
    if (op && *op != s.reduce_op()) mixed = true;
    op = s.reduce_op();
  }
  return op;
}

Plan transfer_plan(const Shape& logical, size_t elem, const Layout& from, const Layout& to) {
  std::vector<TransferMessage> messages = transfer_messages(logical, from, to);
  std::map<int, int64_t> in, out;
  for (const TransferMessage& m : messages) {
    if (m.src_rank == m.dst_rank) continue;
    out[m.src_rank] += m.box.numel();
    in[m.dst_rank] += m.box.numel();
  }
  int64_t worst = 0;
  for (auto& [r, e] : in) worst = std::max(worst, e);
  for (auto& [r, e] : out) worst = std::max(worst, e);
  Step step{StepKind::kTransfer, from, to, -1, worst * static_cast<int64_t>(elem), std::move(messages)};
  return Plan{{step}, step.cost};
}

// At most a transfer's cost, in O(ranks). What a target rank needs and does not hold whole
// itself must come from others; from partial values on K ranks (the partial axes' sizes
// multiplied), each of the K layers of partial values covers what it needs, and at most
// one layer can be its own: K - 1 times what it needs.
int64_t transfer_lower_bound(const Shape& logical, size_t elem, const Layout& from, const Layout& to) {
  const Placement& p = from.placement;
  int64_t layers = 1;
  for (int a = 0; a < p.ndim(); ++a) layers *= from.nd_sbp[a].is_partial() ? p.hierarchy()[a] : 1;
  int64_t worst = 0;
  for (int id = 0; id < p.size(); ++id) {
    const Shape c = p.coordinate(id);
    if (!holds_partial_sum_value(to.nd_sbp, c)) continue;
    const Box need = local_box(logical, p.hierarchy(), to.nd_sbp, c);
    const int64_t from_others =
        layers > 1 ? (layers - 1) * need.numel()
                   : need.numel() - intersect(need, local_box(logical, p.hierarchy(), from.nd_sbp, c)).numel();
    worst = std::max(worst, from_others);
  }
  return worst * static_cast<int64_t>(elem);
}

bool transferable(const NdSbp& from) {
  bool mixed = false;
  single_partial_op(from, mixed);
  return !mixed;
}

// Shortest path over N-d SBPs on one placement (see the header).
Plan same_placement_plan(const Shape& logical, size_t elem, const Placement& p, const NdSbp& from,
                         const NdSbp& to) {
  const int axes = p.ndim();
  std::vector<std::vector<Sbp>> options(axes);
  for (int a = 0; a < axes; ++a) {
    for (const Sbp& s : {from[a], to[a], Sbp::broadcast()}) {
      if (std::find(options[a].begin(), options[a].end(), s) == options[a].end()) options[a].push_back(s);
    }
  }
  auto key = [](const NdSbp& s) { return to_string(s); };
  std::map<std::string, Plan> best;
  std::map<std::string, NdSbp> states;
  using Entry = std::pair<std::pair<int64_t, size_t>, std::string>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
  best[key(from)] = Plan{};
  states[key(from)] = from;
  frontier.push({{0, 0}, key(from)});
  std::set<std::string> done;
  while (!frontier.empty()) {
    NdSbp state = states.at(frontier.top().second);
    frontier.pop();
    if (!done.insert(key(state)).second) continue;
    if (state == to) break;
    const Plan current = best[key(state)];
    for (int a = 0; a < axes; ++a) {
      for (const Sbp& y : options[a]) {
        const Sbp x = state[a];
        if (x == y) continue;
        NdSbp next = state;
        next[a] = y;
        Plan candidate = current;
        // On an axis of one rank every SBP holds the same data (the whole, or the whole
        // sum): changing it is free and takes no step.
        if (p.hierarchy()[a] != 1) {
          auto kind = one_axis_step(x, y);
          if (!kind || !commutes_with_inner_axes(state, a, x, y)) continue;
          Step step{*kind, {p, state}, {p, next}, a, axis_step_cost(*kind, logical, elem, p, state, next, a), {}};
          candidate = append(current, Plan{{step}, step.cost});
        }
        auto it = best.find(key(next));
        if (it == best.end() || better(candidate, it->second)) {
          best[key(next)] = candidate;
          states[key(next)] = next;
          frontier.push({{candidate.cost, candidate.steps.size()}, key(next)});
        }
      }
    }
  }
  auto it = best.find(key(to));
  if (it == best.end()) throw std::logic_error("boxing: no path from " + to_string(from) + " to " + to_string(to));
  return it->second;
}

NdSbp replace(const NdSbp& nd_sbp, bool (Sbp::*which)() const, const Sbp& with) {
  NdSbp r = nd_sbp;
  for (Sbp& s : r) {
    if ((s.*which)()) s = with;
  }
  return r;
}

}  // namespace

std::string Layout::str() const { return placement.str() + " " + to_string(nd_sbp); }

bool Layout::same_data(const Layout& o) const {
  if (placement != o.placement || nd_sbp.size() != o.nd_sbp.size()) return false;
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (placement.hierarchy()[a] != 1 && nd_sbp[a] != o.nd_sbp[a]) return false;
  }
  return true;
}

const char* step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::kSlice: return "slice";
    case StepKind::kKeepOrZero: return "keep_or_zero";
    case StepKind::kScatterIntoPartial: return "scatter_into_partial";
    case StepKind::kAllGather: return "all_gather";
    case StepKind::kAllReduce: return "all_reduce";
    case StepKind::kReduceScatter: return "reduce_scatter";
    case StepKind::kAllToAll: return "all_to_all";
    case StepKind::kTransfer: return "transfer";
  }
  return "?";
}

std::string Step::str() const {
  std::string s = step_kind_name(kind);
  if (kind == StepKind::kTransfer) {
    s += " " + from.str() + " -> " + to.str();
  } else {
    s += " on axis " + std::to_string(axis) + " " + to_string(from.nd_sbp) + " -> " + to_string(to.nd_sbp);
  }
  return s + " (" + std::to_string(cost) + " B)";
}

std::string Plan::str() const {
  if (steps.empty()) return "nothing to do";
  std::string s;
  for (size_t i = 0; i < steps.size(); ++i) s += (i ? "; " : "") + steps[i].str();
  return s;
}

bool holds_partial_sum_value(const NdSbp& nd_sbp, const Shape& coordinate) {
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (nd_sbp[a].is_partial() && nd_sbp[a].reduce_op() == ReduceOp::kSum && coordinate[a] != 0) return false;
  }
  return true;
}

std::vector<TransferMessage> transfer_messages(const Shape& logical, const Layout& from, const Layout& to,
                                               const std::vector<Box>* src_boxes) {
  const Placement& sp = from.placement;
  const Placement& dp = to.placement;
  // Source representatives: coordinate 0 along broadcast axes; the replicas vary those axes.
  std::vector<Shape> representatives;
  for (int id = 0; id < sp.size(); ++id) {
    Shape c = sp.coordinate(id);
    bool rep = true;
    for (int a = 0; a < sp.ndim(); ++a) rep = rep && (!from.nd_sbp[a].is_broadcast() || c[a] == 0);
    if (rep) representatives.push_back(c);
  }
  std::vector<TransferMessage> messages;
  for (int q = 0; q < dp.size(); ++q) {
    Shape cd = dp.coordinate(q);
    if (!holds_partial_sum_value(to.nd_sbp, cd)) continue;
    const int dst_rank = dp.ranks()[q];
    Box need = local_box(logical, dp.hierarchy(), to.nd_sbp, cd);
    if (need.empty()) continue;
    for (const Shape& rep : representatives) {
      Box held = src_boxes ? (*src_boxes)[sp.parallel_id(sp.rank_at(rep))]
                           : local_box(logical, sp.hierarchy(), from.nd_sbp, rep);
      Box piece = intersect(held, need);
      if (piece.empty()) continue;
      std::vector<int> replicas;
      std::function<void(int, Shape&)> enumerate = [&](int a, Shape& c) {
        if (a == sp.ndim()) {
          replicas.push_back(sp.rank_at(c));
          return;
        }
        if (!from.nd_sbp[a].is_broadcast()) return enumerate(a + 1, c);
        for (int64_t i = 0; i < sp.hierarchy()[a]; ++i) {
          c[a] = i;
          enumerate(a + 1, c);
        }
        c[a] = 0;
      };
      Shape c = rep;
      enumerate(0, c);
      // Given parts may be cut differently in each replica group: only a replica that holds
      // the whole piece can send it (the representative always does).
      if (src_boxes) {
        replicas.erase(std::remove_if(replicas.begin(), replicas.end(),
                                      [&](int r) { return intersect((*src_boxes)[sp.parallel_id(r)], piece) != piece; }),
                       replicas.end());
      }
      // Prefer a local copy; otherwise spread the receivers over the replicas.
      int src_rank = replicas[q % replicas.size()];
      if (std::find(replicas.begin(), replicas.end(), dst_rank) != replicas.end()) src_rank = dst_rank;
      messages.push_back({src_rank, dst_rank, piece});
    }
  }
  return messages;
}

Plan plan_boxing(const Shape& logical, DType dtype, const Layout& from, const Layout& to) {
  if (from == to) return Plan{};
  const size_t elem = dtype_size(dtype);
  int64_t largest_dim = -1;
  for (size_t d = 0; d < logical.size(); ++d) {
    if (largest_dim < 0 || logical[d] > logical[largest_dim]) largest_dim = static_cast<int64_t>(d);
  }
  auto consider = [](std::optional<Plan>& best, const Plan& candidate) {
    if (!best || better(candidate, *best)) best = candidate;
  };
  std::optional<Plan> best;
  if (from.placement == to.placement) {
    best = same_placement_plan(logical, elem, from.placement, from.nd_sbp, to.nd_sbp);
    // Listing a direct transfer's messages costs the square of the ranks, so it is built
    // only where it could win: never on one axis (it moves as much as the one collective at
    // best, and ties go to collectives), and on N-d meshes only when its lower bound is
    // below the collectives' cost (where it skips intermediate layouts).
    if (from.placement.ndim() > 1 && transferable(from.nd_sbp) &&
        transfer_lower_bound(logical, elem, from, to) < best->cost) {
      consider(best, transfer_plan(logical, elem, from, to));
    }
    return *best;
  }
  // Sources to transfer from: as given, or with partial axes reduced first.
  std::vector<Plan> prepared;
  if (transferable(from.nd_sbp)) prepared.push_back(Plan{});
  bool has_partial = std::any_of(from.nd_sbp.begin(), from.nd_sbp.end(), [](const Sbp& s) { return s.is_partial(); });
  std::vector<NdSbp> reduced_sources;
  if (has_partial) {
    reduced_sources.push_back(replace(from.nd_sbp, &Sbp::is_partial, Sbp::broadcast()));
    if (largest_dim >= 0) reduced_sources.push_back(replace(from.nd_sbp, &Sbp::is_partial, Sbp::split(largest_dim)));
  }
  for (const NdSbp& s : reduced_sources) {
    prepared.push_back(same_placement_plan(logical, elem, from.placement, from.nd_sbp, s));
  }
  // Targets to transfer to: as asked, or split where broadcast then gathered on the target.
  std::vector<NdSbp> targets{to.nd_sbp};
  bool has_broadcast = std::any_of(to.nd_sbp.begin(), to.nd_sbp.end(), [](const Sbp& s) { return s.is_broadcast(); });
  if (has_broadcast && largest_dim >= 0) targets.push_back(replace(to.nd_sbp, &Sbp::is_broadcast, Sbp::split(largest_dim)));
  for (const Plan& pre : prepared) {
    Layout source = pre.steps.empty() ? from : pre.steps.back().to;
    for (const NdSbp& t : targets) {
      Plan plan = append(pre, transfer_plan(logical, elem, source, {to.placement, t}));
      if (t != to.nd_sbp) plan = append(plan, same_placement_plan(logical, elem, to.placement, t, to.nd_sbp));
      consider(best, plan);
    }
  }
  return *best;
}

namespace {

struct PlanKey {
  Shape logical;
  DType dtype;
  Layout from, to;
  bool operator==(const PlanKey& o) const {
    return logical == o.logical && dtype == o.dtype && from == o.from && to == o.to;
  }
};

struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    size_t h = static_cast<size_t>(k.dtype);
    for (int64_t d : k.logical) h = h * 1000003 + std::hash<int64_t>()(d);
    for (const Layout* l : {&k.from, &k.to}) h = (h * 31 + l->placement.hash()) * 131 + hash_value(l->nd_sbp);
    return h;
  }
};

using PlanCache = LruCache<PlanKey, Plan, PlanKeyHash>;

PlanCache& plan_cache() {
  static auto* cache = new PlanCache(default_cache_capacity());  // never destroyed: used until exit
  return *cache;
}

}  // namespace

std::shared_ptr<const Plan> cached_plan(const Shape& logical, DType dtype, const Layout& from, const Layout& to) {
  return plan_cache().get(PlanKey{logical, dtype, from, to}, [&] { return plan_boxing(logical, dtype, from, to); });
}

void set_boxing_cache_capacity(size_t plans) { plan_cache().set_capacity(plans); }
LruCacheStats boxing_cache_stats() { return plan_cache().stats(); }

}  // namespace mf::boxing
