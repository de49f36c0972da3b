// Copyright 2026 The meshflow Authors.
// torch.autograd's functions over the engine of var.h: backward() from several roots at
// once, and grad(), which returns gradients instead of accumulating them into .grad.
// Both are collective on global tensors, like Var::backward (every rank calls them alike).
// Thread-safety: one thread at a time, like the ops.
#pragma once

#include <unordered_set>
#include <vector>

#include "meshflow/autograd/var.h"

namespace mf::autograd {

// Accumulates d(sum of roots[i] * grads[i])/d(leaf) into every leaf's grad(), in one pass
// over the graph. grads[i] may be undefined for a root of one element (the seed is 1); else
// it has the root's shape. Frees the graph's saved values unless retain_graph. Throws
// std::invalid_argument for a root that does not require grad, a size mismatch or a
// missing gradient for a root of several elements. create_graph: as Var::backward's (the
// gradients are recorded, for a second differentiation).
void backward(const std::vector<Var>& roots, const std::vector<Var>& grads, bool retain_graph,
              bool create_graph = false);

// The gradients of sum(outputs[i] * grad_outputs[i]) with respect to each of `inputs`
// (leaves or not, each requiring grad), each in its input's placement and SBP; no .grad
// changes. An input no gradient reaches gets an undefined Var. Hooks of the inputs run as
// in backward(). create_graph: the gradients are differentiable (Hessian-vector products,
// gradient penalties).
std::vector<Var> grad(const std::vector<Var>& outputs, const std::vector<Var>& inputs,
                      const std::vector<Var>& grad_outputs, bool retain_graph, bool create_graph = false);

// The gradients grad() wants: those of leaves, and those of the outputs of nodes (non-leaf
// inputs, whose hooks on the node read them).
struct GradTargets {
  std::unordered_set<const VarImpl*> leaves;
  std::unordered_set<const Node*> nodes;
};

// While alive, the next backward() on this thread (Var::backward; not one nested in its
// nodes, as a reentrant checkpoint's) runs only the nodes on a path from its root to a
// target, as torch.autograd.grad: the others keep their saved values (retain_graph or not)
// and compute nothing, leaves that are no target take no gradient, and a target node's hooks
// run, its backward only where a path goes on below it. Guards nest (the innermost counts).
class GradTargetsGuard {
 public:
  explicit GradTargetsGuard(GradTargets targets);
  ~GradTargetsGuard();
  GradTargetsGuard(const GradTargetsGuard&) = delete;
  GradTargetsGuard& operator=(const GradTargetsGuard&) = delete;

 private:
  GradTargets targets_;
  const GradTargets* previous_;
};

// Inside Var::backward: the innermost GradTargetsGuard's targets (null: none), taken for
// this backward, so that backward() calls nested in its nodes see none until it returns.
class TakenGradTargets {
 public:
  TakenGradTargets();
  ~TakenGradTargets();
  TakenGradTargets(const TakenGradTargets&) = delete;
  TakenGradTargets& operator=(const TakenGradTargets&) = delete;
  const GradTargets* get() const { return taken_; }

 private:
  const GradTargets* taken_;
};

// ZeRO stage 3's eager prefetch (on by default): each gather of a sharded parameter for a
// pass also issues the one that followed it the last time, so that it runs while this
// parameter's ops compute; the same collectives in the same order on every rank, the same
// values, one more gathered parameter held (var.cc, gathered_for_use). Off: each is
// gathered where an op needs it. Graph mode prefetches by its own schedule (graph/zero.h).
void set_zero_prefetch(bool on);
bool zero_prefetch();

// The leaf a graph edge accumulates into, as a Var (the AccumulateGrad entries of torch's
// grad_fn.next_functions); undefined for an edge to a node and for one that takes no gradient.
Var edge_leaf(const Edge& edge);

}  // namespace mf::autograd
