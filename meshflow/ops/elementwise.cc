// Copyright 2026 The meshflow Authors.
// Elementwise ops, with PyTorch's names and semantics and NumPy broadcasting:
//   binary, one dtype:  add sub mul div floor_divide maximum minimum pow eq ne lt le gt ge
//   where(cond, a, b):  cond of any dtype, nonzero meaning true; a and b of one dtype
//   unary:              neg abs relu trunc (every dtype); exp log sqrt rsqrt tanh sigmoid
//                       (integers give float32, as torch does); gelu, exact erf form (floats)
//   cast(x, dtype)      C++ conversion (floats to integers truncate toward zero)
//   with a scalar (attribute "value", taken in x's dtype): add_scalar mul_scalar div_scalar
//                       pow_scalar (x ** value), rpow_scalar (value ** x)
// There is no bool dtype: comparisons give 1 or 0 in their inputs' dtype. Integer division
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
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

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
// Scalar functions shared by several ops.

template <typename T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  return false;
}

// -x; integers wrap (the lowest value is its own negation).
template <typename T>
T negate(T x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(std::make_unsigned_t<T>{0} - static_cast<std::make_unsigned_t<T>>(x));
  }
  return -x;
}

// Integers: the quotient truncated toward zero; x / -1 is a negation, which cannot trap on
// the lowest value as the CPU's division does.
template <typename T>
T trunc_div(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if (y == -1) return negate(x);
  }
  return x / y;
}

// torch.floor_divide; floats use PyTorch's (and Python's) correction of floor(x / y), exact
// where x / y rounds up to an integer.
template <typename T>
T floor_div(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if (y == -1) return negate(x);
    const T q = x / y;
    return q * y != x && (x < 0) != (y < 0) ? q - 1 : q;
  } else {
    if (y == 0) return x / y;
    const T mod = std::fmod(x, y);
    T div = (x - mod) / y;
    if (mod != 0 && (y < 0) != (mod < 0)) div -= 1;
    if (div == 0) return std::copysign(T{0}, x / y);
    T floor = std::floor(div);
    if (div - floor > T{0.5}) floor += 1;
    return floor;
  }
}

// torch.pow: floats std::pow; integers exact by squaring (wrapping), a negative exponent
// giving 1 for base 1, +-1 for base -1, else 0.
template <typename T>
T power(T base, T exp) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(base, exp);
  } else {
    if (exp < 0) return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
    using U = std::make_unsigned_t<T>;
    U result = 1, b = static_cast<U>(base);
    for (; exp; exp >>= 1) {
      if (exp & 1) result *= b;
      b *= b;
    }
    return static_cast<T>(result);
  }
}

