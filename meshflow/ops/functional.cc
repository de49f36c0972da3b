// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/functional.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "meshflow/autograd/alias.h"
#include "meshflow/autograd/inference.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/error.h"
#include "meshflow/device/device.h"
#include "meshflow/ops/autocast_cache.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/in_place.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/replication.h"
#include "meshflow/ops/saved_hooks.h"
#include "meshflow/ops/write_in_place.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

std::vector<Var> run(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                     const Constraints& constraints, const std::vector<int>& overwrite = {}) {
  const bool global = inputs.empty() ? constraints.placement.has_value() : inputs[0].is_global();
  for (const Var& in : inputs) {
    if (!in.defined()) op_error(op.name, "an input is undefined (an absent gradient?)");
  }
  std::vector<Var> outputs;
  if (global) {
    std::vector<GlobalTensor> args;
    args.reserve(inputs.size());
    for (const Var& in : inputs) args.push_back(in.global());
    std::vector<GlobalTensor> results = apply_global(op, args, attrs, constraints, overwrite);
    outputs.reserve(results.size());
    for (GlobalTensor& out : results) outputs.emplace_back(std::move(out));
  } else {
    if (!constraints.outputs.empty() || constraints.signature) {
      op_error(op.name, "an output sbp or signature was given for local tensors; it applies to global ones only");
    }
    std::vector<Tensor> args;
    args.reserve(inputs.size());
    for (const Var& in : inputs) args.push_back(in.local());
    std::vector<Tensor> results = apply_local(op, std::move(args), attrs, overwrite);
    outputs.reserve(results.size());
    if (op.output_views_input) {  // a view of the input's memory, counting writes with it (alias.h)
      // A view of a view of another tensor's memory (x[0].view(...)) is one too.
      if (aliases(inputs[0])) return {aliasing(std::move(results[0]), inputs[0])};
      outputs.emplace_back(std::move(results[0]));
      share_version(outputs[0], inputs[0]);
      return outputs;
    }
    for (Tensor& out : results) outputs.emplace_back(std::move(out));
  }
  return outputs;
}

bool mixes_local_and_global(const std::vector<Var>& inputs) {
  bool local = false, global = false;
  for (const Var& v : inputs) {
    if (!v.defined()) continue;
    (v.is_global() ? global : local) = true;
  }
  return local && global;
}

}  // namespace

// Implicit replication (README, "Ops on global tensors"): a local tensor that meets global
// ones in an op is the global tensor of their placement with B on every axis, its value
// this rank's local value. Model code makes such tensors inside forward (arange, masks, zero
// states) by the same call on every rank, as a DDP program does; taking them as broadcast
// lets that code run unchanged on global parameters. Differentiable: the local's gradient is
// the logical gradient (the single-device one), whole on every rank of the placement, zeros
// elsewhere, as DTensor.from_local(Replicate) gives. Under MESHFLOW_CHECK_CONSISTENCY the
// ranks compare their values (by hash) and all raise when they differ.
Var replicated_beside(const std::string& op, const Var& v, const Placement& placement, const NdSbp& nd_sbp) {
  const NdSbp all_b(placement.ndim(), Sbp::broadcast());
  const Tensor& local = v.local();
  std::vector<Var> out;
  if (consistency_check_enabled()) {
    try {
      out.emplace_back(make_global(local, placement, all_b, /*check_consistency=*/true));
    } catch (const std::invalid_argument& e) {
      std::string why = e.what();
      if (why.rfind("to_global: ", 0) == 0) why = why.substr(11);
      op_error(op, "a local input meets global ones and is taken as broadcast on their placement "
                   "(implicit replication), which needs the same value on every rank, but " + why +
                   "; make it by the same call on every rank, or convert it with to_global() yourself");
    }
  }
  // B -> any SBP is local (a slice, or rank 0's value beside zeros), so the value goes straight
  // to the layout asked for.
  if (out.empty() || !(nd_sbp == all_b)) {
    out.assign(1, Var(global_from_full(local, placement, nd_sbp)));
  }
  device::Device& home = device::of(local.memory());
  const Shape shape = local.shape();
  const DType dtype = local.dtype();
  const bool recorded = grad_enabled() &&
      record("implicit_replication", {v}, out, [placement, all_b, &home, shape, dtype](const std::vector<Var>& g) {
        if (!placement.contains(comm::world_rank())) {
          return std::vector<Var>{Var(zeros_here(shape, dtype, home.memory()))};
        }
        // Conversions of Vars: recorded in a create_graph backward.
        return std::vector<Var>{to_device(to_local(to_global(g[0], placement, all_b, false)), home)};
      });
  if (recorded) set_saved(*out[0].grad_fn(), {});  // a conversion's gradient reads no value
  return out[0];
}

namespace {

std::vector<Var> with_locals_replicated(const OpDef& op, const std::vector<Var>& inputs) {
  const auto first = std::find_if(inputs.begin(), inputs.end(), [](const Var& v) { return v.defined() && v.is_global(); });
  const Placement placement = first->global().placement();
  const NdSbp all_b(placement.ndim(), Sbp::broadcast());
  std::vector<Var> out;
  for (const Var& v : inputs) {
    out.push_back(v.defined() && !v.is_global() ? replicated_beside(op.name, v, placement, all_b) : v);
  }
  return out;
}

// torch's rule for a number held in a tensor: a 0-dim tensor on the host that meets local
// tensors on another device is moved to theirs, differentiably (a model's `x * mf.tensor(2.0)`
// or a CPU step count beside GPU parameters). Any other mix of devices is refused by the
// dispatcher. Empty when there is nothing to move.
std::vector<Var> with_host_scalars_moved(const std::vector<Var>& inputs) {
  Memory* other = nullptr;
  bool host_scalar = false;
  for (const Var& v : inputs) {
    if (!v.defined() || v.is_global()) return {};
    Memory& memory = v.local().memory();
    if (&memory == &host_memory() && v.shape().empty()) {
      host_scalar = true;
    } else if (other == nullptr) {
      other = &memory;
    }
  }
  if (!host_scalar || other == nullptr || other == &host_memory()) return {};
  device::Device& target = device::of(*other);
  std::vector<Var> moved;
  for (const Var& v : inputs) {
    moved.push_back(v.defined() && &v.local().memory() == &host_memory() && v.shape().empty() ? to_device(v, target) : v);
  }
  return moved;
}

thread_local std::vector<SavedHooks> saved_hooks;

// One value of a call: its SavedVar, and (`read` by the gradient, under saved-tensor hooks)
// what pack made of it.
struct SavedValue {
  SavedValue(const Var& v, bool output, bool read) : var(v, output) {
    if (!read || saved_hooks.empty()) return;
    const SavedHooks hooks = saved_hooks.back();  // a copy: pack may install or remove hooks
    unpack_ = hooks.unpack;
    packed = hooks.pack(v.detach());
  }

  Var unpack() const {
    if (!unpack_) return var.unpack();
    Var value = unpack_(packed).detach();
    return grad_enabled() ? var.unpack() : value;  // create_graph: attached to the graph (saved_hooks.h)
  }

