// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/rows.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "meshflow/core/loops.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/lanes.h"
#include "meshflow/ops/row_math.h"

namespace mf::kernel {
namespace {

using fast_math::exp_nonpositive;
using fast_math::log_positive;

template <typename T>
constexpr T kInf = std::numeric_limits<T>::infinity();

// Rows run kBatch<T> at a time: each row's sums in its own set of lanes, the batch's sets
// folded together (lanes::sums) and finished (a log, a reciprocal, a square root) in one
// vector loop. One pass at a time over a batch's rows: each row's sums end in a chain of
// folds, and rows overlap only when nothing between them waits on one.
template <typename T>
constexpr int kBatch = lanes::kLanes<T>;

// A batch of `rows` rows (at most kBatch<T>), row i's first len[i] elements.
template <typename T>
struct Batch {
  int64_t rows;
  int64_t len[kBatch<T>];
};

// Rows of n elements a batch takes: up to kBatch<T>, as long as they fit in a core's first
// cache level together (a batch's passes run over all its rows before the next pass).
template <typename T>
MF_ALWAYS_INLINE int64_t batch_rows(int64_t n) {
  constexpr int64_t kBytes = 16 << 10;
  return std::clamp<int64_t>(kBytes / static_cast<int64_t>(sizeof(T)) / std::max<int64_t>(n, 1), 1, kBatch<T>);
}

template <typename T>
MF_ALWAYS_INLINE Batch<T> batch_of(int64_t rows, int64_t n) {
  Batch<T> b{rows, {}};
  std::fill(b.len, b.len + kBatch<T>, n);
  return b;
}

// out[i] = sum(f(i, j)) over row i's elements j.
template <typename T, typename F>
MF_ALWAYS_INLINE void batch_sums(const Batch<T>& b, F f, T* out) {
  T sets[kBatch<T>][lanes::kLanes<T>];
  for (int64_t i = 0; i < kBatch<T>; ++i) {
    // A set of its own for each row, which the compiler keeps in registers along the row.
    T set[lanes::kLanes<T>];
    lanes::fill(set, T{0});
    if (i < b.rows) lanes::accumulate(set, b.len[i], [&f, i](T s, int64_t j) { return s + f(i, j); });
    std::copy(set, set + lanes::kLanes<T>, sets[i]);
  }
  lanes::sums(sets, out);
}

// out[i] = the maximum of row i, of n elements from x (NaN passed over: it reaches the
// results through exp).
template <typename T>
MF_ALWAYS_INLINE void batch_maxima(const Batch<T>& b, const T* x, int64_t n, T* out) {
  T sets[kBatch<T>][lanes::kLanes<T>];
  for (int64_t i = 0; i < kBatch<T>; ++i) {
    const T* xr = x + i * n;
    T set[lanes::kLanes<T>];
    lanes::fill(set, -kInf<T>);
    if (i < b.rows) lanes::accumulate(set, b.len[i], [xr](T m, int64_t j) { return xr[j] > m ? xr[j] : m; });
    std::copy(set, set + lanes::kLanes<T>, sets[i]);
  }
  lanes::maxima(sets, out);
}

// A batch of rows' means and 1 / standard deviations (biased variance), in two passes: no
// cancellation in the variance.
template <typename T>
MF_ALWAYS_INLINE void batch_moments(const Batch<T>& b, const T* x, int64_t n, double eps, T* mean, T* rstd) {
  const T count = static_cast<T>(n), e = static_cast<T>(eps);
  batch_sums(b, [x, n](int64_t i, int64_t j) { return x[i * n + j]; }, mean);
#pragma omp simd
  for (int i = 0; i < kBatch<T>; ++i) mean[i] /= count;
  batch_sums(b, [x, n, mean](int64_t i, int64_t j) { return (x[i * n + j] - mean[i]) * (x[i * n + j] - mean[i]); },
             rstd);
#pragma omp simd
  for (int i = 0; i < kBatch<T>; ++i) rstd[i] = rowmath::inverse_std(rstd[i], count, e);
}

// A batch's rows' moments: mean, 1 / standard deviation, and the means of g = dy w and of
// g x^.
template <typename T>
struct Moments {
  T mean[kBatch<T>], rstd[kBatch<T>], mean_g[kBatch<T>], mean_gx[kBatch<T>];
};

// out[k][i] = sum(f(i, j)[k]) over row i's elements j, for K sums at once (f(i, j, v) adds
// element j's terms into v[k]).
template <int K, typename T, typename F>
MF_ALWAYS_INLINE void batch_sums_of(const Batch<T>& b, F f, T (*out)[kBatch<T>]) {
  constexpr int kL = lanes::kLanes<T>;
  T sets[K][kBatch<T>][kL];
  for (int64_t i = 0; i < kBatch<T>; ++i) {
    T set[K][kL];
    for (int k = 0; k < K; ++k) lanes::fill(set[k], T{0});
    if (i < b.rows) lanes::accumulate_sets<K>(set, b.len[i], [&f, i](T* v, int64_t j) { f(i, j, v); });
    for (int k = 0; k < K; ++k) std::copy(set[k], set[k] + kL, sets[k][i]);
  }
  for (int k = 0; k < K; ++k) lanes::sums(sets[k], out[k]);
}

// A batch's Moments for layer_norm_backward_rows, in two passes as batch_moments': the first
// reads x and dy together (the sums of x and of g), the second, from the cache, sums
// (x - mean)^2 and g (x - mean). (A pass over x alone, then one over both, would wait on
// memory twice.)
template <typename T>
MF_ALWAYS_INLINE void batch_backward_moments(const Batch<T>& b, const T* x, const T* w, const T* dy, int64_t n,
                                             double eps, Moments<T>& m) {
  const T count = static_cast<T>(n), e = static_cast<T>(eps);
  auto g = [=](int64_t i, int64_t j) { return w ? dy[i * n + j] * w[j] : dy[i * n + j]; };
  T first[2][kBatch<T>];
  batch_sums_of<2>(
      b,
      [=](int64_t i, int64_t j, T* v) {
        v[0] += x[i * n + j];
        v[1] += g(i, j);
      },
      first);
#pragma omp simd
  for (int i = 0; i < kBatch<T>; ++i) m.mean[i] = first[0][i] / count;
  T second[2][kBatch<T>];
  batch_sums_of<2>(
      b,
      [=, &m](int64_t i, int64_t j, T* v) {
        const T c = x[i * n + j] - m.mean[i];
        v[0] += c * c;
        v[1] += g(i, j) * c;
      },
      second);
#pragma omp simd
  for (int i = 0; i < kBatch<T>; ++i) {
    m.rstd[i] = rowmath::inverse_std(second[0][i], count, e);
    m.mean_g[i] = first[1][i] / count;
    m.mean_gx[i] = second[1][i] * m.rstd[i] / count;
  }
}

// Columns [j0, j0 + len) of a batch of layer_norm_backward_rows: dx, and the rows' terms
// added into dw (kWeight: w and dw given) and db (kBias). The columns' sums over the batch's
// rows stay in registers (a constant len unrolls to a few vectors) and are stored once per
// batch, not once per row: their stores, not the arithmetic, bound a loop row by row. The
// rows are added in order, as row by row.
template <bool kWeight, bool kBias, typename T, typename Len>
MF_ALWAYS_INLINE void layer_norm_backward_columns(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db,
                                                  int64_t rows, int64_t n, const Moments<T>& m, int64_t j0, Len len) {
  constexpr int64_t kChunk = 4 * lanes::kLanes<T>;
  T sw[kChunk], sb[kChunk];
#pragma omp simd
  for (int64_t j = 0; j < len; ++j) {
    sw[j] = kWeight ? dw[j0 + j] : T{0};
    sb[j] = kBias ? db[j0 + j] : T{0};
  }
  for (int64_t i = 0; i < rows; ++i) {
    const T s = m.rstd[i], mean = m.mean[i], mg = m.mean_g[i], mgx = m.mean_gx[i];
    const T *xr = x + i * n + j0, *dyr = dy + i * n + j0, *wr = kWeight ? w + j0 : w;
    T* dxr = dx + i * n + j0;
#pragma omp simd
    for (int64_t j = 0; j < len; ++j) {
      const T d = dyr[j], centered = xr[j] - mean;
      dxr[j] = rowmath::layer_norm_dx(kWeight ? d * wr[j] : d, centered, s, mg, mgx);
      sw[j] += rowmath::layer_norm_dweight_term(d, centered, s);
      sb[j] += d;
    }
  }
#pragma omp simd
  for (int64_t j = 0; j < len; ++j) {
    if constexpr (kWeight) dw[j0 + j] = sw[j];
    if constexpr (kBias) db[j0 + j] = sb[j];
  }
}

// A batch of layer_norm_backward_rows, kChunk columns at a time (x and dy read once for dx,
// dw and db).
template <bool kWeight, bool kBias, typename T>
MF_ALWAYS_INLINE void layer_norm_backward_batch(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, int64_t rows,
                                                int64_t n, const Moments<T>& m) {
  constexpr int64_t kChunk = 4 * lanes::kLanes<T>;
  int64_t j0 = 0;
  for (; j0 + kChunk <= n; j0 += kChunk) {
    layer_norm_backward_columns<kWeight, kBias>(x, w, dy, dx, dw, db, rows, n, m, j0,
                                                std::integral_constant<int64_t, kChunk>{});
  }
  if (j0 < n) layer_norm_backward_columns<kWeight, kBias>(x, w, dy, dx, dw, db, rows, n, m, j0, n - j0);
}

// Lines: the accumulators of this many adjacent lines at a time live on the stack.
constexpr int64_t kLineBlock = 256;

}  // namespace

// The kernels below take `log` as a template argument (kLog): a condition inside a loop
// around exp or log would keep GCC from vectorizing it (their fma calls cannot be made
// conditional).

template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_rows_of(const T* x, T* y, int64_t first, int64_t count, int64_t n, KeptPrefix kept) {
  const int64_t per_batch = batch_rows<T>(n);
  for (int64_t r0 = 0; r0 < count; r0 += per_batch) {
    Batch<T> b{std::min(per_batch, count - r0), {}};
    for (int64_t i = 0; i < b.rows; ++i) b.len[i] = kept.of(first + r0 + i, n);
    const T* xb = x + r0 * n;
    T* yb = y + r0 * n;
    T shift[kBatch<T>], total[kBatch<T>];
    batch_maxima(b, xb, n, shift);
    // Shifting by the maximum keeps exp from overflowing; softmax keeps exp(x - m) in y.
    if constexpr (kLog) {
      batch_sums(b, [=](int64_t i, int64_t j) { return exp_nonpositive(xb[i * n + j] - shift[i]); }, total);
    } else {
      batch_sums(b, [=](int64_t i, int64_t j) { return yb[i * n + j] = exp_nonpositive(xb[i * n + j] - shift[i]); },
                 total);
    }
#pragma omp simd
    for (int i = 0; i < kBatch<T>; ++i) total[i] = kLog ? log_positive(total[i]) : 1 / total[i];
    for (int64_t i = 0; i < b.rows; ++i) {
      const T *xr = xb + i * n, m = shift[i], t = total[i];
      T* yr = yb + i * n;
#pragma omp simd
      for (int64_t j = 0; j < b.len[i]; ++j) {
        yr[j] = kLog ? rowmath::log_softmax(xr[j], m, t) : rowmath::softmax(yr[j], t);
      }
      std::fill(yr + b.len[i], yr + n, rowmath::softmax_masked<kLog, T>());
    }
  }
}

template <typename T>
MF_MULTIVERSIONED void softmax_rows(const T* x, T* y, int64_t first, int64_t count, int64_t n, KeptPrefix kept,
                                    bool log) {
  log ? softmax_rows_of<true>(x, y, first, count, n, kept) : softmax_rows_of<false>(x, y, first, count, n, kept);
}

// Row by row: with one sum per row, a batch's fold saves less than its sets cost.
template <bool kLog, typename T>
MF_ALWAYS_INLINE void softmax_backward_rows_of(const T* y, const T* dy, T* dx, int64_t first, int64_t count,
                                               int64_t n, KeptPrefix kept) {
  for (int64_t r = 0; r < count; ++r) {
    const int64_t len = kept.of(first + r, n);
    const T *yr = y + r * n, *dyr = dy + r * n;
    T* dxr = dx + r * n;
    T set[lanes::kLanes<T>];
    lanes::fill(set, T{0});
    if constexpr (kLog) {
      // log_softmax's term reads no y (a capture of y here costs the short rows of both forms
      // a fifth: the two forms share one function's registers).
      lanes::accumulate(set, len,
                        [dyr](T s, int64_t j) { return s + rowmath::softmax_backward_term<true>(T{}, dyr[j]); });
      const T s = lanes::sum(set);
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) dxr[j] = rowmath::log_softmax_backward(exp_nonpositive(yr[j]), dyr[j], s);
    } else {
      lanes::accumulate(set, len,
                        [dyr, yr](T s, int64_t j) { return s + rowmath::softmax_backward_term<false>(yr[j], dyr[j]); });
      const T s = lanes::sum(set);
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) dxr[j] = rowmath::softmax_backward(yr[j], dyr[j], s);
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
      for (int64_t c = 0; c < w; ++c) {
        yi[c] = kLog ? rowmath::log_softmax(xi[c], m[c], s[c]) : rowmath::softmax(yi[c], s[c]);
      }
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
      for (int64_t c = 0; c < w; ++c) s[c] += rowmath::softmax_backward_term<kLog>(yi[c], dyi[c]);
    }
    for (int64_t i = 0; i < n; ++i) {
      const T *yi = y + i * inner + c0, *dyi = dy + i * inner + c0;
      T* dxi = dx + i * inner + c0;
      if constexpr (kLog) {
#pragma omp simd
        for (int64_t c = 0; c < w; ++c) dxi[c] = rowmath::log_softmax_backward(exp_nonpositive(yi[c]), dyi[c], s[c]);
      } else {
#pragma omp simd
        for (int64_t c = 0; c < w; ++c) dxi[c] = rowmath::softmax_backward(yi[c], dyi[c], s[c]);
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
  const int64_t per_batch = batch_rows<T>(n);
  for (int64_t r0 = 0; r0 < count; r0 += per_batch) {
    const Batch<T> b = batch_of<T>(std::min(per_batch, count - r0), n);
    const T* xb = x + r0 * n;
    T shift[kBatch<T>], total[kBatch<T>];
    batch_maxima(b, xb, n, shift);
    batch_sums(b, [=](int64_t i, int64_t j) { return exp_nonpositive(xb[i * n + j] - shift[i]); }, total);
#pragma omp simd
    for (int i = 0; i < kBatch<T>; ++i) total[i] = shift[i] + log_positive(total[i]);
    std::copy(total, total + b.rows, lse + r0);
  }
}

// The larger (kMax) or smaller value, NaN if either is: on elements and on vectors of them.
// Written as two selects of their own and a subtraction (of +0, or of b where b is NaN: x - 0
// keeps x's sign of zero): GCC turns a select on combined conditions into element-by-element
// code before it knows the vectors' instructions (in the fold on vectors).
template <ReduceOp kOp>
struct Extremum {
  template <typename V>
  MF_ALWAYS_INLINE V operator()(V a, V b) const {
    const V pick = (kOp == ReduceOp::kMax ? b > a : b < a) ? b : a;
    const V nan = b != b ? b : V{};
    return pick - nan;
  }
};

template <ReduceOp kOp, typename T>
MF_ALWAYS_INLINE void reduce_rows_of(const T* x, T* out, int64_t count, int64_t n) {
  constexpr int kL = lanes::kLanes<T>;
  for (int64_t r0 = 0; r0 < count; r0 += kBatch<T>) {
    const Batch<T> b = batch_of<T>(std::min<int64_t>(kBatch<T>, count - r0), n);
    const T* xb = x + r0 * n;
    T folded[kBatch<T>];
    if constexpr (kOp == ReduceOp::kSum) {
      batch_sums(b, [=](int64_t i, int64_t j) { return xb[i * n + j]; }, folded);
    } else {
      T sets[kBatch<T>][kL];
      for (int64_t i = 0; i < kBatch<T>; ++i) {
        const T* xr = xb + i * n;
        T set[kL];
        lanes::fill(set, kOp == ReduceOp::kMax ? -kInf<T> : kInf<T>);
        if (i < b.rows) lanes::accumulate(set, n, [xr](T m, int64_t j) { return Extremum<kOp>()(m, xr[j]); });
        std::copy(set, set + kL, sets[i]);
      }
      lanes::fold_sets(sets, folded, Extremum<kOp>());
    }
    std::copy(folded, folded + b.rows, out + r0);
  }
}

template <typename T>
MF_MULTIVERSIONED void reduce_rows(const T* x, T* out, int64_t count, int64_t n, ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return reduce_rows_of<ReduceOp::kSum>(x, out, count, n);
    case ReduceOp::kMax:
      return reduce_rows_of<ReduceOp::kMax>(x, out, count, n);
    case ReduceOp::kMin:
      return reduce_rows_of<ReduceOp::kMin>(x, out, count, n);
  }
}

template <typename T>
MF_MULTIVERSIONED void layer_norm_rows(const T* x, const T* w, const T* b, T* y, int64_t count, int64_t n,
                                       double eps) {
  const int64_t per_batch = batch_rows<T>(n);
  for (int64_t r0 = 0; r0 < count; r0 += per_batch) {
    const Batch<T> batch = batch_of<T>(std::min(per_batch, count - r0), n);
    T mean[kBatch<T>], rstd[kBatch<T>];
    batch_moments(batch, x + r0 * n, n, eps, mean, rstd);
    for (int64_t i = 0; i < batch.rows; ++i) {
      const T* xr = x + (r0 + i) * n;
      T* yr = y + (r0 + i) * n;
      const T m = mean[i], s = rstd[i];
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) yr[j] = rowmath::layer_norm(xr[j], m, s, w, b, j);
    }
  }
}