// out[i] = f(in[i]): the loop of every op without broadcasting.
template <typename TI, typename TO, typename F>
void map(const TI* in, TO* out, int64_t n, F f) {
#pragma omp parallel for simd if (n > kParallelGrain)
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

// Attribute "value" in dtype T; an int attribute stays exact for integers beyond 2^53.
template <typename T>
T scalar_value(const Attrs& attrs) {
  if constexpr (std::is_integral_v<T>) {
    for (const auto& [key, value] : attrs.items()) {
      if (key == "value" && std::holds_alternative<int64_t>(value)) return static_cast<T>(std::get<int64_t>(value));
    }
  }
  return static_cast<T>(attrs.get_float("value"));
}

// The scalar as the kernel of a tensor of `dtype` sees it.
double scalar_in(DType dtype, const Attrs& attrs) {
  return visit_dtype(dtype, [&](auto v) { return static_cast<double>(scalar_value<decltype(v)>(attrs)); });
}

// ---------------------------------------------------------------------------------------
// Op builders.

// A binary op of one dtype; `f` is a generic function of two values of that dtype.
template <typename F>
OpDef binary(const std::string& name, RulesOf rules, F f) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 2);
    kernel::expect_same_dtype(name, in[0], in[1]);
    return std::vector<TensorMeta>{{kernel::broadcast_shapes(name, in[0].shape, in[1].shape), in[0].dtype}};
  };
  op.signatures = signatures_from(std::move(rules));
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = Tensor::empty(ctx.output_boxes[0].extent, in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      kernel::broadcast_binary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(),
                               out.data_as<T>(), out.shape(), [&](T x, T y) -> T { return f(x, y); });
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
    visit_dtype(in[1].dtype(), [&](auto v) {
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

// What a unary op does with integer inputs.
enum class Integers { kKeep, kToFloat32, kReject };

// A unary op; `f` is a generic function of one value of the output dtype.
template <Integers kIntegers, typename F>
OpDef unary(const std::string& name, Rules rules, F f) {
  OpDef op;
  op.name = name;
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
    Tensor out = Tensor::empty(in[0].shape(), ctx.outputs[0].dtype);
    visit_dtype(in[0].dtype(), [&](auto v) {
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

// x op scalar: `f(x, s)` with s the attribute "value" in x's dtype.
template <typename F>
OpDef with_scalar(const std::string& name, RulesOf rules, F f) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    attrs.get_float("value");
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = signatures_from(std::move(rules));
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = Tensor::empty(in[0].shape(), in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const T s = scalar_value<T>(ctx.attrs);
      map(in[0].data_as<T>(), out.data_as<T>(), out.numel(), [&](T x) -> T { return f(x, s); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// `op` refusing an integer input with a scalar for which `bad` holds.
template <typename Bad>
OpDef integer_scalar_check(OpDef op, Bad bad, const std::string& why) {
  auto infer = op.infer;
  op.infer = [infer, bad, why, name = op.name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    std::vector<TensorMeta> out = infer(in, attrs);
    if (!is_floating(in[0].dtype) && bad(scalar_in(in[0].dtype, attrs))) op_error(name, why);
    return out;
  };
  return op;
}

// x * s and x / s: linear for a finite s (a nonzero one for division), monotone by s's sign.
RulesOf scaling_rules(bool divides) {
  return [divides](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const double s = scalar_in(in[0].dtype, attrs);
    if (!std::isfinite(s) || (divides && s == 0)) return Rules{};
    const Rules by_sign = s >= 0 ? increasing(0) : decreasing(0);
    return divides && !is_floating(in[0].dtype) ? by_sign : linear({0}) + by_sign;
  };
}

// A sum of casts is the cast of the sum when every value of `from` is exact in `to`.
bool widens_exactly(DType from, DType to) {
  return from == to || (from == DType::kFloat32 && to == DType::kFloat64) ||
         (from == DType::kInt32 && (to == DType::kInt64 || to == DType::kFloat64));
}

OpDef cast() {
  const std::string name = "cast";
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    return std::vector<TensorMeta>{{in[0].shape, attrs.get_dtype("dtype")}};
  };
  op.signatures = signatures_from([](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    return increasing(0) + (widens_exactly(in[0].dtype, attrs.get_dtype("dtype")) ? linear({0}) : Rules{});
  });
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = Tensor::empty(in[0].shape(), ctx.outputs[0].dtype);
    visit_dtype(in[0].dtype(), [&](auto from) {
      visit_dtype(out.dtype(), [&](auto to) {
        using TI = decltype(from);
        using TO = decltype(to);
        map(in[0].data_as<TI>(), out.data_as<TO>(), in[0].numel(), [](TI x) { return static_cast<TO>(x); });
      });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// `t` broadcast to `shape` (t itself when it has that shape).
Tensor expand(const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  Tensor out = Tensor::empty(shape, t.dtype());
  visit_dtype(t.dtype(), [&](auto v) {
    using T = decltype(v);
    kernel::broadcast_binary(t.data_as<T>(), t.shape(), t.data_as<T>(), t.shape(), out.data_as<T>(), shape,
                             [](T x, T) { return x; });
  });
  return out;
}

OpDef where() {
  const std::string name = "where";
  OpDef op;
  op.name = name;
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
    Tensor out = Tensor::empty(shape, in[1].dtype());
    // Broadcasting up front keeps the selection one flat loop.
    const Tensor cond = expand(in[0], shape), a = expand(in[1], shape), b = expand(in[2], shape);
    visit_dtype(cond.dtype(), [&](auto c) {
      visit_dtype(out.dtype(), [&](auto v) {
        using TC = decltype(c);
        using T = decltype(v);
        const TC* pc = cond.data_as<TC>();
        const T* pa = a.data_as<T>();
        const T* pb = b.data_as<T>();
        T* po = out.data_as<T>();
        const int64_t n = out.numel();
        // Both values are loaded unconditionally, so the selection compiles to a blend.
#pragma omp parallel for simd if (n > kParallelGrain)
        for (int64_t i = 0; i < n; ++i) {
          const T x = pa[i], y = pb[i];
          po[i] = pc[i] != TC{0} ? x : y;
        }
      });
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

template <typename T>
T truncate(T x) {
  if constexpr (std::is_integral_v<T>) {
    return x;
  } else {
    return std::trunc(x);
  }
}

}  // namespace

void register_elementwise_ops(OpRegistry& r) {
  const Rules lattice_max{{kMax, {0, 1}, kMax}}, lattice_min{{kMin, {0, 1}, kMin}};
  r.add(with_grad(binary("add", always(linear({0, 1}) + increasing(0) + increasing(1)), [](auto x, auto y) { return x + y; }),
                  [](const GradContext& g) {
                    return std::vector<Var>{fn::sum_to(g.grad_outputs[0], g.inputs[0].shape()),
                                            fn::sum_to(g.grad_outputs[0], g.inputs[1].shape())};
                  }));
  r.add(binary("sub", always(linear({0, 1}) + increasing(0) + decreasing(1)), [](auto x, auto y) { return x - y; }));
  r.add(with_grad(binary("mul", always(linear({0}) + linear({1})), [](auto x, auto y) { return x * y; }),
                  [](const GradContext& g) {
                    const Var& dy = g.grad_outputs[0];
                    return std::vector<Var>{fn::sum_to(fn::mul(dy, g.inputs[1]), g.inputs[0].shape()),
                                            fn::sum_to(fn::mul(dy, g.inputs[0]), g.inputs[1].shape())};
                  }));
  r.add(nonzero_integer_divisor(binary("div", division_rules, [](auto x, auto y) { return trunc_div(x, y); })));
  r.add(nonzero_integer_divisor(binary("floor_divide", always({}), [](auto x, auto y) { return floor_div(x, y); })));
  // NaN wins, as in torch.maximum.
  r.add(binary("maximum", always(increasing(0) + increasing(1) + lattice_max),
               [](auto x, auto y) { return x > y || is_nan(x) ? x : y; }));
  r.add(binary("minimum", always(increasing(0) + increasing(1) + lattice_min),
               [](auto x, auto y) { return x < y || is_nan(x) ? x : y; }));
  r.add(binary("pow", always({}), [](auto x, auto y) { return power(x, y); }));
  r.add(binary("eq", always({}), [](auto x, auto y) { return x == y; }));
  r.add(binary("ne", always({}), [](auto x, auto y) { return x != y; }));
  r.add(binary("lt", always(decreasing(0) + increasing(1)), [](auto x, auto y) { return x < y; }));
  r.add(binary("le", always(decreasing(0) + increasing(1)), [](auto x, auto y) { return x <= y; }));
  r.add(binary("gt", always(increasing(0) + decreasing(1)), [](auto x, auto y) { return x > y; }));
  r.add(binary("ge", always(increasing(0) + decreasing(1)), [](auto x, auto y) { return x >= y; }));
  r.add(where());

  using I = Integers;
  r.add(unary<I::kKeep>("neg", linear({0}) + decreasing(0), [](auto x) { return negate(x); }));
  r.add(unary<I::kKeep>("abs", {}, [](auto x) { return std::abs(x); }));
  r.add(unary<I::kKeep>("relu", increasing(0), [](auto x) { return x < decltype(x){0} ? decltype(x){0} : x; }));
  r.add(unary<I::kKeep>("trunc", increasing(0), [](auto x) { return truncate(x); }));
  r.add(unary<I::kToFloat32>("exp", increasing(0), [](auto x) { return std::exp(x); }));
  r.add(unary<I::kToFloat32>("log", {}, [](auto x) { return std::log(x); }));
  r.add(unary<I::kToFloat32>("sqrt", {}, [](auto x) { return std::sqrt(x); }));
  r.add(unary<I::kToFloat32>("rsqrt", {}, [](auto x) { return 1 / std::sqrt(x); }));
  r.add(unary<I::kToFloat32>("tanh", increasing(0), [](auto x) { return std::tanh(x); }));
  r.add(unary<I::kToFloat32>("sigmoid", increasing(0), [](auto x) { return 1 / (1 + std::exp(-x)); }));
  r.add(unary<I::kReject>("gelu", {}, [](auto x) {
    using T = decltype(x);
    return x * T{0.5} * (1 + std::erf(x * static_cast<T>(M_SQRT1_2)));
  }));
  r.add(cast());

  r.add(with_scalar("add_scalar", always(increasing(0)), [](auto x, auto s) { return x + s; }));
  r.add(with_scalar("mul_scalar", scaling_rules(false), [](auto x, auto s) { return x * s; }));
  r.add(integer_scalar_check(
      with_scalar("div_scalar", scaling_rules(true), [](auto x, auto s) { return trunc_div(x, s); }),
      [](double s) { return s == 0; }, "integer division by zero; expected a nonzero divisor (or a float dtype)"));
  r.add(integer_scalar_check(
      with_scalar("pow_scalar", always({}), [](auto x, auto s) { return power(x, s); }), [](double s) { return s < 0; },
      "integers to negative integer powers are not allowed; expected an exponent >= 0 (or a float dtype)"));
  r.add(with_scalar("rpow_scalar", rpow_rules, [](auto x, auto s) { return power(s, x); }));
}

}  // namespace mf
