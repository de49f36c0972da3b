// Copyright 2026 The meshflow Authors.
#include "meshflow/boxing/plan.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>

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

// The parts of dim `d` that the axes of `nd_sbp` other than `except` cut.
int64_t parts_of(const Shape& hierarchy, const NdSbp& nd_sbp, size_t d, int except) {
  int64_t parts = 1;
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    const bool cuts = nd_sbp[a].is_split() && static_cast<size_t>(nd_sbp[a].split_dim()) == d;
    parts *= cuts && static_cast<int>(a) != except ? hierarchy[a] : 1;
  }
  return parts;
}

// The lengths that the parts of a dim of `length` cut in `parts` nested balanced parts
// have: floor(length / parts), and one more where it does not divide.
std::vector<int64_t> part_lengths(int64_t length, int64_t parts) {
  std::vector<int64_t> lengths{length / parts};
  if (length % parts != 0) lengths.push_back(length / parts + 1);
  return lengths;
}

// The most elements any rank moves in one axis step, in O(axis size) rather than O(ranks).
// The step changes only `axis`, which it may do only as the innermost axis cutting the dims
// it touches (commutes_with_inner_axes); each other dim's parts vary along their own axes,
// independently, and are longest at their largest length (part_lengths).
int64_t axis_step_cost(StepKind kind, const Shape& logical, size_t elem, const Placement& p, const NdSbp& from,
                       const NdSbp& to, int axis) {
  const Shape& h = p.hierarchy();
  const int64_t n = h[axis];
  auto longest = [&](const NdSbp& s, size_t d, int except) {
    return part_lengths(logical[d], parts_of(h, s, d, except)).back();
  };
  auto rest = [&](const NdSbp& s, size_t skip_a, size_t skip_b) {  // the largest box over the dims not skipped
    int64_t elems = 1;
    for (size_t d = 0; d < logical.size(); ++d) elems *= d == skip_a || d == skip_b ? 1 : longest(s, d, -1);
    return elems;
  };
  const size_t none = logical.size();
  int64_t worst = 0;
  switch (kind) {
    case StepKind::kAllGather: {  // receives its whole along the axis but for its own part, the smallest floor(whole / n)
      const size_t k = from[axis].split_dim();
      const int64_t whole = longest(from, k, axis);
      worst = rest(from, k, none) * (whole - whole / n);
      break;
    }
    case StepKind::kReduceScatter: {  // the mirror image of the all-gather
      const size_t k = to[axis].split_dim();
      const int64_t whole = longest(to, k, axis);
      worst = rest(to, k, none) * (whole - whole / n);
      break;
    }
    case StepKind::kAllReduce: worst = 2 * rest(from, none, none) * (n - 1) / n; break;
    case StepKind::kAllToAll: {  // keeps its part of dim i cut along the axis times its part of dim j
      const size_t i = from[axis].split_dim(), j = to[axis].split_dim();
      for (int64_t whole_i : part_lengths(logical[i], parts_of(h, from, i, axis))) {
        for (int64_t whole_j : part_lengths(logical[j], parts_of(h, to, j, axis))) {
          for (int64_t c = 0; c < n; ++c) {
            const int64_t part_i = balanced_part(whole_i, n, c).second, part_j = balanced_part(whole_j, n, c).second;
            worst = std::max(worst, std::max(part_i * whole_j, whole_i * part_j) - part_i * part_j);
          }
        }
      }
      worst *= rest(from, i, j);
      break;
    }
    default: break;
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

// ---- Transfers, without listing pairs of ranks: a plan holds no messages, each rank
// derives its own when it runs (transfer_messages), and a transfer's cost comes from
// per-rank sums that factor over the tensor's dims.

// The axes that split one dim of a layout, outermost first. Along them the dim is cut in
// nested balanced parts, so in row-major order of their coordinates the parts are sorted
// and tile the dim (some may be empty).
struct DimCut {
  std::vector<int> axes;
  int64_t tuples = 1;  // how many coordinate tuples the axes have
};

std::vector<DimCut> dim_cuts(size_t ndim, const Shape& hierarchy, const NdSbp& nd_sbp) {
  std::vector<DimCut> cuts(ndim);
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (!nd_sbp[a].is_split()) continue;
    DimCut& cut = cuts[nd_sbp[a].split_dim()];
    cut.axes.push_back(static_cast<int>(a));
    cut.tuples *= hierarchy[a];
  }
  return cuts;
}

// The part [start, end) of a dim of `length` that tuple `t` of `cut` holds; writes the
// tuple's coordinates into `coordinate`.
std::pair<int64_t, int64_t> cut_part(int64_t length, const Shape& hierarchy, const DimCut& cut, int64_t t,
                                     Shape& coordinate) {
  for (size_t i = cut.axes.size(); i-- > 0;) {
    coordinate[cut.axes[i]] = t % hierarchy[cut.axes[i]];
    t /= hierarchy[cut.axes[i]];
  }
  int64_t start = 0, size = length;
  for (int a : cut.axes) {
    auto [offset, part] = balanced_part(size, hierarchy[a], coordinate[a]);
    start += offset;
    size = part;
  }
  return {start, start + size};
}

// Calls f(coordinate) for each coordinate of `hierarchy` whose box under `nd_sbp` may
// overlap `box` (callers intersect), with each axis a where fixed[a] >= 0 held there.
// O(dims · log ranks) plus O(1) per call: the coordinates whose parts meet an interval are
// a range of tuples per dim.
template <typename F>
void for_each_overlapping(const Shape& logical, const Shape& hierarchy, const NdSbp& nd_sbp, const Box& box,
                          const Shape& fixed, F&& f) {
  if (box.empty()) return;
  const size_t ndim = logical.size();
  const std::vector<DimCut> cuts = dim_cuts(ndim, hierarchy, nd_sbp);
  Shape c(hierarchy.size(), 0);
  std::vector<std::pair<int64_t, int64_t>> range(ndim);
  for (size_t d = 0; d < ndim; ++d) {
    auto first = [&](auto&& below) {  // the first tuple for which below(part) is false
      int64_t lo = 0, hi = cuts[d].tuples;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (below(cut_part(logical[d], hierarchy, cuts[d], mid, c))) lo = mid + 1; else hi = mid;
      }
      return lo;
    };
    const int64_t begin = box.start[d], end = box.start[d] + box.extent[d];
    range[d] = {first([&](auto part) { return part.second <= begin; }),
                first([&](auto part) { return part.first < end; })};
  }
  std::vector<int> others;  // axes that split no dim
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (!nd_sbp[a].is_split()) others.push_back(static_cast<int>(a));
  }
  auto visit = [&](auto& self, size_t level) -> void {
    if (level < ndim) {
      for (int64_t t = range[level].first; t < range[level].second; ++t) {
        cut_part(logical[level], hierarchy, cuts[level], t, c);
        if (std::all_of(cuts[level].axes.begin(), cuts[level].axes.end(),
                        [&](int a) { return fixed[a] < 0 || fixed[a] == c[a]; })) {
          self(self, level + 1);
        }
      }
      return;
    }
    if (level - ndim == others.size()) return f(static_cast<const Shape&>(c));
    const int a = others[level - ndim];
    for (int64_t i = fixed[a] < 0 ? 0 : fixed[a]; i < (fixed[a] < 0 ? hierarchy[a] : fixed[a] + 1); ++i) {
      c[a] = i;
      self(self, level + 1);
    }
  };
  visit(visit, 0);
}

