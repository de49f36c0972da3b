// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "meshflow/core/loops.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/lanes.h"

namespace mf::kernel {
namespace {

using fast_math::exp_nonpositive;
using fast_math::log_positive;

template <typename T>
constexpr T kInf = std::numeric_limits<T>::infinity();

// Rows are finished (a log or a reciprocal per row) this many at a time, in one vector loop.
constexpr int kBatch = 16;

// The maximum of x[0, n) (NaN passed over: it reaches the results through exp).
template <typename T>
MF_ALWAYS_INLINE T row_max(const T* x, int64_t n) {
  T lanes[lanes::kLanes<T>];
  lanes::fill(lanes, -kInf<T>);
  lanes::accumulate(lanes, n, [x](T m, int64_t j) { return x[j] > m ? x[j] : m; });
  return lanes::max(lanes);
}

// sum(f(j)) over j in [0, n).
template <typename T, typename F>
MF_ALWAYS_INLINE T row_sum(int64_t n, F f) {
  T lanes[lanes::kLanes<T>];
  lanes::fill(lanes, T{0});
  lanes::accumulate(lanes, n, [&f](T s, int64_t j) { return s + f(j); });
  return lanes::sum(lanes);
}

// Lines: the accumulators of this many adjacent lines at a time live on the stack.
constexpr int64_t kLineBlock = 256;

}  // namespace

// The kernels below take `log` as a template argument (kLog): a condition inside a loop
// around exp or log would keep GCC from vectorizing it (their fma calls cannot be made
// conditional).

template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_rows_of(const T* x, T* y, int64_t first, int64_t count, int64_t n, KeptPrefix kept) {
  for (int64_t b = 0; b < count; b += kBatch) {
    const int64_t rows = std::min<int64_t>(kBatch, count - b);
    const T* xb = x + b * n;
    T* yb = y + b * n;
    int64_t len[kBatch];
    T shift[kBatch], total[kBatch];
    std::fill(total, total + kBatch, T{1});
    // One pass at a time over the batch's rows: each row's sums end in a chain of folds,
    // and the rows' chains overlap only when nothing between them waits on one.
    for (int64_t i = 0; i < rows; ++i) {
      len[i] = kept.of(first + b + i, n);
      shift[i] = row_max(xb + i * n, len[i]);
    }
    // Shifting by the maximum keeps exp from overflowing; softmax keeps exp(x - m) in y.
    for (int64_t i = 0; i < rows; ++i) {
      const T *xr = xb + i * n, m = shift[i];
      T* yr = yb + i * n;
      if constexpr (kLog) {
        total[i] = row_sum<T>(len[i], [=](int64_t j) { return exp_nonpositive(xr[j] - m); });
      } else {
        total[i] = row_sum<T>(len[i], [=](int64_t j) { return yr[j] = exp_nonpositive(xr[j] - m); });
      }
    }
#pragma omp simd
    for (int i = 0; i < kBatch; ++i) total[i] = kLog ? log_positive(total[i]) : 1 / total[i];
    for (int64_t i = 0; i < rows; ++i) {
      const T *xr = xb + i * n, m = shift[i], t = total[i];
      T* yr = yb + i * n;
#pragma omp simd
      for (int64_t j = 0; j < len[i]; ++j) yr[j] = kLog ? (xr[j] - m) - t : yr[j] * t;
      std::fill(yr + len[i], yr + n, kLog ? -kInf<T> : T{0});
    }
  }
}

template <typename T>
MF_MULTIVERSIONED void softmax_rows(const T* x, T* y, int64_t first, int64_t count, int64_t n, KeptPrefix kept,
                                    bool log) {
  log ? softmax_rows_of<true>(x, y, first, count, n, kept) : softmax_rows_of<false>(x, y, first, count, n, kept);
}

template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_backward_rows_of(const T* y, const T* dy, T* dx, int64_t first, int64_t count,
                                               int64_t n, KeptPrefix kept) {
  for (int64_t r = 0; r < count; ++r) {
    const int64_t len = kept.of(first + r, n);
    const T *yr = y + r * n, *dyr = dy + r * n;
    T* dxr = dx + r * n;
    if constexpr (kLog) {
      const T s = row_sum<T>(len, [=](int64_t j) { return dyr[j]; });
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) dxr[j] = dyr[j] - exp_nonpositive(yr[j]) * s;
    } else {
      const T s = row_sum<T>(len, [=](int64_t j) { return dyr[j] * yr[j]; });
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) dxr[j] = yr[j] * (dyr[j] - s);
    }
    std::fill(dxr + len, dxr + n, T{0});
  }
}

