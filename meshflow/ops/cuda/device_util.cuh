// Copyright 2026 The meshflow Authors.
// Device helpers shared by the CUDA kernels of index.cu, nn.cu and matmul.cu: grid-stride loop bounds
// and the CPU's wrapping integer addition. Header-only; no state.
#pragma once

#include <cstdint>
#include <type_traits>

namespace mf::cuda {

// A grid-stride loop's first element for this thread, and its step.
inline __device__ int64_t first_index() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
inline __device__ int64_t grid_step() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

// a + b, integers wrapping around as the CPU's (signed overflow is undefined in C++).
template <typename T>
__device__ T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

}  // namespace mf::cuda
