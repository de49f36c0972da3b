// Copyright 2026 The meshflow Authors.
// The scalar math the CPU's kernels share with the GPU's, checked on the CPU against
// independent references (double-precision formulas, values enumerated from the formats'
// definitions, known values): the halves' rounding (core/dtype.h), cast, clamp and its
// gradients, where and erfinv (ops/elementwise_math.h), the reductions' and scans' steps
// (ops/reduce_math.h), the row-wise ops' elements (ops/row_math.h: softmax, layer_norm,
// cross-entropy), batch and group norm and dropout's scaling (ops/norm_math.h) and the optimizer
// updates (ops/optimizer_math.h). Each is also checked to be what the op's CPU kernel computes, so
// the CPU's op tests check the GPU's arithmetic too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/norm_math.h"
#include "meshflow/ops/optimizer_math.h"
#include "meshflow/ops/reduce_math.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/row_math.h"

namespace mf {
namespace {

using Limits = std::numeric_limits<float>;

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Floats to round: every float whose low 16 bits are one of the interesting patterns (ties
// 0x8000, just off them, zero, all ones), at every exponent (so denormals, the largest
// values and the ones rounding to infinity too), both signs, plus pseudo-random bits.
std::vector<float> floats_to_round() {
  std::vector<float> v;
  for (uint32_t high = 0; high < 0x10000; high += 7) {
    for (uint32_t low : {0x0000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu, 0x1000u, 0x0fffu, 0x1001u}) {
      v.push_back(float_of(high << 16 | low));
    }
  }
  uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    v.push_back(float_of(state));
  }
  for (float f : {Limits::max(), Limits::lowest(), Limits::denorm_min(), -Limits::denorm_min(), 0.0f, -0.0f,
                  Limits::infinity(), -Limits::infinity(), 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 65504.0f, 65520.0f,
                  65519.99f, 0x1p-24f, 0x1p-25f, 0x1.000002p-25f, 3 * 0x1p-26f}) {
    v.push_back(f);
  }
  return v;
}

// The nearest of `lo` and `hi` (doubles; hi may stand for infinity's threshold) to x, ties to
// the candidate whose `even` is true.
double nearest(double x, double lo, double hi, bool lo_even) {
  const double dl = x - lo, dh = hi - x;
  if (dl < dh) return lo;
  if (dh < dl) return hi;
  return lo_even ? lo : hi;
}

// bfloat16: the float's truncation and the next bfloat16 up in magnitude, the nearer kept,
// ties to the even one; a magnitude past the largest bfloat16 by half its spacing or more is
// infinity (IEEE's overflow: the next value up would be 2^128).
TEST(SharedMath, BFloat16RoundsToNearestEven) {
  int bad = 0;
  for (float f : floats_to_round()) {
    const uint16_t got = to_bfloat16(f).bits;
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(to_float(bfloat16{got}))) << f;
      EXPECT_EQ(got & 0x8000u, (bits_of(f) >> 16) & 0x8000u) << "NaN keeps its sign";
      EXPECT_NE(got & 0x40u, 0u) << "a quiet NaN";
      continue;
    }
    const uint32_t abs = bits_of(f) & 0x7fffffffu, sign = bits_of(f) & 0x80000000u;
    const uint32_t down = abs & 0xffff0000u, up = down + 0x10000u;
    double want;
    if (std::isinf(f)) {
      want = std::fabs(f);
    } else {
      const double hi = up >= 0x7f800000u ? std::ldexp(1.0, 128) : float_of(up);
      want = nearest(std::fabs(static_cast<double>(f)), float_of(down), hi, (down & 0x10000u) == 0);
    }
    if (want == std::ldexp(1.0, 128)) want = Limits::infinity();
    const float want_f = sign ? -static_cast<float>(want) : static_cast<float>(want);
    if (got != bits_of(want_f) >> 16 && bad++ < 5) {
      ADD_FAILURE() << std::hexfloat << f << " rounds to bfloat16 bits " << std::hex << got << ", expected "
                    << (bits_of(want_f) >> 16);
    }
  }
  EXPECT_EQ(bad, 0);
  // Known ties: 1 + 2^-8 lies between 1 and 1 + 2^-7 and goes to 1 (even); 1 + 3 2^-8 to
  // 1 + 2^-6.
  EXPECT_EQ(to_float(to_bfloat16(1.0f + 0x1p-8f)), 1.0f);
  EXPECT_EQ(to_float(to_bfloat16(1.0f + 3 * 0x1p-8f)), 1.0f + 0x1p-6f);
  EXPECT_EQ(to_float(to_bfloat16(Limits::max())), Limits::infinity());
  EXPECT_TRUE(std::signbit(to_float(to_bfloat16(-0.0f))));
}

// A half's value from its fields (IEEE 754 binary16), in double.
double half_value(uint16_t h) {
  const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  const double magnitude = exp == 0x1f ? (mant ? NAN : INFINITY)
                           : exp == 0  ? std::ldexp(mant, -24)
                                       : std::ldexp(1024 + mant, exp - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

// float16: every half widens to its value; a float rounds to the nearest of the finite halves
// (enumerated), ties to the even one, to infinity from 65520 (the largest half, 65504, plus
// half its spacing) up.
TEST(SharedMath, Float16RoundsToNearestEven) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const double want = half_value(static_cast<uint16_t>(h));
    const float got = to_float(float16{static_cast<uint16_t>(h)});
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << h;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << h;
      ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << std::hex << h;
    }
  }
  std::vector<double> positive;  // the finite non-negative halves, increasing with their bits
  for (uint32_t h = 0; h < 0x7c00; ++h) positive.push_back(half_value(static_cast<uint16_t>(h)));
  std::vector<float> values = floats_to_round();
  for (size_t h = 0; h + 1 < positive.size(); ++h) {  // every tie between neighbouring halves
    values.push_back(static_cast<float>((positive[h] + positive[h + 1]) / 2));
  }
  int bad = 0;
  for (float f : values) {
    const uint16_t got = to_float16(f).bits;
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(half_value(got))) << f;
      continue;
    }
    const double x = std::fabs(static_cast<double>(f));
    uint16_t want;
    if (x >= 65520) {
      want = 0x7c00;
    } else if (x >= positive.back()) {
      want = 0x7bff;  // the largest half, 65504, up to the tie with infinity
    } else {
      const size_t up = std::lower_bound(positive.begin(), positive.end(), x) - positive.begin();
      if (up == 0 || positive[up] == x) {
        want = static_cast<uint16_t>(up);
      } else {
        const size_t down = up - 1;
        want = static_cast<uint16_t>(nearest(x, positive[down], positive[up], down % 2 == 0) == positive[down] ? down
                                                                                                                  : up);
      }
    }
    if (std::signbit(f)) want |= 0x8000;
    if (got != want && bad++ < 5) {
      ADD_FAILURE() << std::hexfloat << f << " rounds to float16 bits " << std::hex << got << ", expected " << want;
    }
  }
  EXPECT_EQ(bad, 0);
}

