// Copyright 2026 The meshflow Authors.
// The element that the creation ops zeros, ones and full write, on every device type
// (ops/creation.cc, ops/cuda/creation.cu). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "meshflow/core/dtype.h"

namespace mf {

// float16's largest finite value: a number past it in magnitude does not fit (torch's fill_
// refuses it; the conversion rounds it to infinity).
constexpr double kHalfMax = 65504.0;

// `value` as an element of type T (`exact`: the attribute's value where it is an int, exact in
// an integer type at any size): a half rounds from float32, as the ops widened to float32
// round; bool takes nonzero as true.
template <typename T>
T fill_value_as(double value, std::optional<int64_t> exact) {
  if constexpr (is_half_v<T>) {
    return from_float<T>(static_cast<float>(value));
  } else {
    return std::is_integral_v<T> && exact ? static_cast<T>(*exact) : static_cast<T>(value);
  }
}

}  // namespace mf
