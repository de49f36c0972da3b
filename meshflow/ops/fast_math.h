// Copyright 2026 The meshflow Authors.
// Elementwise math for the kernels on the hot path of training, written so that loops over
// them vectorize: no libm call in float32, and comparisons only to select between values
// computed either way (a libm call or a branch keeps GCC from vectorizing). float64 calls
// libm, for exact gradient checks. The ops' float32 forms of exp, sigmoid, tanh, silu and gelu
// (both forms, and their gradients) stand in for their functors in elementwise_math.h on the CPU
// (float32_by), which define the ops' math for every dtype and device.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "meshflow/ops/elementwise_math.h"

namespace mf::fast_math {

// Always inlined: a loop calling one of these vectorizes only when the call is inlined, and
// GCC stops inlining once a translation unit grows past its budget (nn.cc did: gelu_backward
// ran 12x slower with exp_nonpositive called out of line).
#define MF_ALWAYS_INLINE __attribute__((always_inline)) inline

MF_ALWAYS_INLINE uint32_t bits_of(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

MF_ALWAYS_INLINE float float_of(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// a b + c rounded once: one instruction in the versions built for x86-64-v3 and v4 (every
// CPU with AVX2 has FMA), a libm call at the baseline, where the loop no longer vectorizes
// but every version still gives the same bits. (GCC forms no FMA by itself: the build turns
// contraction off, CMakeLists.txt.)
MF_ALWAYS_INLINE float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }

// The float exps' common part: x = k ln2 + r with |r| <= ln2 / 2 (ln2 in two parts: k ln2 is
// exact) and exp(r) by its Taylor polynomial of degree 6; returns exp(r), with k (an integer
// in a float) in *k. Within 3 ulps once scaled by 2^k.
MF_ALWAYS_INLINE float exp_reduced(float x, float* k) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer, kept in the low bits
  *k = fma(x, 1.44269504088896341f, kRound) - kRound;
  const float r = fma(*k, -1.428606765330187e-06f, fma(*k, -0.693145751953125f, x));
  float p = fma(r, 1.0f / 720, 1.0f / 120);
  p = fma(p, r, 1.0f / 24);
  p = fma(p, r, 1.0f / 6);
  p = fma(p, r, 0.5f);
  p = fma(p, r, 1.0f);
  return fma(p, r, 1.0f);
}

// 2^k for an integer k in [-126, 127], from its exponent bits.
MF_ALWAYS_INLINE float power_of_two(int32_t k) { return float_of(static_cast<uint32_t>(k + 127) << 23); }

// exp(x) for x <= 0 (shifted logits, log-probabilities). Float: within 3 ulps of std::exp,
// 0 below -87.34 (where exp leaves the normal floats), NaN kept; written without a libm call
// (which keeps GCC from vectorizing the loop; inline for the same reason). The comparisons
// select between values computed either way, so that the loop still vectorizes (as blends).
// Double: std::exp.
template <typename T>
MF_ALWAYS_INLINE T exp_nonpositive(T x) {
  if constexpr (std::is_same_v<T, double>) {
    return std::exp(x);
  } else {
    constexpr float kLowest = -87.33654f;  // exp(kLowest) is the least normal float
    const float clamped = x < kLowest ? kLowest : x;  // -inf too; NaN passes (the comparison is false)
    float k;
    const float e = exp_reduced(clamped, &k) * power_of_two(static_cast<int32_t>(k));
    return x < kLowest ? 0.0f : e;
  }
}

// exp(x) over the whole range (torch.exp's kernel): exp_nonpositive's reduction and
// polynomial (within 3 ulps of std::exp), 2^k applied as two factors so that results down to
// the least subnormal and up to the largest float come out (one rounding, in the last
// product), +inf above 88.72, 0 below -103.97, NaN kept.
MF_ALWAYS_INLINE float exp(float x) {
  constexpr float kHighest = 88.72283935546875f;  // above it exp overflows
  constexpr float kLowest = -103.97208404541016f;  // below it exp rounds to 0
  float clamped = x < kLowest ? kLowest : x;  // NaN passes both comparisons
  clamped = clamped > kHighest ? kHighest : clamped;
  float k;
  const float p = exp_reduced(clamped, &k);
  // k in [-150, 128]: 2^half and 2^(k - half) are both normal floats.
  const int32_t whole = static_cast<int32_t>(k), half = whole / 2;
  const float e = p * power_of_two(half) * power_of_two(whole - half);
  return x > kHighest ? std::numeric_limits<float>::infinity() : (x < kLowest ? 0.0f : e);
}

// log(x) for positive x (sums of exponentials, at least 1). Float: x = 2^e m with m in
// [sqrt(1/2), sqrt(2)), log(x) = e ln2 + log(m), log(m) = log(1 + f) by Cephes' polynomial
// for logf (within about 1 ulp), +inf and NaN kept; no libm call, so loops vectorize.
// Subnormals and values <= 0 are outside its domain. Double: std::log.
template <typename T>
MF_ALWAYS_INLINE T log_positive(T x) {
  if constexpr (std::is_same_v<T, double>) {
    return std::log(x);
  } else {
    const uint32_t bits = bits_of(x);
    const float mantissa = float_of((bits & 0x007fffffu) | 0x3f800000u);  // in [1, 2)
    const bool high = mantissa > 1.41421356f;
    const float m = high ? mantissa * 0.5f : mantissa;
    const float exponent = static_cast<float>(static_cast<int32_t>(bits >> 23) - 127);
    const float e = high ? exponent + 1 : exponent;  // (a select of integers would not vectorize)
    const float f = m - 1, z = f * f;
    float p = fma(f, 7.0376836292e-2f, -1.1514610310e-1f);
    p = fma(p, f, 1.1676998740e-1f);
    p = fma(p, f, -1.2420140846e-1f);
    p = fma(p, f, 1.4249322787e-1f);
    p = fma(p, f, -1.6668057665e-1f);
    p = fma(p, f, 2.0000714765e-1f);
    p = fma(p, f, -2.4999993993e-1f);
    p = fma(p, f, 3.3333331174e-1f);
    // ln2 in two parts (0.693359375 - 2.12194440e-4), the small one added first.
    const float y = ((p * f * z + e * -2.12194440e-4f) - 0.5f * z + f) + e * 0.693359375f;
    return x < std::numeric_limits<float>::infinity() ? y : x;  // NaN fails the comparison too
  }
}

// Phi(x) and phi(x); gelu(x) = x Phi(x), so gelu'(x) = Phi(x) + x phi(x), with phi(x) = exp(-x^2 / 2) / sqrt(2 pi)
// and Phi(x) = (1 + erf(x / sqrt 2)) / 2. Phi from Abramowitz and Stegun 7.1.26, 1 - erf(z) =
// t (a1 + a2 t + ... + a5 t^4) exp(-z^2) with t = 1 / (1 + p z) for z >= 0 (absolute error
// below 1.5e-7), whose exp(-z^2) is phi's exp(-x^2 / 2): no libm call, so the loop vectorizes.
MF_ALWAYS_INLINE float normal_cdf_and_density(float x, float& density) {
  const float gauss = exp_nonpositive(-0.5f * x * x), inv_sqrt_2pi = static_cast<float>(M_2_SQRTPI * M_SQRT1_2 / 2);
  density = inv_sqrt_2pi * gauss;
  const float t = 1 / (1 + 0.3275911f * static_cast<float>(M_SQRT1_2) * std::fabs(x));
  float p = fma(t, 1.061405429f, -1.453152027f);
  p = fma(p, t, 1.421413741f);
  p = fma(p, t, -0.284496736f);
  p = fma(p, t, 0.254829592f);
  const float tail = 0.5f * t * p * gauss;  // Phi(-|x|) = (1 - erf(|x| / sqrt 2)) / 2
  // Phi(x) = tail for negative x, 1 - tail otherwise (chosen by the sign bit, not by a comparison).
  const uint32_t negative = 0u - (bits_of(x) >> 31);
  return float_of((bits_of(tail) & negative) | (bits_of(1 - tail) & ~negative));
}

// 1 / (1 + exp(-x)) from e = exp(-|x|), which never overflows: 1 / (1 + e) for x >= 0 and
// e / (1 + e) below (the sign bit chooses); within a few ulps, NaN kept.
MF_ALWAYS_INLINE float sigmoid(float x) {
  const uint32_t negative = 0u - (bits_of(x) >> 31);
  const float e = exp_nonpositive(float_of(bits_of(x) | 0x80000000u));
  const float s = 1 / (1 + e);
  return float_of((bits_of(e * s) & negative) | (bits_of(s) & ~negative));
}

// tanh(x) = d / (d + 2) with d = expm1(2|x|) (Sleef's tanhf_u35 form): below |x| = 0.625 as
// that, above as 1 - 2 / (d + 2), whose error is far below 1's ulp where tanh nears 1, so
// that it is within about half an ulp there, as torch's (Eigen's rational, used before, was
// 4 ulps off, and 1 - tanh(x)^2, a squashed Gaussian's log-density term, differed from
// torch's by percents). expm1(y) for y in [0, 18.2]: y = k ln2 + r, |r| <= ln2 / 2,
// r + r^2 p(r) (Sleef's expm1fk polynomial) where k = 0, 2^k (1 + r + r^2 p(r)) - 1
// elsewhere. |x| clamped to 9.1, past which tanh rounds to 1; the sign put back; x itself
// where tanh(x) rounds to x; NaN kept; no branch, so that loops vectorize.
MF_ALWAYS_INLINE float tanh(float x) {
  const uint32_t tiny = bits_of(0.0004f), near = bits_of(0.625f), limit = bits_of(9.1f);
  const uint32_t bits = bits_of(x), sign = bits & 0x80000000u, magnitude = bits ^ sign;
  const uint32_t kept = 0u - static_cast<uint32_t>((magnitude < tiny) | (magnitude > 0x7f800000u));  // or NaN
  const uint32_t small = 0u - static_cast<uint32_t>(magnitude < near);
  const uint32_t big = 0u - static_cast<uint32_t>(magnitude > limit);
  const float y = 2 * float_of((magnitude & ~big) | (limit & big));
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float k = fma(y, 1.44269504088896341f, kRound) - kRound;
  const float r = fma(k, -1.428606765330187e-06f, fma(k, -0.693145751953125f, y));
  float p = fma(r, 0.000198527617612853646278381f, 0.00139304355252534151077271f);
  p = fma(p, r, 0.00833336077630519866943359f);
  p = fma(p, r, 0.0416664853692054748535156f);
  p = fma(p, r, 0.166666671633720397949219f);
  p = fma(p, r, 0.5f);
  const float u = fma(r * r, p, r);  // expm1(r)
  const float two_k = power_of_two(static_cast<int32_t>(k));
  const uint32_t reduced = 0u - static_cast<uint32_t>(bits_of(k) == 0);  // k = 0 (k >= 0 here)
  const float d = float_of((bits_of(u) & reduced) | (bits_of(fma(u, two_k, two_k - 1)) & ~reduced));
  const float q = float_of((bits_of(d) & small) | (bits_of(2.0f) & ~small)) / (d + 2);
  const uint32_t t = (bits_of(q) & small) | (bits_of(1 - q) & ~small);
  return float_of(((t & ~kept) | (magnitude & kept)) | sign);
}

// silu(x) = x sigmoid(x); silu'(x) = s (1 + x (1 - s)) with s = sigmoid(x).
MF_ALWAYS_INLINE float silu(float x) { return x * sigmoid(x); }

MF_ALWAYS_INLINE float silu_grad(float x) {
  const float s = sigmoid(x);
  return s * (1 + x * (1 - s));
}

MF_ALWAYS_INLINE float gelu(float x) {
  float density;
  return x * normal_cdf_and_density(x, density);
}

MF_ALWAYS_INLINE float gelu_grad(float x) {
  float density;
  const float cdf = normal_cdf_and_density(x, density);
  return cdf + x * density;
}

// gelu's tanh approximation and its slope, elementwise_math.h's formulas through this tanh.
MF_ALWAYS_INLINE float gelu_tanh(float x) { return scalar::gelu_tanh_of(x, tanh(scalar::gelu_tanh_inner(x))); }

MF_ALWAYS_INLINE float gelu_tanh_grad(float x) {
  return scalar::gelu_tanh_slope(x, tanh(scalar::gelu_tanh_inner(x)));
}

// An op's functor `f` (elementwise_math.h) with float32 through kFast, this file's
// vectorizing form of it (a constant, and the lambda always inlined, so that the loops
// calling it inline it: tanh's, once it grew, was called out of line, its fma through libm's
// fmaf, 100 times slower).
template <float (*kFast)(float), typename F>
auto float32_by(F f) {
  return [f](auto x) __attribute__((always_inline)) {
    if constexpr (std::is_same_v<decltype(x), float>) {
      return kFast(x);
    } else {
      return f(x);
    }
  };
}

}  // namespace mf::fast_math
