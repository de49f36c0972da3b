// Copyright 2026 The meshflow Authors.
// The scalar math of the elementwise ops (ops/elementwise.cc: arithmetic, casts, clamps,
// where, the math ops) and of the activations' backward ops (ops/nn.cc), written once for the
// CPU's kernels and the GPU's (ops/cuda/elementwise.cu): each op is a functor whose operator() takes one element of each
// input (all of one type T), host and device code alike (MF_HOST_DEVICE). Integers wrap
// modulo 2^bits, divide toward zero or down (x / -1 is a negation, which cannot trap) and
// raise to powers as torch.pow; floats call <cmath>'s functions, which CUDA resolves to its
// float and double versions. The CPU's float32 exp, tanh, sigmoid, gelu and silu (and their
// gradients) run fast_math.h's vectorizing forms instead, within a few ulps of these
// functors, which tests/cpp/elementwise_math_test.cc checks on edge values.
// Header-only, pure functions: thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "meshflow/core/dtype.h"  // the halves' conversions
#include "meshflow/ops/fused_multiply_add.h"
#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE
#include "meshflow/ops/scalar_power.h"
#include "meshflow/ops/special_math.h"

namespace mf::scalar {

template <typename T>
constexpr bool kIntegral = std::is_integral_v<T>;

template <typename T>
MF_HOST_DEVICE bool is_nan(T x) {
  if constexpr (kIntegral<T>) {
    return false;
  } else {
    return std::isnan(x);
  }
}

template <typename T>
MF_HOST_DEVICE bool is_inf(T x) {
  if constexpr (kIntegral<T>) {
    return false;
  } else {
    return std::isinf(x);
  }
}

// -x; integers wrap (the lowest value is its own negation).
template <typename T>
MF_HOST_DEVICE T negate(T x) {
  if constexpr (kIntegral<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(U{0} - static_cast<U>(x));
  } else {
    return -x;
  }
}

// |x|; the lowest integer is its own absolute value (it wraps, as in torch).
template <typename T>
MF_HOST_DEVICE T absolute(T x) {
  if constexpr (kIntegral<T>) {
    return x < 0 ? negate(x) : x;
  } else {
    return std::fabs(x);
  }
}

// x + y, x - y and x * y; integers compute in their unsigned type, at least unsigned int
// (uint16_t would promote to int, whose product overflows), so they wrap modulo 2^bits, as
// PyTorch's (signed overflow is undefined in C++).
enum class Wrapping { kAdd, kSub, kMul };
template <Wrapping kOp, typename T>
MF_HOST_DEVICE T wrapping(T x, T y) {
  if constexpr (kIntegral<T>) {
    using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
    const U a = static_cast<U>(x), b = static_cast<U>(y);
    return static_cast<T>(kOp == Wrapping::kAdd ? a + b : kOp == Wrapping::kSub ? a - b : a * b);
  } else if constexpr (kOp == Wrapping::kAdd) {
    return x + y;
  } else if constexpr (kOp == Wrapping::kSub) {
    return x - y;
  } else {
    return x * y;
  }
}

// Whether y is -1 (never, for unsigned types: their largest value is not).
template <typename T>
MF_HOST_DEVICE bool is_minus_one(T y) {
  if constexpr (std::is_signed_v<T>) {
    return y == static_cast<T>(-1);
  } else {
    return false;
  }
}

// The quotient truncated toward zero; integers' x / -1 is a negation, which cannot trap on
// the lowest value as the CPU's division does.
template <typename T>
MF_HOST_DEVICE T trunc_div(T x, T y) {
  if constexpr (kIntegral<T>) {
    if (is_minus_one(y)) return negate(x);
  }
  return x / y;
}

// torch.floor_divide; floats use PyTorch's (and Python's) correction of floor(x / y), exact
// where x / y rounds up to an integer.
template <typename T>
MF_HOST_DEVICE T floor_div(T x, T y) {
  if constexpr (kIntegral<T>) {
    if (is_minus_one(y)) return negate(x);
    const T q = x / y;
    return q * y != x && (x < 0) != (y < 0) ? static_cast<T>(q - 1) : q;
  } else {
    if (y == 0) return x / y;
    const T mod = std::fmod(x, y);
    T div = (x - mod) / y;
    if (mod != 0 && (y < 0) != (mod < 0)) div -= 1;
    if (div == 0) return std::copysign(T{0}, x / y);
    T down = std::floor(div);
    if (div - down > static_cast<T>(0.5)) down += 1;
    return down;
  }
}

// C's fmod: the remainder of the quotient truncated toward zero, the dividend's sign;
// integers' x fmod -1 is 0 (the CPU's division traps on the lowest value over -1).
template <typename T>
MF_HOST_DEVICE T truncated_remainder(T x, T y) {
  if constexpr (kIntegral<T>) {
    return is_minus_one(y) ? T{0} : static_cast<T>(x % y);
  } else {
    return std::fmod(x, y);
  }
}

// Python's % and torch.remainder: the remainder with the divisor's sign, fmod's moved by one
// divisor where the signs differ, so exact (x - floor(x / y) y rounds away what it keeps:
// (1e7 + 0.3) % 0.7 would be 0) and signed as fmod's (-0.0 % 3 is -0.0); integers' x % -1 is 0.
template <typename T>
MF_HOST_DEVICE T floored_remainder(T x, T y) {
  const T r = truncated_remainder(x, y);
  return r != 0 && (r < 0) != (y < 0) ? static_cast<T>(r + y) : r;
}

// torch.pow: floats std::pow; integers kernel::integer_power.
template <typename T>
MF_HOST_DEVICE T power(T base, T exp) {
  if constexpr (kIntegral<T>) {
    return kernel::integer_power(base, exp);
  } else {
    return std::pow(base, exp);
  }
}

// Phi(x) = (1 + erf(x / sqrt 2)) / 2, through erfc: no cancellation for negative x.
template <typename T>
MF_HOST_DEVICE T normal_cdf(T x) {
  return static_cast<T>(0.5) * std::erfc(-x * static_cast<T>(M_SQRT1_2));
}

// 1 / (1 + exp(-x)).
template <typename T>
MF_HOST_DEVICE T logistic(T x) {
  return 1 / (1 + std::exp(-x));
}

// An integer type's largest and lowest values (numeric_limits' are host functions).
template <typename T>
MF_HOST_DEVICE constexpr T highest() {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(std::is_signed_v<T> ? static_cast<U>(~U{0}) >> 1 : static_cast<U>(~U{0}));
}
template <typename T>
MF_HOST_DEVICE constexpr T lowest() {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(-highest<T>() - 1);
  } else {
    return T{0};
  }
}