// The op's CPU kernel on whole tensors: its outputs.
std::vector<Tensor> run_cpu(const std::string& name, const std::vector<Tensor>& in, const Attrs& attrs) {
  const OpDef& op = find_op(name);
  std::vector<TensorMeta> metas;
  std::vector<Box> in_boxes, out_boxes;
  for (const Tensor& t : in) {
    metas.push_back({t.shape(), t.dtype()});
    in_boxes.push_back(Box::whole(t.shape()));
  }
  const std::vector<TensorMeta> out = op.infer(metas, attrs);
  for (const TensorMeta& m : out) out_boxes.push_back(Box::whole(m.shape));
  return kernel_for(op, host_memory())(in, KernelContext{attrs, metas, in_boxes, out, out_boxes});
}

template <typename T>
Tensor tensor_of(const std::vector<T>& values, DType dtype) {
  Tensor t = Tensor::empty({static_cast<int64_t>(values.size())}, dtype);
  if (!values.empty()) std::memcpy(t.data(), values.data(), values.size() * sizeof(T));  // none for {0}
  return t;
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  return std::vector<T>(t.data_as<T>(), t.data_as<T>() + t.numel());
}

const std::vector<double> kEdges{NAN,  INFINITY, -INFINITY, 0.0, -0.0, 5e-324, 1e-310, 0.25, 0.5,   0.75, 1.0, -1.0,
                                 1.5,  -1.5,     2.5,       -2.5, 127.5, 128.0, 255.9, 256.0, 300.0, -1e9, 1e9, 3e9,
                                 -3e9, 1e19,     -1e19,     1e300};

// A float to an integer: truncated toward zero, saturated at int32's and int64's ranges, NaN
// 0; through int64 and wrapping for the small integers (torch on x86: -1.0 -> 255 in uint8,
// 300.0 -> 44); to bool x != 0 (NaN true).
TEST(SharedMath, CastsFloatsToIntegersAsTorch) {
  for (double x : kEdges) {
    const double t = std::trunc(x);
    const int64_t as64 = std::isnan(x) ? 0 : t >= 0x1p63 ? INT64_MAX : t <= -0x1p63 ? INT64_MIN : static_cast<int64_t>(t);
    const int32_t as32 = std::isnan(x) ? 0 : t >= 0x1p31 ? INT32_MAX : t <= -0x1p31 ? INT32_MIN : static_cast<int32_t>(t);
    EXPECT_EQ(scalar::Cast<int64_t>{}(x), as64) << x;
    EXPECT_EQ(scalar::Cast<int32_t>{}(x), as32) << x;
    EXPECT_EQ(scalar::Cast<uint8_t>{}(x), static_cast<uint8_t>(static_cast<uint64_t>(as64) & 0xff)) << x;
    EXPECT_EQ(scalar::Cast<int8_t>{}(x), static_cast<int8_t>(static_cast<uint64_t>(as64) & 0xff)) << x;
    EXPECT_EQ(scalar::Cast<int16_t>{}(x), static_cast<int16_t>(static_cast<uint64_t>(as64) & 0xffff)) << x;
    EXPECT_EQ(scalar::Cast<bool>{}(x), x != 0) << x;
    const float f = static_cast<float>(x);
    EXPECT_EQ(scalar::Cast<int32_t>{}(f), scalar::Cast<int32_t>{}(static_cast<double>(f))) << x;
  }
  EXPECT_EQ(scalar::Cast<uint8_t>{}(-1.0f), 255);
  EXPECT_EQ(scalar::Cast<uint8_t>{}(300.0), 44);
  EXPECT_EQ(scalar::Cast<int32_t>{}(3e9f), INT32_MAX);
  EXPECT_EQ(scalar::Cast<int64_t>{}(-1e300), INT64_MIN);
  // Halves widen exactly, then convert as float32; to a half rounds once, from any type.
  EXPECT_EQ(scalar::Cast<int32_t>{}(to_bfloat16(-2.75f)), -2);
  EXPECT_EQ(scalar::Cast<bfloat16>{}(int64_t{257}).bits, to_bfloat16(256.0f).bits);  // a tie, to even
  EXPECT_EQ(scalar::Cast<float16>{}(1e6).bits, 0x7c00);
  EXPECT_EQ(scalar::Cast<float>{}(to_float16(0x1p-24f)), 0x1p-24f);
  EXPECT_EQ(scalar::Cast<bool>{}(to_bfloat16(NAN)), true);
  EXPECT_EQ(scalar::Cast<double>{}(true), 1.0);
  EXPECT_EQ(scalar::Cast<int8_t>{}(int64_t{300}), 44);  // integers wrap
}

// The cast op's CPU kernel is scalar::Cast, for every pair of real dtypes.
TEST(SharedMath, CastKernelIsTheFunctor) {
  std::vector<double> values;
  for (double x : kEdges) values.push_back(x);
  const Tensor source = tensor_of(values, DType::kFloat64);
  const std::vector<DType> dtypes{DType::kFloat64, DType::kFloat32,  DType::kBFloat16, DType::kFloat16, DType::kInt64,
                                  DType::kInt32,   DType::kInt16,    DType::kInt8,     DType::kUInt8,   DType::kBool};
  for (DType from : dtypes) {
    const Tensor x = run_cpu("cast", {source}, Attrs{{"dtype", from}})[0];
    for (DType to : dtypes) {
      const Tensor y = run_cpu("cast", {x}, Attrs{{"dtype", to}})[0];
      visit_real_storage(from, [&](auto a) {
        visit_real_storage(to, [&](auto b) {
          using TI = decltype(a);
          using TO = decltype(b);
          for (int64_t i = 0; i < x.numel(); ++i) {
            const TO want = scalar::Cast<TO>{}(x.data_as<TI>()[i]);
            ASSERT_EQ(std::memcmp(&want, y.data_as<TO>() + i, sizeof(TO)), 0)
                << dtype_name(from) << " -> " << dtype_name(to) << " at " << values[i];
          }
        });
      });
    }
  }
}

