// Copyright 2026 The meshflow Authors.
// Graph mode's fusion pass (passes.h: fusion): chains of elementwise ops (OpDef::elementwise)
// become one op node whose kernel runs the chain; on the CPU, block of rows by block of rows
// (on other devices, as a program: below). Each block
// of every intermediate result lives in a small per-thread buffer while the next op of the
// chain reads it from cache, instead of a whole tensor written to memory and read back; the
// intermediates that nothing outside the chain reads get no register at all (the memory
// plan has less to place); the chain is one task (one act, one trace event).
//
// Runs on the compiled graph, after SBP and boxing, on this rank's local shapes: a chain's
// ops have one placement (no boxing between them), one local output shape S of rank >= 2
// (rows: the product of all dims of S but the last), and each input is either read by rows
// (its local shape has S's leading dims: a block of rows is one contiguous range) or whole
// (its leading dims are all 1, as a bias's: broadcast to every block). The kernels of the
// ops are called on blocks: with broadcasting, element i of a block's result is element i
// of the whole result, so fused results are bitwise those of the unfused ops.
//
// A node joins a chain only when each of its inputs comes from the chain or from a node
// before the chain's first (an input node counts as before everything): the fused node
// then takes the first node's place in program order, and every consumer of its results
// comes after it. Nodes join only nodes of the same class (compile.h: the micro-batch
// phase), so a fused node runs as often as each of its ops did.
//
// How a fused node computes is the device type's (ops/op.h, fused_chains):
// - host loops (the CPU's): the ops' kernels are called on blocks of rows, as above, so
//   every elementwise op fuses whatever its dtypes;
// - programs (a GPU's, the test device's): the chain becomes a chain program
//   (ops/chain_program.h), built here once, which the device type's one interpreter kernel
//   runs element by element, every intermediate in registers (one GPU launch per chain).
//   The fused op carries it (OpDef::program) and has no host kernel. A node joins a chain
//   only when a program expresses it (chain_instruction: an opcode for the op, values of
//   the chain's one compute class or bool, one output) and the chain stays within a
//   program's limits (ChainProgram::kMaxInstructions ops, kMaxInputs values read from
//   outside); the rest stays unfused or starts a chain of its own. Its values are the ops'
//   device kernels' (elementwise_math.h's functors, each result rounded to its dtype).
//
// Thread-safety: a pure function of its arguments; the fused kernels may run on any thread
// (one call at a time each, as every task's kernel).
#pragma once

#include <cstdint>
#include <vector>

#include "meshflow/graph/logical_graph.h"
#include "meshflow/ops/op.h"

namespace mf::graph {

struct FusionStats {
  int chains = 0;               // fused nodes made
  int fused_ops = 0;            // op nodes they replaced
  int64_t unstored_bytes = 0;   // this rank's intermediate results no register holds now
};

// Rewrites `graph` (a compiled graph: op nodes carry their signature) in place for rank
// `rank`. `node_class[n]`: nodes of different classes never share a chain. `keep[v]`: value
// v must be stored (a returned output, a new variable value) even when only its chain reads
// it. Node indices change; value ids do not (a fused-away value's producer is its chain's
// node, with index -1). The fused ops are owned by graph.fused_ops. `how`: host loops or
// programs (kNone: nothing to call this for).
FusionStats fuse_elementwise(LogicalGraph& graph, const std::vector<int>& node_class, const std::vector<bool>& keep,
                             int rank, FusedChains how);

}  // namespace mf::graph
