// Copyright 2026 The meshflow Authors.
// CPU loops for kernels: vectorized, on the OpenMP team above a size threshold, and built
// for several x86-64 levels. In core so that the layers below the ops (tensor arithmetic,
// boxing's reductions, autograd's gradient sums) use the same loops as the op kernels.
// Thread-safety: the helpers are reentrant; `body` must be safe to call for different i at
// once.
#pragma once

#include <omp.h>

#include <cstdint>

namespace mf::kernel {

// Elements below which a loop stays on one thread (thread start-up would dominate).
constexpr int64_t kParallelGrain = 1 << 15;

// Whether a loop that may run on the team (`parallel`) opens it: never from inside a parallel
// region (graph mode's fused chains run blocks on the team; a kernel inside one must not open
// a nested team, which libgomp starts with threads of its own), nor for a team of one thread,
// whose region costs about a microsecond and does the same work in the same order.
inline bool opens_team(bool parallel) { return parallel && !omp_in_parallel() && omp_get_max_threads() > 1; }

// Whether a loop of `work` elements opens the OpenMP team: only above the grain (opens_team).
inline bool use_team(int64_t work) { return opens_team(work > kParallelGrain); }

// The hot elementwise loops below are compiled for three x86-64 levels, one picked at load
// time for the CPU at hand (GCC's function multiversioning): AVX-512 and AVX2 machines run
// 16- and 8-wide loops while the library still runs on any x86-64. Floating-point
// contraction is off in the build (CMakeLists.txt), so every version gives the same bits.
// Not under ThreadSanitizer: the loader runs the versions' resolvers before its runtime is
// up, and the process crashes at start. Flattened: every call inside (a loop's body, the
// math it calls) is inlined into each version, so it is built for that version's level; a
// body GCC left out of line was built for the default level alone, its fma a call to libm's
// fmaf, its loop scalar (softplus ran 60 times slower than its vectorized form).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define MF_MULTIVERSIONED __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define MF_MULTIVERSIONED
#endif

// body(i) for i in [0, n) as one vectorized loop, on the OpenMP team when n is large. A
// small loop opens no parallel region at all: opening one costs about a microsecond even
// for a team of one, which graph mode's fused chains (graph/fusion.h) would pay per op and
// block. (An `if` clause on `parallel for simd` would also turn off the vectorization.)
template <typename F>
MF_MULTIVERSIONED void simd_for(int64_t n, F body) {
  if (use_team(n)) {
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; ++i) body(i);
  } else {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) body(i);
  }
}

// body(i) for i in [0, n) as one vectorized loop on the calling thread, whatever n: for
// threads that must not open an OpenMP team of their own (the comm stream's).
template <typename F>
MF_MULTIVERSIONED void simd_loop(int64_t n, F body) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) body(i);
}

// body(i) for i in [0, n), on the OpenMP team when `parallel` (and opens_team: no region
// opened otherwise, since even an inactive one costs a microsecond).
template <typename F>
MF_MULTIVERSIONED void team_for(int64_t n, bool parallel, F body) {
  if (opens_team(parallel)) {
#pragma omp parallel for
    for (int64_t i = 0; i < n; ++i) body(i);
  } else {
    for (int64_t i = 0; i < n; ++i) body(i);
  }
}

// team_for built once, at the build's baseline: for loops over rows or chunks whose bodies
// are not the hot elementwise math (normalizations, gathers, copies). Multiversioning them
// too would triple their code and push large translation units (ops/nn.cc) past GCC's
// inlining budget, after which the fast_math calls in their hot loops stay out of line.
template <typename F>
void parallel_for(int64_t n, bool parallel, F body) {
  if (opens_team(parallel)) {
#pragma omp parallel for
    for (int64_t i = 0; i < n; ++i) body(i);
  } else {
    for (int64_t i = 0; i < n; ++i) body(i);
  }
}

}  // namespace mf::kernel
