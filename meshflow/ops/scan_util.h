// Copyright 2026 The meshflow Authors.
// The scans' backward lines (ops/sort.cc's cumprod_backward and logcumsumexp_backward),
// written once for the CPU's kernels and the GPU's (ops/cuda/sort.cu): host and device code
// alike, each computing in double and rounding once per element. Header-only; no state.
#pragma once

#include <cmath>
#include <cstdint>

#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE

namespace mf::kernel {

// exp(a - b) for a <= b, 1 where they are equal (two infinities of one sign included).
MF_HOST_DEVICE inline double exp_below(double a, double b) { return a == b ? 1 : exp(a - b); }

// cumprod: dx[k] = sum_{j >= k} dy[j] prod_{i <= j, i != k} x[i] = P[k] S[k], with P[k] the
// product of x before k and S[k] = dy[k] + x[k + 1] S[k + 1]: no division, so zeros in x are
// exact. The line's elements are s, s + step, ... (n of them).
template <typename T>
MF_HOST_DEVICE void cumprod_backward_line(const T* x, const T* dy, T* dx, int64_t s, int64_t n, int64_t step) {
  double suffix = 0;
  for (int64_t k = n - 1; k >= 0; --k) {
    const double next = k + 1 < n ? static_cast<double>(x[s + (k + 1) * step]) : 0;
    suffix = static_cast<double>(dy[s + k * step]) + next * suffix;
    dx[s + k * step] = static_cast<T>(suffix);
  }
  double prefix = 1;
  for (int64_t k = 0; k < n; ++k) {
    dx[s + k * step] = static_cast<T>(prefix * static_cast<double>(dx[s + k * step]));
    prefix *= static_cast<double>(x[s + k * step]);
  }
}

// logcumsumexp: dx[k] = sum_{j >= k} dy[j] exp(x[k] - y[j]) = exp(x[k] - y[k]) Q[k] with
// Q[k] = dy[k] + exp(y[k] - y[k + 1]) Q[k + 1]: y does not decrease, so no exponential
// overflows.
template <typename T>
MF_HOST_DEVICE void logcumsumexp_backward_line(const T* x, const T* y, const T* dy, T* dx, int64_t s, int64_t n,
                                               int64_t step) {
  double q = 0;
  for (int64_t k = n - 1; k >= 0; --k) {
    const int64_t at = s + k * step;
    const double yk = static_cast<double>(y[at]);
    const double decay = k + 1 < n ? exp_below(yk, static_cast<double>(y[at + step])) : 0;
    q = static_cast<double>(dy[at]) + decay * q;
    dx[at] = static_cast<T>(exp_below(static_cast<double>(x[at]), yk) * q);
  }
}

}  // namespace mf::kernel
