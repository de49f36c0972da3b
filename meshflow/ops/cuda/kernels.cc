// Copyright 2026 The meshflow Authors.
// The "cuda" device type: how its kernels are called, and each family file's kernels. Graph
// mode's fused chains run as chain programs (chain.cu). A kernel
// called off the device's workers (graph mode folding constants, tests) runs on the
// compute stream's worker and is waited for, so its caller may use the result at once.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace cuda {

cudaStream_t stream() { return device::cuda::current_stream(); }

Memory& memory_of(const std::vector<Tensor>& inputs) {
  for (const Tensor& t : inputs) {
    if (device::cuda::is_cuda(t.memory())) return t.memory();
  }
  const int index = device::cuda::current_device_index();
  return device::cuda::device(index >= 0 ? index : device::cuda::rank_device_index()).memory();
}

Tensor output(const KernelContext& ctx, size_t k, const Shape& shape, DType dtype, Memory& memory) {
  if (ctx.given && k < ctx.given->size()) {
    const Tensor& t = (*ctx.given)[k];
    if (t.nbytes() > 0 && t.shape() == shape && t.dtype() == dtype && &t.memory() == &memory) return t;
  }
  return Tensor::empty(shape, dtype, memory);
}

void check_launch(const char* kernel) { device::cuda::check(cudaGetLastError(), kernel); }

int multiprocessors() {
  static std::atomic<int> count[64] = {};
  int d = 0;
  device::cuda::check(cudaGetDevice(&d), "cudaGetDevice");
  if (d < 64 && count[d].load(std::memory_order_relaxed) > 0) return count[d].load(std::memory_order_relaxed);
  int n = 0;
  device::cuda::check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d), "cudaDeviceGetAttribute");
  if (d < 64) count[d].store(n, std::memory_order_relaxed);
  return n;
}

unsigned blocks_for(int64_t n, int threads) {
  const int64_t wanted = (n + threads - 1) / threads;
  const int64_t cap = int64_t{multiprocessors()} * 8;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(wanted, cap)));
}

}  // namespace cuda

void register_cuda_kernels(OpRegistry& r) {
  OpRegistry::DeviceType type;
  type.call = [](const OpDef& op, Kernel kernel) -> Kernel {
    return [kernel = std::move(kernel), name = op.name](const std::vector<Tensor>& inputs, const KernelContext& ctx) {
      // The CUDA kernels visit the small integers (core/dtype.h) but were never run on them,
      // and have no complex type (visit_real_storage).
      for (const std::vector<TensorMeta>* metas : {&ctx.inputs, &ctx.outputs}) {
        for (const TensorMeta& m : *metas) {
          if (is_small_int(m.dtype) || is_complex(m.dtype)) {
            op_error(name, std::string("has no CUDA kernel for ") + dtype_name(m.dtype) +
                               " tensors; cast to int32, int64 or float32 first, or run it on the CPU");
          }
        }
      }
      if (cuda::stream() && device::cuda::profiling()) {
        std::vector<Tensor> outputs;
        device::cuda::timed(name, [&] { outputs = kernel(inputs, ctx); });
        return outputs;
      }
      if (cuda::stream()) return kernel(inputs, ctx);
      std::vector<Tensor> outputs;
      const Memory& memory = cuda::memory_of(inputs);
      device::cuda::run_on_compute(memory.device_index(), [&] { outputs = kernel(inputs, ctx); });
      return outputs;
    };
  };
  type.program = cuda::chain_program_kernel;
  r.add_device_type("cuda", std::move(type));
  cuda::add_elementwise_kernels(r);
  cuda::add_reduce_kernels(r);
  cuda::add_nn_kernels(r);
  cuda::add_matmul_kernels(r);
  cuda::add_attention_kernels(r);
  cuda::add_shape_kernels(r);
  cuda::add_creation_kernels(r);
  cuda::add_optimizer_kernels(r);
  cuda::add_sort_kernels(r);
  cuda::add_conv_kernels(r);
  cuda::add_batch_norm_kernels(r);
  cuda::add_index_kernels(r);
  cuda::add_rnn_kernels(r);
}

}  // namespace mf
