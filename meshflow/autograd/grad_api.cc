// Copyright 2026 The meshflow Authors.
#include "meshflow/autograd/grad_api.h"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "meshflow/autograd/inference.h"
#include "meshflow/ops/functional.h"
#include "meshflow/vm/vm.h"

namespace mf::autograd {
namespace {

// 1 in `root`'s kind, device and (for a global root) placement, replicated.
Var unit_seed(const Var& root) {
  const Tensor one = host_one(root.shape(), root.dtype());
  if (root.is_global()) {
    const Placement& placement = root.global().placement();
    return Var(global_from_full(one, placement, NdSbp(placement.ndim(), Sbp::broadcast())));
  }
  return Var(vm::copy_to(one, device::of(root.local().memory())));
}

// `grad` in `like`'s layout (a global input's gradient may arrive partial).
Var in_layout_of(const Var& grad, const Var& like) {
  if (!like.is_global()) return grad;
  const GlobalTensor& g = grad.global();
  const GlobalTensor& l = like.global();
  if (g.placement() == l.placement() && g.nd_sbp() == l.nd_sbp()) return grad;
  return to_global(grad, l.placement(), l.nd_sbp(), false);  // recorded in a create_graph backward
}

// Removes the hooks it holds when it goes (also when backward throws).
class HookScope {
 public:
  ~HookScope() {
    for (auto& [var, id] : hooks_) var.remove_hook(id);
  }
  void add(Var var, int64_t id) { hooks_.emplace_back(std::move(var), id); }

 private:
  std::vector<std::pair<Var, int64_t>> hooks_;
};

}  // namespace

void backward(const std::vector<Var>& roots, const std::vector<Var>& grads, bool retain_graph, bool create_graph) {
  if (roots.empty()) throw std::invalid_argument("autograd.backward: no tensors to differentiate");
  if (grads.size() != roots.size()) {
    throw std::invalid_argument("autograd.backward: got " + std::to_string(grads.size()) + " gradients for " +
                                std::to_string(roots.size()) + " tensors; expected one each");
  }
  std::vector<Var> seeds;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (!roots[i].requires_grad()) {
      throw std::invalid_argument("element " + std::to_string(i) +
                                  " of tensors does not require grad and does not have a grad_fn");
    }
    if (grads[i].defined()) {
      if (grads[i].shape() != roots[i].shape() || grads[i].is_global() != roots[i].is_global()) {
        throw std::invalid_argument("autograd.backward: gradient " + std::to_string(i) + " has shape " +
                                    to_string(grads[i].shape()) + "; expected its tensor's shape " +
                                    to_string(roots[i].shape()));
      }
      seeds.push_back(grads[i]);
    } else if (numel(roots[i].shape()) == 1) {
      seeds.push_back(unit_seed(roots[i]));
    } else {
      throw std::invalid_argument("grad can be implicitly created only for scalar outputs; tensor " +
                                  std::to_string(i) + " has shape " + to_string(roots[i].shape()));
    }
  }
  if (roots.size() == 1) {
    roots[0].backward(seeds[0], retain_graph, create_graph);
    return;
  }
  // One recorded call joins the roots: its backward hands each root its seed, so a single
  // pass sums every root's contributions before converting each leaf's gradient.
  std::vector<Var> join{Var(zeros_here({}, DType::kFloat32, host_memory()))};
  {
    struct GradOn {
      bool previous = grad_mode_set();
      GradOn() { set_grad_enabled(true); }
      ~GradOn() { set_grad_enabled(previous); }
    } on;
    record("autograd.backward", roots, join, [seeds](const std::vector<Var>&) { return seeds; });
  }
  join[0].backward(Var(), retain_graph, create_graph);
}

namespace {

thread_local const GradTargets* grad_targets = nullptr;  // the innermost GradTargetsGuard's, until taken

}  // namespace

GradTargetsGuard::GradTargetsGuard(GradTargets targets) : targets_(std::move(targets)), previous_(grad_targets) {
  grad_targets = &targets_;
}

GradTargetsGuard::~GradTargetsGuard() { grad_targets = previous_; }

TakenGradTargets::TakenGradTargets() : taken_(std::exchange(grad_targets, nullptr)) {}

TakenGradTargets::~TakenGradTargets() { grad_targets = taken_; }

std::vector<Var> grad(const std::vector<Var>& outputs, const std::vector<Var>& inputs,
                      const std::vector<Var>& grad_outputs, bool retain_graph, bool create_graph) {
  vm::Issuing issuing;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].requires_grad()) {
      throw std::invalid_argument("autograd.grad: input " + std::to_string(i) + " does not require grad");
    }
  }
  std::vector<Var> result(inputs.size());
  std::unordered_map<const VarImpl*, std::vector<size_t>> leaves;
  GradTargets targets;
  HookScope hooks;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_leaf()) {
      leaves[inputs[i].id()].push_back(i);
      targets.leaves.insert(inputs[i].id());
      continue;
    }
    targets.nodes.insert(inputs[i].grad_fn().get());
    // A non-leaf's gradient is whole when its node runs: the hook reads it there.
    Var input = inputs[i];
    const Var like = input.detach();
    hooks.add(input, input.add_hook([&result, i, like](const Var& g) {
      result[i] = in_layout_of(g, like);
      return Var();
    }));
  }
  GradSinkGuard sink([&](const VarImpl* leaf, const Var& g) {
    auto it = leaves.find(leaf);
    if (it == leaves.end()) return;
    for (size_t i : it->second) result[i] = result[i].defined() ? fn::add(result[i], g) : g;
  });
  GradTargetsGuard only(std::move(targets));
  backward(outputs, grad_outputs, retain_graph, create_graph);
  return result;
}

}  // namespace mf::autograd
