// Copyright 2026 The meshflow Authors.
// The recurrent op rnn_scan (ops/rnn.cc), shared by the CPU's kernels and the GPU's
// (ops/cuda/rnn.cu): the steps' order and rows (Scan, from the attributes), and the fused
// cells, written once for both: one element j < H of one batch row per call, the
// gates' pre-activations the sum of the input's projection x (computed for all steps at
// once, before the scan), the state's product hp = h W_hh^T and the bias b (b_hh; null: 0).
// Gate order as torch's: LSTM i, f, g, o; GRU r, z, n. What the forward keeps for the
// backward (the workspace row ws) is the activated gates and, for LSTM, the new cell state:
//   LSTM ws = [i, f, g, o, c'] (5 H), GRU ws = [r, z, n, hn] (4 H) with hn = (h W_hn^T + b_hn),
//   RNN: nothing (its output is all its backward needs);
// an LSTM with a projection (proj_size P: the state h' = m W_hr^T of P values, m = o tanh(c')
// of H) keeps m too, ws = [i, f, g, o, c', m] (6 H): W_hr's gradient is a product over m.
// `A` supplies sigmoid and tanh for the device (the CPU's vectorizing ones, CUDA's libm). The
// mode is a template argument and the cells always inlined, so that the CPU's loop over j
// has no branch and vectorizes (with_mode picks the instance once per call).
// No state; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE
#include "meshflow/ops/op.h"

