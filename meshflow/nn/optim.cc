// Copyright 2026 The meshflow Authors.
#include "meshflow/nn/optim.h"
#include "meshflow/nn/zero.h"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "meshflow/device/device.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/optimizer_math.h"
#include "meshflow/vm/vm.h"

namespace mf::optim {
namespace {

void check_params(const std::vector<Var>& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i].defined() || !params[i].is_leaf() ||
        !(is_floating(params[i].dtype()) || is_complex(params[i].dtype()))) {
      throw std::invalid_argument("optimizer parameter " + std::to_string(i) +
                                  " is not a floating or complex leaf tensor; expected parameters (leaves that "
                                  "require grad)");
    }
  }
}

void check_state_size(size_t got, size_t params) {
  if (got != params) {
    throw std::invalid_argument("optimizer state has " + std::to_string(got) + " entries; expected one per parameter (" +
                                std::to_string(params) + ")");
  }
}

// The full value of a Var, on every rank, in host memory (read here).
Tensor local_value(const Var& v) {
  return vm::copy_to(v.is_global() ? gather_full(v.global()) : v.local(), device::cpu());
}

// The value of a one-element Var as a double, on every rank.
double scalar_value(const Var& v) {
  const Tensor t = local_value(v);
  if (is_half(t.dtype())) {
    return visit_half(t.dtype(), [&](auto h) { return static_cast<double>(to_float(*t.data_as<decltype(h)>())); });
  }
  return visit_dtype(t.dtype(), [&](auto x) { return static_cast<double>(*t.data_as<decltype(x)>()); });
}

// A host scalar of `value` (float32 or float64) made at the call through vm::made_here: in a
// job of several ranks an out of memory fails it, raised at the next read on every rank, not
// here on this rank alone.
template <typename T>
Tensor host_scalar(T value) {
  const DType dtype = std::is_same_v<T, float> ? DType::kFloat32 : DType::kFloat64;
  return vm::made_here("scalar", {{}, dtype}, host_memory(), [&] {
    Tensor t = Tensor::empty({}, dtype);
    *t.data_as<T>() = value;
    return t;
  });
}

}  // namespace

Optimizer::Optimizer(std::string name, GroupOptions defaults)
    : name_(std::move(name)), defaults_(std::move(defaults)) {}

void Optimizer::zero_grad() {
  for (Var& p : params_) p.set_grad(Var());
}

void Optimizer::add_param_group(std::vector<Var> params, const GroupOptions& options) {
  check_params(params);
  GroupOptions group = defaults_;
  for (const auto& [key, value] : options) {
    if (!defaults_.count(key)) {
      throw std::invalid_argument(name_ + ": unknown option \"" + key + "\" in a parameter group");
    }
    group[key] = value;
  }
  check_options(group);
  std::set<const VarImpl*> seen;
  for (const Var& p : params_) seen.insert(p.id());
  for (const Var& p : params) {
    if (!seen.insert(p.id()).second) {
      throw std::invalid_argument(name_ + ": some parameters appear in more than one parameter group");
    }
  }
  groups_.push_back(std::move(group));
  for (Var& p : params) {
    params_.push_back(std::move(p));
    group_of_.push_back(groups_.size() - 1);
    shard_layout_.emplace_back();
    shard_param(params_.size() - 1);
  }
  params_added();
}

namespace {

// A copy of `v` in memory of its own (a cast always makes one): of a shard, which as a slice
// would be a view holding the whole tensor.
Var own_copy(const Var& v) {
  NoGradGuard no_grad;
  return call1("cast", {v.detach()}, {{"dtype", v.dtype()}});
}

// A global parameter's layout split on each mesh axis of size > 1 among `axes` (empty: all)
// where it is broadcast; unset when there is none (a local or 0-dim parameter, or one split everywhere). The split
// is along the first dimension no other axis splits (0 unless tensor parallelism splits it),
// so the shard is a local slice of the parameter: a column-parallel (B, S(0)) weight shards
// as (S(1), S(0)), where (S(0), S(0)) would nest the data split outside the model split
// and move data to convert.
std::optional<boxing::Layout> shard_layout(const Var& p, const std::vector<int>& axes) {
  if (!p.is_global() || p.shape().empty()) return std::nullopt;
  boxing::Layout layout = p.global().layout();
  const int mesh_axes = static_cast<int>(layout.nd_sbp.size());
  for (int axis : axes) {
    if (axis < 0 || axis >= mesh_axes) {
      throw std::invalid_argument("shard_parameter: mesh axis " + std::to_string(axis) + " is outside the " +
                                  "parameter's mesh of " + std::to_string(mesh_axes) + " axes");
    }
  }
  const auto named = [&](size_t axis) {
    return axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int>(axis)) != axes.end();
  };
  std::set<int> taken;
  for (const Sbp& s : layout.nd_sbp) {
    if (s.is_split()) taken.insert(s.split_dim());
  }
  int dim = 0;
  while (dim < static_cast<int>(p.shape().size()) && taken.count(dim)) ++dim;
  if (dim == static_cast<int>(p.shape().size())) dim = 0;
  bool sharded = false;
  for (size_t axis = 0; axis < layout.nd_sbp.size(); ++axis) {
    if (named(axis) && layout.nd_sbp[axis].is_broadcast() && layout.placement.hierarchy()[axis] > 1) {
      layout.nd_sbp[axis] = Sbp::split(dim);
      sharded = true;
    }
  }
  return sharded ? std::optional<boxing::Layout>(layout) : std::nullopt;
}

Var in_layout(const Var& v, const boxing::Layout& layout) {
  if (v.is_global() && v.global().layout() == layout) return v;
  return to_global(v, layout.placement, layout.nd_sbp, false);
}

}  // namespace

void Optimizer::set_zero_stage(int stage) {
  if (stage < 0 || stage > 3) {
    throw std::invalid_argument(name_ + ": zero_stage must be 0, 1, 2 or 3; got " + std::to_string(stage));
  }
  if (stage == zero_stage_) return;
  if (zero_stage_ != 0 || steps_ > 0 || holds_state()) {
    throw std::invalid_argument(name_ + ": the ZeRO stage is set once, before the first step and before loading "
                                        "state; make a new optimizer (its state_dict loads into any stage)");
  }
  zero_stage_ = stage;
  for (size_t i = 0; i < params_.size(); ++i) shard_param(i);
}

bool Optimizer::holds_state() const {
  const std::vector<std::map<std::string, Var>> held = state();
  return std::any_of(held.begin(), held.end(), [](const auto& s) { return !s.empty(); });
}

