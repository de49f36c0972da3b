// Copyright 2026 The meshflow Authors.
// Graph mode, first half (CONCEPTS section 7): the logical graph of a traced step, and the
// tracer that records it.
//
// Tracing: while a Tracer is installed (Tracer::Scope), every global op call and every
// conversion on this thread is planned as in eager mode (so bad arguments raise at the
// call, with the op's name) and then recorded as a node instead of run; its results are
// *lazy* global tensors: their metadata (shape, dtype, placement, SBP) is real, their
// storage never holds data, and reading it raises. Autograd and optimizers need nothing of
// their own: backward() calls the ops' gradients, an optimizer's step() calls its update
// ops, and both are recorded like any call.
//
// The graph's inputs are of three kinds: arguments (lazy stand-ins for each run's inputs),
// variables (state slots, such as parameters and optimizer moments, read at each run and
// written back when the step gives them a new value), and constants (tensors the step
// read that are neither: captured as they are).
//
// A logical graph is a value: nodes in program order (a topological order), each with its
// op, attributes, inputs and outputs (value ids), and for each value its logical meta and
// layout. Compiling it (compile.h) chooses layouts anew over the whole graph.
//
// Thread-safety: a Tracer is used by the thread that installed it; a LogicalGraph is
// immutable once traced.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/dispatch.h"

namespace mf::graph {

struct Value {
  Shape shape;
  DType dtype;
  boxing::Layout layout;  // as traced; compile() chooses anew for op outputs
  int producer = -1;      // node id
  int index = 0;          // which output of the producer
};

enum class NodeKind { kInput, kOp, kBoxing };
enum class InputKind { kArgument, kVariable, kConstant };
// A conversion whose layout ZeRO chose (zero.h): kept as a constraint, as a user's
// conversion is. kGather: stage 3's gather of a sharded parameter into the layout ops use it
// in, one node per use (Var::for_use, and backward's gather again). kReduce: the reduction
// of a parameter's partial gradient into the layout the stage gives it (stage 1: the
// parameter's own, all-reduced as eagerly; 2 and 3: its shard, Var::set_grad_layout).
enum class ZeroRole { kNone, kGather, kReduce };
// Activation checkpointing (recompute.h): what a checkpointed region recomputes for its
// backward: every op of its forward, or only the cheap ones (Megatron's selective mode).
enum class Recompute { kFull, kSelective };

struct Node {
  Node(NodeKind kind, std::string name, std::vector<int> inputs, std::vector<int> outputs)
      : kind(kind), name(std::move(name)), inputs(std::move(inputs)), outputs(std::move(outputs)) {}
  NodeKind kind;
  std::string name;  // the op's name, "to_global", or the input's name
  std::vector<int> inputs;   // value ids
  std::vector<int> outputs;  // value ids
  // kInput: which argument, variable or constant.
  InputKind input_kind = InputKind::kArgument;
  int input_index = 0;
  // kOp.
  const OpDef* op = nullptr;
  Attrs attrs;
  Constraints constraints;
  std::shared_ptr<const AttrsSource> run_time_attrs;  // attributes read anew at each run
  NdSignature signature;  // eager's choice while tracing; the compiler's in a compiled graph
  // An in-place update (an optimizer step, ops/in_place.h): output k may be written
  // over input overwrite[k]'s memory (-1 or past the end: not), each element read before
  // it is written. The memory plan donates a variable's memory so (passes.h: memory).
  std::vector<int> overwrite;
  // kBoxing: the target layout; `user` when the user asked for it (a constraint), not
  // planning (the compiler drops those and places conversions where its choice needs them).
  std::optional<boxing::Layout> to;
  bool user = false;
  ZeroRole zero = ZeroRole::kNone;  // kBoxing
  std::shared_ptr<const boxing::Plan> plan;  // in a compiled graph
  // Activation checkpointing (recompute.h). `checkpoint`: the region (an index into
  // LogicalGraph::checkpoints) of a node traced in a checkpointed module's forward with grad
  // mode on, else -1. `no_grad`: traced with grad mode off (backward, an optimizer step).
  // `recomputes`: in a recomputed copy, the value id of its original's first output (whose
  // run-time attributes it takes, so a random op draws the same values), else -1.
  int checkpoint = -1;
  bool no_grad = false;
  int recomputes = -1;
};

// A state slot the step reads and may replace: a parameter, an optimizer's moment.
struct VariableSlot {
  std::string name;
  std::function<Var()> get;
  std::function<void(const Var&)> set;
};

struct LogicalGraph {
  std::vector<Node> nodes;
  std::vector<Value> values;
  std::vector<int> arguments;  // value id of each argument
  std::vector<VariableSlot> variables;
  std::vector<int> variable_values;  // value id of each variable as read
  std::vector<GlobalTensor> constants;
  std::vector<int> outputs;                       // value ids the step returns
  std::vector<std::pair<int, int>> writes;        // (variable, value id of its new value)
  std::vector<std::function<void()>> before_run;  // host-side bookkeeping (optimizer counts)
  // Micro-batches per run (gradient accumulation): arguments were traced as one micro-batch
  // (dim 0 of every rank's part divided by this), and `gradients` holds the value id of
  // each leaf's gradient as backward left it: what reads them runs once per run, on their
  // mean over the micro-batches (compile.h).
  int micro_batches = 1;
  std::vector<int> gradients;
  // Pipeline stages named by the user, first to last (Graph.config.set_stage); placements
  // not named follow, in the order the traced forward pass meets them.
  std::vector<Placement> stage_order;
  // Whether compiling fuses chains of elementwise ops (fusion.h); ops such passes made.
  bool fuse = true;
  std::vector<std::shared_ptr<const OpDef>> fused_ops;
  // A program that placed nothing (every input local, seen as_global_here): each rank runs
  // its own step, on its own, so a call agrees with no other rank.
  bool local = false;
  // The checkpointed regions (Node::checkpoint), in the order traced: each one's mode.
  std::vector<Recompute> checkpoints;
  // The highest ZeRO stage among the step's optimizers (0: none; zero.h).
  int zero_stage = 0;

