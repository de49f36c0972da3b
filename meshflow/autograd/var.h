// Copyright 2026 The meshflow Authors.
// Var: the tensor users hold, in C++ as in Python. It is a local Tensor or a GlobalTensor
// plus what reverse-mode autograd needs: whether it requires a gradient, its accumulated
// gradient, and the graph Node that made it. Copies of a Var share all of that (a handle,
// like torch::Tensor).
//
// The graph: every differentiable call (an op, a layout conversion) whose inputs require
// gradients records a Node holding the values its backward needs and one Edge per input
// (the input's own node, or the leaf it accumulates into). backward() walks the nodes that
// lead to the root in reverse topological order. Gradients are Vars too, computed with
// meshflow ops, so on global tensors their SBPs are inferred and boxing brings the
// collectives: a leaf's .grad ends with the leaf's placement and SBP, or its gradient layout
// (ZeRO's, set_grad_layout): boxing all-reduces or reduce-scatters a partial one there.
//
// Thread-safety: like the ops, one thread at a time; grad mode is per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "meshflow/core/tensor.h"
#include "meshflow/device/device.h"
#include "meshflow/global/global_tensor.h"

namespace mf {

struct Node;
struct VarImpl;

// A host tensor of `shape` (one element) holding 1 in `dtype`, halves too: the seed of a
// backward without an explicit gradient. Made through vm::made_here: in a job of several
// ranks, an out of memory fails it (and the backward it seeds) instead of raising on this
// rank alone.
Tensor host_one(const Shape& shape, DType dtype);

// Zeros made on the issuing thread in `memory` (backward's zero gradients, its scalars):
// through vm::made_here as host_one.
Tensor zeros_here(const Shape& shape, DType dtype, Memory& memory);

class Var {
 public:
  Var() = default;  // undefined: no value (an absent gradient)
  explicit Var(Tensor local, bool requires_grad = false);
  explicit Var(GlobalTensor global, bool requires_grad = false);

  bool defined() const { return impl_ != nullptr; }
  bool is_global() const;
  // The value; local() and global() throw std::invalid_argument when it is the other kind.
  const Tensor& local() const;
  const GlobalTensor& global() const;
  // This rank's data: the tensor itself, or the global tensor's local part.
  const Tensor& data() const;
  const Shape& shape() const;
  DType dtype() const;

  bool requires_grad() const;
  // Only on leaves (Vars no recorded call made), and only floating ones can require grad.
  Var& set_requires_grad(bool requires_grad);
  bool is_leaf() const;
  // The gradient accumulated by backward(); undefined until one arrives.
  Var grad() const;
  void set_grad(const Var& grad);
  const std::shared_ptr<Node>& grad_fn() const;

  // The same value cut from the graph (shares the data, requires no gradient).
  Var detach() const;
  // Replaces the value in place, keeping this Var's identity and its place in modules and
  // optimizers (an optimizer step). Shape, dtype and layout may change; the graph does not.
  void set_data(const Var& value);
  // set_data of a value torch writes in place (an optimizer's step, load_state_dict's copy_):
  // a local value takes the memory format this Var's has to users, as assign's does.
  void set_data_in_place(const Var& value);
  // An in-place op's write (x.add_(y), x[i] = v): this Var takes `result`'s value, computed
  // out of place from the old one, and while gradients are recorded, result's place in the
  // graph too (a leaf that requires grad refuses, as PyTorch's). Without recording (no_grad)
  // only the value changes, as set_data's. Both count a version: backward refuses a call
  // that read this Var's value before (PyTorch's rule), except the calls of the write
  // itself, recorded since `since` (a Node::sequence, taken before computing `result`),
  // which keep the old value they read.
  void assign(const Var& result, uint64_t since = UINT64_MAX);
  // The in-place writes so far (set_data, assign): PyTorch's x._version.
  uint64_t version() const;
  // Gradients of this Var with respect to every leaf that leads to it. Without `grad`, the
  // Var must hold one element and the seed is 1. Frees the graph's saved values unless
  // retain_graph. create_graph: the gradients are computed with grad mode on, so the calls
  // computing them are recorded and the gradients can be differentiated again (double
  // backward); without it grad mode is off during backward.
  void backward(const Var& grad = Var(), bool retain_graph = false, bool create_graph = false) const;