std::optional<boxing::Layout> shard_parameter(Var& p, int stage, const std::vector<int>& axes) {
  std::optional<boxing::Layout> shard = stage > 0 ? shard_layout(p, axes) : std::nullopt;
  if (!shard) return shard;
  if (stage >= 2) p.set_grad_layout(shard);
  if (stage == 3) {
    NoGradGuard no_grad;
    const boxing::Layout use = p.global().layout();
    // A copy: the slice alone would be a view keeping the whole parameter alive.
    p.set_data(own_copy(in_layout(p.detach(), *shard)));
    p.set_use_layout(use);
  }
  return shard;
}

// Parameter i's layouts for the stage: its gradient's (stage 2), its storage (stage 3).
void Optimizer::shard_param(size_t i) { shard_layout_[i] = shard_parameter(params_[i], zero_stage_); }

Var Optimizer::in_update_layout(size_t i, const Var& v) const {
  return shard_layout_[i] ? in_layout(v, *shard_layout_[i]) : v;
}

Var Optimizer::loaded_state(size_t i, const Var& v) const {
  const Var in_layout = in_update_layout(i, v);
  return in_layout.same(v) && !v.requires_grad() ? v : own_copy(in_layout);
}

Var Optimizer::state_zeros(size_t i, double value) const {
  if (!shard_layout_[i]) return value == 0 ? fn::zeros_like(params_[i]) : fn::full_like(params_[i], value);
  Constraints c;
  c.placement = shard_layout_[i]->placement;
  c.outputs = {shard_layout_[i]->nd_sbp};
  const Var& p = params_[i];
  return call1("full", {}, Attrs{{"shape", p.shape()}, {"dtype", p.dtype()}, {"value", value}}, c);
}

void Optimizer::commit_param(size_t i, const Var& updated) {
  Var& p = params_[i];
  p.set_data_in_place(p.is_global() ? in_layout(updated, p.global().layout()) : updated);
}

void Optimizer::commit_state(Var& state, const Var& updated) {
  if (state.defined()) {
    state.set_data(updated);
  } else {
    state = updated;
  }
}

std::vector<std::vector<size_t>> Optimizer::update_batches(const std::function<bool(size_t, size_t)>& alike) const {
  auto same_layout = [this](size_t i, size_t j) {
    const Var &a = params_[i], &b = params_[j];
    if (a.dtype() != b.dtype() || a.is_global() != b.is_global()) return false;
    if (!a.is_global()) return &a.local().memory() == &b.local().memory();
    return a.global().placement() == b.global().placement() && a.global().nd_sbp() == b.global().nd_sbp();
  };
  std::vector<std::vector<size_t>> batches;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].grad().defined()) continue;
    auto joins = [&](const std::vector<size_t>& batch) {
      const size_t j = batch[0];
      return group_of_[i] == group_of_[j] && !shard_layout_[i] && !shard_layout_[j] && alike(i, j) && same_layout(i, j);
    };
    const auto it = std::find_if(batches.begin(), batches.end(), joins);
    if (it == batches.end()) {
      batches.push_back({i});
    } else {
      it->push_back(i);
    }
  }
  return batches;
}

namespace {

// An update call's attributes for a batch of k tensors.
Attrs for_tensors(Attrs attrs, size_t k) {
  if (k > 1) attrs.set("tensors", static_cast<int64_t>(k));
  return attrs;
}

// An update call's inputs for a batch of parameters, role by role (the update ops'
// "tensors"): the parameters, their gradients (both through `layout`: the update layout), then
// each of `states`' tensors for the batch's parameters.
template <typename Layout>
std::vector<Var> update_inputs(const std::vector<size_t>& batch, const std::vector<Var>& params, const Layout& layout,
                               const std::vector<const std::vector<Var>*>& states) {
  std::vector<Var> inputs;
  for (size_t p : batch) inputs.push_back(layout(p, params[p]));
  for (size_t p : batch) inputs.push_back(layout(p, params[p].grad()));
  for (const std::vector<Var>* state : states) {
    for (size_t p : batch) inputs.push_back((*state)[p]);
  }
  return inputs;
}

// The in-place map of an update of k tensors whose outputs are its inputs but the gradients:
// output role r (of `roles`) over input role 0 (the parameters) or r + 1 (a state).
std::vector<int> over_inputs_but_gradients(size_t roles, size_t k) {
  std::vector<int> overwrite;
  for (size_t r = 0; r < roles; ++r) {
    for (size_t t = 0; t < k; ++t) overwrite.push_back(static_cast<int>((r == 0 ? 0 : r + 1) * k + t));
  }
  return overwrite;
}

}  // namespace

void take_zero_stage(Optimizer& optimizer, int stage, const std::string& what) {
  if (stage == 0 || optimizer.zero_stage() == stage) return;
  if (optimizer.zero_stage() != 0) {
    throw std::invalid_argument(what + "(stage=" + std::to_string(stage) + "): an optimizer of the graph has zero_stage " +
                                std::to_string(optimizer.zero_stage()) + "; expected the same stage, or none");
  }
  optimizer.set_zero_stage(stage);
}

std::vector<Var> Optimizer::group_params(size_t g) const {
  if (g >= groups_.size()) throw std::out_of_range(name_ + ": no parameter group " + std::to_string(g));
  std::vector<Var> out;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (group_of_[i] == g) out.push_back(params_[i]);
  }
  return out;
}

void Optimizer::set_group_option(size_t g, const std::string& name, double value) {
  if (g >= groups_.size()) throw std::out_of_range(name_ + ": no parameter group " + std::to_string(g));
  if (!defaults_.count(name)) throw std::invalid_argument(name_ + ": unknown option \"" + name + "\"");
  GroupOptions group = groups_[g];
  group[name] = value;
  // As in torch, a learning rate is held to be non-negative only when the optimizer is made:
  // a schedule may take it below zero later (OneCycleLR's linear end, stepped once past its
  // last step), and the step applies it as it is.
  GroupOptions checked = group;
  if (name == "lr") checked[name] = std::abs(value);
  check_options(checked);
  groups_[g] = std::move(group);
}

void Optimizer::set_lr(double lr) {
  for (size_t g = 0; g < groups_.size(); ++g) set_group_option(g, "lr", lr);
}