template <typename T>
MF_MULTIVERSIONED void softmax_backward_rows(const T* y, const T* dy, T* dx, int64_t first, int64_t count, int64_t n,
                                             KeptPrefix kept, bool log) {
  log ? softmax_backward_rows_of<true>(y, dy, dx, first, count, n, kept)
      : softmax_backward_rows_of<false>(y, dy, dx, first, count, n, kept);
}

// Each line's sums run along it, element after element, so the lines' loops run across
// them over contiguous memory.
template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_lines_of(const T* x, T* y, int64_t n, int64_t inner, int64_t width) {
  for (int64_t c0 = 0; c0 < width; c0 += kLineBlock) {
    const int64_t w = std::min(kLineBlock, width - c0);
    T m[kLineBlock], s[kLineBlock];
    std::fill(m, m + w, -kInf<T>);
    std::fill(s, s + w, T{0});
    for (int64_t i = 0; i < n; ++i) {
      const T* xi = x + i * inner + c0;
#pragma omp simd
      for (int64_t c = 0; c < w; ++c) m[c] = xi[c] > m[c] ? xi[c] : m[c];
    }
    for (int64_t i = 0; i < n; ++i) {
      const T* xi = x + i * inner + c0;
      T* yi = y + i * inner + c0;
#pragma omp simd
      for (int64_t c = 0; c < w; ++c) {
        const T e = exp_nonpositive(xi[c] - m[c]);
        s[c] += e;
        if constexpr (!kLog) yi[c] = e;
      }
    }
#pragma omp simd
    for (int64_t c = 0; c < w; ++c) s[c] = kLog ? log_positive(s[c]) : 1 / s[c];
    for (int64_t i = 0; i < n; ++i) {
      const T* xi = x + i * inner + c0;
      T* yi = y + i * inner + c0;
#pragma omp simd
      for (int64_t c = 0; c < w; ++c) yi[c] = kLog ? (xi[c] - m[c]) - s[c] : yi[c] * s[c];
    }
  }
}

template <typename T>
MF_MULTIVERSIONED void softmax_lines(const T* x, T* y, int64_t n, int64_t inner, int64_t width, bool log) {
  log ? softmax_lines_of<true>(x, y, n, inner, width) : softmax_lines_of<false>(x, y, n, inner, width);
}

template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_backward_lines_of(const T* y, const T* dy, T* dx, int64_t n, int64_t inner,
                                                int64_t width) {
  for (int64_t c0 = 0; c0 < width; c0 += kLineBlock) {
    const int64_t w = std::min(kLineBlock, width - c0);
    T s[kLineBlock];
    std::fill(s, s + w, T{0});
    for (int64_t i = 0; i < n; ++i) {
      const T *yi = y + i * inner + c0, *dyi = dy + i * inner + c0;
#pragma omp simd
      for (int64_t c = 0; c < w; ++c) s[c] += kLog ? dyi[c] : dyi[c] * yi[c];
    }
    for (int64_t i = 0; i < n; ++i) {
      const T *yi = y + i * inner + c0, *dyi = dy + i * inner + c0;
      T* dxi = dx + i * inner + c0;
      if constexpr (kLog) {
#pragma omp simd
        for (int64_t c = 0; c < w; ++c) dxi[c] = dyi[c] - exp_nonpositive(yi[c]) * s[c];
      } else {
#pragma omp simd
        for (int64_t c = 0; c < w; ++c) dxi[c] = yi[c] * (dyi[c] - s[c]);
      }
    }
  }
}

template <typename T>
MF_MULTIVERSIONED void softmax_backward_lines(const T* y, const T* dy, T* dx, int64_t n, int64_t inner, int64_t width,
                                              bool log) {
  log ? softmax_backward_lines_of<true>(y, dy, dx, n, inner, width)
      : softmax_backward_lines_of<false>(y, dy, dx, n, inner, width);
}

template <typename T>
MF_MULTIVERSIONED void log_sum_exp_rows(const T* x, T* lse, int64_t count, int64_t n) {
  for (int64_t b = 0; b < count; b += kBatch) {
    const int64_t rows = std::min<int64_t>(kBatch, count - b);
    const T* xb = x + b * n;
    T shift[kBatch] = {}, total[kBatch];
    std::fill(total, total + kBatch, T{1});
    for (int64_t i = 0; i < rows; ++i) shift[i] = row_max(xb + i * n, n);
    for (int64_t i = 0; i < rows; ++i) {
      const T *xr = xb + i * n, m = shift[i];
      total[i] = row_sum<T>(n, [=](int64_t j) { return exp_nonpositive(xr[j] - m); });
    }
#pragma omp simd
    for (int i = 0; i < kBatch; ++i) total[i] = shift[i] + log_positive(total[i]);
    std::copy(total, total + rows, lse + b);
  }
}