namespace mf::kernel::rnn {

enum Mode : int64_t { kRnnTanh = 0, kRnnRelu = 1, kLstm = 2, kGru = 3 };

// The steps of one call: step t's `sizes[t]` rows (every step the whole batch unless packed)
// are rows row(t, 0), row(t, 1), ... of x, y and the workspace, the running state's first
// sizes[t] rows: time-major, step t's rows start at offsets[t]; batch_first (x [B, T, G H]),
// batch row b's steps are rows b T to b T + T - 1, a step's rows T apart. hidden is the
// cell's width H, proj the projected state's P (LSTM's proj_size; 0: none, the state h of H).
// directions 2 (bidirectional): direction 0 runs the steps first to last, direction 1 last to
// first, in one call; each row of a sequence holds direction 0's values, then direction 1's.
struct Scan {
  int64_t mode = kLstm, hidden = 0, proj = 0, batch = 0, directions = 1;
  bool reverse = false, has_bias = false, batch_first = false;
  std::vector<int64_t> sizes, offsets;
  int64_t steps() const { return static_cast<int64_t>(sizes.size()); }
  int64_t rows() const { return sizes.empty() ? 0 : offsets.back() + sizes.back(); }
  // The width of h (and of y): P with a projection, else H.
  int64_t state() const { return proj ? proj : hidden; }
  // The row of step t's batch row b, and how far apart a step's rows are.
  int64_t row(int64_t t, int64_t b) const { return batch_first ? b * steps() + t : offsets[t] + b; }
  int64_t row_stride() const { return batch_first ? steps() : 1; }
  // Whether direction d runs the steps last to first.
  bool reversed(int64_t d) const { return reverse || d == 1; }
  // The k-th step direction d runs.
  int64_t step(int64_t k, int64_t d = 0) const { return reversed(d) ? steps() - 1 - k : k; }
  // The row holding batch row b's state before direction d's step t, or -1 where it is the
  // initial state.
  int64_t prev_row(int64_t t, int64_t b, int64_t d = 0) const;
};

bool flag(const Attrs& attrs, const char* key);
// Attribute "mode", checked ("[op] mode is ...").
int64_t mode_of(const std::string& op, const Attrs& attrs);

// The scan of a call with input (or, for the backward, its gradient's) shape x, `hidden` and
// `proj` (0: none), from attributes mode, reverse, bidirectional, has_bias, has_proj,
// batch_first and batch_sizes; bad ones raise "[op] ...".
Scan scan_of(const std::string& op, const Attrs& attrs, const Shape& x, int64_t hidden, int64_t proj = 0);

MF_HOST_DEVICE inline int64_t gates(int64_t mode) { return mode == kLstm ? 4 : mode == kGru ? 3 : 1; }
MF_HOST_DEVICE inline int64_t workspace_width(int64_t mode, int64_t hidden, bool projected) {
  return mode == kLstm ? (projected ? 6 : 5) * hidden : mode == kGru ? 4 * hidden : 0;
}

#ifdef __CUDACC__
#define MF_RNN_CELL __host__ __device__ inline
#else
#define MF_RNN_CELL __attribute__((always_inline)) inline
#endif

// f(std::integral_constant<int64_t, mode>{}) for a checked mode.
template <typename F>
decltype(auto) with_mode(int64_t mode, F&& f) {
  switch (mode) {
    case kRnnTanh: return f(std::integral_constant<int64_t, kRnnTanh>{});
    case kRnnRelu: return f(std::integral_constant<int64_t, kRnnRelu>{});
    case kLstm: return f(std::integral_constant<int64_t, kLstm>{});
    default: return f(std::integral_constant<int64_t, kGru>{});
  }
}

template <typename T>
MF_RNN_CELL T bias_at(const T* b, int64_t k) {
  return b ? b[k] : T(0);
}

// Forward of element j: h and c (LSTM) are the running state, read and overwritten.
template <int64_t mode, class A, typename T>
MF_RNN_CELL void forward(int64_t n, int64_t j, const T* x, const T* hp, const T* b, T* ws, T& h, T& c) {
  if constexpr (mode == kLstm) {
    const T i = A::sigmoid(x[j] + hp[j] + bias_at(b, j));
    const T f = A::sigmoid(x[n + j] + hp[n + j] + bias_at(b, n + j));
    const T g = A::tanh(x[2 * n + j] + hp[2 * n + j] + bias_at(b, 2 * n + j));
    const T o = A::sigmoid(x[3 * n + j] + hp[3 * n + j] + bias_at(b, 3 * n + j));
    c = f * c + i * g;
    h = o * A::tanh(c);
    ws[j] = i, ws[n + j] = f, ws[2 * n + j] = g, ws[3 * n + j] = o, ws[4 * n + j] = c;
  } else if constexpr (mode == kGru) {
    const T r = A::sigmoid(x[j] + hp[j] + bias_at(b, j));
    const T z = A::sigmoid(x[n + j] + hp[n + j] + bias_at(b, n + j));
    const T hn = hp[2 * n + j] + bias_at(b, 2 * n + j);
    const T m = A::tanh(x[2 * n + j] + r * hn);
    h = (T(1) - z) * m + z * h;
    ws[j] = r, ws[n + j] = z, ws[2 * n + j] = m, ws[3 * n + j] = hn;
  } else {
    const T pre = x[j] + hp[j] + bias_at(b, j);
    if constexpr (mode == kRnnTanh) {
      h = A::tanh(pre);
    } else {
      h = pre > T(0) ? pre : T(0);
    }
  }
}

// Backward of element j given the output y (h'), the previous state (h_prev, c_prev), dh:
// the gradient reaching h' (the output's plus the later step's), and dws: the workspace
// row's gradient (zeros unless a caller differentiates the workspace; RNN: none). Writes
// the pre-activations' gradients: dx (the input projection's, G H values) and dhp (the
// product h W_hh^T's and b_hh's, G H values; GRU's n gate differs by the factor r); dc
// (LSTM) is read as the later step's and overwritten with c_prev's. Returns the part of
// h_prev's gradient that does not go through W_hh (GRU's z h term; 0 otherwise).
template <int64_t mode, class A, typename T>
MF_RNN_CELL T backward(int64_t n, int64_t j, const T* ws, const T* dws, T y, T h_prev, T c_prev, T dh, T& dc, T* dx,
                       T* dhp) {
  if constexpr (mode == kLstm) {
    const T i = ws[j], f = ws[n + j], g = ws[2 * n + j], o = ws[3 * n + j];
    const T tc = A::tanh(ws[4 * n + j]);
    const T dcell = dc + dh * o * (T(1) - tc * tc) + dws[4 * n + j];
    dx[j] = dhp[j] = (dcell * g + dws[j]) * i * (T(1) - i);
    dx[n + j] = dhp[n + j] = (dcell * c_prev + dws[n + j]) * f * (T(1) - f);
    dx[2 * n + j] = dhp[2 * n + j] = (dcell * i + dws[2 * n + j]) * (T(1) - g * g);
    dx[3 * n + j] = dhp[3 * n + j] = (dh * tc + dws[3 * n + j]) * o * (T(1) - o);
    dc = dcell * f;
    return T(0);
  } else if constexpr (mode == kGru) {
    const T r = ws[j], z = ws[n + j], m = ws[2 * n + j], hn = ws[3 * n + j];
    const T dm = (dh * (T(1) - z) + dws[2 * n + j]) * (T(1) - m * m);
    dx[j] = dhp[j] = (dm * hn + dws[j]) * r * (T(1) - r);
    dx[n + j] = dhp[n + j] = (dh * (h_prev - m) + dws[n + j]) * z * (T(1) - z);
    dx[2 * n + j] = dm;
    dhp[2 * n + j] = dm * r + dws[3 * n + j];
    return dh * z;
  } else {
    const T d = mode == kRnnTanh ? dh * (T(1) - y * y) : (y > T(0) ? dh : T(0));
    dx[j] = dhp[j] = d;
    return T(0);
  }
}

}  // namespace mf::kernel::rnn
