// Copyright 2026 The meshflow Authors.
// Creation ops: no inputs, one output described by attributes.
//   zeros, ones                  "shape" (ints >= 0), "dtype" (float32 when absent)
//   full                         and "value" (an int attribute stays exact for int dtypes),
//                                which must convert to the dtype as torch's fill_ allows
//                                (check_fill_value; "checked", a bool: even into one half
//                                element); halves are its own, not widened
//   arange                       "start", "end", "step", "dtype": start + i * step for
//                                i < ceil((end - start) / step), rounded as torch's
//                                (ops/range_math.h)
//   linspace                     "start", "end", "steps" (>= 0), "dtype" (real): steps
//                                values from start to end, both included, as torch's
//                                (ops/range_math.h)
//   logspace                     and "base": base ** linspace's values, as torch's
//   rand, randn                  "shape", "dtype" (float32 or float64), "seed", "offset"
//                                (creation.h): uniform in [0, 1), standard normal
//   randperm                     "n", "dtype" (int32 or int64), "seed", "offset": a random
//                                permutation of 0 .. n-1 (creation.h's random_permutation)
// Signatures: S(k) for every dim k of the output (B is implied); zeros also P, since a sum of
// zeros is zero. Each kernel fills the region ctx.output_boxes[0] of the logical tensor, so
// a global tensor equals the single-device result for any placement and SBP.
// And the one random op with an input, fn::dropout's:
//   dropout(x; p, seed, offset) -> y, mask   x float32 or float64 (halves computed in float32);
//     element i of the logical tensor is kept where rand's value for it (counter offset + i)
//     is >= p, both in x's dtype; mask holds 1 / (1 - p) there and 0 elsewhere, y = x * mask:
//     the values of the composition it replaces (rand, ge, cast, mul_scalar, mul) bit for
//     bit, in one pass. Its gradient is dy * mask.  S(k) -> S(k), S(k);  P -> P, B.
#include "meshflow/ops/creation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "meshflow/ops/fill_value.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/norm_math.h"
#include "meshflow/ops/range_math.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

struct Generator {
  std::mutex mu;
  uint64_t seed = kDefaultSeed;  // GUARDED_BY(mu)
  uint64_t offset = 0;           // GUARDED_BY(mu)
};

Generator& generator() {
  static Generator* g = new Generator;
  return *g;
}

using kernel::exact_int;
using kernel::number_text;

DType dtype_of(const std::string& op, const Attrs& attrs) {
  return attrs.has("dtype") ? attrs.get_dtype("dtype") : DType::kFloat32;
}

TensorMeta meta_from_shape(const std::string& op, const Attrs& attrs) {
  const Shape shape = attrs.get_ints("shape");
  for (int64_t d : shape) {
    if (d < 0) op_error(op, "shape " + to_string(shape) + " has a negative size; expected sizes >= 0");
  }
  return {shape, dtype_of(op, attrs)};
}

using MetaRule = std::function<TensorMeta(const std::string& op, const Attrs& attrs)>;
using Fill = std::function<void(const Tensor& out, const KernelContext& ctx)>;

OpDef creation_op(const std::string& name, const MetaRule& meta, bool partial_sum_ok, const Fill& fill) {
  OpDef op;
  op.name = name;
  op.infer = [name, meta](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 0);
    return std::vector<TensorMeta>{meta(name, attrs)};
  };
  op.signatures = [partial_sum_ok](const std::vector<TensorMeta>&, const std::vector<TensorMeta>& out,
                                   const Attrs&) {
    std::vector<Signature> sigs;
    for (size_t k = 0; k < out[0].shape.size(); ++k) sigs.push_back({{}, {Sbp::split(static_cast<int>(k))}});
    if (partial_sum_ok) sigs.push_back({{}, {Sbp::partial_sum()}});
    return sigs;
  };
  op.kernel = [fill](const std::vector<Tensor>&, const KernelContext& ctx) {
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    fill(out, ctx);
    return std::vector<Tensor>{out};
  };
  return op;
}

