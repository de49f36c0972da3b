// Copyright 2026 The meshflow Authors.
// Modules in C++, the same as the Python ones (python/meshflow/nn/modules.py), shaped like
// torch.nn.Module. A Module owns parameters (leaf Vars that require grad), buffers (state
// that is not trained: running statistics) and submodules, each registered under a name.
// named_parameters() and state_dict() name entries by their dotted path from the root
// ("blocks.0.mlp.2.weight"): each module's own parameters in registration order, then its
// persistent buffers (state_dict only), then its submodules'; a tensor registered in two
// places (tied weights) is listed once, under its first name. Registering a name again
// replaces what it named (a parameter, buffer or module), as assigning an attribute does in
// Python.
//
// Layers draw their initial values from the counter-based generator (ops/creation.h) with
// torch's formulas and in the Python layers' order, so a seed and a construction order give
// the same float32 weights in C++ and in Python, on every rank (mind that C++ evaluates a
// call's arguments in no fixed order: see Sequential). They start local; to_global()
// then gives every parameter a placement and an SBP: choosing the SBPs is choosing data,
// tensor or hybrid parallelism. to_global() and load_state_dict() replace values with
// Var::set_data, so a parameter keeps its identity and the optimizers and modules that hold
// it see the new value.
//
// Modules are held by std::shared_ptr (a submodule may be shared) and are not copyable.
// Layers have forward(const Var&); the base has no forward, since models take what they
// need. Thread-safety: one thread at a time, like the ops; to_global() and load_state_dict()
// are collective when they touch global tensors (every rank calls them alike).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/autograd/var.h"

namespace mf::nn {

// Name -> Var in insertion order (Python's OrderedDict): what state_dict() returns and
// load_state_dict() takes.
class StateDict {
 public:
  using Item = std::pair<std::string, Var>;
  StateDict() = default;
  StateDict(std::initializer_list<Item> items);

  // Sets `name`'s value; a new name goes last.
  void set(const std::string& name, Var value);
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  // Throws std::invalid_argument when there is no such name.
  const Var& at(const std::string& name) const;
  size_t size() const { return items_.size(); }
  std::vector<Item>::const_iterator begin() const { return items_.begin(); }
  std::vector<Item>::const_iterator end() const { return items_.end(); }

 private:
  std::vector<Item> items_;
  std::map<std::string, size_t> index_;  // name -> position in items_
};

// Where and in which floating dtype a layer makes its parameters and floating buffers:
// torch's factory kwargs (device=, dtype=), the CPU and float32 by default. Initial values
// are drawn in float32 on the host whatever these say, as the Python layers draw them, so a
// seed gives the same weights on every device; an integer buffer (a count) stays int64.
struct Factory {
  device::Device* device = nullptr;  // nullptr: the CPU
  DType dtype = DType::kFloat32;
};

// A parameter's N-d SBP chosen from its name (as in state_dict) and the parameter.
using SbpRule = std::function<NdSbp(const std::string& name, const Var& param)>;

class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Registers the leaf `param` as `name` (set to require grad unless requires_grad is
  // false) and returns it: the same Var, so registering one module's parameter in another
  // ties them. An undefined `param` unregisters `name` (Python's `self.bias = None`).
  // Names are non-empty and dot-free; a non-leaf (the result of a recorded call) is refused.
  Var register_parameter(const std::string& name, Var param, bool requires_grad = true);
  // Registers `tensor` as the buffer `name` and returns it: no parameter (it takes no
  // gradient, optimizers do not see it), in state_dict() when `persistent`, converted by
  // to_global() and loaded by load_state_dict(). An undefined `tensor` unregisters `name`.
  Var register_buffer(const std::string& name, Var tensor, bool persistent = true);
  // Registers `module` as `name` and returns it; nullptr unregisters `name`.
  template <typename M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> module) {
    set_child(name, module);
    return module;
  }

  // What `name` names here; undefined / nullptr when nothing does (an attribute set to None).
  Var parameter(const std::string& name) const;
  Var buffer(const std::string& name) const;
  std::shared_ptr<Module> child(const std::string& name) const;