  // Tensor hooks (torch's Tensor.register_hook): `hook` sees this Var's gradient when
  // backward computes it and returns the gradient to use instead (or an undefined Var to
  // keep it). A leaf's hooks see each gradient backward delivers, in the leaf's layout,
  // before it is accumulated into grad(); a non-leaf's see the sum of what reaches it, before
  // it flows further back. Returns an id for remove_hook. Throws std::invalid_argument on a
  // Var that does not require grad.
  int64_t add_hook(std::function<Var(const Var& grad)> hook);
  // torch's register_post_accumulate_grad_hook: `hook` runs once backward has accumulated
  // this leaf's gradient of the pass into grad() (in its layout: after its reduction), as
  // soon as that gradient is final, before backward returns (an optimizer step per
  // parameter inside backward frees the gradient early). autograd.grad accumulates nothing
  // and runs none. Returns an id for remove_hook; throws on a non-leaf or a Var that does
  // not require grad.
  int64_t add_post_accumulate_hook(std::function<void()> hook);
  // Runs them: for a gradient accumulated outside backward's engine (backward(inputs=...)).
  void run_post_accumulate_hooks() const;
  void remove_hook(int64_t id);
  // Makes backward keep this non-leaf's gradient in grad(), in its layout (torch's
  // retain_grad); nothing to do on a leaf.
  void retain_grad();
  bool retains_grad() const;

  // ZeRO (nn/optim.h) keeps a parameter's gradient and storage sharded while every op still
  // takes the parameter whole. grad_layout: the layout backward leaves this leaf's gradient
  // in (stage 2: the shard the optimizer updates, so boxing reduce-scatters a partial one);
  // unset, the leaf's own. use_layout: the layout every op takes this Var in (stage 3: the
  // parameter stored S(0) on its data axes, used B there); unset, its own. Both only on
  // global leaves, in the Var's placement; throw std::invalid_argument otherwise.
  void set_grad_layout(const std::optional<boxing::Layout>& layout);
  void set_use_layout(const std::optional<boxing::Layout>& layout);
  bool has_use_layout() const;
  std::optional<boxing::Layout> use_layout() const;
  // This Var as ops take it: itself, or, with a use layout, its value converted there by a
  // recorded to_global (so backward reduces the gradient back to the storage layout). A call
  // that saves the converted value for backward saves how to convert it again instead
  // (SavedVar), so the gathered copy lives only as long as the forward's use of it, and
  // backward gathers it anew where it needs it.
  Var for_use() const;

  // Identity, for maps keyed by Var (modules, optimizers).
  const VarImpl* id() const { return impl_.get(); }
  bool same(const Var& other) const { return impl_ == other.impl_; }