// clamp: min(max(x, lo), hi) with NaN kept and a NaN bound NaN everywhere, lo > hi giving
// hi; its gradients pass dy inside the bounds (clamp: strictly; hardtanh: NaN too).
TEST(SharedMath, ClampAndItsGradients) {
  for (double lo : kEdges) {
    for (double hi : kEdges) {
      if (std::isinf(lo) || std::isinf(hi)) continue;  // bounds are finite numbers or NaN
      for (double x : kEdges) {
        const double want = std::isnan(lo) || std::isnan(hi) || std::isnan(x) ? NAN : std::min(std::max(x, lo), hi);
        const double got = scalar::Clamp<double>{lo, hi}(x);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << x << " in [" << lo << ", " << hi << "]";
        } else {
          EXPECT_EQ(got, want) << x << " in [" << lo << ", " << hi << "]";
        }
        const bool inside = x > lo && x < hi;
        EXPECT_EQ((scalar::ClampBackward<double, false>{lo, hi, true, true}(x, 3.0)), inside ? 3.0 : 0.0);
        const bool stopped = x <= lo || x >= hi;
        EXPECT_EQ((scalar::ClampBackward<double, true>{lo, hi, true, true}(x, 3.0)), stopped ? 0.0 : 3.0);
      }
    }
  }
  // An absent bound (the type's extreme) stops nothing, not even an infinite x.
  const double top = std::numeric_limits<double>::infinity();
  EXPECT_EQ((scalar::ClampBackward<double, false>{0.0, top, true, false}(top, 2.0)), 2.0);
  EXPECT_EQ((scalar::ClampBackward<double, false>{0.0, top, true, true}(top, 2.0)), 0.0);
  EXPECT_EQ((scalar::Clamp<int8_t>{-3, 5}(int8_t{-128})), -3);
  EXPECT_EQ((scalar::Clamp<int8_t>{6, 5}(int8_t{0})), 5);
  // The CPU kernels are the functors, a NaN bound included.
  const std::vector<double> xs{NAN, -2, -0.5, 0, 0.5, 2, INFINITY};
  for (const auto& bounds : std::vector<std::pair<double, double>>{{-1, 1}, {1, -1}, {NAN, 1}, {-1, NAN}}) {
    const Attrs attrs{{"min", bounds.first}, {"max", bounds.second}};
    const std::vector<double> got = values_of<double>(run_cpu("clamp", {tensor_of(xs, DType::kFloat64)}, attrs)[0]);
    const std::vector<double> dx = values_of<double>(
        run_cpu("clamp_backward", {tensor_of(xs, DType::kFloat64), tensor_of(std::vector<double>(7, 3.0), DType::kFloat64)},
                attrs)[0]);
    for (size_t i = 0; i < xs.size(); ++i) {
      const double want = scalar::Clamp<double>{bounds.first, bounds.second}(xs[i]);
      EXPECT_TRUE(got[i] == want || (std::isnan(got[i]) && std::isnan(want))) << xs[i];
      EXPECT_EQ(dx[i], (scalar::ClampBackward<double, false>{bounds.first, bounds.second, true, true}(xs[i], 3.0)));
    }
  }
}

TEST(SharedMath, SelectTakesTheFirstWhereTheConditionIsNonzero) {
  EXPECT_EQ(scalar::Select{}(NAN, 1, 2), 1);
  EXPECT_EQ(scalar::Select{}(-0.0, 1, 2), 2);
  EXPECT_EQ(scalar::Select{}(true, 1, 2), 1);
  EXPECT_EQ(scalar::Select{}(uint8_t{0}, 1, 2), 2);
}

// erf^-1: known values (torch.erfinv's in float64), erf of the result back to y, and the
// edges.
TEST(SharedMath, ErfinvIsErfsInverse) {
  const std::vector<std::pair<double, double>> known{{0.5, 0.4769362762044699},
                                                     {-0.9, -1.1630871536766743},
                                                     {0.999, 2.3267537655135246},
                                                     {1e-10, 8.862269254527581e-11},
                                                     {0.9999999999, 4.572824958544925}};
  // Within a few ulps of x, plus what y's own rounding (half an ulp) moves x by: erf^-1's
  // slope, sqrt(pi) / 2 exp(x^2), is large near +-1.
  for (const auto& [y, x] : known) {
    const double slope = std::sqrt(M_PI) / 2 * std::exp(x * x);
    EXPECT_NEAR(scalar::Erfinv{}(y), x, 1e-15 * std::fabs(x) + slope * 1.2e-16 * std::fabs(y)) << y;
  }
  for (double y = -0.999; y < 1; y += 0.0371) {
    const double x = scalar::Erfinv{}(y);
    EXPECT_NEAR(std::erf(x), y, 3e-16) << y;
    // float32 computes in double and rounds once.
    const float yf = static_cast<float>(y);
    const double xf = std::erf(static_cast<double>(scalar::Erfinv{}(yf)));
    EXPECT_NEAR(xf, yf, 2e-7 * std::fabs(scalar::Erfinv{}(static_cast<double>(yf))) + 1e-30) << y;
  }
  EXPECT_EQ(scalar::Erfinv{}(1.0), INFINITY);
  EXPECT_EQ(scalar::Erfinv{}(-1.0f), -INFINITY);
  EXPECT_TRUE(std::isnan(scalar::Erfinv{}(1.5)));
  EXPECT_TRUE(std::isnan(scalar::Erfinv{}(-INFINITY)));
  EXPECT_TRUE(std::isnan(scalar::Erfinv{}(NAN)));
  EXPECT_TRUE(std::signbit(scalar::Erfinv{}(-0.0)));
  EXPECT_EQ(scalar::Erfinv{}(5e-324), 5e-324);  // sqrt(pi)/2 y rounds to y among the denormals
}

// ---- the optimizer updates, against torch's formulas in double

struct Moments {
  double param, exp_avg, exp_avg_sq, max_exp_avg_sq;
};

// torch.optim.Adam(W)'s single-tensor step in double, written as torch's documentation.
Moments adam_reference(Moments s, double grad, const optim::AdamWHyper& h) {
  double g = h.maximize ? -grad : grad;
  if (h.decoupled) {
    s.param *= 1 - h.lr * h.weight_decay;
  } else {
    g += h.weight_decay * s.param;
  }
  s.exp_avg = h.beta1 * s.exp_avg + (1 - h.beta1) * g;
  s.exp_avg_sq = h.beta2 * s.exp_avg_sq + (1 - h.beta2) * g * g;
  const double bc1 = 1 - std::pow(h.beta1, h.step), bc2 = 1 - std::pow(h.beta2, h.step);
  double v = s.exp_avg_sq;
  if (h.amsgrad) v = s.max_exp_avg_sq = std::max(s.max_exp_avg_sq, s.exp_avg_sq);
  s.param -= h.lr / bc1 * s.exp_avg / (std::sqrt(v) / std::sqrt(bc2) + h.eps);
  return s;
}

template <typename T>
Moments adam_functor(const Moments& s, double grad, const optim::AdamWHyper& h) {
  const optim::AdamWStep<T> c = optim::AdamWStep<T>::make(h);
  const auto args = [&](auto apply) {
    return apply(static_cast<T>(s.param), static_cast<T>(grad), static_cast<T>(s.exp_avg), static_cast<T>(s.exp_avg_sq),
                 static_cast<T>(s.max_exp_avg_sq));
  };
  optim::AdamWResult<T> r;
  const bool l2 = h.l2();
  if (l2 && h.amsgrad) r = args([&](auto... a) { return c.template apply<true, true>(a...); });
  if (l2 && !h.amsgrad) r = args([&](auto... a) { return c.template apply<true, false>(a...); });
  if (!l2 && h.amsgrad) r = args([&](auto... a) { return c.template apply<false, true>(a...); });
  if (!l2 && !h.amsgrad) r = args([&](auto... a) { return c.template apply<false, false>(a...); });
  return {r.param, r.exp_avg, r.exp_avg_sq, h.amsgrad ? static_cast<double>(r.max_exp_avg_sq) : s.max_exp_avg_sq};
}

