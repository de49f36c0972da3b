// Copyright 2026 The meshflow Authors.
// Graph mode's fused chains on a GPU: one precompiled kernel that runs a chain program
// (ops/chain_program.h) per element, one launch per chain. The program travels in the
// launch's parameters (the constant bank every thread reads alike), so nothing is compiled
// or copied when a graph compiles or runs; the interpreter is the test device's, which the
// CPU-run tests check.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "meshflow/ops/chain_program.h"
#include "meshflow/ops/cuda/cuda_kernels.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

template <typename C>
__global__ void __launch_bounds__(kThreads) chain_kernel(const ChainProgram program, const ChainArgs args) {
  const int64_t n = program.elements();
  const int64_t step = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    run_chain_element<C>(program, args, i);
  }
}

}  // namespace

Kernel chain_program_kernel(std::shared_ptr<const ChainProgram> program) {
  return [program](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Memory& mem = memory_of(in);
    ChainArgs args;
    for (size_t k = 0; k < in.size(); ++k) args.in[k] = in[k].data();
    std::vector<Tensor> out;
    for (size_t k = 0; k < ctx.outputs.size(); ++k) {
      out.push_back(output(ctx, k, ctx.output_boxes[k].extent, ctx.outputs[k].dtype, mem));
      args.out[k] = out.back().data();
    }
    const int64_t n = program->elements();
    if (n == 0) return out;
    const unsigned blocks = blocks_for(n, kThreads);
    if (program->compute == DType::kFloat64) {
      chain_kernel<double><<<blocks, kThreads, 0, stream()>>>(*program, args);
    } else {
      chain_kernel<float><<<blocks, kThreads, 0, stream()>>>(*program, args);
    }
    check_launch("chain_program");
    return out;
  };
}

}  // namespace mf::cuda
