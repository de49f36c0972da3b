// Copyright 2026 The meshflow Authors.
// Optimizers over Vars, local or global, with PyTorch's semantics (torch.optim.SGD, Adam,
// AdamW, RMSprop, Adagrad, Adamax, NAdam, RAdam, Adadelta, ASGD and Rprop, with parameter
// groups). Each parameter's update is one fused elementwise op
// (optimizer_ops.cc) on the parameter, its gradient and its state, which all share the
// parameter's placement and SBP (the autograd engine delivers gradients in that layout), so
// a step moves no data, and writes the parameter and its state in place, so it allocates
// nothing beyond a first step's state (under ZeRO, below, the update runs on the shard and
// the updated parameter is gathered anew). The Python classes mf.optim.SGD, Adam, ... are
// these.
//
// ZeRO is a choice of SBP (set_zero_stage): a parameter's *shard layout* is its own split on
// every mesh axis where it is broadcast (the data-parallel axes; a tensor-parallel axis keeps
// its SBP), along dimension 0 or, where another axis splits that, the first one none splits. Stage 1 keeps the optimizer state in the shard layout; a step updates
// the parameter's shard (a local slice of it and of its gradient) and boxing all-gathers the
// result back. Stage 2 also has backward leave each gradient in the shard layout
// (Var::set_grad_layout), so boxing reduce-scatters the partial gradient instead of
// all-reducing it. Stage 3 also stores the parameter in the shard layout, and every op takes
// it gathered (Var::set_use_layout), in backward again. No collective is written here. A
// graph (graph/graph.h) that steps the optimizer compiles these layouts as constraints of its
// SBP, and schedules the gathers and reductions (graph/zero.h).
// Thread-safety: one thread at a time, like every op.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/ops/attrs.h"

namespace mf::optim {

// A parameter group's hyperparameters by torch's names ("lr", "momentum", "beta1", ...;
// booleans as 0 / 1): torch.optim's group dicts. A group leaves out what the optimizer's
// defaults give.
using GroupOptions = std::map<std::string, double>;

struct ParamGroup {
  std::vector<Var> params;
  GroupOptions options;
};

// Parameters in groups, as torch.optim.Optimizer: each group has its own hyperparameters
// (defaults filled from the optimizer's), params() lists every group's parameters in order
// (the indices of state() and of torch's state_dict), and the state stays per parameter.
class Optimizer {
 public:
  virtual ~Optimizer() = default;

  // Updates every parameter that has a gradient and its state in place, without recording
  // anything for autograd: the update op writes their memory (fn::update_in_place) and
  // each Var takes the new value (Var::set_data, which counts its version).
  virtual void step() = 0;
  // Drops the parameters' gradients (the next backward starts from none).
  void zero_grad();

  // Adds a group; options it leaves out are the defaults. Throws std::invalid_argument for
  // an unknown name, an invalid value or a parameter already in a group (an empty group is
  // allowed here; Python refuses it, as torch).
  void add_param_group(std::vector<Var> params, const GroupOptions& options = {});
  size_t group_count() const { return groups_.size(); }
  // Group g's parameters and options (every name the optimizer knows).
  std::vector<Var> group_params(size_t g) const;
  const GroupOptions& group_options(size_t g) const { return groups_.at(g); }
  // Sets one option of group g, checked as add_param_group checks it; read at the next step
  // (and at every run of a graph that traced the step).
  void set_group_option(size_t g, const std::string& name, double value);
  const GroupOptions& defaults() const { return defaults_; }

  // The first group's learning rate; set_lr sets every group's.
  double lr() const { return groups_.at(0).at("lr"); }
  void set_lr(double lr);
  const std::vector<Var>& params() const { return params_; }
  // Per-parameter state tensors by name ("exp_avg", ...), for checkpoints; `step_count` is
  // the number of steps taken.
  virtual std::vector<std::map<std::string, Var>> state() const = 0;
  virtual void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) = 0;
  // Whether a step or a load made state (set_zero_stage refuses then): state() lists any.
  virtual bool holds_state() const;
  int64_t step_count() const { return steps_; }