// Three steps of every variant, float64 within 1e-14 and float32 within 1e-5 of the
// reference; a zero gradient on a zero state moves nothing but weight decay.
TEST(SharedMath, AdamStepsAreTorchs) {
  for (bool decoupled : {true, false}) {
    for (bool amsgrad : {false, true}) {
      for (bool maximize : {false, true}) {
        for (double weight_decay : {0.0, 0.1}) {
          for (double beta1 : {0.9, 0.3}) {  // both lerp forms
            optim::AdamWHyper h{1e-2, beta1, 0.999, 1e-8, weight_decay, 1, decoupled, amsgrad, maximize};
            Moments ref{0.5, 0.1, 0.02, 0.03}, f64 = ref, f32 = ref;
            for (double grad : {0.3, -1.25, 4.0}) {
              ref = adam_reference(ref, grad, h);
              f64 = adam_functor<double>(f64, grad, h);
              f32 = adam_functor<float>(f32, grad, h);
              ++h.step;
              const std::string what = std::string(decoupled ? "adamw" : "adam") + (amsgrad ? " amsgrad" : "") +
                                       (maximize ? " maximize" : "") + " wd " + std::to_string(weight_decay) +
                                       " beta1 " + std::to_string(beta1) + " step " + std::to_string(h.step - 1);
              for (auto [got, want] : {std::pair{f64.param, ref.param}, {f64.exp_avg, ref.exp_avg},
                                       {f64.exp_avg_sq, ref.exp_avg_sq}, {f64.max_exp_avg_sq, ref.max_exp_avg_sq}}) {
                EXPECT_NEAR(got, want, 1e-14 * (1 + std::fabs(want))) << what;
              }
              for (auto [got, want] : {std::pair{f32.param, ref.param}, {f32.exp_avg, ref.exp_avg},
                                       {f32.exp_avg_sq, ref.exp_avg_sq}, {f32.max_exp_avg_sq, ref.max_exp_avg_sq}}) {
                EXPECT_NEAR(got, want, 1e-5 * (1 + std::fabs(want))) << what;
              }
            }
          }
        }
      }
    }
  }
}

struct SgdState {
  double param, buf;
};

// torch.optim.SGD's single-tensor step in double (buf: the momentum buffer, when has_buf).
SgdState sgd_reference(SgdState s, double grad, const optim::SgdHyper& h) {
  double d = (h.maximize ? -grad : grad) + h.weight_decay * s.param;
  if (h.momentum != 0) {
    s.buf = h.has_buf ? h.momentum * s.buf + (1 - h.dampening) * d : d;
    d = h.nesterov ? d + h.momentum * s.buf : s.buf;
  }
  s.param -= h.lr * d;
  return s;
}

TEST(SharedMath, SgdStepsAreTorchs) {
  for (double momentum : {0.0, 0.9}) {
    for (bool nesterov : {false, true}) {
      if (nesterov && momentum == 0) continue;
      for (double dampening : {0.0, 0.25}) {
        if (nesterov && dampening != 0) continue;
        for (bool maximize : {false, true}) {
          for (double weight_decay : {0.0, 0.05}) {
            optim::SgdHyper h{0.1, momentum, dampening, weight_decay, nesterov, false, maximize};
            SgdState ref{0.5, 0}, f64 = ref, f32 = ref;
            for (double grad : {0.3, -1.25, 4.0}) {
              ref = sgd_reference(ref, grad, h);
              const optim::SgdResult<double> r64 = optim::SgdStep<double>::make(h).apply(f64.param, grad, f64.buf);
              const optim::SgdResult<float> r32 = optim::SgdStep<float>::make(h).apply(
                  static_cast<float>(f32.param), static_cast<float>(grad), static_cast<float>(f32.buf));
              f64 = {r64.param, momentum != 0 ? r64.momentum_buf : 0};
              f32 = {r32.param, momentum != 0 ? r32.momentum_buf : 0};
              h.has_buf = momentum != 0;
              EXPECT_NEAR(f64.param, ref.param, 1e-15) << momentum << nesterov << dampening << maximize << weight_decay;
              EXPECT_NEAR(f64.buf, ref.buf, 1e-15);
              EXPECT_NEAR(f32.param, ref.param, 1e-6);
              EXPECT_NEAR(f32.buf, ref.buf, 1e-6);
            }
          }
        }
      }
    }
  }
}

// The update ops' CPU kernels give the functors' bits (float32: every operation rounded once,
// as the GPU's kernels round them), NaN and infinite gradients included.
TEST(SharedMath, OptimizerKernelsAreTheFunctors) {
  const std::vector<float> param{0.5f, -1, 0, -0.0f, 3e-39f, 1e30f, 2, -7},
      grad{0.25f, NAN, INFINITY, -0.0f, 1e-38f, -1e30f, 0, 3}, m{0.1f, 0.2f, 0, 0, 1e-39f, 5, -1, 0.5f},
      v{0.01f, 0.02f, 0, 0, 1e-39f, 25, 1, 0.25f}, vmax{0.02f, 0.01f, 0, 0, 0, 30, 0.5f, 0.25f};
  auto tensor = [](const std::vector<float>& x) { return tensor_of(x, DType::kFloat32); };
  for (bool decoupled : {true, false}) {
    for (bool amsgrad : {false, true}) {
      Attrs attrs{{"lr", 1e-2}, {"beta1", 0.9},          {"beta2", 0.999},     {"eps", 1e-8},
                  {"weight_decay", 0.1}, {"step", int64_t{3}}, {"amsgrad", amsgrad}, {"maximize", false}};
      std::vector<Tensor> in{tensor(param), tensor(grad), tensor(m), tensor(v)};
      if (amsgrad) in.push_back(tensor(vmax));
      const std::vector<Tensor> out = run_cpu(decoupled ? "adamw_update" : "adam_update", in, attrs);
      const optim::AdamWHyper h = optim::AdamWHyper::of(attrs, decoupled);
      const optim::AdamWStep<float> c = optim::AdamWStep<float>::make(h);
      for (size_t i = 0; i < param.size(); ++i) {
        const optim::AdamWResult<float> r =
            h.l2() ? (amsgrad ? c.apply<true, true>(param[i], grad[i], m[i], v[i], vmax[i])
                              : c.apply<true, false>(param[i], grad[i], m[i], v[i], 0))
                   : (amsgrad ? c.apply<false, true>(param[i], grad[i], m[i], v[i], vmax[i])
                              : c.apply<false, false>(param[i], grad[i], m[i], v[i], 0));
        const std::vector<float> want{r.param, r.exp_avg, r.exp_avg_sq, r.max_exp_avg_sq};
        for (size_t k = 0; k < out.size(); ++k) {
          EXPECT_EQ(bits_of(out[k].data_as<float>()[i]), bits_of(want[k]))
              << (decoupled ? "adamw" : "adam") << (amsgrad ? " amsgrad" : "") << " output " << k << " element " << i;
        }
      }
    }
  }
  const Attrs sgd{{"lr", 0.1},          {"momentum", 0.9},  {"dampening", 0.0}, {"weight_decay", 0.05},
                  {"nesterov", true},   {"has_buf", true},  {"maximize", true}};
  const std::vector<Tensor> out = run_cpu("sgd_update", {tensor(param), tensor(grad), tensor(m)}, sgd);
  const optim::SgdStep<float> c = optim::SgdStep<float>::make(optim::SgdHyper::of(sgd));
  for (size_t i = 0; i < param.size(); ++i) {
    const optim::SgdResult<float> r = c.apply(param[i], grad[i], m[i]);
    EXPECT_EQ(bits_of(out[0].data_as<float>()[i]), bits_of(r.param)) << i;
    EXPECT_EQ(bits_of(out[1].data_as<float>()[i]), bits_of(r.momentum_buf)) << i;
  }
}

