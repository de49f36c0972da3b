// Copyright 2026 The meshflow Authors.
// Helpers shared by op families: argument checks that raise "[op] ..." errors, NumPy
// broadcasting of shapes and of elementwise loops, and the split signatures that follow
// from broadcasting. Kernels here are multi-threaded with OpenMP above a size threshold
// and written so the compiler vectorizes their inner loops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "meshflow/core/loops.h"
#include "meshflow/ops/op.h"

namespace mf::kernel {

// The dim index for `dim` (negative counts from the end); throws "[op] dim ... out of range".
int64_t normalize_dim(const std::string& op, int64_t dim, int64_t ndim);
void expect_inputs(const std::string& op, const std::vector<TensorMeta>& inputs, size_t n);
void expect_same_dtype(const std::string& op, const TensorMeta& a, const TensorMeta& b);
// Throws naming the attribute, its value and the dtype unless attribute `key` (an int, exact
// at any size, or a float) fits in `dtype`: integer dtypes hold [lowest, max]; a float dtype
// takes any number (beyond its range a number becomes an infinity, as in PyTorch).
void check_fits(const std::string& op, const std::string& key, const Attrs& attrs, DType dtype);
// The same as torch converts a number to an element with c10::checked_convert (fill_, clamp's
// bounds, pad's value): a float dtype takes infinities, NaN and finite values up to its
// largest in magnitude (float16: 65504) and refuses the rest ("cannot be converted to type
// float16 without overflow"); integers as check_fits; bool and complex anything.
void check_converts(const std::string& op, const std::string& key, const Attrs& attrs, DType dtype);

// `x` in the fewest digits that read back as `x`, with an exponent where Python's repr has
// one (0.1, 65504, 10000000000, 1e+20): error messages show the number the user wrote.
std::string number_text(double x);

// NumPy broadcasting; throws "[op] shapes ... cannot be broadcast".
Shape broadcast_shapes(const std::string& op, const Shape& a, const Shape& b);
// Throws "[op] <what> has shape ...; expected <whose> shape ... or one that broadcasts to it"
// unless `have` broadcasts to `shape` without growing it (a backward op's dy, which may be a
// broadcast gradient: autograd/var.h).
void expect_broadcasts_to(const std::string& op, const Shape& have, const Shape& shape, const std::string& what,
                          const std::string& whose);
// For each output dim k: S(k) of the output with each input split on its aligned dim, or
// broadcast where the input is missing that dim or has size 1 against a larger output.
std::vector<Signature> broadcast_split_signatures(const std::vector<TensorMeta>& inputs, const Shape& out,
                                                  size_t n_outputs = 1);

// For each dim k < dims: every input and output split on dim k (ops whose inputs and
// outputs share their leading dims, element for element).
std::vector<Signature> split_alike_signatures(size_t dims, size_t n_inputs, size_t n_outputs);

// Strides (in elements) of `shape` seen as broadcast to `out`: 0 on broadcast dims.
Shape broadcast_strides(const Shape& shape, const Shape& out);

// Drops the dims of size 1 of `shape` and merges each dim into the one before it where every
// stride list in `strides` steps over the pair as over one dim (the outer stride is the inner
// one times the inner size), in place: the loops below then run fewer, longer rows (a scalar
// expanded to any shape becomes one row of stride 0, a per-channel operand rows of H * W).
void collapse_dims(Shape& shape, const std::vector<Shape*>& strides);

// Splits each of `rows` rows of `inner` elements into pieces so that the pieces number at
// least a few per thread when the work is large (one long row would otherwise run on one
// thread); the piece's length.
int64_t piece_length(int64_t rows, int64_t inner);

// out[i] = f(a[ia], b[ib]) over the broadcast index space of `out_shape`.
template <typename TA, typename TB, typename TO, typename F>
void broadcast_binary(const TA* a, const Shape& a_shape, const TB* b, const Shape& b_shape, TO* out,
                      const Shape& out_shape, F f) {
  const int64_t n = numel(out_shape);
  if (n == 0) return;
  if (a_shape == out_shape && b_shape == out_shape) {
    simd_for(n, [&](int64_t i) { out[i] = f(a[i], b[i]); });
    return;
  }
  Shape shape = out_shape, sa = broadcast_strides(a_shape, out_shape), sb = broadcast_strides(b_shape, out_shape);
  collapse_dims(shape, {&sa, &sb});
  const size_t nd = shape.size();
  const int64_t inner = nd ? shape[nd - 1] : 1;
  const int64_t ia = nd ? sa[nd - 1] : 0, ib = nd ? sb[nd - 1] : 0;
  const int64_t rows = n / inner, piece = piece_length(rows, inner), pieces = (inner + piece - 1) / piece;
  team_for(rows * pieces, n > kParallelGrain, [&](int64_t task) {
    const int64_t r = pieces == 1 ? task : task / pieces, begin = pieces == 1 ? 0 : task % pieces * piece;
    const int64_t len = std::min(piece, inner - begin);
    int64_t rest = r, oa = begin * ia, ob = begin * ib;
    for (int64_t d = static_cast<int64_t>(nd) - 2; d >= 0; --d) {
      const int64_t i = rest % shape[d];
      rest /= shape[d];
      oa += i * sa[d];
      ob += i * sb[d];
    }
    const TA* pa = a + oa;
    const TB* pb = b + ob;
    TO* po = out + r * inner + begin;
    // The common strides get loops the compiler vectorizes (a bias row, a per-row scale).
    if (ia == 1 && ib == 1) {
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) po[j] = f(pa[j], pb[j]);
    } else if (ia == 1 && ib == 0) {
      const TB y = *pb;
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) po[j] = f(pa[j], y);
    } else if (ia == 0 && ib == 1) {
      const TA x = *pa;
#pragma omp simd
      for (int64_t j = 0; j < len; ++j) po[j] = f(x, pb[j]);
    } else {
      for (int64_t j = 0; j < len; ++j) po[j] = f(pa[j * ia], pb[j * ib]);
    }
  });
}

