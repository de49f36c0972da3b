// Copyright 2026 The meshflow Authors.
// Elementwise ops, with PyTorch's names and semantics and NumPy broadcasting:
//   binary, one dtype:  add sub mul div floor_divide maximum minimum pow; add and sub take
//                       attribute "alpha" (x + alpha y, x - alpha y: one fused multiply-add
//                       per element, torch's rounding)
//   comparisons:        eq ne lt le gt ge: two inputs of one dtype (bool too), a bool result
//   logical:            logical_and logical_or logical_xor logical_not: inputs of any one
//                       dtype, nonzero meaning true; a bool result
//   bitwise:            bitwise_and bitwise_or bitwise_xor bitwise_not: bool or integers;
//                       bitwise_left_shift bitwise_right_shift: integers, torch's shifts
//   predicates:         isnan isinf isfinite: any dtype, a bool result
//   addcmul(x, t1, t2): x + value t1 t2 (attribute "value"), torch's rounding (below)
//   where(cond, a, b):  cond of any dtype, nonzero meaning true; a and b of one dtype (bool too)
//   unary:              neg abs relu trunc (every dtype); exp log sqrt rsqrt tanh sigmoid
//                       (integers give float32, as torch does); gelu, exact erf form,
//                       gelu_tanh, torch's tanh approximation (gelu_tanh_backward(x, dy) its
//                       gradient, ops/nn.cc), and silu, x sigmoid(x) (floats)
//   math (torch's names, register_math_ops): the trigonometric, hyperbolic and erf families,
//                       logs and exponentials of other bases, sign round frac, atan2 fmod remainder hypot
//                       copysign binary_cross_entropy binary_cross_entropy_with_logits (per
//                       element); lgamma digamma polygamma (attribute n >= 1) i0 i0e i1 i1e
//                       erfcx bessel_j0 bessel_j1, the binary zeta gammainc gammaincc
//                       (register_special_ops, special_math.h)
//   cast(x, dtype)      C++ conversion (floats to integers truncate toward zero, saturate, NaN -> 0;
//                       to uint8, int8, int16 through int64, wrapping, as torch on x86;
//                       to bool: nonzero (NaN too) -> true; from bool: 1 or 0)
//   clamp hardtanh:     x limited to number bounds (attributes "min", "max"), as torch's;
//                       clamp_backward hardtanh_backward(x, dy) their gradients (below)
//   leaky_relu:         x where x > 0, else negative_slope x (attribute, a number), floats;
//                       leaky_relu_backward(x, dy) its gradient (below)
//   softplus:           log(1 + exp(beta x)) / beta, x where beta x > threshold (attributes,
//                       numbers), floats; softplus_backward(x, dy) its gradient (below)
//   smooth_l1(x, t):    smooth_l1_loss's or huber_loss's term of x - t (attributes "beta",
//                       "huber"), floats; smooth_l1_backward(x, t, dy) its gradient (below)
//   with a scalar (attribute "value", taken in x's dtype): add_scalar mul_scalar div_scalar
//                       pow_scalar (x ** value; torch's own loops for its special exponents,
//                       scalar_power.h), rpow_scalar (value ** x)
// Every op takes uint8, int8 and int16 (OpDef::small_ints), wrapping as PyTorch's; with a scalar
// they take its value modulo 2^bits (uint8 - 1 adds 255), where int32 and int64 refuse a value
// out of their range.
// Arithmetic takes no bool (the Python layer promotes first, as PyTorch). Integer division
// truncates toward zero (div) or rounds down (floor_divide) and a zero divisor is an error
// raised before any element is computed; an integer power with a negative exponent follows
// torch.pow (1 for base 1, +-1 for base -1, else 0), except that a negative scalar exponent
// is an error, as in PyTorch. Integer overflow is not checked, as in PyTorch.
//
// Signatures: splits follow the output dims (broadcast_split_signatures); partial ones
// come from how an op commutes with a reduction (PartialRule): a linear op passes sums
// (neg: P -> P; mul: P, B -> P), an op monotone in an input passes max and min through it
// (exp: P(max) -> P(max); neg: P(max) -> P(min)), maximum, minimum and where pass their own
// lattice reduction (maximum: P(max), P(max) -> P(max)). log, sqrt and rsqrt are monotone
// only on their domain: a rank's part of a valid max or min may lie outside it, so they
// pass no partial values.
//
// Gradients, as torch defines them: every floating op but floor_divide and the comparisons
// (which have none); where gives none to its condition; maximum and minimum split dy evenly
// between tied inputs; abs and relu have 0 at 0, trunc 0 everywhere; pow and pow_scalar
// follow torch where 0 * inf would make NaN. Broadcast inputs get dy summed (fn::sum_to).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "meshflow/ops/backward_loop.h"
#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/scalar_power.h"
#include "meshflow/ops/special_math.h"

namespace mf {
namespace {

using kernel::kParallelGrain;
constexpr ReduceOp kSum = ReduceOp::kSum, kMax = ReduceOp::kMax, kMin = ReduceOp::kMin;

// ---------------------------------------------------------------------------------------
// Partial signatures.

// Inputs `inputs` holding P(in), the others B, give an output P(out): valid when reducing
// the op's local results with `out` equals the op on the reduced inputs.
struct PartialRule {
  ReduceOp in;
  std::vector<int> inputs;
  ReduceOp out;
};
using Rules = std::vector<PartialRule>;
using RulesOf = std::function<Rules(const std::vector<TensorMeta>& in, const Attrs& attrs)>;

Rules linear(std::vector<int> inputs) { return {{kSum, std::move(inputs), kSum}}; }
// Nondecreasing in input i: max_r f(x_r) = f(max_r x_r), likewise min.
Rules increasing(int i) { return {{kMax, {i}, kMax}, {kMin, {i}, kMin}}; }
Rules decreasing(int i) { return {{kMax, {i}, kMin}, {kMin, {i}, kMax}}; }
Rules operator+(Rules a, const Rules& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
RulesOf always(Rules rules) {
  return [rules](const std::vector<TensorMeta>&, const Attrs&) { return rules; };
}
// `rules` where every input is bool, none otherwise.
RulesOf on_bools(Rules rules) {
  return [rules](const std::vector<TensorMeta>& in, const Attrs&) {
    const bool bools = std::all_of(in.begin(), in.end(), [](const TensorMeta& m) { return m.dtype == DType::kBool; });
    return bools ? rules : Rules{};
  };
}

// The rules of partial sums among `rules`.
Rules sums_only(const Rules& rules) {
  Rules sums;
  for (const PartialRule& r : rules) {
    if (r.in == ReduceOp::kSum && r.out == ReduceOp::kSum) sums.push_back(r);
  }
  return sums;
}

// `rules` without those of max and min where an input is an integer: adding, subtracting,
// negating and scaling wrap at an integer's range (the largest int32 plus 1 is the lowest),
// so they keep no order there; partial sums stay, as wrapping sums are still sums.
RulesOf order_for_floats_only(RulesOf rules) {
  return [rules](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    Rules all = rules(in, attrs);
    if (std::all_of(in.begin(), in.end(), [](const TensorMeta& m) { return is_floating(m.dtype); })) return all;
    return sums_only(all);
  };
}

// `rules` without those of max and min where attribute "alpha" is given (add's and sub's):
// its sign would decide which way the second input's order goes; sums stay linear.
RulesOf sums_only_under_alpha(RulesOf rules) {
  return [rules](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    Rules all = rules(in, attrs);
    return attrs.has("alpha") ? sums_only(all) : all;
  };
}

// The splits that broadcasting allows, then one signature per partial rule.
decltype(OpDef::signatures) signatures_from(RulesOf rules) {
  return [rules](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs& attrs) {
    std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
    for (const PartialRule& r : rules(in, attrs)) {
      Signature s{std::vector<Sbp>(in.size(), Sbp::broadcast()), {Sbp::partial(r.out)}};
      for (int i : r.inputs) s.inputs[i] = Sbp::partial(r.in);
      sigs.push_back(s);
    }
    return sigs;
  };
}

// ---------------------------------------------------------------------------------------
// Loops. Each op's scalar math is its functor in elementwise_math.h, shared with the GPU's
// kernels.

// out[i] = f(in[i]): the loop of every op without broadcasting.
template <typename TI, typename TO, typename F>
void map(const TI* in, TO* out, int64_t n, F f) {
  kernel::simd_for(n, [&](int64_t i) { out[i] = f(in[i]); });
}

// Attribute "value" in dtype T (kernel::scalar_attr: an int attribute stays exact).
template <typename T>
T scalar_value(const Attrs& attrs) {
  return kernel::scalar_attr<T>(attrs, "value");
}

// The scalar as the kernel of a tensor of `dtype` sees it (a half's: float32's, op.h "Halves").
double scalar_in(DType dtype, const Attrs& attrs) {
  return visit_numbers(is_half(dtype) ? DType::kFloat32 : real_of(dtype),
                       [&](auto v) { return static_cast<double>(scalar_value<decltype(v)>(attrs)); });
}

// ---------------------------------------------------------------------------------------
// Op builders.

// Which dtypes an op takes, and what it makes.
enum class Takes {
  kNumbers,  // floats and integers; the result in their dtype
  kAny,      // every dtype but the halves (bool too); a bool result
  kBits,     // bool and integers; the result in their dtype
};

template <Takes kTakes, typename T>
constexpr bool kTaken = kTakes != Takes::kBits || std::is_integral_v<T>;

template <Takes kTakes, typename T>
using ResultOf = std::conditional_t<kTakes == Takes::kAny, bool, T>;

// Refuses floats for kBits, naming the op; the result's dtype.
template <Takes kTakes>
DType result_dtype(const std::string& name, DType in) {
  if (kTakes == Takes::kBits && is_floating(in)) {
    op_error(name, std::string("is defined for bool and integer tensors, got ") + dtype_name(in));
  }
  return kTakes == Takes::kAny ? DType::kBool : in;
}

// Visits the dtypes kTakes admits (kNumbers: not bool, which the registry refuses).
template <Takes kTakes, typename F>
void visit_taken(DType dtype, F&& f) {
  if constexpr (kTakes == Takes::kNumbers) {
    visit_numbers(dtype, std::forward<F>(f));
  } else {
    visit_with_bool(dtype, std::forward<F>(f));
  }
}

// A binary op of one dtype; `f` is a generic function of two values of that dtype.
template <Takes kTakes = Takes::kNumbers, typename F>
OpDef binary(const std::string& name, RulesOf rules, F f) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.booleans = kTakes != Takes::kNumbers;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 2);
    kernel::expect_same_dtype(name, in[0], in[1]);
    return std::vector<TensorMeta>{
        {kernel::broadcast_shapes(name, in[0].shape, in[1].shape), result_dtype<kTakes>(name, in[0].dtype)}};
  };
  op.signatures = signatures_from(std::move(rules));
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    visit_taken<kTakes>(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      using TO = ResultOf<kTakes, T>;
      if constexpr (kTaken<kTakes, T>) {
        kernel::broadcast_binary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(),
                                 out.data_as<TO>(), out.shape(), [&](T x, T y) -> TO { return f(x, y); });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// A unary op of kTakes's dtypes (kAny or kBits); `f` is a generic function of one value.
template <Takes kTakes, typename F>
OpDef unary_of(const std::string& name, RulesOf rules, F f) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.booleans = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 1);
    return std::vector<TensorMeta>{{in[0].shape, result_dtype<kTakes>(name, in[0].dtype)}};
  };
  op.signatures = signatures_from(std::move(rules));
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      using TO = ResultOf<kTakes, T>;
      if constexpr (kTaken<kTakes, T>) {
        map(in[0].data_as<T>(), out.data_as<TO>(), in[0].numel(), [&](T x) -> TO { return f(x); });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// `op` with its integer divisor (input 1) checked for zeros before the kernel runs.
OpDef nonzero_integer_divisor(OpDef op) {
  op.kernel_checks_data = true;
  auto run = op.kernel;
  op.kernel = [run, name = op.name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    visit_numbers(in[1].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_integral_v<T>) {
        const T* y = in[1].data_as<T>();
        const int64_t n = in[1].numel();
        if (numel(ctx.output_boxes[0].extent) > 0 && std::find(y, y + n, T{0}) != y + n) {
          op_error(name, "integer division by zero; expected nonzero divisors (or a float dtype)");
        }
      }
    });
    return run(in, ctx);
  };
  return op;
}