// A multi-tensor call (the ops' "tensors": inputs and outputs role by role) gives each
// tensor the bits of a call of its own, for tensors of several shapes (an empty one too).
TEST(SharedMath, MultiTensorUpdatesAreEachTensorsUpdate) {
  const std::vector<Shape> shapes{{4}, {2, 3}, {0}, {5}};
  const size_t k = shapes.size();
  auto values = [](const Shape& s, float scale, bool nonnegative) {
    std::vector<float> v(static_cast<size_t>(numel(s)));
    for (size_t i = 0; i < v.size(); ++i) {
      const float x = scale * static_cast<float>(std::sin(1.7 * static_cast<double>(i) + scale));
      v[i] = nonnegative ? std::fabs(x) : x;
    }
    return tensor_of(v, DType::kFloat32).view(0, s);
  };
  struct Case {
    std::string op;
    Attrs attrs;
    size_t in_roles;
  };
  const Attrs adam{{"lr", 1e-2},  {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"weight_decay", 0.1},
                   {"step", int64_t{4}}, {"amsgrad", true}, {"maximize", false}};
  const Attrs sgd{{"lr", 0.1}, {"momentum", 0.9}, {"dampening", 0.0}, {"weight_decay", 0.05}, {"nesterov", true},
                  {"has_buf", true}};
  Attrs sgd_first = sgd;
  sgd_first.set("has_buf", false);
  for (const Case& c : {Case{"adamw_update", adam, 5}, Case{"adam_update", adam, 5}, Case{"sgd_update", sgd, 3},
                        Case{"sgd_update", sgd_first, 2}}) {
    std::vector<Tensor> all;
    for (size_t r = 0; r < c.in_roles; ++r) {
      for (const Shape& s : shapes) all.push_back(values(s, 0.5f + static_cast<float>(r), r >= 3));
    }
    Attrs multi = c.attrs;
    multi.set("tensors", static_cast<int64_t>(k));
    const std::vector<Tensor> together = run_cpu(c.op, all, multi);
    for (size_t t = 0; t < k; ++t) {
      std::vector<Tensor> one;
      for (size_t r = 0; r < c.in_roles; ++r) one.push_back(all[r * k + t]);
      const std::vector<Tensor> apart = run_cpu(c.op, one, c.attrs);
      ASSERT_EQ(together.size(), apart.size() * k) << c.op;
      for (size_t r = 0; r < apart.size(); ++r) {
        const Tensor& got = together[r * k + t];
        ASSERT_EQ(got.shape(), shapes[t]) << c.op << " output " << r << " tensor " << t;
        for (int64_t i = 0; i < got.numel(); ++i) {
          EXPECT_EQ(bits_of(got.data_as<float>()[i]), bits_of(apart[r].data_as<float>()[i]))
              << c.op << " output " << r << " tensor " << t << " element " << i;
        }
      }
    }
  }
  // A tensor's inputs of another shape, or a count that does not divide the inputs, name the problem.
  Attrs three = sgd_first;
  three.set("tensors", int64_t{3});
  EXPECT_THROW(run_cpu("sgd_update", {values({2}, 1, false), values({2}, 1, false), values({3}, 1, false),
                                      values({2}, 1, false)}, three),
               std::invalid_argument);
}

// ---- reductions and scans

template <typename T, typename Step>
T fold(const std::vector<T>& v, T init, Step step) {
  for (T x : v) init = step(init, x);
  return init;
}

TEST(SharedMath, ReductionStepsWrapAndPropagateNaN) {
  const double nan = NAN;
  EXPECT_TRUE(std::isnan(fold<double>({1, nan, 3}, -INFINITY, scalar::MaxStep{})));
  EXPECT_TRUE(std::isnan(fold<double>({nan, 5}, -INFINITY, scalar::MaxStep{})));
  EXPECT_TRUE(std::isnan(fold<double>({5, -1, nan}, INFINITY, scalar::MinStep{})));
  EXPECT_EQ(fold<double>({1, 7, -3}, -INFINITY, scalar::MaxStep{}), 7);
  EXPECT_EQ(fold<double>({1, 7, -3}, INFINITY, scalar::MinStep{}), -3);
  EXPECT_EQ(fold<int8_t>({100, 27, 1}, 0, scalar::SumStep{}), -128);  // wraps
  EXPECT_EQ(fold<int32_t>({65536, 65536}, 1, scalar::ProdStep{}), 0);
  EXPECT_EQ(fold<int64_t>({INT64_MAX, 1}, 0, scalar::SumStep{}), INT64_MIN);
  EXPECT_EQ(fold<bool>({false, true, false}, false, scalar::SumStep{}), true);   // or
  EXPECT_EQ(fold<bool>({true, false, true}, true, scalar::ProdStep{}), false);  // and
  EXPECT_EQ(fold<bool>({false, true}, false, scalar::MaxStep{}), true);
  // log(exp(a) + exp(b)) against its double formula, and its infinities and NaN.
  for (double a : {-3.0, 0.0, 2.5, 40.0}) {
    for (double b : {-1.0, 0.5, 39.0}) {
      EXPECT_NEAR(scalar::log_add_exp(a, b), std::log(std::exp(a) + std::exp(b)), 1e-14 * 41) << a << " " << b;
    }
  }
  EXPECT_EQ(scalar::log_add_exp(1000, 1000), 1000 + std::log(2.0));  // no overflow
  EXPECT_EQ(scalar::log_add_exp(-INFINITY, -INFINITY), -INFINITY);
  EXPECT_EQ(scalar::log_add_exp(INFINITY, -INFINITY), INFINITY);
  EXPECT_EQ(scalar::log_add_exp(-INFINITY, 3), 3);
  EXPECT_TRUE(std::isnan(scalar::log_add_exp(nan, INFINITY)));
}

// The scan op's CPU kernel along `values` gives the running fold of scalar::scan_step.
template <scalar::Scan kScan, typename T>
void check_scan(const char* op, const std::vector<T>& values, DType dtype) {
  const std::vector<T> got = values_of<T>(run_cpu(op, {tensor_of(values, dtype)}, Attrs{{"dim", int64_t{0}}})[0]);
  T acc = scalar::scan_identity<kScan, T>();
  for (size_t i = 0; i < values.size(); ++i) {
    acc = scalar::scan_step<kScan>(acc, values[i]);
    EXPECT_EQ(got[i], acc) << op << " at " << i;
  }
}

