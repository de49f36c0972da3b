// Copyright 2026 The meshflow Authors.
// The CPU's kernels of softmax, log_softmax and their backward, of layer_norm and its
// backward, and of cross-entropy's log-sum-exp (ops/nn.cc, which defines what the ops mean
// and calls these on its rows): each runs a range of rows on the calling thread, built for
// several x86-64 levels (core/loops.h, MF_MULTIVERSIONED), with its sums in lanes
// (ops/lanes.h) and exp and log as ops/fast_math.h's. A row's result depends neither on the
// CPU's level nor on how rows are spread over threads. T is float or double.
// Thread-safety: reentrant; calls on disjoint outputs may run at once.
#pragma once

#include <cstdint>

#include "meshflow/core/dtype.h"

namespace mf::kernel {

// Which leading elements of a row softmax keeps (the others masked): all n, or, with
// causal masking over [.., Tq, Tk] rows (period Tq > 0), row r's first r % Tq + 1 + Tk - Tq.
struct KeptPrefix {
  int64_t period = 0, extra = 0;  // Tq and Tk - Tq; period 0: no masking
  int64_t of(int64_t row, int64_t n) const { return period ? row % period + 1 + extra : n; }
};

// Rows [first, first + count) of n elements, x to y: softmax (or log-softmax with `log`) of
// each row's kept prefix, the masked rest 0 (-inf).
template <typename T>
void softmax_rows(const T* x, T* y, int64_t first, int64_t count, int64_t n, KeptPrefix kept, bool log);
// dx of those rows from the forward's y and dy: y (dy - sum(dy y)), or dy - exp(y) sum(dy)
// with `log`; 0 where masked.
template <typename T>
void softmax_backward_rows(const T* y, const T* dy, T* dx, int64_t first, int64_t count, int64_t n, KeptPrefix kept,
                           bool log);

// The same along a dim that is not the last: `width` adjacent lines of n elements `inner`
// apart (line c's element i at c + i * inner).
template <typename T>
void softmax_lines(const T* x, T* y, int64_t n, int64_t inner, int64_t width, bool log);
template <typename T>
void softmax_backward_lines(const T* y, const T* dy, T* dx, int64_t n, int64_t inner, int64_t width, bool log);

// lse[r] = log(sum(exp(x_r))) of `count` rows of n elements.
template <typename T>
void log_sum_exp_rows(const T* x, T* lse, int64_t count, int64_t n);

// out[r] = the sum, maximum or minimum (`op`) of row r, for `count` rows of n elements: the
// reductions' kernel for short rows (ops/reduce.cc). A maximum or minimum is NaN where the
// row holds one.
template <typename T>
void reduce_rows(const T* x, T* out, int64_t count, int64_t n, ReduceOp op);

// `count` rows of n elements normalized: y = (x - mean) / sqrt(var + eps) (biased variance),
// times w and plus b where they are not null (n elements each).
template <typename T>
void layer_norm_rows(const T* x, const T* w, const T* b, T* y, int64_t count, int64_t n, double eps);
// Their gradients: dx of each row from x, w (null: ones) and dy; dy x^ added into dw (given
// exactly where w is) and dy into db where not null, row after row.
template <typename T>
void layer_norm_backward_rows(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, int64_t count, int64_t n,
                              double eps);

}  // namespace mf::kernel
