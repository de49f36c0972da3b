// Copyright 2026 The meshflow Authors.
// The gamma and Bessel families of torch.special and erf^-1, written once for the CPU's elementwise ops
// (elementwise.cc) and the GPU's (cuda/elementwise.cu): log_gamma, digamma, trigamma,
// polygamma and the Hurwitz zeta function, the modified Bessel functions i0, i1 and their
// exponentially scaled forms, erfcx, the Bessel functions j0 and j1 and the regularized
// incomplete gamma functions, in double with torch's algorithms (Cephes' series and
// Chebyshev expansions), so float inputs computed in double and rounded once agree with torch
// to its float rounding. Header-only, pure functions; thread-safe (the host's log_gamma is
// lgamma_r, which leaves C's global signgam alone).
#pragma once

#include <math.h>
#include <stdint.h>

#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE

namespace mf::special {

constexpr double kPi = 3.14159265358979323846;

MF_HOST_DEVICE inline double log_gamma(double x) {
#ifdef __CUDA_ARCH__
  return lgamma(x);
#else
  int sign;
  return lgamma_r(x, &sign);
#endif
}

// erfc(x) exp(x^2) (torch.special.erfcx), without the overflow of either factor alone:
// directly below 25 (erfc keeps its last bits until it underflows near 27, and x^2's
// rounding error, fma's remainder, is carried into the exponential), beyond by the
// asymptotic series 1/(x sqrt(pi)) sum (-1)^n (2n-1)!! / (2x^2)^n, whose terms past the
// sixth are below double's precision there.
MF_HOST_DEVICE inline double erfcx(double x) {
  if (x < -26.7) return INFINITY;  // 2 exp(x^2) overflows (and -inf's fma remainder is NaN)
  if (x < 25) {
    const double x2 = x * x;
    return exp(x2) * (1 + fma(x, x, -x2)) * erfc(x);
  }
  const double z = 1 / (2 * x * x);
  double sum = 1, term = 1;
  for (int n = 1; n <= 6; ++n) {
    term *= -(2 * n - 1) * z;
    sum += term;
  }
  return sum / (x * sqrt(kPi));
}

// erf^-1 (torch.erfinv): Giles' single-precision approximation ("Approximating the erfinv
// function", 2010) refined by two Newton steps, which reach double precision; +-1 give +-inf
// and anything outside [-1, 1] NaN.
MF_HOST_DEVICE inline double inverse_erf(double y) {
  if (!(y > -1 && y < 1)) return y == 1 || y == -1 ? copysign(HUGE_VAL, y) : NAN;
  double w = -log((1 - y) * (1 + y)), p;
  if (w < 5) {
    constexpr double kCentral[] = {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                                   -0.00417768164, 0.246640727,    1.50140941};
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : kCentral) p = c + p * w;
  } else {
    constexpr double kTail[] = {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                                0.00943887047,  1.00167406,    2.83297682};
    w = sqrt(w) - 3;
    p = -0.000200214257;
    for (double c : kTail) p = c + p * w;
  }
  double x = p * y;
  for (int step = 0; step < 2; ++step) x -= (erf(x) - y) / (M_2_SQRTPI * exp(-x * x));
  return x;
}

// x^a e^-x / gamma(a), the factor both forms of the incomplete gamma function share.
MF_HOST_DEVICE inline double incomplete_gamma_factor(double a, double x) {
  return exp(a * log(x) - x - log_gamma(a));
}

// The regularized lower incomplete gamma function P(a, x) by its series, for x < a + 1
// (where each term is below the one before within a few steps).
MF_HOST_DEVICE inline double incomplete_gamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 100000 && fabs(term) >= fabs(sum) * 1e-17; ++n) {
    term *= x / (a + n);
    sum += term;
  }
  return sum * incomplete_gamma_factor(a, x);
}

// The regularized upper incomplete gamma function Q(a, x) by its continued fraction
// (modified Lentz), for x >= a + 1, where it converges fast.
MF_HOST_DEVICE inline double incomplete_gamma_fraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (fabs(delta - 1) < 1e-16) break;
  }
  return incomplete_gamma_factor(a, x) * h;
}