 private:
  friend struct VarAccess;
  explicit Var(std::shared_ptr<VarImpl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<VarImpl> impl_;
};

// Where a gradient goes: the node that made an input (and which of its outputs the input
// is), or, for a leaf that requires grad, the leaf itself.
struct Edge {
  std::shared_ptr<Node> node;
  int output = 0;
  std::shared_ptr<VarImpl> leaf;
};

// One recorded call. `backward` maps the gradients of its outputs (undefined where none
// arrived and the output is not floating) to one per input (undefined where none flows).
//
// Broadcast gradients: a gradient `backward` returns may have a shape that only broadcasts to
// its input's (the same rank, size 1 where the input's dim is larger), standing for its
// expansion: a sum's gradient is one value per output element, and most of its consumers
// read it as such (relu's backward takes dy as a broadcast operand, as PyTorch's reads its
// stride-0 view) without a full-size copy in memory. The engine expands it only where the
// full shape is needed: before a node that does not take broadcast gradients, before hooks,
// before summing it with a gradient of another shape, and before a leaf's accumulation (a
// .grad always has its leaf's shape).
struct Node {
  std::string name;
  // What Tensor.grad_fn shows, as torch's node (torch.autograd.graph.Node), where it is not
  // the recorded call's: torch_name where not empty (backward_name(name) otherwise), and
  // shown_inputs where set (`inputs` otherwise) as its next_functions. Set by show_as() for
  // a composite (F.mse_loss records its last call, a mean; torch one MseLossBackward0 whose
  // edges lead to its arguments' nodes) and for a call torch makes with another op
  // (transpose's permute). Only grad_fn reads them; backward walks `inputs`.
  std::string torch_name;
  std::optional<std::vector<Edge>> shown_inputs;
  // The order of recording: a node recorded later has a larger one (next_sequence()).
  uint64_t sequence = 0;
  std::vector<Edge> inputs;  // one per input; empty edges take no gradient
  // The versions at the call of the values its backward reads (every input, unless
  // set_saved says otherwise): backward raises for one written in place since (PyTorch's
  // check of its saved tensors).
  struct Saved {
    std::weak_ptr<VarImpl> var;
    uint64_t version;
  };
  std::vector<Saved> saved;
  // Output metas, to build zeros for outputs that received no gradient.
  struct OutputMeta {
    Shape shape;
    DType dtype;
    std::optional<boxing::Layout> layout;  // set for global outputs
    Memory* memory;                         // where a local output lives
  };
  std::vector<OutputMeta> outputs;
  std::function<std::vector<Var>(const std::vector<Var>& grad_outputs)> backward;
  // Whether `backward` takes output gradients that only broadcast to the outputs' shapes
  // (above); otherwise the engine expands them first.
  bool takes_broadcast_grads = false;
  // Drops the values `backward` captured (after a backward without retain_graph).
  std::function<void()> release;
  // The hooks of this node's outputs (Var::add_hook on a non-leaf), applied in order to the
  // output's gradient before `backward` runs.
  struct Hook {
    int output;
    int64_t id;
    std::function<Var(const Var& grad)> fn;
  };
  std::vector<Hook> hooks;
  // Where the call was made (a Python stack), kept only under anomaly detection, for its error.
  std::string creation_trace;
};

// A value an op's gradient reads (an input or output of the call), saved detached, with where
// its gradient went at the call (torch's SavedVariable). unpack() gives the detached value
// while grad mode is off (an ordinary backward) and, while it is on (a create_graph backward),
// the value attached to the graph again, so a gradient computed from it is differentiable
// back through it. An output's node is held weakly: the node holds its saved values.
class SavedVar {
 public:
  SavedVar() = default;
  // `v` as the call's input, or (`output`) as one of its outputs, after record().
  SavedVar(const Var& v, bool output);
  Var unpack() const;

 private:
  Var value() const;  // the detached value, converted again for a for_use() conversion