template <typename T>
void fill_constant(const Tensor& out, T value) {
  T* o = out.data_as<T>();
  const int64_t n = out.numel();
  kernel::simd_for(n, [&](int64_t i) { o[i] = value; });
}

// The box's local elements in runs of at most kRun: run(start, first, count) for local
// elements [start, start + count), whose row-major indices in the logical tensor of shape
// `logical` are first, first + 1, ... Threads take chunks of the local part; each chunk walks
// the box's rows, whose logical indices are consecutive.
constexpr int64_t kRun = 4096;

template <typename F>
void for_each_run(const Box& box, const Shape& logical, F run) {
  const int64_t n = box.numel();
  if (n == 0) return;
  const int64_t nd = static_cast<int64_t>(logical.size());
  Shape strides(nd, 1);
  for (int64_t d = nd - 2; d >= 0; --d) strides[d] = strides[d + 1] * logical[d + 1];
  const int64_t inner = nd ? box.extent[nd - 1] : 1;
  auto row_start = [&](int64_t row) {  // logical index of the local row's first element
    int64_t index = nd ? box.start[nd - 1] : 0;
    for (int64_t d = nd - 2; d >= 0; --d) {
      index += (box.start[d] + row % box.extent[d]) * strides[d];
      row /= box.extent[d];
    }
    return index;
  };
  kernel::parallel_for((n + kRun - 1) / kRun, n > kernel::kParallelGrain, [&](int64_t c) {
    for (int64_t i = c * kRun, end = std::min(n, i + kRun); i < end;) {
      const int64_t j = i % inner, count = std::min(end - i, inner - j);
      run(i, row_start(i / inner) + j, count);
      i += count;
    }
  });
}

// Fills `out`, the part `box` of a logical tensor of shape `logical`, with value_at(i), i the
// element's row-major index in the logical tensor.
template <typename T, typename F>
void fill_by_logical_index(const Tensor& out, const Box& box, const Shape& logical, F value_at) {
  T* o = out.data_as<T>();
  for_each_run(box, logical, [&](int64_t start, int64_t first, int64_t count) {
    for (int64_t k = 0; k < count; ++k) o[start + k] = value_at(first + k);
  });
}

// ---- zeros, ones, full ----

// Throws unless full's "value" converts to `dtype` as torch's fill_ allows
// (kernel::check_converts), where uint8 also takes ints down to -255, in two's complement
// (-1 is 255).
void check_fill_value(const std::string& op, const Attrs& attrs, DType dtype) {
  const std::optional<int64_t> exact = exact_int(attrs, "value");
  if (dtype == DType::kUInt8 && exact && *exact < 0 && *exact >= -255) return;
  kernel::check_converts(op, "value", attrs, dtype);
}

OpDef constant_op(const std::string& name, std::optional<double> fixed) {
  MetaRule meta = [fixed](const std::string& op, const Attrs& attrs) {
    TensorMeta m = meta_from_shape(op, attrs);
    // torch's fill_ converts a number into one element of a half dtype unchecked
    // (full((1,), 1e5, dtype=float16) is inf); masked_fill's and index_fill's number is
    // checked there too ("checked").
    const bool checked = attrs.has("checked") && attrs.get_bool("checked");
    const bool unchecked = is_half(m.dtype) && numel(m.shape) == 1 && !checked;
    if (!fixed && !unchecked) check_fill_value(op, attrs, m.dtype);
    return m;
  };
  Fill fill = [fixed](const Tensor& out, const KernelContext& ctx) {
    const double value = fixed ? *fixed : ctx.attrs.get_float("value");
    const std::optional<int64_t> exact = fixed ? std::nullopt : exact_int(ctx.attrs, "value");
    if (is_complex(out.dtype())) {  // a real value: imaginary part 0
      visit_complex(out.dtype(), [&](auto v) { fill_constant<decltype(v)>(out, decltype(v)(value)); });
      return;
    }
    visit_real_storage(out.dtype(), [&](auto v) { fill_constant(out, fill_value_as<decltype(v)>(value, exact)); });
  };
  OpDef op = creation_op(name, meta, fixed == 0.0, fill);
  // Its own halves, so that the value's check sees the dtype it converts to (widened, a
  // float16 full would check against float32's range).
  op.bfloat16 = true;
  op.float16 = true;
  op.booleans = true;
  op.small_ints = true;
  op.complex = true;
  return op;
}