// torch.special.gammainc (P, upper false) and gammaincc (Q = 1 - P, upper true), with
// torch's values at the edges: NaN for a negative or NaN argument and at a = x = 0; P is 1
// where a = 0 < x or x = inf, 0 where x = 0 or a = inf (Q the complement); NaN at a = x = inf.
// Whichever of P and Q converges at (a, x) is computed; the other is 1 minus it.
MF_HOST_DEVICE inline double incomplete_gamma(double a, double x, bool upper) {
  if (isnan(a) || isnan(x) || a < 0 || x < 0 || (a == 0 && x == 0) || (isinf(a) && isinf(x))) return NAN;
  double p;
  if (a == 0 || isinf(x)) {
    p = 1;
  } else if (x == 0 || isinf(a)) {
    p = 0;
  } else if (x < a + 1) {
    p = incomplete_gamma_series(a, x);
  } else {
    const double q = incomplete_gamma_fraction(a, x);
    return upper ? q : 1 - q;
  }
  return upper ? 1 - p : p;
}

// The Bessel functions of the first kind of orders 0 and 1 (torch.special.bessel_j0 / j1):
// the C library's (POSIX j0 / j1 on the host, CUDA's on the device), accurate to a few ulps
// in double as torch's Cephes expansions; NaN at +-inf, as torch's (the C library's limit
// is 0).
MF_HOST_DEVICE inline double bessel_j0(double x) { return isinf(x) ? NAN : ::j0(x); }
MF_HOST_DEVICE inline double bessel_j1(double x) { return isinf(x) ? NAN : ::j1(x); }

// Cephes' polevl: the polynomial with coefficients c[0] (highest power) .. c[n] at x.
MF_HOST_DEVICE inline double polevl(double x, const double* c, int n) {
  double r = c[0];
  for (int i = 1; i <= n; ++i) r = r * x + c[i];
  return r;
}

// torch's calc_digamma: -inf / inf at 0 (the sign of -x), NaN at negative integers, the
// reflection formula below 0, the recurrence up to 10, then the asymptotic series.
MF_HOST_DEVICE inline double digamma(double x) {
  constexpr double kPsi10 = 2.25175258906672110764;
  if (x == 0) return copysign(HUGE_VAL, -x);
  if (x < 0) {
    if (x == trunc(x)) return NAN;
    double whole;
    const double r = modf(x, &whole);
    return digamma(1 - x) - kPi / tan(kPi * r);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + kPsi10;
  const double a[] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                      -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                      8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1 / (x * x);
    y = z * polevl(z, a, 6);
  }
  return result + log(x) - 0.5 / x - y;
}

// torch's calc_trigamma: the reflection below 1/2, six steps of the recurrence, then the
// asymptotic series.
MF_HOST_DEVICE inline double trigamma(double x) {
  double sign = 1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = sin(kPi * x);
    result -= kPi * kPi / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}

