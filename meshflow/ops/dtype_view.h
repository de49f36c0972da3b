// Copyright 2026 The meshflow Authors.
// view_dtype (ops/shape.cc): a row-major tensor's bytes read as another dtype (torch's
// view(dtype)). The kernels copy the bytes into their output (graph mode plans an output
// buffer of its own for it; the Python view writes back through its base, as meshflow's
// views do). The shape rule and the copy are shared by the CPU kernel and the CUDA one
// (ops/cuda/shape.cu). Functions of their arguments: thread-safe.
#ifndef MESHFLOW_OPS_DTYPE_VIEW_H_
#define MESHFLOW_OPS_DTYPE_VIEW_H_

#include <cstdint>
#include <string>

#include "meshflow/core/tensor.h"
#include "meshflow/ops/op.h"

namespace mf::kernel {

// `shape` of `from` elements read as `to` elements: the last dim scaled by the ratio of their
// sizes, which must divide it (a 0-d tensor keeps its size). Throws the op's error otherwise.
inline Shape dtype_view_shape(Shape shape, DType from, DType to) {
  const int64_t in_size = static_cast<int64_t>(dtype_size(from)), out_size = static_cast<int64_t>(dtype_size(to));
  if (in_size == out_size) return shape;
  const std::string what =
      std::string("viewing ") + dtype_name(from) + " of " + to_string(shape) + " as " + dtype_name(to);
  if (shape.empty()) op_error("view_dtype", what + ": a 0-d tensor keeps its element size; expected a dtype of its size");
  int64_t& last = shape.back();
  if (last * in_size % out_size != 0) {
    op_error("view_dtype", what + ": the last dim's " + std::to_string(last * in_size) + " bytes must divide into " +
                               std::to_string(out_size) + "-byte elements");
  }
  last = last * in_size / out_size;
  return shape;
}

// x's bytes (row-major) written into `out`, of as many bytes, in x's memory; returns out.
inline Tensor bytes_into(const Tensor& x, Tensor out) {
  if (out.nbytes() > 0) x.memory().copy_within(out.data(), x.data(), out.nbytes());
  return out;
}

}  // namespace mf::kernel

#endif  // MESHFLOW_OPS_DTYPE_VIEW_H_
