// Copyright 2026 The meshflow Authors.
#include "meshflow/autograd/var.h"

#include <algorithm>
#include <numeric>
#include <atomic>
#include <cmath>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "meshflow/autograd/alias.h"
#include "meshflow/autograd/detach.h"
#include "meshflow/autograd/grad_api.h"
#include "meshflow/autograd/inference.h"
#include "meshflow/boxing/execute.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/error.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/vm/vm.h"

namespace mf {

struct VarImpl {
  // Made with its value: a default one would allocate an empty tensor, on every op's result.
  explicit VarImpl(std::variant<Tensor, GlobalTensor> v) : value(std::move(v)) {}

  std::variant<Tensor, GlobalTensor> value;
  bool requires_grad = false;
  std::shared_ptr<Node> grad_fn;  // null for leaves
  int output_index = 0;           // which output of grad_fn this is
  Var grad;
  // In-place writes so far to this Var's storage: backward refuses values changed since a call.
  // A view counts none of its own: it shares `version_base`'s (share_version, as torch's
  // views share their base's VariableVersion), so a write through any alias reaches every
  // call that saved another.
  uint64_t version = 0;
  std::shared_ptr<VarImpl> version_base;  // the Var whose count this one's is; null: its own
  bool aliases = false;  // a view of another tensor's memory (alias.h)
  bool inference = false;  // made in inference mode (Var::is_inference)
  // A leaf's hooks (Var::add_hook), in order; a non-leaf's live in its grad_fn.
  std::vector<std::pair<int64_t, std::function<Var(const Var&)>>> hooks;
  // A leaf's post-accumulate hooks (Var::add_post_accumulate_hook), in order.
  std::vector<std::pair<int64_t, std::function<void()>>> post_accumulate_hooks;
  // retain_grad's hook among grad_fn's (0: none). The Var's later hooks go before it, so .grad
  // holds the gradient every hook made, as torch's (which runs it last).
  int64_t retain_hook = 0;
  // ZeRO's layouts (Var::set_grad_layout, set_use_layout); unset: the Var's own.
  std::optional<boxing::Layout> grad_layout, use_layout;
  // On a Var::for_use() conversion: the Var it converted (SavedVar saves that instead).
  std::shared_ptr<VarImpl> used_from;
  // With a use layout: its id among them (set_use_layout's calls, counted from 1), under
  // which ZeRO's eager prefetch learns the order of gathers (gathered_for_use).
  uint64_t use_id = 0;
};

struct VarAccess {
  static const std::shared_ptr<VarImpl>& impl(const Var& v) { return v.impl_; }
  static Var wrap(std::shared_ptr<VarImpl> impl) { return Var(std::move(impl)); }
};

namespace {

VarImpl& checked(const std::shared_ptr<VarImpl>& impl) {
  if (!impl) throw std::invalid_argument("the tensor is undefined (an absent gradient)");
  return *impl;
}

// The Var holding impl's version count: itself, or the base whose count its views share.
const std::shared_ptr<VarImpl>& counting(const std::shared_ptr<VarImpl>& impl) {
  return impl->version_base ? impl->version_base : impl;
}

thread_local bool inference_mode = false;

std::shared_ptr<VarImpl> make_impl(std::variant<Tensor, GlobalTensor> value) {
  auto impl = std::make_shared<VarImpl>(std::move(value));
  impl->inference = inference_mode;
  return impl;
}

// The layout a gradient takes for a tensor of `layout`: partial axes become broadcast (a
// gradient flows back to every rank's summand alike).
boxing::Layout gradient_layout(const boxing::Layout& layout) {
  boxing::Layout out = layout;
  for (Sbp& s : out.nd_sbp) {
    if (s.is_partial()) s = Sbp::broadcast();
  }
  return out;
}

GlobalTensor zeros_global(const Shape& shape, DType dtype, const boxing::Layout& layout) {
  const int me = comm::world_rank();
  const int id = layout.placement.parallel_id(me);
  if (id < 0) {
    return GlobalTensor(shape, layout.placement, layout.nd_sbp, boxing::empty_local(shape, dtype, layout.placement.memory()));
  }
  const Box box = local_box(shape, layout.placement.hierarchy(), layout.nd_sbp, layout.placement.coordinate(id));
  return GlobalTensor(shape, layout.placement, layout.nd_sbp, zeros_here(box.extent, dtype, layout.placement.memory()));
}

// a + b for two gradients of one tensor: b is boxed to a's layout, then added locally.
// Throws std::invalid_argument unless local `value` lives on `target`'s device.
void require_same_device(const std::string& what, const Var& value, const Var& target) {
  const Memory& have = value.local().memory();
  const Memory& want = target.local().memory();
  if (&have != &want) {
    throw std::invalid_argument(what + " on " + have.device_str() + " cannot go to a tensor on " + want.device_str() +
                                "; move it with to(\"" + want.device_str() + "\") first");
  }
}

std::function<Tensor(const Tensor&, const Tensor&)>& device_gradient_sum() {
  static auto* sum = new std::function<Tensor(const Tensor&, const Tensor&)>;  // set once, at load
  return *sum;
}

// a + b, issued on the compute stream (the engine must not wait for values mid-backward).
Tensor add_async(const Tensor& a, const Tensor& b) {
  if (&a.memory() != &b.memory()) {
    throw std::invalid_argument("autograd: gradients on " + a.memory().device_str() + " and " + b.memory().device_str() +
                                " reached one tensor; expected one device");
  }
  if (!a.memory().host_accessible()) return device_gradient_sum()(a, b);
  return vm::launch("accumulate_grad", device::StreamKind::kCompute, {a, b}, {{a.shape(), a.dtype(), a.format()}},
                    [](const std::vector<Tensor>& in) {
                      return std::vector<Tensor>{reduced(in[0], in[1], ReduceOp::kSum)};
                    })[0];
}

thread_local bool grad_mode = true;

std::function<Var(const Var&, const Shape&)>& gradient_expand() {
  static auto* expand = new std::function<Var(const Var&, const Shape&)>;  // set once, at load
  return *expand;
}

// `grad` of a tensor of `shape`, a broadcast gradient (Node) expanded.
Var full_shaped(const Var& grad, const Shape& shape) {
  if (!grad.defined() || grad.shape() == shape) return grad;
  return gradient_expand()(grad, shape);
}

Var accumulate(const Var& a, const Var& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  if (a.shape() != b.shape() || a.dtype() != b.dtype() || a.is_global() != b.is_global()) {
    throw std::logic_error("autograd: gradients of shape " + to_string(b.shape()) + " and " + to_string(a.shape()) +
                           " (or of different dtypes or kinds) reached one tensor");
  }
  if (grad_mode && (a.requires_grad() || b.requires_grad())) {
    // A create_graph backward: the sum is a recorded call, so the gradient it makes can be
    // differentiated again (through b's conversion too).
    const Var b_in = a.is_global() ? to_global(b, a.global().placement(), a.global().nd_sbp(), false) : b;
    std::vector<Var> out{accumulate(a.detach(), b_in.detach())};
    record("accumulate_grad", {a, b_in}, out, [](const std::vector<Var>& g) { return std::vector<Var>{g[0], g[0]}; });
    return out[0];
  }
  if (!a.is_global()) return Var(add_async(a.local(), b.local()));
  const GlobalTensor& ga = a.global();
  const GlobalTensor gb = convert(b.global(), ga.placement(), ga.nd_sbp());
  if (ConversionTracer* tracer = conversion_tracer()) return Var(tracer->trace_accumulate(ga, gb));
  return Var(GlobalTensor(ga.shape(), ga.placement(), ga.nd_sbp(), add_async(ga.local(), gb.local())));
}

// a + b for gradients of a tensor of `shape`: two broadcast gradients of one shape add as
// they are (the sum of their expansions is the expansion of their sum, element for element).
Var accumulate(const Var& a, const Var& b, const Shape& shape) {
  if (a.defined() && b.defined() && a.shape() != b.shape()) {
    return accumulate(full_shaped(a, shape), full_shaped(b, shape));
  }
  return accumulate(a, b);
}

// The layout backward leaves a global leaf's gradient in: its grad_layout, or its own.
boxing::Layout grad_layout_of(const VarImpl& leaf) {
  return leaf.grad_layout ? *leaf.grad_layout : std::get<GlobalTensor>(leaf.value).layout();
}

// A leaf's gradient in the leaf's gradient layout (boxing does any all-reduce or
// reduce-scatter of a partial one).
Var in_layout_of(const Var& grad, const Var& leaf) {
  if (!leaf.is_global()) return grad;
  const GlobalTensor& g = grad.global();
  const boxing::Layout to = grad_layout_of(*VarAccess::impl(leaf));
  if (g.placement() == to.placement && g.nd_sbp() == to.nd_sbp) return grad;
  return to_global(grad, to.placement, to.nd_sbp, false);  // recorded in a create_graph backward
}

std::atomic<bool> anomaly_mode{false};
// Set once, at import, by the Python binding (a Python stack); read by record() under
// anomaly detection.
std::function<std::string()>& anomaly_trace_source() {
  static auto* source = new std::function<std::string()>;
  return *source;
}
std::atomic<int64_t> bucket_bytes{1 << 20};  // bench/overlap_bench.py: 0.25-1 MiB best, 4 MiB slower, 16 MiB no overlap

thread_local const std::function<void(const VarImpl*, const Var&)>* grad_sink = nullptr;
std::atomic<int64_t> next_hook_id{1};

// The storages this thread's backward has made leaves' gradients of, and its seed's
// (DeliveredStorages, while a backward runs; null otherwise).
thread_local std::unordered_set<const void*>* delivered_storages = nullptr;

class DeliveredStorages {
 public:
  explicit DeliveredStorages(const Var& seed) : previous_(delivered_storages) {
    if (seed.defined()) seen_.insert(storage_of(seed));
    delivered_storages = &seen_;
  }
  ~DeliveredStorages() { delivered_storages = previous_; }
  DeliveredStorages(const DeliveredStorages&) = delete;
  DeliveredStorages& operator=(const DeliveredStorages&) = delete;