// A float to an integer truncates toward zero and saturates at the integer's range; NaN gives
// 0 (C++ leaves both undefined, and x86 gives the lowest value for each).
template <typename TO, typename TI>
MF_HOST_DEVICE TO float_to_integer(TI x) {
  constexpr TI lo = static_cast<TI>(lowest<TO>());
  constexpr TI hi = static_cast<TI>(highest<TO>());  // rounds up to a power of 2
  if (!(x == x)) return 0;
  if (x >= hi) return highest<TO>();
  return x <= lo ? lowest<TO>() : static_cast<TO>(x);
}

// x converted to TO (real dtypes; the CPU's complex ones go through this for their parts), as
// the op cast does: halves (bfloat16, float16) go through float32 (exact one way; rounded to
// nearest even the other: core/dtype.h's conversions); to bool is x != 0, as in PyTorch (NaN
// is true); a float to a small integer goes through int64 and wraps, which is what torch
// gives on x86 for every value int64 holds (-1.0 -> 255 in uint8, 300.0 -> 44).
template <typename TO>
struct Cast {
  template <typename TI>
  MF_HOST_DEVICE TO operator()(TI x) const {
    if constexpr (std::is_same_v<TI, TO>) {
      return x;
    } else if constexpr (is_half_v<TI>) {
      return Cast<TO>{}(to_float(x));
    } else if constexpr (std::is_same_v<TO, bool>) {
      return x != TI{0};
    } else if constexpr (is_half_v<TO>) {
      return from_float<TO>(static_cast<float>(x));
    } else if constexpr (std::is_floating_point_v<TI> && kIntegral<TO> && sizeof(TO) < sizeof(int32_t)) {
      return static_cast<TO>(float_to_integer<int64_t>(x));
    } else if constexpr (std::is_floating_point_v<TI> && kIntegral<TO>) {
      return float_to_integer<TO>(x);
    } else {
      return static_cast<TO>(x);
    }
  }
};