// The CPU's reductions (its vector path over short rows, ops/rows.cc, and its general one)
// and scans give the shared steps' folds, NaN and signed zeros included.
TEST(SharedMath, ReductionKernelsAreTheSteps) {
  for (int64_t n : {int64_t{5}, int64_t{37}, int64_t{3000}}) {  // short rows and long ones
    const int64_t rows = 6;
    std::vector<float> x(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) x[i] = static_cast<float>((i * 7919) % 101) / 8 - 6;
    x[1 * n + n / 2] = NAN;  // row 1: NaN inside
    x[2 * n] = NAN;          // row 2: NaN first
    x[3 * n + n - 1] = NAN;  // row 3: NaN last
    for (int64_t j = 0; j < n; ++j) x[4 * n + j] = j % 2 ? 0.0f : -0.0f;  // row 4: zeros of both signs
    const Tensor t = tensor_of(x, DType::kFloat32).view(0, {rows, n});
    for (const auto& [op, step, init] : {std::tuple{"amax", 0, -INFINITY}, {"amin", 1, INFINITY}, {"sum", 2, 0.0}}) {
      const Attrs attrs{{"dims", std::vector<int64_t>{1}}, {"keepdim", false}};
      const std::vector<float> got = values_of<float>(run_cpu(op, {t}, attrs)[0]);
      for (int64_t r = 0; r < rows; ++r) {
        const std::vector<float> row(x.begin() + r * n, x.begin() + (r + 1) * n);
        const float want = step == 0   ? fold(row, static_cast<float>(init), scalar::MaxStep{})
                           : step == 1 ? fold(row, static_cast<float>(init), scalar::MinStep{})
                                       : fold(row, 0.0f, scalar::SumStep{});
        if (step == 2 && !std::isnan(want)) {
          EXPECT_NEAR(got[r], want, 1e-4 * (1 + std::fabs(want))) << op << " row " << r << " of " << n;
        } else {
          EXPECT_TRUE(got[r] == want || (std::isnan(got[r]) && std::isnan(want))) << op << " row " << r << " of " << n;
        }
      }
    }
  }
  // Integers wrap as the steps do; logcumsumexp's infinities are log_add_exp's.
  check_scan<scalar::Scan::kProduct>("cumprod", std::vector<int32_t>{65536, 65536, 3, -7}, DType::kInt32);
  check_scan<scalar::Scan::kSum>("cumsum", std::vector<int64_t>{INT64_MAX, 1, -1, 5}, DType::kInt64);
  check_scan<scalar::Scan::kLogSumExp>("logcumsumexp", std::vector<double>{-INFINITY, 0.5, INFINITY, 1.0},
                                       DType::kFloat64);
}

// ---- the row-wise ops against double-precision formulas

// Rows of float32 logits: ordinary values, large ones (exp would overflow unshifted), a -inf
// (probability 0), equal values.
std::vector<float> logit_rows(int64_t rows, int64_t n) {
  std::vector<float> x(rows * n);
  for (int64_t i = 0; i < rows * n; ++i) x[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 4);
  for (int64_t j = 0; j < n; ++j) x[n + j] += 1e4f;
  x[2 * n + 3] = -INFINITY;
  std::fill(x.begin() + 3 * n, x.begin() + 4 * n, 2.0f);
  return x;
}

TEST(SharedMath, SoftmaxRowsAreTheFormulas) {
  for (int64_t n : {int64_t{7}, int64_t{300}}) {
    const int64_t rows = 4;
    const std::vector<float> x = logit_rows(rows, n);
    std::vector<float> dy(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) dy[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)));
    const Tensor xt = tensor_of(x, DType::kFloat32).view(0, {rows, n}), dyt = tensor_of(dy, DType::kFloat32).view(0, {rows, n});
    for (bool log : {false, true}) {
      const Attrs attrs{{"dim", int64_t{1}}};
      const Tensor y = run_cpu(log ? "log_softmax" : "softmax", {xt}, attrs)[0];
      const std::vector<float> dx = values_of<float>(
          run_cpu("softmax_backward", {y, dyt}, Attrs{{"dim", int64_t{1}}, {"log", log}})[0]);
      const std::vector<float> got = values_of<float>(y);
      for (int64_t r = 0; r < rows; ++r) {
        double m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < n; ++j) m = std::max(m, static_cast<double>(x[r * n + j]));
        for (int64_t j = 0; j < n; ++j) sum += std::exp(x[r * n + j] - m);
        std::vector<double> p(n);
        double dot = 0, dsum = 0;
        for (int64_t j = 0; j < n; ++j) {
          p[j] = std::exp(x[r * n + j] - m) / sum;
          dot += dy[r * n + j] * p[j];
          dsum += dy[r * n + j];
        }
        for (int64_t j = 0; j < n; ++j) {
          const int64_t k = r * n + j;
          const double want = log ? (x[k] - m) - std::log(sum) : p[j];
          if (std::isinf(want)) {
            EXPECT_EQ(got[k], want) << r << " " << j;
          } else {
            EXPECT_NEAR(got[k], want, 2e-6 * (1 + std::fabs(want))) << (log ? "log_softmax " : "softmax ") << r << " " << j;
          }
          const double want_dx = log ? dy[k] - p[j] * dsum : p[j] * (dy[k] - dot);
          EXPECT_NEAR(dx[k], want_dx, 2e-6 * (1 + std::fabs(dsum))) << "backward " << log << " " << r << " " << j;
        }
      }
    }
  }
  EXPECT_EQ((rowmath::softmax_masked<true, float>()), -INFINITY);
  EXPECT_EQ((rowmath::softmax_masked<false, double>()), 0.0);
}

TEST(SharedMath, LayerNormRowsAreTheFormulas) {
  const int64_t rows = 5, n = 40;
  std::vector<float> x(rows * n), dy(rows * n), w(n), b(n);
  for (int64_t i = 0; i < rows * n; ++i) {
    x[i] = static_cast<float>(std::sin(0.7 * static_cast<double>(i)) * (1 + i / n) + (i / n == 2 ? 1000 : 0));
    dy[i] = static_cast<float>(std::cos(0.3 * static_cast<double>(i)));
  }
  std::fill(x.begin() + 4 * n, x.end(), 3.0f);  // a constant row: variance 0, rstd 1 / sqrt(eps)
  for (int64_t j = 0; j < n; ++j) {
    w[j] = 1 + 0.01f * static_cast<float>(j);
    b[j] = 0.5f - 0.02f * static_cast<float>(j);
  }
  const double eps = 1e-5;
  const Attrs attrs{{"normalized_shape", std::vector<int64_t>{n}}, {"eps", eps}, {"has_weight", true}, {"has_bias", true}};
  const Tensor xt = tensor_of(x, DType::kFloat32).view(0, {rows, n});
  const Tensor wt = tensor_of(w, DType::kFloat32), bt = tensor_of(b, DType::kFloat32);
  const std::vector<float> y = values_of<float>(run_cpu("layer_norm", {xt, wt, bt}, attrs)[0]);
  const std::vector<Tensor> grads =
      run_cpu("layer_norm_backward", {xt, wt, tensor_of(dy, DType::kFloat32).view(0, {rows, n})}, attrs);
  const std::vector<float> dx = values_of<float>(grads[0]), dw = values_of<float>(grads[1]), db = values_of<float>(grads[2]);
  std::vector<double> want_dw(n, 0), want_db(n, 0);
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j) mean += x[r * n + j];
    mean /= n;
    for (int64_t j = 0; j < n; ++j) var += (x[r * n + j] - mean) * (x[r * n + j] - mean);
    const double rstd = 1 / std::sqrt(var / n + eps);
    double mean_g = 0, mean_gx = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double g = dy[r * n + j] * static_cast<double>(w[j]), xhat = (x[r * n + j] - mean) * rstd;
      mean_g += g / n;
      mean_gx += g * xhat / n;
      want_dw[j] += dy[r * n + j] * xhat;
      want_db[j] += dy[r * n + j];
    }
    for (int64_t j = 0; j < n; ++j) {
      const int64_t k = r * n + j;
      const double xhat = (x[k] - mean) * rstd;
      // float32 statistics: the mean's rounding, times rstd, bounds the error (the row near
      // 1000 loses the most).
      const double tol = 1e-5 * (1 + std::fabs(mean) * rstd);
      EXPECT_NEAR(y[k], xhat * w[j] + b[j], tol) << r << " " << j;
      EXPECT_NEAR(dx[k], rstd * (dy[k] * static_cast<double>(w[j]) - mean_g - xhat * mean_gx), tol * rstd) << r << " " << j;
    }
  }
  for (int64_t j = 0; j < n; ++j) {
    EXPECT_NEAR(dw[j], want_dw[j], 1e-3) << j;
    EXPECT_NEAR(db[j], want_db[j], 1e-5) << j;
  }
  EXPECT_EQ(rowmath::inverse_std(0.0, 4.0, 0.25), 2.0);
}