  // ZeRO stage 0 (off), 1, 2 or 3 (see above), for every parameter, those of groups added
  // later too. Set before the first step and before any state is loaded, once; throws
  // std::invalid_argument otherwise or for another stage.
  void set_zero_stage(int stage);
  int zero_stage() const { return zero_stage_; }

  // For graph mode, which traces step() once and runs it many times. graph_state() creates
  // any state a first step would create (zeros) and returns every state slot, so that the
  // compiled graph reads and writes them like parameters. counters() / set_counters() are
  // the host-side step counts (saved around the trace), and count_step() advances them as
  // step() would, before each run; the learning rate and counts the update ops read are
  // taken anew at each run (ops/dispatch.h, RunTimeAttrs).
  virtual std::vector<Var*> graph_state() = 0;
  virtual std::vector<int64_t> counters() const { return {steps_}; }
  virtual void set_counters(const std::vector<int64_t>& counters) { steps_ = counters.at(0); }
  virtual void count_step() { ++steps_; }

 protected:
  // `name` names the optimizer in errors; `defaults` lists every option it knows.
  Optimizer(std::string name, GroupOptions defaults);
  // Throws std::invalid_argument when a group's options are invalid together.
  virtual void check_options(const GroupOptions& options) const = 0;
  // Grows the per-parameter state to params_.size() after a group is added.
  virtual void params_added() = 0;
  // Option `key` of parameter i's group.
  double option(size_t i, const std::string& key) const { return groups_[group_of_[i]].at(key); }

  // ZeRO's halves of a step, for every optimizer alike. `v` (a gradient, loaded state) in the
  // layout parameter i's update runs in: its shard layout under ZeRO, else v as it is.
  Var in_update_layout(size_t i, const Var& v) const;
  // Loaded state `v` for parameter i: `v` itself where it is already in the update layout
  // (torch's load_state_dict keeps the given tensors where no cast or move is needed, so two
  // optimizers loaded from one state_dict step the same tensors, in place), else a copy of
  // its own in that layout (a shard as a slice would be a view holding the whole tensor).
  Var loaded_state(size_t i, const Var& v) const;
  // `value` everywhere (zeros by default) for new state of parameter i, made in that layout.
  Var state_zeros(size_t i, double value = 0) const;
  // Parameter i takes its updated shard (boxed back to the parameter's layout).
  void commit_param(size_t i, const Var& updated);
  // A state tensor takes its updated value in place (set_data, not a new Var), so the
  // tensors state() handed out see later steps, as torch's live state does.
  static void commit_state(Var& state, const Var& updated);
  // The parameters with a gradient, in batches that one update call steps together (the
  // update ops' "tensors", ops/optimizer_ops.cc: one launch a batch on a GPU), in params()
  // order: parameters share a batch when they share a group, `alike` holds for them (what
  // else their update reads alike: a buffer's presence, a step count), and they have one
  // dtype and layout (a local one's memory; a global one's placement and SBP). Under ZeRO
  // each parameter is a batch of its own: its shards are made for its update alone, so the
  // step holds one parameter's at a time, as each stage's memory promises.
  std::vector<std::vector<size_t>> update_batches(const std::function<bool(size_t, size_t)>& alike) const;

  std::string name_;
  std::vector<Var> params_;      // every group's, in order
  std::vector<size_t> group_of_;  // per parameter
  GroupOptions defaults_;
  std::vector<GroupOptions> groups_;
  int64_t steps_ = 0;

 private:
  void shard_param(size_t i);

  int zero_stage_ = 0;
  std::vector<std::optional<boxing::Layout>> shard_layout_;  // per parameter; unset: not sharded
};

struct SgdOptions {
  double lr = 1e-3;
  double momentum = 0;
  double dampening = 0;
  double weight_decay = 0;
  bool nesterov = false;
  bool maximize = false;
};

// torch.optim.SGD: options lr, momentum, dampening, weight_decay, nesterov, maximize.
class SGD : public Optimizer {
 public:
  SGD(std::vector<Var> params, SgdOptions options);
  SGD(std::vector<ParamGroup> groups, SgdOptions defaults);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;

 private:
  void check_options(const GroupOptions& options) const override;
  void params_added() override { momentum_.resize(params_.size()); }
  Attrs update_attrs(size_t i, bool has_buf) const;

