// Copyright 2026 The meshflow Authors.
// The CUDA kernels of rnn_scan and rnn_scan_backward (ops/rnn.cc), float32 and float64 (the
// halves arrive widened): the CPU's loop over the steps, each step's product through
// cuBLASLt (matmul.cu's gemm) and its gates in one launch over the step's rows x hidden
// elements, with rnn.h's cell math. Everything is enqueued on stream(); the host reads no
// device memory.
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

StepRows rows_of(const rnn::Scan& s, int64_t t) {
  const int64_t p = s.reverse ? t + 1 : t - 1;
  const bool has_prev = p >= 0 && p < s.steps();
  return {s.sizes[t], s.row(t, 0), s.row_stride(), s.offsets[t], has_prev ? s.row(p, 0) : 0,
          has_prev ? s.sizes[p] : 0};
}

template <int64_t mode, typename T>
__global__ void forward_kernel(int64_t n, StepRows st, const T* x, const T* hp, const T* b, T* h, T* c,
                               T* y, T* ws) {
  const int64_t gh = rnn::gates(mode) * n, width = rnn::workspace_width(mode, n);
  for (int64_t e = first_index(); e < st.rows * n; e += grid_step()) {
    const int64_t r = e / n, j = e % n, row = st.first + r * st.stride;
    T cell = mode == rnn::kLstm ? c[e] : T(0);
    rnn::forward<mode, DeviceActivations>(n, j, x + row * gh, hp + r * gh, b, ws + row * width, h[e], cell);
    if (mode == rnn::kLstm) c[e] = cell;
    y[row * n + j] = h[e];
  }
}

