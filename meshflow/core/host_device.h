// Copyright 2026 The meshflow Authors.
// MF_HOST_DEVICE marks a function written once for the CPU's kernels and the GPU's: nvcc
// compiles it for both (__host__ __device__), every other compiler sees a plain function.
// Such functions are pure: they touch only their arguments, so they are thread-safe.
#pragma once

#ifdef __CUDACC__
#define MF_HOST_DEVICE __host__ __device__
#else
#define MF_HOST_DEVICE
#endif