  static const void* storage_of(const Var& v) {
    return v.is_global() ? v.global().local().storage().get() : v.local().storage().get();
  }

 private:
  std::unordered_set<const void*> seen_;
  std::unordered_set<const void*>* previous_;
};

// `grad` as a leaf's first gradient: a Var of the leaf's own, over memory of its own where
// the memory is another leaf's gradient of this backward or its seed (an add's backward
// hands one gradient to both inputs; a view's keeps the memory), so that a write into one
// .grad (p.grad[i] = 0, which writes memory) changes no other tensor, as torch's.
Var own_gradient(const Var& grad) {
  if (delivered_storages == nullptr || delivered_storages->insert(DeliveredStorages::storage_of(grad)).second) {
    return grad.detach();
  }
  const Tensor& local = grad.is_global() ? grad.global().local() : grad.local();
  const Tensor copy = add_async(zeros_here(local.shape(), local.dtype(), local.memory()), local);
  if (!grad.is_global()) return Var(copy);
  const GlobalTensor& g = grad.global();
  return Var(GlobalTensor(g.shape(), g.placement(), g.nd_sbp(), copy));
}

// A local leaf's gradient in the leaf's memory format, as torch's AccumulateGrad makes it: a
// channels-last parameter's .grad is channels-last (its later sums keep that format).
Var in_format_of(const VarImpl& leaf, const Var& grad) {
  const Tensor* value = std::get_if<Tensor>(&leaf.value);
  if (value == nullptr || grad.is_global() || value->format() != MemoryFormat::kChannelsLast ||
      grad.local().format() == MemoryFormat::kChannelsLast) {
    return grad;
  }
  return Var(to_memory_format(grad.local(), MemoryFormat::kChannelsLast));
}

// leaf.grad += grad (after the leaf's hooks; to the sink instead while one is set), told
// to a graph tracer (which runs what reads gradients once per step when the step is split
// into micro-batches). As torch's AccumulateGrad, a leaf's .grad is a tensor of its own that
// later backwards add into in place: a first gradient is held by a Var of the leaf's own
// (the one an add's backward hands to both of its inputs must not be two leaves' .grad, nor
// the seed a caller passed, or p.grad.mul_(c) in one would change the others), and the sum
// is stored into that Var, so that `g = p.grad` sees what a later backward adds. Recorded
// sums (create_graph) and traced ones (a graph) make a new Var, as before.
void run_post_accumulate_hooks(const VarImpl& leaf) {
  if (leaf.post_accumulate_hooks.empty()) return;  // every leaf of every backward passes here
  const auto hooks = leaf.post_accumulate_hooks;  // a copy: a hook may add or remove hooks
  for (const auto& hook : hooks) hook.second();
}

void add_to_grad(VarImpl& leaf, Var grad) {
  for (const auto& hook : leaf.hooks) {
    Var replaced = hook.second(grad);  // an undefined result keeps the gradient
    if (replaced.defined()) grad = std::move(replaced);
  }
  if (grad_sink) {
    (*grad_sink)(&leaf, grad);
    return;
  }
  const bool in_place = leaf.grad.defined() && !grad_mode && !conversion_tracer();
  if (in_place) {
    leaf.grad.set_data(accumulate(leaf.grad, grad));
  } else {
    leaf.grad = accumulate(leaf.grad, grad);
    if (!leaf.grad.requires_grad()) leaf.grad = in_format_of(leaf, own_gradient(leaf.grad));
  }
  if (ConversionTracer* tracer = conversion_tracer(); tracer && leaf.grad.is_global()) {
    tracer->trace_leaf_gradient(&leaf, leaf.grad.global());
  }
  run_post_accumulate_hooks(leaf);
}

// Compute runs ahead of the comm stream, and what it makes for a collective waits there,
// holding its memory; so the collectives of a step each start once the one before them has
// run. ZeRO stage 3's gathers (Var::for_use, and again in backward) are issued one at a
// time: the host waits for the gather before (as FSDP's limit_all_gathers), so it stays
// within about a layer of the VM and no more than two layers are gathered at once, and
// one more parameter prefetched (gathered_for_use, below). The
// reductions of gradients during backward (data parallelism's buckets, ZeRO's
// reduce-scatters into shards) order the compute issued after them behind the reduction
// before them, on the device (vm::order_compute_after), so the host does not wait and a
// backward holds at most about two partial gradients waiting for their reduction. The
// last gather stays referenced until the next, the last reduction until the end of its
// backward; never destroyed, so nothing is freed after the VM at exit.
std::optional<Tensor>& last_gather() {
  thread_local auto* last = new std::optional<Tensor>;
  return *last;
}
std::optional<Tensor>& last_reduction() {
  thread_local auto* last = new std::optional<Tensor>;
  return *last;
}

// Runs `issue`, which issues a gather and returns (a local part of) its result.
void gathered_one_at_a_time(const std::function<Tensor()>& issue) {
  if (conversion_tracer()) {  // traced: a graph orders them (graph/zero.h)
    issue();
    return;
  }
  // A wait for pace alone, raising nothing: a gather's error (an out of memory may be this
  // rank's alone, which raised here would leave the others in the step's collectives) goes
  // on with the values it failed to the step's read, where the ranks raise it together.
  if (last_gather()) vm::wait_run(*last_gather());
  last_gather() = issue();
}

// ZeRO stage 3's eager prefetch, as FSDP's forward and backward prefetch: a gather of a
// sharded parameter for a pass (Var::for_use in forward, SavedVar's regather in backward)
// also issues the gather that followed it the last time in a pass of that kind, so that the
// next parameter's all-gather runs on the comm stream while this one's ops compute. The
// order is learned from the program's own sequence of gathers, under use ids: every rank
// runs the same program, so every rank prefetches the same parameters in the same order,
// whatever the timing, and issues the same collectives. A pass of another kind ends the
// sequence (nothing is prefetched across an optimizer step); a forward that activation
// checkpointing runs again inside backward is a kind of its own, so that its last gather
// does not prefetch the next block's of the first forward. A prefetched gather serves the
// next gather of its parameter in that kind of pass while the parameter is unchanged (its
// version) and is dropped by any other (a gather wasted, on every rank alike): it holds
// one more gathered parameter at a time, never a different value.
enum class Pass { kForward, kBackward, kRecompute };
constexpr int kPasses = 3;

// x's conversion, computed already, recorded as to_global's (below).
Var converted_as_to_global(const Var& x, GlobalTensor converted);

struct Prefetch {
  uint64_t last[kPasses] = {};  // the id gathered last in each kind of pass; 0: none since another
  std::unordered_map<uint64_t, std::weak_ptr<VarImpl>> next[kPasses];  // per kind: id -> what followed it
  // The prefetched gather, when `value` holds one.
  Pass pass = Pass::kForward;
  uint64_t id = 0, version = 0;
  std::optional<GlobalTensor> value;
};

Prefetch& prefetch() {
  thread_local auto* p = new Prefetch;  // never destroyed: nothing freed after the VM at exit
  return *p;
}

std::atomic<bool> prefetch_on{true};

// `source` (a parameter with a use layout) gathered into its use layout for a pass: the
// prefetched gather where it is this one, else issued now; then the gather that followed
// this one last time is prefetched.
GlobalTensor gathered_for_use(Pass pass, const std::shared_ptr<VarImpl>& source) {
  Prefetch& p = prefetch();
  const boxing::Layout& layout = *source->use_layout;
  std::optional<GlobalTensor> got;
  if (p.value && p.pass == pass && p.id == source->use_id && p.version == counting(source)->version) got = std::move(p.value);
  p.value.reset();
  if (!got) {
    gathered_one_at_a_time([&] {
      got = convert(std::get<GlobalTensor>(source->value), layout.placement, layout.nd_sbp);
      return got->local();
    });
  }
  const int k = static_cast<int>(pass);
  for (int other = 0; other < kPasses; ++other) {
    if (other != k) p.last[other] = 0;
  }
  if (p.last[k] != 0) p.next[k][p.last[k]] = source;
  p.last[k] = source->use_id;
  auto it = p.next[k].find(source->use_id);
  const std::shared_ptr<VarImpl> next = it == p.next[k].end() ? nullptr : it->second.lock();
  if (prefetch_on.load(std::memory_order_relaxed) && next && next->use_layout && !conversion_tracer()) {
    const GlobalTensor& stored = std::get<GlobalTensor>(next->value);
    if (!(stored.layout() == *next->use_layout)) {
      gathered_one_at_a_time([&] {
        p.value = convert(stored, next->use_layout->placement, next->use_layout->nd_sbp);
        return p.value->local();
      });
      p.pass = pass;
      p.id = next->use_id;
      p.version = counting(next)->version;
    }
  }
  return *got;
}

// Runs `issue`, which issues a reduction of gradients and returns (a local part of) its result.
void reduced_in_turn(const std::function<Tensor()>& issue) {
  if (conversion_tracer()) {
    issue();
    return;
  }
  if (last_reduction()) vm::order_compute_after(*last_reduction());
  last_reduction() = issue();
}

// Converts leaves' final gradients to the leaves' layouts during backward. A conversion
// that fuses (boxing::fusion_key: all-reduces, whatever the layout) waits in the bucket of
// its key until the bucket holds bucket_bytes, and the bucket goes as one comm
// instruction; the others go at once. The comm stream runs them while backward goes on.
// Every rank sees the same gradients in the same order and counts logical bytes, so every
// rank cuts the same buckets and issues the same collectives in the same order.
class GradConversions {
 public:
  explicit GradConversions(int64_t bucket_bytes) : bucket_bytes_(bucket_bytes) {}
  // The order of reductions ends with the backward pass, also one that an error (a hook's,
  // an out of memory) ends: the last reduction's gradient is not held after it.
  ~GradConversions() { last_reduction().reset(); }
  GradConversions(const GradConversions&) = delete;
  GradConversions& operator=(const GradConversions&) = delete;

