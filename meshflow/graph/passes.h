// Copyright 2026 The meshflow Authors.
// The graph compiler as a pipeline of passes (compile.h says what the whole does), as
// OneFlow's job passes and XLA's HLO pass pipeline: each pass is a function over one
// Compilation (the graph being rewritten, the facts earlier passes established about it,
// and this rank's plan), with its contract below: what it reads, what holds after it.
//
// pipeline() lists the passes in order; adding one is a function here and one line there:
// recompute.h (activation checkpointing) and zero.h (ZeRO's schedule) were added so. run_pipeline() runs them, timing each
// (CompileStats::passes), and can stop after any pass (CompiledGraph::debug_graph). Between
// passes it checks the graph's invariants (check_graph) in debug builds, or when
// MESHFLOW_CHECK_PASSES=1 (or set_check_passes(true)), as the test suites do.
//
// The graph's invariants, from the first pass on: every value a node reads or the step
// returns or writes has a producer node that lists it among its outputs; nodes form no
// cycle. From the boxing pass on, also: every op node's inputs have the layouts its
// signature takes (on its placement), and every boxing node's output the layout it targets.
//
// Thread-safety: a Compilation is used by one thread; passes keep no state of their own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/graph/compile.h"
#include "meshflow/graph/plan.h"

namespace mf::graph {

using Candidates = std::shared_ptr<const std::vector<NdSignature>>;

struct Compilation {
  // `plan` receives the lowered graph; `traced` must outlive the compilation.
  Compilation(const LogicalGraph& traced, RankPlan& plan);

  const LogicalGraph& traced;
  RankPlan& plan;
  // plan.graph: the graph every pass reads and rewrites. Its state slots (variables,
  // constants, host bookkeeping) stay in `traced`, which its writes and inputs index.
  LogicalGraph& graph;
  int rank;             // this process's world rank

  // cleanup: the layout each returned output must be delivered in.
  std::vector<boxing::Layout> output_layouts;
  // sbp: each op node's candidates (null for other nodes; nodes of one call, as a model's
  // repeated layers, share them), and per node the cheapest one it did not take (index -1:
  // none), that cost and its own (bytes of boxing its inputs and its outputs' uses).
  std::vector<Candidates> candidates;
  struct Rejected {
    int index = -1;
    int64_t cost = 0;
    int64_t chosen_cost = 0;
  };
  std::vector<Rejected> rejected;
  // From boxing on: producers' layouts meet their consumers' (check_graph checks it).
  bool layouts_explicit = false;
  std::vector<std::string> reasons;  // boxing: why each conversion that moves data is there
  // micro_batches (per node and value of `graph`): phases, the gradients, and the values
  // read after the micro-batches (averaged by accumulate tasks).
  std::vector<Phase> node_phase;
  std::vector<Phase> phase;
  std::vector<bool> is_gradient;
  std::vector<bool> accumulated;
  // constants: values the same in every run (computed from nothing that varies).
  std::vector<bool> constant;
  // stages: the pipeline's stages (placements, first to last), and the values that outlive
  // a run (returned outputs not averaged, variables' new values).
  std::vector<Placement> stages;
  std::vector<bool> persistent;
  // fold: per value, where this rank's part of a folded result lies (plan.fixed).
  std::vector<std::optional<RankPlan::Ref>> folded;
  // tasks: per register, the task writing it, the tasks reading it, and its phase.
  std::vector<int> producer_task;
  std::vector<std::vector<int>> readers;
  std::vector<Phase> made_in;

