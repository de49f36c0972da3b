// Copyright 2026 The meshflow Authors.
// x ** s for a scalar exponent s (pow_scalar), as torch computes it, written once for the
// CPU's kernel (ops/elementwise.cc) and the GPU's (ops/cuda/elementwise.cu): host and device
// code alike. torch's kernels (aten's pow_tensor_scalar, CPU and CUDA) give some exponents
// their own loops: 0 fills 1, 1 copies, 2 and 3 multiply, -2 is 1 / (x x), 0.5 sqrt, -0.5
// 1 / sqrt, -1 1 / x; the others call pow. Those loops' results are torch's (x x x rounds
// twice; sqrt(-0) is -0 and sqrt(-inf) NaN, where pow gives 0 and inf), so taking the same
// ones gives its bits, and the loops vectorize where pow is a library call per element.
// Integers multiply for 0 to 3 (wrapping, which is what integer_power's squaring gives) and
// use integer_power otherwise. Header-only; no state.
#pragma once

#include <cmath>
#include <type_traits>

#include "meshflow/ops/integer_math.h"

namespace mf::kernel {

// Which loop an exponent takes.
enum class ScalarPower { kZero, kOne, kSquare, kCube, kInverse, kInverseSquare, kSqrt, kInverseSqrt, kAny };

// The loop of exponent s, in the dtype the kernel computes in.
template <typename T>
MF_HOST_DEVICE ScalarPower scalar_power_of(T s) {
  if (s == T(0)) return ScalarPower::kZero;
  if (s == T(1)) return ScalarPower::kOne;
  if (s == T(2)) return ScalarPower::kSquare;
  if (s == T(3)) return ScalarPower::kCube;
  if constexpr (!std::is_integral_v<T>) {
    if (s == T(-1)) return ScalarPower::kInverse;
    if (s == T(-2)) return ScalarPower::kInverseSquare;
    if (s == T(0.5)) return ScalarPower::kSqrt;
    if (s == T(-0.5)) return ScalarPower::kInverseSqrt;
  }
  return ScalarPower::kAny;
}

// a * b, integers wrapping modulo 2^bits (multiplied unsigned, at least as wide as unsigned
// int so that small types do not promote to a signed int that could overflow).
template <typename T>
MF_HOST_DEVICE T times(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// x ** s by the loop kPower (scalar_power_of(s)); s is read only by kAny.
template <ScalarPower kPower, typename T>
MF_HOST_DEVICE T scalar_power(T x, T s) {
  using std::pow;
  using std::sqrt;
  if constexpr (kPower == ScalarPower::kZero) {
    return T(1);
  } else if constexpr (kPower == ScalarPower::kOne) {
    return x;
  } else if constexpr (kPower == ScalarPower::kSquare) {
    return times(x, x);
  } else if constexpr (kPower == ScalarPower::kCube) {
    return times(times(x, x), x);
  } else if constexpr (std::is_integral_v<T>) {
    return integer_power(x, s);
  } else if constexpr (kPower == ScalarPower::kInverse) {
    return T(1) / x;
  } else if constexpr (kPower == ScalarPower::kInverseSquare) {
    return T(1) / (x * x);
  } else if constexpr (kPower == ScalarPower::kSqrt) {
    return sqrt(x);
  } else if constexpr (kPower == ScalarPower::kInverseSqrt) {
    return T(1) / sqrt(x);
  } else {
    return pow(x, s);
  }
}

// f(std::integral_constant<ScalarPower, k>{}) for k = scalar_power_of(s): the loop chosen
// once (the CPU's per tensor, the GPU's per element: every thread takes the same branch),
// with its exponent known to the compiler.
template <typename T, typename F>
MF_HOST_DEVICE decltype(auto) with_scalar_power(T s, F&& f) {
  using P = ScalarPower;
  switch (scalar_power_of(s)) {
    case P::kZero: return f(std::integral_constant<P, P::kZero>{});
    case P::kOne: return f(std::integral_constant<P, P::kOne>{});
    case P::kSquare: return f(std::integral_constant<P, P::kSquare>{});
    case P::kCube: return f(std::integral_constant<P, P::kCube>{});
    case P::kInverse: return f(std::integral_constant<P, P::kInverse>{});
    case P::kInverseSquare: return f(std::integral_constant<P, P::kInverseSquare>{});
    case P::kSqrt: return f(std::integral_constant<P, P::kSqrt>{});
    case P::kInverseSqrt: return f(std::integral_constant<P, P::kInverseSqrt>{});
    default: return f(std::integral_constant<P, P::kAny>{});
  }
}

}  // namespace mf::kernel
