// Copyright 2026 The meshflow Authors.
// The discrete Fourier transform of one length, for the fft ops (fft.cc) and their tests.
//
// FftPlan<T>(n) computes out[k] = sum_j in[j] exp(-+2 pi i j k / n), unnormalized, for any
// n >= 1 in O(n log n): a Stockham autosort pass per factor of n (radix 4, 2, 3, 5 butterflies
// written out, other primes up to kMaxRadix by their O(p^2) sum), and Bluestein's chirp-z
// algorithm (a convolution by power-of-two FFTs) for lengths with a larger prime factor.
// Twiddles are computed in double, so float plans keep float32's accuracy at large n.
// A plan is immutable once built: execute may run on many threads at once, each with its
// own scratch (scratch_size() elements).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace mf::fft {

template <typename T>
class FftPlan {
 public:
  using C = std::complex<T>;
  // Primes above this go through Bluestein's algorithm.
  static constexpr int64_t kMaxRadix = 16;

  explicit FftPlan(int64_t n);
  int64_t size() const { return n_; }
  int64_t scratch_size() const;
  // out = the DFT of in (forward: exp(-...); else exp(+...), unnormalized). in and out may be
  // the same array; scratch holds scratch_size() elements.
  void execute(const C* in, C* out, bool forward, C* scratch) const;

 private:
  struct Stage {
    int64_t radix, span;    // span: the product of the radices before this one
    std::vector<C> twiddles;  // [span][radix]: exp(-2 pi i r (j % span) / (span radix))
  };
  void stockham(C* data, C* work, bool forward) const;  // result in data
  void bluestein(const C* in, C* out, bool forward, C* scratch) const;

  int64_t n_;
  std::vector<Stage> stages_;
  std::vector<C> roots_;  // exp(-2 pi i k / p) for the generic radix p's (largest p)
  // Bluestein: the chirp exp(-pi i k^2 / n), the padded convolution's plan and its kernel's FFT.
  std::vector<C> chirp_;
  std::unique_ptr<FftPlan> padded_;
  std::vector<C> kernel_fft_;
};

// The plan of length n, built once per length and type and kept (a few lengths recur in a
// program; the cache holds the most recent ones). Thread-safe.
template <typename T>
std::shared_ptr<const FftPlan<T>> plan_for(int64_t n);

extern template class FftPlan<float>;
extern template class FftPlan<double>;

}  // namespace mf::fft
