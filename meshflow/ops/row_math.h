// Copyright 2026 The meshflow Authors.
// The per-element math of the row-wise ops (ops/nn.cc: softmax, log_softmax and their
// backward, layer_norm and its backward, softmax_cross_entropy and its backward), written
// once for the CPU's kernels (ops/rows.cc, ops/nn.cc) and the GPU's (ops/cuda/nn.cu): each
// function takes one element and its row's statistics (maximum, sums, mean, 1 / standard
// deviation) and gives one output element, host and device code alike (MF_HOST_DEVICE).
// How the statistics are summed is each device's own (the CPU's in lanes, ops/lanes.h; the
// GPU's by groups of threads); what an element's exponential is, too: the CPU runs
// ops/fast_math.h's vectorizing exp (within a few ulps of std::exp), so the functions that
// need one take it as an argument.
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>
#include <cstdint>

#include "meshflow/core/host_device.h"

namespace mf::rowmath {

// softmax: exp(x - max) times 1 / the row's sum of them.
template <typename T>
MF_HOST_DEVICE T softmax(T exp_shifted, T inverse_sum) {
  return exp_shifted * inverse_sum;
}
// log_softmax: (x - max) - log(the row's sum of exp(x - max)).
template <typename T>
MF_HOST_DEVICE T log_softmax(T x, T max, T log_sum) {
  return (x - max) - log_sum;
}
// What a masked element of a causal row gets: probability 0, log-probability -inf.
template <bool kLog, typename T>
MF_HOST_DEVICE T softmax_masked() {
  return kLog ? -static_cast<T>(HUGE_VAL) : T{0};
}

// softmax_backward's row sum is of softmax_backward_term (dy y; log_softmax's: dy), and
// dx = y (dy - sum), or log_softmax's dy - exp(y) sum.
template <bool kLog, typename T>
MF_HOST_DEVICE T softmax_backward_term(T y, T dy) {
  return kLog ? dy : dy * y;
}
template <typename T>
MF_HOST_DEVICE T softmax_backward(T y, T dy, T sum) {
  return y * (dy - sum);
}
template <typename T>
MF_HOST_DEVICE T log_softmax_backward(T exp_y, T dy, T sum) {
  return dy - exp_y * sum;
}

// layer_norm: 1 / sqrt(var + eps) from the sum of squared deviations over n elements (A: the
// type the device sums in), and an element normalized, times its weight and plus its bias
// where they are given.
template <typename A>
MF_HOST_DEVICE A inverse_std(A squares, A n, A eps) {
  return 1 / std::sqrt(squares / n + eps);
}
template <typename T>
MF_HOST_DEVICE T layer_norm(T x, T mean, T rstd, const T* weight, const T* bias, int64_t j) {
  T v = (x - mean) * rstd;
  if (weight) v *= weight[j];
  if (bias) v += bias[j];
  return v;
}
// layer_norm_backward's dx with g = dy weight, x - mean (`centered`), and the row's means of
// g and of g x^ (x^ = (x - mean) rstd): rstd (g - mean(g) - x^ mean(g x^)).
template <typename T>
MF_HOST_DEVICE T layer_norm_dx(T g, T centered, T rstd, T mean_g, T mean_gx) {
  return rstd * (g - mean_g - centered * rstd * mean_gx);
}

// A row's term of layer_norm's dweight (summed over rows): dy x^.
template <typename T>
MF_HOST_DEVICE T layer_norm_dweight_term(T dy, T centered, T rstd) {
  return dy * centered * rstd;
}

// softmax_cross_entropy: a row's loss is its log-sum-exp minus its target's logit, 0 where
// the target is ignore_index (`ignored`; then target_logit is any value, 0 say, as the
// target indexes nothing); its backward's dlogits = exp(x - lse) (dloss + dlse), less
// dloss at the target (`dl_here`: dloss there, else 0).
template <typename T>
MF_HOST_DEVICE T cross_entropy_loss(T lse, T target_logit, bool ignored) {
  return ignored ? T{0} : lse - target_logit;
}
template <typename T>
MF_HOST_DEVICE T cross_entropy_dx(T exp_shifted, T weight, T dl_here) {
  return exp_shifted * weight - dl_here;
}

// With class weights w (all 1 without) and label smoothing e, on_target = 1 - e and spread =
// e / C: a kept row's loss is on_target w_t (lse - x_t) + spread sum_c w_c (lse - x_c)
// (`spread_sum`, the sum), and its dlogits cross_entropy_dx(exp(x_j - lse), dlse + dloss
// scale, dloss spread w_j), less dloss on_target w_t at the target, where scale =
// on_target w_t + spread sum_c w_c (`total`, the sum): the loss's slope in lse.
template <typename T>
MF_HOST_DEVICE T smoothed_cross_entropy_loss(T lse, T target_logit, T target_weight, T on_target, T spread,
                                             T spread_sum) {
  return on_target * target_weight * (lse - target_logit) + spread * spread_sum;
}
template <typename T>
MF_HOST_DEVICE T smoothed_cross_entropy_scale(T target_weight, T on_target, T spread, T total) {
  return on_target * target_weight + spread * total;
}

}  // namespace mf::rowmath