  SavedVar var;
  std::shared_ptr<void> packed;
  std::function<Var(const std::shared_ptr<void>&)> unpack_;
};

// What an op's backward keeps: the call's values, freed after backward; unpacked attached to
// the graph in a create_graph backward (SavedVar).
struct Saved {
  std::vector<SavedValue> inputs;
  std::vector<SavedValue> outputs;
  std::vector<bool> needs_grad;
};

std::vector<Var> unpacked(const std::vector<SavedValue>& saved) {
  std::vector<Var> out;
  for (const SavedValue& v : saved) out.push_back(v.unpack());
  return out;
}

// Backward ops (named <op>_backward..., the kernels of other ops' gradients) that have no
// gradient of their own: a create_graph backward calls them with inputs that require grad.
bool lacks_double_backward(const OpDef& op) { return !op.grad && op.name.find("_backward") != std::string::npos; }

// The inputs of a recorded global call, each converted to the layout the chosen signature
// takes it in, by a recorded to_global. So the op's gradient runs on the layouts its forward
// ran on (the gradient of a column-parallel matmul stays column-parallel) and the gradient
// of each conversion is the reverse conversion: backward mirrors forward's communication.
// Left to inference from the original layouts, a backward op may pick a layout that is
// cheapest for itself but costs more downstream (gathering weights instead of reducing
// activations).
std::vector<Var> in_signature_layouts(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                                      Constraints& constraints) {
  const Placement& placement = inputs[0].global().placement();
  std::vector<TensorMeta> metas;
  std::vector<NdSbp> sbps;
  for (const Var& in : inputs) {
    if (!in.is_global() || in.global().placement() != placement) return inputs;  // apply_global says why
    metas.push_back({in.shape(), in.dtype()});
    sbps.push_back(in.global().nd_sbp());
  }
  const std::shared_ptr<const OpPlan> plan = plan_op(op, metas, sbps, placement, attrs, constraints);
  constraints.signature = plan->signature;
  std::vector<Var> boxed = inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!plan->input_plans[i]->steps.empty()) boxed[i] = to_global(inputs[i], placement, plan->signature.inputs[i], false);
  }
  return boxed;
}

}  // namespace

namespace {

thread_local AutocastState autocast;

// The autocast cache (autocast_cache.h), by parameter.
thread_local bool cache_casts = true;
struct CachedCast {
  Var source;  // held (as the cast's node holds it) so that its address names it
  uint64_t version;
  const OpTracer* tracer;  // the tracing it was made in, or null
  Var cast;  // detached
};
thread_local std::unordered_map<const VarImpl*, CachedCast> cached_casts;

// Whether autocast casts `v` for an op of `policy`: float32 and the other half down to the
// autocast dtype for kLower (torch casts every floating input but float64), halves up to
// float32 for the float32 lists.
bool autocast_casts(Autocast policy, const Var& v) {
  if (!v.defined()) return false;
  const DType d = v.dtype();
  if (policy == Autocast::kLower) return (d == DType::kFloat32 || is_half(d)) && d != *autocast.dtype;
  return is_half(d);
}

Autocast policy_now(const OpDef& op) {
  if (!autocast.dtype || op.autocast == Autocast::kNone) return Autocast::kNone;
  if (op.autocast == Autocast::kFloat32OnCuda) return autocast.device_type == "cuda" ? Autocast::kFloat32 : Autocast::kNone;
  return op.autocast;
}

}  // namespace

void push_saved_hooks(SavedHooks hooks) { saved_hooks.push_back(std::move(hooks)); }

void pop_saved_hooks() {
  if (saved_hooks.empty()) throw std::logic_error("pop_saved_hooks: no saved-tensor hooks are installed");
  saved_hooks.pop_back();
}

std::optional<DType> autocast_dtype() { return autocast.dtype; }

std::optional<DType> set_autocast_dtype(std::optional<DType> dtype) {
  return set_autocast(AutocastState{dtype, "cpu"}).dtype;
}

AutocastState autocast_state() { return autocast; }

AutocastState set_autocast(AutocastState state) {
  if (state.dtype && !is_half(*state.dtype)) {
    throw std::invalid_argument(std::string("autocast: dtype ") + dtype_name(*state.dtype) +
                                " is not supported; expected bfloat16 or float16");
  }
  if (state.dtype != autocast.dtype || state.device_type != autocast.device_type) cached_casts.clear();
  return std::exchange(autocast, std::move(state));
}

bool set_autocast_cache(bool on) {
  if (!on) cached_casts.clear();
  return std::exchange(cache_casts, on);
}

bool autocast_cache_enabled() { return cache_casts; }

size_t autocast_cached_casts() { return cached_casts.size(); }

void drop_autocast_casts_of(const OpTracer* tracer) {
  for (auto it = cached_casts.begin(); it != cached_casts.end();) {
    it = it->second.tracer == tracer ? cached_casts.erase(it) : std::next(it);
  }
}

namespace {

// Records `outputs`, computed by `op` from `args`, for autograd with op's gradient (grad mode
// on, an input requiring grad).
void record_with_grad(const OpDef& op, const std::vector<Var>& args, std::vector<Var>& outputs, const Attrs& attrs);

// v cast to `to` by autocast: through the cache for a parameter cast to the autocast dtype.
// Each use of a cached value is recorded for autograd as a cast of its own (not computed
// again): every consumer's gradient goes to the parameter through its own node, in whatever
// dtype that consumer gives it (a product of float32 operands gives float32, matmul's
// "float32_grads"), and a node a backward has spent is never reached again.
Var autocast_cast(const Var& v, DType to) {
  if (!cache_casts || to != autocast.dtype || v.dtype() != DType::kFloat32 || !v.requires_grad() || !v.is_leaf()) {
    return fn::cast(v, to);
  }
  const OpTracer* tracer = op_tracer();
  const auto it = cached_casts.find(v.id());
  if (it == cached_casts.end() || it->second.version != v.version() || it->second.tracer != tracer) {
    Var cast = fn::cast(v, to);
    cached_casts.insert_or_assign(v.id(), CachedCast{v, v.version(), tracer, cast.detach()});
    return cast;
  }
  std::vector<Var> again{it->second.cast.detach()};
  if (grad_enabled()) record_with_grad(find_op("cast"), {v}, again, {{"dtype", to}});
  return again[0];
}

}  // namespace

namespace {

// The call as mf.autocast makes it (op.h, Autocast): its inputs cast and, for a kLower op
// whose operands were all float32 and which has its own kernels for the dtype, the attribute
// "float32_grads" (nothing else reads those casts, so their gradients may stay float32: the
// casts' own gradient passes them to the float32 originals unrounded). False where autocast
// leaves the call as it is.
bool autocast_call(const OpDef& op, std::vector<Var>& inputs, Attrs& attrs) {
  const Autocast policy = policy_now(op);
  if (policy == Autocast::kNone) return false;
  const auto first = inputs.begin(), last = inputs.end();
  if (!std::any_of(first, last, [policy](const Var& v) { return autocast_casts(policy, v); })) return false;
  const DType to = policy == Autocast::kLower ? *autocast.dtype : DType::kFloat32;
  const bool native = to == DType::kBFloat16 ? op.bfloat16 : op.float16;
  if (policy == Autocast::kLower && native &&
      std::all_of(first, last, [](const Var& v) { return !v.defined() || v.dtype() == DType::kFloat32; })) {
    attrs.set("float32_grads", true);
  }
  for (auto it = first; it != last; ++it) {
    if (autocast_casts(policy, *it)) *it = autocast_cast(*it, to);
  }
  return true;
}

}  // namespace

std::vector<Var> call(const std::string& name, const std::vector<Var>& inputs, const Attrs& attrs,
                      const Constraints& constraints) {
  return call(find_op(name), inputs, attrs, constraints);
}

Var as_global_here(const Var& v) {
  if (!v.defined() || v.is_global()) return v;
  const Memory& memory = v.local().memory();
  const Placement here(memory.device_type(), {comm::world_rank()});
  if (&here.memory() != &memory) {
    // A placement's ranks use their rank's device of its type (device::for_placement).
    throw std::invalid_argument("graph: a local program's tensors run on " + here.memory().device_str() +
                                "; this one is on " + memory.device_str() + " (move it with to(\"" +
                                here.memory().device_str() + "\") first)");
  }
  // A global tensor's parts are row-major (core/tensor.h's memory formats).
  const Tensor part = to_memory_format(v.local(), MemoryFormat::kContiguous);
  return Var(GlobalTensor(v.shape(), here, NdSbp{Sbp::broadcast()}, part), v.requires_grad());
}

