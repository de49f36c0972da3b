// Copyright 2026 The meshflow Authors.
// Sums and maxima of floating rows in independent lanes, for the CPU's row kernels
// (ops/rows.cc, ops/reduce.cc): element j of a row goes to lane j % kLanes<T> (64 bytes of
// lanes: 16 floats, 8 doubles), so the vector units never wait on one add's latency, and at
// the end the lanes are folded halves into halves. The fold is written on GCC's vector
// types and the accumulation on fixed-size lane arrays, so the order of the operations,
// and with it every bit of a result, is the same whichever x86-64 level the caller is
// built for (core/loops.h, MF_MULTIVERSIONED): an AVX-512 version holds a set of lanes in
// one register, an AVX2 one in two, the baseline in four.
//
// Everything here is inlined into its caller (always_inline: its lambdas too, and the
// functors a caller passes must be), whose level chooses the instructions: a function that takes or returns a vector, called
// out of line, is built once for the baseline, which takes 64-byte vectors in memory, while
// an AVX-512 caller passes them in registers (the callee then reads garbage). GCC inlines a
// plain lambda only while its budget lasts, which a growing translation unit or -O1 ends.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "meshflow/ops/fast_math.h"

// GCC notes that a 64-byte vector passed by value changes ABI with AVX-512; these are always
// inlined, never called (MF_INLINE_LAMBDA, below). (GCC reports it where the translation unit
// ends: the note is off for the rest of the including file.)
#pragma GCC diagnostic ignored "-Wpsabi"

// Written after a lambda's parameters: the lambda is inlined whatever GCC's budget (above).
#define MF_INLINE_LAMBDA __attribute__((always_inline))

