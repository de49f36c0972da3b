// Copyright 2026 The meshflow Authors.
// Creation ops: no inputs, one output described by attributes.
//   zeros, ones                  "shape" (ints >= 0), "dtype" (float32 when absent)
//   full                         and "value" (an int attribute stays exact for int dtypes)
//   arange                       "start", "end", "step", "dtype": start + i * step for
//                                i < ceil((end - start) / step)
//   rand, randn                  "shape", "dtype" (float32 or float64), "seed", "offset"
//                                (creation.h): uniform in [0, 1), standard normal
//   randperm                     "n", "dtype" (int32 or int64), "seed", "offset": a random
//                                permutation of 0 .. n-1 (creation.h's random_permutation)
// Signatures: S(k) for every dim k of the output (B is implied); zeros also P, since a sum of
// zeros is zero. Each kernel fills the region ctx.output_boxes[0] of the logical tensor, so
// a global tensor equals the single-device result for any placement and SBP.
#include "meshflow/ops/creation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "meshflow/ops/kernel_util.h"
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

// The exact value of an int attribute (reading it as a double rounds above 2^53); nullopt
// for a float attribute.
std::optional<int64_t> exact_int(const Attrs& attrs, const std::string& key) {
  for (const auto& [k, v] : attrs.items()) {
    if (k == key && std::holds_alternative<int64_t>(v)) return std::get<int64_t>(v);
  }
  return std::nullopt;
}

std::string str(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

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

// Fills `out`, the part `box` of a logical tensor of shape `logical`, with value_at(i), i the
// element's row-major index in the logical tensor. Threads take chunks of the local part;
// each chunk walks the box's rows, whose logical indices are consecutive.
template <typename T, typename F>
void fill_by_logical_index(const Tensor& out, const Box& box, const Shape& logical, F value_at) {
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
  constexpr int64_t kChunk = 4096;
  T* o = out.data_as<T>();
  kernel::parallel_for((n + kChunk - 1) / kChunk, n > kernel::kParallelGrain, [&](int64_t c) {
    for (int64_t i = c * kChunk, end = std::min(n, i + kChunk); i < end;) {
      const int64_t j = i % inner, run = std::min(end - i, inner - j);
      const int64_t first = row_start(i / inner) + j;
      for (int64_t k = 0; k < run; ++k) o[i + k] = value_at(first + k);
      i += run;
    }
  });
}

// ---- zeros, ones, full ----

OpDef constant_op(const std::string& name, std::optional<double> fixed) {
  MetaRule meta = [fixed](const std::string& op, const Attrs& attrs) {
    TensorMeta m = meta_from_shape(op, attrs);
    if (!fixed) kernel::check_fits(op, "value", attrs, m.dtype);
    return m;
  };
  Fill fill = [fixed](const Tensor& out, const KernelContext& ctx) {
    const double value = fixed ? *fixed : ctx.attrs.get_float("value");
    const std::optional<int64_t> exact = fixed ? std::nullopt : exact_int(ctx.attrs, "value");
    visit_with_bool(out.dtype(), [&](auto v) {  // bool: nonzero is true
      using T = decltype(v);
      fill_constant<T>(out, std::is_integral_v<T> && exact ? static_cast<T>(*exact) : static_cast<T>(value));
    });
  };
  OpDef op = creation_op(name, meta, fixed == 0.0, fill);
  op.booleans = true;
  op.small_ints = true;
  return op;
}

// ---- arange ----

TensorMeta arange_meta(const std::string& op, const Attrs& attrs) {
  auto get = [&](const char* key) { return attrs.get_float(key); };
  const double start = get("start"), end = get("end"), step = get("step");
  if (!std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step)) {
    op_error(op, "start, end and step must be finite, got " + str(start) + ", " + str(end) + ", " + str(step));
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
    op_error(op, "end " + str(end) + " lies on the wrong side of start " + str(start) + " for step " + str(step) +
                     "; expected (end - start) of step's sign, or zero");
  }
  if (count >= 0x1p63) {
    op_error(op, "from " + str(start) + " to " + str(end) + " by " + str(step) + " has " + str(count) +
                     " elements; expected at most 2^63 - 1");
  }
  const DType dtype = dtype_of(op, attrs);
  kernel::check_fits(op, "start", attrs, dtype);
  kernel::check_fits(op, "end", attrs, dtype);
  return {{static_cast<int64_t>(count)}, dtype};
}

void arange_fill(const Tensor& out, const KernelContext& ctx) {
  const double start = ctx.attrs.get_float("start"), step = ctx.attrs.get_float("step");
  const std::optional<int64_t> start_int = exact_int(ctx.attrs, "start"), step_int = exact_int(ctx.attrs, "step");
  const Box& box = ctx.output_boxes[0];
  const Shape& logical = ctx.outputs[0].shape;
  visit_numbers(out.dtype(), [&](auto v) {
    using T = decltype(v);
    if (std::is_integral_v<T> && start_int && step_int) {  // exact beyond 2^53
      const int64_t first = *start_int, stride = *step_int;
      fill_by_logical_index<T>(out, box, logical, [&](int64_t i) { return static_cast<T>(first + i * stride); });
    } else {
      fill_by_logical_index<T>(out, box, logical,
                               [&](int64_t i) { return static_cast<T>(start + static_cast<double>(i) * step); });
    }
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

// `sample(words, T{})` maps one Philox output to one value of T.
template <typename Sample>
OpDef random_op(const std::string& name, Sample sample) {
  Fill fill = [sample](const Tensor& out, const KernelContext& ctx) {
    const uint64_t seed = static_cast<uint64_t>(ctx.attrs.get_int("seed"));
    const uint64_t offset = static_cast<uint64_t>(ctx.attrs.get_int("offset"));
    auto run = [&](auto zero) {
      using T = decltype(zero);
      fill_by_logical_index<T>(out, ctx.output_boxes[0], ctx.outputs[0].shape,
                               [&](int64_t i) { return sample(philox(offset + static_cast<uint64_t>(i), seed), T{}); });
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

void register_creation_ops(OpRegistry& r) {
  r.add(constant_op("zeros", 0.0));
  r.add(constant_op("ones", 1.0));
  r.add(constant_op("full", std::nullopt));
  OpDef arange = creation_op("arange", arange_meta, false, arange_fill);
  arange.small_ints = true;
  r.add(std::move(arange));
  r.add(random_op("rand", [](const std::array<uint32_t, 4>& w, auto zero) { return uniform<decltype(zero)>(w, 0); }));
  // Box-Muller; 1 - u lies in (0, 1], so the log is finite.
  r.add(random_op("randn", [](const std::array<uint32_t, 4>& w, auto zero) {
    using T = decltype(zero);
    const T radius = std::sqrt(T{-2} * std::log(T{1} - uniform<T>(w, 0)));
    return radius * std::cos(static_cast<T>(2 * M_PI) * uniform<T>(w, 1));
  }));
  OpDef randperm = creation_op("randperm", randperm_meta, false, randperm_fill);
  randperm.kernel_only_attrs = {"seed", "offset"};
  randperm.draws_random = true;
  r.add(std::move(randperm));
}

}  // namespace mf