  // Sets every value's producer and output index from `nodes`, after a pass reordered them.
  void renumber_producers();

  // One line per node, in order: "%7 = matmul(%3, %5)  (S(0)), (B) -> (S(0))  [2, 64] float32";
  // inputs with their layout, boxing nodes with their target (and, compiled, their steps
  // and bytes).
  std::string str() const;
};

// Records a step. Usage: construct, add_variable() for each state slot, argument() for each
// input, then, inside a Scope, run the step; finish() with its outputs. finish() (or the
// destructor) puts every variable back as it was before tracing.
class Tracer : public OpTracer, public ConversionTracer {
 public:
  Tracer();
  ~Tracer() override;
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // In a local program's step (set_local first), a local variable is seen as_global_here
  // while the graph traces and runs, and written back as a local value.
  void add_variable(VariableSlot slot);
  // A parameter: a variable whose new value is set in place (Var::set_data), so modules
  // and optimizers holding it see it. The step's backward starts from no gradient, whatever
  // .grad holds; .grad is put back after tracing.
  void add_parameter(const Var& parameter, const std::string& name);
  // An optimizer: its parameters (once each), its state slots (materialized), and its step
  // counts (restored after tracing, advanced before each run). It must outlive the graph.
  void add_optimizer(optim::Optimizer& optimizer);
  // Host-side state to restore after tracing and to advance before every run.
  void add_bookkeeping(std::function<void()> restore, std::function<void()> before_run);
  // Splits each run into `m` micro-batches (before the first argument()): every argument's
  // dim 0 is cut into m parts on each rank, and the step is traced on one of them.
  void set_micro_batches(int m);
  // Names the pipeline stages' order by their placements (first to last).
  void set_stage_order(std::vector<Placement> stages) { graph_.stage_order = std::move(stages); }
  // Whether compiling fuses chains of elementwise ops (on by default).
  void set_fusion(bool on) { graph_.fuse = on; }
  // Ops traced from begin_checkpoint to the matching end_checkpoint (with grad mode on) form
  // one checkpointed region (a module's forward): their activations are recomputed for
  // backward instead of kept (recompute.h). Regions do not nest: inside one, another
  // begin_checkpoint joins it.
  void begin_checkpoint(Recompute mode);
  void end_checkpoint();
  // A step of a program that placed nothing (LogicalGraph::local); before add_variable.
  void set_local(bool local) { graph_.local = local; }
  bool local_program() const override { return graph_.local; }
  std::optional<Placement> home_placement() const override;
  // A lazy global tensor with `example`'s metadata (one micro-batch of it) standing for
  // argument i of each run. Collective: an example that cannot be cut evenly on some rank
  // raises std::invalid_argument on every rank.
  Var argument(const Var& example);

  // Installs the tracer on this thread for its lifetime.
  class Scope {
   public:
    explicit Scope(Tracer& tracer);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    OpTracer* previous_op_;
    ConversionTracer* previous_conversion_;
  };

  LogicalGraph finish(const std::vector<Var>& outputs);
  // Gives up (build raised): puts every variable back.
  void abandon() { restore(); }

  std::vector<GlobalTensor> trace_op(const OpDef& op, const std::vector<GlobalTensor>& inputs, const Attrs& attrs,
                                     const Constraints& constraints, const OpPlan& plan) override;
  GlobalTensor trace_conversion(const GlobalTensor& t, const boxing::Layout& to, bool user) override;
  GlobalTensor trace_accumulate(const GlobalTensor& a, const GlobalTensor& b) override;
  void trace_leaf_gradient(const void* leaf, const GlobalTensor& grad) override;

  // Whether `t` is a lazy tensor (made by some tracer).
  static bool is_lazy(const Tensor& t);

 private:
  int value_of(const GlobalTensor& t);  // a known value, or a new constant
  // A new input node (and its value) with t's metadata; `t`'s storage stands for it when
  // `bind`, as a variable's or a constant's does (an argument is a lazy stand-in instead).
  int add_input(const GlobalTensor& t, InputKind kind, int index, const std::string& name, bool bind);
  GlobalTensor lazy(int value);
  void tag(Node& node) const;  // its checkpointed region and grad mode, as traced
  void restore();

  LogicalGraph graph_;
  std::unordered_map<const Storage*, int> value_ids_;
  std::vector<std::shared_ptr<Storage>> storages_;  // keeps keys alive
  std::vector<Var> variable_originals_;
  std::vector<std::function<void()>> restores_;
  std::vector<const VarImpl*> parameters_;
  std::unordered_map<int, boxing::Layout> use_layouts_;  // a stage-3 parameter's value -> its use layout
  std::unordered_map<const void*, int> zero_gradients_;  // parameters of ZeRO optimizers: the stage
  std::unordered_map<const void*, int> leaf_gradients_;  // leaf -> value id of its gradient
  bool finished_ = false;
  int open_checkpoint_ = -1;  // the region being traced, or -1
  int checkpoint_depth_ = 0;
};

}  // namespace mf::graph