namespace mf::kernel::lanes {

template <typename T>
constexpr int kLanes = 64 / static_cast<int>(sizeof(T));

template <typename T>
struct VecOf {
  typedef T type __attribute__((vector_size(64)));
};
template <typename T>
using Vec = typename VecOf<T>::type;

// accumulate (below) for K sets of lanes at once (sets[k], a kLanes<T> array each): f(v, j)
// folds element j into v[k], lane l of set k, for each k. Sums that share their inputs load
// them once, and their chains of adds overlap.
template <int K, typename T, typename F>
MF_ALWAYS_INLINE void accumulate_sets(T (*sets)[kLanes<T>], int64_t n, F f) {
  constexpr int kL = kLanes<T>;
  auto fold = [&](int l, int64_t j, bool keep) MF_INLINE_LAMBDA {
    T v[K];
    for (int k = 0; k < K; ++k) v[k] = sets[k][l];
    f(v, j);
    for (int k = 0; k < K; ++k) sets[k][l] = keep ? v[k] : sets[k][l];
  };
  int64_t j = 0;
  for (; j + kL <= n; j += kL) {
#pragma omp simd
    for (int l = 0; l < kL; ++l) fold(l, j + l, true);
  }
  if (j == n) return;
  if (n >= kL) {
    const int64_t last = n - kL;
#pragma omp simd
    for (int l = 0; l < kL; ++l) fold(l, last + l, last + l >= j);
    return;
  }
  for (int l = 0; l < n; ++l) fold(l, l, true);  // a row shorter than the lanes
}

// lanes[l] = f(lanes[l], j) for each j in [0, n): f folds element j of one or more rows into
// the lane (lanes must start at the fold's identity). Element j goes to lane j % kLanes<T>,
// but for a last partial set of a row of at least kLanes<T>: that set is taken as the last
// kLanes<T> elements, element j to lane j - (n - kLanes<T>), f run on all of them and its
// results kept for the new ones (so f must be free of side effects other than writing the
// same value again). A condition on f's result vectorizes; a condition around f (its calls
// of fma, fast_math.h) would not.
template <typename T, typename F>
MF_ALWAYS_INLINE void accumulate(T* lanes, int64_t n, F f) {
  accumulate_sets<1>(reinterpret_cast<T(*)[kLanes<T>]>(lanes), n,
                     [&f](T* v, int64_t j) MF_INLINE_LAMBDA { v[0] = f(v[0], j); });
}

template <typename T>
MF_ALWAYS_INLINE void fill(T* lanes, T value) {
  for (int l = 0; l < kLanes<T>; ++l) lanes[l] = value;
}

// The lanes folded by f (on vectors), halves into halves.
template <typename T, typename F>
MF_ALWAYS_INLINE T fold(const T* lanes, F f) {
  using I = Vec<std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>;
  Vec<T> v;
  std::memcpy(&v, lanes, sizeof v);
  if constexpr (kLanes<T> == 16) {
    v = f(v, __builtin_shuffle(v, I{8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7}));
    v = f(v, __builtin_shuffle(v, I{4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11}));
    v = f(v, __builtin_shuffle(v, I{2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13}));
    v = f(v, __builtin_shuffle(v, I{1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14}));
  } else {
    static_assert(kLanes<T> == 8);
    v = f(v, __builtin_shuffle(v, I{4, 5, 6, 7, 0, 1, 2, 3}));
    v = f(v, __builtin_shuffle(v, I{2, 3, 0, 1, 6, 7, 4, 5}));
    v = f(v, __builtin_shuffle(v, I{1, 0, 3, 2, 5, 4, 7, 6}));
  }
  return v[0];
}

// out[i] = the f-fold of sets[i] (as fold's) for kLanes<T> sets at once: each step folds
// the pairs of adjacent sets' halves into one vector, so that the last step leaves set i's
// fold in lane i, after as many shuffles as fold spends on two sets.
template <typename T, typename F>
MF_ALWAYS_INLINE void fold_sets(const T (*sets)[kLanes<T>], T* out, F f) {
  using I = Vec<std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>;
  constexpr int kL = kLanes<T>;
  Vec<T> v[kL];
  std::memcpy(v, sets, sizeof v);
  // Pairs (a, b) = (v[2k], v[2k + 1]) of `count` vectors, each `h`-lane halves side by side.
  auto step = [&v, f](int count, I lo, I hi) MF_INLINE_LAMBDA {
    for (int k = 0; k < count / 2; ++k) {
      v[k] = f(__builtin_shuffle(v[2 * k], v[2 * k + 1], lo), __builtin_shuffle(v[2 * k], v[2 * k + 1], hi));
    }
  };
  if constexpr (kL == 16) {
    step(16, I{0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23},
         I{8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31});
    step(8, I{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27},
         I{4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31});
    step(4, I{0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29},
         I{2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31});
    step(2, I{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30},
         I{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31});
  } else {
    static_assert(kL == 8);
    step(8, I{0, 1, 2, 3, 8, 9, 10, 11}, I{4, 5, 6, 7, 12, 13, 14, 15});
    step(4, I{0, 1, 4, 5, 8, 9, 12, 13}, I{2, 3, 6, 7, 10, 11, 14, 15});
    step(2, I{0, 2, 4, 6, 8, 10, 12, 14}, I{1, 3, 5, 7, 9, 11, 13, 15});
  }
  std::memcpy(out, v, sizeof v[0]);
}

template <typename T>
MF_ALWAYS_INLINE void sums(const T (*sets)[kLanes<T>], T* out) {
  fold_sets(sets, out, [](Vec<T> a, Vec<T> b) MF_INLINE_LAMBDA { return a + b; });
}

template <typename T>
MF_ALWAYS_INLINE void maxima(const T (*sets)[kLanes<T>], T* out) {
  fold_sets(sets, out, [](Vec<T> a, Vec<T> b) MF_INLINE_LAMBDA { return b > a ? b : a; });
}

template <typename T>
MF_ALWAYS_INLINE T sum(const T* lanes) {
  return fold(lanes, [](Vec<T> a, Vec<T> b) MF_INLINE_LAMBDA { return a + b; });
}

// The larger of the lanes; a NaN lane is passed over (the row kernels see NaN elsewhere).
template <typename T>
MF_ALWAYS_INLINE T max(const T* lanes) {
  return fold(lanes, [](Vec<T> a, Vec<T> b) MF_INLINE_LAMBDA { return b > a ? b : a; });
}

}  // namespace mf::kernel::lanes
