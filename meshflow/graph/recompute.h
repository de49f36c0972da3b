// Copyright 2026 The meshflow Authors.
// Graph mode's activation checkpointing (passes.h: recompute), as OneFlow's
// activation_checkpointing and Megatron's recomputation: the activations a checkpointed
// region (a module's forward, Tracer::begin_checkpoint) makes only for its backward are not
// kept; copies of the region's ops recompute them just before the first backward op that
// reads them.
//
// Runs on the compiled graph after boxing (ops carry their signatures, conversions are
// nodes), before phases, fusion and the memory plan. A value a region's node makes is
// *dropped* when the node may be recomputed (every op and conversion of a full region; in a
// selective one only the cheap ops: elementwise, softmax, random draws), the step neither
// returns nor writes it, and outside the region only nodes traced with grad mode off
// (backward) read it. Each backward reader of a dropped value reads a copy instead; the
// copies of a region (its dropped values' producers, back to values that are kept: the
// region's inputs, parameters, values read outside it in forward, and in selective mode the
// results of expensive ops) come in program order just before the region's first backward
// reader. So a dropped value's last reader is a forward op, and the memory plan (which
// shares memory between registers whose lifetimes the graph orders) reuses its memory.
//
// A copy has its original's op, attributes and signature, and takes the original's
// attributes at every run (Node::recomputes): a random op draws the same values, so
// recomputed results are bitwise the forward's.
//
// Thread-safety: a pure function of its arguments.
#pragma once

#include <cstdint>
#include <string>

#include "meshflow/graph/logical_graph.h"

namespace mf::graph {

struct RecomputeStats {
  int regions = 0;              // checkpointed regions with something to recompute
  int recomputed_ops = 0;       // copies inserted
  int64_t dropped_bytes = 0;    // logical bytes of the values backward no longer keeps
};

// Rewrites `graph` (after boxing) in place. Node indices change; value ids do not (copies'
// values are appended).
RecomputeStats recompute_activations(LogicalGraph& graph);

// std::logic_error naming `after` when `graph` breaks what recompute_activations
// guarantees: no backward node reads a value of a region that the region may recompute and
// that no forward node outside it reads; each copy has its original's op and signature,
// and only copies and backward nodes read a copy.
void check_recomputed(const LogicalGraph& graph, const std::string& after);

}  // namespace mf::graph