  void add(const std::shared_ptr<VarImpl>& leaf, const Var& grad) {
    const Var leaf_var = VarAccess::wrap(leaf);
    if (!leaf_var.is_global()) {
      add_to_grad(*leaf, grad);
      return;
    }
    const GlobalTensor& g = grad.global();
    const boxing::Layout to = grad_layout_of(*leaf);
    std::shared_ptr<const boxing::Plan> plan = boxing::cached_plan(g.shape(), g.dtype(), g.layout(), to);
    std::optional<std::string> key = bucket_bytes_ > 0 ? boxing::fusion_key(*plan) : std::nullopt;
    if (!key) {
      if (!leaf->grad_layout) {
        add_to_grad(*leaf, in_layout_of(grad, leaf_var));
        return;
      }
      Var reduced;
      reduced_in_turn([&] {
        reduced = in_layout_of(grad, leaf_var);
        return reduced.global().local();
      });
      add_to_grad(*leaf, reduced);
      return;
    }
    *key += dtype_name(g.dtype());
    auto [it, inserted] = buckets_.try_emplace(*key);
    if (inserted) order_.push_back(*key);
    Bucket& b = it->second;
    b.plan = std::move(plan);
    b.leaves.push_back(leaf);
    b.grads.push_back(g.local());
    b.bytes += numel(g.shape()) * static_cast<int64_t>(dtype_size(g.dtype()));
    if (b.bytes >= bucket_bytes_) issue(b);
  }

  // Issues the buckets still filling, in the order they were opened.
  void flush() {
    for (const std::string& key : order_) issue(buckets_[key]);
  }

 private:
  struct Bucket {
    std::shared_ptr<const boxing::Plan> plan;
    std::vector<std::shared_ptr<VarImpl>> leaves;
    std::vector<Tensor> grads;  // local parts, in the gradients' layout
    int64_t bytes = 0;
  };

  static void issue(Bucket& b) {
    if (b.leaves.empty()) return;
    std::vector<Tensor> locals;
    reduced_in_turn([&] {
      locals = launch_fused_boxing(b.plan, b.grads, "grad_bucket");
      return locals.front();
    });
    for (size_t i = 0; i < b.leaves.size(); ++i) {
      VarImpl& leaf = *b.leaves[i];
      const GlobalTensor& l = std::get<GlobalTensor>(leaf.value);
      add_to_grad(leaf, Var(GlobalTensor(l.shape(), l.placement(), l.nd_sbp(), locals[i])));
    }
    b = Bucket{};
  }