// ---- arange ----

TensorMeta arange_meta(const std::string& op, const Attrs& attrs) {
  auto get = [&](const char* key) { return attrs.get_float(key); };
  const double start = get("start"), end = get("end"), step = get("step");
  if (!std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step)) {
    op_error(op, "start, end and step must be finite, got " + number_text(start) + ", " + number_text(end) + ", " +
                     number_text(step));
  }
  if (step == 0) op_error(op, "step must be nonzero");
  double count = std::ceil((end - start) / step);
  const std::optional<int64_t> start_int = exact_int(attrs, "start"), end_int = exact_int(attrs, "end"),
                               step_int = exact_int(attrs, "step");
  int64_t diff;
  if (start_int && end_int && step_int && !__builtin_sub_overflow(*end_int, *start_int, &diff) &&
      !(diff == std::numeric_limits<int64_t>::min() && *step_int == -1)) {  // that quotient traps
    // Exact where doubles round: ceil(diff / step) in ints.
    count = static_cast<double>(diff / *step_int + (diff % *step_int != 0 && (diff < 0) == (*step_int < 0)));
  }
  if (count < 0) {
    op_error(op, "end " + number_text(end) + " lies on the wrong side of start " + number_text(start) +
                     " for step " + number_text(step) + "; expected (end - start) of step's sign, or zero");
  }
  if (count >= 0x1p63) {
    op_error(op, "from " + number_text(start) + " to " + number_text(end) + " by " + number_text(step) + " has " +
                     number_text(count) + " elements; expected at most 2^63 - 1");
  }
  const DType dtype = dtype_of(op, attrs);
  kernel::check_fits(op, "start", attrs, dtype);
  if (count > 0) {
    // The last value made must fit, not end, which is excluded: arange(256, dtype=uint8) is
    // 0 ... 255, as torch's.
    Attrs last;
    int64_t steps = 0, last_int = 0;
    if (start_int && step_int && !__builtin_mul_overflow(static_cast<int64_t>(count) - 1, *step_int, &steps) &&
        !__builtin_add_overflow(*start_int, steps, &last_int)) {
      last.set("last", last_int);
    } else {
      last.set("last", start + (count - 1) * step);
    }
    kernel::check_fits(op, "last", last, dtype);
  }
  return {{static_cast<int64_t>(count)}, dtype};
}

void arange_fill(const Tensor& out, const KernelContext& ctx) {
  const double start = ctx.attrs.get_float("start"), step = ctx.attrs.get_float("step");
  const Box& box = ctx.output_boxes[0];
  const Shape& logical = ctx.outputs[0].shape;
  visit_numbers(out.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_integral_v<T>) {  // exact beyond 2^53, wrapping as torch's
      const uint64_t first = static_cast<uint64_t>(arange_int(ctx.attrs, "start"));
      const uint64_t stride = static_cast<uint64_t>(arange_int(ctx.attrs, "step"));
      fill_by_logical_index<T>(out, box, logical, [&](int64_t i) {
        return static_cast<T>(static_cast<int64_t>(first + static_cast<uint64_t>(i) * stride));
      });
    } else {
      const int64_t n = logical[0];
      fill_by_logical_index<T>(out, box, logical,
                               [&](int64_t i) { return rangemath::arange_value<T>(start, step, i, n); });
    }
  });
}