// clamp and hardtanh: min(max(x, lo), hi), as torch's (NaN stays NaN; lo > hi gives hi),
// NaN everywhere for a NaN bound (which no comparison would pass on). An absent bound is the
// type's lowest or highest value (kernel::clamp_bounds). between(x) is the same for bounds
// that are numbers: the CPU's loop runs it where neither bound is NaN, without the two
// selects on them (a fifth slower there, though they never change along the loop).
template <typename T>
struct Clamp {
  T lo, hi;
  MF_HOST_DEVICE T between(T x) const {
    const T y = x < lo ? lo : x;
    return y > hi ? hi : y;
  }
  MF_HOST_DEVICE T operator()(T x) const {
    if constexpr (kIntegral<T>) {
      return between(x);
    } else {
      return lo != lo ? lo : hi != hi ? hi : between(x);
    }
  }
};
// Their gradients, dx from (x, dy): clamp's passes dy where lo < x < hi (an absent bound,
// has_lo or has_hi false, stops nothing, not even an infinite x), hardtanh's (kHardtanh)
// stops it only where x <= lo or x >= hi, so NaN passes. The tests are joined without short
// circuits: the selection compiles to a blend on the CPU.
template <typename T, bool kHardtanh>
struct ClampBackward {
  T lo, hi;
  bool has_lo, has_hi;
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    if constexpr (kHardtanh) {
      return (x <= lo) | (x >= hi) ? T{0} : dy;
    } else {
      return ((x > lo) | !has_lo) & ((x < hi) | !has_hi) ? dy : T{0};
    }
  }
};

// softplus: log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (torch's);
// its gradient from (x, dy): dy exp(beta x) / (exp(beta x) + 1), dy where beta x > threshold.
template <typename T>
struct Softplus {
  T beta, threshold;
  MF_HOST_DEVICE T operator()(T x) const {
    const T s = x * beta;
    return s > threshold ? x : std::log1p(std::exp(s)) / beta;
  }
};
template <typename T>
struct SoftplusBackward {
  T beta, threshold;
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    const T s = x * beta, z = std::exp(s);
    return s > threshold ? dy : dy * z / (z + T{1});
  }
};

// leaky_relu: x where x > 0, else slope x (NaN stays NaN); its gradient from (x, dy): dy where
// x > 0, else slope dy (slope at 0, as torch's). The product is taken on both sides of the
// select: a load of slope on one side only keeps the CPU's loop a scalar branch per element.
template <typename T>
struct LeakyRelu {
  T slope;
  MF_HOST_DEVICE T operator()(T x) const {
    const T scaled = x * slope;
    return x > T{0} ? x : scaled;
  }
};
template <typename T>
struct LeakyReluBackward {
  T slope;
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    const T scaled = dy * slope;
    return x > T{0} ? dy : scaled;
  }
};

// smooth_l1_loss's (kHuber false) and huber_loss's term of z = |x - t|, as torch's: 0.5 z^2 /
// beta where z < beta, else z - 0.5 beta; huber's (beta its delta) 0.5 z^2 where z < delta,
// else delta (z - 0.5 delta). The gradient in x from (x, t, dy), with d = x - t: smooth_l1's
// -dy, dy or d dy / beta, huber's -delta dy, delta dy or d dy, by where d lies against
// -beta and beta (torch's); in t its negative.
template <typename T, bool kHuber>
struct SmoothL1 {
  T beta;
  MF_HOST_DEVICE T operator()(T x, T t) const {
    const T d = x - t;
    const T z = d < T{0} ? -d : d;
    if constexpr (kHuber) {
      return z < beta ? static_cast<T>(0.5) * z * z : beta * (z - static_cast<T>(0.5) * beta);
    } else {
      return z < beta ? static_cast<T>(0.5) * z * z / beta : z - static_cast<T>(0.5) * beta;
    }
  }
};
template <typename T, bool kHuber>
struct SmoothL1Backward {
  T beta;
  MF_HOST_DEVICE T operator()(T x, T t, T dy) const {
    const T d = x - t;
    const T edge = kHuber ? beta * dy : dy;
    const T inside = kHuber ? d * dy : d * dy / beta;
    return d <= -beta ? -edge : d >= beta ? edge : inside;
  }
};

// where(cond, a, b): nonzero cond (NaN included) takes a.
struct Select {
  template <typename TC, typename T>
  MF_HOST_DEVICE T operator()(TC cond, T a, T b) const {
    return cond != TC{0} ? a : b;
  }
};

// torch's addcmul, x + value t1 t2, as its CPU kernel rounds it: (value t1) t2 + x, the
// last two one fused multiply-add, value in x's dtype; integers wrap.
struct AddcmulOf {
  double value;
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T t1, T t2) const {
    const T v = static_cast<T>(value);
    if constexpr (kIntegral<T>) {
      return wrapping<Wrapping::kAdd>(x, wrapping<Wrapping::kMul>(wrapping<Wrapping::kMul>(v, t1), t2));
    } else {
      return fmadd(v * t1, t2, x);
    }
  }
};