namespace {

GroupOptions sgd_defaults(const SgdOptions& o) {
  return {{"lr", o.lr},
          {"momentum", o.momentum},
          {"dampening", o.dampening},
          {"weight_decay", o.weight_decay},
          {"nesterov", o.nesterov ? 1.0 : 0.0},
          {"maximize", o.maximize ? 1.0 : 0.0}};
}

GroupOptions rmsprop_defaults(const RmspropOptions& o) {
  return {{"lr", o.lr},
          {"alpha", o.alpha},
          {"eps", o.eps},
          {"weight_decay", o.weight_decay},
          {"momentum", o.momentum},
          {"centered", o.centered ? 1.0 : 0.0},
          {"maximize", o.maximize ? 1.0 : 0.0}};
}

GroupOptions adagrad_defaults(const AdagradOptions& o) {
  return {{"lr", o.lr},
          {"lr_decay", o.lr_decay},
          {"weight_decay", o.weight_decay},
          {"initial_accumulator_value", o.initial_accumulator_value},
          {"eps", o.eps},
          {"maximize", o.maximize ? 1.0 : 0.0}};
}

GroupOptions adam_defaults(const AdamWOptions& o) {
  return {{"lr", o.lr},
          {"beta1", o.beta1},
          {"beta2", o.beta2},
          {"eps", o.eps},
          {"weight_decay", o.weight_decay},
          {"amsgrad", o.amsgrad ? 1.0 : 0.0},
          {"maximize", o.maximize ? 1.0 : 0.0}};
}

}  // namespace

SGD::SGD(std::vector<Var> params, SgdOptions options)
    : SGD(std::vector<ParamGroup>{{std::move(params), {}}}, options) {}

SGD::SGD(std::vector<ParamGroup> groups, SgdOptions defaults) : Optimizer("SGD", sgd_defaults(defaults)) {
  check_options(defaults_);
  for (ParamGroup& g : groups) add_param_group(std::move(g.params), g.options);
}

void SGD::check_options(const GroupOptions& o) const {
  if (!(o.at("lr") >= 0) || !(o.at("momentum") >= 0) || !(o.at("weight_decay") >= 0)) {
    throw std::invalid_argument("SGD: lr, momentum and weight_decay must be >= 0");
  }
  if (o.at("nesterov") != 0 && (o.at("momentum") <= 0 || o.at("dampening") != 0)) {
    throw std::invalid_argument("SGD: nesterov momentum needs momentum > 0 and dampening 0");
  }
}

void SGD::step() {
  NoGradGuard no_grad;
  ++steps_;
  const auto batches =
      update_batches([this](size_t i, size_t j) { return momentum_[i].defined() == momentum_[j].defined(); });
  for (const std::vector<size_t>& batch : batches) {
    const size_t i = batch[0], k = batch.size();
    const bool has_buf = momentum_[i].defined();
    const std::vector<Var> inputs =
        update_inputs(batch, params_, [this](size_t p, const Var& v) { return in_update_layout(p, v); },
                      has_buf ? std::vector<const std::vector<Var>*>{&momentum_} : std::vector<const std::vector<Var>*>{});
    RunTimeAttrs run_time([this, i, has_buf, k] { return for_tensors(update_attrs(i, has_buf), k); });
    // In place: the parameters, and the buffers when there are some (the first step makes them).
    std::vector<int> overwrite;
    for (size_t t = 0; t < k; ++t) overwrite.push_back(static_cast<int>(t));
    if (option(i, "momentum") != 0) {
      for (size_t t = 0; t < k; ++t) overwrite.push_back(has_buf ? static_cast<int>(2 * k + t) : -1);
    }
    const std::vector<Var> out =
        update_in_place("sgd_update", inputs, for_tensors(update_attrs(i, has_buf), k), overwrite);
    for (size_t t = 0; t < k; ++t) {
      commit_param(batch[t], out[t]);
      if (out.size() > k) commit_state(momentum_[batch[t]], out[k + t]);
    }
  }
}

Attrs SGD::update_attrs(size_t i, bool has_buf) const {
  return Attrs{{"lr", option(i, "lr")},
               {"momentum", option(i, "momentum")},
               {"dampening", option(i, "dampening")},
               {"weight_decay", option(i, "weight_decay")},
               {"nesterov", option(i, "nesterov") != 0},
               {"has_buf", has_buf},
               {"maximize", option(i, "maximize") != 0}};
}

std::vector<Var*> SGD::graph_state() {
  std::vector<Var*> slots;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (option(i, "momentum") == 0) continue;
    if (!momentum_[i].defined()) {
      // A first step sets the buffer to the gradient; updating a zero buffer gives the same
      // only without dampening.
      if (option(i, "dampening") != 0) {
        throw std::invalid_argument("SGD with dampening in graph mode needs its momentum buffers: take one eager "
                                    "step first, or load them");
      }
      NoGradGuard no_grad;
      momentum_[i] = state_zeros(i);
    }
    slots.push_back(&momentum_[i]);
  }
  return slots;
}

std::vector<std::map<std::string, Var>> SGD::state() const {
  std::vector<std::map<std::string, Var>> state(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    if (momentum_[i].defined()) state[i]["momentum_buffer"] = momentum_[i];
  }
  return state;
}

void SGD::load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) {
  check_state_size(state.size(), params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    auto it = state[i].find("momentum_buffer");
    momentum_[i] = it == state[i].end() ? Var() : loaded_state(i, it->second);
  }
  steps_ = step_count;
}

AdamW::AdamW(std::vector<Var> params, AdamWOptions options)
    : AdamW(std::vector<ParamGroup>{{std::move(params), {}}}, options) {}

AdamW::AdamW(std::vector<ParamGroup> groups, AdamWOptions defaults)
    : AdamW("AdamW", "adamw_update", std::move(groups), defaults) {}

AdamW::AdamW(std::string name, std::string op, std::vector<ParamGroup> groups, AdamWOptions defaults)
    : PerParamStepsOptimizer(std::move(name), adam_defaults(defaults)), op_(std::move(op)) {
  check_options(defaults_);
  for (ParamGroup& g : groups) add_param_group(std::move(g.params), g.options);
}

void AdamW::check_options(const GroupOptions& o) const {
  const double beta1 = o.at("beta1"), beta2 = o.at("beta2");
  if (!(o.at("lr") >= 0) || !(o.at("eps") >= 0) || !(o.at("weight_decay") >= 0) || !(beta1 >= 0) || beta1 >= 1 ||
      !(beta2 >= 0) || beta2 >= 1) {
    throw std::invalid_argument(name_ + ": expected lr, eps, weight_decay >= 0 and betas in [0, 1)");
  }
}

void AdamW::params_added() {
  PerParamStepsOptimizer::params_added();
  exp_avg_.resize(params_.size());
  exp_avg_sq_.resize(params_.size());
  max_exp_avg_sq_.resize(params_.size());
}

Adam::Adam(std::vector<Var> params, AdamWOptions options)
    : Adam(std::vector<ParamGroup>{{std::move(params), {}}}, options) {}

Adam::Adam(std::vector<ParamGroup> groups, AdamWOptions defaults)
    : AdamW("Adam", "adam_update", std::move(groups), defaults) {}

