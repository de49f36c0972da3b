// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/registry.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <variant>
#include <memory>
#include <mutex>
#include <utility>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "meshflow/core/error.h"

namespace mf {
namespace {

using OpMap = std::map<std::string, std::unique_ptr<OpDef>>;

OpMap*& op_map() {
  static OpMap* ops = nullptr;
  return ops;
}

// The half dtypes an op has no kernels for, and how it computes them in float32 instead
// (op.h, "Halves"): the inputs and dtype attributes of those dtypes widened exactly, the
// float32 kernel, its float32 results rounded once to the inputs' half dtype (its SBP rules
// see the widened metas too). A half beside
// another floating dtype is refused as the op refuses float32 beside float64 (the callers
// promote first), not widened into agreement.
struct Widening {
  std::string op;
  bool bf16 = false, f16 = false;

  bool any() const { return bf16 || f16; }
  bool widens(DType d) const { return (d == DType::kBFloat16 && bf16) || (d == DType::kFloat16 && f16); }
  DType widened(DType d) const { return widens(d) ? DType::kFloat32 : d; }

  bool touches(const std::vector<TensorMeta>& metas) const {
    return std::any_of(metas.begin(), metas.end(), [this](const TensorMeta& m) { return widens(m.dtype); });
  }
  bool touches(const Attrs& attrs) const {
    return std::any_of(attrs.items().begin(), attrs.items().end(), [this](const auto& item) {
      return std::holds_alternative<DType>(item.second) && widens(std::get<DType>(item.second));
    });
  }

  std::vector<TensorMeta> widened(std::vector<TensorMeta> metas) const {
    for (TensorMeta& m : metas) m.dtype = widened(m.dtype);
    return metas;
  }
  Attrs widened(const Attrs& attrs) const {
    Attrs out = attrs;
    for (const auto& [key, value] : attrs.items()) {
      if (std::holds_alternative<DType>(value)) out.set(key, widened(std::get<DType>(value)));
    }
    return out;
  }

  // What float32 results round to: the one half dtype widened (from the inputs or a dtype
  // attribute, creation ops' dtype=); none where bfloat16 and float16 meet (float32, as
  // their promotion) or nothing was widened.
  std::optional<DType> rounded_to(const std::vector<TensorMeta>& in, const Attrs& attrs) const {
    std::optional<DType> half;
    bool mixed = false;
    auto see = [&](DType d) {
      if (!widens(d)) return;
      mixed = mixed || (half && *half != d);
      half = d;
    };
    for (const TensorMeta& m : in) see(m.dtype);
    for (const auto& item : attrs.items()) {
      if (std::holds_alternative<DType>(item.second)) see(std::get<DType>(item.second));
    }
    return mixed ? std::nullopt : half;
  }

  std::vector<TensorMeta> infer(const decltype(OpDef::infer)& infer, const std::vector<TensorMeta>& in,
                                const Attrs& attrs) const {
    if (!touches(in) && !touches(attrs)) return infer(in, attrs);
    const TensorMeta* floating = nullptr;
    for (const TensorMeta& m : in) {
      if (!is_floating(m.dtype)) continue;
      if (floating && floating->dtype != m.dtype) {
        op_error(op, std::string("takes inputs of one floating dtype; got ") + dtype_name(floating->dtype) + " and " +
                         dtype_name(m.dtype) + " (promote them first: bfloat16 or float16 with float32 is float32)");
      }
      floating = &m;
    }
    std::vector<TensorMeta> out = infer(widened(in), widened(attrs));
    if (const std::optional<DType> half = rounded_to(in, attrs)) {
      for (TensorMeta& m : out) {
        if (m.dtype == DType::kFloat32) m.dtype = *half;
      }
    }
    return out;
  }

