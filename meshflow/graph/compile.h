// Copyright 2026 The meshflow Authors.
// Graph mode, second half (CONCEPTS section 7; seed article 004): compiling a traced
// logical graph into this rank's plan, and running it with actors (actor.h).
//
// The compiler is a pipeline of passes over one graph (passes.h lists them, each with its
// contract):
// 1. Conversions that planning inserted while tracing (eager's boxing of each call's
//    inputs, autograd's conversion of each gradient to its leaf's layout) are dropped; the
//    user's to_global calls and ZeRO stage 3's gathers of sharded parameters stay, as
//    constraints. Nodes whose results nothing uses are
//    dropped.
// 2. SBP over the whole graph. Every op node's N-d signature is chosen among the same
//    candidates as eager inference (valid_nd_signatures), with the same byte costs (the
//    boxing planner's). The choice starts from eager's rule, node by node in program order
//    (so the graph is never worse than eager), then improves: each node in turn takes the
//    signature that minimizes the bytes of boxing its inputs *plus* the bytes its
//    consumers, as they stand, would then need to box its outputs; rounds repeat until no
//    node changes. The total never grows, so the result is at least as good as eager's.
//    Sinks (the variables a step writes, the outputs it returns) keep their layouts.
// 3. Boxing becomes explicit nodes wherever a producer's layout differs from what its
//    consumer's signature takes (one node per value and layout, shared by consumers).
// 3a. Activation checkpointing (recompute.h): what a checkpointed module's forward keeps
//    only for backward is recomputed just before its first backward reader instead.
// 3b. ZeRO (zero.h): backward reads gathers of its own, and each gradient's reduction
//    follows the op that makes it; after the tasks (9), windows of control inputs bound what
//    is gathered, or held as partial gradients, at once, a gather a layer ahead of its use.
// 4. Micro-batches (LogicalGraph::micro_batches > 1): each node gets a phase, pre (reads
//    only variables), micro (reads the arguments: forward and backward) or post (reads a
//    gradient: clipping, optimizers, the gradients' boxing); accumulate tasks average each
//    gradient and returned output over the micro-batches.
// 5. Constants: what an op computes from nothing but other constants (arange, full, and ops
//    on them), drawing nothing random and reading no attribute anew.
// 6. Fusion (fusion.h): chains of elementwise ops become one node each, run block of rows
//    by block of rows; results only their chain reads get no register.
// 7. Stages: when the micro phase's ops live on several placements, those are pipeline
//    stages: stage s's registers get (stages - s) slots of their own, compute acts on data
//    in no fixed order, transfers between stages run on lanes (a stream and a message tag
//    each), and the micro-batches are in flight at once, one forward one backward
//    following from the slot counts.
// 8. Constant folding: a constant op runs once, while compiling; its results are fixed
//    tensors of the plan, with no task.
// 9. The rank's task graph: one compute task per op node this rank takes part in, one
//    communication task per boxing node (every rank runs every conversion, as in eager);
//    each task output is a register.
// 10. The memory plan: every register that does not outlive a run gets an offset in one
//    arena per rank. Two registers share memory only when the graph orders them (every
//    reader of one finishes before the writer of the other starts), so any order the actors
//    take is safe. Reported against the sum without reuse and the max-live lower bound.
//    A variable's new value made by an in-place update of its old one (an optimizer step)
//    takes the old value's memory (buffer donation).
// 11. Actors: one per task, in one actor system per phase.
//
// Devices: a graph runs on the device of its placements (one device type per graph, else
// std::invalid_argument): its arena, buffers and accumulators are that device's memory, its
// tasks call the ops' kernels for it (make_kernel_for), and its boxing runs on the host's comm
// stream, in one order with eager's collectives, on the device's buffers (boxing/execute.h).
//
// Running: arguments and variables are bound, the host-side bookkeeping runs (optimizer
// step counts), run-time attributes are read (learning rates, random draws), the phases'
// actors run (the micro phase once per micro-batch, or once for all of them when
// pipelined), then variables get their new values. The run is synchronous: it returns when
// the step is done (errors in any act are agreed across ranks, then raised on every rank).
//
// Thread-safety: compile and run from one thread (the user's).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/graph/actor.h"
#include "meshflow/graph/logical_graph.h"

