// Copyright 2026 The meshflow Authors.
// Integer arithmetic with torch's rules, written once for the CPU's kernels (ops/*.cc) and the
// GPU's (ops/cuda/*.cu): host and device code alike. Header-only; no state.
#pragma once

#include <type_traits>

#include "meshflow/core/host_device.h"

namespace mf::kernel {

// torch.pow on integers: exact by squaring, wrapping modulo 2^bits; a negative exponent
// gives 1 for base 1, +-1 for base -1, else 0.
template <typename T>
MF_HOST_DEVICE T integer_power(T base, T exp) {
  static_assert(std::is_integral_v<T>, "integer_power takes integers");
  if (exp < 0) return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
  using U = std::make_unsigned_t<T>;
  U result = 1, b = static_cast<U>(base);
  for (; exp; exp >>= 1) {
    if (exp & 1) result *= b;
    b *= b;
  }
  return static_cast<T>(result);
}

// torch's << on integers (x86 CPU): in the unsigned type, so bits shifted out of a signed
// value wrap; a negative shift or one of the whole width or more gives 0.
template <typename T>
MF_HOST_DEVICE T shift_left(T x, T y) {
  static_assert(std::is_integral_v<T>, "shift_left takes integers");
  using U = std::make_unsigned_t<T>;
  constexpr int kBits = sizeof(T) * 8;
  if (static_cast<std::make_signed_t<T>>(y) < 0 || static_cast<U>(y) >= static_cast<U>(kBits)) return T{0};
  return static_cast<T>(static_cast<U>(static_cast<U>(x) << static_cast<int>(y)));
}

// torch's >> on integers: arithmetic for signed values; a negative or oversized shift acts
// as the widest one (the sign for signed values, 0 for unsigned).
template <typename T>
MF_HOST_DEVICE T shift_right(T x, T y) {
  static_assert(std::is_integral_v<T>, "shift_right takes integers");
  using U = std::make_unsigned_t<T>;
  constexpr int kMax = sizeof(T) * 8 - (std::is_signed_v<T> ? 1 : 0);
  if (static_cast<std::make_signed_t<T>>(y) < 0 || static_cast<U>(y) >= static_cast<U>(kMax)) {
    return static_cast<T>(x >> kMax);
  }
  return static_cast<T>(x >> static_cast<int>(y));
}

}  // namespace mf::kernel
