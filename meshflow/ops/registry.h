// Copyright 2026 The meshflow Authors.
// Registration of op families and of each device type's kernels (see registry.cc for the
// list). Only op family files, device kernel files and registry.cc include this.
// Thread-safety: used only while the registry is filled, on one thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "meshflow/ops/op.h"

namespace mf {

class OpRegistry {
 public:
  // How a device type's kernels are made and called, beside those registered for it.
  struct DeviceType {
    // Its kernel of a host kernel (OpDef::kernel: the CPU's, or a fused chain's host loops),
    // for a device type whose memory host code can reach in some way (the test device's host
    // views). Where set, every op without a kernel of the type gets from_host(op), and graph
    // mode fuses chains of elementwise ops on it (in host loops, unless `program` is set);
    // where empty, an op runs on it only through a kernel registered for it.
    std::function<Kernel(const OpDef& op)> from_host;
    // Its kernel running a fused chain's program (ops/chain_program.h: one launch per chain
    // on a GPU). Where set, graph mode fuses the chains a program expresses on it into ops
    // carrying their program (OpDef::program), ahead of from_host's host loops. Where
    // neither is set, graphs on the type run their ops unfused.
    std::function<Kernel(std::shared_ptr<const ChainProgram> program)> program;
    // How each of its kernels is called (CUDA: on a stream's worker, timed when profiling):
    // wraps every kernel of the type as it is registered. Empty: called as registered.
    std::function<Kernel(const OpDef& op, Kernel kernel)> call;
  };

  // Registers `op`, and OpDef::kernel (when set) as its "cpu" kernel. Throws
  // std::logic_error when the name is taken.
  void add(OpDef op);
  // Declares a device type besides the CPU (which is built in). Throws std::logic_error when
  // it is declared already.
  void add_device_type(const std::string& device_type, DeviceType type);
  // The kernel of op `op` for tensors of `device_type` (the CPU's, or a declared type's).
  // Throws std::logic_error for an unknown op or device type, or a second kernel of the op
  // for the type.
  void add_kernel(const std::string& device_type, const std::string& op, Kernel kernel);
  // The ops registered so far, for a device type whose kernel of each op is made alike.
  std::vector<const OpDef*> ops() const;
};

// `op` with its gradient, for registering an op and its gradient in one expression.
inline OpDef with_grad(OpDef op, GradFn grad) {
  op.grad = std::move(grad);
  return op;
}
// The same for a gradient that reads only the call's inputs, outputs or neither (OpDef::grad_reads).
inline OpDef with_grad(OpDef op, GradFn grad, OpDef::GradReads reads) {
  op.grad = std::move(grad);
  op.grad_reads = reads;
  return op;
}
constexpr OpDef::GradReads kReadsNothing{false, false};
constexpr OpDef::GradReads kReadsOutputs{false, true};
// The inputs but `unread` (OpDef::GradReads::unread_inputs).
constexpr OpDef::GradReads reads_inputs_but(int unread) { return {true, false, uint32_t{1} << unread}; }

void register_elementwise_ops(OpRegistry& r);  // elementwise.cc
void register_matmul_ops(OpRegistry& r);       // matmul.cc
void register_shape_ops(OpRegistry& r);        // shape.cc: transpose, permute, reshape, slice, cat, ...
void register_reduce_ops(OpRegistry& r);       // reduce.cc: sum, mean, amax, amin, prod, sum_squares
void register_nn_ops(OpRegistry& r);           // nn.cc: softmax, layer_norm, embedding, cross_entropy
void register_attention_ops(OpRegistry& r);    // attention.cc: scaled_dot_product_attention
void register_creation_ops(OpRegistry& r);     // creation.cc: zeros, ones, full, arange, rand, randn
void register_optimizer_ops(OpRegistry& r);    // optimizer_ops.cc: adamw_update, sgd_update
void register_sort_ops(OpRegistry& r);         // sort.cc: cumsum, cumprod, logcumsumexp, sort, flip
void register_conv_ops(OpRegistry& r);         // conv.cc: conv2d/3d, pad, upsample_nearest
void register_pool_ops(OpRegistry& r);         // pool.cc: max, avg and adaptive pooling, 2-d and 3-d
void register_batch_norm_ops(OpRegistry& r);   // batch_norm.cc: batch_norm, batch_norm_backward
void register_index_ops(OpRegistry& r);        // index.cc: flat_index, index_put
void register_linalg_ops(OpRegistry& r);       // linalg.cc: solve, inv, slogdet, cholesky, qr, eig, eigh, svd, lstsq
void register_rnn_ops(OpRegistry& r);          // rnn.cc: rnn_scan, rnn_scan_backward
void register_fft_ops(OpRegistry& r);          // fft.cc: fft_c2c, fft_r2c, fft_c2r
void register_complex_ops(OpRegistry& r);      // complex.cc: complex, polar, real, imag, conj, angle, views
// The kernels of each device type besides the CPU, in its own folder.
void register_testdev_kernels(OpRegistry& r);  // testdev/kernels.cc: the CPU kernels on host views
void register_meta_kernels(OpRegistry& r);     // meta/kernels.cc: outputs of the inferred shapes, no values
#ifdef MESHFLOW_CUDA
void register_cuda_kernels(OpRegistry& r);     // cuda/kernels.cc: the CUDA kernels of cuda/*.cu
#endif

}  // namespace mf