  const int64_t bucket_bytes_;
  std::map<std::string, Bucket> buckets_;
  std::vector<std::string> order_;
};

}  // namespace

void set_grad_bucket_bytes(int64_t bytes) {
  if (bytes < 0) throw std::invalid_argument("grad bucket size must be >= 0 bytes, got " + std::to_string(bytes));
  bucket_bytes = bytes;
}
int64_t grad_bucket_bytes() { return bucket_bytes; }

Var::Var(Tensor local, bool requires_grad) : impl_(make_impl(std::move(local))) {
  if (requires_grad) set_requires_grad(true);
}
Var::Var(GlobalTensor global, bool requires_grad) : impl_(make_impl(std::move(global))) {
  if (requires_grad) set_requires_grad(true);
}

bool Var::is_global() const { return std::holds_alternative<GlobalTensor>(checked(impl_).value); }

const Tensor& Var::local() const {
  if (is_global()) throw std::invalid_argument("expected a local tensor, got a global one; call to_local() first");
  return std::get<Tensor>(impl_->value);
}

const GlobalTensor& Var::global() const {
  if (!is_global()) throw std::invalid_argument("expected a global tensor, got a local one; call to_global() first");
  return std::get<GlobalTensor>(impl_->value);
}

const Tensor& Var::data() const { return is_global() ? global().local() : local(); }
const Shape& Var::shape() const { return is_global() ? global().shape() : local().shape(); }
DType Var::dtype() const { return data().dtype(); }
bool Var::requires_grad() const { return checked(impl_).requires_grad; }
bool Var::is_leaf() const { return checked(impl_).grad_fn == nullptr; }
Var Var::grad() const { return checked(impl_).grad; }
const std::shared_ptr<Node>& Var::grad_fn() const { return checked(impl_).grad_fn; }

namespace {

// Whether values of `dtype` take gradients: the floating and complex dtypes, as torch's.
bool differentiable(DType dtype) { return is_floating(dtype) || is_complex(dtype); }

}  // namespace

Var& Var::set_requires_grad(bool requires_grad) {
  VarImpl& impl = checked(impl_);
  if (impl.grad_fn) {
    throw OpError("requires_grad can only be set on leaf tensors; this one was computed by " +
                  impl.grad_fn->name + " (use detach() for a leaf)");
  }
  if (requires_grad && !differentiable(dtype())) {
    throw OpError(std::string("only floating and complex tensors can require gradients; this one is ") +
                  dtype_name(dtype()));
  }
  impl.requires_grad = requires_grad;
  return *this;
}

void Var::set_grad(const Var& grad) {
  VarImpl& impl = checked(impl_);
  if (grad.defined() && (grad.shape() != shape() || grad.dtype() != dtype() || grad.is_global() != is_global())) {
    throw OpError("a gradient of shape " + to_string(grad.shape()) + " " + dtype_name(grad.dtype()) +
                  " cannot be assigned to a tensor of shape " + to_string(shape()) + " " +
                  dtype_name(dtype()));
  }
  if (grad.defined() && !is_global()) require_same_device("a gradient", grad, *this);
  impl.grad = grad;
}

Var aliasing(Tensor part, const Var& base) {
  Var v(std::move(part));
  VarAccess::impl(v)->aliases = true;
  share_version(v, base);
  return v;
}

void share_version(const Var& view, const Var& base) {
  const std::shared_ptr<VarImpl>& impl = VarAccess::impl(view);
  checked(impl);
  checked(VarAccess::impl(base));
  const std::shared_ptr<VarImpl>& from = counting(VarAccess::impl(base));
  if (from != impl && impl->version_base != from) impl->version_base = from;
}

bool aliases(const Var& v) { return checked(VarAccess::impl(v)).aliases; }

bool is_inference(const Var& v) { return checked(VarAccess::impl(v)).inference; }

void check_inference_write(bool inference) {
  if (inference && !inference_mode) {
    throw std::runtime_error("Inplace update to inference tensor outside InferenceMode is not allowed. You can make a "
                             "clone to get a normal tensor before doing inplace update (or write inside "
                             "inference_mode)");
  }
}

Var Var::detach() const {
  Var d(make_impl(checked(impl_).value));
  d.impl_->aliases = impl_->aliases;
  d.impl_->inference = impl_->inference;
  return d;
}

void detach_in_place(Var& v) {
  VarImpl& impl = checked(VarAccess::impl(v));
  impl.grad_fn.reset();
  impl.output_index = 0;
  impl.retain_hook = 0;
  impl.requires_grad = false;
}

namespace {

// A new value for `impl`: a Var with a use layout (ZeRO stage 3) keeps its storage layout
// whatever layout the value comes in (an in-place write computes on the gathered value).
std::variant<Tensor, GlobalTensor> stored_value(const VarImpl& impl, const VarImpl& value) {
  if (!impl.use_layout || !std::holds_alternative<GlobalTensor>(value.value)) return value.value;
  const boxing::Layout storage = std::get<GlobalTensor>(impl.value).layout();
  const GlobalTensor& v = std::get<GlobalTensor>(value.value);
  if (v.layout() == storage) return v;
  return convert(v, storage.placement, storage.nd_sbp);
}

// stored_value of a write in place (an in-place op, an optimizer's step, load_state_dict's
// copy): a local value takes the memory format the old one has to users, as torch's in-place
// writes keep strides, so that a channels_last parameter stays channels_last after its step
// and a row-major tensor does not become channels_last by taking a channels_last value (that
// value's bytes stay, relabelled as the layout a convolution chose: no copy).
std::variant<Tensor, GlobalTensor> stored_in_place(const VarImpl& impl, const VarImpl& value) {
  const Tensor* old = std::get_if<Tensor>(&impl.value);
  const Tensor* now = std::get_if<Tensor>(&value.value);
  if (!old || !now || now->shape() != old->shape()) return stored_value(impl, value);
  const bool wanted = old->format() == MemoryFormat::kChannelsLast;
  if (wanted == (now->format() == MemoryFormat::kChannelsLast)) return *now;
  return to_memory_format(*now, wanted ? MemoryFormat::kChannelsLast : MemoryFormat::kChannelsLastInternal);
}

// An in-place write's new value for `impl`: stored_in_place, but written over the old one's
// memory where NumPy shares it (torch.from_numpy, Tensor.numpy()), so that the array sees
// the write; there a value made over that memory already (an indexed write's) is taken as it
// is. `over_old`: whether the old value's bytes changed.
std::variant<Tensor, GlobalTensor> written_value(const VarImpl& impl, const VarImpl& value, bool& over_old) {
  const Tensor* old = std::get_if<Tensor>(&impl.value);
  const Tensor* now = std::get_if<Tensor>(&value.value);
  if (!old || !now || !vm::shared_with_host(*old) || now->shape() != old->shape() ||
      now->dtype() != old->dtype() || &now->memory() != &old->memory()) {
    return stored_in_place(impl, value);
  }
  over_old = true;
  if (now->is_ready() && now->data() == old->data()) return *now;
  return vm::write_over(*old, *now);
}

void check_zero_layout(const VarImpl& impl, const std::optional<boxing::Layout>& layout, const char* what) {
  if (!layout) return;
  if (impl.grad_fn || !std::holds_alternative<GlobalTensor>(impl.value)) {
    throw std::invalid_argument(std::string(what) + ": expected a global leaf tensor (a parameter)");
  }
  const GlobalTensor& g = std::get<GlobalTensor>(impl.value);
  if (layout->placement != g.placement() || layout->nd_sbp.size() != g.nd_sbp().size()) {
    throw std::invalid_argument(std::string(what) + ": the layout must be on the tensor's placement " +
                                g.placement().str());
  }
}

}  // namespace

void Var::set_data(const Var& value) {
  VarImpl& impl = checked(impl_);
  impl.value = stored_value(impl, checked(value.impl_));
  impl.aliases = impl.aliases || value.impl_->aliases;  // a written view's memory may still be its base's
  ++counting(impl_)->version;
}

void Var::set_data_in_place(const Var& value) {
  VarImpl& impl = checked(impl_);
  impl.value = stored_in_place(impl, checked(value.impl_));
  impl.aliases = impl.aliases || value.impl_->aliases;
  ++counting(impl_)->version;
}

void Var::set_grad_layout(const std::optional<boxing::Layout>& layout) {
  VarImpl& impl = checked(impl_);
  check_zero_layout(impl, layout, "set_grad_layout");
  impl.grad_layout = layout;
}

void Var::set_use_layout(const std::optional<boxing::Layout>& layout) {
  VarImpl& impl = checked(impl_);
  check_zero_layout(impl, layout, "set_use_layout");
  impl.use_layout = layout;
  static std::atomic<uint64_t> ids{0};
  impl.use_id = layout ? ++ids : 0;
}

bool Var::has_use_layout() const { return impl_ && impl_->use_layout; }

std::optional<boxing::Layout> Var::use_layout() const { return checked(impl_).use_layout; }

Var Var::for_use() const {
  const VarImpl& impl = checked(impl_);
  if (!impl.use_layout || global().layout() == *impl.use_layout) return *this;
  Var used;
  if (conversion_tracer()) {
    gathered_one_at_a_time([&] {
      used = to_global(*this, impl.use_layout->placement, impl.use_layout->nd_sbp, false);
      return used.global().local();
    });
  } else {
    // Inside a backward (delivered_storages set): activation checkpointing's forward again.
    const Pass pass = delivered_storages ? Pass::kRecompute : Pass::kForward;
    used = converted_as_to_global(*this, gathered_for_use(pass, impl_));
  }
  used.impl_->used_from = impl_;
  return used;
}

uint64_t Var::version() const {
  checked(impl_);
  return counting(impl_)->version;
}

namespace {

std::atomic<uint64_t> sequence{0};

// The calls that computed an in-place write's value from the old one (recorded since
// `since`, on the way from `result` back) keep that value: their checks take `version`.
void exempt_own_calls(const std::shared_ptr<VarImpl>& impl, Node* result, uint64_t since, uint64_t version) {
  std::vector<Node*> todo{result};
  std::unordered_set<Node*> seen{result};
  while (!todo.empty()) {
    Node* node = todo.back();
    todo.pop_back();
    for (Node::Saved& saved : node->saved) {
      if (saved.version == version - 1 && saved.var.lock() == impl) saved.version = version;
    }
    for (const Edge& e : node->inputs) {
      if (e.node && e.node->sequence >= since && seen.insert(e.node.get()).second) todo.push_back(e.node.get());
    }
  }
}

}  // namespace

uint64_t next_sequence() { return sequence.load(std::memory_order_relaxed); }

namespace {

// Var::assign, counting a version where `counted` (follow_write's not).
void assign_value(const std::shared_ptr<VarImpl>& target, const Var& result, uint64_t since, bool counted) {
  VarImpl& impl = checked(target);
  const VarImpl& r = checked(VarAccess::impl(result));
  if (grad_mode && impl.requires_grad && !impl.grad_fn) {
    throw std::invalid_argument(
        "a leaf tensor that requires grad is used in an in-place operation; expected the write under "
        "mf.no_grad() (as an optimizer step), or on a copy (clone) of the leaf");
  }
  if (counted) check_inference_write(impl.inference);
  const std::shared_ptr<VarImpl>& count = counting(target);
  if (counted) ++count->version;
  bool over_old = false;
  impl.value = written_value(impl, r, over_old);
  impl.aliases = impl.aliases || r.aliases;  // a view written in place is its base's memory still
  if (!grad_mode) return;
  // The write's own calls keep the old value they read, unless it was written over.
  if (counted && r.grad_fn && r.grad_fn->sequence >= since && !over_old) {
    exempt_own_calls(count, r.grad_fn.get(), since, count->version);
  }
  impl.requires_grad = r.requires_grad;
  impl.grad_fn = r.grad_fn;
  impl.output_index = r.output_index;
}

}  // namespace

void Var::assign(const Var& result, uint64_t since) { assign_value(impl_, result, since, true); }

void follow_write(const Var& v, const Var& result) { assign_value(VarAccess::impl(v), result, UINT64_MAX, false); }

bool grad_enabled() { return grad_mode && !inference_mode; }
bool grad_mode_set() { return grad_mode; }
void set_grad_enabled(bool enabled) { grad_mode = enabled; }
bool inference_mode_enabled() { return inference_mode; }
void set_inference_mode(bool enabled) { inference_mode = enabled; }
NoGradGuard::NoGradGuard() : previous_(grad_mode) { grad_mode = false; }
NoGradGuard::~NoGradGuard() { grad_mode = previous_; }

bool record(const std::string& name, const std::vector<Var>& inputs, std::vector<Var>& outputs,
            std::function<std::vector<Var>(const std::vector<Var>& grad_outputs)> backward,
            std::function<void()> release) {
  // grad mode as set, not grad_enabled(): inference mode stops the ops' recording (their
  // callers ask grad_enabled()), not a custom Function's, as torch's Python Functions record
  // under enable_grad() inside inference mode
  if (!grad_mode) return false;
  const bool any = std::any_of(inputs.begin(), inputs.end(), [](const Var& v) { return v.defined() && v.requires_grad(); });
  if (!any) return false;
  auto node = std::make_shared<Node>();
  node->name = name;
  node->sequence = sequence.fetch_add(1, std::memory_order_relaxed);
  for (const Var& in : inputs) {
    node->inputs.push_back(edge_of(in));
    if (in.defined()) {
      const std::shared_ptr<VarImpl>& count = counting(VarAccess::impl(in));
      node->saved.push_back({count, count->version});
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Var& out = outputs[i];
    Node::OutputMeta meta{out.shape(), out.dtype(), std::nullopt, &host_memory()};
    if (out.is_global()) {
      meta.layout = out.global().layout();
    } else {
      meta.memory = &out.local().memory();
    }
    node->outputs.push_back(meta);
    if (differentiable(out.dtype())) {
      VarImpl& impl = *VarAccess::impl(out);
      impl.requires_grad = true;
      impl.grad_fn = node;
      impl.output_index = static_cast<int>(i);
    }
  }
  node->backward = std::move(backward);
  node->release = std::move(release);
  if (anomaly_mode && anomaly_trace_source()) node->creation_trace = anomaly_trace_source()();
  return true;
}

void set_saved(Node& node, const std::vector<Var>& values) {
  node.saved.clear();
  for (const Var& v : values) {
    if (!v.defined()) continue;
    const std::shared_ptr<VarImpl>& count = counting(VarAccess::impl(v));
    node.saved.push_back({count, count->version});
  }
}

SavedVar::SavedVar(const Var& v, bool output) : value_(v.detach()), requires_grad_(v.requires_grad()) {
  const VarImpl& impl = *VarAccess::impl(v);
  if (impl.used_from && !output) {
    regather_source_ = impl.used_from;
    regather_layout_ = std::get<GlobalTensor>(impl.value).layout();
    regather_version_ = counting(impl.used_from)->version;
    value_ = Var();
  }
  if (!requires_grad_) return;
  if (output) {
    output_node_ = impl.grad_fn;
    output_ = impl.output_index;
  } else if (impl.grad_fn) {
    node_ = impl.grad_fn;
    output_ = impl.output_index;
  } else {
    leaf_ = VarAccess::impl(v);
  }
}

Var SavedVar::value() const {
  if (!regather_source_) return value_;
  if (const uint64_t now = counting(regather_source_)->version; now != regather_version_) {
    throw std::runtime_error("backward: a parameter sharded by ZeRO stage 3 was written in place (version " +
                             std::to_string(now) + ") after a call used it (version " +
                             std::to_string(regather_version_) + "); expected the optimizer step after backward");
  }
  if (!conversion_tracer() && regather_source_->use_layout == regather_layout_) {
    return Var(gathered_for_use(Pass::kBackward, regather_source_));
  }
  const GlobalTensor& source = std::get<GlobalTensor>(regather_source_->value);
  std::optional<GlobalTensor> gathered;
  gathered_one_at_a_time([&] {
    gathered = convert(source, regather_layout_->placement, regather_layout_->nd_sbp);
    return gathered->local();
  });
  return Var(*gathered);
}

Var SavedVar::unpack() const {
  if (!grad_mode || !requires_grad_) return value();
  // A leaf is itself (backward checked that no set_data changed it since the call).
  if (leaf_) return VarAccess::wrap(leaf_);
  std::shared_ptr<Node> node = node_ ? node_ : output_node_.lock();
  if (!node) return value();
  auto impl = make_impl(VarAccess::impl(value())->value);
  impl->requires_grad = true;
  impl->grad_fn = std::move(node);
  impl->output_index = output_;
  return VarAccess::wrap(std::move(impl));
}

void set_detect_anomaly(bool enabled) { anomaly_mode = enabled; }
bool detect_anomaly_enabled() { return anomaly_mode; }
void set_anomaly_trace_source(std::function<std::string()> source) { anomaly_trace_source() = std::move(source); }

Edge edge_of(const Var& v) {
  Edge edge;
  if (v.defined() && v.requires_grad()) {
    const std::shared_ptr<VarImpl>& impl = VarAccess::impl(v);
    if (impl->grad_fn) {
      edge.node = impl->grad_fn;
      edge.output = impl->output_index;
    } else {
      edge.leaf = impl;
    }
  }
  return edge;
}

void show_as(const Var& out, std::string torch_name, const std::vector<Var>* inputs) {
  if (!out.defined() || !out.requires_grad()) return;
  const std::shared_ptr<Node>& node = VarAccess::impl(out)->grad_fn;
  if (!node) return;
  std::vector<Edge> edges;
  if (inputs) {
    for (const Var& in : *inputs) {
      if (in.defined() && in.grad_fn() == node) return;
      if (in.defined() && is_floating(in.dtype())) edges.push_back(edge_of(in));
    }
  }
  node->torch_name = std::move(torch_name);
  if (inputs) node->shown_inputs = std::move(edges);
}

std::string torch_name(const Node& node) { return node.torch_name.empty() ? backward_name(node.name) : node.torch_name; }

std::string backward_name(const std::string& recorded) {
  std::string lower = recorded;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower != recorded) return recorded + "Backward";
  // torch's names of the calls meshflow names otherwise (its scalar variants are one op there;
  // x.to and casts are ToCopy; reshape is a view where torch's can be; pow's overloads: of
  // (tensor, number) 0, of two tensors 1, of (number, tensor) 2).
  static const std::map<std::string, std::string> overloads = {{"pow", "PowBackward1"}, {"rpow_scalar", "PowBackward2"}};
  if (auto it = overloads.find(recorded); it != overloads.end()) return it->second;
  static const std::map<std::string, std::string> torch_names = {
      {"add_scalar", "Add"}, {"mul_scalar", "Mul"},   {"div_scalar", "Div"}, {"pow_scalar", "Pow"},
      {"matmul", "Mm"},      {"reshape", "View"},     {"flat_index", "Index"},
      {"cast", "ToCopy"},    {"to", "ToCopy"},         {"max_dim", "Max"},    {"min_dim", "Min"},
      {"gelu_tanh", "Gelu"},  // gelu's approximate='tanh'
      // the norms and pools as torch's native ops name them
      {"layer_norm", "NativeLayerNorm"}, {"batch_norm", "NativeBatchNorm"}, {"group_norm", "NativeGroupNorm"},
      {"max_pool2d", "MaxPool2DWithIndices"}, {"max_pool3d", "MaxPool3DWithIndices"}, {"avg_pool2d", "AvgPool2D"},
      {"avg_pool3d", "AvgPool3D"}, {"conv1d", "Convolution"}, {"conv2d", "Convolution"}, {"conv3d", "Convolution"},
      // torch's linalg.cholesky, inv and solve run their _ex forms
      {"linalg_cholesky", "LinalgCholeskyEx"}, {"linalg_inv", "LinalgInvEx"}, {"linalg_solve", "LinalgSolveEx"}};
  if (auto it = torch_names.find(recorded); it != torch_names.end()) return it->second + "Backward0";
  std::string camel;
  bool upper = true;
  for (const char c : recorded) {
    if (c == '_' || c == '.') {
      upper = true;
    } else {
      camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
  }
  return camel + "Backward0";
}

int64_t Var::add_hook(std::function<Var(const Var& grad)> hook) {
  VarImpl& impl = checked(impl_);
  if (!impl.requires_grad) {
    throw OpError("cannot register a hook on a tensor that doesn't require gradient");
  }
  const int64_t id = next_hook_id++;
  if (impl.grad_fn) {
    std::vector<Node::Hook>& hooks = impl.grad_fn->hooks;
    const int64_t retained = impl.retain_hook;
    hooks.insert(std::find_if(hooks.begin(), hooks.end(), [retained](const Node::Hook& h) { return h.id == retained; }),
                 {impl.output_index, id, std::move(hook)});
  } else {
    impl.hooks.emplace_back(id, std::move(hook));
  }
  return id;
}

int64_t Var::add_post_accumulate_hook(std::function<void()> hook) {
  VarImpl& impl = checked(impl_);
  if (!impl.requires_grad) {
    throw OpError("cannot register a hook on a tensor that doesn't require gradient");
  }
  if (impl.grad_fn) throw OpError("post accumulate grad hooks cannot be registered on non-leaf tensors");
  const int64_t id = next_hook_id++;
  impl.post_accumulate_hooks.emplace_back(id, std::move(hook));
  return id;
}

void Var::run_post_accumulate_hooks() const { mf::run_post_accumulate_hooks(checked(impl_)); }

void Var::remove_hook(int64_t id) {
  VarImpl& impl = checked(impl_);
  const auto with_id = [id](const auto& h) { return h.first == id; };
  auto& leaf = impl.hooks;
  leaf.erase(std::remove_if(leaf.begin(), leaf.end(), with_id), leaf.end());
  auto& post = impl.post_accumulate_hooks;
  post.erase(std::remove_if(post.begin(), post.end(), with_id), post.end());
  if (impl.grad_fn) {
    auto& node = impl.grad_fn->hooks;
    node.erase(std::remove_if(node.begin(), node.end(), [id](const Node::Hook& h) { return h.id == id; }),
               node.end());
  }
}

void Var::retain_grad() {
  VarImpl& impl = checked(impl_);
  if (!impl.requires_grad) throw OpError("can't retain_grad on Tensor that has requires_grad=False");
  if (!impl.grad_fn || impl.retain_hook) return;
  // Weak: the node must not keep the Var (which holds the node) alive.
  std::weak_ptr<VarImpl> weak = impl_;
  auto keep = [weak](const Var& grad) {
    if (const std::shared_ptr<VarImpl> var = weak.lock()) {
      var->grad = accumulate(var->grad, in_layout_of(grad, VarAccess::wrap(var)));
    }
    return Var();
  };
  impl.retain_hook = add_hook(std::move(keep));
}

bool Var::retains_grad() const { return checked(impl_).retain_hook != 0; }

GradSinkGuard::GradSinkGuard(std::function<void(const VarImpl* leaf, const Var& grad)> sink)
    : sink_(std::move(sink)), previous_(grad_sink) {
  grad_sink = &sink_;
}

GradSinkGuard::~GradSinkGuard() { grad_sink = previous_; }

namespace {

// Every node that leads to `root`, with how many edges from those nodes reach each one.
std::unordered_map<Node*, int> count_dependents(Node* root) {
  std::unordered_map<Node*, int> dependents{{root, 0}};
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    for (const Edge& e : node->inputs) {
      if (!e.node) continue;
      auto [it, inserted] = dependents.emplace(e.node.get(), 0);
      ++it->second;
      if (inserted) stack.push_back(e.node.get());
    }
  }
  return dependents;
}

// The nodes (of those that lead to `root`) whose backward leads to a target of `targets`:
// one of their input edges goes to a target leaf, a target node or such a node.
std::unordered_set<const Node*> leading_to(Node* root, const autograd::GradTargets& targets) {
  std::unordered_map<const Node*, bool> leads{{root, false}};
  std::vector<std::pair<Node*, size_t>> stack{{root, 0}};  // depth first: a node, its next input
  while (!stack.empty()) {
    Node* node = stack.back().first;
    const size_t next = stack.back().second++;
    if (next < node->inputs.size()) {
      Node* input = node->inputs[next].node.get();
      if (input && leads.emplace(input, false).second) stack.emplace_back(input, 0);
      continue;
    }
    stack.pop_back();
    for (const Edge& e : node->inputs) {
      const Node* input = e.node.get();
      if ((e.leaf && targets.leaves.count(e.leaf.get())) || (input && (targets.nodes.count(input) || leads[input]))) {
        leads[node] = true;
        break;
      }
    }
  }
  std::unordered_set<const Node*> result;
  for (const auto& [node, leads_on] : leads) {
    if (leads_on) result.insert(node);
  }
  return result;
}

void accumulate_into_leaf(const std::shared_ptr<VarImpl>& leaf, const Var& grad) {
  const Var leaf_var = VarAccess::wrap(leaf);
  const Var g = in_layout_of(grad, leaf_var);
  add_to_grad(*leaf, g);
}

Var zeros_for(const Node::OutputMeta& m) {
  if (m.layout) return Var(zeros_global(m.shape, m.dtype, gradient_layout(*m.layout)));
  return Var(zeros_here(m.shape, m.dtype, *m.memory));
}

// Sets grad mode for a scope: backward runs with it on exactly when it creates a graph.
class GradMode {
 public:
  explicit GradMode(bool enabled) : previous_(grad_mode) { grad_mode = enabled; }
  ~GradMode() { grad_mode = previous_; }
  GradMode(const GradMode&) = delete;
  GradMode& operator=(const GradMode&) = delete;

 private:
  bool previous_;
};

bool has_nan(const Tensor& t) {
  if (!is_floating(t.dtype())) return false;
  const Tensor host = t.memory().host_accessible() ? t : t.copy_to(host_memory());
  return visit_storage(host.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* p = host.data_as<T>();
    if constexpr (std::is_floating_point_v<T>) {
      return std::any_of(p, p + numel(host.shape()), [](T x) { return std::isnan(x); });
    } else if constexpr (std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>) {
      return std::any_of(p, p + numel(host.shape()), [](T x) { return std::isnan(to_float(x)); });
    } else {
      return false;
    }
  });
}

// Anomaly detection's check of the gradients `node` returned (this rank's parts of global ones).
void check_anomaly(const Node& node, const std::vector<Var>& grads) {
  int64_t found = -1;  // the first output holding a NaN
  for (size_t i = 0; i < grads.size() && found < 0; ++i) {
    if (grads[i].defined() && has_nan(grads[i].data())) found = static_cast<int64_t>(i);
  }
  // A node with global outputs runs on every rank (backward is collective there): the ranks
  // agree on the verdict, so they raise together instead of one leaving the others waiting.
  const bool global = std::any_of(node.outputs.begin(), node.outputs.end(),
                                  [](const Node::OutputMeta& m) { return m.layout.has_value(); });
  if (global && comm::world().size() > 1) {
    std::vector<int64_t> all(comm::world().size());
    comm::world().gather_metadata(&found, all.data(), sizeof(found));
    for (const int64_t f : all) {
      if (f >= 0 && (found < 0 || f < found)) found = f;
    }
  }
  if (found < 0) return;
  std::string message = "Function '" + torch_name(node) + "' returned nan values in its " +
                        std::to_string(found) + "th output.";
  if (!node.creation_trace.empty()) message += " The call that made it:\n" + node.creation_trace;
  throw std::runtime_error(message);
}

// PyTorch's check of a node's saved tensors: none written in place since the call.
void check_saved_versions(const Node& node) {
  for (const Node::Saved& saved : node.saved) {
    const std::shared_ptr<VarImpl> var = saved.var.lock();
    if (var && var->version != saved.version) {
      throw std::runtime_error("one of the variables needed for gradient computation has been modified by an "
                               "inplace operation: backward() through " + torch_name(node) +
                               " reads a value written in place since the call (an in-place op, .data =, an "
                               "optimizer step): it is at version " + std::to_string(var->version) +
                               "; expected version " + std::to_string(saved.version) +
                               " instead (write after backward, or on a clone)");
    }
  }
}

}  // namespace