void AdamW::step() {
  NoGradGuard no_grad;
  count_steps([this](size_t i) {
    if (!exp_avg_[i].defined()) {
      exp_avg_[i] = state_zeros(i);
      exp_avg_sq_[i] = state_zeros(i);
    }
    if (option(i, "amsgrad") != 0 && !max_exp_avg_sq_[i].defined()) max_exp_avg_sq_[i] = state_zeros(i);
  });
  const auto batches = update_batches([this](size_t i, size_t j) { return param_steps_[i] == param_steps_[j]; });
  for (const std::vector<size_t>& batch : batches) {
    const size_t i = batch[0], k = batch.size();
    const bool amsgrad = option(i, "amsgrad") != 0;
    std::vector<const std::vector<Var>*> states{&exp_avg_, &exp_avg_sq_};
    if (amsgrad) states.push_back(&max_exp_avg_sq_);
    const std::vector<Var> inputs =
        update_inputs(batch, params_, [this](size_t p, const Var& v) { return in_update_layout(p, v); }, states);
    RunTimeAttrs run_time([this, i, k] { return for_tensors(update_attrs(i), k); });
    // In place: each output over its input (the gradients are read only).
    const std::vector<Var> out = update_in_place(op_, inputs, for_tensors(update_attrs(i), k),
                                                 over_inputs_but_gradients(1 + states.size(), k));
    for (size_t t = 0; t < k; ++t) {
      const size_t p = batch[t];
      commit_param(p, out[t]);
      commit_state(exp_avg_[p], out[k + t]);
      commit_state(exp_avg_sq_[p], out[2 * k + t]);
      if (amsgrad) commit_state(max_exp_avg_sq_[p], out[3 * k + t]);
    }
  }
}

// Bias correction counts each parameter's own steps, as torch does.
Attrs AdamW::update_attrs(size_t i) const {
  return Attrs{{"lr", option(i, "lr")},
               {"beta1", option(i, "beta1")},
               {"beta2", option(i, "beta2")},
               {"eps", option(i, "eps")},
               {"weight_decay", option(i, "weight_decay")},
               {"step", param_steps_[i]},
               {"amsgrad", option(i, "amsgrad") != 0},
               {"maximize", option(i, "maximize") != 0}};
}

std::vector<Var*> AdamW::graph_state() {
  NoGradGuard no_grad;
  std::vector<Var*> slots;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!exp_avg_[i].defined()) {
      exp_avg_[i] = state_zeros(i);
      exp_avg_sq_[i] = state_zeros(i);
    }
    slots.push_back(&exp_avg_[i]);
    slots.push_back(&exp_avg_sq_[i]);
    if (option(i, "amsgrad") != 0) {
      if (!max_exp_avg_sq_[i].defined()) max_exp_avg_sq_[i] = fn::zeros_like(params_[i]);
      slots.push_back(&max_exp_avg_sq_[i]);
    }
  }
  return slots;
}

std::vector<int64_t> PerParamStepsOptimizer::counters() const {
  std::vector<int64_t> c{steps_};
  c.insert(c.end(), param_steps_.begin(), param_steps_.end());
  return c;
}

void PerParamStepsOptimizer::set_counters(const std::vector<int64_t>& counters) {
  check_state_size(counters.size() - 1, params_.size());
  steps_ = counters[0];
  std::copy(counters.begin() + 1, counters.end(), param_steps_.begin());
  for (size_t i = 0; i < params_.size(); ++i) publish_step(i);
}

// As step() counts: a graph steps every parameter that had a gradient when it was traced,
// and the others' counts are read by no update.
void PerParamStepsOptimizer::count_step() {
  ++steps_;
  for (size_t i = 0; i < params_.size(); ++i) advance_step(i);
}

std::vector<size_t> PerParamStepsOptimizer::count_steps(const std::function<void(size_t)>& make_state) {
  ++steps_;
  std::vector<size_t> stepped;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].grad().defined()) continue;
    make_state(i);
    advance_step(i);
    stepped.push_back(i);
  }
  return stepped;
}

Var PerParamStepsOptimizer::step_state(size_t i) const {
  Var& step = step_tensors_.at(i);
  if (!step.defined()) step = Var(host_scalar(static_cast<float>(param_steps_[i])));  // torch's: float32
  return step;
}

void PerParamStepsOptimizer::publish_step(size_t i) {
  if (step_tensors_[i].defined()) step_tensors_[i].set_data(Var(host_scalar(static_cast<float>(param_steps_[i]))));
}

void PerParamStepsOptimizer::advance_step(size_t i) {
  const Var& step = step_tensors_.at(i);
  if (step.defined()) param_steps_[i] = static_cast<int64_t>(scalar_value(step));
  ++param_steps_[i];
  publish_step(i);
}

void PerParamStepsOptimizer::load_param_steps(size_t i, const std::map<std::string, Var>& state) {
  auto step = state.find("step");
  // Of any dtype: torch saves it as a float32 tensor, meshflow as int64.
  param_steps_[i] = step == state.end() ? 0 : static_cast<int64_t>(scalar_value(step->second));
  const bool kept = step != state.end() && !step->second.is_global() && step->second.shape().empty() &&
                    step->second.dtype() == DType::kFloat32 && !step->second.requires_grad();
  step_tensors_[i] = kept ? step->second : Var();
  publish_step(i);
}

std::vector<std::map<std::string, Var>> AdamW::state() const {
  std::vector<std::map<std::string, Var>> state(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!exp_avg_[i].defined()) continue;
    state[i]["exp_avg"] = exp_avg_[i];
    state[i]["exp_avg_sq"] = exp_avg_sq_[i];
    if (max_exp_avg_sq_[i].defined()) state[i]["max_exp_avg_sq"] = max_exp_avg_sq_[i];
    state[i]["step"] = step_state(i);
  }
  return state;
}

void AdamW::load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) {
  check_state_size(state.size(), params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    auto avg = state[i].find("exp_avg"), sq = state[i].find("exp_avg_sq");
    const bool has = avg != state[i].end() && sq != state[i].end();
    exp_avg_[i] = has ? loaded_state(i, avg->second) : Var();
    exp_avg_sq_[i] = has ? loaded_state(i, sq->second) : Var();
    auto max_sq = state[i].find("max_exp_avg_sq");
    max_exp_avg_sq_[i] = has && max_sq != state[i].end() ? loaded_state(i, max_sq->second) : Var();
    load_param_steps(i, state[i]);
  }
  steps_ = step_count;
}

RMSprop::RMSprop(std::vector<ParamGroup> groups, RmspropOptions defaults)
    : PerParamStepsOptimizer("RMSprop", rmsprop_defaults(defaults)) {
  check_options(defaults_);
  for (ParamGroup& g : groups) add_param_group(std::move(g.params), g.options);
}