std::vector<Var> with_local_arguments_replicated(const std::vector<Var>& args) {
  std::vector<Placement> placements;
  bool any_local = false;
  for (const Var& v : args) {
    if (!v.defined()) continue;
    if (!v.is_global()) {
      any_local = true;
    } else if (std::find(placements.begin(), placements.end(), v.global().placement()) == placements.end()) {
      placements.push_back(v.global().placement());
    }
  }
  if (!any_local || placements.empty()) return args;
  if (placements.size() > 1) {
    throw std::invalid_argument("graph: a local input beside global ones on several placements (" +
                                placements[0].str() + ", " + placements[1].str() +
                                "); expected one placement to take it as broadcast on, or convert it with to_global");
  }
  const NdSbp all_b(placements[0].ndim(), Sbp::broadcast());
  std::vector<Var> out;
  for (const Var& v : args) {
    const bool local = v.defined() && !v.is_global();
    out.push_back(local ? local_to_global(v, placements[0], all_b, consistency_check_enabled()) : v);
  }
  return out;
}

namespace {
std::vector<Var> call_writing(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                              const Constraints& constraints, const std::vector<int>& overwrite);
}  // namespace

namespace {

// Whether call_writing would come to run() with the call as it is: local inputs, defined, in
// one memory (no host scalar to move), none recorded for autograd, no autocast list for the
// op, no constraints. One pass over the inputs for the commonest call, where call_writing
// asks each question in turn.
bool runs_as_called(const OpDef& op, const std::vector<Var>& inputs, const Constraints& constraints) {
  if (constraints.placement || !constraints.outputs.empty() || constraints.signature) return false;
  if (policy_now(op) != Autocast::kNone) return false;
  const bool grad = grad_enabled();
  const Memory* memory = nullptr;
  for (const Var& v : inputs) {
    if (!v.defined() || v.is_global() || (grad && v.requires_grad())) return false;
    const Memory* m = &v.local().memory();
    if (memory && m != memory) return false;
    memory = m;
  }
  return true;
}

}  // namespace

namespace {

// A random tensor made locally while a step is traced (torch.randn(3) in a forward, a local
// tensor's normal_()) would be a constant of the graph, the same at every run: it is drawn
// instead as a traced op, broadcast on the step's placement (every rank makes the same call,
// as implicit replication takes it), so each run draws anew, as each eager step does.
std::vector<Var> call_random_in_step(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                                     Constraints constraints) {
  const std::optional<Placement> home = op_tracer()->home_placement();
  if (!home) {
    op_error(op.name, "a random tensor made locally inside a graph's build is drawn on the step's placement, but "
                      "its arguments (or its variables) are on several placements, or none; expected placement= "
                      "and sbp= on the call");
  }
  const NdSbp all_b(home->ndim(), Sbp::broadcast());
  std::vector<Var> global;
  for (const Var& v : inputs) {
    global.push_back(v.defined() && !v.is_global() ? replicated_beside(op.name, v, *home, all_b) : v);
  }
  if (inputs.empty()) {
    constraints.placement = *home;
    constraints.outputs = {NdSbp(home->ndim(), Sbp::broadcast())};
  }
  return call(op, global, attrs, constraints);
}

bool made_locally_in_step(const OpDef& op, const std::vector<Var>& inputs, const Constraints& constraints) {
  return op.draws_random && op_tracer() && !constraints.placement &&
         std::none_of(inputs.begin(), inputs.end(), [](const Var& v) { return v.defined() && v.is_global(); });
}

}  // namespace

std::vector<Var> call(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                      const Constraints& constraints) {
  if (made_locally_in_step(op, inputs, constraints)) return call_random_in_step(op, inputs, attrs, constraints);
  if (runs_as_called(op, inputs, constraints)) return run(op, inputs, attrs, constraints);
  if (std::any_of(inputs.begin(), inputs.end(), [](const Var& v) { return v.has_use_layout(); })) {
    // ZeRO stage 3's parameters enter every op gathered (Var::for_use).
    std::vector<Var> used;
    for (const Var& v : inputs) used.push_back(v.defined() ? v.for_use() : v);
    return call(op, used, attrs, constraints);
  }
  return call_writing(op, inputs, attrs, constraints, {});
}

std::vector<Var> write_in_place(const std::string& name, const std::vector<Var>& inputs, const Attrs& attrs,
                                int target) {
  const Var& x = inputs.at(static_cast<size_t>(target));
  check_inference_write(is_inference(x));  // before its memory is written, as below
  if (grad_enabled() && x.requires_grad() && x.is_leaf()) {
    // Refused before its memory is written (Var::assign would refuse after).
    op_error(name, "a leaf tensor that requires grad is written in place; expected the write under mf.no_grad(), "
                   "or on a copy (clone) of the leaf");
  }
  // An input over the target's memory (x[:] = x.detach(), a view of it) is read from a
  // copy: the write would change it while the kernel reads it.
  std::vector<Var> args = inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (static_cast<int>(i) == target || !args[i].defined() || args[i].is_global() != x.is_global() ||
        !x.data().storage() || args[i].data().storage() != x.data().storage()) {
      continue;
    }
    const Shape& shape = args[i].shape();
    args[i] = call1("slice", {args[i]},
                    {{"starts", Shape(shape.size(), 0)}, {"stops", shape}, {"steps", Shape(shape.size(), 1)}});
  }
  return call_writing(find_op(name), args, attrs, {}, {target});
}