  Var value_;
  bool requires_grad_ = false;
  std::shared_ptr<VarImpl> leaf_;      // a leaf input that required grad
  std::shared_ptr<Node> node_;         // the node that made a non-leaf input
  std::weak_ptr<Node> output_node_;    // this call's node, for an output
  int output_ = 0;
  // A Var::for_use() conversion, saved as its source and layout rather than its value;
  // unpack() converts again, refusing a source written in place since.
  std::shared_ptr<VarImpl> regather_source_;
  std::optional<boxing::Layout> regather_layout_;
  uint64_t regather_version_ = 0;
};

// Records a call: makes `outputs` non-leaf results of a node whose backward is `backward`,
// when grad mode is on and some input requires grad. Returns whether it recorded.
// Outputs that are not floating never require grad.
bool record(const std::string& name, const std::vector<Var>& inputs, std::vector<Var>& outputs,
            std::function<std::vector<Var>(const std::vector<Var>& grad_outputs)> backward,
            std::function<void()> release = nullptr);

// The sequence the next recorded node takes (Node::sequence).
uint64_t next_sequence();

// Makes `values` (inputs or outputs of the call `node` records) the ones backward checks for
// in-place writes since (Node::saved), at their versions now: those its gradient reads.
void set_saved(Node& node, const std::vector<Var>& values);

// The edge a call recording `v` as an input gives it (Node::inputs): to v's node, to the leaf
// v accumulates into, or none (v does not require grad).
Edge edge_of(const Var& v);

// Shows `out`'s node as torch's node `torch_name` (Node::torch_name) and, where `inputs` is
// given, with one edge per floating-point one of them (edge_of), as torch's node of a call
// of those arguments has. Nothing where out has no node or has one of the inputs' nodes (a
// call that returned an input). A node's name and edges are the call's own: an in-place write
// since makes a new node, which shows its own.
void show_as(const Var& out, std::string torch_name, const std::vector<Var>* inputs = nullptr);

// Grad mode: on by default, per thread. NoGradGuard turns it off for its scope
// (optimizer steps, evaluation), as mf.no_grad() does in Python.
bool grad_enabled();
class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_;
};
void set_grad_enabled(bool enabled);

// Anomaly detection (torch.autograd.set_detect_anomaly), process-wide, off by default. While on,
// backward checks every gradient a node returns and throws std::runtime_error naming the node
// ("Function 'LogBackward0' returned nan values in its 0th output.") and, where a trace source
// is set, where its call was made; record() asks the source for that trace. On global tensors
// each rank checks its parts and all ranks raise when one finds a NaN. Off, it costs one flag
// read per node.
void set_detect_anomaly(bool enabled);
bool detect_anomaly_enabled();
// Set once, before any call is recorded (the Python binding sets a Python stack at import).
void set_anomaly_trace_source(std::function<std::string()> source);
// A node's name as torch names its backward: "add_scalar" -> "AddBackward0", a Python
// Function's class name (not lower case) -> "CubeBackward".
std::string backward_name(const std::string& recorded);
// The name Tensor.grad_fn shows for `node`: its torch_name, or backward_name of its call's.
std::string torch_name(const Node& node);

// While alive, backward() hands every leaf's final gradient (after the leaf's hooks, in its
// layout) to `sink` instead of accumulating it into grad(): torch.autograd.grad, which
// leaves every .grad as it was. Per thread; guards nest (the innermost sink takes them).
class GradSinkGuard {
 public:
  explicit GradSinkGuard(std::function<void(const VarImpl* leaf, const Var& grad)> sink);
  ~GradSinkGuard();
  GradSinkGuard(const GradSinkGuard&) = delete;
  GradSinkGuard& operator=(const GradSinkGuard&) = delete;

 private:
  std::function<void(const VarImpl*, const Var&)> sink_;
  const std::function<void(const VarImpl*, const Var&)>* previous_;
};

// Gradient buckets: backward() converts each leaf's gradient to the leaf's layout as soon as
// it is final; conversions that are all-reduces (a broadcast weight's partial gradient, on
// any mesh) go in buckets of about this many logical bytes, one collective per bucket,
// issued on the comm stream while backward goes on. 0: every gradient converts alone.
void set_grad_bucket_bytes(int64_t bytes);
int64_t grad_bucket_bytes();

// Layout conversions, differentiable: the gradient of a conversion is the reverse one.
// `agree_on_arguments`: every rank checks the layout with the others first (a user's call);
// false for layouts that come from planning, which agree by construction.
Var to_global(const Var& x, const Placement& placement, const NdSbp& nd_sbp, bool agree_on_arguments = true);
// A local Var as this rank's part of a global one (make_global's rules and checks).
Var local_to_global(const Var& x, const Placement& placement, const NdSbp& nd_sbp, bool check_consistency);
// A global Var's local part, as a local Var.
Var to_local(const Var& x);
// How two local gradients on a device whose memory the host cannot touch are summed: the
// ops layer installs its add op (which runs each device's kernel); host gradients are summed
// here without it.
void set_device_gradient_sum(std::function<Tensor(const Tensor& a, const Tensor& b)> sum);
// How the engine expands a broadcast gradient (Node) to the full shape: the ops layer installs
// its expand op (recorded in a create_graph backward, laid out by SBP inference).
void set_gradient_expand(std::function<Var(const Var& grad, const Shape& shape)> expand);

// A local tensor on `target` (its gradient goes back to x's device); x itself when there.
Var to_device(const Var& x, device::Device& target);

}  // namespace mf