  // `kernel` taking the widened dtypes: the inputs widened and the results rounded by the cast
  // op's kernel for their device, so this serves every device type.
  Kernel kernel(Kernel kernel) const {
    return [w = *this, kernel = std::move(kernel)](const std::vector<Tensor>& in, const KernelContext& ctx) {
      if (!w.touches(ctx.inputs) && !w.touches(ctx.outputs)) return kernel(in, ctx);
      std::vector<Tensor> wide_in;
      wide_in.reserve(in.size());
      for (const Tensor& t : in) wide_in.push_back(w.widens(t.dtype()) ? cast_on_device(t, DType::kFloat32, nullptr) : t);
      const Attrs attrs = w.widened(ctx.attrs);
      const std::vector<TensorMeta> inputs = w.widened(ctx.inputs), outputs = w.widened(ctx.outputs);
      std::vector<Tensor> given(outputs.size());  // where the caller wants the outputs that are not rounded
      for (size_t k = 0; ctx.given && k < ctx.given->size() && k < given.size(); ++k) {
        if (!w.widens(ctx.outputs[k].dtype)) given[k] = (*ctx.given)[k];
      }
      std::vector<Tensor> out = kernel(wide_in, KernelContext{attrs, inputs, ctx.input_boxes, outputs, ctx.output_boxes, &given});
      for (size_t k = 0; k < out.size() && k < outputs.size(); ++k) {
        if (!w.widens(ctx.outputs[k].dtype)) continue;
        const Tensor* into = ctx.given && k < ctx.given->size() ? &(*ctx.given)[k] : nullptr;
        out[k] = cast_on_device(out[k], ctx.outputs[k].dtype, into);
      }
      return out;
    };
  }

  // `t` cast to `to` by the cast op's kernel for t's device, in t's memory format (a
  // channels-last input of an op with OpDef::formats comes as it lies), into `into` where that
  // is a tensor of t's shape, format and dtype `to` (else new memory).
  static Tensor cast_on_device(const Tensor& t, DType to, const Tensor* into) {
    static const OpDef& cast = find_op("cast");
    const Attrs attrs{{"dtype", to}};
    const std::vector<TensorMeta> in{{t.shape(), t.dtype(), t.format()}}, out{{t.shape(), to, t.format()}};
    const std::vector<Box> boxes{Box::whole(t.shape())};
    std::vector<Tensor> given;
    if (into) given.push_back(*into);
    return kernel_for(cast, t.memory())({t}, KernelContext{attrs, in, boxes, out, boxes, &given})[0];
  }
};

// The device types besides the CPU and the kernels registered for them. Filled while the
// registry is (on one thread, before any op is found), then read-only but for `made`.
struct DeviceKernels {
  // By Memory::device_type_index; unset for "cpu" (index 0) and undeclared types.
  std::vector<std::optional<OpRegistry::DeviceType>> types;
  std::deque<Kernel> kernels;  // every registered kernel but OpDef::kernel (OpDef::kernels points here)
  std::mutex mu;
  std::map<std::pair<const OpDef*, int>, Kernel> made;  // GUARDED_BY(mu): kernel_for's where OpDef::kernels has none

  const OpRegistry::DeviceType* declared(int type) const {
    return type < static_cast<int>(types.size()) && types[type] ? &*types[type] : nullptr;
  }

  // `kernel` as type `type` calls it: through the type's call, its halves widened.
  Kernel finish(const OpDef& op, int type, Kernel kernel) const {
    if (const OpRegistry::DeviceType* t = declared(type); t && t->call) kernel = t->call(op, std::move(kernel));
    const Widening widening{op.name, !op.bfloat16, !op.float16};
    return widening.any() ? widening.kernel(std::move(kernel)) : kernel;
  }

