// Copyright 2026 The meshflow Authors.
// The accumulation steps of the reductions (ops/reduce.cc: sum, mean, prod, amax, amin) and
// of the scans (ops/sort.cc: cumsum, cumprod, logcumsumexp), written once for the CPU's
// kernels and the GPU's (ops/cuda/reduce.cu, ops/cuda/sort.cu): acc op v, host and device
// code alike (MF_HOST_DEVICE). Integers wrap modulo 2^bits (elementwise_math.h's wrapping);
// bools or (a sum cast to bool) and and (a product); amax and amin propagate NaN. The CPU's
// short rows (ops/rows.cc's reduce_rows) run a vector form of the same steps, which
// tests/cpp/shared_math_test.cc checks against these.
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>
#include <type_traits>

#include "meshflow/ops/elementwise_math.h"

namespace mf::scalar {

struct SumStep {
  template <typename T>
  MF_HOST_DEVICE T operator()(T acc, T v) const {
    if constexpr (std::is_same_v<T, bool>) {
      return acc | v;
    } else {
      return wrapping<Wrapping::kAdd>(acc, v);
    }
  }
};

struct ProdStep {
  template <typename T>
  MF_HOST_DEVICE T operator()(T acc, T v) const {
    if constexpr (std::is_same_v<T, bool>) {
      return acc & v;
    } else {
      return wrapping<Wrapping::kMul>(acc, v);
    }
  }
};

// v where it is larger (smaller) or NaN, unless acc is NaN already: NaN propagates, and on
// the CPU the form vectorizes (two compares and a blend).
struct MaxStep {
  template <typename T>
  MF_HOST_DEVICE T operator()(T acc, T v) const {
    return !(v <= acc) & !is_nan(acc) ? v : acc;
  }
};
struct MinStep {
  template <typename T>
  MF_HOST_DEVICE T operator()(T acc, T v) const {
    return !(v >= acc) & !is_nan(acc) ? v : acc;
  }
};

// log(exp(a) + exp(b)) without overflow; infinities and NaN as torch.logcumsumexp has them.
MF_HOST_DEVICE inline double log_add_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  const double hi = std::fmax(a, b), lo = std::fmin(a, b);
  if (lo == -HUGE_VAL || hi == HUGE_VAL) return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

// The scans: each accumulates in ScanAcc (floats in double, integers in their own type) and
// rounds each prefix once.
enum class Scan { kSum, kProduct, kLogSumExp };

template <typename T>
using ScanAcc = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <Scan kScan, typename A>
MF_HOST_DEVICE A scan_identity() {
  if constexpr (kScan == Scan::kSum) {
    return A{0};
  } else if constexpr (kScan == Scan::kProduct) {
    return A{1};
  } else {
    return -HUGE_VAL;
  }
}

template <Scan kScan, typename A>
MF_HOST_DEVICE A scan_step(A acc, A v) {
  if constexpr (kScan == Scan::kSum) {
    return SumStep{}(acc, v);
  } else if constexpr (kScan == Scan::kProduct) {
    return ProdStep{}(acc, v);
  } else {
    return log_add_exp(acc, v);
  }
}

}  // namespace mf::scalar