Tensor zeros_here(const Shape& shape, DType dtype, Memory& memory) {
  return vm::made_here("zeros", {shape, dtype}, memory, [&] { return Tensor::zeros(shape, dtype, memory); });
}

Tensor host_one(const Shape& shape, DType dtype) {
  return vm::made_here("ones", {shape, dtype}, host_memory(), [&] {
    Tensor one = Tensor::empty(shape, dtype);
    visit_storage(dtype, [&](auto v) {  // a half root too (torch's backward of a bfloat16 loss)
      using T = decltype(v);
      if constexpr (is_half_v<T>) {
        *one.data_as<T>() = from_float<T>(1.0f);
      } else {
        *one.data_as<T>() = T{1};
      }
    });
    return one;
  });
}

namespace {

// The gradient backward() starts from: `grad`, checked against `root`, or a one of the
// root's layout for a one-element root.
Var backward_seed(const Var& root, const Var& grad) {
  Var seed = grad;
  if (!seed.defined()) {
    if (numel(root.shape()) != 1) {
      throw OpError("backward() without a gradient needs a tensor of one element; this one has shape " +
                    to_string(root.shape()) + " (pass the gradient explicitly)");
    }
    const Tensor one = host_one(root.shape(), root.dtype());
    if (root.is_global()) {
      const boxing::Layout layout = gradient_layout(root.global().layout());
      const bool holds = layout.placement.parallel_id(comm::world_rank()) >= 0;
      seed = Var(GlobalTensor(root.shape(), layout.placement, layout.nd_sbp,
                              holds ? vm::copy_to(one, layout.placement.device())
                                    : boxing::empty_local(root.shape(), root.dtype(), layout.placement.memory())));
    } else {
      seed = Var(vm::copy_to(one, device::of(root.local().memory())));
    }
  } else if (seed.shape() != root.shape() || seed.is_global() != root.is_global()) {
    throw OpError("backward(): the gradient has shape " + to_string(seed.shape()) +
                  "; expected the tensor's shape " + to_string(root.shape()));
  } else if (!root.is_global()) {
    require_same_device("backward(): the gradient", seed, root);
  }
  return seed;
}

// The gradients a node's backward takes: a zero for an output nothing reached, each
// broadcast one full-shaped where the node or a hook needs it, then the node's hooks.
std::vector<Var> gradients_into(const Node& node, std::vector<Var> grads) {
  grads.resize(node.outputs.size());
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined() && differentiable(node.outputs[i].dtype)) grads[i] = zeros_for(node.outputs[i]);
  }
  if (!node.takes_broadcast_grads || !node.hooks.empty()) {
    for (size_t i = 0; i < grads.size(); ++i) grads[i] = full_shaped(grads[i], node.outputs[i].shape);
  }
  for (const Node::Hook& hook : node.hooks) {
    Var replaced = hook.fn(grads[hook.output]);
    if (replaced.defined()) grads[hook.output] = std::move(replaced);
  }
  return grads;
}

