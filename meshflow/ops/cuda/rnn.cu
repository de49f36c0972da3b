// Copyright 2026 The meshflow Authors.
// The CUDA kernels of rnn_scan and rnn_scan_backward (ops/rnn.cc), float32 and float64 (the
// halves arrive widened): the CPU's loop over the steps, each step's product through
// cuBLASLt (matmul.cu's gemm) and its gates in one launch over the step's rows x hidden
// elements, with rnn.h's cell math; with a projection (LSTM's proj_size), a second product
// per step, h' = m W_hr^T; bidirectional, one direction after the other, each reading and
// writing its columns of the sequences (Pitches). Everything is enqueued on stream(); the
// host reads no device memory.
#include <cuda_runtime.h>

#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/cuda/device_util.cuh"
#include "meshflow/ops/rnn.h"

namespace mf::cuda {
namespace {

namespace rnn = kernel::rnn;

struct DeviceActivations {
  template <typename T>
  MF_HOST_DEVICE static T sigmoid(T x) {
    return T(1) / (T(1) + exp(-x));
  }
  template <typename T>
  MF_HOST_DEVICE static T tanh(T x) {
    return ::tanh(x);
  }
};

// One step's rows as the kernels see them: rows `rows` of the sequences from row `first`,
// `stride` apart (rnn::Scan::row), and of the backward's own buffers (dhp, h_prev) from
// `inner`, back to back; the previous step's rows (for a row's previous state) `prev_rows`
// from `prev_first` (prev_rows 0: none).
struct StepRows {
  int64_t rows, first, stride, inner, prev_first, prev_rows;
};

StepRows rows_of(const rnn::Scan& s, int64_t t, int64_t d) {
  const int64_t p = s.reversed(d) ? t + 1 : t - 1;
  const bool has_prev = p >= 0 && p < s.steps();
  return {s.sizes[t], s.row(t, 0), s.row_stride(), s.offsets[t], has_prev ? s.row(p, 0) : 0,
          has_prev ? s.sizes[p] : 0};
}

// How far apart the rows of a direction's sequences are: a row holds each direction's values
// in turn (one direction: its own width).
struct Pitches {
  int64_t x, y, ws;
};

// The cells' outputs h (n values a row, back to back: the state, or projected, m) also go to
// out's rows (the output y, or projected, the workspace's m), `out_stride` apart.
template <int64_t mode, typename T>
__global__ void forward_kernel(int64_t n, Pitches pitch, StepRows st, const T* x, const T* hp, const T* b, T* h, T* c,
                               T* out, int64_t out_stride, T* ws) {
  const int64_t gh = rnn::gates(mode) * n;
  for (int64_t e = first_index(); e < st.rows * n; e += grid_step()) {
    const int64_t r = e / n, j = e % n, row = st.first + r * st.stride;
    T cell = mode == rnn::kLstm ? c[e] : T(0);
    rnn::forward<mode, DeviceActivations>(n, j, x + row * pitch.x, hp + r * gh, b, ws + row * pitch.ws, h[e], cell);
    if (mode == rnn::kLstm) c[e] = cell;
    out[row * out_stride + j] = h[e];
  }
}

// The gradient reaching a cell's output is g[row g_stride + j] + dh[e]: the output's and the
// running one, or projected, the workspace's m's and m's through W_hr (dh = dm). Without a
// projection h_prev gets the previous states (the state's width is the cell's); with one m
// gets the workspace's m's, in the backward's row order (inner).
template <int64_t mode, typename T>
__global__ void backward_kernel(int64_t n, Pitches pitch, StepRows st, const T* h0, const T* c0, const T* y,
                                const T* ws, const T* g, int64_t g_stride, const T* dws, const T* dh, T* dc,
                                T* direct, T* dx, T* dhp, T* h_prev, T* m) {
  const int64_t gh = rnn::gates(mode) * n;
  for (int64_t e = first_index(); e < st.rows * n; e += grid_step()) {
    const int64_t r = e / n, j = e % n, row = st.first + r * st.stride, inner = st.inner + r;
    const bool initial = r >= st.prev_rows;
    const int64_t prev = st.prev_first + r * st.stride;
    const T hp = h_prev ? (initial ? h0[e] : y[prev * pitch.y + j]) : T(0);
    const T cp = c0 ? (initial ? c0[e] : ws[prev * pitch.ws + 4 * n + j]) : T(0);
    T cell = dc ? dc[e] : T(0);
    direct[e] = rnn::backward<mode, DeviceActivations>(n, j, ws + row * pitch.ws, dws + row * pitch.ws,
                                                       mode == rnn::kLstm ? T(0) : y[row * pitch.y + j], hp, cp,
                                                       g[row * g_stride + j] + dh[e], cell, dx + row * pitch.x,
                                                       dhp + inner * gh);
    if (dc) dc[e] = cell;
    if (h_prev) h_prev[inner * n + j] = hp;
    if (m) m[inner * n + j] = ws[row * pitch.ws + 5 * n + j];
  }
}

// Projected, a step's state gradients dhr = dy + dh and previous states h_prev (p values a
// row), in the backward's row order.
template <typename T>
__global__ void projected_state_kernel(int64_t p, int64_t y_pitch, StepRows st, const T* h0, const T* y, const T* dy,
                                       const T* dh, T* dhr, T* h_prev) {
  for (int64_t e = first_index(); e < st.rows * p; e += grid_step()) {
    const int64_t r = e / p, j = e % p, row = st.first + r * st.stride, inner = st.inner + r;
    dhr[inner * p + j] = dy[row * y_pitch + j] + dh[e];
    h_prev[inner * p + j] = r >= st.prev_rows ? h0[e] : y[(st.prev_first + r * st.stride) * y_pitch + j];
  }
}

template <typename T>
__global__ void add_kernel(T* a, const T* b, int64_t count) {
  for (int64_t e = first_index(); e < count; e += grid_step()) a[e] += b[e];
}

// db[j] = sum over rows of d[r, j]: one thread per column (the columns are few).
template <typename T>
__global__ void column_sum_kernel(const T* d, int64_t rows, int64_t cols, T* db) {
  for (int64_t j = first_index(); j < cols; j += grid_step()) {
    T sum = 0;
    for (int64_t r = 0; r < rows; ++r) sum += d[r * cols + j];
    db[j] = sum;
  }
}

void copy(void* to, const void* from, size_t bytes) {
  device::cuda::check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
}

// Step rows' `width` values from `from` (back to back) to `to` (rows `pitch` values apart).
template <typename T>
void copy_rows(T* to, int64_t pitch, const T* from, int64_t rows, int64_t width) {
  const size_t bytes = static_cast<size_t>(width) * sizeof(T);
  device::cuda::check(cudaMemcpy2DAsync(to, pitch * sizeof(T), from, bytes, bytes, static_cast<size_t>(rows),
                                        cudaMemcpyDeviceToDevice, stream()),
                      "cudaMemcpy2DAsync");
}

template <typename T>
void forward(const rnn::Scan& s, const std::vector<Tensor>& in, std::vector<Tensor>& out, Memory& memory) {
  const bool lstm = s.mode == rnn::kLstm;
  const int64_t n = s.hidden, p = s.state(), gh = rnn::gates(s.mode) * n, dirs = s.directions;
  const int64_t width = rnn::workspace_width(s.mode, n, s.proj > 0);
  const Pitches pitch{dirs * gh, dirs * p, dirs * width};
  copy(out[1].data(), in[1].data(), out[1].nbytes());
  if (lstm) copy(out[2].data(), in[2].data(), out[2].nbytes());
  const Tensor hp = Tensor::empty({s.batch, gh}, in[0].dtype(), memory);
  // Projected, the cells' outputs m, the projection's left operand.
  const Tensor m = Tensor::empty({s.proj ? s.batch : 0, n}, in[0].dtype(), memory);
  for (int64_t d = 0; d < dirs; ++d) {
    // Direction d's columns of the sequences, rows of the states and weights.
    T *h = out[1].data_as<T>() + d * s.batch * p, *c = lstm ? out[2].data_as<T>() + d * s.batch * n : nullptr;
    T *ws = out.back().data_as<T>() + d * width, *y = out[0].data_as<T>() + d * p;
    const T *x = in[0].data_as<T>() + d * gh, *w = in[2 + lstm].data_as<T>() + d * gh * p;
    const T* b = s.has_bias ? in[3 + lstm].data_as<T>() + d * gh : nullptr;
    const T* w_hr = s.proj ? in.back().data_as<T>() + d * p * n : nullptr;
    for (int64_t k = 0; k < s.steps(); ++k) {
      const StepRows st = rows_of(s, s.step(k, d), d);
      gemm(in[0].dtype(), false, true, st.rows, gh, p, h, w, hp.data(), memory);
      rnn::with_mode(s.mode, [&](auto mode) {
        forward_kernel<mode.value, T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(
            n, pitch, st, x, hp.data_as<T>(), b, s.proj ? m.data_as<T>() : h, c, s.proj ? ws + 5 * n : y,
            s.proj ? pitch.ws : pitch.y, ws);
      });
      check_launch("rnn_scan");
      if (s.proj) {
        gemm(in[0].dtype(), false, true, st.rows, p, n, m.data(), w_hr, h, memory);
        copy_rows(y + st.first * pitch.y, st.stride * pitch.y, h, st.rows, p);
      }
    }
  }
}

std::vector<Tensor> scan(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool lstm = ctx.attrs.get_int("mode") == rnn::kLstm, proj = rnn::flag(ctx.attrs, "has_proj");
  const int64_t dirs = rnn::flag(ctx.attrs, "bidirectional") ? 2 : 1;
  const Shape& sized = (proj ? in.back() : in[1]).shape();  // w_hr [D P, H] or h0 [(2,) B, H]
  const rnn::Scan s = rnn::scan_of("rnn_scan", ctx.attrs, in[0].shape(), sized.back(), proj ? sized[0] / dirs : 0);
  Memory& memory = memory_of(in);
  Shape y_shape = in[0].shape(), ws_shape = in[0].shape();
  y_shape.back() = dirs * s.state();
  ws_shape.back() = dirs * rnn::workspace_width(s.mode, s.hidden, proj);
  const DType dtype = in[0].dtype();
  std::vector<Tensor> out{output(ctx, 0, y_shape, dtype, memory), output(ctx, 1, in[1].shape(), dtype, memory)};
  if (lstm) out.push_back(output(ctx, 2, in[2].shape(), dtype, memory));
  out.push_back(output(ctx, out.size(), ws_shape, dtype, memory));
  if (dtype == DType::kFloat64) {
    forward<double>(s, in, out, memory);
  } else {
    forward<float>(s, in, out, memory);
  }
  return out;
}

// Inputs w, h0[, c0], y, workspace, dy, dworkspace, dh_n[, dc_n][, w_hr]; outputs dx, dh0[, dc0], dw[, db][, dw_hr].
template <typename T>
void backward(const rnn::Scan& s, const std::vector<Tensor>& in, std::vector<Tensor>& out, Memory& memory) {
  const bool lstm = s.mode == rnn::kLstm, gru = s.mode == rnn::kGru;
  const int64_t n = s.hidden, p = s.state(), gh = rnn::gates(s.mode) * n, rows = s.rows(), dirs = s.directions;
  const int64_t width = rnn::workspace_width(s.mode, n, s.proj > 0);
  const Pitches pitch{dirs * gh, dirs * p, dirs * width};
  const size_t y = 2 + lstm;
  copy(out[1].data(), in[y + 4].data(), out[1].nbytes());
  if (lstm) copy(out[2].data(), in[y + 5].data(), out[2].nbytes());
  const DType dtype = in[0].dtype();
  // dx itself where its rows are back to back (GRU's differs from it in the n gate); each
  // step's product reads its rows of dhp as one matrix.
  const bool own_dhp = gru || s.batch_first || dirs > 1;
  const Tensor dhp = own_dhp ? Tensor::empty({rows, gh}, dtype, memory) : out[0];
  const Tensor h_prev = Tensor::empty({rows, p}, dtype, memory), direct = Tensor::empty({s.batch, n}, dtype, memory);
  const Tensor dh_next = Tensor::empty({s.batch, p}, dtype, memory);
  // Projected: the states' gradients dhr and the cells' outputs m of every row, W_hr's
  // gradient their product, and a step's dm = dhr W_hr.
  const int64_t projected_rows = s.proj ? rows : 0;
  const Tensor dhr = Tensor::empty({projected_rows, p}, dtype, memory);
  const Tensor m = Tensor::empty({projected_rows, n}, dtype, memory);
  const Tensor dm = Tensor::empty({s.proj ? s.batch : 0, n}, dtype, memory);
  for (int64_t d = 0; d < dirs; ++d) {
    // Direction d's columns of the sequences, rows of the states and weights.
    const T *w = in[0].data_as<T>() + d * gh * p, *h0 = in[1].data_as<T>() + d * s.batch * p;
    const T* c0 = lstm ? in[2].data_as<T>() + d * s.batch * n : nullptr;
    const T *y_d = in[y].data_as<T>() + d * p, *ws = in[y + 1].data_as<T>() + d * width;
    const T *dy = in[y + 2].data_as<T>() + d * p, *dws = in[y + 3].data_as<T>() + d * width;
    const T* w_hr = s.proj ? in.back().data_as<T>() + d * p * n : nullptr;
    T *dx = out[0].data_as<T>() + d * gh, *dh = out[1].data_as<T>() + d * s.batch * p;
    T* dc = lstm ? out[2].data_as<T>() + d * s.batch * n : nullptr;
    for (int64_t k = s.steps() - 1; k >= 0; --k) {
      const StepRows st = rows_of(s, s.step(k, d), d);
      if (s.proj) {
        projected_state_kernel<T><<<blocks_for(st.rows * p, 256), 256, 0, stream()>>>(
            p, pitch.y, st, h0, y_d, dy, dh, dhr.data_as<T>(), h_prev.data_as<T>());
        check_launch("rnn_scan_backward");
        gemm(dtype, false, false, st.rows, n, p, dhr.data_as<T>() + st.inner * p, w_hr, dm.data(), memory);
      }
      rnn::with_mode(s.mode, [&](auto mode) {
        backward_kernel<mode.value, T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(
            n, pitch, st, h0, c0, y_d, ws, s.proj ? dws + 5 * n : dy, s.proj ? pitch.ws : pitch.y, dws,
            s.proj ? dm.data_as<T>() : dh, dc, direct.data_as<T>(), dx, dhp.data_as<T>(),
            s.proj ? nullptr : h_prev.data_as<T>(), s.proj ? m.data_as<T>() : nullptr);
      });
      check_launch("rnn_scan_backward");
      // The product writes the step's rows of dh; the rows past them pass through.
      gemm(dtype, false, false, st.rows, p, gh, dhp.data_as<T>() + st.inner * gh, w, dh_next.data(), memory);
      copy(dh, dh_next.data(), static_cast<size_t>(st.rows * p) * sizeof(T));
      if (gru) {
        add_kernel<T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(dh, direct.data_as<T>(), st.rows * n);
        check_launch("rnn_scan_backward");
      }
    }
    gemm(dtype, true, false, gh, p, rows, dhp.data(), h_prev.data(), out[2 + lstm].data_as<T>() + d * gh * p, memory);
    if (s.has_bias) {
      column_sum_kernel<T><<<blocks_for(gh, 256), 256, 0, stream()>>>(dhp.data_as<T>(), rows, gh,
                                                                    out[3 + lstm].data_as<T>() + d * gh);
      check_launch("rnn_scan_backward");
    }
    if (s.proj) {
      gemm(dtype, true, false, p, n, rows, dhr.data(), m.data(), out.back().data_as<T>() + d * p * n, memory);
    }
  }
}

std::vector<Tensor> scan_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool lstm = ctx.attrs.get_int("mode") == rnn::kLstm, proj = rnn::flag(ctx.attrs, "has_proj");
  const Tensor &w = in[0], &y = in[2 + lstm];
  Shape dx_shape = y.shape();
  dx_shape.back() = w.shape()[0];
  const rnn::Scan s = rnn::scan_of("rnn_scan_backward", ctx.attrs, dx_shape, proj ? in.back().shape()[1] : w.shape()[1],
                                   proj ? w.shape()[1] : 0);
  Memory& memory = memory_of(in);
  const DType dtype = w.dtype();
  std::vector<Tensor> out{output(ctx, 0, dx_shape, dtype, memory), output(ctx, 1, in[1].shape(), dtype, memory)};
  if (lstm) out.push_back(output(ctx, 2, in[2].shape(), dtype, memory));
  out.push_back(output(ctx, out.size(), w.shape(), dtype, memory));
  if (s.has_bias) out.push_back(output(ctx, out.size(), {w.shape()[0]}, dtype, memory));
  if (proj) out.push_back(output(ctx, out.size(), in.back().shape(), dtype, memory));
  if (dtype == DType::kFloat64) {
    backward<double>(s, in, out, memory);
  } else {
    backward<float>(s, in, out, memory);
  }
  return out;
}

}  // namespace

void add_rnn_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "rnn_scan", scan);
  r.add_kernel("cuda", "rnn_scan_backward", scan_backward);
}

}  // namespace mf::cuda