  // The direct submodules, in registration order (named: named_children).
  std::vector<std::shared_ptr<Module>> children() const;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const { return children_; }
  // This module (named `prefix`) and every module under it, parents before children.
  std::vector<std::pair<std::string, const Module*>> named_modules(const std::string& prefix = "") const;
  std::vector<std::pair<std::string, Module*>> named_modules(const std::string& prefix = "");
  std::vector<std::pair<std::string, Var>> named_parameters(const std::string& prefix = "") const;
  std::vector<Var> parameters() const;
  // Every buffer (persistent or not), named and ordered as named_parameters().
  std::vector<std::pair<std::string, Var>> named_buffers(const std::string& prefix = "") const;
  std::vector<Var> buffers() const;

  // Sets the training mode of this module and every module under it (Dropout reads it).
  Module& train(bool on = true);
  Module& eval() { return train(false); }
  bool is_training() const { return training_; }
  // Drops every parameter's gradient.
  void zero_grad();
  // Sets whether every parameter requires grad (freezing a part of a model).
  Module& requires_grad_(bool requires_grad = true);
  // Calls fn on every submodule (children first, as torch), then on this one.
  Module& apply(const std::function<void(Module&)>& fn);

  // The parameters and persistent buffers themselves (global ones stay global), in torch's
  // order: each module's parameters, its buffers, then its submodules'.
  StateDict state_dict() const;
  // Sets each parameter's and persistent buffer's value to the entry of its name, converted
  // to the target's kind, layout and dtype (a local entry is the full value; a float64
  // checkpoint loads into a float32 model). Checks every entry before changing any: with
  // `strict`, the keys must be exactly the state_dict's; shapes must match.
  void load_state_dict(const StateDict& state, bool strict = true);
  // Gives every parameter and buffer `placement` and an N-d SBP (one for all, or chosen per
  // tensor by its name) and drops parameters' gradients. A local tensor holds the full
  // value on every rank, which keeps its part; a global one is boxed.
  Module& to_global(const Placement& placement, const NdSbp& nd_sbp);
  Module& to_global(const Placement& placement, const SbpRule& sbp_of);

  // Python's repr: "Sequential(\n  (0): Linear(in_features=4, ...)\n  ...)".
  std::string repr() const;
  virtual std::string type_name() const { return "Module"; }
  // The layer's own settings, shown in repr().
  virtual std::string extra_repr() const { return ""; }

 private:
  void set_child(const std::string& name, std::shared_ptr<Module> module);
  void remove(const std::string& name);
  // (name, tensor) of parameters_ (or buffers_, the persistent ones only when
  // `persistent_only`) over the tree, named from `prefix`, each tensor once.
  std::vector<std::pair<std::string, Var>> named_tensors(const std::string& prefix, bool params, bool buffers,
                                                         bool persistent_only) const;

  struct Buffer {
    Var value;
    bool persistent;
  };
  // Own entries, in registration order; a name is in at most one of the three.
  std::vector<std::pair<std::string, Var>> parameters_;
  std::vector<std::pair<std::string, Buffer>> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

namespace detail {

// For Sequential and ModuleList: the position of Python index i (negative from the end) in
// `size` elements, or std::out_of_range naming `owner`.
size_t python_index(int64_t i, size_t size, const std::string& owner);
// For layers defined beside this file (nn/conv_modules.h): U(-bound, bound) and the creation
// op `op` ("ones", "zeros") as the layers here draw their initial values, made as `made`
// says; `value` moved to made's device; Python's repr of a float and of a shape as a tuple.
Var uniform_init(const Shape& shape, double bound, const Factory& made);
Var constant_init(const std::string& op, const Shape& shape, const Factory& made);
Var on_device(const Var& value, const Factory& made);
std::string shortest_repr(double x);
std::string tuple_repr(const Shape& shape);
// `m` as an M, or std::invalid_argument naming `owner`, the index and m's type.
template <typename M>
std::shared_ptr<M> module_as(const std::shared_ptr<Module>& m, const std::string& owner, int64_t i) {
  std::shared_ptr<M> typed = std::dynamic_pointer_cast<M>(m);
  if (!typed) {
    throw std::invalid_argument("[" + owner + "] element " + std::to_string(i) + " is a " + m->type_name() +
                                ", not the type asked for");
  }
  return typed;
}

}  // namespace detail

// y = x @ weight^T + bias, weight [out_features, in_features] and bias [out_features] drawn
// from U(-1/sqrt(in_features), 1/sqrt(in_features)), weight first, as torch.nn.Linear.
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true, const Factory& made = {});
  Var forward(const Var& x) const;
  Var weight() const { return parameter("weight"); }
  Var bias() const { return parameter("bias"); }  // undefined without a bias
  int64_t in_features() const { return in_features_; }
  int64_t out_features() const { return out_features_; }
  std::string type_name() const override { return "Linear"; }
  std::string extra_repr() const override;

 private:
  int64_t in_features_, out_features_;
};