// A functor whose operator() is one expression of x (MF_SCALAR1) or of x and y (MF_SCALAR2),
// all of one type T, giving R.
#define MF_SCALAR1(Type, R, ...)                    \
  struct Type {                                     \
    template <typename T>                           \
    MF_HOST_DEVICE R operator()(T x) const {        \
      return __VA_ARGS__;                           \
    }                                               \
  };
#define MF_SCALAR2(Type, R, ...)                    \
  struct Type {                                     \
    template <typename T>                           \
    MF_HOST_DEVICE R operator()(T x, T y) const {   \
      return __VA_ARGS__;                           \
    }                                               \
  };

// Arithmetic.
MF_SCALAR2(Add, T, wrapping<Wrapping::kAdd>(x, y))
MF_SCALAR2(Sub, T, wrapping<Wrapping::kSub>(x, y))
// x + alpha y, add's (and, alpha negated, sub's) attribute "alpha", as torch computes it:
// alpha in x's dtype, then one fused multiply-add (a half's in float32, rounded once more
// to the half); integers wrap.
struct AddScaled {
  double alpha;
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T y) const {
    const T a = static_cast<T>(alpha);
    if constexpr (kIntegral<T>) {
      return wrapping<Wrapping::kAdd>(x, wrapping<Wrapping::kMul>(a, y));
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return fmadd(y, a, x);
    } else {
      return static_cast<T>(fmadd(static_cast<float>(y), static_cast<float>(a), static_cast<float>(x)));
    }
  }
};
MF_SCALAR2(Mul, T, wrapping<Wrapping::kMul>(x, y))
MF_SCALAR2(Div, T, trunc_div(x, y))
MF_SCALAR2(FloorDivide, T, floor_div(x, y))
MF_SCALAR2(Fmod, T, truncated_remainder(x, y))
MF_SCALAR2(Remainder, T, floored_remainder(x, y))
// NaN wins, as in torch.maximum and torch.minimum.
MF_SCALAR2(Maximum, T, x > y || is_nan(x) ? x : y)
MF_SCALAR2(Minimum, T, x < y || is_nan(x) ? x : y)
MF_SCALAR2(Pow, T, power(x, y))
// s ** x for the scalar s given second (rpow_scalar).
MF_SCALAR2(RPow, T, power(y, x))
// x ** s, s a scalar: torch's loops for its special exponents (kernel::scalar_power).
struct PowScalar {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T s) const {
    return kernel::with_scalar_power(s, [&](auto power) { return kernel::scalar_power<decltype(power)::value>(x, s); });
  }
};

// Comparisons and logical ops give bool (inputs of any dtype, bool too; nonzero is true).
MF_SCALAR2(Eq, bool, x == y)
MF_SCALAR2(Ne, bool, x != y)
MF_SCALAR2(Lt, bool, x < y)
MF_SCALAR2(Le, bool, x <= y)
MF_SCALAR2(Gt, bool, x > y)
MF_SCALAR2(Ge, bool, x >= y)
// (No short circuits: the CPU's loops of them vectorize.)
MF_SCALAR2(LogicalAnd, bool, (x != T{0}) & (y != T{0}))
MF_SCALAR2(LogicalOr, bool, (x != T{0}) | (y != T{0}))
MF_SCALAR2(LogicalXor, bool, (x != T{0}) != (y != T{0}))
MF_SCALAR1(LogicalNot, bool, x == T{0})
MF_SCALAR1(IsNan, bool, is_nan(x))
MF_SCALAR1(IsInf, bool, is_inf(x))
MF_SCALAR1(IsFinite, bool, !is_nan(x) && !is_inf(x))

// Bitwise ops of bool (its one bit) and integers; torch's shifts (integers only).
MF_SCALAR2(BitwiseAnd, T, static_cast<T>(x & y))
MF_SCALAR2(BitwiseOr, T, static_cast<T>(x | y))
MF_SCALAR2(BitwiseXor, T, static_cast<T>(x ^ y))
struct ShiftLeft {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else {
      return kernel::shift_left(x, y);
    }
  }
};
struct ShiftRight {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else {
      return kernel::shift_right(x, y);
    }
  }
};
struct BitwiseNot {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  }
};