// `op` (a kBits op) refusing bool inputs, as torch's shifts.
OpDef integers_only(OpDef op) {
  auto infer = op.infer;
  op.infer = [infer, name = op.name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    std::vector<TensorMeta> out = infer(in, attrs);
    if (in[0].dtype == DType::kBool) op_error(name, "is defined for integer tensors, got bool");
    return out;
  };
  return op;
}

// What a unary op does with integer inputs.
enum class Integers { kKeep, kToFloat32, kReject };

// A unary op; `f` is a generic function of one value of the output dtype.
template <Integers kIntegers, typename F>
OpDef unary(const std::string& name, Rules rules, F f) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 1);
    DType out = in[0].dtype;
    if (!is_floating(out) && kIntegers == Integers::kReject) {
      op_error(name, std::string("is defined for float32 and float64, got ") + dtype_name(out) +
                         "; cast the input to a float dtype first");
    }
    if (!is_floating(out) && kIntegers == Integers::kToFloat32) out = DType::kFloat32;
    return std::vector<TensorMeta>{{in[0].shape, out}};
  };
  op.signatures = signatures_from(always(std::move(rules)));
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_numbers(in[0].dtype(), [&](auto v) {
      using TI = decltype(v);
      constexpr bool kInt = std::is_integral_v<TI>;
      using TO = std::conditional_t<kInt && kIntegers == Integers::kToFloat32, float, TI>;
      if constexpr (!kInt || kIntegers != Integers::kReject) {
        map(in[0].data_as<TI>(), out.data_as<TO>(), in[0].numel(), [&](TI x) -> TO { return f(static_cast<TO>(x)); });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// x op scalar: `loop(x, out, n, s)` writes out[i] = x[i] op s for i < n, s the attribute
// "value" in x's dtype (a generic function of the pointers' type).
template <typename Loop>
OpDef with_scalar_loop(const std::string& name, RulesOf rules, Loop loop) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    attrs.get_float("value");
    // A small integer takes the value modulo 2^bits, as torch (uint8 - 1 adds 255); the
    // other integers refuse what does not fit.
    if (!is_small_int(in[0].dtype)) kernel::check_fits(name, "value", attrs, in[0].dtype);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = signatures_from(std::move(rules));
  op.kernel = [loop](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_numbers(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      loop(in[0].data_as<T>(), out.data_as<T>(), out.numel(), scalar_value<T>(ctx.attrs));
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// x op scalar: `f(x, s)` with s the attribute "value" in x's dtype.
template <typename F>
OpDef with_scalar(const std::string& name, RulesOf rules, F f) {
  return with_scalar_loop(name, std::move(rules), [f](const auto* x, auto* out, int64_t n, auto s) {
    map(x, out, n, [&](auto v) -> decltype(s) { return f(v, s); });
  });
}

// x ** s, one loop per exponent that torch gives its own (kernel::scalar_power).
template <typename T>
void power_loop(const T* x, T* out, int64_t n, T s) {
  kernel::with_scalar_power(s, [&](auto power) {
    map(x, out, n, [s](T v) { return kernel::scalar_power<decltype(power)::value>(v, s); });
  });
}

// add's and sub's attribute "alpha" (a number; absent, 1): x + alpha y (sign 1) or x - alpha
// y (sign -1), each element one fused multiply-add in x's dtype (scalar::AddScaled), as
// torch's add(x, y, alpha=) is; complex values as x + (sign alpha) y. Without it, `op`'s own kernel.
OpDef with_alpha(OpDef op, double sign) {
  op.kernel = [run = op.kernel, sign](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (!ctx.attrs.has("alpha")) return run(in, ctx);
    const double alpha = sign * ctx.attrs.get_float("alpha");
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    auto over = [&](auto v, auto f) {
      using T = decltype(v);
      kernel::broadcast_binary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(),
                               out.data_as<T>(), out.shape(), f);
    };
    if (is_complex(in[0].dtype())) {
      visit_complex(in[0].dtype(), [&](auto v) {
        using C = decltype(v);
        over(v, [a = C(static_cast<typename C::value_type>(alpha))](C x, C y) { return x + a * y; });
      });
    } else {
      visit_numbers(in[0].dtype(), [&](auto v) { over(v, scalar::AddScaled{alpha}); });
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

// Complex inputs (ops/op.h, OpDef::complex): `op`, an op of one dtype, computing them by
// f(x, y) (binary: a complex value, or a bool for eq and ne), f(x) (unary) or f(x, s) (with a
// real scalar s) on std::complex values; its other dtypes as before. A unary op makes values
// of the input's dtype, real values of them (`kReal`: abs) or truth values (`kBool`: isnan).
template <typename F>
OpDef complex_binary(OpDef op, F f) {
  op.complex = true;
  op.kernel = [run = op.kernel, f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (!is_complex(in[0].dtype())) return run(in, ctx);
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      using R = decltype(f(v, v));  // C, or bool (eq, ne)
      kernel::broadcast_binary(in[0].data_as<C>(), in[0].shape(), in[1].data_as<C>(), in[1].shape(), out.data_as<R>(),
                               out.shape(), [&](C x, C y) -> R { return f(x, y); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

enum class ComplexTo { kSame, kReal, kBool };

template <typename F>
OpDef complex_unary(OpDef op, F f, ComplexTo to = ComplexTo::kSame) {
  op.complex = true;
  op.infer = [infer = op.infer, to](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    if (in.size() != 1 || !is_complex(in[0].dtype)) return infer(in, attrs);
    const DType out = to == ComplexTo::kSame ? in[0].dtype : to == ComplexTo::kReal ? real_of(in[0].dtype) : DType::kBool;
    return std::vector<TensorMeta>{{in[0].shape, out}};
  };
  op.kernel = [run = op.kernel, f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (!is_complex(in[0].dtype())) return run(in, ctx);
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      using R = decltype(f(v));
      map(in[0].data_as<C>(), out.data_as<R>(), in[0].numel(), [&](C x) -> R { return f(x); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// f(x, s) on complex x with the real scalar s in x's part type (for rpow_scalar, s ** x).
template <typename F>
OpDef complex_scalar(OpDef op, F f) {
  op.complex = true;
  op.kernel = [run = op.kernel, f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (!is_complex(in[0].dtype())) return run(in, ctx);
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      const auto s = static_cast<typename C::value_type>(ctx.attrs.get_float("value"));
      map(in[0].data_as<C>(), out.data_as<C>(), in[0].numel(), [&](C x) -> C { return f(x, s); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// `op` refusing an integer input with a scalar for which `bad` holds: the scalar as the
// kernel sees it (in x's dtype: a small integer's wrapped), or as given when `as_given`.
template <typename Bad>
OpDef integer_scalar_check(OpDef op, Bad bad, const std::string& why, bool as_given = false) {
  auto infer = op.infer;
  op.infer = [infer, bad, why, as_given, name = op.name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    std::vector<TensorMeta> out = infer(in, attrs);
    const double s = as_given ? attrs.get_float("value") : scalar_in(in[0].dtype, attrs);
    if (!is_floating(in[0].dtype) && !is_complex(in[0].dtype) && bad(s)) op_error(name, why);
    return out;
  };
  return op;
}

// x * s and x / s: linear for a finite s (a nonzero one for division), monotone by s's sign.
RulesOf scaling_rules(bool divides) {
  RulesOf rules = [divides](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const double s = scalar_in(in[0].dtype, attrs);
    if (!std::isfinite(s) || (divides && s == 0)) return Rules{};
    const bool integers = !is_floating(in[0].dtype);
    // An integer quotient never leaves the range, but for the lowest value over -1.
    if (divides && integers) return s == -1 ? Rules{} : s > 0 ? increasing(0) : decreasing(0);
    return linear({0}) + (s >= 0 ? increasing(0) : decreasing(0));
  };
  return divides ? rules : order_for_floats_only(rules);
}

// A sum of casts is the cast of the sum when every value of `from` is exact in `to` and the
// sums agree: floats widen (up to the rounding every partial sum has); an integer sum wraps
// where a wider type's would not, so integers keep P(sum) only as themselves.
bool widens_exactly(DType from, DType to) {
  return from == to || (from == DType::kFloat32 && to == DType::kFloat64) ||
         (is_half(from) && (to == DType::kFloat32 || to == DType::kFloat64));
}

// x converted to TO, as cast does: real values by scalar::Cast (elementwise_math.h, the GPU's
// too). A complex value to a real dtype keeps its real part (torch's cast, which warns that
// it discards the imaginary part); a real one to complex has imaginary part 0.
template <typename TO, typename TI>
TO convert(TI x) {
  if constexpr (std::is_same_v<TI, TO>) {
    return x;
  } else if constexpr (is_complex_v<TO>) {
    if constexpr (is_complex_v<TI>) {
      return TO(x);
    } else {
      return TO(convert<typename TO::value_type>(x));
    }
  } else if constexpr (is_complex_v<TI>) {
    if constexpr (std::is_same_v<TO, bool>) {
      return x != TI{0};
    } else {
      return convert<TO>(x.real());
    }
  } else {
    return scalar::Cast<TO>{}(x);
  }
}

// The max of casts is the cast of the max when the conversion is nondecreasing over every
// value of `from`: rounding to a float is (it saturates to infinity), a float to int32 or
// int64 is (truncation, then saturation: float_to_integer), and so is an integer to one that
// holds all its values; a float to a small integer and the other integer casts wrap. (NaN is
// outside every order, as for relu or exp.)
bool preserves_order(DType from, DType to) {
  if (to == DType::kBool) return from == DType::kBool;  // x != 0: -1 and 1 are true, 0 is not
  if (from == DType::kBool || is_floating(to)) return true;
  if (is_floating(from)) return !is_small_int(to);
  if (to == DType::kUInt8 || from == DType::kUInt8) return from == to || dtype_size(from) < dtype_size(to);
  return dtype_size(from) <= dtype_size(to);
}

OpDef cast() {
  const std::string name = "cast";
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    return std::vector<TensorMeta>{{in[0].shape, attrs.get_dtype("dtype")}};
  };
  op.signatures = signatures_from([](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const DType from = in[0].dtype, to = attrs.get_dtype("dtype");
    return (preserves_order(from, to) ? increasing(0) : Rules{}) + (widens_exactly(from, to) ? linear({0}) : Rules{});
  });
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_storage(in[0].dtype(), [&](auto from) {
      visit_storage(out.dtype(), [&](auto to) {
        using TI = decltype(from);
        using TO = decltype(to);
        map(in[0].data_as<TI>(), out.data_as<TO>(), in[0].numel(), [](TI x) { return convert<TO>(x); });
      });
    });
    return std::vector<Tensor>{out};
  };
  op.bfloat16 = true;
  op.booleans = true;
  op.float16 = true;
  op.complex = true;
  return op;
}

// One row of `select` whose inputs step by kC, kA, kB (0: one value broadcast along the row,
// 1: contiguous), strides known to the compiler so that the row vectorizes.
template <int kC, int kA, int kB, typename TC, typename T>
MF_MULTIVERSIONED void select_row(const TC* c, const T* a, const T* b, T* out, int64_t n) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) {
    out[j] = scalar::Select{}(c[j * kC], a[j * kA], b[j * kB]);
  }
}

// A row of `select` with inner strides ic, ia, ib: the vectorized row where each is 0 or 1
// (an attention mask broadcast over heads, a 0-d fill value), else element by element.
template <typename TC, typename T>
void select_strided_row(const TC* c, int64_t ic, const T* a, int64_t ia, const T* b, int64_t ib, T* out, int64_t n) {
  if constexpr (std::is_same_v<TC, bool>) {
    // As bytes (0 or 1): GCC's vectorizer takes a row of uint8_t conditions, not of bools.
    select_strided_row(reinterpret_cast<const uint8_t*>(c), ic, a, ia, b, ib, out, n);
    return;
  }
  if ((ic | ia | ib) & ~int64_t{1}) {
    for (int64_t j = 0; j < n; ++j) out[j] = scalar::Select{}(c[j * ic], a[j * ia], b[j * ib]);
    return;
  }
  using Row = void (*)(const TC*, const T*, const T*, T*, int64_t);
  static constexpr Row rows[8] = {select_row<0, 0, 0, TC, T>, select_row<0, 0, 1, TC, T>, select_row<0, 1, 0, TC, T>,
                                  select_row<0, 1, 1, TC, T>, select_row<1, 0, 0, TC, T>, select_row<1, 0, 1, TC, T>,
                                  select_row<1, 1, 0, TC, T>, select_row<1, 1, 1, TC, T>};
  rows[ic * 4 + ia * 2 + ib](c, a, b, out, n);
}

// Elements of one piece of a flat `select` (a piece per task of the team).
constexpr int64_t kSelectChunk = 1 << 14;

// out[i] = c[i] != 0 ? a[i] : b[i] over `shape`, each input read through its broadcast
// strides rather than expanded: masked_fill_ of a large tensor (where over its own memory,
// a 0-d value) allocates nothing.
template <typename TC, typename T>
void select(const TC* c, const Shape& c_shape, const T* a, const Shape& a_shape, const T* b, const Shape& b_shape,
            T* out, const Shape& shape) {
  if constexpr (std::is_same_v<TC, bool>) {
    // As bytes (0 or 1), as select_strided_row: over bools GCC compiles a branch per element
    // rather than a blend, which mispredicts on a mask of mixed values.
    select(reinterpret_cast<const uint8_t*>(c), c_shape, a, a_shape, b, b_shape, out, shape);
    return;
  }
  const int64_t n = numel(shape);
  if (n == 0) return;
  if (c_shape == shape && a_shape == shape && b_shape == shape) {
    // Both values are loaded unconditionally (the functor's arguments), so the selection
    // compiles to a blend.
    kernel::simd_for(n, [&](int64_t i) { out[i] = scalar::Select{}(c[i], a[i], b[i]); });
    return;
  }
  // Each input whole or one value (a 0-d fill value, clamp's bound): one row over the whole
  // tensor, where rows of the last dim would leave short rows and their scalar tails.
  const auto flat_step = [&](const Shape& s) { return s == shape ? 1 : numel(s) == 1 ? 0 : -1; };
  const int64_t fc = flat_step(c_shape), fa = flat_step(a_shape), fb = flat_step(b_shape);
  if (fc >= 0 && fa >= 0 && fb >= 0) {
    kernel::parallel_for((n + kSelectChunk - 1) / kSelectChunk, n > kernel::kParallelGrain, [&](int64_t k) {
      const int64_t at = k * kSelectChunk, len = std::min(kSelectChunk, n - at);
      select_strided_row(c + at * fc, fc, a + at * fa, fa, b + at * fb, fb, out + at, len);
    });
    return;
  }
  const size_t nd = shape.size();
  const Shape sc = kernel::broadcast_strides(c_shape, shape), sa = kernel::broadcast_strides(a_shape, shape),
              sb = kernel::broadcast_strides(b_shape, shape);
  const int64_t inner = nd ? shape[nd - 1] : 1;
  const int64_t ic = nd ? sc[nd - 1] : 0, ia = nd ? sa[nd - 1] : 0, ib = nd ? sb[nd - 1] : 0;
  kernel::parallel_for(n / inner, n > kernel::kParallelGrain, [&](int64_t r) {
    int64_t rest = r, oc = 0, oa = 0, ob = 0;
    for (int64_t d = static_cast<int64_t>(nd) - 2; d >= 0; --d) {
      const int64_t i = rest % shape[d];
      rest /= shape[d];
      oc += i * sc[d];
      oa += i * sa[d];
      ob += i * sb[d];
    }
    select_strided_row(c + oc, ic, a + oa, ia, b + ob, ib, out + r * inner, inner);
  });
}

OpDef where() {
  const std::string name = "where";
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 3);
    kernel::expect_same_dtype(name, in[1], in[2]);
    const Shape values = kernel::broadcast_shapes(name, in[1].shape, in[2].shape);
    return std::vector<TensorMeta>{{kernel::broadcast_shapes(name, in[0].shape, values), in[1].dtype}};
  };
  // Each element takes one of its two values, so sums, maxima and minima pass through the
  // values (not the condition).
  op.signatures = signatures_from(always(linear({1, 2}) + increasing(1) + increasing(2) +
                                         Rules{{kMax, {1, 2}, kMax}, {kMin, {1, 2}, kMin}}));
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = ctx.output_boxes[0].extent;
    Tensor out = ctx.output(0, shape, in[1].dtype());
    visit_with_bool(in[0].dtype(), [&](auto c) {
      auto values = [&](auto v) {
        using TC = decltype(c);
        using T = decltype(v);
        select(in[0].data_as<TC>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(), in[2].data_as<T>(),
               in[2].shape(), out.data_as<T>(), shape);
      };
      is_complex(out.dtype()) ? visit_complex(out.dtype(), values) : visit_with_bool(out.dtype(), values);
    });
    return std::vector<Tensor>{out};
  };
  op.booleans = true;
  op.complex = true;  // it only moves values
  return op;
}

// addcmul(x, t1, t2; attribute "value"): x + value t1 t2 as torch's CPU kernel rounds it
// (scalar::AddcmulOf), the three of one dtype (floats or integers), broadcast. No partial
// value passes through a product.
OpDef addcmul() {
  const std::string name = "addcmul";
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 3);
    kernel::expect_same_dtype(name, in[0], in[1]);
    kernel::expect_same_dtype(name, in[0], in[2]);
    attrs.get_float("value");
    const Shape factors = kernel::broadcast_shapes(name, in[1].shape, in[2].shape);
    return std::vector<TensorMeta>{{kernel::broadcast_shapes(name, in[0].shape, factors), in[0].dtype}};
  };
  op.signatures = signatures_from(always({}));
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    const scalar::AddcmulOf f{ctx.attrs.get_float("value")};
    visit_numbers(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      kernel::broadcast_ternary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(),
                                in[2].data_as<T>(), in[2].shape(), out.data_as<T>(), out.shape(), f);
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// Only a true quotient is linear in the dividend.
Rules division_rules(const std::vector<TensorMeta>& in, const Attrs&) {
  return !is_floating(in[0].dtype) ? Rules{} : linear({0});
}

// value ** x grows with x for value >= 1 and shrinks for a float value in (0, 1).
Rules rpow_rules(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const double s = scalar_in(in[0].dtype, attrs);
  return s >= 1 ? increasing(0) : s > 0 ? decreasing(0) : Rules{};
}

// ---------------------------------------------------------------------------------------
// clamp and hardtanh (attributes "min" and "max", numbers; clamp may lack one of them): x
// limited to [min, max] as torch's min(max(x, min), max): NaN stays NaN, min > max gives max
// everywhere, a NaN bound NaN everywhere. They differ in their gradients alone, as torch's:
// clamp_backward passes dy where min < x < max (neither at a bound nor at NaN), while
// hardtanh_backward (relu6's too) stops it only where x <= min or x >= max, so NaN passes.
// A tensor bound is Python's: maximum and minimum, whose gradient splits ties (torch 2.x's).

constexpr const char* kClampBackward = "clamp_backward";
constexpr const char* kHardtanhBackward = "hardtanh_backward";

// Checks that the bounds are numbers that convert to `dtype` (kernel::check_converts), at
// least one of them (hardtanh: both, min <= max). An integer dtype takes a bound past its
// range where it changes nothing (uint8's min -5 or max 300: kernel::clamp_bounds) and
// refuses one past the other end (min 300), as torch's; a float bound truncates toward zero.
void check_bounds(const std::string& name, const Attrs& attrs, DType dtype, bool hardtanh) {
  const bool lo = attrs.has("min"), hi = attrs.has("max");
  if (!lo && !hi) op_error(name, "has neither min nor max; expected at least one bound");
  if (hardtanh && !(lo && hi)) op_error(name, "needs both min and max");
  const bool integers = !is_floating(dtype) && !is_complex(dtype) && dtype != DType::kBool;
  for (const char* key : {"min", "max"}) {
    if (!attrs.has(key)) continue;
    const double x = attrs.get_float(key);
    if (!integers) {
      kernel::check_converts(name, key, attrs, dtype);
      continue;
    }
    if (std::isnan(x)) op_error(name, std::string(key) + " is NaN; expected a number for a " + dtype_name(dtype) + " tensor");
    const bool is_min = std::string(key) == "min";
    visit_numbers(dtype, [&](auto v) {
      using T = decltype(v);
      const int64_t end = is_min ? static_cast<int64_t>(std::numeric_limits<T>::max())
                                 : static_cast<int64_t>(std::numeric_limits<T>::lowest());
      const std::optional<int64_t> exact = kernel::exact_int(attrs, key);
      const double bound = std::trunc(x), edge = static_cast<double>(end);
      const bool past = exact ? (is_min ? *exact > end : *exact < end) : (is_min ? bound > edge : bound < edge);
      if (past) {
        op_error(name, std::string(key) + " " + (exact ? std::to_string(*exact) : kernel::number_text(bound)) +
                           " is outside the representable range of " + dtype_name(dtype) + "; expected " +
                           (is_min ? "at most " : "at least ") + std::to_string(end));
      }
    });
  }
  if (hardtanh && attrs.get_float("min") > attrs.get_float("max")) {
    op_error(name, "min_val cannot be greater than max_val; expected min_val <= max_val");
  }
}

OpDef clamp_op(const std::string& name, bool hardtanh) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.small_ints = true;
  op.check_given = [name, hardtanh](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    check_bounds(name, attrs, in[0].dtype, hardtanh);
  };
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs&) { return std::vector<TensorMeta>{in[0]}; };
  op.signatures = signatures_from(always(increasing(0)));
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_numbers(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const kernel::ClampBounds<T> b = kernel::clamp_bounds<T>(ctx.attrs);
      const scalar::Clamp<T> clamp{b.lo, b.hi};
      if (b.nan()) {
        map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), clamp);
      } else {
        map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), [clamp](T x) { return clamp.between(x); });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

void expect_floating_x(const std::string& name, const TensorMeta& x) {
  if (!is_floating(x.dtype)) op_error(name, std::string("x is ") + dtype_name(x.dtype) + "; expected a float dtype");
}

// A backward op's (x, dy): the splits broadcasting allows, and B, P -> P (linear in dy).
std::vector<Signature> linear_in_dy_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                               const Attrs&) {
  std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
  sigs.push_back({{Sbp::broadcast(), Sbp::partial_sum()}, {Sbp::partial_sum()}});
  return sigs;
}

// An activation's backward op `name`: dx from x and dy of one float dtype, dy of x's shape or
// one that broadcasts to it (a sum's gradient, not expanded: autograd/var.h), dx of x's;
// linear in dy. `check(attrs)` throws for bad attributes; `functor(T{}, attrs)` is dx =
// f(x, dy) for float dtype T.
template <typename Functor>
OpDef activation_backward_op(const char* name, void (*check)(const Attrs&), Functor functor) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.infer = [name, check](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 2);
    expect_floating_x(name, in[0]);
    kernel::expect_broadcasts_to(name, in[1].shape, in[0].shape, "dy", "x's");
    kernel::expect_same_dtype(name, in[0], in[1]);
    check(attrs);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = linear_in_dy_signatures;
  op.kernel = [functor](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        kernel::activation_backward_loop(in[0].data_as<T>(), in[1].data_as<T>(), in[1].shape(), out.data_as<T>(),
                                         out.shape(), functor(v, ctx.attrs));
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// clamp's or hardtanh's (kHardtanh) backward; its bounds are checked on the caller's dtype.
template <bool kHardtanh>
OpDef clamp_backward_op(const char* name) {
  OpDef op = activation_backward_op(name, [](const Attrs&) {}, [](auto v, const Attrs& attrs) {
    using T = decltype(v);
    const kernel::ClampBounds<T> b = kernel::clamp_bounds<T>(attrs);
    return scalar::ClampBackward<T, kHardtanh>{b.lo, b.hi, b.has_lo, b.has_hi};
  });
  op.check_given = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 2);
    check_bounds(name, attrs, in[0].dtype, kHardtanh);
  };
  return op;
}

// leaky_relu (attribute "negative_slope", a number): x where x > 0, else negative_slope x,
// of a float x (torch has no integer kernel); leaky_relu_backward(x, dy): dy where x > 0,
// else negative_slope dy. Both one pass; the backward reads x alone, as torch's.
constexpr const char* kLeakyReluBackward = "leaky_relu_backward";

// The slope in T, checked to be a number.
template <typename T>
T leaky_slope(const Attrs& attrs) {
  return static_cast<T>(attrs.get_float("negative_slope"));
}

OpDef leaky_relu_op() {
  OpDef op;
  op.name = "leaky_relu";
  op.elementwise = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs("leaky_relu", in, 1);
    expect_floating_x("leaky_relu", in[0]);
    leaky_slope<double>(attrs);
    return std::vector<TensorMeta>{in[0]};
  };
  // Nondecreasing for a slope >= 0: passes partial max and min.
  op.signatures = signatures_from([](const std::vector<TensorMeta>&, const Attrs& attrs) {
    return leaky_slope<double>(attrs) >= 0 ? increasing(0) : Rules{};
  });
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), scalar::LeakyRelu<T>{leaky_slope<T>(ctx.attrs)});
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

OpDef leaky_relu_backward_op() {
  return activation_backward_op(
      kLeakyReluBackward, [](const Attrs& attrs) { leaky_slope<double>(attrs); }, [](auto v, const Attrs& attrs) {
        using T = decltype(v);
        return scalar::LeakyReluBackward<T>{leaky_slope<T>(attrs)};
      });
}

// softplus (attributes "beta", "threshold", numbers): scalar::Softplus of a float x, and
// softplus_backward(x, dy) its gradient; one pass each, where the composition of torch's
// formula in other ops took a dozen (9x torch's time forward and backward). float32 runs
// fast_softplus and fast_math's sigmoid, vectorized.
constexpr const char* kSoftplus = "softplus";
constexpr const char* kSoftplusBackward = "softplus_backward";

// float32's softplus below the threshold, vectorizing: log(1 + exp(s)) = max(s, 0) +
// log1p(e), e = exp(-|s|) in (0, 1], log1p(e) = 2 atanh(t) with t = e / (2 + e) in (0, 1/3],
// atanh's odd series to t^15 (its remainder below 1e-9 relative): accurate where e is tiny
// (log(1 + e) rounds 1 + e first), and no select between two logarithms, which kept GCC from
// vectorizing the loop (within 2 ulps of log1p(exp(s))).
MF_ALWAYS_INLINE float fast_softplus(float s) {
  const float e = fast_math::exp_nonpositive(s > 0 ? -s : s), t = e / (2 + e), t2 = t * t;
  float p = fast_math::fma(t2, 1.0f / 15, 1.0f / 13);
  p = fast_math::fma(p, t2, 1.0f / 11);
  p = fast_math::fma(p, t2, 1.0f / 9);
  p = fast_math::fma(p, t2, 1.0f / 7);
  p = fast_math::fma(p, t2, 1.0f / 5);
  p = fast_math::fma(p, t2, 1.0f / 3);
  return (s > 0 ? s : 0.0f) + 2 * fast_math::fma(t * t2, p, t);
}

template <typename T>
std::pair<T, T> softplus_attrs(const Attrs& attrs) {
  return {static_cast<T>(attrs.get_float("beta")), static_cast<T>(attrs.get_float("threshold"))};
}

OpDef softplus_op() {
  OpDef op;
  op.name = kSoftplus;
  op.elementwise = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSoftplus, in, 1);
    expect_floating_x(kSoftplus, in[0]);
    softplus_attrs<double>(attrs);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = signatures_from([](const std::vector<TensorMeta>&, const Attrs&) { return Rules{}; });
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const auto [beta, threshold] = softplus_attrs<T>(ctx.attrs);
        if constexpr (std::is_same_v<T, float>) {
          // Always inlined, as float32_by's: called out of line from the multiversioned loop,
          // its fma went through libm's fmaf, scalar.
          map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), [beta, threshold](float x)
                                                                      __attribute__((always_inline)) {
            const float s = x * beta, smooth = fast_softplus(s) / beta;
            return s > threshold ? x : smooth;
          });
        } else {
          map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), scalar::Softplus<T>{beta, threshold});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// float32 through fast_math's sigmoid, vectorized.
OpDef softplus_backward_op() {
  return activation_backward_op(
      kSoftplusBackward, [](const Attrs& attrs) { softplus_attrs<double>(attrs); }, [](auto v, const Attrs& attrs) {
        using T = decltype(v);
        const auto [beta, threshold] = softplus_attrs<T>(attrs);
        if constexpr (std::is_same_v<T, float>) {
          return [beta, threshold](float x, float dy) __attribute__((always_inline)) {
            const float s = x * beta, smooth = dy * fast_math::sigmoid(s);
            return s > threshold ? dy : smooth;
          };
        } else {
          return scalar::SoftplusBackward<T>{beta, threshold};
        }
      });
}

// softplus_backward's gradient: itself on ddx for dy (linear in dy; summed where dy was
// broadcast), and for x ddx dy beta sigmoid'(beta x) at most at the threshold, 0 above it.
std::vector<Var> softplus_backward_grad(const GradContext& g) {
  const Var &x = g.inputs[0], &dy = g.inputs[1], &ddx = g.grad_outputs[0];
  std::vector<Var> grads(2);
  if (g.needs_grad[1]) grads[1] = fn::sum_to(call1(kSoftplusBackward, {x, ddx}, g.attrs), dy.shape());
  if (g.needs_grad[0]) {
    const double beta = g.attrs.get_float("beta");
    const Var s = fn::mul_scalar(x, beta), sigmoid = fn::sigmoid(s);
    const Var below = fn::cast(fn::ge(fn::full_like(x, g.attrs.get_float("threshold")), s), x.dtype());
    const Var slope = fn::mul(fn::mul(below, sigmoid), fn::add_scalar(fn::neg(sigmoid), 1.0));
    grads[0] = fn::mul_scalar(fn::mul(fn::mul(ddx, dy), slope), beta);
  }
  return grads;
}

// smooth_l1 (x, t; attributes "beta" > 0, "huber" a bool): smooth_l1_loss's per-element term
// of x - t, or huber_loss's with beta its delta (scalar::SmoothL1), for x and t of one float
// dtype and shape; smooth_l1_backward (x, t, dy): the gradient in x (the target's is its
// negative), dy of x's shape or one that broadcasts to it (a mean's). Each one pass, where
// the composition wrote five temporaries.
constexpr const char* kSmoothL1Backward = "smooth_l1_backward";

double smooth_l1_beta(const std::string& name, const Attrs& attrs) {
  const double beta = attrs.get_float("beta");
  if (!(beta > 0)) op_error(name, "beta " + std::to_string(beta) + "; expected beta > 0 (beta 0 is l1_loss)");
  attrs.get_bool("huber");
  return beta;
}

void check_smooth_l1_operands(const std::string& name, const std::vector<TensorMeta>& in, size_t count) {
  kernel::expect_inputs(name, in, count);
  expect_floating_x(name, in[0]);
  kernel::expect_same_dtype(name, in[0], in[1]);
  if (in[0].shape != in[1].shape) {
    op_error(name, "x " + to_string(in[0].shape) + " and target " + to_string(in[1].shape) + " differ; expected one shape");
  }
}

// Runs f.template operator()<T, huber>() for x's float dtype T.
template <typename F>
void with_smooth_l1(DType dtype, const Attrs& attrs, F f) {
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      if (attrs.get_bool("huber")) {
        f(scalar::SmoothL1<T, true>{static_cast<T>(attrs.get_float("beta"))},
          scalar::SmoothL1Backward<T, true>{static_cast<T>(attrs.get_float("beta"))});
      } else {
        f(scalar::SmoothL1<T, false>{static_cast<T>(attrs.get_float("beta"))},
          scalar::SmoothL1Backward<T, false>{static_cast<T>(attrs.get_float("beta"))});
      }
    }
  });
}

