// Copyright 2026 The meshflow Authors.
// The loop of the activations' backward ops (ops/nn.cc's relu_backward, gelu_backward, ...,
// elementwise.cc's clamp_backward, hardtanh_backward, smooth_l1_backward): dx[i] =
// f(saved operands at i, dy[i]), where dy may be a broadcast gradient (autograd/var.h: a
// sum's, one value per output element, not expanded). Only op family files include it. Thread-safety: none needed (pure functions).
#pragma once

#include <algorithm>
#include <cstdint>

#include "meshflow/core/loops.h"
#include "meshflow/ops/kernel_util.h"

namespace mf::kernel {

// Elements of dx one task computes; a broadcast dy's values for them are laid out in a buffer
// of this many, which stays in the first cache level while the task reads it.
constexpr int64_t kBackwardPiece = 1 << 12;

// buf[0, len) = dy's values at the output's flat indices [begin, begin + len), for dy of
// `strides` (0 on broadcast dims) over the output's `dims` (both after collapse_dims).
template <typename T>
void broadcast_piece(const T* dy, const Shape& dims, const Shape& strides, int64_t begin, int64_t len, T* buf) {
  const size_t nd = dims.size();
  const int64_t inner = dims[nd - 1], inner_stride = strides[nd - 1];
  int64_t row = begin / inner, at = begin % inner;
  while (len > 0) {
    int64_t offset = 0;
    for (int64_t d = static_cast<int64_t>(nd) - 2, rest = row; d >= 0; --d) {
      offset += rest % dims[d] * strides[d];
      rest /= dims[d];
    }
    const int64_t run = std::min(len, inner - at);
    if (inner_stride == 0) {
      std::fill(buf, buf + run, dy[offset]);
    } else {
      std::copy(dy + offset + at, dy + offset + at + run, buf);
    }
    buf += run;
    len -= run;
    ++row;
    at = 0;
  }
}

// dx[i] = f(i, dy at i's broadcast position) over `shape`, dy of `dy_shape` (NumPy's
// broadcast to `shape`); f reads the saved operands at flat index i. One vectorized loop
// instantiated per f (the large op files stay within GCC's inlining budget, so that f's
// fast_math calls inline: core/loops.h), run in pieces of kBackwardPiece on the team, reading
// dy where it lies, or a piece of it laid out in a buffer.
template <typename T, typename F>
void backward_loop_at(const T* dy, const Shape& dy_shape, T* dx, const Shape& shape, F f) {
  const int64_t n = numel(shape);
  if (n == 0) return;
  const bool whole = numel(dy_shape) == n;
  Shape dims = shape, strides = broadcast_strides(dy_shape, shape);
  collapse_dims(dims, {&strides});
  const bool one = numel(dy_shape) == 1;  // a full sum's gradient: one value, kept in a register
  parallel_for((n + kBackwardPiece - 1) / kBackwardPiece, use_team(n), [&](int64_t piece) {
    const int64_t begin = piece * kBackwardPiece, len = std::min(kBackwardPiece, n - begin);
    T* out = dx + begin;
    if (one) {
      const T g = dy[0];
      simd_loop(len, [&](int64_t i) { out[i] = f(begin + i, g); });
      return;
    }
    T buf[kBackwardPiece];  // not written where dy is read in place
    const T* g = whole ? dy + begin : buf;
    if (!whole) broadcast_piece(dy, dims, strides, begin, len, buf);
    simd_loop(len, [&](int64_t i) { out[i] = f(begin + i, g[i]); });
  });
}

// dx[i] = f(saved[i], dy at i's broadcast position): an activation's backward.
template <typename T, typename F>
void activation_backward_loop(const T* saved, const T* dy, const Shape& dy_shape, T* dx, const Shape& shape, F f) {
  backward_loop_at(dy, dy_shape, dx, shape, [&](int64_t i, T g) { return f(saved[i], g); });
}

}  // namespace mf::kernel