// f(x) of a float rounded to a whole number; integers are whole already and stay.
struct Trunc {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x) const {
    if constexpr (kIntegral<T>) {
      return x;
    } else {
      return std::trunc(x);
    }
  }
};
// Half to even (the default rounding mode's nearest), as torch.round.
struct Round {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x) const {
    if constexpr (kIntegral<T>) {
      return x;
    } else {
      return std::nearbyint(x);
    }
  }
};

// Unary ops and activations.
MF_SCALAR1(Neg, T, negate(x))
MF_SCALAR1(Abs, T, absolute(x))
// 0 for negative x; NaN stays.
MF_SCALAR1(Relu, T, x < T{0} ? T{0} : x)
// torch.sign: 1, 0 or -1; NaN gives 0.
MF_SCALAR1(Sign, T, static_cast<T>((T{0} < x) - (x < T{0})))
MF_SCALAR1(Exp, T, std::exp(x))
MF_SCALAR1(Log, T, std::log(x))
MF_SCALAR1(Sqrt, T, std::sqrt(x))
// 1 / sqrt(x), both correctly rounded (a GPU's rsqrt approximation is not).
MF_SCALAR1(Rsqrt, T, 1 / std::sqrt(x))
MF_SCALAR1(Tanh, T, std::tanh(x))
MF_SCALAR1(Sigmoid, T, logistic(x))
// x Phi(x), the exact (erf) form.
MF_SCALAR1(Gelu, T, x * normal_cdf(x))
// x sigmoid(x).
MF_SCALAR1(Silu, T, x * logistic(x))

// torch's tanh approximation of gelu, in the order of operations of its CPU kernel, which
// values within float32's rounding of torch's need: 0.5 x (1 + t) with t = tanh(b (x + k x^3)),
// b = sqrt(2 / pi), k = 0.044715; its slope 0.5 (1 + t) + 0.5 x (1 - t^2) b (1 + 3 k x^2).
// Given t, so that the CPU's float32 kernels pass fast_math's tanh.
template <typename T>
MF_HOST_DEVICE T gelu_tanh_inner(T x) {
  return static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5) * (x + static_cast<T>(0.044715) * (x * x * x));
}
template <typename T>
MF_HOST_DEVICE T gelu_tanh_of(T x, T t) {
  return static_cast<T>(0.5) * x * (1 + t);
}
template <typename T>
MF_HOST_DEVICE T gelu_tanh_slope(T x, T t) {
  const T half = static_cast<T>(0.5), beta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5);
  const T inner_slope = beta * (1 + static_cast<T>(3) * static_cast<T>(0.044715) * (x * x));
  return half * (1 + t) + half * x * (1 - t * t) * inner_slope;
}
MF_SCALAR1(GeluTanh, T, gelu_tanh_of(x, std::tanh(gelu_tanh_inner(x))))

// The activations' backward ops, dx from (x or the output y, dy): gelu's dy (Phi(x) + x
// phi(x)) with phi(x) = exp(-x^2 / 2) / sqrt(2 pi); its tanh approximation's dy
// gelu_tanh_slope(x, t); silu's dy s (1 + x (1 - s)) with s =
// sigmoid(x); from the output, sigmoid's dy y (1 - y) and tanh's dy (1 - y^2); relu's dy
// where y > 0, else 0 (dy passes where y is NaN).
struct GeluBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    const T density = static_cast<T>(M_2_SQRTPI * M_SQRT1_2 / 2) * std::exp(static_cast<T>(-0.5) * x * x);
    return dy * (normal_cdf(x) + x * density);
  }
};
struct GeluTanhBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    return dy * gelu_tanh_slope(x, std::tanh(gelu_tanh_inner(x)));
  }
};
struct SiluBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T x, T dy) const {
    const T s = logistic(x);
    return dy * (s * (1 + x * (1 - s)));
  }
};
struct SigmoidBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T y, T dy) const {
    return dy * (y - y * y);
  }
};
struct TanhBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T y, T dy) const {
    return dy - dy * (y * y);
  }
};
struct ReluBackward {
  template <typename T>
  MF_HOST_DEVICE T operator()(T y, T dy) const {
    return y <= T{0} ? T{0} : dy;
  }
};