OpDef smooth_l1_op() {
  OpDef op;
  op.name = "smooth_l1";
  op.elementwise = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    check_smooth_l1_operands("smooth_l1", in, 2);
    smooth_l1_beta("smooth_l1", attrs);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return kernel::broadcast_split_signatures(in, out[0].shape);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    with_smooth_l1(in[0].dtype(), ctx.attrs, [&](auto term, auto) {
      using T = decltype(term.beta);
      const T *x = in[0].data_as<T>(), *t = in[1].data_as<T>();
      T* y = out.data_as<T>();
      kernel::simd_for(out.numel(), [&](int64_t i) { y[i] = term(x[i], t[i]); });
    });
    return std::vector<Tensor>{out};
  };
  // x's gradient its backward op on dy (a mean's may be broadcast); t's the negative.
  op.grad = [](const GradContext& g) {
    const Var dx = call1(kSmoothL1Backward, {g.inputs[0], g.inputs[1], g.grad_outputs[0]}, g.attrs);
    return std::vector<Var>{g.needs_grad[0] ? dx : Var(), g.needs_grad[1] ? fn::neg(dx) : Var()};
  };
  op.grad_takes_broadcast = true;
  return op;
}

OpDef smooth_l1_backward_op() {
  OpDef op;
  op.name = kSmoothL1Backward;
  op.elementwise = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    check_smooth_l1_operands(kSmoothL1Backward, in, 3);
    kernel::expect_broadcasts_to(kSmoothL1Backward, in[2].shape, in[0].shape, "dy", "x's");
    kernel::expect_same_dtype(kSmoothL1Backward, in[0], in[2]);
    smooth_l1_beta(kSmoothL1Backward, attrs);
    return std::vector<TensorMeta>{in[0]};
  };
  // The splits broadcasting allows, and B, B, P -> P (linear in dy).
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
    sigs.push_back({{Sbp::broadcast(), Sbp::broadcast(), Sbp::partial_sum()}, {Sbp::partial_sum()}});
    return sigs;
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    with_smooth_l1(in[0].dtype(), ctx.attrs, [&](auto, auto gradient) {
      using T = decltype(gradient.beta);
      const T *x = in[0].data_as<T>(), *t = in[1].data_as<T>();
      kernel::backward_loop_at(in[2].data_as<T>(), in[2].shape(), out.data_as<T>(), out.shape(),
                               [&](int64_t i, T dy) { return gradient(x[i], t[i], dy); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// The forward op's gradient (clamp's, hardtanh's, leaky_relu's): its backward op on dy (which
// may be a broadcast gradient). The backward op's own: itself on the new dy (it is linear in
// dy), summed over the dims a broadcast dy repeats; zeros for x (piecewise linear), as torch's.
GradFn clamp_grad(const char* backward) {
  return [backward](const GradContext& g) {
    return std::vector<Var>{call1(backward, {g.inputs[0], g.grad_outputs[0]}, g.attrs)};
  };
}
GradFn clamp_backward_grad(const char* backward) {
  return [backward](const GradContext& g) {
    const Var &x = g.inputs[0], &dy = g.inputs[1];
    return std::vector<Var>{
        g.needs_grad[0] ? fn::zeros_like(x) : Var(),
        g.needs_grad[1] ? fn::sum_to(call1(backward, {x, g.grad_outputs[0]}, g.attrs), dy.shape()) : Var()};
  };
}
// An op whose gradient takes a broadcast dy (OpDef::grad_takes_broadcast).
OpDef taking_broadcast_grads(OpDef op) {
  op.grad_takes_broadcast = true;
  return op;
}

// ---------------------------------------------------------------------------------------
// Gradients, written with meshflow ops so that on global tensors the dispatcher lays them
// out. Masks multiply dy rather than select from it, so a partial dy stays partial (where
// would box it to broadcast, an all-reduce).

// A unary op's dx from its input x, output y, y's gradient dy and the call's attributes.
// Every form is written with elementwise ops that broadcast, so dy may be a broadcast
// gradient (a sum's, unexpanded: autograd/var.h), and dx then broadcasts to x: with_grad
// below marks the op so (OpDef::grad_takes_broadcast).
struct UnaryGrad {
  std::function<Var(const Var& x, const Var& y, const Var& dy, const Attrs& attrs)> dx;
};
UnaryGrad unary_grad(std::function<Var(const Var& x, const Var& y, const Var& dy, const Attrs& attrs)> dx) {
  return {std::move(dx)};
}
OpDef with_grad(OpDef op, const UnaryGrad& grad, OpDef::GradReads reads = OpDef::GradReads{}) {
  GradFn fn = [dx = grad.dx](const GradContext& g) {
    return std::vector<Var>{dx(g.inputs[0], g.outputs[0], g.grad_outputs[0], g.attrs)};
  };
  return taking_broadcast_grads(mf::with_grad(std::move(op), std::move(fn), reads));
}

// An input's gradient from its term of a binary op's gradient: the term (of the output's
// shape `out`, or of one broadcasting to it where dy is a broadcast gradient, autograd/var.h)
// summed over the dims broadcasting added to the input of `shape`; where the term holds one
// value along such a dim, that value times the dim's size. A dim of the input along which
// the term holds one value stays size 1: the input's gradient is a broadcast one in turn.
Var sum_to_input(const Var& term, const Shape& out, const Shape& shape) {
  if (term.shape() == out || term.shape().size() != out.size()) return fn::sum_to(term, shape);
  const size_t lead = out.size() - shape.size();
  std::vector<int64_t> dims;
  double repeats = 1;
  for (size_t d = 0; d < out.size(); ++d) {
    if (d >= lead && shape[d - lead] != 1) continue;
    if (term.shape()[d] == 1) {
      repeats *= static_cast<double>(out[d]);
    } else {
      dims.push_back(static_cast<int64_t>(d));
    }
  }
  Var sum = dims.empty() ? term : fn::sum(term, dims, /*keepdim=*/true);
  if (repeats != 1) sum = fn::mul_scalar(sum, repeats);
  if (lead == 0) return sum;
  return fn::reshape(sum, Shape(sum.shape().begin() + static_cast<std::ptrdiff_t>(lead), sum.shape().end()));
}

// A binary op's gradient: each input that wants one gets its term (dy times the partial
// derivative) summed to the input's shape (sum_to_input).
using GradTerm = std::function<Var(const Var& a, const Var& b, const Var& y, const Var& dy)>;
GradFn binary_grad(GradTerm da, GradTerm db) {
  return [da, db](const GradContext& g) {
    const Var &a = g.inputs[0], &b = g.inputs[1], &y = g.outputs[0], &dy = g.grad_outputs[0];
    return std::vector<Var>{g.needs_grad[0] ? sum_to_input(da(a, b, y, dy), y.shape(), a.shape()) : Var(),
                            g.needs_grad[1] ? sum_to_input(db(a, b, y, dy), y.shape(), b.shape()) : Var()};
  };
}

// add's and sub's (sign -1): dy for a, sign alpha dy for b (torch's dy * alpha and -dy *
// alpha), alpha being attribute "alpha" or 1.
GradFn scaled_sum_grad(double sign) {
  return [sign](const GradContext& g) {
    const double scale = sign * (g.attrs.has("alpha") ? g.attrs.get_float("alpha") : 1);
    const Var &a = g.inputs[0], &b = g.inputs[1], &y = g.outputs[0], &dy = g.grad_outputs[0];
    const Var db = scale == 1 ? dy : scale == -1 ? fn::neg(dy) : fn::mul_scalar(dy, scale);
    return std::vector<Var>{g.needs_grad[0] ? sum_to_input(dy, y.shape(), a.shape()) : Var(),
                            g.needs_grad[1] ? sum_to_input(db, y.shape(), b.shape()) : Var()};
  };
}

// torch's gradients of addcmul: dy for x, dy (t2 value) for t1, dy (t1 value) for t2, each
// summed to its input's shape.
GradFn addcmul_grad() {
  return [](const GradContext& g) {
    const double value = g.attrs.get_float("value");
    const Var &x = g.inputs[0], &t1 = g.inputs[1], &t2 = g.inputs[2], &y = g.outputs[0], &dy = g.grad_outputs[0];
    return std::vector<Var>{
        g.needs_grad[0] ? sum_to_input(dy, y.shape(), x.shape()) : Var(),
        g.needs_grad[1] ? sum_to_input(fn::mul(dy, fn::mul_scalar(t2, value)), y.shape(), t1.shape()) : Var(),
        g.needs_grad[2] ? sum_to_input(fn::mul(dy, fn::mul_scalar(t1, value)), y.shape(), t2.shape()) : Var()};
  };
}

Var zeros_where(const Var& cond, const Var& x) { return fn::where(cond, fn::zeros_like(x), x); }

// conj(x) for a complex x (torch's gradients of complex products take it: dy conj(b)); x itself otherwise.
Var conj(const Var& x) { return is_complex(x.dtype()) ? call1("conj", {x}) : x; }

// pow(a, b): b a^(b - 1) and a^b log(a), zero where torch makes them zero (b == 0 for the
// base; a == 0 with b >= 0 for the exponent) instead of the NaN of 0 * inf.
// Complex ones take the conjugate slope (torch's), and a complex b's real part says b >= 0.
Var pow_base_grad(const Var& a, const Var& b, const Var& dy) {
  const Var slope = fn::mul(b, fn::pow(a, fn::add_scalar(b, -1)));
  return fn::mul(dy, conj(zeros_where(fn::eq(b, fn::zeros_like(b)), slope)));
}
Var pow_exponent_grad(const Var& a, const Var& b, const Var& y, const Var& dy) {
  const Var b_real = is_complex(b.dtype()) ? call1("real", {b}) : b;
  const Var base_zero = fn::logical_and(fn::eq(a, fn::zeros_like(a)), fn::ge(b_real, fn::zeros_like(b_real)));
  return fn::mul(dy, conj(zeros_where(base_zero, fn::mul(y, fn::log(a)))));
}

// maximum (`wins` = "gt") and minimum ("lt"): dy goes to the input that wins, split evenly
// on ties, as in torch: each input's share is dy, halved on a tie, zeroed where the other
// wins. Where either is NaN neither wins and both take all of dy (torch's).
GradFn select_grad(const std::string& wins) {
  return [wins](const GradContext& g) {
    const Var &a = g.inputs[0], &b = g.inputs[1], &dy = g.grad_outputs[0];
    const Var half_tie = fn::mul_scalar(fn::cast(fn::eq(a, b), dy.dtype()), 0.5);
    auto share = [&](const Var& self, const Var& other) {
      const Var lost = fn::cast(call1(wins, {other, self}), dy.dtype());
      return fn::mul(dy, fn::sub(fn::sub(fn::ones_like(lost), lost), half_tie));
    };
    return std::vector<Var>{g.needs_grad[0] ? fn::sum_to(share(a, b), a.shape()) : Var(),
                            g.needs_grad[1] ? fn::sum_to(share(b, a), b.shape()) : Var()};
  };
}

// where(cond, a, b): dy to a where cond holds, to b elsewhere; none to cond. The mask is
// built at cond's shape (an attention mask is smaller than the scores it selects).
std::vector<Var> where_grad(const GradContext& g) {
  const Var &cond = g.inputs[0], &dy = g.grad_outputs[0];
  const Var to_a = fn::mul(dy, fn::cast(fn::cast(cond, DType::kBool), dy.dtype()));
  return {Var(), g.needs_grad[1] ? fn::sum_to(to_a, g.inputs[1].shape()) : Var(),
          g.needs_grad[2] ? fn::sum_to(fn::sub(dy, to_a), g.inputs[2].shape()) : Var()};
}

// sign(x) in x's dtype: 1, 0 or -1 (abs's derivative, 0 at 0 as in torch).
Var sign(const Var& x) {
  const Var zeros = fn::zeros_like(x);
  return fn::sub(fn::cast(fn::gt(x, zeros), x.dtype()), fn::cast(fn::lt(x, zeros), x.dtype()));
}

// The scalar as the kernel used it (rounded to x's dtype).
double scalar_of(const Var& x, const Attrs& attrs) { return scalar_in(x.dtype(), attrs); }

}  // namespace

// ---------------------------------------------------------------------------------------
// The math ops of torch's names (issue 26): trigonometric, hyperbolic, erf family, logs and
// exponentials of other bases, sign, round, frac, and the binary atan2, fmod, remainder, hypot, copysign.
namespace {

// polygamma(x; n): the n-th derivative of digamma, n >= 1 (n = 0 is the op digamma), in
// double (special_math.h); integers give float32, as torch's.
OpDef polygamma_op() {
  OpDef op = unary<Integers::kToFloat32>("polygamma", {}, [](auto x) { return x; });  // the kernel is below
  op.infer = [infer = op.infer](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const int64_t n = attrs.get_int("n");
    if (n < 1) op_error("polygamma", "n is " + std::to_string(n) + "; expected n >= 1 (polygamma(0, x) is digamma)");
    return infer(in, attrs);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t n = ctx.attrs.get_int("n");
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_numbers(in[0].dtype(), [&](auto v) {
      using TI = decltype(v);
      using TO = std::conditional_t<std::is_integral_v<TI>, float, TI>;
      map(in[0].data_as<TI>(), out.data_as<TO>(), in[0].numel(),
          [n](TI x) -> TO { return static_cast<TO>(special::polygamma(n, static_cast<double>(x))); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// `op` refusing integer inputs, for the binary ops torch defines on floats only (its
// Python functions cast integers to float32 first where torch does).
OpDef floats_only(OpDef op) {
  op.infer = [infer = op.infer, name = op.name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    std::vector<TensorMeta> out = infer(in, attrs);
    if (!is_floating(out[0].dtype)) {
      op_error(name, std::string("is defined for float32 and float64, got ") + dtype_name(out[0].dtype) +
                         "; cast the inputs to a float dtype first");
    }
    return out;
  };
  return op;
}

// The gamma and Bessel families (special_math.h), in double: lgamma' = digamma, digamma' =
// polygamma(1), polygamma(n)' = polygamma(n + 1); i0' = i1, i1' = i0 - i1 / x (1/2 at 0), and
// the scaled forms' with their exp(-|x|): i0e' = i1e - sign(x) i0e, i1e' = i0e - i1e (sign(x)
// + 1 / x) (1/2 at 0).
void register_special_ops(OpRegistry& r) {
  using V = const Var&;
  using A = const Attrs&;
  using I = Integers;
  auto polygamma = [](V x, int64_t n) { return call1("polygamma", {x}, {{"n", n}}); };
  r.add(with_grad(unary<I::kToFloat32>("lgamma", {}, scalar::Lgamma{}),
                  unary_grad([](V x, V, V dy, A) { return fn::mul(dy, call1("digamma", {x})); })));
  r.add(with_grad(unary<I::kToFloat32>("digamma", {}, scalar::Digamma{}),
                  unary_grad([=](V x, V, V dy, A) { return fn::mul(dy, polygamma(x, 1)); })));
  r.add(with_grad(polygamma_op(), unary_grad([=](V x, V, V dy, A attrs) {
                    return fn::mul(dy, polygamma(x, attrs.get_int("n") + 1));
                  })));
  // i1 / x with its limit 1/2 at 0 (x replaced by 1 there, so no inf reaches the other branch).
  auto over_x_at_zero_half = [](V x, V value, V i1_like) {
    const Var zero = fn::eq(x, fn::zeros_like(x));
    const Var safe = fn::where(zero, fn::full_like(x, 1), x);
    return fn::where(zero, fn::full_like(x, 0.5), fn::sub(value, fn::div(i1_like, safe)));
  };
  r.add(with_grad(unary<I::kToFloat32>("i0", {}, scalar::BesselI0{}),
                  unary_grad([](V x, V, V dy, A) { return fn::mul(dy, call1("i1", {x})); })));
  r.add(with_grad(unary<I::kToFloat32>("i0e", {}, scalar::BesselI0e{}),
                  unary_grad([](V x, V y, V dy, A) {
                    return fn::mul(dy, fn::sub(call1("i1e", {x}), fn::mul(sign(x), y)));
                  })));
  r.add(with_grad(unary<I::kToFloat32>("i1", {}, scalar::BesselI1{}),
                  unary_grad([=](V x, V y, V dy, A) {
                    return fn::mul(dy, over_x_at_zero_half(x, call1("i0", {x}), y));
                  })));
  r.add(with_grad(unary<I::kToFloat32>("i1e", {}, scalar::BesselI1e{}),
                  unary_grad([=](V x, V y, V dy, A) {
                    const Var i0e = fn::sub(call1("i0e", {x}), fn::mul(sign(x), y));
                    return fn::mul(dy, over_x_at_zero_half(x, i0e, y));
                  })));
  // erfcx' = 2 x erfcx(x) - 2 / sqrt(pi); j0' = -j1; j1' = j0 - j1 / x (1/2 at 0).
  r.add(with_grad(unary<I::kToFloat32>("erfcx", {}, scalar::Erfcx{}),
                  unary_grad([](V x, V y, V dy, A) {
                    const Var slope = fn::sub(fn::mul(fn::mul_scalar(x, 2.0), y), fn::full_like(x, 1.1283791670955126));
                    return fn::mul(dy, slope);
                  })));
  r.add(with_grad(unary<I::kToFloat32>("bessel_j0", {}, scalar::BesselJ0{}),
                  unary_grad([](V x, V, V dy, A) { return fn::neg(fn::mul(dy, call1("bessel_j1", {x}))); })));
  r.add(with_grad(unary<I::kToFloat32>("bessel_j1", {}, scalar::BesselJ1{}),
                  unary_grad([=](V x, V y, V dy, A) {
                    return fn::mul(dy, over_x_at_zero_half(x, call1("bessel_j0", {x}), y));
                  })));
}

// zeta, gammainc and gammaincc (special_math.h), computed in double.
void register_special_binary_ops(OpRegistry& r) {
  using V = const Var&;
  // The Hurwitz zeta function of any real order (special_math.h), in double: d/dq is
  // -x zeta(x + 1, q); in the order x there is none (nor in torch).
  r.add(with_grad(floats_only(binary("zeta", always({}), scalar::Zeta{})),
                  binary_grad(
                      [](V, V, V, V) -> Var {
                        throw std::invalid_argument("zeta: no derivative with respect to the order (the first "
                                                    "argument; torch has none either): detach it");
                      },
                      [](V a, V b, V, V dy) {
                        return fn::neg(fn::mul(dy, fn::mul(a, call1("zeta", {fn::add_scalar(a, 1.0), b}))));
                      })));
  // The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 - P: d/dx P is
  // x^(a-1) e^-x / gamma(a) (Q's its negative); in a there is none (nor in torch).
  for (const bool upper : {false, true}) {
    const std::string name = upper ? "gammaincc" : "gammainc";
    OpDef op = upper ? binary(name, always({}), scalar::Gammaincc{}) : binary(name, always({}), scalar::Gammainc{});
    r.add(with_grad(floats_only(std::move(op)),
                    binary_grad(
                        [name](V, V, V, V) -> Var {
                          throw std::invalid_argument(name + ": no derivative with respect to a (the first argument; "
                                                             "torch has none either): detach it");
                        },
                        [upper](V a, V x, V, V dy) {
                          const Var log_density = fn::sub(fn::sub(fn::mul(fn::add_scalar(a, -1.0), fn::log(x)), x),
                                                          call1("lgamma", {a}));
                          const Var density = fn::exp(log_density);
                          return fn::mul(dy, upper ? fn::neg(density) : density);
                        })));
  }
}

void register_math_ops(OpRegistry& r) {
  using V = const Var&;
  using A = const Attrs&;
  using I = Integers;
  auto f = [](V x, double c) { return fn::full_like(x, c); };
  auto over = [](V dy, V g) { return fn::div(dy, conj(g)); };  // dy over the (conjugate) slope
  auto one_minus_square = [f](V x) { return fn::sub(f(x, 1), fn::mul(x, x)); };
  // Complex ones (the trigonometric and hyperbolic functions and their inverses, log1p log2
  // log10 expm1 exp2 reciprocal): std::complex's principal branches (torch's), and dy times the
  // conjugate slope (conj: the identity on real ones).
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("sin", {}, scalar::Sin{}), [](auto x) { return std::sin(x); }),
                  unary_grad([](V x, V, V dy, A) { return fn::mul(dy, conj(call1("cos", {x}))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("cos", {}, scalar::Cos{}), [](auto x) { return std::cos(x); }),
                  unary_grad([](V x, V, V dy, A) { return fn::neg(fn::mul(dy, conj(call1("sin", {x})))); })));
  // 1 + tan^2.
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("tan", {}, scalar::Tan{}), [](auto x) { return std::tan(x); }),
                  unary_grad([](V, V y, V dy, A) { return fn::add(dy, fn::mul(dy, conj(fn::mul(y, y)))); })));
  // asin, acos and atanh are monotone only on their domain (as log in the header's note).
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("asin", {}, scalar::Asin{}),
                                [](auto x) { return std::asin(x); }),
                  unary_grad([=](V x, V, V dy, A) { return over(dy, fn::sqrt(one_minus_square(x))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("acos", {}, scalar::Acos{}),
                                [](auto x) { return std::acos(x); }),
                  unary_grad([=](V x, V, V dy, A) { return fn::neg(over(dy, fn::sqrt(one_minus_square(x)))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("atan", increasing(0), scalar::Atan{}),
                                [](auto x) { return std::atan(x); }),
                  unary_grad([f, over](V x, V, V dy, A) { return over(dy, fn::add(f(x, 1), fn::mul(x, x))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("sinh", increasing(0), scalar::Sinh{}),
                                [](auto x) { return std::sinh(x); }),
                  unary_grad([](V x, V, V dy, A) { return fn::mul(dy, conj(call1("cosh", {x}))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("cosh", {}, scalar::Cosh{}), [](auto x) { return std::cosh(x); }),
                  unary_grad([](V x, V, V dy, A) { return fn::mul(dy, conj(call1("sinh", {x}))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("asinh", increasing(0), scalar::Asinh{}),
                                [](auto x) { return std::asinh(x); }),
                  unary_grad([=](V x, V, V dy, A) { return over(dy, fn::sqrt(fn::add(fn::mul(x, x), f(x, 1)))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("acosh", {}, scalar::Acosh{}),
                                [](auto x) { return std::acosh(x); }),
                  unary_grad([=](V x, V, V dy, A) {
                    // sqrt(x - 1) sqrt(x + 1): sqrt(x^2 - 1) on the reals, the principal branch's slope on
                    // complex values (torch's).
                    if (!is_complex(x.dtype())) return over(dy, fn::sqrt(fn::sub(fn::mul(x, x), f(x, 1))));
                    return over(dy, fn::mul(fn::sqrt(fn::sub(x, f(x, 1))), fn::sqrt(fn::add(x, f(x, 1)))));
                  })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("atanh", {}, scalar::Atanh{}),
                                [](auto x) { return std::atanh(x); }),
                  unary_grad([=](V x, V, V dy, A) { return over(dy, one_minus_square(x)); })));
  // erf' = 2 / sqrt(pi) exp(-x^2).
  auto erf_slope = [](V x) { return fn::mul_scalar(fn::exp(fn::neg(fn::mul(x, x))), M_2_SQRTPI); };
  r.add(with_grad(unary<I::kToFloat32>("erf", increasing(0), scalar::Erf{}),
                  unary_grad([=](V x, V, V dy, A) { return fn::mul(dy, erf_slope(x)); })));
  r.add(with_grad(unary<I::kToFloat32>("erfc", decreasing(0), scalar::Erfc{}),
                  unary_grad([=](V x, V, V dy, A) { return fn::neg(fn::mul(dy, erf_slope(x))); })));
  // (erf^-1)' = sqrt(pi) / 2 exp(y^2).
  r.add(with_grad(unary<I::kToFloat32>("erfinv", {}, scalar::Erfinv{}),
                  unary_grad([](V, V y, V dy, A) {
                    return fn::mul(dy, fn::mul_scalar(fn::exp(fn::mul(y, y)), 1 / M_2_SQRTPI));
                  })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("log1p", {}, scalar::Log1p{}),
                                [](auto x) { return std::log(decltype(x)(1) + x); }),
                  unary_grad([f, over](V x, V, V dy, A) { return over(dy, fn::add(x, f(x, 1))); })));
  const auto in_part_type = [](auto z, double c) { return static_cast<typename decltype(z)::value_type>(c); };
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("expm1", increasing(0), scalar::Expm1{}),
                                [](auto x) { return std::exp(x) - decltype(x)(1); }),
                  unary_grad([](V, V y, V dy, A) { return fn::add(dy, fn::mul(dy, conj(y))); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("log2", {}, scalar::Log2{}),
                                [=](auto x) { return std::log(x) / in_part_type(x, M_LN2); }),
                  unary_grad([over](V x, V, V dy, A) { return over(dy, fn::mul_scalar(x, M_LN2)); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("log10", {}, scalar::Log10{}),
                                [](auto x) { return std::log10(x); }),
                  unary_grad([over](V x, V, V dy, A) { return over(dy, fn::mul_scalar(x, M_LN10)); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("exp2", increasing(0), scalar::Exp2{}),
                                [=](auto x) { return std::exp(x * in_part_type(x, M_LN2)); }),
                  unary_grad([](V, V y, V dy, A) { return fn::mul(dy, conj(fn::mul_scalar(y, M_LN2))); })));
  // -1 / x^2 = -y^2.
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("reciprocal", {}, scalar::Reciprocal{}),
                                [](auto x) { return decltype(x)(1) / x; }),
                  unary_grad([](V, V y, V dy, A) { return fn::neg(fn::mul(dy, conj(fn::mul(y, y)))); })));
  // Piecewise constant: 0, as in torch. Nondecreasing, so maxima and minima pass through.
  r.add(with_grad(unary<I::kKeep>("sign", increasing(0), scalar::Sign{}),
                  unary_grad([](V x, V, V, A) { return fn::zeros_like(x); })));
  r.add(with_grad(unary<I::kKeep>("round", increasing(0), scalar::Round{}),
                  unary_grad([](V x, V, V, A) { return fn::zeros_like(x); })));
  r.add(with_grad(unary<I::kReject>("frac", {}, scalar::Frac{}),
                  unary_grad([](V, V, V dy, A) { return dy; })));

  // atan2(a, b) = angle of (b, a): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2); 0 at the
  // origin, where the quotients are 0/0 (torch's).
  auto over_norm2 = [](V num, V a, V b) {
    V n = fn::add(fn::mul(a, a), fn::mul(b, b));
    return zeros_where(fn::eq(n, fn::zeros_like(n)), fn::div(num, n));
  };
  r.add(with_grad(floats_only(binary("atan2", always({}), scalar::Atan2{})),
                  binary_grad([=](V a, V b, V, V dy) { return over_norm2(fn::mul(dy, b), a, b); },
                              [=](V a, V b, V, V dy) { return fn::neg(over_norm2(fn::mul(dy, a), a, b)); })));
  // x - trunc(x / y) y: dy and -trunc(x / y) dy, as torch.
  r.add(with_grad(nonzero_integer_divisor(binary("fmod", always({}),
                                                 scalar::Fmod{})),
                  binary_grad([](V, V, V, V dy) { return dy; },
                              [](V a, V b, V, V dy) {
                                return fn::neg(fn::mul(dy, call1("trunc", {fn::div(a, b)})));
                              })));
  // x - floor(x / y) y: dy and -floor(x / y) dy, as torch.
  r.add(with_grad(nonzero_integer_divisor(binary("remainder", always({}), scalar::Remainder{})),
                  binary_grad([](V, V, V, V dy) { return dy; },
                              [](V a, V b, V, V dy) { return fn::neg(fn::mul(dy, call1("floor_divide", {a, b}))); })));
  r.add(with_grad(floats_only(binary("hypot", always({}), scalar::Hypot{})),
                  binary_grad([](V a, V, V y, V dy) { return fn::div(fn::mul(dy, a), y); },
                              [](V, V b, V y, V dy) { return fn::div(fn::mul(dy, b), y); })));
  // binary_cross_entropy_with_logits per element (the loss's common case, one op): the
  // logits' gradient dy (sigmoid(a) - b), the target's -dy a, as torch's.
  r.add(with_grad(floats_only(binary("binary_cross_entropy_with_logits", always({}), scalar::BceWithLogits{})),
                  binary_grad([](V a, V b, V, V dy) { return fn::mul(dy, fn::sub(fn::sigmoid(a), b)); },
                              [](V a, V, V, V dy) { return fn::neg(fn::mul(dy, a)); })));
  // binary_cross_entropy per element (probabilities a, targets b): torch's gradients, dy (a -
  // b) / max((1 - a) a, 1e-12) (finite where a is 0 or 1) and the target's -dy logit(a).
  r.add(with_grad(floats_only(binary("binary_cross_entropy", always({}), scalar::BinaryCrossEntropy{})),
                  binary_grad(
                      [](V a, V b, V, V dy) {
                        const V spread = fn::mul(fn::add_scalar(fn::neg(a), 1), a);
                        return fn::div(fn::mul(dy, fn::sub(a, b)), fn::maximum(spread, fn::full_like(spread, 1e-12)));
                      },
                      [](V a, V, V, V dy) { return fn::mul(dy, fn::sub(call1("log1p", {fn::neg(a)}), fn::log(a))); })));
  // |a| with b's sign: dy y / a, 0 where a is 0 (torch's); b gets none (0).
  r.add(with_grad(floats_only(binary("copysign", always({}), scalar::Copysign{})),
                  binary_grad([](V a, V, V y, V dy) {
                                return fn::mul(dy, zeros_where(fn::eq(a, fn::zeros_like(a)), fn::div(y, a)));
                              },
                              [](V, V b, V, V) { return fn::zeros_like(b); })));
}

// add sub mul div floor_divide maximum minimum pow and their gradients.
void register_arithmetic_ops(OpRegistry& r) {
  const Rules lattice_max{{kMax, {0, 1}, kMax}}, lattice_min{{kMin, {0, 1}, kMin}};
  using V = const Var&;
  // add and sub pass a sum's gradient on unexpanded (a bias's is then one value times the count).
  // Each takes attribute "alpha" (with_alpha).
  r.add(taking_broadcast_grads(with_grad(
      with_alpha(complex_binary(binary("add",
                                       sums_only_under_alpha(order_for_floats_only(
                                           always(linear({0, 1}) + increasing(0) + increasing(1)))),
                                       scalar::Add{}),
                                std::plus<>()),
                 1),
      scaled_sum_grad(1), kReadsNothing)));
  r.add(taking_broadcast_grads(with_grad(
      with_alpha(complex_binary(binary("sub",
                                       sums_only_under_alpha(order_for_floats_only(
                                           always(linear({0, 1}) + increasing(0) + decreasing(1)))),
                                       scalar::Sub{}),
                                std::minus<>()),
                 -1),
      scaled_sum_grad(-1), kReadsNothing)));
  r.add(with_grad(complex_binary(binary("mul", always(linear({0}) + linear({1})), scalar::Mul{}), std::multiplies<>()),
                  binary_grad([](V, V b, V, V dy) { return fn::mul(dy, conj(b)); },
                              [](V a, V, V, V dy) { return fn::mul(dy, conj(a)); })));
  // Integer division has no gradient: its inputs cannot require one.
  r.add(with_grad(
      complex_binary(nonzero_integer_divisor(binary("div", division_rules, scalar::Div{})), std::divides<>()),
      binary_grad([](V, V b, V, V dy) { return fn::div(dy, conj(b)); },
                  [](V, V b, V y, V dy) { return fn::neg(fn::div(fn::mul(dy, conj(y)), conj(b))); })));
  // Piecewise constant: 0 for both (torch's), so that a // b of tensors that require grad does too.
  r.add(with_grad(
      nonzero_integer_divisor(binary("floor_divide", always({}), scalar::FloorDivide{})),
      binary_grad([](V a, V, V, V) { return fn::zeros_like(a); }, [](V, V b, V, V) { return fn::zeros_like(b); })));
  // NaN wins, as in torch.maximum.
  r.add(with_grad(binary("maximum", always(increasing(0) + increasing(1) + lattice_max),
                         scalar::Maximum{}),
                  select_grad("gt")));
  r.add(with_grad(binary("minimum", always(increasing(0) + increasing(1) + lattice_min),
                         scalar::Minimum{}),
                  select_grad("lt")));
  r.add(with_grad(complex_binary(binary("pow", always({}), scalar::Pow{}), [](auto a, auto b) { return std::pow(a, b); }),
                  binary_grad([](V a, V b, V, V dy) { return pow_base_grad(a, b, dy); }, pow_exponent_grad)));
  r.add(with_grad(addcmul(), addcmul_grad()));
}

// Comparisons, logical and bitwise ops, predicates and where.
void register_logical_ops(OpRegistry& r) {
  const Rules lattice_max{{kMax, {0, 1}, kMax}}, lattice_min{{kMin, {0, 1}, kMin}};
  // Comparisons give bool, as in torch; false < true, so the orders pass through them.
  constexpr Takes kAny = Takes::kAny, kBits = Takes::kBits;
  r.add(complex_binary(binary<kAny>("eq", always({}), scalar::Eq{}), std::equal_to<>()));
  r.add(complex_binary(binary<kAny>("ne", always({}), scalar::Ne{}), std::not_equal_to<>()));
  r.add(binary<kAny>("lt", always(decreasing(0) + increasing(1)), scalar::Lt{}));
  r.add(binary<kAny>("le", always(decreasing(0) + increasing(1)), scalar::Le{}));
  r.add(binary<kAny>("gt", always(increasing(0) + decreasing(1)), scalar::Gt{}));
  r.add(binary<kAny>("ge", always(increasing(0) + decreasing(1)), scalar::Ge{}));
  // On bools, or is max and and is min (monotone, their own lattice reduction); x != 0 of
  // other dtypes keeps no order.
  r.add(binary<kAny>("logical_and", on_bools(increasing(0) + increasing(1) + lattice_min),
                     scalar::LogicalAnd{}));
  r.add(binary<kAny>("logical_or", on_bools(increasing(0) + increasing(1) + lattice_max),
                     scalar::LogicalOr{}));
  r.add(binary<kAny>("logical_xor", always({}), scalar::LogicalXor{}));
  r.add(unary_of<kAny>("logical_not", on_bools(decreasing(0)), scalar::LogicalNot{}));
  r.add(binary<kBits>("bitwise_and", on_bools(increasing(0) + increasing(1) + lattice_min),
                      scalar::BitwiseAnd{}));
  r.add(binary<kBits>("bitwise_or", on_bools(increasing(0) + increasing(1) + lattice_max),
                      scalar::BitwiseOr{}));
  r.add(binary<kBits>("bitwise_xor", always({}), scalar::BitwiseXor{}));
  r.add(integers_only(binary<kBits>("bitwise_left_shift", always({}), scalar::ShiftLeft{})));
  r.add(integers_only(binary<kBits>("bitwise_right_shift", always({}), scalar::ShiftRight{})));
  // ~x = -x - 1 on signed integers (never overflows), !x on bool: decreasing either way.
  r.add(unary_of<kBits>("bitwise_not", always(decreasing(0)), scalar::BitwiseNot{}));
  // Of a complex value: of either part (isnan, isinf), of both (isfinite), as torch's.
  constexpr ComplexTo kToBool = ComplexTo::kBool;
  r.add(complex_unary(unary_of<kAny>("isnan", always({}), scalar::IsNan{}),
                      [](auto z) { return std::isnan(z.real()) || std::isnan(z.imag()); }, kToBool));
  r.add(complex_unary(unary_of<kAny>("isinf", always({}), scalar::IsInf{}),
                      [](auto z) { return std::isinf(z.real()) || std::isinf(z.imag()); }, kToBool));
  r.add(complex_unary(unary_of<kAny>("isfinite", always({}), scalar::IsFinite{}),
                      [](auto z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); }, kToBool));
  r.add(with_grad(where(), where_grad));
}

// neg abs relu trunc exp log sqrt rsqrt tanh sigmoid gelu gelu_tanh silu and cast.
void register_unary_ops(OpRegistry& r) {
  using V = const Var&;
  using I = Integers;
  using A = const Attrs&;
  // neg's rules depend on the dtype (unary takes fixed ones): its signatures are set here.
  OpDef neg = complex_unary(unary<I::kKeep>("neg", {}, scalar::Neg{}), std::negate<>());
  neg.signatures = signatures_from(order_for_floats_only(always(linear({0}) + decreasing(0))));
  r.add(with_grad(std::move(neg), unary_grad([](V, V, V dy, A) { return fn::neg(dy); }), kReadsNothing));
  // A complex x's: dy x / |x| (0 at 0), as torch's dy * sgn(x).
  r.add(with_grad(complex_unary(unary<I::kKeep>("abs", {}, scalar::Abs{}), [](auto x) { return std::abs(x); },
                                ComplexTo::kReal),
                  unary_grad([](V x, V y, V dy, A) {
                    if (!is_complex(x.dtype())) return fn::mul(dy, sign(x));
                    return fn::mul(x, fn::cast(zeros_where(fn::eq(y, fn::zeros_like(y)), fn::div(dy, y)), x.dtype()));
                  })));
  // 0 at 0, as in torch.
  r.add(with_grad(unary<I::kKeep>("relu", increasing(0),
                                  scalar::Relu{}),
                  unary_grad([](V, V y, V dy, A) {  // y > 0 where x > 0: the output, as torch saves
                    return call1("relu_backward", {y, dy});
                  }),
                  kReadsOutputs));
  // Piecewise constant: 0, as in torch.
  r.add(with_grad(unary<I::kKeep>("trunc", increasing(0), scalar::Trunc{}),
                  unary_grad([](V x, V, V, A) { return fn::zeros_like(x); })));
  // exp, tanh, sigmoid, gelu (both forms) and silu: float32 through fast_math's vectorizing forms.
  using fast_math::float32_by;
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("exp", increasing(0), float32_by<fast_math::exp>(scalar::Exp{})),
                                [](auto x) { return std::exp(x); }),
                  unary_grad([](V, V y, V dy, A) { return fn::mul(dy, conj(y)); }), kReadsOutputs));
  // Complex ones: std::complex's principal branches (torch's), and dy times the conjugate slope.
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("log", {}, scalar::Log{}), [](auto x) { return std::log(x); }),
                  unary_grad([](V x, V, V dy, A) { return fn::div(dy, conj(x)); })));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("sqrt", {}, scalar::Sqrt{}), [](auto x) { return std::sqrt(x); }),
                  unary_grad([](V, V y, V dy, A) { return fn::div(fn::mul_scalar(dy, 0.5), conj(y)); }), kReadsOutputs));
  // d(x^-1/2) = -x^-3/2 / 2 = -y^3 / 2.
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("rsqrt", {}, scalar::Rsqrt{}),
                                [](auto x) { return decltype(x)(1) / std::sqrt(x); }),
                  unary_grad([](V, V y, V dy, A) {
                    return fn::mul(fn::mul_scalar(dy, -0.5), conj(fn::pow_scalar(y, 3)));
                  }),
                  kReadsOutputs));
  // tanh' = 1 - y^2 and sigmoid' = y (1 - y), from the output: one pass of their backward ops
  // (ops/nn.cc), or differentiable ops for a create_graph backward.
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("tanh", increasing(0), float32_by<fast_math::tanh>(scalar::Tanh{})),
                                [](auto x) { return std::tanh(x); }),
                  unary_grad([](V, V y, V dy, A) {
                    if (is_complex(y.dtype())) return fn::mul(dy, conj(fn::sub(fn::ones_like(y), fn::mul(y, y))));
                    if (!grad_enabled()) return call1("tanh_backward", {y, dy});
                    return fn::sub(dy, fn::mul(dy, fn::mul(y, y)));
                  }),
                  kReadsOutputs));
  r.add(with_grad(complex_unary(unary<I::kToFloat32>("sigmoid", increasing(0),
                                                     float32_by<fast_math::sigmoid>(scalar::Sigmoid{})),
                                [](auto x) { return decltype(x)(1) / (decltype(x)(1) + std::exp(-x)); }),
                  unary_grad([](V, V y, V dy, A) {
                    if (is_complex(y.dtype())) return fn::mul(dy, conj(fn::sub(y, fn::mul(y, y))));
                    if (!grad_enabled()) return call1("sigmoid_backward", {y, dy});
                    return fn::mul(dy, fn::sub(y, fn::mul(y, y)));
                  }),
                  kReadsOutputs));
  r.add(with_grad(unary<I::kReject>("gelu", {}, float32_by<fast_math::gelu>(scalar::Gelu{})),
                  unary_grad([](V x, V, V dy, A) {
                    if (!grad_enabled()) return call1("gelu_backward", {x, dy});
                    // A create_graph backward: Phi(x) + x phi(x) in differentiable ops.
                    const Var cdf = fn::mul_scalar(fn::add_scalar(call1("erf", {fn::mul_scalar(x, M_SQRT1_2)}), 1), 0.5);
                    const Var pdf = fn::mul_scalar(fn::exp(fn::mul_scalar(fn::mul(x, x), -0.5)), 0.5 * M_2_SQRTPI * M_SQRT1_2);
                    return fn::mul(dy, fn::add(cdf, fn::mul(x, pdf)));
                  })));
  // torch's tanh approximation (F.gelu's approximate='tanh'), one pass each way.
  r.add(with_grad(unary<I::kReject>("gelu_tanh", {}, float32_by<fast_math::gelu_tanh>(scalar::GeluTanh{})),
                  unary_grad([](V x, V, V dy, A) {
                    if (!grad_enabled()) return call1("gelu_tanh_backward", {x, dy});
                    // A create_graph backward: scalar::gelu_tanh_slope in differentiable ops.
                    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
                    const Var square = fn::mul(x, x);
                    const Var t = fn::tanh(fn::mul_scalar(fn::add(x, fn::mul_scalar(fn::mul(square, x), kappa)), beta));
                    const Var inner_slope = fn::mul_scalar(fn::add_scalar(fn::mul_scalar(square, 3 * kappa), 1), beta);
                    const Var t_slope = fn::add_scalar(fn::neg(fn::mul(t, t)), 1);
                    const Var slope = fn::mul_scalar(fn::add(fn::add_scalar(t, 1), fn::mul(x, fn::mul(t_slope, inner_slope))), 0.5);
                    return fn::mul(dy, slope);
                  })));
  r.add(with_grad(unary<I::kReject>("silu", {}, float32_by<fast_math::silu>(scalar::Silu{})),
                  unary_grad([](V x, V, V dy, A) {
                    if (!grad_enabled()) return call1("silu_backward", {x, dy});
                    // A create_graph backward: s (1 + x (1 - s)) in differentiable ops.
                    const Var s = fn::sigmoid(x);
                    return fn::mul(dy, fn::mul(s, fn::add_scalar(fn::mul(x, fn::add_scalar(fn::neg(s), 1)), 1)));
                  })));
  // Only a floating output takes a gradient, and only a floating input wants one.
  r.add(with_grad(cast(), unary_grad([](V x, V, V dy, A) { return fn::cast(dy, x.dtype()); }), kReadsNothing));
}

