// Copyright 2026 The meshflow Authors.
// The gamma family of torch.special, written once for the CPU's elementwise ops
// (elementwise.cc) and the GPU's (cuda/elementwise.cu): log_gamma, digamma, trigamma,
// polygamma and the Hurwitz zeta function, in double with torch's algorithms (Cephes' zeta
// and digamma series), so float inputs computed in double and rounded once agree with torch
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

}  // namespace mf::special
