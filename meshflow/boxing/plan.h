// Copyright 2026 The meshflow Authors.
// The boxing planner: a pure function from (logical shape, dtype, source layout, target
// layout) to a Plan, a list of steps with their costs (CONCEPTS section 5). Eager and graph
// mode both use it; plans are values that can be printed and tested without running them.
//
// Cost of a step: the most bytes that any one rank sends or receives in it (the critical
// path of the step, which is what the table of CONCEPTS section 5 gives per rank). A plan's
// cost is the sum over its steps. Among equal costs the planner prefers collectives over
// point-to-point transfers, then fewer steps.
//
// Same placement: a shortest-path search over N-d SBPs where each hierarchy axis is its
// source SBP, its target SBP or broadcast; one step changes one axis inside the groups of
// ranks that differ only along it, and is allowed only when it commutes with the inner
// axes (a split nested inside another split on the same dim must be undone first; partial
// values of different reductions must not be mixed). The general transfer is always a
// candidate too.
// A direct transfer's plan is symbolic (each rank derives its messages when it runs) and
// its cost takes O(ranks · log ranks) to find between placements of one hierarchy (one
// placement included), O(messages) between different hierarchies.
// Different placements: a transfer in which each target rank receives exactly the slices
// it needs (partial values reduced on arrival), possibly preceded by reducing partial axes
// on the source placement, or followed by an all-gather on the target placement when that
// spreads the sending load.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "meshflow/core/lru_cache.h"
#include "meshflow/core/dtype.h"
#include "meshflow/core/shape.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace mf::boxing {

struct Layout {
  Placement placement;
  NdSbp nd_sbp;
  bool operator==(const Layout& o) const { return placement == o.placement && nd_sbp == o.nd_sbp; }
  bool operator!=(const Layout& o) const { return !(*this == o); }
  std::string str() const;
  // Whether both put the same data on every rank: equal except on mesh axes of size 1,
  // where every SBP holds the whole (or the whole sum). Plans change those axes freely.
  bool same_data(const Layout& o) const;
};

enum class StepKind {
  kSlice,               // B -> S: each rank keeps its slice
  kKeepOrZero,          // B -> P: coordinate 0 keeps the value, others zeros (sum) / all keep (max, min)
  kScatterIntoPartial,  // S -> P: the slice written into a full-shape tensor of the reduction's identity
  kAllGather,           // S -> B
  kAllReduce,           // P -> B
  kReduceScatter,       // P -> S
  kAllToAll,            // S(i) -> S(j)
  kTransfer,            // any layout to any layout by point-to-point messages
};
const char* step_kind_name(StepKind kind);

// One message of a transfer: `box` (logical coordinates) goes from src_rank to dst_rank.
struct TransferMessage {
  int src_rank;
  int dst_rank;
  Box box;
};
struct Step {
  StepKind kind;
  Layout from;
  Layout to;
  int axis;      // the hierarchy axis changed; -1 for kTransfer
  int64_t cost;  // bytes, see the header comment
  std::string str() const;
};

struct Plan {
  std::vector<Step> steps;
  int64_t cost = 0;
  std::string str() const;
};

Plan plan_boxing(const Shape& logical, DType dtype, const Layout& from, const Layout& to);
// plan_boxing, memoized: plans depend only on their arguments, and planning a conversion
// costs more than running a small one. Thread-safe. The cache keeps the most recently used
// plans (set_plan_cache_capacity in ops/dispatch.h); a plan lives while anyone holds it.
std::shared_ptr<const Plan> cached_plan(const Shape& logical, DType dtype, const Layout& from, const Layout& to);
// The boxing plan cache's capacity in plans, and its counts.
void set_boxing_cache_capacity(size_t plans);
LruCacheStats boxing_cache_stats();

// The direct transfer alone, the candidate the planner weighs against collectives.
// Requires every partial axis of `from` to use one reduction.
Plan direct_transfer(const Shape& logical, DType dtype, const Layout& from, const Layout& to);

// The messages of a transfer from `from` to `to` that `rank` sends or receives, its local
// copy included, at most one per pair of ranks. Every rank derives its own, so a plan stays
// O(ranks) to build and hold however many messages the transfer has. Requires every
// partial axis of `from` to use one reduction. Each group of sources holding the same part
// (they differ along broadcast axes) sends each target the piece it needs once; target
// ranks that hold zeros (coordinate != 0 along a partial-sum axis of `to`) receive nothing.
// `src_boxes`, when given, are the regions the source ranks hold (by parallel id) in place
// of the balanced split's (for local parts of arbitrary sizes).
std::vector<TransferMessage> transfer_messages(const Shape& logical, const Layout& from, const Layout& to, int rank,
                                               const std::vector<Box>* src_boxes = nullptr);
// True when the rank at `coordinate` of `layout` holds the value (not the zeros) along
// every partial-sum axis.
bool holds_partial_sum_value(const NdSbp& nd_sbp, const Shape& coordinate);

}  // namespace mf::boxing