  // Type `type`'s kernel of `op`, whether or not it is in the registry; one that raises
  // "[op] has no kernel for device type ..." when called where there is none (by name: ops
  // made while compiling live shorter than the kernel made for them). Throws that at once
  // for an undeclared type.
  Kernel make(const OpDef& op, int type, const std::string& type_name) const {
    if (type < static_cast<int>(op.kernels.size()) && op.kernels[type]) return *op.kernels[type];
    const OpRegistry::DeviceType* t = declared(type);
    if (type == 0 && op.kernel) return op.kernel;
    if (type != 0 && !t) op_error(op.name, "has no kernel for device type '" + type_name + "'");
    if (t && t->program && op.program) return finish(op, type, t->program(op.program));
    if (t && t->from_host && op.kernel) return finish(op, type, t->from_host(op));
    return [name = op.name, type_name](const std::vector<Tensor>&, const KernelContext&) -> std::vector<Tensor> {
      op_error(name, "has no kernel for device type '" + type_name + "'");
    };
  }
};

DeviceKernels& device_kernels() {
  static auto* k = new DeviceKernels;  // never destroyed: kernels may run during exit
  return *k;
}

// Registers `kernel` as type `type`'s kernel of `op` (already finished).
void set_kernel(OpDef& op, int type, Kernel kernel) {
  DeviceKernels& k = device_kernels();
  k.kernels.push_back(std::move(kernel));
  if (op.kernels.size() <= static_cast<size_t>(type)) op.kernels.resize(type + 1);
  op.kernels[type] = &k.kernels.back();
}

// The kernels each device type with from_host makes of the ops that have none of its own.
void add_kernels_from_host(OpMap& ops) {
  DeviceKernels& k = device_kernels();
  for (int type = 1; type < static_cast<int>(k.types.size()); ++type) {
    const OpRegistry::DeviceType* t = k.declared(type);
    if (!t || !t->from_host) continue;
    for (auto& [name, op] : ops) {
      const bool has = static_cast<size_t>(type) < op->kernels.size() && op->kernels[type];
      if (op->kernel && !has) set_kernel(*op, type, k.finish(*op, type, t->from_host(*op)));
    }
  }
}

}  // namespace

void OpRegistry::add(OpDef op) {
  OpMap& ops = *op_map();
  const std::string name = op.name;
  if (ops.count(name)) throw std::logic_error("op '" + name + "' is registered twice");
  if (op.complex_only && !op.complex) {
    throw std::logic_error("op '" + name + "' is complex_only but not complex (complex_only implies complex)");
  }
  const Widening widening{name, !op.bfloat16, !op.float16};
  if (widening.any()) {
    op.infer = [widening, infer = std::move(op.infer)](const std::vector<TensorMeta>& in, const Attrs& attrs) {
      return widening.infer(infer, in, attrs);
    };
    if (op.kernel) op.kernel = widening.kernel(std::move(op.kernel));
    // Its SBP rules see what its kernel sees.
    if (op.signatures) {
      op.signatures = [widening, signatures = std::move(op.signatures)](
                          const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs& attrs) {
        return signatures(widening.widened(in), widening.widened(out), widening.widened(attrs));
      };
    }
    if (op.valid_on) {
      op.valid_on = [widening, valid_on = std::move(op.valid_on)](const std::vector<TensorMeta>& in,
                                                                  const std::vector<TensorMeta>& out, const Attrs& attrs,
                                                                  const NdSignature& signature, const Shape& hierarchy) {
        return valid_on(widening.widened(in), widening.widened(out), widening.widened(attrs), signature, hierarchy);
      };
    }
  }
  if (op.check_given) {  // outside the widening: it sees the dtypes the caller gave
    op.infer = [check = op.check_given, infer = std::move(op.infer)](const std::vector<TensorMeta>& in,
                                                                      const Attrs& attrs) {
      check(in, attrs);
      return infer(in, attrs);
    };
  }
  if (!op.booleans || !op.small_ints || !op.complex) {
    op.infer = [name, booleans = op.booleans, small_ints = op.small_ints, complex = op.complex,
                infer = std::move(op.infer)](const std::vector<TensorMeta>& in, const Attrs& attrs) {
      auto refuse = [&](const std::vector<TensorMeta>& metas, const char* what) {
        for (const TensorMeta& m : metas) {
          if (m.dtype == DType::kBool && !booleans) {
            op_error(name, std::string("does not ") + what + " bool tensors; cast to an integer or float dtype first");
          }
          if (is_small_int(m.dtype) && !small_ints) {
            op_error(name, std::string("does not ") + what + " " + dtype_name(m.dtype) +
                               " tensors; cast to int64 or float32 first");
          }
          if (is_complex(m.dtype) && !complex) {
            op_error(name, std::string("does not ") + what + " " + dtype_name(m.dtype) + " tensors (not implemented for complex)");
          }
        }
      };
      refuse(in, "take");
      std::vector<TensorMeta> out = infer(in, attrs);
      refuse(out, "make");
      return out;
    };
  }
  OpDef& added = *ops.emplace(name, std::make_unique<OpDef>(std::move(op))).first->second;
  added.kernels.clear();
  if (added.kernel) added.kernels.push_back(&added.kernel);  // the "cpu" kernel, index 0
}

void OpRegistry::add_device_type(const std::string& device_type, DeviceType type) {
  DeviceKernels& k = device_kernels();
  const int index = device_type_index(device_type);
  if (index == 0 || k.declared(index)) throw std::logic_error("device type '" + device_type + "' is declared twice");
  if (k.types.size() <= static_cast<size_t>(index)) k.types.resize(index + 1);
  k.types[index] = std::move(type);
}

void OpRegistry::add_kernel(const std::string& device_type, const std::string& op, Kernel kernel) {
  OpMap& ops = *op_map();
  auto it = ops.find(op);
  if (it == ops.end()) {
    throw std::logic_error("a '" + device_type + "' kernel of unknown op '" + op + "' (register the op first)");
  }
  DeviceKernels& k = device_kernels();
  const int type = device_type_index(device_type);
  if (type != 0 && !k.declared(type)) {
    throw std::logic_error("op '" + op + "' gets a kernel of undeclared device type '" + device_type +
                           "' (OpRegistry::add_device_type first)");
  }
  OpDef& def = *it->second;
  if (static_cast<size_t>(type) < def.kernels.size() && def.kernels[type]) {
    throw std::logic_error("op '" + op + "' has two kernels for device type '" + device_type + "'");
  }
  if (type == 0) {  // the CPU's is the op's host kernel
    def.kernel = k.finish(def, type, std::move(kernel));
    if (def.kernels.empty()) def.kernels.resize(1);
    def.kernels[0] = &def.kernel;
    return;
  }
  set_kernel(def, type, k.finish(def, type, std::move(kernel)));
}

std::vector<const OpDef*> OpRegistry::ops() const {
  std::vector<const OpDef*> out;
  for (const auto& [name, op] : *op_map()) out.push_back(op.get());
  return out;
}

namespace {

// mf.autocast's lists (OpDef::autocast): torch's, under meshflow's op names (composites
// defined in Python, the other losses and norms, cast at their definition, nn/functional.py).
void set_autocast_lists(OpMap& ops) {
  const std::pair<Autocast, std::vector<const char*>> lists[] = {
      {Autocast::kLower, {"matmul", "conv2d", "conv3d", "scaled_dot_product_attention", "packed_qkv_attention"}},
      {Autocast::kFloat32,
       {"softmax_cross_entropy", "prod", "linalg_cholesky", "linalg_eig", "linalg_eigh", "linalg_inv", "linalg_lstsq",
        "linalg_qr", "linalg_slogdet", "linalg_solve", "linalg_svd"}},
      {Autocast::kFloat32OnCuda,
       {"acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log1p", "log2", "reciprocal", "rsqrt",
        "sinh", "tan", "pow", "pow_scalar", "rpow_scalar", "softmax", "log_softmax", "layer_norm", "sum", "cumsum",
        "cumprod"}},
  };
  for (const auto& [policy, names] : lists) {
    for (const char* name : names) {
      auto it = ops.find(name);
      if (it == ops.end()) throw std::logic_error(std::string("autocast's op lists name an unknown op '") + name + "'");
      it->second->autocast = policy;
    }
  }
}

}  // namespace

namespace {

// Every op family, and every device type's kernels, in one visible list.
const OpMap& all_ops() {
  static const OpMap* ops = [] {
    op_map() = new OpMap;
    OpRegistry r;
    register_elementwise_ops(r);
    register_matmul_ops(r);
    register_shape_ops(r);
    register_reduce_ops(r);
    register_nn_ops(r);
    register_attention_ops(r);
    register_creation_ops(r);
    register_optimizer_ops(r);
    register_sort_ops(r);
    register_conv_ops(r);
    register_pool_ops(r);
    register_batch_norm_ops(r);
    register_index_ops(r);
    register_linalg_ops(r);
    register_rnn_ops(r);
    register_fft_ops(r);
    register_complex_ops(r);
    set_autocast_lists(*op_map());
    register_testdev_kernels(r);
    register_meta_kernels(r);
#ifdef MESHFLOW_CUDA
    register_cuda_kernels(r);
#endif
    add_kernels_from_host(*op_map());
    return op_map();
  }();
  return *ops;
}

}  // namespace

const OpDef& find_op(const std::string& name) {
  // A hash of the ops made at load, which the functional layer's calls by name hit per op
  // call; an op registered later (a test's) is found in the map.
  static const auto* hashed = [] {
    auto* index = new std::unordered_map<std::string_view, const OpDef*>;
    for (const auto& [op_name, op] : all_ops()) index->emplace(op_name, op.get());
    return index;
  }();
  if (auto hit = hashed->find(name); hit != hashed->end()) return *hit->second;
  const OpMap& ops = all_ops();
  auto it = ops.find(name);
  if (it == ops.end()) throw std::invalid_argument("unknown op '" + name + "'");
  return *it->second;
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const auto& [name, op] : all_ops()) names.push_back(name);
  return names;
}

