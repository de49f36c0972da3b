// Copyright 2026 The meshflow Authors.
// The values of arange and linspace (ops/creation.cc; ops/cuda/creation.cu), written once for
// the CPU's kernels and the GPU's (MF_HOST_DEVICE). Each element's value is a function of its
// LOGICAL index, so a global tensor equals the local one on any placement and SBP, and the
// devices agree bit for bit.
//
// They are PyTorch's CPU values bit for bit: ported code builds grids, bins, positions and
// schedules from them, and one ulp moves a sample across a boundary. What makes torch's values:
//  - each `a + b * i` is one fused multiply-add (its compiler contracts them);
//  - arange computes in double and fills float32 and float64 in 256-bit vectors, two per
//    step of its loop: inside such a pair an element counts from its own vector's first value
//    (rounded to the dtype), and the elements after the last whole pair count from start.
//    torch splits an arange of more than 32768 elements among its threads, each part counted
//    the same way from its own first element: these are the values it gives on one thread;
//  - an integer arange truncates start and step to integers first (0 .. 5.5 by 0.5 is all
//    zeros, as torch's);
//  - linspace counts the first half of its values from start and the rest back from end, in
//    float for float32, in double for float64 and integers, whose start and end it truncates
//    to integers first.
//  - logspace is base ** the exponents linspace would give, without fused multiply-adds (torch's
//    loop is outside its vectorized kernels): in double for the floats (float32's ends rounded
//    to float first), in float for the integers (ends truncated; powf), each then converted.
//    On the GPU, pow is CUDA's, which may differ from the CPU's in the last bit.
// bfloat16 and float16 take float32's values, rounded (torch's computes in their own
// arithmetic, and differs from these in the last bit at places).
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "meshflow/core/host_device.h"

namespace mf::rangemath {

// arange's element i (of n) in T, a floating type. (Integer dtypes count in int64:
// start + i * step, wrapping.)
template <typename T>
MF_HOST_DEVICE inline T arange_value(double start, double step, int64_t i, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    constexpr int64_t lanes = 32 / sizeof(T), pair = 2 * lanes;
    if (i < n / pair * pair) {
      const int64_t first = i / lanes * lanes;
      const T base = static_cast<T>(std::fma(step, static_cast<double>(first), start));
      return static_cast<T>(std::fma(static_cast<double>(i - first), step, static_cast<double>(base)));
    }
  }
  return static_cast<T>(std::fma(step, static_cast<double>(i), start));
}

// An integer arange's start or step given as a float: truncated (a step beyond int64 leaves one
// element, i = 0, whatever the step: 0 then).
inline int64_t truncated_int(double value) {
  value = std::trunc(value);
  return std::fabs(value) < 0x1p63 ? static_cast<int64_t>(value) : 0;
}

// A value computed in C as an element of T: integers truncate (through int64, wrapping into the
// small ones, as torch's conversions on x86; beyond int64 or NaN, int64's lowest, as x86's).
template <typename T, typename C>
MF_HOST_DEVICE inline T to_element(C value) {
  if constexpr (std::is_integral_v<T>) {
    const bool fits = std::fabs(static_cast<double>(value)) < 0x1p63;  // false for NaN
    return static_cast<T>(fits ? static_cast<int64_t>(value) : INT64_MIN);
  } else {
    return static_cast<T>(value);
  }
}

// linspace's ends and step in its compute type C: float for float32, double for float64 and
// the integers (whose ends are truncated first).
template <typename C>
struct Linspace {
  C start, end, step;
  int64_t steps;
};

// For elements of type T: C is float for float32 (and the halves, computed as float32), double
// for float64 and the integers.
template <typename T, typename C = std::conditional_t<std::is_integral_v<T> || std::is_same_v<T, double>, double, float>>
Linspace<C> linspace_of(double start, double end, int64_t steps) {
  if constexpr (std::is_integral_v<T>) start = std::trunc(start), end = std::trunc(end);
  const C first = static_cast<C>(start), last = static_cast<C>(end);
  const C step = steps > 1 ? (last - first) / static_cast<C>(steps - 1) : C{0};
  return {first, last, step, steps};
}

// linspace's element i, in C (the caller converts it to the dtype; integers truncate).
template <typename C>
MF_HOST_DEVICE inline C linspace_value(const Linspace<C>& l, int64_t i) {
  if (l.steps == 1) return l.start;
  if (i < l.steps / 2) return std::fma(l.step, static_cast<C>(i), l.start);
  return std::fma(-l.step, static_cast<C>(l.steps - i - 1), l.end);
}

// a * b + c rounded twice, as torch's logspace computes it (the build and nvcc would fuse it).
template <typename C>
MF_HOST_DEVICE inline C unfused(C a, C b, C c) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<C, float>) return __fadd_rn(__fmul_rn(a, b), c);
  else return __dadd_rn(__dmul_rn(a, b), c);
#else
  return a * b + c;  // CMakeLists.txt keeps products and sums apart (-ffp-contract=off)
#endif
}

// logspace's exponents in C (double for the floats, float for the integers) and its base.
template <typename C>
struct Logspace {
  Linspace<C> exponents;
  C base;
  double single_exponent;  // steps == 1: the start as given
};

// For elements of type T: C is float for the integers, double for the floats.
template <typename T, typename C = std::conditional_t<std::is_integral_v<T>, float, double>>
Logspace<C> logspace_of(double start, double end, double base, int64_t steps) {
  C first, last, difference;
  if constexpr (std::is_integral_v<T>) {
    first = static_cast<C>(std::trunc(start)), last = static_cast<C>(std::trunc(end));
    difference = last - first;
  } else if constexpr (std::is_same_v<T, float>) {
    // float32's ends are floats, and its step divides their float difference in double.
    // (volatile: GCC 12's SLP vectorizer widens the pair back to the unrounded doubles.)
    const volatile float start32 = static_cast<float>(start), end32 = static_cast<float>(end);
    first = start32, last = end32, difference = end32 - start32;
  } else {
    first = start, last = end, difference = last - first;
  }
  const C step = steps > 1 ? difference / static_cast<C>(steps - 1) : C{0};
  return {{first, last, step, steps}, static_cast<C>(base), start};
}

template <typename C>
MF_HOST_DEVICE inline double logspace_value(const Logspace<C>& l, int64_t i) {
  const Linspace<C>& e = l.exponents;
  if (e.steps == 1) return std::pow(static_cast<double>(l.base), l.single_exponent);
  const C exponent = i < e.steps / 2 ? unfused(e.step, static_cast<C>(i), e.start)
                                     : unfused(-e.step, static_cast<C>(e.steps - i - 1), e.end);
  return std::pow(l.base, exponent);
}

}  // namespace mf::rangemath