// A node's backward, with torch's checks around it: not freed, its saved values unwritten,
// one gradient per input, and under anomaly mode none NaN.
std::vector<Var> run_backward(const Node& node, const std::vector<Var>& grads) {
  if (!node.backward) {
    throw OpError("backward() through " + node.name +
                  " a second time: its saved values were freed (pass retain_graph=True the first time)");
  }
  check_saved_versions(node);
  std::vector<Var> input_grads = node.backward(grads);
  if (input_grads.size() != node.inputs.size()) {
    throw std::logic_error("the gradient of " + node.name + " returned " + std::to_string(input_grads.size()) +
                           " gradients for " + std::to_string(node.inputs.size()) + " inputs");
  }
  if (anomaly_mode) check_anomaly(node, input_grads);
  return input_grads;
}

// A leaf's gradient is final when every edge into it has delivered; its contributions are
// summed in the gradient's layout first, so it is converted (all-reduced) once.
class LeafGradients {
 public:
  explicit LeafGradients(const std::unordered_map<Node*, int>& dependents) {
    for (const auto& [node, count] : dependents) {
      for (const Edge& e : node->inputs) {
        if (e.leaf) ++uses_[e.leaf.get()];
      }
    }
  }

  // One edge's delivery into `leaf` (an undefined gradient: an integer path carried none).
  void add(const std::shared_ptr<VarImpl>& leaf, const Var& grad, GradConversions& conversions) {
    Var& sum = sums_[leaf.get()];
    if (grad.defined()) {
      if (!sum.defined()) in_order_.push_back(leaf);
      sum = accumulate(sum, full_shaped(grad, VarAccess::wrap(leaf).shape()));
    }
    if (--uses_[leaf.get()] == 0 && sum.defined()) {
      conversions.add(leaf, sum);
      sums_.erase(leaf.get());
    }
  }