// The next coordinate in row-major order (visiting every rank without a division each).
void advance(const Shape& hierarchy, Shape& coordinate) {
  for (size_t a = hierarchy.size(); a-- > 0;) {
    if (++coordinate[a] < hierarchy[a]) return;
    coordinate[a] = 0;
  }
}

// `coordinate` along the axes where `nd_sbp` broadcasts set to 0: the representative of the
// source group holding the same part.
Shape representative(const NdSbp& nd_sbp, Shape coordinate) {
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (nd_sbp[a].is_broadcast()) coordinate[a] = 0;
  }
  return coordinate;
}

// 0 along the partial-sum axes of `nd_sbp` (only those targets receive), free elsewhere.
Shape value_holders(const NdSbp& nd_sbp) {
  Shape fixed(nd_sbp.size(), -1);
  for (size_t a = 0; a < nd_sbp.size(); ++a) {
    if (nd_sbp[a].is_partial() && nd_sbp[a].reduce_op() == ReduceOp::kSum) fixed[a] = 0;
  }
  return fixed;
}

// Which rank sends target `q` (a parallel id of `to`) the piece of the source group whose
// representative is `rep`: the target itself when it is in the group (a local copy); on
// placements of one hierarchy the replica at the target's coordinates along the broadcast
// axes (so each rank's sends factor over dims, see aligned_sends); otherwise the replicas
// in turn. With `src_boxes`, a replica that does not hold the whole piece leaves it to the
// representative, which does.
int sender(const Layout& from, const Layout& to, const Shape& rep, int q, const Box& piece,
           const std::vector<Box>* src_boxes) {
  const Placement& sp = from.placement;
  const Shape& h = sp.hierarchy();
  Shape c = rep;
  const int own = sp.parallel_id(to.placement.ranks()[q]);
  if (own >= 0 && representative(from.nd_sbp, sp.coordinate(own)) == rep) {
    c = sp.coordinate(own);
  } else if (h == to.placement.hierarchy()) {
    const Shape cq = sp.coordinate(q);
    for (int a = 0; a < sp.ndim(); ++a) c[a] = from.nd_sbp[a].is_broadcast() ? cq[a] : c[a];
  } else {
    int64_t replicas = 1;
    for (int a = 0; a < sp.ndim(); ++a) replicas *= from.nd_sbp[a].is_broadcast() ? h[a] : 1;
    int64_t i = q % replicas;
    for (int a = sp.ndim() - 1; a >= 0; --a) {
      if (!from.nd_sbp[a].is_broadcast()) continue;
      c[a] = i % h[a];
      i /= h[a];
    }
  }
  int chosen = sp.rank_at(c);
  if (src_boxes && intersect((*src_boxes)[sp.parallel_id(chosen)], piece) != piece) chosen = sp.rank_at(rep);
  return chosen;
}

