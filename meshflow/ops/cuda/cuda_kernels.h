// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the ops (CONCEPTS section 4: one op definition, a kernel per device
// type). Each family file registers its kernels for the "cuda" device type, which kernels.cc
// declares (OpRegistry::add_kernel, as every device type's). A kernel has the CPU kernel's contract
// (ops/op.h): local inputs in, local outputs out, the same values within the dtype's
// rounding. It runs on a CUDA stream's worker (device/cuda/cuda_device.h): it enqueues its
// work on stream() and returns at once; its outputs are valid for work ordered after it.
// Inputs are contiguous and row-major, as on the CPU. An op without a CUDA kernel raises
// "[op] has no kernel for device type 'cuda'" when called on a GPU.
//
// Thread-safety: kernels are registered once, on one thread; they run on any worker.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/ops/registry.h"

namespace mf::cuda {

// The stream the calling worker's kernels go on.
cudaStream_t stream();
// The GPU memory an op's outputs go to: its first input's on a GPU, else (creation ops)
// the calling worker's GPU.
Memory& memory_of(const std::vector<Tensor>& inputs);
// Output k of `shape` and `dtype`: where the caller gave memory for it (ctx.given), else new
// memory in `memory`.
Tensor output(const KernelContext& ctx, size_t k, const Shape& shape, DType dtype, Memory& memory);
// Throws naming `kernel` when the last launch on this thread failed (cudaGetLastError).
void check_launch(const char* kernel);
// Multiprocessors of the calling worker's GPU (grid sizes of grid-stride loops).
int multiprocessors();
// Blocks for n items of `threads` each, at most a few waves of the GPU (grid-stride loops
// cover the rest); at least 1.
unsigned blocks_for(int64_t n, int threads);

// c[m, n] = op(a) @ op(b) of float32, float64 or bfloat16 row-major matrices on stream(),
// overwritten (matmul.cu's cuBLASLt path): for kernels whose work includes products (rnn.cu).
void gemm(DType dtype, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c,
          Memory& memory);

// Graph mode's fused chain of `program` (chain.cu: one launch per chain): the "cuda" type's
// OpRegistry::DeviceType::program.
Kernel chain_program_kernel(std::shared_ptr<const ChainProgram> program);

void add_elementwise_kernels(OpRegistry& r);  // elementwise.cu: elementwise.cc's ops, gelu_backward, relu_backward
void add_reduce_kernels(OpRegistry& r);       // reduce.cu: sum, mean, amax, amin, prod, sum_squares
void add_nn_kernels(OpRegistry& r);           // nn.cu: softmax, layer_norm, embedding, cross_entropy, gather
void add_matmul_kernels(OpRegistry& r);       // matmul.cu: matmul through cuBLASLt
void add_attention_kernels(OpRegistry& r);    // attention.cu: causal attention forward and backward
void add_shape_kernels(OpRegistry& r);        // shape.cu: permute, slice, slice_scatter, cat, stack, split, expand, reshape
void add_creation_kernels(OpRegistry& r);     // creation.cu: zeros, ones, full, arange, rand, randn, dropout
void add_optimizer_kernels(OpRegistry& r);    // optimizer.cu: adamw_update, sgd_update
void add_sort_kernels(OpRegistry& r);         // sort.cu: cumsum, cumprod, logcumsumexp, sort, flip
void add_conv_kernels(OpRegistry& r);         // conv.cu: conv2d/3d, pooling, pad
void add_batch_norm_kernels(OpRegistry& r);   // batch_norm.cu: batch_norm, batch_norm_backward
void add_index_kernels(OpRegistry& r);        // index.cu: flat_index, index_put, index_extreme
void add_rnn_kernels(OpRegistry& r);          // rnn.cu: rnn_scan, rnn_scan_backward

}  // namespace mf::cuda