// ---- linspace ----

// linspace's and logspace's.
TensorMeta spaced_meta(const std::string& op, const Attrs& attrs) {
  const double start = attrs.get_float("start"), end = attrs.get_float("end");
  if (!std::isfinite(start) || !std::isfinite(end)) {
    op_error(op, "start and end must be finite, got " + number_text(start) + " and " + number_text(end));
  }
  const int64_t steps = attrs.get_int("steps");
  if (steps < 0) op_error(op, "steps " + std::to_string(steps) + "; expected steps >= 0");
  const DType dtype = dtype_of(op, attrs);
  if (dtype == DType::kBool || is_complex(dtype)) {
    op_error(op, std::string("dtype ") + dtype_name(dtype) + " is not supported; expected a real number dtype");
  }
  kernel::check_fits(op, "start", attrs, dtype);
  kernel::check_fits(op, "end", attrs, dtype);
  return {{steps}, dtype};
}

void linspace_fill(const Tensor& out, const KernelContext& ctx) {
  const double start = ctx.attrs.get_float("start"), end = ctx.attrs.get_float("end");
  const int64_t steps = ctx.attrs.get_int("steps");
  visit_numbers(out.dtype(), [&](auto v) {
    using T = decltype(v);
    const auto l = rangemath::linspace_of<T>(start, end, steps);
    fill_by_logical_index<T>(out, ctx.output_boxes[0], ctx.outputs[0].shape,
                             [&](int64_t i) { return rangemath::to_element<T>(rangemath::linspace_value(l, i)); });
  });
}

void logspace_fill(const Tensor& out, const KernelContext& ctx) {
  const double start = ctx.attrs.get_float("start"), end = ctx.attrs.get_float("end");
  const double base = ctx.attrs.get_float("base");
  const int64_t steps = ctx.attrs.get_int("steps");
  visit_numbers(out.dtype(), [&](auto v) {
    using T = decltype(v);
    const auto l = rangemath::logspace_of<T>(start, end, base, steps);
    fill_by_logical_index<T>(out, ctx.output_boxes[0], ctx.outputs[0].shape,
                             [&](int64_t i) { return rangemath::to_element<T>(rangemath::logspace_value(l, i)); });
  });
}

// ---- rand, randn ----

// Philox4x32-10 (Random123's philox4x32 with 10 rounds): counter words (c0, c1) are the
// counter's low and high halves, (c2, c3) zero; the key is the seed's halves.
std::array<uint32_t, 4> philox(uint64_t counter, uint64_t seed) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * c0, p1 = uint64_t{0xCD9E8D57u} * c2;
    c0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
    c1 = static_cast<uint32_t>(p1);
    c2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c3 = static_cast<uint32_t>(p0);
  }
  return {c0, c1, c2, c3};
}

// The k-th (0 or 1) uniform in [0, 1) of one Philox output: float32 takes the top 24 bits of
// word k, float64 53 bits of words 2k and 2k+1; both are exact in T.
template <typename T>
T uniform(const std::array<uint32_t, 4>& w, int k) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(w[k] >> 8) * 0x1p-24f;
  } else {
    return static_cast<double>((uint64_t{w[2 * k]} << 32 | w[2 * k + 1]) >> 11) * 0x1p-53;
  }
}