  std::vector<Var> momentum_;  // per parameter; undefined until its first step
};

struct AdamWOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 1e-2;
  bool amsgrad = false;
  bool maximize = false;
};

// An optimizer whose state counts each parameter's own steps (torch's per-parameter "step":
// the steps it had a gradient in), for its update (Adam's bias correction) or its
// state_dict. A graph counts every parameter that had a gradient when it was traced.
class PerParamStepsOptimizer : public Optimizer {
 public:
  std::vector<int64_t> counters() const override;
  void set_counters(const std::vector<int64_t>& counters) override;
  void count_step() override;

 protected:
  using Optimizer::Optimizer;
  // Counts a step (step()'s start): make_state(i), then a step of parameter i, for each
  // parameter with a gradient; returns them.
  std::vector<size_t> count_steps(const std::function<void(size_t)>& make_state);
  // Parameter i's steps as torch's state entry "step" (a float32 scalar), one tensor per
  // parameter that later steps update in place, as torch's.
  Var step_state(size_t i) const;
  // Parameter i's steps from a loaded state's "step" (0 where it has none). A local scalar
  // float32 "step" is kept as parameter i's step tensor (torch keeps it), which each step
  // reads and advances: optimizers loaded from one state_dict count each other's steps.
  void load_param_steps(size_t i, const std::map<std::string, Var>& state);
  void params_added() override {
    param_steps_.resize(params_.size(), 0);
    step_tensors_.resize(params_.size());
  }

  std::vector<int64_t> param_steps_;  // per parameter: the steps it took

 private:
  // Parameter i's step tensor, once state() handed it out, takes param_steps_[i].
  void publish_step(size_t i);
  // param_steps_[i] plus one, counted from the step tensor where there is one: another
  // optimizer sharing it may have stepped (or the program written it).
  void advance_step(size_t i);

  mutable std::vector<Var> step_tensors_;  // made by the first state() that lists them, or loaded
};

// torch.optim.AdamW (decoupled weight decay); options lr, beta1, beta2, eps, weight_decay,
// amsgrad, maximize. State per parameter: exp_avg, exp_avg_sq, with amsgrad max_exp_avg_sq
// (made at the first step of a group with amsgrad set), and step (a float32 scalar, torch's).
class AdamW : public PerParamStepsOptimizer {
 public:
  AdamW(std::vector<Var> params, AdamWOptions options);
  AdamW(std::vector<ParamGroup> groups, AdamWOptions defaults);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;

 protected:
  // Adam's: `op` is the update op (adam_update adds the L2 term to the gradient).
  AdamW(std::string name, std::string op, std::vector<ParamGroup> groups, AdamWOptions defaults);

 private:
  void check_options(const GroupOptions& options) const override;
  void params_added() override;
  Attrs update_attrs(size_t i) const;

  std::string op_;
  std::vector<Var> exp_avg_, exp_avg_sq_;  // per parameter; undefined until its first step
  std::vector<Var> max_exp_avg_sq_;        // per parameter; undefined until its first amsgrad step
};

// torch.optim.Adam: weight_decay is an L2 term added to the gradient.
// Options and state as AdamW's; the default weight_decay is 0.
class Adam : public AdamW {
 public:
  Adam(std::vector<Var> params, AdamWOptions options);
  Adam(std::vector<ParamGroup> groups, AdamWOptions defaults);
};

struct RmspropOptions {
  double lr = 1e-2;
  double alpha = 0.99;
  double eps = 1e-8;
  double weight_decay = 0;
  double momentum = 0;
  bool centered = false;
  bool maximize = false;
};

// torch.optim.RMSprop; options lr, alpha, eps, weight_decay, momentum, centered, maximize.
// State per parameter (made at its first step, zeros as torch's): square_avg, with
// momentum momentum_buffer, centered grad_avg, and step.
class RMSprop : public PerParamStepsOptimizer {
 public:
  RMSprop(std::vector<ParamGroup> groups, RmspropOptions defaults);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;

 private:
  void check_options(const GroupOptions& options) const override;
  void params_added() override;
  // Makes parameter i's missing state (the slots its group's options ask for).
  void make_state(size_t i);
  Attrs update_attrs(size_t i) const;

