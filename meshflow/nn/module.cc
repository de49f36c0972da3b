// Copyright 2026 The meshflow Authors.
#include "meshflow/nn/module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>

#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/op.h"

namespace mf::nn {
namespace {

void check_name(const std::string& op, const std::string& name) {
  if (name.empty() || name.find('.') != std::string::npos) {
    op_error(op, "name \"" + name + "\" is empty or has a '.'; expected a name that state_dict keys can join with '.'");
  }
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return "[" + s + "]";
}

// A float32 tensor from the random op `op` ("rand" or "randn"), as mf.rand / mf.randn draw it.
Var draw(const std::string& op, const Shape& shape) {
  const RandomCall random = next_random_call(numel(shape));
  return call1(op, {},
               {{"shape", shape}, {"dtype", DType::kFloat32}, {"seed", random.seed}, {"offset", random.offset}});
}

// U(-bound, bound), with the Python modules' arithmetic (the same float32 roundings).
Var uniform(const Shape& shape, double bound) {
  return fn::add_scalar(fn::mul_scalar(draw("rand", shape), 2 * bound), -bound);
}

// A value made on the host in float32, where and as `made` says.
Var made_as(const Var& value, const Factory& made) {
  const Var moved = detail::on_device(value, made);
  return moved.dtype() == made.dtype ? moved : fn::cast(moved, made.dtype);
}

Var constant(const std::string& op, const Shape& shape, const Factory& made) {
  return made_as(call1(op, {}, {{"shape", shape}, {"dtype", DType::kFloat32}}), made);
}

// `value` in `reference`'s kind and layout; a local value is the full logical value.
Var in_layout_of(const Var& value, const Var& reference) {
  if (reference.is_global()) {
    const GlobalTensor& r = reference.global();
    return Var(value.is_global() ? mf::to_global(value.global(), r.placement(), r.nd_sbp())
                                 : global_from_full(value.local(), r.placement(), r.nd_sbp()));
  }
  return value.is_global() ? Var(gather_full(value.global())) : value;
}

// The shortest decimal that reads back as `x`, as Python's repr writes floats ("0.1",
// "1e-05", "2.0").
std::string shortest(double x) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  const std::string s = text;
  return s.find_first_of(".eni") == std::string::npos ? s + ".0" : s;
}

// A shape as a Python tuple: "(4,)", "(2, 3)".
std::string tuple(const Shape& shape) {
  std::string s;
  for (int64_t d : shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return "(" + s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

StateDict::StateDict(std::initializer_list<Item> items) {
  for (const Item& item : items) set(item.first, item.second);
}

void StateDict::set(const std::string& name, Var value) {
  const auto [it, added] = index_.emplace(name, items_.size());
  if (added) {
    items_.emplace_back(name, std::move(value));
  } else {
    items_[it->second].second = std::move(value);
  }
}

const Var& StateDict::at(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) op_error("StateDict", "has no key \"" + name + "\"");
  return items_[it->second].second;
}

Var Module::register_parameter(const std::string& name, Var param, bool requires_grad) {
  check_name("register_parameter", name);
  if (param.defined() && !param.is_leaf()) {
    op_error("register_parameter", name + " is the result of a recorded call; expected a leaf (detach() it)");
  }
  if (param.defined()) param.set_requires_grad(requires_grad);  // may refuse (an integer tensor)
  remove(name);
  if (param.defined()) parameters_.emplace_back(name, param);
  return param;
}

Var Module::register_buffer(const std::string& name, Var tensor, bool persistent) {
  check_name("register_buffer", name);
  remove(name);
  if (tensor.defined()) buffers_.emplace_back(name, Buffer{tensor, persistent});
  return tensor;
}

void Module::set_child(const std::string& name, std::shared_ptr<Module> module) {
  check_name("register_module", name);
  remove(name);
  if (module) children_.emplace_back(name, std::move(module));
}

void Module::remove(const std::string& name) {
  auto named = [&name](const auto& entry) { return entry.first == name; };
  parameters_.erase(std::remove_if(parameters_.begin(), parameters_.end(), named), parameters_.end());
  buffers_.erase(std::remove_if(buffers_.begin(), buffers_.end(), named), buffers_.end());
  children_.erase(std::remove_if(children_.begin(), children_.end(), named), children_.end());
}

Var Module::parameter(const std::string& name) const {
  for (const auto& [n, p] : parameters_) {
    if (n == name) return p;
  }
  return Var();
}

Var Module::buffer(const std::string& name) const {
  for (const auto& [n, b] : buffers_) {
    if (n == name) return b.value;
  }
  return Var();
}

std::shared_ptr<Module> Module::child(const std::string& name) const {
  for (const auto& [n, m] : children_) {
    if (n == name) return m;
  }
  return nullptr;
}

std::vector<std::shared_ptr<Module>> Module::children() const {
  std::vector<std::shared_ptr<Module>> out;
  for (const auto& entry : children_) out.push_back(entry.second);
  return out;
}

std::vector<std::pair<std::string, const Module*>> Module::named_modules(const std::string& prefix) const {
  std::vector<std::pair<std::string, const Module*>> out = {{prefix, this}};
  for (const auto& [name, m] : children_) {
    for (auto& entry : m->named_modules(prefix.empty() ? name : prefix + "." + name)) out.push_back(std::move(entry));
  }
  return out;
}

std::vector<std::pair<std::string, Module*>> Module::named_modules(const std::string& prefix) {
  // Every module under a non-const one is non-const: children are held as shared_ptr<Module>.
  std::vector<std::pair<std::string, Module*>> out;
  for (auto& [name, m] : std::as_const(*this).named_modules(prefix)) out.emplace_back(name, const_cast<Module*>(m));
  return out;
}

std::vector<std::pair<std::string, Var>> Module::named_tensors(const std::string& prefix, bool params, bool buffers,
                                                               bool persistent_only) const {
  std::vector<std::pair<std::string, Var>> out;
  std::set<const VarImpl*> seen;
  for (const auto& [module_name, m] : named_modules(prefix)) {
    auto add = [&, &module_name = module_name](const std::string& name, const Var& v) {
      if (seen.insert(v.id()).second) out.emplace_back(module_name.empty() ? name : module_name + "." + name, v);
    };
    if (params) {
      for (const auto& [name, p] : m->parameters_) add(name, p);
    }
    if (buffers) {
      for (const auto& [name, b] : m->buffers_) {
        if (b.persistent || !persistent_only) add(name, b.value);
      }
    }
  }
  return out;
}

std::vector<std::pair<std::string, Var>> Module::named_parameters(const std::string& prefix) const {
  return named_tensors(prefix, true, false, false);
}

std::vector<std::pair<std::string, Var>> Module::named_buffers(const std::string& prefix) const {
  return named_tensors(prefix, false, true, false);
}

std::vector<Var> Module::buffers() const {
  std::vector<Var> out;
  for (const auto& entry : named_buffers()) out.push_back(entry.second);
  return out;
}

std::vector<Var> Module::parameters() const {
  std::vector<Var> out;
  for (const auto& entry : named_parameters()) out.push_back(entry.second);
  return out;
}

Module& Module::train(bool on) {
  for (auto& entry : named_modules()) entry.second->training_ = on;
  return *this;
}

void Module::zero_grad() {
  for (Var& p : parameters()) p.set_grad(Var());
}

Module& Module::requires_grad_(bool requires_grad) {
  for (Var& p : parameters()) p.set_requires_grad(requires_grad);
  return *this;
}

Module& Module::apply(const std::function<void(Module&)>& fn) {
  for (const auto& entry : children_) entry.second->apply(fn);
  fn(*this);
  return *this;
}

StateDict Module::state_dict() const {
  StateDict state;
  for (const auto& [name, v] : named_tensors("", true, true, true)) state.set(name, v);
  return state;
}

void Module::load_state_dict(const StateDict& state, bool strict) {
  const std::vector<std::pair<std::string, Var>> own = named_tensors("", true, true, true);
  std::set<const VarImpl*> params;
  for (const Var& p : parameters()) params.insert(p.id());
  std::set<std::string> own_names;
  std::vector<std::string> missing, unexpected;
  for (const auto& entry : own) {
    own_names.insert(entry.first);
    if (!state.contains(entry.first)) missing.push_back(entry.first);
  }
  for (const auto& entry : state) {
    if (!own_names.count(entry.first)) unexpected.push_back(entry.first);
  }
  if (strict && (!missing.empty() || !unexpected.empty())) {
    op_error("load_state_dict", "missing keys " + join(missing) + ", unexpected keys " + join(unexpected) +
                                    "; expected exactly the keys of the module's state_dict");
  }
  for (const auto& [name, p] : own) {
    if (!state.contains(name)) continue;
    const Var& value = state.at(name);
    if (!value.defined()) op_error("load_state_dict", name + " is undefined; expected a tensor");
    if (value.shape() != p.shape()) {
      op_error("load_state_dict", name + " has shape " + to_string(value.shape()) +
                                      "; the module's " + (params.count(p.id()) ? "parameter" : "buffer") +
                                      " has shape " + to_string(p.shape()));
    }
  }
  NoGradGuard no_grad;
  for (auto [name, p] : own) {
    if (!state.contains(name)) continue;
    // A copy (a cast always makes one), as torch's copy_: the module's later in-place steps
    // must not write the state given, nor another module that loaded it.
    p.set_data_in_place(call1("cast", {in_layout_of(state.at(name).detach(), p)}, {{"dtype", p.dtype()}}));
  }
}

Module& Module::to_global(const Placement& placement, const NdSbp& nd_sbp) {
  return to_global(placement, [&nd_sbp](const std::string&, const Var&) { return nd_sbp; });
}

Module& Module::to_global(const Placement& placement, const SbpRule& sbp_of) {
  for (auto [name, p] : named_tensors("", true, true, false)) {
    const NdSbp nd_sbp = sbp_of(name, p);
    p.set_data(Var(p.is_global() ? mf::to_global(p.global(), placement, nd_sbp)
                                 : global_from_full(p.local(), placement, nd_sbp)));
    p.set_grad(Var());
  }
  return *this;
}

// torch's format: the extra_repr's lines, then "(name): child" lines, indented.
std::string Module::repr() const {
  const std::string extra = extra_repr();
  if (children_.empty() && extra.find('\n') == std::string::npos) return type_name() + "(" + extra + ")";
  std::string s = type_name() + "(";
  auto add_line = [&s](std::string line) {
    for (size_t at = line.find('\n'); at != std::string::npos; at = line.find('\n', at + 3)) line.insert(at + 1, "  ");
    s += "\n  " + line;
  };
  if (!extra.empty()) add_line(extra);
  for (const auto& [name, m] : children_) add_line("(" + name + "): " + m->repr());
  return s + "\n)";
}

Linear::Linear(int64_t in_features, int64_t out_features, bool bias, const Factory& made)
    : in_features_(in_features), out_features_(out_features) {
  const double bound = in_features > 0 ? 1 / std::sqrt(static_cast<double>(in_features)) : 0;
  register_parameter("weight", detail::uniform_init({out_features, in_features}, bound, made));
  if (bias) register_parameter("bias", detail::uniform_init({out_features}, bound, made));
}

Var Linear::forward(const Var& x) const { return fn::linear(x, weight(), bias()); }

std::string Linear::extra_repr() const {
  return "in_features=" + std::to_string(in_features_) + ", out_features=" + std::to_string(out_features_) +
         ", bias=" + (bias().defined() ? "True" : "False");
}

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim, const Factory& made)
    : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {
  register_parameter("weight", made_as(draw("randn", {num_embeddings, embedding_dim}), made));
}

Var Embedding::forward(const Var& indices) const { return fn::embedding(indices, weight()); }

std::string Embedding::extra_repr() const {
  return std::to_string(num_embeddings_) + ", " + std::to_string(embedding_dim_);
}

LayerNorm::LayerNorm(Shape normalized_shape, double eps, bool elementwise_affine, const Factory& made)
    : normalized_shape_(std::move(normalized_shape)), eps_(eps) {
  if (elementwise_affine) {
    register_parameter("weight", constant("ones", normalized_shape_, made));
    register_parameter("bias", constant("zeros", normalized_shape_, made));
  }
}

Var LayerNorm::forward(const Var& x) const {
  std::vector<Var> inputs = {x};
  for (const Var& p : {weight(), bias()}) {
    if (p.defined()) inputs.push_back(p);
  }
  return call1("layer_norm", inputs,
               {{"normalized_shape", normalized_shape_},
                {"eps", eps_},
                {"has_weight", weight().defined()},
                {"has_bias", bias().defined()}});
}

std::string LayerNorm::extra_repr() const { return tuple(normalized_shape_) + ", eps=" + shortest(eps_); }

Var GELU::forward(const Var& x) const { return fn::gelu(x); }

Var ReLU::forward(const Var& x) const { return fn::relu(x); }

Dropout::Dropout(double p) : p_(p) {
  if (!(p >= 0 && p < 1)) op_error("Dropout", "p is " + shortest(p) + "; expected 0 <= p < 1");
}

Var Dropout::forward(const Var& x) const { return fn::dropout(x, p_, is_training()); }

std::string Dropout::extra_repr() const { return "p=" + shortest(p_); }

namespace detail {

size_t python_index(int64_t i, size_t size, const std::string& owner) {
  const int64_t n = static_cast<int64_t>(size);
  if (i < -n || i >= n) {
    throw std::out_of_range("[" + owner + "] index " + std::to_string(i) + " is out of range for " + std::to_string(n) +
                            " modules");
  }
  return static_cast<size_t>(i < 0 ? i + n : i);
}

Var uniform_init(const Shape& shape, double bound, const Factory& made) {
  return made_as(uniform(shape, bound), made);
}
Var constant_init(const std::string& op, const Shape& shape, const Factory& made) {
  return constant(op, shape, made);
}
Var on_device(const Var& value, const Factory& made) {
  return made.device == nullptr ? value : to_device(value, *made.device);
}
std::string shortest_repr(double x) { return shortest(x); }
std::string tuple_repr(const Shape& shape) { return tuple(shape); }

}  // namespace detail

void Sequential::add_step(std::shared_ptr<Module> module, std::function<Var(const Var&)> forward) {
  if (!module) op_error("Sequential", "append got nullptr; expected a module");
  register_module(std::to_string(steps_.size()), module);
  steps_.emplace_back(std::move(module), std::move(forward));
}

Var Sequential::forward(const Var& x) const {
  Var y = x;
  for (const auto& step : steps_) y = step.second(y);
  return y;
}

std::shared_ptr<Module> Sequential::operator[](int64_t i) const {
  return steps_[detail::python_index(i, steps_.size(), "Sequential")].first;
}

ModuleList::ModuleList(const std::vector<std::shared_ptr<Module>>& modules) {
  for (const auto& m : modules) append(m);
}

ModuleList& ModuleList::append(std::shared_ptr<Module> module) {
  if (!module) op_error("ModuleList", "append got nullptr; expected a module");
  register_module(std::to_string(size()), std::move(module));
  return *this;
}

std::shared_ptr<Module> ModuleList::operator[](int64_t i) const {
  const std::vector<std::shared_ptr<Module>> modules = children();
  return modules[detail::python_index(i, modules.size(), "ModuleList")];
}

}  // namespace mf::nn