// philox(counter, seed)'s first two words, each 32-bit word held in a 64-bit lane, so that a
// loop over counters vectorizes with the rounds' products as whole-lane 32 x 32 -> 64-bit
// multiplies (the same bits as philox; about 4x faster than it with AVX-512).
__attribute__((always_inline)) inline void philox_01(uint64_t counter, uint64_t seed, uint64_t& w0, uint64_t& w1) {
  constexpr uint64_t kLow = 0xFFFFFFFFu;
  uint64_t c0 = counter & kLow, c1 = counter >> 32, c2 = 0, c3 = 0, k0 = seed & kLow, k1 = seed >> 32;
#pragma GCC unroll 10
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 = (k0 + 0x9E3779B9u) & kLow;
      k1 = (k1 + 0xBB67AE85u) & kLow;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * c0, p1 = uint64_t{0xCD9E8D57u} * c2;
    c0 = (p1 >> 32) ^ c1 ^ k0;
    c1 = p1 & kLow;
    c2 = (p0 >> 32) ^ c3 ^ k1;
    c3 = p0 & kLow;
  }
  w0 = c0, w1 = c1;
}

// rand's values (uniform(philox(counter + k, seed), 0)) for k < n.
template <typename T>
MF_MULTIVERSIONED void uniforms(uint64_t seed, uint64_t counter, int64_t n, T* out) {
#pragma omp simd
  for (int64_t k = 0; k < n; ++k) {
    uint64_t w0, w1;
    philox_01(counter + static_cast<uint64_t>(k), seed, w0, w1);
    if constexpr (std::is_same_v<T, float>) {
      out[k] = static_cast<float>(static_cast<uint32_t>(w0 >> 8)) * 0x1p-24f;
    } else {
      out[k] = static_cast<double>((w0 << 32 | w1) >> 11) * 0x1p-53;
    }
  }
}

TensorMeta random_meta(const std::string& op, const Attrs& attrs) {
  const TensorMeta m = meta_from_shape(op, attrs);
  if (!is_floating(m.dtype)) {
    op_error(op, std::string("dtype ") + dtype_name(m.dtype) + " is not supported; expected float32 or float64");
  }
  // Checked here, so that a missing one fails before any rank runs the kernel.
  attrs.get_int("seed");
  attrs.get_int("offset");
  return m;
}

// `sample(seed, counter, n, out)` writes the values of counters counter .. counter + n - 1 to
// out[0, n) (out float* or double*).
template <typename Sample>
OpDef random_op(const std::string& name, Sample sample) {
  Fill fill = [sample](const Tensor& out, const KernelContext& ctx) {
    const uint64_t seed = static_cast<uint64_t>(ctx.attrs.get_int("seed"));
    const uint64_t offset = static_cast<uint64_t>(ctx.attrs.get_int("offset"));
    auto run = [&](auto zero) {
      using T = decltype(zero);
      T* o = out.data_as<T>();
      for_each_run(ctx.output_boxes[0], ctx.outputs[0].shape, [&](int64_t start, int64_t first, int64_t count) {
        sample(seed, offset + static_cast<uint64_t>(first), count, o + start);
      });
    };
    if (out.dtype() == DType::kFloat32) {
      run(float{});
    } else {
      run(double{});
    }
  };
  OpDef op = creation_op(name, random_meta, false, fill);
  op.kernel_only_attrs = {"seed", "offset"};
  op.draws_random = true;
  return op;
}

// ---- dropout: the random op with an input ----

constexpr const char* kDropout = "dropout";

std::vector<TensorMeta> dropout_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kDropout, in, 1);
  if (in[0].dtype != DType::kFloat32 && in[0].dtype != DType::kFloat64) {
    op_error(kDropout, std::string("the input's dtype is ") + dtype_name(in[0].dtype) + "; expected a floating dtype");
  }
  const double p = attrs.get_float("p");
  if (!(p >= 0 && p < 1)) op_error(kDropout, "p is " + number_text(p) + "; expected 0 <= p < 1");
  attrs.get_int("seed");
  attrs.get_int("offset");
  return {in[0], in[0]};
}

// Any split of x; a partial x gives a partial y (each share times the mask, which every rank
// holds whole).
std::vector<Signature> dropout_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                          const Attrs&) {
  std::vector<Signature> sigs;
  for (size_t k = 0; k < in[0].shape.size(); ++k) {
    const Sbp split = Sbp::split(static_cast<int>(k));
    sigs.push_back({{split}, {split, split}});
  }
  sigs.push_back({{Sbp::partial_sum()}, {Sbp::partial_sum(), Sbp::broadcast()}});
  return sigs;
}