// out[i] = f(a[ia], b[ib], c[ic]) over the broadcast index space of `out_shape` (addcmul):
// inputs of the output's shape run as one vectorized loop, others row by row of the
// collapsed dims (vectorized where each input steps by 1 or 0 along the row).
template <typename T, typename F>
void broadcast_ternary(const T* a, const Shape& a_shape, const T* b, const Shape& b_shape, const T* c,
                       const Shape& c_shape, T* out, const Shape& out_shape, F f) {
  const int64_t n = numel(out_shape);
  if (n == 0) return;
  if (a_shape == out_shape && b_shape == out_shape && c_shape == out_shape) {
    simd_for(n, [&](int64_t i) { out[i] = f(a[i], b[i], c[i]); });
    return;
  }
  Shape shape = out_shape, sa = broadcast_strides(a_shape, out_shape), sb = broadcast_strides(b_shape, out_shape),
        sc = broadcast_strides(c_shape, out_shape);
  collapse_dims(shape, {&sa, &sb, &sc});
  const size_t nd = shape.size();
  const int64_t inner = nd ? shape[nd - 1] : 1;
  const int64_t ia = nd ? sa[nd - 1] : 0, ib = nd ? sb[nd - 1] : 0, ic = nd ? sc[nd - 1] : 0;
  team_for(n / inner, n > kParallelGrain, [&](int64_t r) {
    int64_t rest = r, oa = 0, ob = 0, oc = 0;
    for (int64_t d = static_cast<int64_t>(nd) - 2; d >= 0; --d) {
      const int64_t i = rest % shape[d];
      rest /= shape[d];
      oa += i * sa[d];
      ob += i * sb[d];
      oc += i * sc[d];
    }
    const T *pa = a + oa, *pb = b + ob, *pc = c + oc;
    T* po = out + r * inner;
#pragma omp simd
    for (int64_t j = 0; j < inner; ++j) po[j] = f(pa[j * ia], pb[j * ib], pc[j * ic]);
  });
}

// ---- Shared by the CPU's and other devices' kernels (ops/<device>/).