// The ops of a tensor and a number (add_scalar, mul_scalar, pow_scalar, ...).
void register_scalar_ops(OpRegistry& r) {
  using V = const Var&;
  using A = const Attrs&;
  r.add(with_grad(complex_scalar(with_scalar("add_scalar", order_for_floats_only(always(increasing(0))), scalar::Add{}),
                                 std::plus<>()),
                  unary_grad([](V, V, V dy, A) { return dy; }), kReadsNothing));
  r.add(with_grad(complex_scalar(with_scalar("mul_scalar", scaling_rules(false), scalar::Mul{}), std::multiplies<>()),
                  unary_grad([](V x, V, V dy, A attrs) { return fn::mul_scalar(dy, scalar_of(x, attrs)); }),
                  kReadsNothing));
  r.add(with_grad(
      integer_scalar_check(
          complex_scalar(with_scalar("div_scalar", scaling_rules(true), scalar::Div{}), std::divides<>()),
          [](double s) { return s == 0; }, "integer division by zero; expected a nonzero divisor (or a float dtype)"),
      unary_grad([](V x, V, V dy, A attrs) { return fn::div_scalar(dy, scalar_of(x, attrs)); }), kReadsNothing));
  // d(x^s) = s x^(s - 1), and 0 for s == 0 (not the NaN of 0 * 0^-1), as in torch.
  r.add(with_grad(
      integer_scalar_check(
          complex_scalar(with_scalar_loop("pow_scalar", always({}),
                                          [](const auto* x, auto* out, int64_t n, auto s) { power_loop(x, out, n, s); }),
                         [](auto x, auto s) { return s == 2 ? x * x : std::pow(x, s); }),
          [](double s) { return s < 0; },
          "integers to negative integer powers are not allowed; expected an exponent >= 0 (or a float dtype)",
          /*as_given=*/true),
      unary_grad([](V x, V, V dy, A attrs) {
        const double s = scalar_of(x, attrs);
        if (s == 0) return fn::zeros_like(x);
        // x ** 1 is x (torch copies it; the product's bits are the same without the copy).
        return fn::mul(dy, conj(fn::mul_scalar(s == 2 ? x : fn::pow_scalar(x, s - 1), s)));
      })));
  // d(s^x) = s^x log(s); 0 for s == 0, where it is 0 for x > 0 and undefined elsewhere.
  r.add(with_grad(complex_scalar(with_scalar("rpow_scalar", rpow_rules, scalar::RPow{}),
                                 [](auto x, auto s) { return std::pow(decltype(x)(s), x); }),
                  unary_grad([](V x, V y, V dy, A attrs) {
                    const double s = scalar_of(x, attrs);
                    return s == 0 ? fn::zeros_like(x) : fn::mul(dy, conj(fn::mul_scalar(y, std::log(s))));
                  })));
}