namespace {

// call(), with output k written over inputs[overwrite[k]]'s memory where the call runs on
// that input itself (not on a conversion of it: then the output has memory of its own).
std::vector<Var> call_writing(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs,
                              const Constraints& constraints, const std::vector<int>& overwrite) {
  if (mixes_local_and_global(inputs) && op_tracer() && op_tracer()->local_program()) {
    // A local tensor made while a local program's step is traced (mf.arange, a tensor of a
    // number) meets the step's values, which are global on this rank alone: it is a
    // constant of the graph, on this rank alone too.
    std::vector<Var> here;
    for (const Var& v : inputs) here.push_back(as_global_here(v));
    return call(op, here, attrs, constraints);
  }
  if (mixes_local_and_global(inputs)) return call(op, with_locals_replicated(op, inputs), attrs, constraints);
  if (inputs.size() > 1) {
    std::vector<Var> moved = with_host_scalars_moved(inputs);
    if (!moved.empty()) return call(op, moved, attrs, constraints);
  }
  if (policy_now(op) != Autocast::kNone) {
    std::vector<Var> cast = inputs;
    Attrs cast_attrs = attrs;
    if (autocast_call(op, cast, cast_attrs)) return call(op, cast, cast_attrs, constraints);
  }
  const bool records = grad_enabled() && std::any_of(inputs.begin(), inputs.end(), [](const Var& v) {
                         return v.defined() && v.requires_grad();
                       });
  if (records && lacks_double_backward(op)) {
    // Recorded with a gradient that refuses, so differentiating through it fails naming it
    // rather than taking it for a constant (a silently wrong second derivative).
    std::vector<Var> outputs = run(op, inputs, attrs, constraints, overwrite);
    record(op.name, inputs, outputs, [name = op.name](const std::vector<Var>&) -> std::vector<Var> {
      op_error(name, "has no gradient of its own: a gradient computed with create_graph=True through it cannot be "
                     "differentiated again (double backward through the op it differentiates is not supported)");
    });
    return outputs;
  }
  if (!records || !op.grad) return run(op, inputs, attrs, constraints, overwrite);
  Constraints fixed = constraints;
  const std::vector<Var> args = inputs[0].is_global() ? in_signature_layouts(op, inputs, attrs, fixed) : inputs;
  std::vector<Var> outputs = run(op, args, attrs, fixed, overwrite);
  record_with_grad(op, args, outputs, attrs);
  return outputs;
}

// The name Tensor.grad_fn shows for a call whose torch overload names its node otherwise than
// the op's name does (backward_name): torch's sum and mean over given dims are its overload 1
// (sum.dim_IntList, mean.dim, prod.dim_int), over every dim its overload 0. Null: the op's
// name decides.
const char* torch_overload_name(const std::string& op, const Attrs& attrs) {
  static const std::map<std::string, const char*> over_dims = {
      {"sum", "SumBackward1"}, {"mean", "MeanBackward1"}, {"prod", "ProdBackward1"}};
  const auto it = over_dims.find(op);
  if (it == over_dims.end() || attrs.get_ints("dims").empty()) return nullptr;
  return it->second;
}

void record_with_grad(const OpDef& op, const std::vector<Var>& args, std::vector<Var>& outputs, const Attrs& attrs) {
  auto saved = std::make_shared<Saved>();
  const auto reads_input = [&op](size_t i) {
    return op.grad_reads.inputs && (i >= 32 || !(op.grad_reads.unread_inputs >> i & 1u));
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const Var& in = args[i];
    // A view of another tensor's memory is saved as a copy where the gradient reads it: an
    // in-place write through it, whose calls keep the value they read, writes that memory
    // (alias.h).
    const bool copied = reads_input(i) && aliases(in) && !in.requires_grad();
    if (reads_input(i) && is_inference(in) && !inference_mode_enabled()) {
      throw std::runtime_error("Inference tensors cannot be saved for backward. To work around you can make a clone "
                               "to get a normal tensor and use it in autograd.");
    }
    saved->inputs.emplace_back(copied ? fn::clone(in) : in, /*output=*/false, reads_input(i));
    saved->needs_grad.push_back(in.requires_grad());
  }
  record(
      op.name, args, outputs,
      [&op, attrs, saved](const std::vector<Var>& grad_outputs) {
        const std::vector<Var> inputs = unpacked(saved->inputs);
        const std::vector<Var> outputs = unpacked(saved->outputs);
        return op.grad(GradContext{attrs, inputs, outputs, grad_outputs, saved->needs_grad});
      },
      [saved] { *saved = Saved(); });
  for (const Var& out : outputs) {  // their node is made now
    saved->outputs.emplace_back(out, /*output=*/true, op.grad_reads.outputs);
  }
  const auto made = std::find_if(outputs.begin(), outputs.end(), [](const Var& out) { return out.grad_fn() != nullptr; });
  if (made == outputs.end()) return;
  Node& node = *made->grad_fn();
  node.takes_broadcast_grads = op.grad_takes_broadcast;
  if (const char* overload = torch_overload_name(op.name, attrs)) node.torch_name = overload;
  if (!op.grad_reads.inputs || op.grad_reads.outputs || op.grad_reads.unread_inputs != 0) {
    // Backward checks only the values the gradient reads for in-place writes since.
    std::vector<Var> read;
    for (size_t i = 0; i < args.size(); ++i) {
      if (reads_input(i)) read.push_back(args[i]);
    }
    if (op.grad_reads.outputs) read.insert(read.end(), outputs.begin(), outputs.end());
    set_saved(node, read);
  }
}

// Broadcast gradients (autograd/var.h) expand through the expand op.
const bool gradient_expand_installed = [] {
  set_gradient_expand([](const Var& grad, const Shape& shape) { return fn::expand(grad, shape); });
  return true;
}();

}  // namespace

std::vector<Var> update_in_place(const std::string& name, const std::vector<Var>& inputs, const Attrs& attrs,
                                 const std::vector<int>& overwrite) {
  const OpDef& op = find_op(name);
  const bool records = grad_enabled() && std::any_of(inputs.begin(), inputs.end(), [](const Var& v) {
                         return v.defined() && v.requires_grad();
                       });
  if (records) op_error(name, "an in-place update is not recorded for autograd; expected it under no_grad");
  if (mixes_local_and_global(inputs)) return call(op, inputs, attrs);
  const InPlaceUpdate in_place(op, overwrite);  // for graph mode's tracer
  return run(op, inputs, attrs, {}, overwrite);
}

Var call1(const std::string& op, const std::vector<Var>& inputs, const Attrs& attrs, const Constraints& constraints) {
  std::vector<Var> outputs = call(op, inputs, attrs, constraints);
  if (outputs.size() != 1) {
    op_error(op, "has " + std::to_string(outputs.size()) + " outputs; call1 expects exactly one");
  }
  return std::move(outputs[0]);
}

Var promote_for_scalar(const Var& x, const Scalar& value) {
  return value.is_float() && !is_floating(x.dtype()) && !is_complex(x.dtype()) ? fn::cast(x, DType::kFloat32) : x;
}

Var scalar_op(const OpDef& op, const Var& x, const Scalar& value) {
  const std::vector<Var> out = call(op, {promote_for_scalar(x, value)}, Attrs{{"value", value.value()}});
  return out[0];
}