void RMSprop::check_options(const GroupOptions& o) const {
  if (!(o.at("lr") >= 0) || !(o.at("alpha") >= 0) || !(o.at("eps") >= 0) || !(o.at("weight_decay") >= 0) ||
      !(o.at("momentum") >= 0)) {
    throw std::invalid_argument("RMSprop: expected lr, alpha, eps, weight_decay and momentum >= 0");
  }
}

void RMSprop::params_added() {
  PerParamStepsOptimizer::params_added();
  square_avg_.resize(params_.size());
  grad_avg_.resize(params_.size());
  momentum_.resize(params_.size());
}

void RMSprop::make_state(size_t i) {
  if (!square_avg_[i].defined()) square_avg_[i] = state_zeros(i);
  if (option(i, "centered") != 0 && !grad_avg_[i].defined()) grad_avg_[i] = state_zeros(i);
  if (option(i, "momentum") != 0 && !momentum_[i].defined()) momentum_[i] = state_zeros(i);
}

void RMSprop::step() {
  NoGradGuard no_grad;
  count_steps([this](size_t i) { make_state(i); });
  // The update reads no step count: parameters of a group step together.
  const auto batches = update_batches([](size_t, size_t) { return true; });
  for (const std::vector<size_t>& batch : batches) {
    const size_t i = batch[0], k = batch.size();
    const bool centered = option(i, "centered") != 0, with_momentum = option(i, "momentum") != 0;
    std::vector<const std::vector<Var>*> states{&square_avg_};
    if (centered) states.push_back(&grad_avg_);
    if (with_momentum) states.push_back(&momentum_);
    const std::vector<Var> inputs =
        update_inputs(batch, params_, [this](size_t p, const Var& v) { return in_update_layout(p, v); }, states);
    RunTimeAttrs run_time([this, i, k] { return for_tensors(update_attrs(i), k); });
    const std::vector<Var> out = update_in_place("rmsprop_update", inputs, for_tensors(update_attrs(i), k),
                                                 over_inputs_but_gradients(1 + states.size(), k));
    for (size_t t = 0; t < k; ++t) {
      const size_t p = batch[t];
      commit_param(p, out[t]);
      commit_state(square_avg_[p], out[k + t]);
      if (centered) commit_state(grad_avg_[p], out[2 * k + t]);
      if (with_momentum) commit_state(momentum_[p], out[(centered ? 3 : 2) * k + t]);
    }
  }
}

Attrs RMSprop::update_attrs(size_t i) const {
  return Attrs{{"lr", option(i, "lr")},
               {"alpha", option(i, "alpha")},
               {"eps", option(i, "eps")},
               {"weight_decay", option(i, "weight_decay")},
               {"momentum", option(i, "momentum")},
               {"centered", option(i, "centered") != 0},
               {"maximize", option(i, "maximize") != 0}};
}

// Every slot a first step would make (zeros, as torch's first step starts from).
std::vector<Var*> RMSprop::graph_state() {
  NoGradGuard no_grad;
  std::vector<Var*> slots;
  for (size_t i = 0; i < params_.size(); ++i) {
    make_state(i);
    for (std::vector<Var>* slot : {&square_avg_, &grad_avg_, &momentum_}) {
      if ((*slot)[i].defined()) slots.push_back(&(*slot)[i]);
    }
  }
  return slots;
}

std::vector<std::map<std::string, Var>> RMSprop::state() const {
  std::vector<std::map<std::string, Var>> state(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!square_avg_[i].defined()) continue;
    state[i]["square_avg"] = square_avg_[i];
    if (grad_avg_[i].defined()) state[i]["grad_avg"] = grad_avg_[i];
    if (momentum_[i].defined()) state[i]["momentum_buffer"] = momentum_[i];
    state[i]["step"] = step_state(i);
  }
  return state;
}

void RMSprop::load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) {
  check_state_size(state.size(), params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    auto load = [&](const char* key) {
      auto it = state[i].find(key);
      return it == state[i].end() ? Var() : loaded_state(i, it->second);
    };
    square_avg_[i] = load("square_avg");
    grad_avg_[i] = load("grad_avg");
    momentum_[i] = load("momentum_buffer");
    load_param_steps(i, state[i]);
  }
  steps_ = step_count;
}

Adagrad::Adagrad(std::vector<ParamGroup> groups, AdagradOptions defaults)
    : PerParamStepsOptimizer("Adagrad", adagrad_defaults(defaults)) {
  check_options(defaults_);
  for (ParamGroup& g : groups) add_param_group(std::move(g.params), g.options);
}

void Adagrad::check_options(const GroupOptions& o) const {
  if (!(o.at("lr") >= 0) || !(o.at("lr_decay") >= 0) || !(o.at("weight_decay") >= 0) ||
      !(o.at("initial_accumulator_value") >= 0) || !(o.at("eps") >= 0)) {
    throw std::invalid_argument(
        "Adagrad: expected lr, lr_decay, weight_decay, initial_accumulator_value and eps >= 0");
  }
}

void Adagrad::params_added() {
  PerParamStepsOptimizer::params_added();
  sum_.resize(params_.size());
}

void Adagrad::make_state(size_t i) {
  if (!sum_[i].defined()) sum_[i] = state_zeros(i, option(i, "initial_accumulator_value"));
}

void Adagrad::step() {
  NoGradGuard no_grad;
  count_steps([this](size_t i) { make_state(i); });
  // The learning rate decays with each parameter's own steps (torch's), so parameters step
  // together only where they took as many.
  const auto batches = update_batches([this](size_t i, size_t j) { return param_steps_[i] == param_steps_[j]; });
  for (const std::vector<size_t>& batch : batches) {
    const size_t i = batch[0], k = batch.size();
    const std::vector<Var> inputs =
        update_inputs(batch, params_, [this](size_t p, const Var& v) { return in_update_layout(p, v); }, {&sum_});
    RunTimeAttrs run_time([this, i, k] { return for_tensors(update_attrs(i), k); });
    const std::vector<Var> out = update_in_place("adagrad_update", inputs, for_tensors(update_attrs(i), k),
                                                 over_inputs_but_gradients(2, k));
    for (size_t t = 0; t < k; ++t) {
      commit_param(batch[t], out[t]);
      commit_state(sum_[batch[t]], out[k + t]);
    }
  }
}

Attrs Adagrad::update_attrs(size_t i) const {
  return Attrs{{"lr", option(i, "lr")},
               {"lr_decay", option(i, "lr_decay")},
               {"eps", option(i, "eps")},
               {"weight_decay", option(i, "weight_decay")},
               {"step", param_steps_[i]},
               {"maximize", option(i, "maximize") != 0}};
}

std::vector<Var*> Adagrad::graph_state() {
  NoGradGuard no_grad;
  std::vector<Var*> slots;
  for (size_t i = 0; i < params_.size(); ++i) {
    make_state(i);
    slots.push_back(&sum_[i]);
  }
  return slots;
}