// With x^ = (x - mean) rstd and g = dy w: dx = rstd (g - mean(g) - x^ mean(g x^)).
template <typename T>
MF_MULTIVERSIONED void layer_norm_backward_rows(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db,
                                                int64_t count, int64_t n, double eps) {
  // Rows run in batches with or without dw and db (their columns' sums stay in registers
  // across a batch's rows): row by row, a short row's moments and loops cost more than its
  // elements (a long row makes a batch of one anyway).
  const int64_t per_batch = batch_rows<T>(n);
  for (int64_t r0 = 0; r0 < count; r0 += per_batch) {
    const Batch<T> batch = batch_of<T>(std::min(per_batch, count - r0), n);
    const T *xb = x + r0 * n, *dyb = dy + r0 * n;
    Moments<T> m;
    batch_backward_moments(batch, xb, w, dyb, n, eps, m);
    T* dxb = dx + r0 * n;
    if (w && db) {
      layer_norm_backward_batch<true, true>(xb, w, dyb, dxb, dw, db, batch.rows, n, m);
    } else if (w) {
      layer_norm_backward_batch<true, false>(xb, w, dyb, dxb, dw, db, batch.rows, n, m);
    } else if (db) {
      layer_norm_backward_batch<false, true>(xb, w, dyb, dxb, dw, db, batch.rows, n, m);
    } else {
      layer_norm_backward_batch<false, false>(xb, w, dyb, dxb, dw, db, batch.rows, n, m);
    }
  }
}

#define MF_ROW_KERNELS(T)                                                                                              \
  template void softmax_rows<T>(const T*, T*, int64_t, int64_t, int64_t, KeptPrefix, bool);                          \
  template void softmax_backward_rows<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, KeptPrefix, bool);      \
  template void softmax_lines<T>(const T*, T*, int64_t, int64_t, int64_t, bool);                                     \
  template void softmax_backward_lines<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, bool);                  \
  template void log_sum_exp_rows<T>(const T*, T*, int64_t, int64_t);                                                 \
  template void reduce_rows<T>(const T*, T*, int64_t, int64_t, ReduceOp);                                            \
  template void layer_norm_rows<T>(const T*, const T*, const T*, T*, int64_t, int64_t, double);                      \
  template void layer_norm_backward_rows<T>(const T*, const T*, const T*, T*, T*, T*, int64_t, int64_t, double);
MF_ROW_KERNELS(float)
MF_ROW_KERNELS(double)
#undef MF_ROW_KERNELS

}  // namespace mf::kernel