namespace fn {
namespace {

// A creation op's constraints for a result laid out like global `x` (partial axes become
// broadcast: a created value has no partial form).
Constraints like(const Var& x) {
  Constraints c;
  c.placement = x.global().placement();
  NdSbp sbp = x.global().nd_sbp();
  for (Sbp& s : sbp) {
    if (s.is_partial()) s = Sbp::broadcast();
  }
  c.outputs = {sbp};
  return c;
}

}  // namespace

Var add(const Var& a, const Var& b) { return call1("add", {a, b}); }
Var sub(const Var& a, const Var& b) { return call1("sub", {a, b}); }
Var mul(const Var& a, const Var& b) { return call1("mul", {a, b}); }
Var div(const Var& a, const Var& b) { return call1("div", {a, b}); }
Var pow(const Var& a, const Var& b) { return call1("pow", {a, b}); }
Var maximum(const Var& a, const Var& b) { return call1("maximum", {a, b}); }
Var where(const Var& cond, const Var& a, const Var& b) { return call1("where", {cond, a, b}); }
Var eq(const Var& a, const Var& b) { return call1("eq", {a, b}); }
Var ne(const Var& a, const Var& b) { return call1("ne", {a, b}); }
Var lt(const Var& a, const Var& b) { return call1("lt", {a, b}); }
Var gt(const Var& a, const Var& b) { return call1("gt", {a, b}); }
Var ge(const Var& a, const Var& b) { return call1("ge", {a, b}); }
Var logical_and(const Var& a, const Var& b) { return call1("logical_and", {a, b}); }
Var add_scalar(const Var& x, Scalar value) { return scalar_op(find_op("add_scalar"), x, value); }
Var mul_scalar(const Var& x, Scalar value) { return scalar_op(find_op("mul_scalar"), x, value); }
Var div_scalar(const Var& x, Scalar value) { return scalar_op(find_op("div_scalar"), x, value); }
Var pow_scalar(const Var& x, Scalar value) { return scalar_op(find_op("pow_scalar"), x, value); }
Var neg(const Var& x) { return call1("neg", {x}); }
Var exp(const Var& x) { return call1("exp", {x}); }
Var log(const Var& x) { return call1("log", {x}); }
Var sqrt(const Var& x) { return call1("sqrt", {x}); }
Var rsqrt(const Var& x) { return call1("rsqrt", {x}); }
Var tanh(const Var& x) { return call1("tanh", {x}); }
Var sigmoid(const Var& x) { return call1("sigmoid", {x}); }
Var relu(const Var& x) { return call1("relu", {x}); }
Var gelu(const Var& x) { return call1("gelu", {x}); }
Var silu(const Var& x) { return call1("silu", {x}); }
Var cast(const Var& x, DType dtype) { return x.dtype() == dtype ? x : call1("cast", {x}, {{"dtype", dtype}}); }

Var matmul(const Var& a, const Var& b, bool transpose_a, bool transpose_b) {
  if (!transpose_a && !transpose_b) return call1("matmul", {a, b});
  return call1("matmul", {a, b}, {{"transpose_a", transpose_a}, {"transpose_b", transpose_b}});
}
namespace {

// Attributes of items whose values are moved in (set moves; the initializer-list constructor
// copies every value, an allocation per int list), for the view and indexing ops whose calls
// build their int lists anew each time. Keys in sorted order append without a shift.
template <typename... Values>
Attrs moved_attrs(std::pair<const char*, Values>... items) {
  Attrs attrs;
  (attrs.set(items.first, AttrValue(std::move(items.second))), ...);
  return attrs;
}

// The first output of `op` on `inputs`, moved out of the call's outputs.
Var first_of(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs) {
  return std::move(call(op, inputs, attrs)[0]);
}

}  // namespace

Var permute(const Var& x, const std::vector<int64_t>& dims) {
  static const OpDef& op = find_op("permute");
  return first_of(op, {x}, moved_attrs(std::pair{"dims", dims}));
}

Var transpose(const Var& x, int64_t dim0, int64_t dim1) {
  const int64_t nd = static_cast<int64_t>(x.shape().size());
  std::vector<int64_t> dims(nd);
  for (int64_t i = 0; i < nd; ++i) dims[i] = i;
  std::swap(dims.at(dim0 < 0 ? dim0 + nd : dim0), dims.at(dim1 < 0 ? dim1 + nd : dim1));
  static const OpDef& op = find_op("permute");
  // A matrix's transpose, the commonest (x.t(), x.transpose(0, 1)), with attributes made once.
  static const Attrs matrix = moved_attrs(std::pair{"dims", std::vector<int64_t>{1, 0}});
  Var out = nd == 2 && dims[0] == 1 ? first_of(op, {x}, matrix)
                                    : first_of(op, {x}, moved_attrs(std::pair{"dims", std::move(dims)}));
  if (out.grad_fn()) {
    const std::vector<Var> inputs{x};
    show_as(out, "TransposeBackward0", &inputs);
  }
  return out;
}

Var advanced_index(const Var& x, const std::vector<AdvancedItem>& key) {
  using Kind = IndexItem::Kind;
  // The basic items select first, each tensor's dim kept whole (a slice); `at`: the tensors'
  // dims in that result, `dims`: in x (flat_index names them in its errors).
  std::vector<IndexItem> basic;
  std::vector<Var> tensors;
  std::vector<int64_t> at, dims;
  basic.reserve(key.size());
  const int64_t ndim = static_cast<int64_t>(x.shape().size());
  int64_t indexed = 0;
  for (const AdvancedItem& k : key) indexed += k.tensor.defined() || (k.item.kind != Kind::kNone && k.item.kind != Kind::kEllipsis);
  bool whole = true;  // every item a whole dim: the basic result is x itself (a slice would copy it)
  int64_t dim = 0, r = 0;
  for (const AdvancedItem& k : key) {
    if (k.tensor.defined()) {
      basic.push_back(IndexItem{Kind::kSlice, 0, std::nullopt, std::nullopt, std::nullopt});
      tensors.push_back(k.tensor);
      at.push_back(r++);
      dims.push_back(dim++);
      continue;
    }
    const IndexItem& item = k.item;
    basic.push_back(item);
    if (item.kind == Kind::kEllipsis) {
      const int64_t fill = std::max<int64_t>(ndim - indexed, 0);
      dim += fill;
      r += fill;
    } else {
      whole = whole && item.kind == Kind::kSlice && !item.start && !item.stop && !item.step;
      dim += item.kind != Kind::kNone;
      r += item.kind != Kind::kInt;
    }
  }
  if (tensors.empty()) throw std::invalid_argument("advanced_index: the key has no index tensor");
  const Var y = whole && indexed <= ndim ? x : basic_index(x, basic);  // basic_index names too many items
  const Shape& shape = y.shape();
  std::vector<int64_t> sizes;
  for (int64_t a : at) sizes.push_back(shape[a]);
  static const OpDef& flat_index = find_op("flat_index");
  const Var positions = first_of(flat_index, tensors,
                                 moved_attrs(std::pair{"dims", std::move(dims)}, std::pair{"sizes", std::move(sizes)},
                                             std::pair{"wrap", true}));
  // One embedding over y seen as [rows of the dims at, the rest] (x[idx] of a 1-d idx on a
  // 2-d x, the common call, needs none of the reshapes and permutes: a call each, skipped
  // where a shape already fits, the intermediates being no caller's tensors).
  const auto shaped = [](const Var& v, const Shape& to) { return v.shape() == to ? v : reshape(v, to); };
  std::vector<int64_t> order = at;
  Shape rest;
  int64_t rows = 1;
  for (int64_t a : at) rows *= shape[a];
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (std::find(at.begin(), at.end(), d) == at.end()) {
      order.push_back(d);
      rest.push_back(shape[d]);
    }
  }
  bool in_order = true;
  for (size_t d = 0; d < order.size(); ++d) in_order = in_order && order[d] == static_cast<int64_t>(d);
  const Var moved = in_order ? y : permute(y, order);
  static const OpDef& embedding = find_op("embedding");
  const Var picked =
      first_of(embedding, {shaped(positions, Shape{numel(positions.shape())}), shaped(moved, Shape{rows, numel(rest)})}, {});
  Shape out_shape = positions.shape();
  out_shape.insert(out_shape.end(), rest.begin(), rest.end());
  Var out = shaped(picked, out_shape);
  // The picked dims replace the tensors' where those are adjacent and not first, else come
  // first (NumPy's and torch's rule).
  bool adjacent = true;
  for (size_t i = 1; i < at.size(); ++i) adjacent = adjacent && at[i] == at[0] + static_cast<int64_t>(i);
  if (adjacent && at[0] != 0) {
    const int64_t nb = static_cast<int64_t>(positions.shape().size());
    const int64_t n = static_cast<int64_t>(out_shape.size());
    std::vector<int64_t> back;
    for (int64_t d = nb; d < nb + at[0]; ++d) back.push_back(d);
    for (int64_t d = 0; d < nb; ++d) back.push_back(d);
    for (int64_t d = nb + at[0]; d < n; ++d) back.push_back(d);
    out = permute(out, back);
  }
  if (out.grad_fn()) {
    const std::vector<Var> inputs{x};
    show_as(out, "IndexBackward0", &inputs);
  }
  return out;
}

Var clone(const Var& x) {
  static const OpDef& slice = find_op("slice");
  const Shape& shape = x.shape();
  const Var& in = shape.empty() ? reshape(x, Shape{1}) : x;  // the slice op takes at least one dim
  const auto n = static_cast<size_t>(in.shape().size());
  Var out = first_of(slice, {in}, moved_attrs(std::pair{"starts", std::vector<int64_t>(n, 0)},
                                              std::pair{"steps", std::vector<int64_t>(n, 1)},
                                              std::pair{"stops", in.shape().vec()}));
  if (shape.empty()) out = reshape(out, shape);
  // torch's clone keeps the memory format (preserve_format): a channels-last x gives a
  // channels-last copy (the slice writes row-major)
  if (!x.is_global() && x.local().format() == MemoryFormat::kChannelsLast) {
    static const OpDef& to_format = find_op("to_memory_format");
    out = std::move(call(to_format, {out}, {{"format", static_cast<int64_t>(MemoryFormat::kChannelsLast)}})[0]);
  }
  if (out.grad_fn()) {
    const std::vector<Var> inputs{x};
    show_as(out, "CloneBackward0", &inputs);
  }
  return out;
}

Var unsqueeze(const Var& x, int64_t dim) {
  const int64_t nd = static_cast<int64_t>(x.shape().size());
  if (dim < -nd - 1 || dim > nd) {
    index_error("unsqueeze", "dim " + std::to_string(dim) + " is out of range for a tensor of " + std::to_string(nd) +
                                 " dims; expected a dim in [" + std::to_string(-nd - 1) + ", " + std::to_string(nd + 1) + ")");
  }
  Shape shape = x.shape();
  shape.insert(shape.begin() + (dim < 0 ? dim + nd + 1 : dim), int64_t{1});
  Var out = reshape(x, shape);
  if (out.grad_fn()) {
    const std::vector<Var> inputs{x};
    show_as(out, "UnsqueezeBackward0", &inputs);
  }
  return out;
}