// state() lists a sum for every parameter from construction (torch's); only a kept one is held.
bool Adagrad::holds_state() const {
  return std::any_of(sum_.begin(), sum_.end(), [](const Var& s) { return s.defined(); });
}

std::vector<std::map<std::string, Var>> Adagrad::state() const {
  std::vector<std::map<std::string, Var>> state(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    state[i]["sum"] = sum_[i].defined() ? sum_[i] : state_zeros(i, option(i, "initial_accumulator_value"));
    state[i]["step"] = step_state(i);
  }
  return state;
}

void Adagrad::load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) {
  check_state_size(state.size(), params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    auto it = state[i].find("sum");
    sum_[i] = it == state[i].end() ? Var() : loaded_state(i, it->second);
    load_param_steps(i, state[i]);
  }
  steps_ = step_count;
}

RuleOptimizer::RuleOptimizer(std::string name, std::string op, std::vector<std::string> tensors,
                             std::vector<std::string> scalars, GroupOptions defaults, const GroupOptions& given)
    : PerParamStepsOptimizer(std::move(name), std::move(defaults)),
      op_(std::move(op)),
      tensor_keys_(std::move(tensors)),
      scalar_keys_(std::move(scalars)),
      tensors_(tensor_keys_.size()) {
  for (const auto& [key, value] : given) {
    if (!defaults_.count(key)) throw std::invalid_argument(name_ + ": unknown option \"" + key + "\"");
    defaults_[key] = value;
  }
}

void RuleOptimizer::add_groups(std::vector<ParamGroup> groups) {
  check_options(defaults_);
  for (ParamGroup& g : groups) add_param_group(std::move(g.params), g.options);
}

void RuleOptimizer::expect(bool ok, const std::string& what) const {
  if (!ok) throw std::invalid_argument(name_ + ": " + what);
}

double RuleOptimizer::initial_value(size_t, size_t) const { return 0; }

std::vector<float> RuleOptimizer::initial_scalars(size_t) const { return {}; }

std::vector<std::pair<std::string, double>> RuleOptimizer::advance(size_t, std::vector<float>&) const { return {}; }

void RuleOptimizer::params_added() {
  PerParamStepsOptimizer::params_added();
  for (std::vector<Var>& slot : tensors_) slot.resize(params_.size());
  scalars_.resize(params_.size());
  step_attrs_.resize(params_.size());
}

void RuleOptimizer::make_state(size_t i) {
  if (tensors_[0][i].defined()) return;
  for (size_t s = 0; s < tensors_.size(); ++s) tensors_[s][i] = state_zeros(i, initial_value(i, s));
  scalars_[i] = initial_scalars(i);
}

void RuleOptimizer::advance_param(size_t i) {
  if (tensors_[0][i].defined()) step_attrs_[i] = advance(i, scalars_[i]);
}

void RuleOptimizer::step() {
  NoGradGuard no_grad;
  const std::vector<size_t> stepped = count_steps([this](size_t i) { make_state(i); });
  for (size_t i : stepped) advance_param(i);
  const auto batches = update_batches([this](size_t i, size_t j) {
    return param_steps_[i] == param_steps_[j] && step_attrs_[i] == step_attrs_[j];
  });
  std::vector<const std::vector<Var>*> states;
  for (const std::vector<Var>& slot : tensors_) states.push_back(&slot);
  for (const std::vector<size_t>& batch : batches) {
    const size_t i = batch[0], k = batch.size();
    const std::vector<Var> inputs =
        update_inputs(batch, params_, [this](size_t p, const Var& v) { return in_update_layout(p, v); }, states);
    RunTimeAttrs run_time([this, i, k] { return for_tensors(update_attrs(i), k); });
    const std::vector<Var> out = update_in_place(op_, inputs, for_tensors(update_attrs(i), k),
                                                 over_inputs_but_gradients(1 + tensors_.size(), k));
    for (size_t t = 0; t < k; ++t) {
      commit_param(batch[t], out[t]);
      for (size_t s = 0; s < tensors_.size(); ++s) commit_state(tensors_[s][batch[t]], out[(s + 1) * k + t]);
    }
  }
}

Attrs RuleOptimizer::update_attrs(size_t i) const {
  Attrs attrs;
  for (const auto& [key, value] : groups_[group_of_[i]]) attrs.set(key, value);
  attrs.set("step", param_steps_[i]);
  for (const auto& [key, value] : step_attrs_[i]) attrs.set(key, value);
  return attrs;
}

std::vector<Var*> RuleOptimizer::graph_state() {
  NoGradGuard no_grad;
  std::vector<Var*> slots;
  for (size_t i = 0; i < params_.size(); ++i) {
    make_state(i);
    for (std::vector<Var>& slot : tensors_) slots.push_back(&slot[i]);
  }
  return slots;
}

std::vector<int64_t> RuleOptimizer::counters() const {
  std::vector<int64_t> c = PerParamStepsOptimizer::counters();
  for (const std::vector<float>& scalars : scalars_) {
    for (float v : scalars) {
      uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      c.push_back(bits);
    }
  }
  return c;
}

void RuleOptimizer::set_counters(const std::vector<int64_t>& counters) {
  size_t at = 1 + params_.size();
  PerParamStepsOptimizer::set_counters(std::vector<int64_t>(counters.begin(), counters.begin() + at));
  for (std::vector<float>& scalars : scalars_) {
    for (float& v : scalars) {
      const auto bits = static_cast<uint32_t>(counters.at(at++));
      std::memcpy(&v, &bits, sizeof v);
    }
  }
}

void RuleOptimizer::count_step() {
  PerParamStepsOptimizer::count_step();
  for (size_t i = 0; i < params_.size(); ++i) advance_param(i);
}

std::vector<std::map<std::string, Var>> RuleOptimizer::state() const {
  std::vector<std::map<std::string, Var>> state(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!tensors_[0][i].defined()) continue;
    for (size_t s = 0; s < tensors_.size(); ++s) state[i][tensor_keys_[s]] = tensors_[s][i];
    for (size_t s = 0; s < scalar_keys_.size(); ++s) state[i][scalar_keys_[s]] = Var(host_scalar(scalars_[i][s]));
    state[i]["step"] = step_state(i);
  }
  return state;
}

