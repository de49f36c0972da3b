// Copyright 2026 The meshflow Authors.
// FftPlan (ops/fft.h) against the O(n^2) DFT summed in long double: every length path
// (powers of 2 and 4, the written-out radices 3 and 5, generic primes up to kMaxRadix, and
// Bluestein for larger primes and their products), both directions, float and double, and
// in-place calls; the round trip of forward then backward is n times the input.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "meshflow/ops/fft.h"

namespace mf {
namespace {

template <typename T>
std::vector<std::complex<T>> random_signal(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<T>> x(n);
  for (auto& v : x) v = std::complex<T>(static_cast<T>(u(gen)), static_cast<T>(u(gen)));
  return x;
}

template <typename T>
std::vector<std::complex<long double>> naive_dft(const std::vector<std::complex<T>>& x, bool forward) {
  const int64_t n = static_cast<int64_t>(x.size());
  const long double pi = 3.141592653589793238462643383279502884L, sign = forward ? -1 : 1;
  std::vector<std::complex<long double>> roots(n), out(n);
  for (int64_t k = 0; k < n; ++k) roots[k] = std::polar(1.0L, sign * 2 * pi * static_cast<long double>(k) / n);
  for (int64_t k = 0; k < n; ++k) {
    std::complex<long double> sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += std::complex<long double>(x[j].real(), x[j].imag()) * roots[j * k % n];
    out[k] = sum;
  }
  return out;
}

// The largest error relative to the signal's norm (sqrt(n) for unit entries).
template <typename T>
double max_error(const std::vector<std::complex<T>>& got, const std::vector<std::complex<long double>>& want) {
  double err = 0, norm = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    err = std::max(err, static_cast<double>(std::abs(std::complex<long double>(got[k].real(), got[k].imag()) - want[k])));
    norm += static_cast<double>(std::norm(want[k]));
  }
  return err / std::sqrt(std::max(norm / static_cast<double>(got.size()), 1e-30));
}

template <typename T>
void check_length(int64_t n, double tolerance) {
  const auto plan = fft::plan_for<T>(n);
  std::vector<std::complex<T>> scratch(plan->scratch_size());
  for (bool forward : {true, false}) {
    const auto x = random_signal<T>(n, static_cast<unsigned>(n * 2 + forward));
    std::vector<std::complex<T>> out(n);
    plan->execute(x.data(), out.data(), forward, scratch.data());
    EXPECT_LT(max_error(out, naive_dft(x, forward)), tolerance) << "n=" << n << " forward=" << forward;
    std::vector<std::complex<T>> in_place = x;
    plan->execute(in_place.data(), in_place.data(), forward, scratch.data());
    EXPECT_EQ(in_place, out) << "n=" << n << ": in place differs";
  }
}

const int64_t kLengths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 25, 30, 32, 49, 60, 64, 97,
                            100, 121, 127, 128, 210, 243, 256, 289, 341, 500, 512, 1000, 1009, 1024, 2310};

TEST(FftPlan, FloatMatchesTheDft) {
  for (int64_t n : kLengths) check_length<float>(n, 2e-5 * std::log2(static_cast<double>(n) + 2));
}

TEST(FftPlan, DoubleMatchesTheDft) {
  for (int64_t n : kLengths) check_length<double>(n, 1e-13 * std::log2(static_cast<double>(n) + 2));
}

TEST(FftPlan, RoundTripScalesByN) {
  for (int64_t n : {7, 64, 101, 360, 4099}) {
    const auto plan = fft::plan_for<double>(n);
    std::vector<std::complex<double>> scratch(plan->scratch_size());
    const auto x = random_signal<double>(n, 7);
    std::vector<std::complex<double>> y(n);
    plan->execute(x.data(), y.data(), true, scratch.data());
    plan->execute(y.data(), y.data(), false, scratch.data());
    for (int64_t k = 0; k < n; ++k) EXPECT_NEAR(std::abs(y[k] / static_cast<double>(n) - x[k]), 0, 1e-12) << n;
  }
}

TEST(FftPlan, RefusesLengthZero) { EXPECT_THROW(fft::FftPlan<float>(0), std::invalid_argument); }

}  // namespace
}  // namespace mf