// A batch of rows' means and 1 / standard deviations (biased variance), in two passes: no
// cancellation in the variance.
template <typename T>
MF_ALWAYS_INLINE void batch_moments(const T* x, int64_t rows, int64_t n, double eps, T* mean, T* rstd) {
  for (int64_t i = 0; i < rows; ++i) {
    const T* xr = x + i * n;
    mean[i] = row_sum<T>(n, [xr](int64_t j) { return xr[j]; }) / static_cast<T>(n);
  }
  for (int64_t i = 0; i < rows; ++i) {
    const T *xr = x + i * n, m = mean[i];
    rstd[i] = row_sum<T>(n, [xr, m](int64_t j) { return (xr[j] - m) * (xr[j] - m); }) / static_cast<T>(n);
  }
  const T e = static_cast<T>(eps);
#pragma omp simd
  for (int i = 0; i < kBatch; ++i) rstd[i] = 1 / std::sqrt(rstd[i] + e);
}

template <typename T>
MF_MULTIVERSIONED void layer_norm_rows(const T* x, const T* w, const T* b, T* y, int64_t count, int64_t n,
                                       double eps) {
  for (int64_t r0 = 0; r0 < count; r0 += kBatch) {
    const int64_t rows = std::min<int64_t>(kBatch, count - r0);
    T mean[kBatch] = {}, rstd[kBatch] = {};
    batch_moments(x + r0 * n, rows, n, eps, mean, rstd);
    for (int64_t i = 0; i < rows; ++i) {
      const T* xr = x + (r0 + i) * n;
      T* yr = y + (r0 + i) * n;
      const T m = mean[i], s = rstd[i];
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) {
        T v = (xr[j] - m) * s;
        if (w) v *= w[j];
        if (b) v += b[j];
        yr[j] = v;
      }
    }
  }
}

// With x^ = (x - mean) rstd and g = dy w: dx = rstd (g - mean(g) - x^ mean(g x^)).
template <typename T>
MF_MULTIVERSIONED void layer_norm_backward_rows(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db,
                                                int64_t count, int64_t n, double eps) {
  for (int64_t r0 = 0; r0 < count; r0 += kBatch) {
    const int64_t rows = std::min<int64_t>(kBatch, count - r0);
    T mean[kBatch] = {}, rstd[kBatch] = {}, mean_g[kBatch], mean_gx[kBatch];
    batch_moments(x + r0 * n, rows, n, eps, mean, rstd);
    for (int64_t i = 0; i < rows; ++i) {
      const T *xr = x + (r0 + i) * n, *dyr = dy + (r0 + i) * n, m = mean[i], s = rstd[i];
      auto g = [=](int64_t j) { return w ? dyr[j] * w[j] : dyr[j]; };
      mean_g[i] = row_sum<T>(n, g) / static_cast<T>(n);
      mean_gx[i] = row_sum<T>(n, [=](int64_t j) { return g(j) * (xr[j] - m) * s; }) / static_cast<T>(n);
    }
    for (int64_t i = 0; i < rows; ++i) {
      const T *xr = x + (r0 + i) * n, *dyr = dy + (r0 + i) * n, m = mean[i], s = rstd[i];
      const T mg = mean_g[i], mgx = mean_gx[i];
      T* dxr = dx + (r0 + i) * n;
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) dxr[j] = s * ((w ? dyr[j] * w[j] : dyr[j]) - mg - (xr[j] - m) * s * mgx);
      if (dw) {
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) dw[j] += dyr[j] * (xr[j] - m) * s;
      }
      if (db) {
#pragma omp simd
        for (int64_t j = 0; j < n; ++j) db[j] += dyr[j];
      }
    }
  }
}

#define MF_ROW_KERNELS(T)                                                                                              \
  template void softmax_rows<T>(const T*, T*, int64_t, int64_t, int64_t, KeptPrefix, bool);                          \
  template void softmax_backward_rows<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, KeptPrefix, bool);      \
  template void softmax_lines<T>(const T*, T*, int64_t, int64_t, int64_t, bool);                                     \
  template void softmax_backward_lines<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, bool);                  \
  template void log_sum_exp_rows<T>(const T*, T*, int64_t, int64_t);                                                 \
  template void layer_norm_rows<T>(const T*, const T*, const T*, T*, int64_t, int64_t, double);                      \
  template void layer_norm_backward_rows<T>(const T*, const T*, const T*, T*, T*, T*, int64_t, int64_t, double);
MF_ROW_KERNELS(float)
MF_ROW_KERNELS(double)
#undef MF_ROW_KERNELS

}  // namespace mf::kernel