// One run of dropout's kernel: rand's values for the run's counters, then the mask and y.
template <typename T>
MF_MULTIVERSIONED void dropout_run(const T* x, int64_t n, uint64_t seed, uint64_t counter,
                                   normmath::DropoutScale<T> scaling, T* y, T* mask) {
  T u[kRun];
  uniforms(seed, counter, n, u);
#pragma omp simd
  for (int64_t k = 0; k < n; ++k) {
    const T m = scaling.mask(u[k]);
    mask[k] = m;
    y[k] = x[k] * m;
  }
}

std::vector<Tensor> dropout_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  Tensor y = ctx.output(0, x.shape(), x.dtype()), mask = ctx.output(1, x.shape(), x.dtype());
  const uint64_t seed = static_cast<uint64_t>(ctx.attrs.get_int("seed"));
  const uint64_t offset = static_cast<uint64_t>(ctx.attrs.get_int("offset"));
  const double p = ctx.attrs.get_float("p");
  auto run = [&](auto zero) {
    using T = decltype(zero);
    const T* from = x.data_as<T>();
    const auto scaling = normmath::DropoutScale<T>::of(p);
    T *to = y.data_as<T>(), *m = mask.data_as<T>();
    for_each_run(ctx.output_boxes[0], ctx.outputs[0].shape, [&](int64_t start, int64_t first, int64_t count) {
      dropout_run<T>(from + start, count, seed, offset + static_cast<uint64_t>(first), scaling, to + start, m + start);
    });
  };
  if (x.dtype() == DType::kFloat32) {
    run(float{});
  } else {
    run(double{});
  }
  return {y, mask};
}

OpDef dropout_op() {
  OpDef op = with_grad(make_op(kDropout, dropout_infer, dropout_signatures, dropout_kernel),
                       [](const GradContext& g) { return std::vector<Var>{fn::mul(g.grad_outputs[0], g.outputs[1])}; },
                       kReadsOutputs);
  op.kernel_only_attrs = {"seed", "offset"};
  op.draws_random = true;
  return op;
}

// ---- randperm ----

TensorMeta randperm_meta(const std::string& op, const Attrs& attrs) {
  const int64_t n = attrs.get_int("n");
  if (n < 0) op_error(op, "n is " + std::to_string(n) + "; expected n >= 0");
  const DType dtype = attrs.has("dtype") ? attrs.get_dtype("dtype") : DType::kInt64;
  if (dtype != DType::kInt64 && dtype != DType::kInt32) {
    op_error(op, std::string("dtype ") + dtype_name(dtype) + " is not supported; expected int64 or int32");
  }
  if (dtype == DType::kInt32 && n - 1 > std::numeric_limits<int32_t>::max()) {
    op_error(op, "n " + std::to_string(n) + " does not fit in int32");
  }
  attrs.get_int("seed");
  attrs.get_int("offset");
  return {{n}, dtype};
}

void randperm_fill(const Tensor& out, const KernelContext& ctx) {
  const std::vector<int64_t> perm =
      random_permutation(ctx.attrs.get_int("n"), static_cast<uint64_t>(ctx.attrs.get_int("seed")),
                         static_cast<uint64_t>(ctx.attrs.get_int("offset")));
  kernel::visit_index(out.dtype(), [&](auto iv) {
    using I = decltype(iv);
    fill_by_logical_index<I>(out, ctx.output_boxes[0], ctx.outputs[0].shape,
                             [&](int64_t i) { return static_cast<I>(perm[static_cast<size_t>(i)]); });
  });
}

}  // namespace