  CompileStats stats;
  MemoryReport memory;
};

struct Pass {
  const char* name;
  void (*run)(Compilation&);
  // What the pass guarantees beyond the graph's invariants, checked after it when checks
  // are on (null: nothing more).
  void (*check)(const Compilation&) = nullptr;
};

// Reads the traced graph. After: `graph` holds the traced graph's live nodes in program
// order, without the conversions planning inserted within a placement (their readers read
// what they converted; the user's to_global calls and ZeRO's gathers stay, as constraints) and without nodes
// whose results nothing uses; output_layouts set.
void cleanup(Compilation& c);
// Reads op nodes' candidates (valid_nd_signatures under their constraints) and the boxing
// planner's costs. After: each op node's signature is chosen over the whole graph (eager's
// rule first, then rounds that lower boxing bytes, counting what consumers and sinks pay)
// and its outputs' layouts are the signature's; stats' boxing bytes, rejected set.
void choose_sbp(Compilation& c);
// After: a boxing node (its plan attached) wherever a value's layout differs from what a
// consumer or a sink takes, one per value and layout; kept conversions have their plans.
// Values are renumbered. layouts_explicit, reasons, stats' graph and boxing node counts.
void insert_boxing(Compilation& c);
// recompute.h: the values checkpointed regions make only for backward are recomputed
// there, just before the first backward op reading them; stats' recomputed ops. Checked
// after it (check_recomputed).
void recompute(Compilation& c);
// zero.h, when an optimizer of the step shards (LogicalGraph::zero_stage): no gather of a
// sharded parameter is read both in forward and in backward, and each conversion of a
// gradient directly follows the node making it; stats' backward gathers. Checked after it
// (check_zero).
void zero(Compilation& c);
// Reads micro_batches and the gradients. After: node_phase, phase, is_gradient and
// accumulated (all kMicro and false for one micro-batch), plan.carried (the variables the
// micro-batches update, whose old values are then per micro-batch); std::invalid_argument
// for a step that would mix micro-batch values into what runs once.
void assign_micro_batches(Compilation& c);
// After: constant[v] for values computed only from ops that draw nothing random, check no
// data and read no attribute anew (arange, full and what follows from them).
void mark_constants(Compilation& c);
// fusion.h on this rank, within a phase (constant chains apart, so that they fold), when
// the graph asks for it and the device runs fused chains; phases reassigned after.
void fuse(Compilation& c);
// After: stages (with micro-batches: the placements of the micro phase's ops, the user's
// order first), plan's pipelined, alone, micro_batches and fresh_attrs; persistent;
// std::invalid_argument for a pipeline (micro-batches in flight at once) that carries a
// variable from one micro-batch to the next.
void place_stages(Compilation& c);
// After: every op node this rank runs whose results are constant, and that no run writes
// back or averages, has run once, now; folded holds where its results lie.
void fold_constants(Compilation& c);
// After: plan's refs, registers, tasks (one per node this rank runs and per accumulated
// value, in the order they run), accumulators and output_refs; producer_task, readers,
// made_in; stats.tasks.
void build_tasks(Compilation& c);
// zero.h, under ZeRO and off pipelines: tasks' `after` holds the waits of its windows (each on
// an earlier task of the same phase): gathers (and other conversions of the step's inputs)
// wait for the uses of those beyond their window, the makers of gradients for the reductions
// beyond theirs; stats' prefetch orders.
void prefetch(Compilation& c);
// After: every register that does not outlive a run has memory in one arena: an offset
// shared only with registers the plan orders before or after it (plan_arena), or for a
// pipeline's micro-batches, slots shared only with slots none of whose uses overlap theirs
// in the stage's order of acts (memory_plan.cc: MicroSlots); memory set. A variable's new value made by
// an in-place update of its old one (an optimizer step: Node::overwrite) that every other
// reader of the old value finishes before, and that the step neither returns nor writes
// elsewhere, takes the old value's memory (Register::donor: buffer donation), so a step
// holds no second copy of the parameters and optimizer state.
void plan_memory(Compilation& c);
// A pipeline stage's micro-phase tasks in parts: 0, those that read nothing a later stage
// made in this micro-batch (the forward pass); 1, those that do (the backward pass, after
// the gradient comes back), and backward work only it reads (a checkpointed region's
// recomputation); 2, what only feeds the gradients' accumulation (the weight gradients),
// after the rest of the backward pass so that the previous stage gets its gradient first.
// `part` per task. Returns the lead: the micro-batches the stage holds in flight less one
// (stage s of p: p - 1 - s), by which part 1 trails part 0, so that the forward pass of
// micro-batch k + lead runs before the backward pass of micro-batch k, as
// one-forward-one-backward runs them, and every rank of the stage cuts and orders them
// alike. 0 off pipelines and where stages share ranks (one part: the plan's order). The
// actors act in that order (build_actors), which the memory plan relies on.
int stage_parts(const Compilation& c, std::vector<int>& part);
// After: plan.phases holds one actor system per phase (pre, micro, post; null when
// empty), communication in the plan's order (a pipeline stage's backward collectives
// trailing its forward ones by the micro-batches it holds), a pipeline's compute by
// priority.
void build_actors(Compilation& c);

// The compiler's passes, in order.
const std::vector<Pass>& pipeline();
// Runs the passes in order through the one named `until` (every pass when empty; an
// unknown name: std::invalid_argument listing them), timing each into stats.passes and
// checking the graph after each when checks are on.
void run_pipeline(Compilation& c, const std::string& until = "");

// Whether run_pipeline checks the graph between passes: on in debug builds, or when
// MESHFLOW_CHECK_PASSES=1 at the first compile, or as set here.
bool check_passes();
void set_check_passes(bool on);
// std::logic_error naming `after` and the first broken invariant (above) of `graph`; the
// layouts only when `layouts_explicit`.
void check_graph(const LogicalGraph& graph, bool layouts_explicit, const std::string& after);

}  // namespace mf::graph