  // Per parameter; undefined until its first step (or where its options need none).
  std::vector<Var> square_avg_, grad_avg_, momentum_;
};

struct AdagradOptions {
  double lr = 1e-2;
  double lr_decay = 0;
  double weight_decay = 0;
  double initial_accumulator_value = 0;
  double eps = 1e-10;
  bool maximize = false;
};

// torch.optim.Adagrad; options lr, lr_decay, weight_decay, initial_accumulator_value, eps,
// maximize. State per parameter: sum and step, whose count decays the learning rate. As
// torch's, state() lists both from construction (sum initial_accumulator_value everywhere,
// step 0); the sum is kept from the first step (or a graph's trace) on, so that a zero_stage
// set after construction lays it out.
class Adagrad : public PerParamStepsOptimizer {
 public:
  Adagrad(std::vector<ParamGroup> groups, AdagradOptions defaults);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;

 private:
  bool holds_state() const override;
  void check_options(const GroupOptions& options) const override;
  void params_added() override;
  void make_state(size_t i);
  Attrs update_attrs(size_t i) const;

  std::vector<Var> sum_;  // per parameter; undefined until its first step
};

// An optimizer whose update is one elementwise rule (ops/optimizer_math.h: torch's Adamax,
// NAdam, RAdam, Adadelta, ASGD and Rprop), each group of parameters with equal step counts
// stepped by one call of its op. State per parameter, as torch's: the rule's tensors
// (`tensors`, torch's keys in the op's order; made at the parameter's first step, or a
// graph's trace, in its update layout), step, and the float32 scalars torch keeps beside them
// (`scalars`: NAdam's mu_product, ASGD's eta and mu), which the host advances at each step
// (advance()) and a graph before each run. The update reads every option of the parameter's
// group by name (a flag as 0 or 1), "step" and what advance() gives, all anew at each run of
// a graph (a schedule's lr too).
class RuleOptimizer : public PerParamStepsOptimizer {
 public:
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;
  // The counts, then each parameter's scalars that are made (their float32 bits), so that a
  // graph's trace leaves them as it found them.
  std::vector<int64_t> counters() const override;
  void set_counters(const std::vector<int64_t>& counters) override;
  void count_step() override;

 protected:
  // `defaults` lists every option with torch's default; `given` overrides some (an unknown
  // name throws std::invalid_argument). The subclass's constructor calls add_groups.
  RuleOptimizer(std::string name, std::string op, std::vector<std::string> tensors, std::vector<std::string> scalars,
                GroupOptions defaults, const GroupOptions& given);
  void add_groups(std::vector<ParamGroup> groups);
  // The value state tensor `slot` of parameter i starts at (0 by default).
  virtual double initial_value(size_t i, size_t slot) const;
  // Parameter i's scalars at its first step (none by default).
  virtual std::vector<float> initial_scalars(size_t i) const;
  // For parameter i's step param_steps_[i] (counted): moves `scalars` to their value after it
  // and returns what the update of that step reads besides the options and the count.
  virtual std::vector<std::pair<std::string, double>> advance(size_t i, std::vector<float>& scalars) const;
  // Throws std::invalid_argument naming the optimizer and `what` where `ok` is false.
  void expect(bool ok, const std::string& what) const;
  // torch's checks of lr, eps, weight_decay and the betas, of those the optimizer has.
  void check_options(const GroupOptions& options) const override;

 private:
  void params_added() override;
  void make_state(size_t i);
  void advance_param(size_t i);
  Attrs update_attrs(size_t i) const;

  std::string op_;
  std::vector<std::string> tensor_keys_, scalar_keys_;
  std::vector<std::vector<Var>> tensors_;  // per slot, per parameter; undefined until made
  std::vector<std::vector<float>> scalars_;  // per parameter; empty until made
  std::vector<std::vector<std::pair<std::string, double>>> step_attrs_;  // per parameter: advance()'s last
};

// torch.optim.Adamax; options lr, beta1, beta2, eps, weight_decay (L2), maximize. State:
// exp_avg, exp_inf, step.
class Adamax : public RuleOptimizer {
 public:
  Adamax(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});
};