Var reshape(const Var& x, const Shape& shape) {
  static const OpDef& op = find_op("reshape");
  return first_of(op, {x}, moved_attrs(std::pair{"shape", shape.vec()}));
}

BasicIndex basic_index_plan(const Shape& shape, const std::vector<IndexItem>& key) {
  using Kind = IndexItem::Kind;
  const auto count = [&](Kind kind) {
    return static_cast<int64_t>(std::count_if(key.begin(), key.end(), [&](const IndexItem& i) { return i.kind == kind; }));
  };
  const int64_t ellipses = count(Kind::kEllipsis);
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  const int64_t ndim = static_cast<int64_t>(shape.size());
  const int64_t indexed = static_cast<int64_t>(key.size()) - ellipses - count(Kind::kNone);
  if (indexed > ndim) {
    throw IndexError("too many indices for a tensor of " + std::to_string(ndim) + " dims: " + std::to_string(indexed));
  }
  BasicIndex plan;
  for (std::vector<int64_t>* v : {&plan.starts, &plan.stops, &plan.steps}) v->reserve(static_cast<size_t>(ndim));
  plan.selects = !key.empty() && count(Kind::kInt) == static_cast<int64_t>(key.size());
  IndexItem whole;  // ':' for the dims the key leaves out
  whole.kind = Kind::kSlice;
  int64_t dim = 0;
  const auto take = [&](const IndexItem& item) {  // the item of dim `dim` of x
    const int64_t size = shape[dim];
    int64_t start = 0;
    int64_t stop = 0;
    int64_t step = 1;
    if (item.kind == Kind::kInt) {
      if (item.index < -size || item.index >= size) {
        throw IndexError("index " + std::to_string(item.index) + " is out of range for dim " + std::to_string(dim) +
                         " of size " + std::to_string(size));
      }
      start = item.index < 0 ? item.index + size : item.index;
      stop = start + 1;
      plan.drop_dims.push_back(dim);
    } else {
      step = item.step.value_or(1);
      if (step <= 0) {
        throw std::invalid_argument("slice step must be greater than zero, got " + std::to_string(step) + " in dim " +
                                    std::to_string(dim));
      }
      step = std::min(step, std::max<int64_t>(size, 1));  // the same elements; the slice op's arithmetic in range
      const auto bound = [&](const std::optional<int64_t>& b, int64_t absent) {  // Python's slice.indices
        if (!b) return absent;
        return *b < 0 ? std::max<int64_t>(*b + size, 0) : std::min(*b, size);
      };
      start = bound(item.start, 0);
      stop = std::max(bound(item.stop, size), start);
      plan.shape.push_back((stop - start + step - 1) / step);
    }
    plan.starts.push_back(start);
    plan.stops.push_back(stop);
    plan.steps.push_back(step);
    ++dim;
  };
  for (const IndexItem& item : key) {
    if (item.kind == Kind::kNone) {
      plan.news.push_back(static_cast<int64_t>(plan.shape.size()));
      plan.shape.push_back(1);
    } else if (item.kind == Kind::kEllipsis) {
      for (int64_t fill = ndim - indexed; fill > 0; --fill) take(whole);
    } else {
      take(item);
    }
  }
  while (dim < ndim) take(whole);
  return plan;
}

namespace {

// x[key] as a view of x's memory (alias.h), made without a call, where it is one: a
// local row-major x whose call records nothing, and elements of x[key] that are one run of
// x's memory (x[0], x[2:4], x[0, 1:], x[None]); nullopt for every other.
std::optional<Var> basic_index_view(const Var& x, const BasicIndex& plan) {
  if (x.is_global() || (grad_enabled() && x.requires_grad())) return std::nullopt;
  const Tensor& t = x.local();
  if (t.format() != MemoryFormat::kContiguous) return std::nullopt;
  const Shape& shape = t.shape();
  int64_t offset = 0, stride = 1;
  bool part = false;  // an inner dim picks part of itself: each outer one must pick one index
  for (size_t d = shape.size(); d-- > 0; stride *= shape[d]) {
    const int64_t count = (plan.stops[d] - plan.starts[d] + plan.steps[d] - 1) / plan.steps[d];
    if (count == 0 || (part && count != 1)) return std::nullopt;
    if (count != shape[d]) {
      if (count > 1 && plan.steps[d] != 1) return std::nullopt;
      part = true;
    }
    offset += plan.starts[d] * stride;
  }
  return aliasing(t.view(offset, plan.shape), x);
}

}  // namespace

Var basic_index(const Var& x, const std::vector<IndexItem>& key) {
  using Kind = IndexItem::Kind;
  static const OpDef& slice = find_op("slice");
  const Shape& shape = x.shape();
  BasicIndex plan = basic_index_plan(shape, key);
  if (std::optional<Var> view = basic_index_view(x, plan)) return std::move(*view);
  const auto picks_nothing = [](const IndexItem& i) { return i.kind == Kind::kNone || i.kind == Kind::kEllipsis; };
  const auto ellipses = std::count_if(key.begin(), key.end(), [](const IndexItem& i) { return i.kind == Kind::kEllipsis; });
  if (std::all_of(key.begin(), key.end(), picks_nothing) && ellipses <= 1 &&
      static_cast<size_t>(ellipses) < key.size()) {
    // Nones and '...' alone (x[None], x[..., None]): every element, new dims of 1 where the
    // Nones stand (x's dims at the '...', else after them all), a reshape without a plan
    Shape out;
    bool placed = false;
    for (const IndexItem& item : key) {
      if (item.kind == Kind::kNone) {
        out.push_back(1);
      } else {
        out.insert(out.end(), shape.begin(), shape.end());
        placed = true;
      }
    }
    if (!placed) out.insert(out.end(), shape.begin(), shape.end());
    return reshape(x, out);
  }
  const auto all = [](const std::vector<int64_t>& v, int64_t value) {
    return std::all_of(v.begin(), v.end(), [&](int64_t e) { return e == value; });
  };
  if (!plan.news.empty() && plan.drop_dims.empty() && all(plan.starts, 0) && all(plan.steps, 1) &&
      std::equal(plan.stops.begin(), plan.stops.end(), shape.begin(), shape.end())) {
    // new dims around every element with whole slices (x[:, None]): the reshape alone, not a
    // slice of it all too
    return reshape(x, plan.shape);
  }
  // torch applies the items in order and skips a whole-dim slice, so its node is a select when
  // the last dim the key picks from is an int's: an all-int key, or x[:, 0], x[1:, 0] (x[0, 1:]
  // is a slice)
  bool selects = plan.selects;
  const bool drops = !plan.drop_dims.empty();
  for (int64_t d = static_cast<int64_t>(plan.starts.size()) - 1; drops && !selects && d >= 0; --d) {
    const bool dropped = std::find(plan.drop_dims.begin(), plan.drop_dims.end(), d) != plan.drop_dims.end();
    if (dropped || plan.starts[d] != 0 || plan.stops[d] != x.shape()[d] || plan.steps[d] != 1) {
      selects = dropped;
      break;
    }
  }
  Attrs attrs = plan.drop_dims.empty() ? Attrs() : moved_attrs(std::pair{"drop_dims", std::move(plan.drop_dims)});
  attrs.set("starts", std::move(plan.starts)).set("steps", std::move(plan.steps)).set("stops", std::move(plan.stops));
  Var out = first_of(slice, {x}, attrs);
  if (selects && out.grad_fn()) out.grad_fn()->name = "select";
  return plan.news.empty() ? out : reshape(out, plan.shape);
}
std::optional<Shape> slice_values_shape(const BasicIndex& plan, int64_t ndim, const Shape& values) {
  const Shape& target = plan.shape;
  const int64_t lead = static_cast<int64_t>(values.size()) - static_cast<int64_t>(target.size());
  for (int64_t j = 0; j < lead; ++j) {
    if (values[j] != 1) return std::nullopt;
  }
  std::vector<int64_t> kept;  // the aligned sizes of x[key]'s dims but the Nones'
  for (int64_t j = 0; j < static_cast<int64_t>(target.size()); ++j) {
    const int64_t n = j + lead >= 0 ? values[j + lead] : 1;
    if (n != 1 && n != target[j]) return std::nullopt;
    if (std::find(plan.news.begin(), plan.news.end(), j) == plan.news.end()) kept.push_back(n);
  }
  Shape per_dim;
  size_t next = 0;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool dropped = std::find(plan.drop_dims.begin(), plan.drop_dims.end(), d) != plan.drop_dims.end();
    per_dim.push_back(dropped ? 1 : kept.at(next++));
  }
  return per_dim;
}