namespace mf::graph {

struct MemoryReport {
  int64_t arena_bytes = 0;     // the planned arena
  int64_t no_reuse_bytes = 0;  // every register in memory of its own
  int64_t max_live_bytes = 0;  // the most bytes live at once in the plan's order: a lower bound
  int64_t persistent_bytes = 0;  // registers that outlive a run (outputs, new variable values)
  int64_t buffer_bytes = 0;  // a pipeline's micro-batch registers, every slot (planned in the arena)
  int64_t unstored_bytes = 0;  // results that fusion keeps out of registers (fusion.h)
  int64_t folded_bytes = 0;    // constants computed while compiling, kept for every run
  int64_t donated_bytes = 0;   // variables' new values written over their old ones (passes.h: memory)
  int registers = 0;
};

struct CompileStats {
  int traced_nodes = 0;    // as traced
  int graph_nodes = 0;     // after the passes, boxing included
  int boxing_nodes = 0;
  int fused_chains = 0;    // fused nodes (fusion.h), and the op nodes they replaced
  int fused_ops = 0;
  int folded_ops = 0;      // op nodes computed while compiling (constant folding), on this rank
  // Activation checkpointing (recompute.h): regions recomputed, the copies inserted, and the
  // logical bytes of the activations backward no longer keeps.
  int checkpointed_regions = 0;
  int recomputed_ops = 0;
  int64_t dropped_activation_bytes = 0;
  // ZeRO (zero.h): gathers copied for backward, and the waits its windows added on this rank.
  int backward_gathers = 0;
  int prefetch_orders = 0;
  int tasks = 0;           // on this rank
  int64_t eager_boxing_bytes = 0;  // boxing bytes with eager's per-op choices
  int64_t graph_boxing_bytes = 0;  // with the whole-graph choice
  double compile_ms = 0;
  struct PassTime {
    std::string name;
    double ms;
  };
  std::vector<PassTime> passes;  // each pass of the pipeline (passes.h), in order
};

// A registers' arena layout: a pure function, for tests.
struct RegisterUse {
  int64_t bytes;
  int producer;                // task index
  std::vector<int> consumers;  // task indices
};
// Offsets for `registers`, given `ordered(a, b)`: whether task a finishes before task b
// starts in every run. Returns the arena size.
int64_t plan_arena(const std::vector<RegisterUse>& registers, const std::function<bool(int, int)>& ordered,
                   std::vector<int64_t>& offsets);
// The most bytes live at once when the tasks run in index order.
int64_t max_live_bytes(const std::vector<RegisterUse>& registers, int tasks);

class CompiledGraph {
 public:
  explicit CompiledGraph(LogicalGraph traced);
  ~CompiledGraph();
  CompiledGraph(const CompiledGraph&) = delete;
  CompiledGraph& operator=(const CompiledGraph&) = delete;

  // Runs one step on `arguments` (global, with the metas the graph was traced with);
  // returns the step's outputs. Variables are updated in place.
  std::vector<Var> run(const std::vector<Var>& arguments);

  // The compiled logical graph: each node with its signature, each boxing node with its
  // collectives and bytes.
  std::string str() const;
  // Why each boxing node is there: the producer's layout, the consumer's signature, the
  // bytes, and the cheapest signature of the consumer that was rejected, with its cost.
  std::string explain() const;
  // Graphviz: boxing nodes coloured.
  std::string dot() const;
  // The graph as the pipeline leaves it after the pass named `after` (passes.h's names;
  // every pass when empty), compiled anew from the traced graph, and from the prefetch pass
  // on the waits it added ("%7 waits for %5"): for tests and debugging.
  // std::invalid_argument for an unknown name.
  std::string debug_graph(const std::string& after) const;
  const MemoryReport& memory() const { return memory_; }
  const CompileStats& stats() const { return stats_; }
  // The most register slots in use at once during the last run, per register.
  std::vector<int> peak_register_use() const;
  // This rank's registers: pipeline stage, slots (regst_num), the most slots holding data
  // at once during the last run, and bytes per slot.
  struct RegisterReport {
    int stage;
    int slots;
    int peak;
    int64_t bytes;
  };
  std::vector<RegisterReport> registers() const;
  // When the last run's pipelined micro-batches started and ended on this rank, on the
  // clock of vm::now_us ({0, 0} without a pipeline).
  std::pair<int64_t, int64_t> last_pipeline_us() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  MemoryReport memory_;
  CompileStats stats_;
};

}  // namespace mf::graph
