// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/registry.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/core/error.h"

namespace mf {
namespace {

using OpMap = std::map<std::string, std::unique_ptr<OpDef>>;

OpMap*& op_map() {
  static OpMap* ops = nullptr;
  return ops;
}

// Device types' kernel makers, and the kernels made (node-based: references stay valid).
struct DeviceKernels {
  std::mutex mu;
  std::map<std::string, KernelMaker> makers;
  std::map<std::string, bool> fuses;  // runs_fused_chains, per device type
  std::map<std::pair<const OpDef*, std::string>, Kernel> made;  // GUARDED_BY(mu)

  // REQUIRES(mu). The kernel `device_type`'s maker makes of `op`; where it makes none, one that
  // raises "[op] has no <type> kernel" when called (by name: ops made while compiling live
  // shorter than the kernel made for them).
  Kernel make(const OpDef& op, const std::string& device_type) const {
    auto it = makers.find(device_type);
    if (it == makers.end()) op_error(op.name, "has no kernel for device type '" + device_type + "'");
    Kernel kernel = it->second(op);
    if (kernel) return kernel;
    return [name = op.name, device_type](const std::vector<Tensor>&, const KernelContext&) -> std::vector<Tensor> {
      op_error(name, "has no kernel for device type '" + device_type + "'");
    };
  }
};

DeviceKernels& device_kernels() {
  static auto* k = new DeviceKernels;  // never destroyed: kernels may run during exit
  return *k;
}

}  // namespace

void OpRegistry::add(OpDef op) {
  OpMap& ops = *op_map();
  const std::string name = op.name;
  if (ops.count(name)) throw std::logic_error("op '" + name + "' is registered twice");
  if (!op.bfloat16 || !op.booleans || !op.float16 || !op.small_ints) {
    op.infer = [name, bf16 = op.bfloat16, booleans = op.booleans, f16 = op.float16, small_ints = op.small_ints,
                infer = std::move(op.infer)](const std::vector<TensorMeta>& in, const Attrs& attrs) {
      auto refuse = [&](const std::vector<TensorMeta>& metas, const char* what) {
        for (const TensorMeta& m : metas) {
          if (m.dtype == DType::kBFloat16 && !bf16) {
            op_error(name, std::string("does not ") + what + " bfloat16; use float32 and cast (under mf.autocast, "
                           "matmuls and attention run in bfloat16, everything else in float32)");
          }
          if (m.dtype == DType::kFloat16 && !f16) {
            op_error(name, std::string("does not ") + what + " float16 (a storage type); cast to float32 first");
          }
          if (m.dtype == DType::kBool && !booleans) {
            op_error(name, std::string("does not ") + what + " bool tensors; cast to an integer or float dtype first");
          }
          if (is_small_int(m.dtype) && !small_ints) {
            op_error(name, std::string("does not ") + what + " " + dtype_name(m.dtype) +
                               " tensors; cast to int64 or float32 first");
          }
        }
      };
      refuse(in, "take");
      std::vector<TensorMeta> out = infer(in, attrs);
      refuse(out, "make");
      return out;
    };
  }
  ops.emplace(name, std::make_unique<OpDef>(std::move(op)));
}

void OpRegistry::add_device_kernels(const std::string& device_type, KernelMaker make, bool runs_fused_chains) {
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  if (!k.makers.emplace(device_type, std::move(make)).second) {
    throw std::logic_error("device type '" + device_type + "' has kernels registered twice");
  }
  k.fuses[device_type] = runs_fused_chains;
}

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
    register_batch_norm_ops(r);
    register_index_ops(r);
    register_linalg_ops(r);
    register_testdev_kernels(r);
#ifdef MESHFLOW_CUDA
    register_cuda_kernels(r);
#endif
    return op_map();
  }();
  return *ops;
}

}  // namespace

const OpDef& find_op(const std::string& name) {
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
  if (memory.host_accessible()) return op.kernel;
  all_ops();  // the makers are registered with the ops
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  auto key = std::make_pair(&op, memory.device_type());
  auto it = k.made.find(key);
  if (it != k.made.end()) return it->second;
  return k.made.emplace(key, k.make(op, memory.device_type())).first->second;
}

Kernel make_kernel_for(const OpDef& op, const Memory& memory) {
  if (memory.host_accessible()) return op.kernel;
  all_ops();
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  return k.make(op, memory.device_type());
}

bool has_kernel(const OpDef& op, const std::string& device_type) {
  if (device_type == "cpu") return static_cast<bool>(op.kernel);
  all_ops();
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  auto it = k.makers.find(device_type);
  return it != k.makers.end() && static_cast<bool>(it->second(op));
}

bool runs_fused_chains(const Memory& memory) {
  if (memory.host_accessible()) return true;
  all_ops();
  DeviceKernels& k = device_kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  auto it = k.fuses.find(memory.device_type());
  return it == k.fuses.end() || it->second;
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