void RuleOptimizer::load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) {
  check_state_size(state.size(), params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    const std::map<std::string, Var>& entries = state[i];
    const bool has = std::all_of(tensor_keys_.begin(), tensor_keys_.end(),
                                 [&](const std::string& key) { return entries.count(key) > 0; });
    for (size_t s = 0; s < tensors_.size(); ++s) {
      tensors_[s][i] = has ? loaded_state(i, entries.at(tensor_keys_[s])) : Var();
    }
    scalars_[i] = has ? initial_scalars(i) : std::vector<float>{};
    for (size_t s = 0; has && s < scalar_keys_.size(); ++s) {
      auto it = entries.find(scalar_keys_[s]);
      if (it != entries.end()) scalars_[i][s] = static_cast<float>(scalar_value(it->second));
    }
    load_param_steps(i, entries);
  }
  steps_ = step_count;
}

// The checks torch's optimizers make, in its words, of the options an optimizer has.
void RuleOptimizer::check_options(const GroupOptions& o) const {
  auto has = [&o](const char* key) { return o.count(key) > 0; };
  auto text = [](double v) { return std::to_string(v); };
  expect(o.at("lr") >= 0, "invalid learning rate: " + text(o.at("lr")) + "; expected lr >= 0");
  if (has("eps")) expect(o.at("eps") >= 0, "invalid epsilon value: " + text(o.at("eps")) + "; expected eps >= 0");
  if (has("weight_decay")) {
    expect(o.at("weight_decay") >= 0,
           "invalid weight_decay value: " + text(o.at("weight_decay")) + "; expected weight_decay >= 0");
  }
  for (const char* key : {"beta1", "beta2"}) {
    if (!has(key)) continue;
    const double beta = o.at(key);
    expect(beta >= 0 && beta < 1, std::string("invalid beta parameter at index ") + (key[4] == '1' ? "0" : "1") +
                                      ": " + text(beta) + "; expected 0 <= beta < 1");
  }
}

namespace {

GroupOptions with_maximize(GroupOptions options) {
  options["maximize"] = 0;
  return options;
}

// Adam's family's defaults (torch's) at learning rate `lr`, and `more`.
GroupOptions adam_like(double lr, const GroupOptions& more = {}) {
  GroupOptions options = with_maximize({{"lr", lr}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"weight_decay", 0}});
  options.insert(more.begin(), more.end());
  return options;
}

}  // namespace

