// Copyright 2026 The meshflow Authors.
// a * b + c rounded once, as torch's CPU kernels compute add(x, y, alpha=), addcmul and lerp
// (their vectorized fmadd), for the CPU's kernels and the GPU's alike (MF_HOST_DEVICE). On
// the CPU std::fma is one instruction where the build's x86-64 level has FMA (core/loops.h's
// clones), a libm call in the baseline's; on the GPU the round-to-nearest intrinsics.
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>
#include <type_traits>

#include "meshflow/core/host_device.h"

namespace mf::scalar {

template <typename T>
MF_HOST_DEVICE T fmadd(T a, T b, T c) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, float>) {
    return __fmaf_rn(a, b, c);
  } else {
    return __fma_rn(a, b, c);
  }
#else
  return std::fma(a, b, c);
#endif
}

}  // namespace mf::scalar