TEST(SharedMath, CrossEntropyRowsAreTheFormulas) {
  const int64_t rows = 4, n = 33;
  const std::vector<float> x = logit_rows(rows, n);
  const std::vector<int64_t> target{5, 0, 3, -100};  // row 2's target has logit -inf; row 3 ignored
  const Tensor xt = tensor_of(x, DType::kFloat32).view(0, {rows, n}), tt = tensor_of(target, DType::kInt64);
  const std::vector<Tensor> out = run_cpu("softmax_cross_entropy", {xt, tt}, Attrs{});
  const std::vector<float> loss = values_of<float>(out[0]), lse = values_of<float>(out[1]);
  const std::vector<float> dloss{0.5f, -1, 2, 3}, dlse{0.25f, 0, -1, 1};
  const std::vector<float> dx = values_of<float>(
      run_cpu("softmax_cross_entropy_backward",
              {xt, tt, out[1], tensor_of(dloss, DType::kFloat32), tensor_of(dlse, DType::kFloat32)}, Attrs{})[0]);
  for (int64_t r = 0; r < rows; ++r) {
    double m = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; ++j) m = std::max(m, static_cast<double>(x[r * n + j]));
    for (int64_t j = 0; j < n; ++j) sum += std::exp(x[r * n + j] - m);
    const double want_lse = m + std::log(sum);
    EXPECT_NEAR(lse[r], want_lse, 2e-6 * (1 + std::fabs(want_lse))) << r;
    const bool ignored = target[r] == -100;
    const double want_loss = ignored ? 0 : want_lse - x[r * n + target[r]];
    if (std::isinf(want_loss)) {
      EXPECT_EQ(loss[r], want_loss) << r;
    } else {
      EXPECT_NEAR(loss[r], want_loss, 2e-6 * (1 + std::fabs(want_lse))) << r;
    }
    // dlogits from the lse the forward gave (float32: near 1e4 its rounding moves p by 1e-3).
    const double dl = ignored ? 0 : dloss[r];
    for (int64_t j = 0; j < n; ++j) {
      const double p = std::exp(x[r * n + j] - static_cast<double>(lse[r]));
      EXPECT_NEAR(dx[r * n + j], p * (dl + dlse[r]) - (j == target[r] ? dl : 0), 1e-6 * 4) << r << " " << j;
    }
  }
}

// ---- batch norm, group norm, dropout

// One set of values normalized together: the functions against the formulas in double, with
// a mean far from the spread (the shift by the first value keeps it exact).
TEST(SharedMath, NormFunctionsAreTheFormulas) {
  const int m = 12;
  std::vector<double> x(m), dy(m), w(m);
  for (int i = 0; i < m; ++i) {
    x[i] = 1000 + std::sin(0.9 * i);
    dy[i] = std::cos(0.4 * i);
    w[i] = i < 6 ? 1.5 : -0.5;  // two channels of a group
  }
  const double eps = 1e-5, dmean = 0.3, dvar = -0.2, bias = 0.25;
  double mean = 0, var = 0;
  for (double v : x) mean += v / m;
  for (double v : x) var += (v - mean) * (v - mean) / m;
  const double rstd = 1 / std::sqrt(var + eps);
  double sum = 0, squares = 0, sum_g = 0, sum_g_xhat = 0, sum_g_shifted = 0;
  for (int i = 0; i < m; ++i) {
    sum += x[i] - x[0], squares += (x[i] - x[0]) * (x[i] - x[0]);
    sum_g += dy[i] * w[i], sum_g_xhat += dy[i] * w[i] * (x[i] - mean) * rstd;
    sum_g_shifted += dy[i] * w[i] * (x[i] - x[0]);
  }
  const normmath::Moments mo = normmath::moments(sum, squares, m, eps);
  EXPECT_NEAR(x[0] + mo.offset, mean, 1e-12);
  EXPECT_NEAR(mo.variance, var, 1e-12);
  EXPECT_NEAR(mo.rstd, rstd, 1e-9);
  EXPECT_NEAR(normmath::sum_dy_xhat(sum_g, sum_g_shifted, mo.offset, mo.rstd), sum_g_xhat, 1e-9);
  const normmath::BackwardAffine k = normmath::backward_affine(sum_g, sum_g_xhat, mo.offset, mo.rstd, m, dmean, dvar);
  for (int i = 0; i < m; ++i) {
    const double xhat = (x[i] - mean) * rstd;
    const normmath::Affine f = normmath::forward_affine(w[i], bias, mo.offset, mo.rstd);
    EXPECT_NEAR(normmath::normalized(x[i], x[0], f.scale, f.shift), xhat * w[i] + bias, 1e-9) << i;
    const double want =
        rstd * (dy[i] * w[i] - sum_g / m - xhat * sum_g_xhat / m) + dmean / m + dvar * 2 * (x[i] - mean) / m;
    EXPECT_NEAR(normmath::backward_value(dy[i], x[i], x[0], w[i] * mo.rstd, k.a, k.b), want, 1e-9) << i;
  }
  // A constant set: variance 0 (not a negative rounding), rstd 1 / sqrt(eps); NaN and no values: NaN.
  EXPECT_EQ(normmath::moments(0, 0, 4, 0.25).rstd, 2.0);
  EXPECT_EQ(normmath::moments(1e-17, 0, 1, 0.25).variance, 0.0);
  EXPECT_TRUE(std::isnan(normmath::moments(NAN, NAN, 4, 0.25).variance));
  EXPECT_TRUE(std::isnan(normmath::moments(0, 0, 0, 0.25).variance));
}

TEST(SharedMath, DropoutKeepsDrawsFromPUpScaled) {
  const auto s = normmath::DropoutScale<float>::of(0.25);
  EXPECT_EQ(s.mask(0.25f), 1 / 0.75f);
  EXPECT_EQ(s.mask(std::nextafter(0.25f, 0.0f)), 0.0f);
  EXPECT_EQ(s.mask(0.0f), 0.0f);
  EXPECT_EQ(normmath::DropoutScale<double>::of(0).mask(0.0), 1.0);
  // The kernel: each mask value is 0 or the scale (about p of them 0), y = x mask.
  const int n = 4000;
  std::vector<float> xs(n);
  for (int i = 0; i < n; ++i) xs[i] = 0.5f + static_cast<float>(i % 7);
  const std::vector<Tensor> out =
      run_cpu("dropout", {tensor_of(xs, DType::kFloat32)}, {{"p", 0.25}, {"seed", int64_t{9}}, {"offset", int64_t{0}}});
  const std::vector<float> y = values_of<float>(out[0]), mask = values_of<float>(out[1]);
  int dropped = 0;
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(mask[i] == 0.0f || mask[i] == s.scale) << i << " " << mask[i];
    EXPECT_EQ(bits_of(y[i]), bits_of(xs[i] * mask[i])) << i;
    dropped += mask[i] == 0.0f;
  }
  EXPECT_NEAR(dropped, n / 4, 120);
}