template <int64_t mode, typename T>
__global__ void backward_kernel(int64_t n, StepRows st, const T* h0, const T* c0, const T* y, const T* ws,
                                const T* dy, const T* dws, T* dh, T* dc, T* direct, T* dx, T* dhp, T* h_prev) {
  const int64_t gh = rnn::gates(mode) * n, width = rnn::workspace_width(mode, n);
  for (int64_t e = first_index(); e < st.rows * n; e += grid_step()) {
    const int64_t r = e / n, j = e % n, row = st.first + r * st.stride, inner = st.inner + r;
    const bool initial = r >= st.prev_rows;
    const int64_t prev = st.prev_first + r * st.stride;
    const T hp = initial ? h0[e] : y[prev * n + j];
    const T cp = c0 ? (initial ? c0[e] : ws[prev * width + 4 * n + j]) : T(0);
    T cell = dc ? dc[e] : T(0);
    direct[e] = rnn::backward<mode, DeviceActivations>(n, j, ws + row * width, dws + row * width, y[row * n + j],
                                                       hp, cp, dy[row * n + j] + dh[e], cell, dx + row * gh,
                                                       dhp + inner * gh);
    if (dc) dc[e] = cell;
    h_prev[inner * n + j] = hp;
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

template <typename T>
void forward(const rnn::Scan& s, const std::vector<Tensor>& in, std::vector<Tensor>& out, Memory& memory) {
  const bool lstm = s.mode == rnn::kLstm;
  const int64_t n = s.hidden, gh = rnn::gates(s.mode) * n;
  T *h = out[1].data_as<T>(), *c = lstm ? out[2].data_as<T>() : nullptr;
  const T* w = in[2 + lstm].data_as<T>();
  const T* b = s.has_bias ? in.back().data_as<T>() : nullptr;
  copy(h, in[1].data(), out[1].nbytes());
  if (lstm) copy(c, in[2].data(), out[2].nbytes());
  const Tensor hp = Tensor::empty({s.batch, gh}, in[0].dtype(), memory);
  for (int64_t k = 0; k < s.steps(); ++k) {
    const StepRows st = rows_of(s, s.step(k));
    gemm(in[0].dtype(), false, true, st.rows, gh, n, h, w, hp.data(), memory);
    rnn::with_mode(s.mode, [&](auto mode) {
      forward_kernel<mode.value, T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(
          n, st, in[0].data_as<T>(), hp.data_as<T>(), b, h, c, out[0].data_as<T>(), out.back().data_as<T>());
    });
    check_launch("rnn_scan");
  }
}

std::vector<Tensor> scan(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool lstm = ctx.attrs.get_int("mode") == rnn::kLstm;
  const rnn::Scan s = rnn::scan_of("rnn_scan", ctx.attrs, in[0].shape(), in[1].shape()[1]);
  Memory& memory = memory_of(in);
  Shape y_shape = in[0].shape(), ws_shape = in[0].shape();
  y_shape.back() = s.hidden;
  ws_shape.back() = rnn::workspace_width(s.mode, s.hidden);
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

// Inputs w, h0[, c0], y, workspace, dy, dworkspace, dh_n[, dc_n]; outputs dx, dh0[, dc0], dw[, db].
template <typename T>
void backward(const rnn::Scan& s, const std::vector<Tensor>& in, std::vector<Tensor>& out, Memory& memory) {
  const bool lstm = s.mode == rnn::kLstm, gru = s.mode == rnn::kGru;
  const int64_t n = s.hidden, gh = rnn::gates(s.mode) * n, rows = s.rows();
  const size_t y = 2 + lstm;
  const T *w = in[0].data_as<T>(), *c0 = lstm ? in[2].data_as<T>() : nullptr;
  T *dx = out[0].data_as<T>(), *dh = out[1].data_as<T>(), *dc = lstm ? out[2].data_as<T>() : nullptr;
  copy(dh, in[y + 4].data(), out[1].nbytes());
  if (lstm) copy(dc, in[y + 5].data(), out[2].nbytes());
  const DType dtype = in[0].dtype();
  // dx itself where its rows are back to back (GRU's differs from it in the n gate); each
  // step's product reads its rows of dhp as one matrix.
  const Tensor dhp = gru || s.batch_first ? Tensor::empty({rows, gh}, dtype, memory) : out[0];
  const Tensor h_prev = Tensor::empty({rows, n}, dtype, memory), direct = Tensor::empty({s.batch, n}, dtype, memory);
  const Tensor dh_next = Tensor::empty({s.batch, n}, dtype, memory);
  for (int64_t k = s.steps() - 1; k >= 0; --k) {
    const StepRows st = rows_of(s, s.step(k));
    rnn::with_mode(s.mode, [&](auto mode) {
      backward_kernel<mode.value, T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(
          n, st, in[1].data_as<T>(), c0, in[y].data_as<T>(), in[y + 1].data_as<T>(), in[y + 2].data_as<T>(),
          in[y + 3].data_as<T>(), dh, dc, direct.data_as<T>(), dx, dhp.data_as<T>(), h_prev.data_as<T>());
    });
    check_launch("rnn_scan_backward");
    // The product writes the step's rows of dh; the rows past them pass through.
    gemm(dtype, false, false, st.rows, n, gh, dhp.data_as<T>() + st.inner * gh, w, dh_next.data(), memory);
    copy(dh, dh_next.data(), static_cast<size_t>(st.rows * n) * sizeof(T));
    if (gru) {
      add_kernel<T><<<blocks_for(st.rows * n, 256), 256, 0, stream()>>>(dh, direct.data_as<T>(), st.rows * n);
      check_launch("rnn_scan_backward");
    }
  }
  gemm(dtype, true, false, gh, n, rows, dhp.data(), h_prev.data(), out[2 + lstm].data(), memory);
  if (s.has_bias) {
    column_sum_kernel<T><<<blocks_for(gh, 256), 256, 0, stream()>>>(dhp.data_as<T>(), rows, gh,
                                                                  out.back().data_as<T>());
    check_launch("rnn_scan_backward");
  }
}

std::vector<Tensor> scan_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool lstm = ctx.attrs.get_int("mode") == rnn::kLstm;
  const Tensor &w = in[0], &y = in[2 + lstm];
  Shape dx_shape = y.shape();
  dx_shape.back() = w.shape()[0];
  const rnn::Scan s = rnn::scan_of("rnn_scan_backward", ctx.attrs, dx_shape, w.shape()[1]);
  Memory& memory = memory_of(in);
  const DType dtype = w.dtype();
  std::vector<Tensor> out{output(ctx, 0, dx_shape, dtype, memory), output(ctx, 1, in[1].shape(), dtype, memory)};
  if (lstm) out.push_back(output(ctx, 2, in[2].shape(), dtype, memory));
  out.push_back(output(ctx, out.size(), w.shape(), dtype, memory));
  if (s.has_bias) out.push_back(output(ctx, out.size(), {w.shape()[0]}, dtype, memory));
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