Var expand(const Var& x, const Shape& shape) { return call1("expand", {x}, {{"shape", shape}}); }

Var sum(const Var& x, const std::vector<int64_t>& dims, bool keepdim) {
  return call1("sum", {x}, {{"dims", dims}, {"keepdim", keepdim}});
}
Var mean(const Var& x, const std::vector<int64_t>& dims, bool keepdim) {
  return call1("mean", {x}, {{"dims", dims}, {"keepdim", keepdim}});
}
Var amax(const Var& x, const std::vector<int64_t>& dims, bool keepdim) {
  return call1("amax", {x}, {{"dims", dims}, {"keepdim", keepdim}});
}

Var sum_to(const Var& x, const Shape& shape) {
  const Shape& from = x.shape();
  if (from == shape) return x;
  const int64_t lead = static_cast<int64_t>(from.size()) - static_cast<int64_t>(shape.size());
  if (lead < 0) {
    throw std::invalid_argument("sum_to: shape " + to_string(shape) + " has more dims than " + to_string(from));
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < static_cast<int64_t>(from.size()); ++d) {
    if (d < lead || (shape[d - lead] == 1 && from[d] != 1)) dims.push_back(d);
  }
  if (dims.empty()) return reshape(x, shape);
  return reshape(sum(x, dims, /*keepdim=*/true), shape);
}

Var softmax(const Var& x, int64_t dim) { return call1("softmax", {x}, {{"dim", dim}}); }
namespace {
Attrs attention_attrs(bool causal, double scale) {
  Attrs attrs{{"causal", causal}};
  if (scale != 0) attrs.set("scale", scale);
  return attrs;
}
}  // namespace
Var scaled_dot_product_attention(const Var& q, const Var& k, const Var& v, bool causal, double scale) {
  return call("scaled_dot_product_attention", {q, k, v}, attention_attrs(causal, scale))[0];
}
Var packed_qkv_attention(const Var& qkv, bool causal, double scale) {
  return call("packed_qkv_attention", {qkv}, attention_attrs(causal, scale))[0];
}
Var log_softmax(const Var& x, int64_t dim) { return call1("log_softmax", {x}, {{"dim", dim}}); }
Var embedding(const Var& indices, const Var& weight) { return call1("embedding", {indices, weight}); }

namespace {
// x @ weight (weight^T when transpose_b) + bias, bias 1-d of the product's width.
Var product_plus_bias(const Var& x, const Var& weight, const Var& bias, bool transpose_b) {
  // The bias in the product's kernel where it fits: a 1-d bias of the result's width, all
  // three of one dtype (under autocast, float32 or half: autocast casts the three alike).
  // Otherwise (a broadcast bias of another shape, mixed dtypes) a separate add, with add's
  // rules and errors.
  // On global tensors also only where the product is whole on each rank: a split of the
  // contracted dim (a row-parallel layer) or a partial operand makes a partial sum, whose
  // bias would be partial too, and the planner would rather move the operands than reduce
  // the sum where its consumer wants it (a reduce-scatter into the next layer); there the add
  // stays separate. So does a graph traced over several ranks: the whole-graph SBP choice,
  // which looks at each op's signatures, moved more bytes with the bias inside the product
  // (the GPT at 1x2x1 in graph mode: 29 MB a step against 21).
  auto autocast_float = [](const Var& v) { return v.dtype() == DType::kFloat32 || is_half(v.dtype()); };
  const bool one_dtype = autocast.dtype ? autocast_float(x) && autocast_float(weight) && autocast_float(bias)
                             : x.dtype() == weight.dtype() && bias.dtype() == x.dtype();
  const Shape& w = weight.shape();
  auto sums_partially = [](const Var& v, int64_t contracted) {
    if (!v.is_global()) return false;
    for (const Sbp& s : v.global().nd_sbp()) {
      if (s.is_partial() || (s.is_split() && s.split_dim() == contracted)) return true;
    }
    return false;
  };
  const bool graph_chooses = op_tracer() && x.is_global() && x.global().placement().size() > 1;
  if (bias.shape().size() == 1 && w.size() == 2 && bias.shape()[0] == w[transpose_b ? 0 : 1] && one_dtype &&
      !x.shape().empty() && !graph_chooses && !sums_partially(x, static_cast<int64_t>(x.shape().size()) - 1) &&
      !sums_partially(weight, transpose_b ? 1 : 0)) {
    return call1("matmul", {x, weight, bias}, transpose_b ? Attrs{{"transpose_b", true}} : Attrs{});
  }
  return add_bias(matmul(x, weight, false, transpose_b), bias);
}
}  // namespace

Var add_bias(const Var& product, const Var& bias) {
  // Under autocast the bias is cast with the operands, as torch's.
  const bool low = autocast.dtype && product.dtype() == *autocast.dtype &&
                   (bias.dtype() == DType::kFloat32 || is_half(bias.dtype()));
  return add(product, low ? autocast_cast(bias, product.dtype()) : bias);
}

namespace {
// An edge to a node torch records where meshflow does not: shown by grad_fn (Node::torch_name,
// its next_functions `inputs`), never run.
Edge shown_node(std::string torch_name, std::vector<Edge> inputs) {
  auto node = std::make_shared<Node>();
  node->torch_name = std::move(torch_name);
  node->inputs = std::move(inputs);
  return Edge{std::move(node), 0, nullptr};
}

// v's edge through such a node (torch's transpose of a weight), or none where v takes no gradient.
Edge shown_through(const char* torch_name, const Var& v) {
  return v.requires_grad() ? shown_node(torch_name, {edge_of(v)}) : Edge{};
}
}  // namespace

Var linear(const Var& x, const Var& weight, const Var& bias) {
  Var y = bias.defined() ? product_plus_bias(x, weight, bias, true) : matmul(x, weight, false, true);
  if (!y.requires_grad()) return y;
  // torch's nodes: an addmm (an mm without a bias) of the bias, the input (folded to 2-d by
  // a view for another rank) and a transpose of the weight, unfolded by an unsafe view for
  // another rank. meshflow's one product reads the weight transposed and any rank in place.
  const bool matrix = x.shape().size() == 2;
  std::vector<Edge> edges{matrix ? edge_of(x) : shown_through("ViewBackward0", x), shown_through("TBackward0", weight)};
  if (bias.defined()) edges.insert(edges.begin(), edge_of(bias));
  std::string product = bias.defined() ? "AddmmBackward0" : "MmBackward0";
  Node& node = *y.grad_fn();
  if (matrix) {
    node.torch_name = std::move(product);
    node.shown_inputs = std::move(edges);
  } else {
    node.torch_name = "UnsafeViewBackward0";
    node.shown_inputs = std::vector<Edge>{shown_node(std::move(product), std::move(edges))};
  }
  return y;
}

Var addmm(const Var& input, const Var& mat1, const Var& mat2) { return product_plus_bias(mat1, mat2, input, false); }

namespace {
// `made` (by a creation op: on the host) on local x's device.
Var on_device_of(const Var& made, const Var& x) {
  const Memory& memory = x.local().memory();
  return memory.host_accessible() ? made : to_device(made, device::of(memory));
}
}  // namespace

