// Copyright 2026 The meshflow Authors.
// The math of batch norm and group norm (ops/batch_norm.cc; ops/cuda/batch_norm.cu) and of
// dropout's scaling (ops/creation.cc; ops/cuda/creation.cu), written once for the CPU's kernels
// and the GPU's (MF_HOST_DEVICE). A set of values normalized together (a channel over the
// batch, a sample's group of channels) is summed shifted by its first value, so that a large
// mean does not cancel against a small spread; how the sums are formed is each device's own
// (the CPU in float lanes gathered into doubles, the GPU by a block's threads in doubles).
// From the sums on it is all here: the moments and each channel's coefficients in double, and
// each value's output in the kernel's compute type C (float for float32 and bfloat16, double
// for float64), centered on the set's first value.
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>

#include "meshflow/core/host_device.h"

namespace mf::normmath {

// m values' statistics from sum(x - first) and sum((x - first)^2): the mean's offset from
// first, the biased variance (clamped at 0 against rounding; NaN where a value is, or where
// there are none) and rstd = 1 / sqrt(var + eps).
struct Moments {
  double offset, variance, rstd;
};
MF_HOST_DEVICE inline double rstd_of(double variance, double eps) { return 1 / std::sqrt(variance + eps); }
MF_HOST_DEVICE inline Moments moments(double sum, double squares, double m, double eps) {
  const double offset = sum / m, spread = squares / m - offset * offset;
  const double variance = spread < 0 ? 0.0 : spread;
  return {offset, variance, rstd_of(variance, eps)};
}

// The forward: y = (x - mean) rstd weight + bias, as (x - first) scale + shift.
struct Affine {
  double scale, shift;
};
MF_HOST_DEVICE inline Affine forward_affine(double weight, double bias, double offset, double rstd) {
  const double scale = weight * rstd;
  return {scale, bias - offset * scale};
}
template <typename C>
MF_HOST_DEVICE C normalized(C x, C first, C scale, C shift) {
  return (x - first) * scale + shift;
}

// The backward over m values normalized together, with xhat = (x - mean) rstd and
// g = dy weight (weight per channel): sum(dy xhat) from sum(dy) and sum(dy (x - first))
// (a channel's dweight), and dx = rstd (g - sum(g) / m - xhat sum(g xhat) / m), plus the
// statistics' own gradients' terms dmean / m + dvar 2 (x - mean) / m (batch norm's outputs
// mean and var; 0 for group norm), as dy k + (x - first) a + b with k = weight rstd.
MF_HOST_DEVICE inline double sum_dy_xhat(double sum_dy, double sum_dy_shifted, double offset, double rstd) {
  return (sum_dy_shifted - offset * sum_dy) * rstd;
}
struct BackwardAffine {
  double a, b;
};
MF_HOST_DEVICE inline BackwardAffine backward_affine(double sum_g, double sum_g_xhat, double offset, double rstd,
                                                     double m, double dmean = 0, double dvar = 0) {
  const double a = -rstd * rstd * sum_g_xhat / m + 2 * dvar / m;
  return {a, -rstd * sum_g / m + dmean / m - a * offset};
}
template <typename C>
MF_HOST_DEVICE C backward_value(C dy, C x, C first, C k, C a, C b) {
  return dy * k + (x - first) * a + b;
}

// Dropout (torch's): a value is kept where its uniform draw u in [0, 1) is >= p, scaled by
// 1 / (1 - p); the mask holds that factor or 0, and y = x mask.
template <typename T>
struct DropoutScale {
  T keep_below, scale;
  MF_HOST_DEVICE static DropoutScale of(double p) { return {static_cast<T>(p), static_cast<T>(1 / (1 - p))}; }
  MF_HOST_DEVICE T mask(T u) const { return u >= keep_below ? scale : T(0); }
};

}  // namespace mf::normmath
