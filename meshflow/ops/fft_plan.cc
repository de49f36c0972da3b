// Copyright 2026 The meshflow Authors.
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "meshflow/core/lru_cache.h"
#include "meshflow/ops/fft.h"

namespace mf::fft {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

// exp(-2 pi i k / n) in double, k reduced first so that large k stay accurate.
std::complex<double> root(int64_t k, int64_t n) {
  k %= n;
  const double angle = -2 * kPi * static_cast<double>(k) / static_cast<double>(n);
  return {std::cos(angle), std::sin(angle)};
}

// n's factors in the order the passes take them: 4s, a 2, 3s, 5s, then the other primes.
std::vector<int64_t> factors(int64_t n) {
  std::vector<int64_t> f;
  while (n % 4 == 0) f.push_back(4), n /= 4;
  if (n % 2 == 0) f.push_back(2), n /= 2;
  for (int64_t p = 3; p * p <= n; p += 2) {
    while (n % p == 0) f.push_back(p), n /= p;
  }
  if (n > 1) f.push_back(n);
  return f;
}

// a * b without the C++ library's care for infinities (a call per product, unless
// -fcx-limited-range): the transforms' own products, whose twiddles are finite.
template <typename C>
C mul(C a, C b) {
  return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

template <typename C>
C times_minus_i(C x, bool forward) {  // x * -i (forward) or x * i
  return forward ? C(x.imag(), -x.real()) : C(-x.imag(), x.real());
}

// v[0..p) <- its DFT, in place: radix 2, 3, 4, 5 written out, others by their sum over
// `roots` (exp(-2 pi i k / p) for p = roots.size()).
template <typename C>
__attribute__((always_inline)) inline void butterfly(C* v, int64_t p, bool forward, const std::vector<C>& roots,
                                                     C* tmp) {
  using T = typename C::value_type;
  switch (p) {
    case 2: {
      const C a = v[0], b = v[1];
      v[0] = a + b;
      v[1] = a - b;
      return;
    }
    case 3: {
      constexpr T kS = static_cast<T>(0.86602540378443864676);  // sin(2 pi / 3)
      const C s = v[1] + v[2], d = times_minus_i(v[1] - v[2], forward) * kS;
      const C m = v[0] - s * T(0.5);
      v[0] += s;
      v[1] = m + d;
      v[2] = m - d;
      return;
    }
    case 4: {
      const C s02 = v[0] + v[2], d02 = v[0] - v[2], s13 = v[1] + v[3];
      const C d13 = times_minus_i(v[1] - v[3], forward);
      v[0] = s02 + s13;
      v[1] = d02 + d13;
      v[2] = s02 - s13;
      v[3] = d02 - d13;
      return;
    }
    case 5: {
      constexpr T kC1 = static_cast<T>(0.30901699437494742410), kC2 = static_cast<T>(-0.80901699437494742410);
      constexpr T kS1 = static_cast<T>(0.95105651629515357212), kS2 = static_cast<T>(0.58778525229247312917);
      const C s14 = v[1] + v[4], d14 = times_minus_i(v[1] - v[4], forward);
      const C s23 = v[2] + v[3], d23 = times_minus_i(v[2] - v[3], forward);
      const C a1 = v[0] + s14 * kC1 + s23 * kC2, a2 = v[0] + s14 * kC2 + s23 * kC1;
      const C b1 = d14 * kS1 + d23 * kS2, b2 = d14 * kS2 - d23 * kS1;
      v[0] += s14 + s23;
      v[1] = a1 + b1;
      v[4] = a1 - b1;
      v[2] = a2 + b2;
      v[3] = a2 - b2;
      return;
    }
    default: break;
  }
  const int64_t step = static_cast<int64_t>(roots.size()) / p;
  for (int64_t k = 0; k < p; ++k) {
    C sum = v[0];
    for (int64_t j = 1; j < p; ++j) {
      const C w = roots[(j * k % p) * step];
      sum += mul(v[j], forward ? w : std::conj(w));
    }
    tmp[k] = sum;
  }
  for (int64_t k = 0; k < p; ++k) v[k] = tmp[k];
}

// One Stockham pass (FftPlan::stockham) of radix kP, or of radix p for kP = 0 (the generic
// primes), in direction kForward: with both known to the compiler the butterfly's values
// stay in registers and its branches fold away.
template <int kP, bool kForward, typename C>
void pass(const C* x, C* y, int64_t n, int64_t p, int64_t s, const C* twiddles, const std::vector<C>& roots, C* tmp) {
  constexpr int kSlots = kP ? kP : 16;  // FftPlan::kMaxRadix
  const int64_t radix = kP ? kP : p, stride = n / radix;
  C v[kSlots];
  for (int64_t block = 0; block < stride; block += s) {
    for (int64_t js = 0; js < s; ++js) {
      const int64_t j = block + js;
      const C* w = twiddles + js * radix;
      v[0] = x[j];
      for (int64_t r = 1; r < radix; ++r) v[r] = mul(x[j + r * stride], kForward ? w[r] : std::conj(w[r]));
      butterfly(v, radix, kForward, roots, tmp);
      C* o = y + block * radix + js;
      for (int64_t r = 0; r < radix; ++r) o[r * s] = v[r];
    }
  }
}

template <bool kForward, typename C>
void pass_of(const C* x, C* y, int64_t n, int64_t p, int64_t s, const C* twiddles, const std::vector<C>& roots,
             C* tmp) {
  switch (p) {
    case 2: return pass<2, kForward>(x, y, n, p, s, twiddles, roots, tmp);
    case 3: return pass<3, kForward>(x, y, n, p, s, twiddles, roots, tmp);
    case 4: return pass<4, kForward>(x, y, n, p, s, twiddles, roots, tmp);
    case 5: return pass<5, kForward>(x, y, n, p, s, twiddles, roots, tmp);
    default: return pass<0, kForward>(x, y, n, p, s, twiddles, roots, tmp);
  }
}

}  // namespace

template <typename T>
FftPlan<T>::FftPlan(int64_t n) : n_(n) {
  if (n < 1) throw std::invalid_argument("fft: a transform of length " + std::to_string(n) + "; expected >= 1");
  const std::vector<int64_t> f = factors(n);
  if (!f.empty() && f.back() > kMaxRadix) {  // n = 1 has no factors: a copy
    // Bluestein: X_k = w_k sum_j (x_j w_j) conj(w_{k-j}), w_k = exp(-pi i k^2 / n), a
    // convolution of length >= 2n - 1 done by power-of-two FFTs.
    int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    chirp_.resize(n);
    for (int64_t k = 0; k < n; ++k) chirp_[k] = C(root(k * k % (2 * n), 2 * n));
    padded_ = std::make_unique<FftPlan>(m);
    std::vector<C> b(m, C(0));
    for (int64_t k = 0; k < n; ++k) b[k] = std::conj(chirp_[k]) / static_cast<T>(m);  // 1/m: the inverse's scale
    for (int64_t k = 1; k < n; ++k) b[m - k] = b[k];
    kernel_fft_.resize(m);
    std::vector<C> scratch(padded_->scratch_size());
    padded_->execute(b.data(), kernel_fft_.data(), true, scratch.data());
    return;
  }
  int64_t span = 1, generic = 1;  // generic: the product of the distinct radices above 5
  for (int64_t p : f) {
    Stage s{p, span, std::vector<C>(span * p)};
    for (int64_t j = 0; j < span; ++j) {
      for (int64_t r = 0; r < p; ++r) s.twiddles[j * p + r] = C(root(r * j, span * p));
    }
    stages_.push_back(std::move(s));
    span *= p;
    if (p > 5 && generic % p != 0) generic *= p;
  }
  // The generic radices are distinct primes: the roots of their product hold each one's.
  roots_.resize(generic);
  for (int64_t k = 0; k < generic; ++k) roots_[k] = C(root(k, generic));
}

template <typename T>
int64_t FftPlan<T>::scratch_size() const {
  if (padded_) return 2 * padded_->size() + padded_->scratch_size();
  return n_ + kMaxRadix;
}

template <typename T>
void FftPlan<T>::stockham(C* data, C* work, bool forward) const {
  // Each pass reads x, writes y, and the two swap: pass of radix p and span s maps element
  // j + r n/p (r < p) of x, twiddled by exp(-+2 pi i r (j % s) / (s p)), through a DFT of p
  // into y[(j / s) s p + j % s + r s].
  C* x = data;
  C* y = work;
  C* tmp = work + n_;
  for (const Stage& st : stages_) {
    if (forward) {
      pass_of<true>(x, y, n_, st.radix, st.span, st.twiddles.data(), roots_, tmp);
    } else {
      pass_of<false>(x, y, n_, st.radix, st.span, st.twiddles.data(), roots_, tmp);
    }
    std::swap(x, y);
  }
  if (x != data) std::copy(x, x + n_, data);
}

template <typename T>
void FftPlan<T>::bluestein(const C* in, C* out, bool forward, C* scratch) const {
  const int64_t m = padded_->size();
  C* a = scratch;
  C* b = scratch + m;
  C* rest = scratch + 2 * m;
  // The backward transform is the conjugate of the forward one of the conjugate.
  auto chirp = [&](int64_t k) { return forward ? chirp_[k] : std::conj(chirp_[k]); };
  for (int64_t k = 0; k < n_; ++k) a[k] = mul(in[k], chirp(k));
  std::fill(a + n_, a + m, C(0));
  padded_->execute(a, b, true, rest);
  if (forward) {
    for (int64_t k = 0; k < m; ++k) b[k] = mul(b[k], kernel_fft_[k]);
  } else {  // the conjugate chirp's kernel: its FFT is conj(kernel_fft) reversed
    for (int64_t k = 0; k < m; ++k) b[k] = mul(b[k], std::conj(kernel_fft_[(m - k) % m]));
  }
  padded_->execute(b, a, false, rest);
  for (int64_t k = 0; k < n_; ++k) out[k] = mul(a[k], chirp(k));
}

template <typename T>
void FftPlan<T>::execute(const C* in, C* out, bool forward, C* scratch) const {
  if (padded_) {
    bluestein(in, out, forward, scratch);
    return;
  }
  if (in != out) std::copy(in, in + n_, out);
  stockham(out, scratch, forward);
}

template <typename T>
std::shared_ptr<const FftPlan<T>> plan_for(int64_t n) {
  struct Hash {
    size_t operator()(int64_t k) const { return std::hash<int64_t>()(k); }
  };
  static LruCache<int64_t, FftPlan<T>, Hash> cache(64);
  return cache.get(n, [n] { return FftPlan<T>(n); });
}

template class FftPlan<float>;
template class FftPlan<double>;
template std::shared_ptr<const FftPlan<float>> plan_for<float>(int64_t n);
template std::shared_ptr<const FftPlan<double>> plan_for<double>(int64_t n);

}  // namespace mf::fft