Var dropout(const Var& x, double p, bool training) {
  if (!(p >= 0 && p < 1)) throw std::invalid_argument("dropout: p is " + std::to_string(p) + "; expected 0 <= p < 1");
  if (!training || p == 0) return x;
  const RandomCall draw = next_random_call(numel(x.shape()));
  return call("dropout", {x}, {{"p", p}, {"seed", draw.seed}, {"offset", draw.offset}})[0];
}

namespace {
// cross_entropy's result shown as torch's node (log_softmax, then nll_loss): NllLossBackward0.
Var as_nll_loss(Var loss) {
  show_as(loss, "NllLossBackward0");
  return loss;
}

// The mean of `terms` over the counted rows (`counted`: 1 where a row counts, else 0), both one
// value a row. On a batch split over ranks each sum is partial, and a small partial value gets
// a read twin, a conversion of its own (global_tensor.h, with_read_twin), as does each op on it
// that records a gradient: the two sums are made as one vector, whose twin is the one
// conversion the loss costs, and the quotient, of whole values, is whole on every rank.
Var mean_over_counted(const Var& terms, const Var& counted) {
  if (!terms.is_global()) return div(sum(terms), sum(counted));
  // Rows of the stack, each summed as a vector of its own (the order one sum makes).
  const Var partial = sum(call1("stack", {terms, counted}, {{"dim", int64_t{0}}}), {1});
  // Made broadcast from the sums' twin (no collective), so that the ops below, which record
  // gradients and so run on their inputs' own layouts, see whole values.
  const Placement& placement = partial.global().placement();
  const Var sums = to_global(partial, placement, NdSbp(placement.ndim(), Sbp::broadcast()), false);
  auto element = [&](int64_t i) {
    IndexItem item;
    item.index = i;  // an int item
    return basic_index(sums, {item});
  };
  return div(element(0), element(1));
}
}  // namespace

Var cross_entropy(const Var& logits, const Var& target) {
  // The fused op's rule checks shapes and dtypes, with cross_entropy's messages.
  find_op("softmax_cross_entropy").infer({{logits.shape(), logits.dtype()}, {target.shape(), target.dtype()}}, {});
  // Targets of -100 are left out, as PyTorch's default ignore_index: their rows count
  // neither in the sum nor in the mean's count (all rows ignored: 0 / 0, NaN, as PyTorch).
  const Var counted = cast(call1("ne", {target, full_like(target, -100)}), logits.dtype());
  const auto& sbp = logits.is_global() ? logits.global().nd_sbp() : NdSbp{};
  if (std::none_of(sbp.begin(), sbp.end(), [](const Sbp& s) { return s.is_split() && s.split_dim() == 1; })) {
    // Whole rows on each rank: the fused op, one pass over the logits each way.
    const Var losses = call("softmax_cross_entropy", {logits, target}, {{"ignore_index", int64_t{-100}}})[0];
    return as_nll_loss(mean_over_counted(losses, counted));
  }
  // Classes split (a vocabulary-parallel head): per-row maxima and sums of exp are reduced
  // over the ranks, and each rank's target logits come from gather, so the logits are never
  // gathered.
  // Shifting by the row maximum keeps exp finite; the shift cancels, so it takes no gradient.
  const Var shifted = sub(logits, amax(logits.detach(), {1}, true));
  // The row sums are all-reduced, not reduce-scattered as log alone would prefer: log's
  // backward would then make the [N, C] gradient split on N, and bringing it back to the
  // class split moves the whole logits.
  Var sum_exp = sum(exp(shifted), {1}, true);
  if (sum_exp.is_global()) sum_exp = to_global(sum_exp, sum_exp.global().placement(), *like(sum_exp).outputs[0], false);
  const Var log_sum_exp = log(sum_exp);
  // Every rank gets gather's verdict on the targets (when its kernel runs); say it in this
  // function's terms.
  const DataErrorRestatement as_targets([](const std::string& what) {
    const std::string prefix = "[gather] index";
    return what.rfind(prefix, 0) == 0 ? "[cross_entropy] target" + what.substr(prefix.size()) : what;
  });
  const Var rows = reshape(target, {-1, 1});
  const Var kept = call1("ne", {rows, full_like(rows, -100)});
  const Var picked = call1("gather", {shifted, where(kept, rows, zeros_like(rows))}, {{"dim", int64_t{1}}});
  return as_nll_loss(mean_over_counted(reshape(mul(sub(log_sum_exp, picked), reshape(counted, {-1, 1})), {-1}), counted));
}

Var full_like(const Var& x, double value) {
  Attrs attrs{{"shape", x.shape()}, {"dtype", x.dtype()}, {"value", value}};
  return x.is_global() ? call1("full", {}, attrs, like(x)) : on_device_of(call1("full", {}, attrs), x);
}
Var zeros_like(const Var& x) { return full_like(x, 0); }
Var ones_like(const Var& x) { return full_like(x, 1); }

bool write_basic_index(Var x, const std::vector<IndexItem>& key, const std::variant<Scalar, Var>& value) {
  BasicIndex plan = basic_index_plan(x.shape(), key);
  const int64_t ndim = static_cast<int64_t>(x.shape().size());
  const uint64_t since = next_sequence();  // the write's own calls read no value of x
  Var values;
  const DType dtype = x.dtype();
  const Scalar* number = std::get_if<Scalar>(&value);
  const double v = !number            ? 0.0
                   : number->is_float() ? std::get<double>(number->value())
                                        : static_cast<double>(std::get<int64_t>(number->value()));
  // (A float32 one past float32's range goes to full, which refuses it as torch's fill_.)
  const bool fits = dtype == DType::kFloat64 || !std::isfinite(v) || std::fabs(v) <= std::numeric_limits<float>::max();
  if (number && &x.local().memory() == &host_memory() && (dtype == DType::kFloat32 || dtype == DType::kFloat64) &&
      fits) {
    // A float number for a host float tensor: made here as the full op's kernel makes it (the
    // number as a double, rounded once to the dtype), without issuing the op.
    Tensor t = Tensor::empty(Shape(static_cast<size_t>(ndim), 1), dtype);
    if (dtype == DType::kFloat32) {
      *t.data_as<float>() = static_cast<float>(v);
    } else {
      *t.data_as<double>() = v;
    }
    values = Var(std::move(t));
  } else if (number) {
    static const OpDef& full = find_op("full");
    // Written as torch's fill_ of x[key], which refuses a number past the dtype's range, but
    // for one element of a half dtype (h[0] = 1e5 of a float16 h is inf): full's rules, when
    // the key picks one element.
    const bool one = numel(plan.shape) == 1;
    values = on_device_of(first_of(full, {},
                                   moved_attrs(std::pair{"dtype", AttrValue(x.dtype())},
                                               std::pair{"shape", AttrValue(std::vector<int64_t>(ndim, 1))},
                                               std::pair{"value", AttrValue(number->value())},
                                               std::pair{"checked", AttrValue(!one)})),
                          x);
  } else {
    values = std::get<Var>(value);
    const std::optional<Shape> shape = slice_values_shape(plan, ndim, values.shape());
    if (!shape) return false;
    if (*shape != values.shape()) {
      // A row-major local Var whose gradient is not recorded is seen in that shape as the
      // reshape op's kernel sees it (a view of its memory), without issuing the op.
      const bool recorded = grad_enabled() && values.requires_grad();
      values = !recorded && !values.is_global() && values.local().format() == MemoryFormat::kContiguous
                   ? Var(values.local().view(0, *shape))
                   : reshape(values, *shape);
    }
  }
  const Attrs attrs = moved_attrs(std::pair{"starts", std::move(plan.starts)}, std::pair{"steps", std::move(plan.steps)},
                                  std::pair{"stops", std::move(plan.stops)});
  x.assign(write_in_place("slice_scatter", {x, values}, attrs, 0).at(0), since);
  return true;
}

}  // namespace fn
}  // namespace mf
