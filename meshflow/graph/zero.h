// Copyright 2026 The meshflow Authors.
// Graph mode's ZeRO (passes.h: zero, prefetch), as DeepSpeed's ZeRO and PyTorch's FSDP
// schedule it, with nothing but SBP and boxing. The optimizers decide the layouts
// (nn/optim.h): the optimizer state lives in each parameter's shard layout, and at stage 3
// so does the parameter, gathered for each use (traced as Node::zero_gather conversions,
// which the sbp pass takes as constraints). The sbp pass then runs each update on the shard,
// so a gradient's partial sum is reduce-scattered. What is left is *when*, so that what is
// sharded is whole only briefly; that is these passes.
//
// zero (on the graph, after boxing and recompute): a gather that backward reads too (a
// recomputed copy reading the forward's) gets a copy for backward's readers, just before the
// first of them, so the forward's gathered parameter dies with its last forward use; and each
// conversion of a gradient (its reduction) moves to just after the node that makes the
// gradient, so communication takes gradients in the order backward makes them, each as soon
// as it is there, rather than in the optimizer's order after the whole backward pass.
//
// prefetch (on this rank's plan, after tasks, before memory): windows that order
// communication against compute (RankPlan::Task::after: an actor's control inputs, as
// OneFlow's ctrl registers). A gather acts only once the uses of the gathers before it, beyond
// a window of twice the largest gather's bytes, have acted: it is in flight while the ops
// before it compute (prefetched a use ahead), and at most the window is gathered at once.
// Every conversion of the step's inputs counts as a gather here (stage 1 and 2's slice of a
// parameter for its update, a gathered activation): its input is there from the start, so
// without a window it would act at once and hold its result until its use. A
// task making a gradient acts only once the reductions of the gradients before it, beyond a
// window of twice the largest gradient's bytes, have acted. The memory plan sees these orders
// and gives a later gather the memory of an earlier one, and a later gradient that of one
// already reduced. A task is only ever made to wait for a task earlier in the plan, so the
// collectives' one order (actor.h) always proceeds. Not on pipelines, whose stages order
// their work by slots.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <string>

#include "meshflow/graph/logical_graph.h"

namespace mf::graph {

struct ZeroStats {
  int backward_gathers = 0;  // gathers copied for backward's readers
  int moved_reductions = 0;  // conversions of gradients moved to just after their producer
};

// The zero pass's rewrite of `graph` (after boxing), in place. Node indices change; value
// ids do not (copies' values are appended).
ZeroStats schedule_zero(LogicalGraph& graph);

// std::logic_error naming `after` when `graph` breaks what schedule_zero guarantees: no
// gather is read both by forward nodes and by backward ones (traced with grad mode off, or
// recomputed copies), and every conversion of a gradient follows the node making the gradient,
// with only other such conversions between them.
void check_zero(const LogicalGraph& graph, const std::string& after);

}  // namespace mf::graph