std::vector<int64_t> random_permutation(int64_t n, uint64_t seed, uint64_t offset) {
  std::vector<std::pair<uint64_t, int64_t>> keyed(static_cast<size_t>(n));
  kernel::parallel_for(n, n > kernel::kParallelGrain, [&](int64_t i) {
    const std::array<uint32_t, 4> w = philox(offset + static_cast<uint64_t>(i), seed);
    keyed[static_cast<size_t>(i)] = {uint64_t{w[0]} << 32 | w[1], i};
  });
  std::sort(keyed.begin(), keyed.end());
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = keyed[i].second;
  return perm;
}

std::vector<int64_t> torch_cpu_permutation(int64_t n, uint64_t seed, uint64_t drawn) {
  if (n < 0) throw std::invalid_argument("torch_cpu_permutation: n is " + std::to_string(n) + "; expected n >= 0");
  // torch draws 64-bit values past 2^32 / 20 items; samplers never hold that many.
  if (n >= int64_t{std::numeric_limits<uint32_t>::max() / 20}) {
    throw std::invalid_argument("torch_cpu_permutation: n is " + std::to_string(n) + "; expected fewer than " +
                                std::to_string(std::numeric_limits<uint32_t>::max() / 20));
  }
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::mt19937 engine(static_cast<uint32_t>(seed));
  engine.discard(drawn);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const int64_t z = static_cast<int64_t>(engine() % static_cast<uint64_t>(n - i));
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(i + z)]);
  }
  return perm;
}

void manual_seed(uint64_t seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = seed;
  g.offset = 0;
}

GeneratorState generator_state() {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  return {g.seed, g.offset};
}

void set_generator_state(const GeneratorState& state) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = state.seed;
  g.offset = state.offset;
}

RandomCall next_random_call(int64_t numel) {
  if (numel < 0) throw std::invalid_argument("next_random_call: numel " + std::to_string(numel) + " is negative");
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  const RandomCall call{static_cast<int64_t>(g.seed), static_cast<int64_t>(g.offset)};
  g.offset += static_cast<uint64_t>(numel);
  return call;
}

int64_t arange_int(const Attrs& attrs, const std::string& key) {
  return kernel::exact_int(attrs, key).value_or(rangemath::truncated_int(attrs.get_float(key)));
}

void register_creation_ops(OpRegistry& r) {
  r.add(constant_op("zeros", 0.0));
  r.add(constant_op("ones", 1.0));
  r.add(constant_op("full", std::nullopt));
  OpDef arange = creation_op("arange", arange_meta, false, arange_fill);
  arange.small_ints = true;
  r.add(std::move(arange));
  for (auto [name, fill] : {std::pair<const char*, Fill>{"linspace", linspace_fill}, {"logspace", logspace_fill}}) {
    OpDef spaced = creation_op(name, spaced_meta, false, fill);
    spaced.small_ints = true;
    r.add(std::move(spaced));
  }
  r.add(random_op("rand", [](uint64_t seed, uint64_t counter, int64_t n, auto* out) { uniforms(seed, counter, n, out); }));
  // Box-Muller; 1 - u lies in (0, 1], so the log is finite.
  r.add(random_op("randn", [](uint64_t seed, uint64_t counter, int64_t n, auto* out) {
    using T = std::remove_pointer_t<decltype(out)>;
    for (int64_t k = 0; k < n; ++k) {
      const std::array<uint32_t, 4> w = philox(counter + static_cast<uint64_t>(k), seed);
      const T radius = std::sqrt(T{-2} * std::log(T{1} - uniform<T>(w, 0)));
      out[k] = radius * std::cos(static_cast<T>(2 * M_PI) * uniform<T>(w, 1));
    }
  }));
  r.add(dropout_op());
  OpDef randperm = creation_op("randperm", randperm_meta, false, randperm_fill);
  randperm.kernel_only_attrs = {"seed", "offset"};
  randperm.draws_random = true;
  r.add(std::move(randperm));
}

}  // namespace mf