// The Hurwitz zeta function sum over k >= 0 of (k + q)^-x (Cephes' zeta, as torch's).
MF_HOST_DEVICE inline double zeta(double x, double q) {
  constexpr double kMachEp = 1.11022302462515654042E-16;
  const double a[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                      1.8152105401943546773e17, -7.1661652561756670113e18};
  if (x == 1) return HUGE_VAL;
  if (x < 1) return NAN;
  if (q <= 0) {
    if (q == floor(q)) return HUGE_VAL;
    if (x != floor(x)) return NAN;
  }
  double s = pow(q, -x), b = 0, w = q;
  int i = 0;
  while (i < 9 || w <= 9.0) {
    i += 1;
    w += 1;
    b = pow(w, -x);
    s += b;
    if (-kMachEp * s < b && b < kMachEp * s) return s;
  }
  s += b * w / (x - 1);
  s -= 0.5 * b;
  double f = 1, k = 0;
  for (int j = 0; j < 12; ++j) {
    f *= x + k;
    b /= w;
    const double t = f * b / a[j];
    s += t;
    if (fabs(t / s) < kMachEp) return s;
    k += 1;
    f *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

// torch.polygamma(n, x): digamma for n 0, trigamma for 1, else (-1)^(n+1) n! zeta(n + 1, x).
MF_HOST_DEVICE inline double polygamma(int64_t n, double x) {
  if (n == 0) return digamma(x);
  if (n == 1) return trigamma(x);
  const double nd = static_cast<double>(n);
  return (n % 2 ? 1.0 : -1.0) * exp(log_gamma(nd + 1)) * zeta(nd + 1, x);
}

// Cephes' chbevl: the Chebyshev series with coefficients c[0 .. n-1] at x.
MF_HOST_DEVICE inline double chbevl(double x, const double* c, int n) {
  double b0 = c[0], b1 = 0, b2 = 0;
  for (int i = 1; i < n; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5 * (b0 - b2);
}

// exp(-|x|) I0(x) and exp(-|x|) I1(x) (the exponentially scaled modified Bessel functions of
// the first kind), Cephes' Chebyshev expansions on [0, 8] and 1/x on [8, inf), as torch's.
MF_HOST_DEVICE inline double bessel_i0e(double x) {
  const double a[] = {-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
                      1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
                      -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
                      9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
                      -1.30002500998624804212E-8,  6.04699502254191894932E-8,  -2.67079385394061173391E-7,
                      1.11738753912010371815E-6,   -4.41673835845875056359E-6, 1.64484480707288970893E-5,
                      -5.75419501008210370398E-5,  1.88502885095841655729E-4,  -5.76375574538582365885E-4,
                      1.63947561694133579842E-3,   -4.32430999505057594430E-3, 1.05464603945949983183E-2,
                      -2.37374148058994688156E-2,  4.93052842396707084878E-2,  -9.49010970480476444210E-2,
                      1.71620901522208775349E-1,   -3.04682672343198398683E-1, 6.76795274409476084995E-1};
  const double b[] = {-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
                      3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
                      1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
                      -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
                      7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
                      -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
                      3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
                      2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
                      8.04490411014108831608E-1};
  const double ax = fabs(x);
  return ax <= 8.0 ? chbevl(ax / 2.0 - 2.0, a, 30) : chbevl(32.0 / ax - 2.0, b, 25) / sqrt(ax);
}

MF_HOST_DEVICE inline double bessel_i1e(double x) {
  const double a[] = {2.77791411276104639959E-18,  -2.11142121435816608115E-17, 1.55363195773620046921E-16,
                      -1.10559694773538630805E-15, 7.60068429473540693410E-15,  -5.04218550472791168711E-14,
                      3.22379336594557470981E-13,  -1.98397439776494371520E-12, 1.17361862988909016308E-11,
                      -6.66348972350202774223E-11, 3.62559028155211703701E-10,  -1.88724975172282928790E-9,
                      9.38153738649577178388E-9,   -4.44505912879632808065E-8,  2.00329475355213526229E-7,
                      -8.56872026469545474066E-7,  3.47025130813767847674E-6,   -1.32731636560394358279E-5,
                      4.78156510755005422638E-5,   -1.61760815825896745588E-4,  5.12285956168575772895E-4,
                      -1.51357245063125314899E-3,  4.15642294431288815669E-3,   -1.05640848946261981558E-2,
                      2.47264490306265168283E-2,   -5.29459812080949914269E-2,  1.02643658689847095384E-1,
                      -1.76416518357834055153E-1,  2.52587186443633654823E-1};
  const double b[] = {7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
                      -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
                      -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
                      4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
                      -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
                      3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
                      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
                      -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
                      7.78576235018280120474E-1};
  const double ax = fabs(x);
  const double out = ax <= 8.0 ? chbevl(ax / 2.0 - 2.0, a, 29) * ax : chbevl(32.0 / ax - 2.0, b, 25) / sqrt(ax);
  return x < 0 ? -out : out;
}

MF_HOST_DEVICE inline double bessel_i0(double x) { return exp(fabs(x)) * bessel_i0e(x); }
MF_HOST_DEVICE inline double bessel_i1(double x) { return exp(fabs(x)) * bessel_i1e(x); }

}  // namespace mf::special