// The CPU's batch norm and group norm kernels give the functions' bits, on values whose sums
// are exact in float32 (so each device's order of summing does not matter): float32 outputs
// from the double coefficients, as the GPU's kernels form them.
TEST(SharedMath, NormKernelsAreTheFunctions) {
  const int64_t batch = 3, channels = 4, spatial = 5, groups = 2, m = batch * spatial;
  const double eps = 1e-3;
  std::vector<float> x(batch * channels * spatial), dy(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = 100.0f + static_cast<float>((i * 7) % 17) - 8;
    dy[i] = static_cast<float>((i * 5) % 7) - 3;
  }
  const std::vector<float> w{1.5f, -0.5f, 2.0f, 0.75f}, b{0.25f, -1.0f, 0.0f, 3.0f}, dmean{0.5f, 0, -0.25f, 1},
      dvar{0, 0.125f, -0.5f, 2};
  auto at = [&](int64_t n, int64_t c, int64_t i) { return static_cast<size_t>((n * channels + c) * spatial + i); };
  auto f32 = [](double v) { return static_cast<float>(v); };
  const Tensor xt = tensor_of(x, DType::kFloat32).view(0, {batch, channels, spatial});
  const Tensor dyt = tensor_of(dy, DType::kFloat32).view(0, {batch, channels, spatial});
  const Tensor wt = tensor_of(w, DType::kFloat32), bt = tensor_of(b, DType::kFloat32);
  const Attrs bn{{"eps", eps}, {"has_weight", true}, {"has_bias", true}};
  const std::vector<Tensor> fwd = run_cpu("batch_norm", {xt, wt, bt}, bn);
  const Tensor dmt = tensor_of(dmean, DType::kFloat32), dvt = tensor_of(dvar, DType::kFloat32);
  const std::vector<Tensor> bwd = run_cpu("batch_norm_backward", {xt, dyt, fwd[1], fwd[2], dmt, dvt, wt}, bn);
  const std::vector<float> y = values_of<float>(fwd[0]), mean = values_of<float>(fwd[1]), var = values_of<float>(fwd[2]);
  const std::vector<float> dx = values_of<float>(bwd[0]), dw = values_of<float>(bwd[1]), db = values_of<float>(bwd[2]);
  for (int64_t c = 0; c < channels; ++c) {
    const float first = x[at(0, c, 0)];
    double sum = 0, squares = 0, sum_dy = 0, shifted = 0;
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < spatial; ++i) {
        const double d = x[at(n, c, i)] - first;
        sum += d, squares += d * d, sum_dy += dy[at(n, c, i)], shifted += dy[at(n, c, i)] * d;
      }
    }
    const normmath::Moments mo = normmath::moments(sum, squares, static_cast<double>(m), eps);
    EXPECT_EQ(bits_of(mean[c]), bits_of(f32(first + mo.offset))) << c;
    EXPECT_EQ(bits_of(var[c]), bits_of(f32(mo.variance))) << c;
    const normmath::Affine f = normmath::forward_affine(w[c], b[c], mo.offset, mo.rstd);
    const double offset = static_cast<double>(mean[c]) - first, rstd = normmath::rstd_of(var[c], eps);
    const double dxhat = normmath::sum_dy_xhat(sum_dy, shifted, offset, rstd);
    EXPECT_EQ(bits_of(dw[c]), bits_of(f32(dxhat))) << c;
    EXPECT_EQ(bits_of(db[c]), bits_of(f32(sum_dy))) << c;
    const normmath::BackwardAffine k =
        normmath::backward_affine(w[c] * sum_dy, w[c] * dxhat, offset, rstd, static_cast<double>(m), dmean[c], dvar[c]);
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < spatial; ++i) {
        const size_t e = at(n, c, i);
        EXPECT_EQ(bits_of(y[e]), bits_of(normmath::normalized(x[e], first, f32(f.scale), f32(f.shift)))) << e;
        const float want = normmath::backward_value(dy[e], x[e], first, f32(w[c] * rstd), f32(k.a), f32(k.b));
        EXPECT_EQ(bits_of(dx[e]), bits_of(want)) << e;
      }
    }
  }
  const Attrs gn{{"num_groups", groups}, {"eps", eps}, {"has_weight", true}, {"has_bias", true}};
  const std::vector<float> gy = values_of<float>(run_cpu("group_norm", {xt, wt, bt}, gn)[0]);
  const std::vector<Tensor> gb = run_cpu("group_norm_backward", {xt, wt, dyt}, gn);
  const std::vector<float> gdx = values_of<float>(gb[0]), gdw = values_of<float>(gb[1]), gdb = values_of<float>(gb[2]);
  const int64_t per_group = channels / groups;
  std::vector<double> want_dw(channels, 0), want_db(channels, 0);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      const float first = x[at(n, g * per_group, 0)];
      double sum = 0, squares = 0;
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        for (int64_t i = 0; i < spatial; ++i) {
          const double d = x[at(n, c, i)] - first;
          sum += d, squares += d * d;
        }
      }
      const normmath::Moments mo = normmath::moments(sum, squares, static_cast<double>(per_group * spatial), eps);
      double sum_g = 0, sum_gx = 0;
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        double s = 0, sx = 0;
        for (int64_t i = 0; i < spatial; ++i) {
          s += dy[at(n, c, i)], sx += dy[at(n, c, i)] * static_cast<double>(x[at(n, c, i)] - first);
        }
        const double centered = normmath::sum_dy_xhat(s, sx, mo.offset, mo.rstd);
        want_db[c] += s, want_dw[c] += centered, sum_g += w[c] * s, sum_gx += w[c] * centered;
      }
      const normmath::BackwardAffine k =
          normmath::backward_affine(sum_g, sum_gx, mo.offset, mo.rstd, static_cast<double>(per_group * spatial));
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const normmath::Affine f = normmath::forward_affine(w[c], b[c], mo.offset, mo.rstd);
        for (int64_t i = 0; i < spatial; ++i) {
          const size_t e = at(n, c, i);
          EXPECT_EQ(bits_of(gy[e]), bits_of(normmath::normalized(x[e], first, f32(f.scale), f32(f.shift)))) << e;
          EXPECT_EQ(bits_of(gdx[e]),
                    bits_of(normmath::backward_value(dy[e], x[e], first, f32(w[c] * mo.rstd), f32(k.a), f32(k.b))))
              << e;
        }
      }
    }
  }
  for (int64_t c = 0; c < channels; ++c) {
    EXPECT_EQ(bits_of(gdw[c]), bits_of(f32(want_dw[c]))) << c;
    EXPECT_EQ(bits_of(gdb[c]), bits_of(f32(want_db[c]))) << c;
  }
}

}  // namespace
}  // namespace mf