const Kernel& kernel_for(const OpDef& op, const Memory& memory) {
  const int type = memory.device_type_index();
  if (type < static_cast<int>(op.kernels.size()) && op.kernels[type]) return *op.kernels[type];
  all_ops();  // the device types are declared with the ops
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  auto key = std::make_pair(&op, type);
  auto it = k.made.find(key);
  if (it != k.made.end()) return it->second;
  return k.made.emplace(key, k.make(op, type, memory.device_type())).first->second;
}

Kernel make_kernel_for(const OpDef& op, const Memory& memory) {
  all_ops();
  return device_kernels().make(op, memory.device_type_index(), memory.device_type());
}

bool has_kernel(const OpDef& op, const std::string& device_type) {
  all_ops();
  const size_t type = static_cast<size_t>(device_type_index(device_type));
  return type < op.kernels.size() && op.kernels[type];
}

bool runs_host_kernels(const Memory& memory) {
  all_ops();
  const int type = memory.device_type_index();
  const OpRegistry::DeviceType* t = device_kernels().declared(type);
  return type == 0 || (t && t->from_host);
}

FusedChains fused_chains(const Memory& memory) {
  all_ops();
  const int type = memory.device_type_index();
  const OpRegistry::DeviceType* t = device_kernels().declared(type);
  if (type == 0) return FusedChains::kHostLoops;
  if (t && t->program) return FusedChains::kPrograms;
  return t && t->from_host ? FusedChains::kHostLoops : FusedChains::kNone;
}

[[noreturn]] void op_error(const std::string& op, const std::string& message) {
  throw OpError("[" + op + "] " + message);
}

std::string Signature::str() const {
  std::string s;
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + inputs[i].str();
  s += " -> ";
  for (size_t i = 0; i < outputs.size(); ++i) s += (i ? ", " : "") + outputs[i].str();
  return s;
}

std::string NdSignature::str() const {
  std::string s;
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + to_string(inputs[i]);
  s += " -> ";
  for (size_t i = 0; i < outputs.size(); ++i) s += (i ? ", " : "") + to_string(outputs[i]);
  return s;
}

}  // namespace mf