// The rows of weight [num_embeddings, embedding_dim] at int32/int64 indices; weight drawn
// from N(0, 1).
class Embedding : public Module {
 public:
  Embedding(int64_t num_embeddings, int64_t embedding_dim, const Factory& made = {});
  Var forward(const Var& indices) const;
  Var weight() const { return parameter("weight"); }
  std::string type_name() const override { return "Embedding"; }
  std::string extra_repr() const override;

 private:
  int64_t num_embeddings_, embedding_dim_;
};

// Normalizes over the trailing dims `normalized_shape`, then scales by weight (ones) and
// shifts by bias (zeros) when elementwise_affine.
class LayerNorm : public Module {
 public:
  explicit LayerNorm(Shape normalized_shape, double eps = 1e-5, bool elementwise_affine = true,
                     const Factory& made = {});
  Var forward(const Var& x) const;
  Var weight() const { return parameter("weight"); }
  Var bias() const { return parameter("bias"); }
  std::string type_name() const override { return "LayerNorm"; }
  std::string extra_repr() const override;

 private:
  Shape normalized_shape_;
  double eps_;
};

class GELU : public Module {
 public:
  Var forward(const Var& x) const;
  std::string type_name() const override { return "GELU"; }
};

class ReLU : public Module {
 public:
  Var forward(const Var& x) const;
  std::string type_name() const override { return "ReLU"; }
};

// Zeroes elements with probability p in training mode (fn::dropout); the identity in eval.
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5);  // 0 <= p < 1, else std::invalid_argument
  Var forward(const Var& x) const;
  double p() const { return p_; }
  std::string type_name() const override { return "Dropout"; }
  std::string extra_repr() const override;

 private:
  double p_;
};

// Modules applied in turn, registered as "0", "1", ...; each step is a module with
// Var forward(const Var&), added by append(). There is no constructor from a list of modules
// (Python's nn.Sequential(a, b, c)): C++ evaluates a call's arguments in an unspecified
// order (GCC: last first), so layers built in the arguments would draw their initial values
// in another order than Python's. Chained appends are ordered:
//   auto mlp = std::make_shared<nn::Sequential>();
//   mlp->append(std::make_shared<nn::Linear>(8, 32)).append(std::make_shared<nn::GELU>());
class Sequential : public Module {
 public:
  template <typename M>
  Sequential& append(std::shared_ptr<M> module) {
    add_step(module, [module](const Var& x) { return module->forward(x); });
    return *this;
  }
  Var forward(const Var& x) const;
  // The i-th step; negative i counts from the end. Throws std::out_of_range outside.
  std::shared_ptr<Module> operator[](int64_t i) const;
  // The i-th step as an M; throws std::invalid_argument when it is not one.
  template <typename M>
  std::shared_ptr<M> at(int64_t i) const {
    return detail::module_as<M>((*this)[i], "Sequential", i);
  }
  size_t size() const { return steps_.size(); }
  std::string type_name() const override { return "Sequential"; }

 private:
  void add_step(std::shared_ptr<Module> module, std::function<Var(const Var&)> forward);
  std::vector<std::pair<std::shared_ptr<Module>, std::function<Var(const Var&)>>> steps_;
};

// A list of modules registered as "0", "1", ...; models call them as they need.
class ModuleList : public Module {
 public:
  ModuleList() = default;
  explicit ModuleList(const std::vector<std::shared_ptr<Module>>& modules);
  ModuleList& append(std::shared_ptr<Module> module);
  // The i-th module; negative i counts from the end. Throws std::out_of_range outside.
  std::shared_ptr<Module> operator[](int64_t i) const;
  // The i-th module as an M; throws std::invalid_argument when it is not one.
  template <typename M>
  std::shared_ptr<M> at(int64_t i) const {
    return detail::module_as<M>((*this)[i], "ModuleList", i);
  }
  size_t size() const { return children().size(); }
  std::string type_name() const override { return "ModuleList"; }
};

}  // namespace mf::nn