// torch.optim.NAdam; options lr, beta1, beta2, eps, weight_decay, momentum_decay,
// decoupled_weight_decay, maximize. State: exp_avg, exp_avg_sq, step, mu_product.
class NAdam : public RuleOptimizer {
 public:
  NAdam(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});

 private:
  void check_options(const GroupOptions& options) const override;
  std::vector<float> initial_scalars(size_t i) const override;
  std::vector<std::pair<std::string, double>> advance(size_t i, std::vector<float>& scalars) const override;
};

// torch.optim.RAdam; options lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay,
// maximize. State: exp_avg, exp_avg_sq, step.
class RAdam : public RuleOptimizer {
 public:
  RAdam(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});
};

// torch.optim.Adadelta; options lr, rho, eps, weight_decay (L2), maximize. State:
// square_avg, acc_delta, step.
class Adadelta : public RuleOptimizer {
 public:
  Adadelta(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});

 private:
  void check_options(const GroupOptions& options) const override;
};

// torch.optim.ASGD; options lr, lambd, alpha, t0, weight_decay (L2), maximize. State: ax (the
// average), step, eta (lr at the first step, then lr / (1 + lambd * lr * step)^alpha with the
// lr of each step), mu (1 / max(1, step - t0)).
class ASGD : public RuleOptimizer {
 public:
  ASGD(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});

 private:
  std::vector<float> initial_scalars(size_t i) const override;
  std::vector<std::pair<std::string, double>> advance(size_t i, std::vector<float>& scalars) const override;
};

// torch.optim.Rprop; options lr (the first step size), etaminus, etaplus, step_size_min,
// step_size_max, maximize. State: prev, step_size (lr everywhere at the first step), step.
class Rprop : public RuleOptimizer {
 public:
  Rprop(std::vector<ParamGroup> groups, const GroupOptions& defaults = {});

 private:
  void check_options(const GroupOptions& options) const override;
  double initial_value(size_t i, size_t slot) const override;
};

// The 2-norm of `tensors` together (over every shard; undefined ones left out), as a 0-d
// tensor computed by ops, so that the issuing thread does not wait for the device: the
// squares of the tensors of one layout and dtype are summed by one sum_squares call
// (ops/reduce.cc), and a placement's sums meet as partial sums in one reduction. For global
// tensors a global broadcast scalar (on the first placement when they lie on several, as a
// pipeline's stages), for local ones on one device a local scalar there. Undefined when no
// tensor is defined. Local tensors on several devices, or beside global ones, are read on
// the host instead (a float64 scalar). In a traced graph the tensors must be global.
Var total_norm(const std::vector<Var>& tensors);

// Scales every gradient in place by min(1, max_norm / (total_norm + 1e-6)) (torch's), where
// total_norm is total_norm() of the gradients, computed and applied on the device; returns
// total_norm (undefined when no parameter has a gradient). error_if_nonfinite (torch's) reads
// the norm on the host (on every rank, for global gradients) and throws std::runtime_error
// before any gradient changes when it is NaN or infinite; std::invalid_argument in a traced
// graph, which cannot read it.
Var clip_grad_norm(const std::vector<Var>& params, double max_norm, bool error_if_nonfinite = false);

// Clamps every gradient to [-clip_value, clip_value] in place, over its memory, in its
// layout (torch.nn.utils.clip_grad_value_; a negative clip_value makes every element
// clip_value: clamp's min above its max gives the max, as torch's).
void clip_grad_value(const std::vector<Var>& params, double clip_value);

// A graph's ZeRO setting (`what`: its name in errors) given to one of its optimizers: stage
// 0 or the optimizer's own stage leave it as it is; else the optimizer takes `stage`, which
// throws std::invalid_argument when it already has another one, or state.
void take_zero_stage(Optimizer& optimizer, int stage, const std::string& what);

// Linear warmup from 0 to max_lr over `warmup` steps, then cosine decay to min_lr at `total`
// steps (min_lr after).
double warmup_cosine_lr(int64_t step, int64_t warmup, int64_t total, double max_lr, double min_lr);

}  // namespace mf::optim