// On placements of one hierarchy a source rank sends to the targets that share its
// coordinates along from's broadcast axes (see sender), less what targets that are sources
// themselves copy locally. Each target's box is a product of parts per dim, so what a rank
// sends is a product over dims of sums of overlaps with sorted parts: the most any rank
// sends, in O(ranks · dims · log ranks).
int64_t aligned_sends(const Shape& logical, const Layout& source, const Layout& target) {
  const Placement& p = source.placement;
  const NdSbp& from = source.nd_sbp;
  const NdSbp& to = target.nd_sbp;
  const Shape& h = p.hierarchy();
  const size_t ndim = logical.size();
  const std::vector<DimCut> cuts = dim_cuts(ndim, h, to);
  // Per dim, the targets' parts grouped by their coordinates along from's broadcast axes,
  // which a sender shares with its targets: sorted, with prefix sums of their lengths.
  struct Parts {
    std::vector<int64_t> starts, ends, prefix{0};
  };
  auto key_of = [&](const DimCut& cut, const Shape& coordinate) {
    int64_t key = 0;
    for (int a : cut.axes) key = from[a].is_broadcast() ? key * h[a] + coordinate[a] : key;
    return key;
  };
  std::vector<std::unordered_map<int64_t, Parts>> groups(ndim);
  Shape c(h.size(), 0);
  for (size_t d = 0; d < ndim; ++d) {
    for (int64_t t = 0; t < cuts[d].tuples && !cuts[d].axes.empty(); ++t) {
      auto [start, end] = cut_part(logical[d], h, cuts[d], t, c);
      Parts& parts = groups[d][key_of(cuts[d], c)];
      parts.starts.push_back(start);
      parts.ends.push_back(end);
      parts.prefix.push_back(parts.prefix.back() + end - start);
    }
  }
  auto overlap = [](const Parts& parts, int64_t begin, int64_t end) -> int64_t {
    const auto lo = std::partition_point(parts.ends.begin(), parts.ends.end(), [&](int64_t e) { return e <= begin; }) -
                    parts.ends.begin();
    const auto hi = std::partition_point(parts.starts.begin(), parts.starts.end(), [&](int64_t s) { return s < end; }) -
                    parts.starts.begin();
    if (lo >= hi) return 0;
    return parts.prefix[hi] - parts.prefix[lo] - std::max<int64_t>(0, begin - parts.starts[lo]) -
           std::max<int64_t>(0, parts.ends[hi - 1] - end);
  };
  std::vector<int64_t> sent_by(p.size());
  Shape cr(h.size(), 0);
  for (int id = 0; id < p.size(); ++id, advance(h, cr)) {
    // Targets per choice of parts: the free axes that cut no dim of `to`.
    int64_t sent = 1;
    for (int a = 0; a < p.ndim(); ++a) {
      if (to[a].is_split()) continue;
      const bool shared = from[a].is_broadcast();
      const bool zeros = to[a].is_partial() && to[a].reduce_op() == ReduceOp::kSum;  // those targets receive nothing
      if (shared && zeros && cr[a] != 0) sent = 0;
      if (!shared && !zeros) sent *= h[a];
    }
    const Box held = local_box(logical, h, from, cr);
    for (size_t d = 0; d < ndim && sent > 0; ++d) {
      const int64_t begin = held.start[d], end = begin + held.extent[d];
      if (cuts[d].axes.empty()) {
        sent *= end - begin;
        continue;
      }
      auto it = groups[d].find(key_of(cuts[d], cr));
      sent *= it == groups[d].end() ? 0 : overlap(it->second, begin, end);
    }
    sent_by[id] = sent;
  }
  // A target that is a source copies its own group's piece: the replica counted above as
  // its sender (at its coordinates) does not send it.
  Shape cq(h.size(), 0);
  for (int q = 0; q < p.size(); ++q, advance(h, cq)) {
    const int own = source.placement == target.placement ? q : p.parallel_id(target.placement.ranks()[q]);
    if (own < 0 || !holds_partial_sum_value(to, cq)) continue;
    const Shape co = p.coordinate(own);
    Shape counted = co;
    for (int a = 0; a < p.ndim(); ++a) counted[a] = from[a].is_broadcast() ? cq[a] : co[a];
    sent_by[p.parallel_id_at(counted)] -=
        intersect(local_box(logical, h, from, co), local_box(logical, h, to, cq)).numel();
  }
  return *std::max_element(sent_by.begin(), sent_by.end());
}