// clamp, hardtanh, leaky_relu, softplus, smooth_l1 and their backward ops.
void register_clamp_ops(OpRegistry& r) {
  r.add(smooth_l1_op());
  r.add(smooth_l1_backward_op());
  r.add(taking_broadcast_grads(with_grad(leaky_relu_op(), clamp_grad(kLeakyReluBackward))));
  r.add(taking_broadcast_grads(with_grad(softplus_op(), clamp_grad(kSoftplusBackward))));
  r.add(with_grad(softplus_backward_op(), softplus_backward_grad));
  r.add(with_grad(leaky_relu_backward_op(), clamp_backward_grad(kLeakyReluBackward)));
  r.add(taking_broadcast_grads(with_grad(clamp_op("clamp", false), clamp_grad(kClampBackward))));
  r.add(taking_broadcast_grads(with_grad(clamp_op("hardtanh", true), clamp_grad(kHardtanhBackward))));
  r.add(with_grad(clamp_backward_op<false>(kClampBackward), clamp_backward_grad(kClampBackward)));
  r.add(with_grad(clamp_backward_op<true>(kHardtanhBackward), clamp_backward_grad(kHardtanhBackward)));
}

}  // namespace

void register_elementwise_ops(OpRegistry& r) {
  register_arithmetic_ops(r);
  register_logical_ops(r);
  register_unary_ops(r);
  register_scalar_ops(r);
  register_math_ops(r);
  register_special_ops(r);
  register_special_binary_ops(r);
  register_clamp_ops(r);
}

}  // namespace mf