  // Leaves some of whose edges carried no gradient are final once the pass ends.
  void finish(GradConversions& conversions) {
    for (const std::shared_ptr<VarImpl>& leaf : in_order_) {
      auto it = sums_.find(leaf.get());
      if (it != sums_.end()) conversions.add(leaf, it->second);
    }
  }

 private:
  std::unordered_map<VarImpl*, int> uses_;
  std::unordered_map<VarImpl*, Var> sums_;
  std::vector<std::shared_ptr<VarImpl>> in_order_;  // first contribution first
};

// The order in which a node hands its inputs their gradients: as recorded, but where the
// node shows torch's nodes (shown_inputs), its leaves in the order torch's engine accumulates
// them: a leaf on an edge of torch's node first, one behind a node torch records in between
// (the TBackward0 of Linear's weight) after it, so that post-accumulate-grad hooks fire in
// torch's order (a Linear's bias before its weight). Only nodes recorded for display (no
// backward of their own) are looked through. Empty for a node that shows no other graph
// (most of them): its inputs in order, without allocating.
std::vector<size_t> delivery_order(const Node& node) {
  if (!node.shown_inputs) return {};
  std::vector<size_t> order(node.inputs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::unordered_map<const VarImpl*, size_t> depth;
  std::vector<const std::vector<Edge>*> level{&*node.shown_inputs};
  for (size_t d = 0; !level.empty(); ++d) {
    std::vector<const std::vector<Edge>*> next;
    for (const std::vector<Edge>* edges : level) {
      for (const Edge& e : *edges) {
        if (e.leaf) depth.emplace(e.leaf.get(), d);
        if (e.node && !e.node->backward) next.push_back(&e.node->inputs);
      }
    }
    level = std::move(next);
  }
  const auto key = [&](size_t i) {
    const Edge& e = node.inputs[i];
    auto it = e.leaf ? depth.find(e.leaf.get()) : depth.end();
    return it == depth.end() ? size_t{0} : it->second;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  return order;
}

}  // namespace

void Var::backward(const Var& grad, bool retain_graph, bool create_graph) const {
  vm::Issuing issuing;  // the engine, and the gradients it accumulates into leaves
  VarImpl& impl = checked(impl_);
  if (!impl.requires_grad) {
    throw OpError("backward() on a tensor that does not require grad: no input of the computation "
                  "that made it requires grad");
  }
  const Var seed = backward_seed(*this, grad);
  const autograd::TakenGradTargets taken;  // grad()'s, for this backward alone
  const autograd::GradTargets* targets = taken.get();
  GradMode mode(create_graph);
  NoReadTwins gradients_convert_themselves;
  DeliveredStorages delivered(seed);
  if (!impl.grad_fn) {
    if (!targets || targets->leaves.count(impl_.get())) accumulate_into_leaf(impl_, seed);
    return;
  }
  Node* root = impl.grad_fn.get();
  // With targets: the nodes that run their backward, and those whose hooks alone run.
  std::unordered_set<const Node*> descend;
  if (targets) descend = leading_to(root, *targets);
  const auto runs = [&](const Node* node) { return !targets || descend.count(node); };
  const auto reached = [&](const Node* node) { return runs(node) || targets->nodes.count(node); };
  if (!reached(root)) return;
  std::unordered_map<Node*, int> dependents = count_dependents(root);
  LeafGradients leaves(dependents);
  // While a graph is traced, conversions are recorded one by one (the graph compiler
  // places them); buckets would issue collectives directly. A create_graph backward records
  // each conversion as a differentiable call, which a bucket's fused collective is not.
  GradConversions conversions(conversion_tracer() || create_graph ? 0 : bucket_bytes.load());
  std::unordered_map<Node*, std::vector<Var>> pending;
  pending[root].resize(root->outputs.size());
  pending[root][impl.output_index] = seed;
  std::vector<Node*> ready{root};
  std::vector<Node*> visited;
  // Keeps every node alive while it runs, whatever the Vars outside do.
  std::vector<std::shared_ptr<Node>> alive{impl.grad_fn};
  while (!ready.empty()) {
    Node* node = ready.back();
    ready.pop_back();
    const std::vector<Var> grads = gradients_into(*node, std::move(pending[node]));
    pending.erase(node);
    if (!runs(node)) continue;  // a target node that leads to no other target
    visited.push_back(node);
    const std::vector<Var> input_grads = run_backward(*node, grads);
    const std::vector<size_t> order = delivery_order(*node);
    for (size_t k = 0; k < node->inputs.size(); ++k) {
      const size_t i = order.empty() ? k : order[k];
      const Edge& e = node->inputs[i];
      if (targets && !(e.leaf ? targets->leaves.count(e.leaf.get()) : e.node && reached(e.node.get()))) continue;
      if (e.leaf) {
        leaves.add(e.leaf, input_grads[i], conversions);
      } else if (e.node) {
        std::vector<Var>& slot = pending[e.node.get()];
        slot.resize(e.node->outputs.size());
        slot[e.output] = accumulate(slot[e.output], input_grads[i], e.node->outputs[e.output].shape);
        if (--dependents[e.node.get()] == 0) {
          alive.push_back(e.node);
          ready.push_back(e.node.get());
        }
      }
    }
  }
  leaves.finish(conversions);
  conversions.flush();
  if (!retain_graph) {
    for (Node* node : visited) {
      if (node->release) node->release();
      node->backward = nullptr;
    }
  }
}

namespace {

// Records a conversion, whose gradient (the reverse conversion) reads no value: an in-place
// write of its input afterwards leaves backward through it exact.
void record_conversion(const std::string& name, const Var& x, std::vector<Var>& out,
                       std::function<std::vector<Var>(const std::vector<Var>& grad_outputs)> backward) {
  if (grad_enabled() && record(name, {x}, out, std::move(backward))) set_saved(*out[0].grad_fn(), {});
}

}  // namespace

Var to_global(const Var& x, const Placement& placement, const NdSbp& nd_sbp, bool agree_on_arguments) {
  const GlobalTensor& in = x.global();
  return converted_as_to_global(x, agree_on_arguments ? to_global(in, placement, nd_sbp) : convert(in, placement, nd_sbp));
}

namespace {

Var converted_as_to_global(const Var& x, GlobalTensor converted) {
  std::vector<Var> out{Var(std::move(converted))};
  const boxing::Layout back = gradient_layout(x.global().layout());
  // Gradients of conversions are conversions of Vars, recorded in a create_graph backward.
  record_conversion("to_global", x, out, [back](const std::vector<Var>& g) {
    return std::vector<Var>{to_global(g[0], back.placement, back.nd_sbp, false)};
  });
  return out[0];
}

}  // namespace

Var local_to_global(const Var& x, const Placement& placement, const NdSbp& nd_sbp, bool check_consistency) {
  const Tensor& in = x.local();
  std::vector<Var> out{Var(make_global(in, placement, nd_sbp, check_consistency))};
  const boxing::Layout back = gradient_layout({placement, nd_sbp});
  const Shape local_shape = in.shape();
  record_conversion("local_to_global", x, out, [back, local_shape](const std::vector<Var>& g) {
    const Var part = to_local(to_global(g[0], back.placement, back.nd_sbp, false));
    if (part.shape() != local_shape) {
      throw std::invalid_argument("backward through to_global of local parts of uneven sizes is not supported: this "
                                  "rank's part has shape " + to_string(local_shape) + ", the balanced split's " +
                                  to_string(part.shape()));
    }
    return std::vector<Var>{part};
  });
  return out[0];
}

void autograd::set_zero_prefetch(bool on) { prefetch_on.store(on, std::memory_order_relaxed); }

bool autograd::zero_prefetch() { return prefetch_on.load(std::memory_order_relaxed); }

void set_device_gradient_sum(std::function<Tensor(const Tensor& a, const Tensor& b)> sum) {
  device_gradient_sum() = std::move(sum);
}

void set_gradient_expand(std::function<Var(const Var& grad, const Shape& shape)> expand) {
  gradient_expand() = std::move(expand);
}

Var to_device(const Var& x, device::Device& target) {
  if (x.is_global()) throw std::invalid_argument("to: a global tensor moves to another device by to_global with a placement");
  const Tensor& in = x.local();
  if (&in.memory() == &target.memory()) return x;
  device::Device& source = device::of(in.memory());
  std::vector<Var> out{Var(vm::copy_to(in, target))};
  record_conversion("to", x, out,
                    [&source](const std::vector<Var>& g) { return std::vector<Var>{to_device(g[0], source)}; });
  return out[0];
}

namespace {

// `part` as this rank's part of a global tensor of `shape` laid out as `nd_sbp`, without
// checks or communication (to_local's gradient, whose parts line up by construction); its
// own gradient, for a create_graph backward, is the part of the gradient in its layout.
Var as_part_of(const Var& part, const Shape& shape, const Placement& placement, const NdSbp& nd_sbp) {
  // A global tensor's parts are row-major (core/tensor.h's memory formats).
  std::vector<Var> out{Var(GlobalTensor(shape, placement, nd_sbp, in_format(part.local(), MemoryFormat::kContiguous)))};
  const boxing::Layout back = gradient_layout({placement, nd_sbp});
  record_conversion("local_to_global", part, out, [back](const std::vector<Var>& g) {
    return std::vector<Var>{to_local(to_global(g[0], back.placement, back.nd_sbp, false))};
  });
  return out[0];
}

}  // namespace

Var to_local(const Var& x) {
  const GlobalTensor& in = x.global();
  std::vector<Var> out{Var(in.local())};
  // Each rank's local gradient is its share: broadcast axes gather them as partial sums.
  NdSbp back = in.nd_sbp();
  for (Sbp& s : back) {
    if (s.is_broadcast()) s = Sbp::partial_sum();
  }
  const Shape shape = in.shape();
  const Placement placement = in.placement();
  record_conversion("to_local", x, out, [shape, placement, back](const std::vector<Var>& g) {
    return std::vector<Var>{as_part_of(g[0], shape, placement, back)};
  });
  return out[0];
}

Var autograd::edge_leaf(const Edge& edge) { return edge.leaf ? VarAccess::wrap(edge.leaf) : Var(); }

}  // namespace mf