// Between placements of different hierarchies: every message once, as the ranks will send
// them (O(messages)).
int64_t unaligned_sends(const Shape& logical, const Layout& from, const Layout& to) {
  const Placement& sp = from.placement;
  const Placement& dp = to.placement;
  std::vector<int64_t> sent(sp.size(), 0);
  const Shape targets = value_holders(to.nd_sbp);
  for (int id = 0; id < sp.size(); ++id) {
    const Shape rep = sp.coordinate(id);
    if (representative(from.nd_sbp, rep) != rep) continue;
    const Box held = local_box(logical, sp.hierarchy(), from.nd_sbp, rep);
    for_each_overlapping(logical, dp.hierarchy(), to.nd_sbp, held, targets, [&](const Shape& cq) {
      const int q = dp.parallel_id_at(cq);
      const Box piece = intersect(held, local_box(logical, dp.hierarchy(), to.nd_sbp, cq));
      const int src = sender(from, to, rep, q, piece, nullptr);
      if (!piece.empty() && src != dp.ranks()[q]) sent[sp.parallel_id(src)] += piece.numel();
    });
  }
  return sent.empty() ? 0 : *std::max_element(sent.begin(), sent.end());
}

// The most any rank sends or receives in a direct transfer, not counting what it keeps.
// A target receives every layer of partial values (the partial axes' sizes multiplied)
// of what it needs, the part it holds itself excepted: the sources' boxes tile the tensor
// in each layer. Nothing when receiving alone costs `beat` or more (the caller has a plan
// that cheap, and ties go to collectives), which spares counting the sends.
std::optional<Plan> transfer_plan(const Shape& logical, size_t elem, const Layout& from, const Layout& to,
                                  int64_t beat = std::numeric_limits<int64_t>::max()) {
  const Placement& sp = from.placement;
  const Placement& dp = to.placement;
  int64_t layers = 1;
  for (int a = 0; a < sp.ndim(); ++a) layers *= from.nd_sbp[a].is_partial() ? sp.hierarchy()[a] : 1;
  int64_t worst = 0;
  Shape cq(dp.ndim(), 0);
  for (int q = 0; q < dp.size(); ++q, advance(dp.hierarchy(), cq)) {
    if (!holds_partial_sum_value(to.nd_sbp, cq)) continue;
    const Box need = local_box(logical, dp.hierarchy(), to.nd_sbp, cq);
    int64_t received = layers * need.numel();
    const int own = sp == dp ? q : sp.parallel_id(dp.ranks()[q]);
    if (own >= 0) {
      received -= intersect(need, local_box(logical, sp.hierarchy(), from.nd_sbp, sp == dp ? cq : sp.coordinate(own))).numel();
    }
    worst = std::max(worst, received);
  }
  if (worst * static_cast<int64_t>(elem) >= beat) return std::nullopt;
  worst = std::max(worst, sp.hierarchy() == dp.hierarchy() ? aligned_sends(logical, from, to)
                                                           : unaligned_sends(logical, from, to));
  Step step{StepKind::kTransfer, from, to, -1, worst * static_cast<int64_t>(elem)};
  return Plan{{step}, step.cost};
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
          Step step{*kind, {p, state}, {p, next}, a, axis_step_cost(*kind, logical, elem, p, state, next, a)};
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
  if (kind == StepKind::kTransfer && from.placement == to.placement) {
    s += " " + to_string(from.nd_sbp) + " -> " + to_string(to.nd_sbp);
  } else if (kind == StepKind::kTransfer) {
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

std::vector<TransferMessage> transfer_messages(const Shape& logical, const Layout& from, const Layout& to, int rank,
                                               const std::vector<Box>* src_boxes) {
  const Placement& sp = from.placement;
  const Placement& dp = to.placement;
  auto held_by = [&](const Shape& rep) {
    return src_boxes ? (*src_boxes)[sp.parallel_id_at(rep)]
                     : local_box(logical, sp.hierarchy(), from.nd_sbp, rep);
  };
  std::vector<TransferMessage> messages;
  // What `rank` receives (its local copy included): one piece from each source group.
  const int q = dp.parallel_id(rank);
  if (q >= 0 && holds_partial_sum_value(to.nd_sbp, dp.coordinate(q))) {
    const Box need = local_box(logical, dp.hierarchy(), to.nd_sbp, dp.coordinate(q));
    auto receive = [&](const Shape& rep) {
      const Box piece = intersect(held_by(rep), need);
      if (!piece.empty()) messages.push_back({sender(from, to, rep, q, piece, src_boxes), rank, piece});
    };
    Shape fixed(sp.ndim(), -1);
    for (int a = 0; a < sp.ndim(); ++a) fixed[a] = from.nd_sbp[a].is_broadcast() ? 0 : -1;
    if (!src_boxes) {
      for_each_overlapping(logical, sp.hierarchy(), from.nd_sbp, need, fixed, receive);
    } else if (!need.empty()) {  // boxes of any sizes: every group
      for (int id = 0; id < sp.size(); ++id) {
        const Shape c = sp.coordinate(id);
        if (representative(from.nd_sbp, c) == c) receive(c);
      }
    }
  }
  // What `rank` sends to others: its group's pieces for the targets it serves.
  const int s = sp.parallel_id(rank);
  if (s >= 0) {
    const Shape rep = representative(from.nd_sbp, sp.coordinate(s));
    const Box held = held_by(rep);
    for_each_overlapping(logical, dp.hierarchy(), to.nd_sbp, held, value_holders(to.nd_sbp), [&](const Shape& cq) {
      const int target = dp.parallel_id_at(cq);
      const Box piece = intersect(held, local_box(logical, dp.hierarchy(), to.nd_sbp, cq));
      if (dp.ranks()[target] != rank && !piece.empty() && sender(from, to, rep, target, piece, src_boxes) == rank) {
        messages.push_back({rank, dp.ranks()[target], piece});
      }
    });
  }
  return messages;
}

Plan direct_transfer(const Shape& logical, DType dtype, const Layout& from, const Layout& to) {
  if (!transferable(from.nd_sbp)) {
    throw std::invalid_argument("boxing: no direct transfer from " + from.str() + ": its partial axes mix reductions");
  }
  return *transfer_plan(logical, dtype_size(dtype), from, to);
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
    if (transferable(from.nd_sbp)) {
      if (auto transfer = transfer_plan(logical, elem, from, to, best->cost)) consider(best, *transfer);
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
      Plan plan = append(pre, *transfer_plan(logical, elem, source, {to.placement, t}));
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