// The math ops of torch's names.
MF_SCALAR1(Sin, T, std::sin(x))
MF_SCALAR1(Cos, T, std::cos(x))
MF_SCALAR1(Tan, T, std::tan(x))
MF_SCALAR1(Asin, T, std::asin(x))
MF_SCALAR1(Acos, T, std::acos(x))
MF_SCALAR1(Atan, T, std::atan(x))
MF_SCALAR1(Sinh, T, std::sinh(x))
MF_SCALAR1(Cosh, T, std::cosh(x))
MF_SCALAR1(Asinh, T, std::asinh(x))
MF_SCALAR1(Acosh, T, std::acosh(x))
MF_SCALAR1(Atanh, T, std::atanh(x))
MF_SCALAR1(Erf, T, std::erf(x))
MF_SCALAR1(Erfc, T, std::erfc(x))
MF_SCALAR1(Log1p, T, std::log1p(x))
MF_SCALAR1(Expm1, T, std::expm1(x))
MF_SCALAR1(Log2, T, std::log2(x))
// float's log10 through double's log: log10f (glibc's, CUDA's) is up to 2 ulp off, where
// torch's (SLEEF's) is within 1 and mostly the rounded value, which double's ln x log10(e)
// rounded gives (and faster than log10f: glibc's log is its fast one).
template <typename T>
MF_HOST_DEVICE T rounded_log10(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(std::log(static_cast<double>(x)) * 0.43429448190325182765);
  } else {
    return std::log10(x);
  }
}
MF_SCALAR1(Log10, T, rounded_log10(x))
MF_SCALAR1(Exp2, T, std::exp2(x))
MF_SCALAR1(Reciprocal, T, 1 / x)
MF_SCALAR1(Frac, T, x - std::trunc(x))
MF_SCALAR2(Atan2, T, std::atan2(x, y))
MF_SCALAR2(Hypot, T, std::hypot(x, y))
MF_SCALAR2(Copysign, T, std::copysign(x, y))
// binary_cross_entropy_with_logits of logit x and target y: (1 - y) x - log sigmoid(x), the
// log taken as log1p(exp(-|x|)) + max(-x, 0), which neither overflows nor cancels (torch's).
MF_SCALAR2(BceWithLogits, T, (T(1) - y) * x + std::log1p(std::exp(-std::abs(x))) + (x < T(0) ? -x : T(0)))
// binary_cross_entropy of probability x and target y: -(y log x + (1 - y) log(1 - x)), each
// log no lower than -100 (torch's clamp: an x of exactly 0 or 1 costs 100, not inf).
template <typename T>
MF_HOST_DEVICE T log_at_least_minus_100(T log_value) {
  return log_value < T(-100) ? T(-100) : log_value;
}
MF_SCALAR2(BinaryCrossEntropy, T,
           -(y * log_at_least_minus_100(std::log(x)) + (T(1) - y) * log_at_least_minus_100(std::log1p(-x))))
// The gamma and Bessel families and erfcx (special_math.h), in double, rounded once.
MF_SCALAR1(Lgamma, T, static_cast<T>(special::log_gamma(static_cast<double>(x))))
MF_SCALAR1(Digamma, T, static_cast<T>(special::digamma(static_cast<double>(x))))
MF_SCALAR1(BesselI0, T, static_cast<T>(special::bessel_i0(static_cast<double>(x))))
MF_SCALAR1(BesselI0e, T, static_cast<T>(special::bessel_i0e(static_cast<double>(x))))
MF_SCALAR1(BesselI1, T, static_cast<T>(special::bessel_i1(static_cast<double>(x))))
MF_SCALAR1(BesselI1e, T, static_cast<T>(special::bessel_i1e(static_cast<double>(x))))
MF_SCALAR1(Erfcx, T, static_cast<T>(special::erfcx(static_cast<double>(x))))
MF_SCALAR1(BesselJ0, T, static_cast<T>(special::bessel_j0(static_cast<double>(x))))
MF_SCALAR1(BesselJ1, T, static_cast<T>(special::bessel_j1(static_cast<double>(x))))
// erf^-1 in double (special_math.h), rounded once.
MF_SCALAR1(Erfinv, T, static_cast<T>(special::inverse_erf(static_cast<double>(x))))
MF_SCALAR2(Zeta, T, static_cast<T>(special::zeta(static_cast<double>(x), static_cast<double>(y))))
MF_SCALAR2(Gammainc, T,
           static_cast<T>(special::incomplete_gamma(static_cast<double>(x), static_cast<double>(y), false)))
MF_SCALAR2(Gammaincc, T,
           static_cast<T>(special::incomplete_gamma(static_cast<double>(x), static_cast<double>(y), true)))

#undef MF_SCALAR1
#undef MF_SCALAR2

}  // namespace mf::scalar