Adamax::Adamax(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("Adamax", "adamax_update", {"exp_avg", "exp_inf"}, {}, adam_like(2e-3), defaults) {
  add_groups(std::move(groups));
}

NAdam::NAdam(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("NAdam", "nadam_update", {"exp_avg", "exp_avg_sq"}, {"mu_product"},
                    adam_like(2e-3, {{"momentum_decay", 4e-3}, {"decoupled_weight_decay", 0}}), defaults) {
  add_groups(std::move(groups));
}

void NAdam::check_options(const GroupOptions& o) const {
  RuleOptimizer::check_options(o);
  expect(o.at("momentum_decay") >= 0,
         "invalid momentum_decay value: " + std::to_string(o.at("momentum_decay")) + "; expected >= 0");
}

std::vector<float> NAdam::initial_scalars(size_t) const { return {1.0F}; }

// torch's mu_product *= mu: a float32 product, mu rounded to float32 first.
std::vector<std::pair<std::string, double>> NAdam::advance(size_t i, std::vector<float>& scalars) const {
  const double mu = NadamStep<float>::mu(option(i, "beta1"), option(i, "momentum_decay"),
                                         static_cast<double>(param_steps_[i]));
  scalars[0] = scalars[0] * static_cast<float>(mu);
  return {{"mu_product", scalars[0]}};
}

RAdam::RAdam(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("RAdam", "radam_update", {"exp_avg", "exp_avg_sq"}, {},
                    adam_like(1e-3, {{"decoupled_weight_decay", 0}}), defaults) {
  add_groups(std::move(groups));
}

Adadelta::Adadelta(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("Adadelta", "adadelta_update", {"square_avg", "acc_delta"}, {},
                    with_maximize({{"lr", 1.0}, {"rho", 0.9}, {"eps", 1e-6}, {"weight_decay", 0}}), defaults) {
  add_groups(std::move(groups));
}

void Adadelta::check_options(const GroupOptions& o) const {
  RuleOptimizer::check_options(o);
  expect(o.at("rho") >= 0 && o.at("rho") <= 1,
         "invalid rho value: " + std::to_string(o.at("rho")) + "; expected 0 <= rho <= 1");
}

ASGD::ASGD(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("ASGD", "asgd_update", {"ax"}, {"eta", "mu"},
                    with_maximize({{"lr", 1e-2}, {"lambd", 1e-4}, {"alpha", 0.75}, {"t0", 1e6}, {"weight_decay", 0}}),
                    defaults) {
  add_groups(std::move(groups));
}

// eta starts as the learning rate, mu as 1 (torch's float32 tensors).
std::vector<float> ASGD::initial_scalars(size_t i) const { return {static_cast<float>(option(i, "lr")), 1.0F}; }

// The step reads eta and mu as the step before left them, then sets them from this step's lr
// and count (torch's order).
std::vector<std::pair<std::string, double>> ASGD::advance(size_t i, std::vector<float>& scalars) const {
  std::vector<std::pair<std::string, double>> read{{"eta", scalars[0]}, {"mu", scalars[1]}};
  const double lr = option(i, "lr"), step = static_cast<double>(param_steps_[i]);
  scalars[0] = static_cast<float>(lr / std::pow(1 + option(i, "lambd") * lr * step, option(i, "alpha")));
  scalars[1] = static_cast<float>(1 / std::max(1.0, step - option(i, "t0")));
  return read;
}

Rprop::Rprop(std::vector<ParamGroup> groups, const GroupOptions& defaults)
    : RuleOptimizer("Rprop", "rprop_update", {"prev", "step_size"}, {},
                    with_maximize({{"lr", 1e-2},
                                   {"etaminus", 0.5},
                                   {"etaplus", 1.2},
                                   {"step_size_min", 1e-6},
                                   {"step_size_max", 50}}),
                    defaults) {
  add_groups(std::move(groups));
}

void Rprop::check_options(const GroupOptions& o) const {
  RuleOptimizer::check_options(o);
  const double minus = o.at("etaminus"), plus = o.at("etaplus");
  expect(minus > 0 && minus < 1 && plus > 1, "invalid eta values: " + std::to_string(minus) + ", " +
                                                 std::to_string(plus) + "; expected 0 < etaminus < 1 < etaplus");
}

// step_size starts at the learning rate of the parameter's first step.
double Rprop::initial_value(size_t i, size_t slot) const { return slot == 1 ? option(i, "lr") : 0; }

namespace {

// Where a tensor's squares can be summed by one call: its placement and SBP (global) or its
// memory (local), and its dtype.
bool same_group(const Var& a, const Var& b) {
  if (a.is_global() != b.is_global() || a.dtype() != b.dtype()) return false;
  return a.is_global() ? a.global().layout() == b.global().layout() : &a.local().memory() == &b.local().memory();
}

bool same_place(const Var& a, const Var& b) {
  return a.is_global() == b.is_global() &&
         (a.is_global() ? a.global().placement() == b.global().placement() : &a.local().memory() == &b.local().memory());
}

// a + b of two sums of squares, of their wider dtype where they differ (float64 where one
// is, else float32: the halves meet there).
Var add_sums(const Var& a, const Var& b) {
  if (a.dtype() == b.dtype()) return fn::add(a, b);
  const DType wide = a.dtype() == DType::kFloat64 || b.dtype() == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32;
  return fn::add(a.dtype() == wide ? a : fn::cast(a, wide), b.dtype() == wide ? b : fn::cast(b, wide));
}

// The sums of squares of `tensors` (the undefined ones left out), one per placement (and
// one per device for local tensors): one sum_squares call per layout and dtype, its result
// made a partial sum (from a replicated scalar that moves nothing), so that a placement's
// sums meet in one reduction.
std::vector<Var> squared_norm_sums(const std::vector<Var>& tensors) {
  std::vector<std::vector<Var>> groups;
  for (const Var& t : tensors) {
    if (!t.defined()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return same_group(g[0], t); });
    if (it == groups.end()) {
      groups.push_back({t});
    } else {
      it->push_back(t);
    }
  }
  std::vector<Var> sums;
  for (const std::vector<Var>& group : groups) {
    Var square = call1("sum_squares", group);
    if (square.is_global()) {
      const Placement& placement = square.global().placement();
      square = to_global(square, placement, NdSbp(placement.ndim(), Sbp::partial_sum()), false);
    }
    auto it = std::find_if(sums.begin(), sums.end(), [&](const Var& s) { return same_place(s, square); });
    if (it == sums.end()) {
      sums.push_back(square);
    } else {
      *it = add_sums(*it, square);
    }
  }
  return sums;
}

Var replicated_on(const Var& x, const Placement& placement) {
  return to_global(x, placement, NdSbp(placement.ndim(), Sbp::broadcast()), false);
}

// The 2-norm of `tensors` together, and whether it was read on the host: where the sums do
// not meet in one place (local tensors on several devices, or local beside global ones), a
// float64 host scalar; else computed by ops, on the first placement (device) of the sums.
std::pair<Var, bool> norm_of(const std::vector<Var>& tensors, const char* what) {
  NoGradGuard no_grad;
  // The partial sums on the way are the library's own: a twin of each (global_tensor.h,
  // with_read_twin) would be a collective per sum; the norm itself ends broadcast.
  NoReadTwins internal_sums;
  const std::vector<Var> sums = squared_norm_sums(tensors);
  if (sums.empty()) return {Var(), false};
  const bool global = std::all_of(sums.begin(), sums.end(), [](const Var& s) { return s.is_global(); });
  if (!global) {
    if (vm::tracing()) throw std::invalid_argument(std::string(what) + " in a graph: expected global tensors");
    if (sums.size() > 1) {
      double total = 0;
      for (const Var& s : sums) total += scalar_value(s);
      return {Var(host_scalar(std::sqrt(total))), true};
    }
  }
  // Sums on several placements (a pipeline's stages) meet on the first one.
  Var total = sums[0];
  for (size_t i = 1; i < sums.size(); ++i) total = add_sums(total, replicated_on(sums[i], sums[0].global().placement()));
  return {fn::sqrt(total), false};
}

// torch's error_if_nonfinite: read on the host (on every rank alike, for a global norm).
void check_finite(const Var& norm) {
  if (!std::isfinite(scalar_value(norm))) {
    throw std::runtime_error(
        "The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To "
        "disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`");
  }
}

}  // namespace

Var total_norm(const std::vector<Var>& tensors) { return norm_of(tensors, "total_norm").first; }

Var clip_grad_norm(const std::vector<Var>& params, double max_norm, bool error_if_nonfinite) {
  NoGradGuard no_grad;
  std::vector<Var> grads;
  for (const Var& p : params) grads.push_back(p.grad());
  const auto [norm, on_host] = norm_of(grads, "clip_grad_norm_");
  if (!norm.defined()) return norm;
  if (error_if_nonfinite) {
    if (vm::tracing()) {
      throw std::invalid_argument("clip_grad_norm_(error_if_nonfinite=True) in a graph: the check reads the norm on "
                                  "the host; expected error_if_nonfinite=False");
    }
    check_finite(norm);
  }
  if (on_host) {
    const double scale = max_norm / (scalar_value(norm) + 1e-6);
    if (scale < 1) {
      for (Var& g : grads) {
        if (g.defined()) g.set_data(fn::mul_scalar(g, scale));
      }
    }
    return norm;
  }
  // torch's arithmetic: max_norm / (norm + 1e-6), at most 1, on the device; a factor of
  // exactly 1 leaves the gradients as they are.
  const Var ratio = call1("div", {fn::mul_scalar(fn::ones_like(norm), max_norm), fn::add_scalar(norm, 1e-6)});
  const Var scale = call1("minimum", {ratio, fn::ones_like(ratio)});
  for (Var& g : grads) {
    if (!g.defined()) continue;
    const bool elsewhere = g.is_global() && !(g.global().placement() == scale.global().placement());
    Var factor = elsewhere ? replicated_on(scale, g.global().placement()) : scale;
    if (factor.dtype() != g.dtype()) factor = fn::cast(factor, g.dtype());  // a gradient keeps its dtype
    // Over the gradient's memory: a scaled copy of every gradient would be held beside the
    // old ones while queued work still reads them.
    g.set_data(update_in_place("mul", {g, factor}, {}, {0})[0]);
  }
  return norm;
}

void clip_grad_value(const std::vector<Var>& params, double clip_value) {
  NoGradGuard no_grad;
  for (const Var& p : params) {
    Var g = p.grad();
    if (!g.defined()) continue;
    const Var clamped = update_in_place("clamp", {g}, Attrs{{"min", -clip_value}, {"max", clip_value}}, {0})[0];
    // A partial gradient was reduced to clamp it: back into its layout, as every gradient keeps.
    g.set_data(g.is_global() ? in_layout(clamped, g.global().layout()) : clamped);
  }
}

double warmup_cosine_lr(int64_t step, int64_t warmup, int64_t total, double max_lr, double min_lr) {
  if (step < warmup) return max_lr * static_cast<double>(step + 1) / static_cast<double>(warmup);
  if (step >= total) return min_lr;
  const double progress = static_cast<double>(step - warmup) / static_cast<double>(std::max<int64_t>(1, total - warmup));
  return min_lr + 0.5 * (max_lr - min_lr) * (1 + std::cos(M_PI * progress));
}

}  // namespace mf::optim
