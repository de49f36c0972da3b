// Copyright 2026 The meshflow Authors.
// A compiled graph's plan on this rank (compile.h, passes.h): the lowered graph, its tasks
// and registers, the memory arena and the actor systems, and how a task acts on one
// micro-batch. The lowering passes (passes.h: fold, tasks, memory, actors) fill it; run()
// (compile.cc) binds each run's inputs and drives its actor systems.
//
// Invariants once compiled: every value of `graph` that this rank reads has a Ref; each
// register is written by one task; tasks are in the order they run (phase by phase, each
// in program order); a non-persistent register's slots are in the arena or, for a
// pipeline's micro-batches, memory of their own.
//
// Thread-safety: compiled and run from one thread; act() runs on actor threads, one act of
// a task at a time, each touching only its task's registers and slots.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/graph/actor.h"
#include "meshflow/graph/logical_graph.h"

namespace mf::graph {

// Where a task runs in a run split into micro-batches: once before them (what reads only
// variables and constants), once per micro-batch (what reads the arguments), once after
// them (what reads the gradients: clipping, the optimizers).
enum class Phase { kPre = 0, kMicro = 1, kPost = 2 };

struct RankPlan {
  // The compiled logical graph: op nodes carry their chosen signature, boxing nodes their plan.
  LogicalGraph graph;

  struct Ref {
    enum Kind { kRegister, kBound, kFixed, kAccumulator } kind;
    int index;
    std::optional<Shape> view;  // read in this local shape (the output of a reshape)
  };
  struct Register {
    TensorMeta meta;
    bool persistent = false;
    // Non-persistent: its memory, one slot per piece in flight (regst_num): one in the
    // arena, or several of their own for a pipeline's micro-batches.
    std::vector<Tensor> slots;
    const Tensor& slot(int piece) const {
      static const Tensor none;
      return slots.empty() ? none : slots[static_cast<size_t>(piece) % slots.size()];
    }
    int stage = 0;  // the pipeline stage its value lives on
    Tensor value;  // persistent: what the last run produced
    // Buffer donation (passes.h: memory): a variable's new value whose task may write it over
    // the variable's old value, the input value `donor` (bound at each run), else -1; during
    // a run, that memory when no other bound input shares it (else empty: memory of its own).
    int donor = -1;
    Tensor donated;
  };
  struct Task {
    int node;
    std::vector<Ref> inputs;
    std::vector<int> outputs;  // registers
    std::shared_ptr<KernelCall> call;  // op tasks
    Kernel kernel;                     // op tasks: the op's kernel for the graph's device
    std::vector<std::shared_ptr<KernelCall>> piece_calls;  // a random op among micro-batches: its call per micro-batch
    device::Stream* lane = nullptr;  // a transfer between pipeline stages: its stream
    int lane_id = 0;
    Phase phase = Phase::kMicro;
    int accumulator = -1;  // an accumulate task: adds its input into this accumulator
    // Tasks of its phase, earlier in the plan, that must have acted before it acts, beyond
    // what it reads (zero.h's windows: control inputs).
    std::vector<int> after{};
  };
  std::vector<Ref> refs;      // per value of `graph`
  std::vector<Tensor> bound;  // per value of `graph` of an input node, set at each run
  std::vector<Tensor> fixed;
  std::vector<Register> registers;
  std::vector<Task> tasks;
  // Gradient accumulation: per-run sums (then means) of the micro-batches' values that the
  // step's end reads, and the micro-batch the micro phase is running.
  std::vector<Tensor> accumulators;
  std::vector<Ref> output_refs;  // where each returned output is read after a run
  int micro_batches = 1;
  // The variables the micro-batches update in turn (indices into graph.writes): before
  // micro-batch k > 0, each one's old value is bound to what micro-batch k - 1 wrote.
  std::vector<int> carried;
  int piece = 0;  // the micro-batch running, when they run one after another
  bool pipelined = false;  // micro-batches in flight at once (stages on several placements)
  // A program that placed nothing (LogicalGraph::local): no other rank takes part, so a
  // call's errors need no agreement (and the call may be made on some ranks only).
  bool alone = false;
  std::vector<std::vector<Tensor>> argument_pieces;  // per value of `graph`: an argument's micro-batches, during a run
  std::vector<std::unique_ptr<device::Stream>> lanes;
  std::pair<int64_t, int64_t> micro_window{0, 0};  // pipelined: the last run's micro-batches (vm::now_us)
  std::vector<std::unique_ptr<ActorSystem>> phases;  // pre, micro, post (empty ones null)
  std::vector<int> register_phase_index;  // each register's index in its phase's system
  // Per node of `graph`: how many sets of attributes it reads anew at each call (0: none; a
  // random op among micro-batches: one per micro-batch).
  std::vector<int> fresh_attrs;
  std::shared_ptr<void> arena;
  int64_t arena_bytes = 0;
  // Where every tensor of the graph lives, and the tasks run (collectives aside: those run
  // on the host's comm stream, in one program order with eager's, through the host).
  device::Device* device = nullptr;
  Memory& memory() const { return device->memory(); }
  // Gradient accumulation's kernels, on the graph's device: acc + x, and acc * (1/m)
  // (kernel_for's, kept for the life of the process).
  const Kernel* add_kernel = nullptr;
  const Kernel* scale_kernel = nullptr;

  // Before a run, once the inputs are bound: each donating register's memory for this run
  // (Register::donated), after waiting for the eager work issued before the call (which may
  // still read it). After a run: with `release`, none.
  void bind_donations(bool release = false);
  // What Ref r holds for micro-batch `at`.
  Tensor input_of(const Ref& r, int at) const;
  bool in_arena(const Tensor& t) const;
  // Puts a task's results into its registers: persistent ones keep the tensor (cloned when
  // it lies in the arena, which the next run reuses); the others are copied into their
  // slot unless the kernel already wrote them there.
  void store(const Task& task, std::vector<Tensor>& outs, int at);
  // acc = x at the first micro-batch, acc += x at the others, acc *= 1/m after the last.
  void accumulate(Tensor& acc, const Tensor& x, int at) const;
  // A local kernel call on whole tensors of acc's shape, its result written into acc.
  void run_into(const Tensor& acc, const Kernel& kernel, const std::vector<Tensor>& in, const Attrs& attrs) const;
  // Task t on micro-batch `system_piece` as its actor system counts (pipelined), else on
  // the micro-batch running.
  void act(int t, int64_t system_piece);
};

}  // namespace mf::graph