// A slice's attributes ("starts", "stops", "steps", "drop_dims") on a tensor of shape `in`,
// checked ("[op] ..." errors).
struct SliceSpec {
  Shape start, step, count;  // per dim of the sliced tensor
  std::vector<bool> dropped;
  Shape out;
};
SliceSpec slice_spec(const std::string& op, const Shape& in, const Attrs& attrs);

// Where this rank's part of the slice lies in its part of the sliced tensor: element i of
// the slice's part (dropped dims kept as size 1, so it has `extent`) is element
// base + i . strides of the sliced tensor's part. Element o of a dim is logical element
// start + o * step; both are shifted by where the parts begin.
struct SliceLocal {
  int64_t base = 0;
  Shape strides, extent;
};
SliceLocal slice_local(const SliceSpec& s, const Box& sliced_box, const Box& slice_box);

// Where expand's output part reads its input part: output element i is input element
// base + i . strides (stride 0 on repeated and new dims; kept dims shifted by where the
// parts begin).
struct ExpandSource {
  int64_t base = 0;
  Shape strides;
};
ExpandSource expand_source(const KernelContext& ctx, const Shape& local_input);

// Calls f(I{}) with I the index type of an index tensor's dtype (int32 or int64).
template <typename F>
void visit_index(DType dtype, F&& f) {
  if (dtype == DType::kInt32) {
    f(int32_t{});
  } else {
    f(int64_t{});
  }
}

// The identity of a reduction in T: 0, or the lowest (highest) value, an infinity for floats.
template <typename T>
T identity(ReduceOp op) {
  constexpr bool inf = std::numeric_limits<T>::has_infinity;
  switch (op) {
    case ReduceOp::kMax:
      return inf ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    case ReduceOp::kMin:
      return inf ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    case ReduceOp::kSum:
      break;
  }
  return T{0};
}

// The exact value of int attribute `key` (reading it as a double rounds above 2^53); nullopt
// for a float attribute or none.
inline std::optional<int64_t> exact_int(const Attrs& attrs, const std::string& key) {
  for (const auto& [name, value] : attrs.items()) {
    if (name == key && std::holds_alternative<int64_t>(value)) return std::get<int64_t>(value);
  }
  return std::nullopt;
}

// Attribute `key` in dtype T, as an elementwise kernel reads a scalar (add_scalar's "value",
// clamp's bounds): an int attribute stays exact for integers beyond 2^53. For the CPU's
// kernels and the GPU's alike.
template <typename T>
T scalar_attr(const Attrs& attrs, const std::string& key) {
  if constexpr (std::is_integral_v<T>) {
    if (const std::optional<int64_t> i = exact_int(attrs, key)) return static_cast<T>(*i);
  }
  return static_cast<T>(attrs.get_float(key));
}

// clamp's and hardtanh's bounds in T (attributes "min", "max"): an absent one is the end of
// T's range (an infinity for floats), which no element passes; for integers a float bound
// truncates toward zero, and one past T's range is its end (torch's: uint8's clamp(max=300)
// changes nothing; infer refuses a bound past the other end, which would change everything).
template <typename T>
struct ClampBounds {
  T lo, hi;
  bool has_lo, has_hi;
  // A NaN bound makes every element NaN, as in torch.
  bool nan() const { return lo != lo || hi != hi; }
};
template <typename T>
ClampBounds<T> clamp_bounds(const Attrs& attrs) {
  const bool has_lo = attrs.has("min"), has_hi = attrs.has("max");
  auto bound = [&](const char* key) {
    if constexpr (std::is_integral_v<T>) {
      constexpr T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
      if (const std::optional<int64_t> i = exact_int(attrs, key)) return *i <= lo ? lo : *i >= hi ? hi : static_cast<T>(*i);
      const double x = attrs.get_float(key);
      return x <= static_cast<double>(lo) ? lo : x >= static_cast<double>(hi) ? hi : static_cast<T>(x);
    } else {
      return scalar_attr<T>(attrs, key);
    }
  };
  return {has_lo ? bound("min") : identity<T>(ReduceOp::kMax), has_hi ? bound("max") : identity<T>(ReduceOp::kMin),
          has_lo, has_hi};
}

}  // namespace mf::kernel
