// Copyright 2026 The meshflow Authors.
// Ops that read a whole line along one dim, with torch's semantics:
//   cumsum(x; dim, reverse)    running sums along dim (reverse: from the end, the gradient's
//                              form); one dtype in and out (the Python front casts integers
//                              to int64 first, as torch.cumsum's result dtype)
//   cumprod(x; dim)            running products along dim
//   cumprod_backward(x, dy; dim) -> dx, exact where x holds zeros
//   logcumsumexp(x; dim)       log of the running sums of exp(x), floats only, without overflow
//   logcumsumexp_backward(x, y, dy; dim) -> dx
//   sort(x; dim, descending, stable = true, k = all, sorted = true) -> values, indices
//                              (int64): stable (ties keep their order), or as torch's
//                              unstable sort leaves them; NaN is the largest value; with
//                              k (topk), only each line's first k, picked as torch's CPU topk
//                              picks them (its partial sort, or selection then a sort of all
//                              but the k-th; sorted false: the selection's order), so that
//                              among equal values the indices are the ones torch returns
//   max_dim(x; dim, keepdim) -> values, indices (int64): each line's largest element and the
//                              index of its first occurrence (torch's pick among ties); a
//                              NaN is the largest, its first one picked; min_dim the
//                              smallest. One pass over x; dim dropped unless keepdim
//   kthvalue(x; dim, k) -> values, indices (int64), dim kept at size 1: the k-th smallest
//                              (k from 1) by torch's CPU quickselect (select_math.h), so
//                              that among equal values the index is the one torch returns
//   cummax(x; dim) -> values, indices (int64): the running largest element along dim and its
//                              index (the last of equal ones; a NaN, once met, holds), as
//                              torch's; cummin the smallest
//   mode(x; dim) -> values, indices (int64), dim kept at size 1: the most frequent value (the
//                              smallest of equally frequent ones) and, among its
//                              occurrences, the index torch's CPU mode returns
//   flip(x; dims)              the order of elements reversed along each of dims
// Floats accumulate their scans in double (torch's CPU accumulator); integers wrap.
//
// Signatures: every op splits its inputs and outputs alike on any dim other than the one it
// scans or sorts (flip: any dim it does not flip). cumsum is linear (P(sum) -> P(sum)) and so
// are the backward ops in dy; flip only moves elements, so every partial passes through it.
// A product over a split dim would be a partial product, which meshflow has no kind for.
//
// Gradients: cumsum's is the reverse cumsum; cumprod's and logcumsumexp's are their backward
// ops; the values of sort, max_dim, min_dim, cummax, cummin, kthvalue and mode give theirs back through the
// indices (gather_backward: all of it to the picked element, none to its ties);
// flip's is flip.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/core/error.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/line_picks.h"
#include "meshflow/ops/reduce_math.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/scan_util.h"
#include "meshflow/ops/select_math.h"

namespace mf {
namespace {

// A tensor seen as [outer, n, inner] around `dim`: lines of n elements `inner` apart.
struct Lines {
  int64_t outer = 1, n = 1, inner = 1;
  Lines(const Shape& shape, int64_t dim) {
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
      (d < dim ? outer : d == dim ? n : inner) *= shape[d];
    }
  }
  int64_t count() const { return outer * inner; }
  // The offset of line l's first element.
  int64_t start(int64_t l) const { return l / inner * n * inner + l % inner; }
};

int64_t dim_of(const std::string& op, const Attrs& attrs, const Shape& shape) {
  return kernel::normalize_dim(op, attrs.get_int("dim"), std::max<int64_t>(static_cast<int64_t>(shape.size()), 1));
}

// S(k) of every input and output for every dim k other than `dim`, then `more`.
std::vector<Signature> splits_but(int64_t nd, int64_t dim, size_t n_inputs, size_t n_outputs,
                                  std::vector<Signature> more = {}) {
  std::vector<Signature> sigs;
  for (int64_t k = 0; k < nd; ++k) {
    if (k == dim) continue;
    sigs.push_back({std::vector<Sbp>(n_inputs, Sbp::split(static_cast<int>(k))),
                    std::vector<Sbp>(n_outputs, Sbp::split(static_cast<int>(k)))});
  }
  sigs.insert(sigs.end(), more.begin(), more.end());
  return sigs;
}

// f(line's first element offset) for every line, in parallel above the grain.
template <typename F>
void for_each_line(const Lines& lines, F f) {
  kernel::parallel_for(lines.count(), lines.count() * lines.n > kernel::kParallelGrain,
                       [&](int64_t l) { f(lines.start(l)); });
}

using scalar::Scan;

// ---------------------------------------------------------------------------------------
// cumsum, cumprod, logcumsumexp and their backward ops

constexpr const char* kCumsum = "cumsum";
constexpr const char* kCumprod = "cumprod";
constexpr const char* kLogcumsumexp = "logcumsumexp";
constexpr const char* kCumprodBackward = "cumprod_backward";
constexpr const char* kLogcumsumexpBackward = "logcumsumexp_backward";

// out[k] = x[0] op ... op x[k] along dim (from the end when `reverse`).
template <Scan kScan, typename T>
void scan(const T* x, T* out, const Lines& lines, bool reverse) {
  using A = scalar::ScanAcc<T>;
  for_each_line(lines, [&](int64_t s) {
    A acc = scalar::scan_identity<kScan, A>();
    for (int64_t j = 0; j < lines.n; ++j) {
      const int64_t at = s + (reverse ? lines.n - 1 - j : j) * lines.inner;
      acc = scalar::scan_step<kScan>(acc, static_cast<A>(x[at]));
      out[at] = static_cast<T>(acc);
    }
  });
}

template <Scan kScan>
OpDef scan_op(const std::string& name) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    dim_of(name, attrs, in[0].shape);
    if (kScan == Scan::kLogSumExp && !is_floating(in[0].dtype)) {
      op_error(name, std::string("is defined for float32 and float64, got ") + dtype_name(in[0].dtype) +
                         "; cast the input to a float dtype first");
    }
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    std::vector<Signature> linear;
    if (kScan == Scan::kSum) linear.push_back({{Sbp::partial_sum()}, {Sbp::partial_sum()}});
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    return splits_but(nd, dim_of(name, attrs, in[0].shape), 1, 1, linear);
  };
  op.kernel = [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    const bool reverse = ctx.attrs.has("reverse") && ctx.attrs.get_bool("reverse");
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    auto lines_of = [&](auto v) {
      using T = decltype(v);
      if constexpr (kScan != Scan::kLogSumExp || std::is_floating_point_v<T>) {
        scan<kScan>(in[0].data_as<T>(), out.data_as<T>(), lines, reverse);
      }
    };
    is_complex(in[0].dtype()) ? visit_complex(in[0].dtype(), lines_of) : visit_dtype(in[0].dtype(), lines_of);
    return std::vector<Tensor>{out};
  };
  return op;
}

std::vector<Var> cumsum_grad(const GradContext& g) {
  const bool reverse = g.attrs.has("reverse") && g.attrs.get_bool("reverse");
  return {call1(kCumsum, {g.grad_outputs[0]}, Attrs{{"dim", g.attrs.get_int("dim")}, {"reverse", !reverse}})};
}

std::vector<Var> cumprod_grad(const GradContext& g) {
  return {call1(kCumprodBackward, {g.inputs[0], g.grad_outputs[0]}, Attrs{{"dim", g.attrs.get_int("dim")}})};
}

std::vector<Var> logcumsumexp_grad(const GradContext& g) {
  return {call1(kLogcumsumexpBackward, {g.inputs[0], g.outputs[0], g.grad_outputs[0]},
                Attrs{{"dim", g.attrs.get_int("dim")}})};
}

// A scan's backward op: inputs of one float dtype and shape, dy last; output dx.
// `line(in, dx, s, n, step)` computes one line's dx (in: the inputs' data, dx's dtype).
template <typename Line>
OpDef scan_backward_op(const std::string& name, size_t n_inputs, Line line) {
  OpDef op;
  op.name = name;
  op.infer = [name, n_inputs](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, n_inputs);
    for (const TensorMeta& m : in) {
      kernel::expect_same_dtype(name, in[0], m);
      if (m.shape != in[0].shape) {
        op_error(name, "inputs of shapes " + to_string(in[0].shape) + " and " + to_string(m.shape) +
                           "; expected equal shapes");
      }
    }
    if (!is_floating(in[0].dtype)) {
      op_error(name, "expected a float dtype, got " + std::string(dtype_name(in[0].dtype)));
    }
    dim_of(name, attrs, in[0].shape);
    return std::vector<TensorMeta>{in.back()};
  };
  // Linear in dy: a partial dy with the rest broadcast gives a partial dx.
  op.signatures = [name, n_inputs](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                   const Attrs& attrs) {
    std::vector<Sbp> linear(n_inputs, Sbp::broadcast());
    linear.back() = Sbp::partial_sum();
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    return splits_but(nd, dim_of(name, attrs, in[0].shape), n_inputs, 1, {{linear, {Sbp::partial_sum()}}});
  };
  op.kernel = [name, line](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        std::vector<const T*> data;
        for (const Tensor& t : in) data.push_back(t.data_as<T>());
        T* dx = out.data_as<T>();
        for_each_line(lines, [&](int64_t s) { line(data.data(), dx, s, lines.n, lines.inner); });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// The lines' math: scan_util.h.
OpDef cumprod_backward_op() {
  return scan_backward_op(kCumprodBackward, 2, [](const auto* const* in, auto* dx, int64_t s, int64_t n, int64_t step) {
    kernel::cumprod_backward_line(in[0], in[1], dx, s, n, step);
  });
}

OpDef logcumsumexp_backward_op() {
  return scan_backward_op(kLogcumsumexpBackward, 3,
                          [](const auto* const* in, auto* dx, int64_t s, int64_t n, int64_t step) {
                            kernel::logcumsumexp_backward_line(in[0], in[1], in[2], dx, s, n, step);
                          });
}

// ---------------------------------------------------------------------------------------
// sort

constexpr const char* kSort = "sort";

// Whether a comes before b: ascending or descending, NaN the largest value.
template <typename T>
bool before(T a, T b, bool descending) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
    if (a_nan || b_nan) return descending ? a_nan && !b_nan : b_nan && !a_nan;
  }
  return descending ? a > b : a < b;
}

// The attribute "k" (topk): how many of each sorted line's first elements are kept, all of
// them when absent.
int64_t kept_of(const Attrs& attrs, const Shape& shape, int64_t dim) {
  const int64_t n = shape.empty() ? 1 : shape[dim];
  if (!attrs.has("k")) return n;
  const int64_t k = attrs.get_int("k");
  if (k < 0 || k > n) {
    op_error(kSort, "k = " + std::to_string(k) + " is out of range for dim " + std::to_string(dim) + " of size " +
                        std::to_string(n) + "; expected 0 <= k <= " + std::to_string(n));
  }
  return shape.empty() ? n : k;  // a 0-d line keeps its element, k 0 or 1 (torch's)
}

Shape kept_shape(Shape shape, int64_t dim, int64_t k) {
  if (!shape.empty()) shape[dim] = k;
  return shape;
}

// The definition sort, kthvalue and mode share: (values, indices) of `kept(attrs, shape, dim)`
// elements of each line along dim, split on every other dim, the values' gradient given back
// through the indices. picker(attrs, shape, dtype) (the input's) makes the kernel's
// pick(line, k), which reorders one line's (value, position) pairs so that its first k are the
// kept ones, in their order.
using Kept = int64_t (*)(const Attrs& attrs, const Shape& shape, int64_t dim);

template <typename Picker>
OpDef picked_lines_op(const char* name, Kept kept_count, Picker picker) {
  OpDef op;
  op.name = name;
  op.infer = [name, kept_count](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    const int64_t dim = dim_of(name, attrs, in[0].shape);
    const Shape out = kept_shape(in[0].shape, dim, kept_count(attrs, in[0].shape, dim));
    return std::vector<TensorMeta>{{out, in[0].dtype}, {out, DType::kInt64}};
  };
  op.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    return splits_but(static_cast<int64_t>(in[0].shape.size()), dim_of(name, attrs, in[0].shape), 1, 2);
  };
  op.kernel = [name, kept_count, picker](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = dim_of(name, ctx.attrs, in[0].shape());
    const Lines lines(in[0].shape(), dim);
    const int64_t k = kept_count(ctx.attrs, in[0].shape(), dim);
    const Lines kept(kept_shape(in[0].shape(), dim, k), dim);
    Tensor values = ctx.output(0, kept_shape(in[0].shape(), dim, k), in[0].dtype());
    Tensor indices = ctx.output(1, kept_shape(in[0].shape(), dim, k), DType::kInt64);
    int64_t* pi = indices.data_as<int64_t>();
    const auto pick = picker(ctx.attrs, in[0].shape(), in[0].dtype());
    visit_numbers(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const T* x = in[0].data_as<T>();
      T* pv = values.data_as<T>();
      const int64_t n = lines.n, step = lines.inner;
      kernel::parallel_for(lines.count(), lines.count() * n > kernel::kParallelGrain, [&](int64_t l) {
        const int64_t s = lines.start(l), to = kept.start(l);
        std::vector<std::pair<T, int64_t>> line(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j) line[j] = {x[s + j * step], j};
        pick(line, k);
        for (int64_t j = 0; j < k; ++j) {
          pv[to + j * step] = line[j].first;
          pi[to + j * step] = line[j].second;
        }
      });
    });
    return std::vector<Tensor>{values, indices};
  };
  op.grad = [name](const GradContext& g) {
    const Var& x = g.inputs[0];
    if (x.shape().empty()) return std::vector<Var>{g.grad_outputs[0]};
    const int64_t dim = dim_of(name, g.attrs, x.shape());
    return std::vector<Var>{call1("gather_backward", {g.outputs[1], g.grad_outputs[0]},
                                  Attrs{{"dim", dim}, {"size", x.shape()[dim]}})};
  };
  op.small_ints = true;  // as torch's: sort, topk and kthvalue of uint8, int8 and int16
  return op;
}

int64_t sort_kept(const Attrs& attrs, const Shape& shape, int64_t dim) {
  attrs.get_bool("descending");
  return kept_of(attrs, shape, dim);
}

// Each line's (value, position) pairs ordered by value; among equal values, by position where
// "stable" (absent: true), else in the order torch's CPU sort leaves them: std::sort, which
// torch's unstable sort calls with the same comparison (by value alone), so that a program's
// argsort of tied values reads torch's indices — but for what torch sorts by radix (stably):
// an ascending 1-d integer tensor of at least 32768 elements. With k (topk), torch's CPU
// topk_impl_loop step for step, with the same std:: algorithms and comparison: a partial sort
// where k * 64 <= n, else nth_element and, when sorted, a sort of the first k - 1; which of
// equal values come first, and the unsorted order, are then torch's (its test suites and
// users' top-k accuracies read them).
OpDef sort_op() {
  return picked_lines_op(kSort, sort_kept, [](const Attrs& attrs, const Shape& shape, DType dtype) {
    const bool descending = attrs.get_bool("descending");
    const bool radix = shape.size() == 1 && shape[0] >= 32768 && !descending && !is_floating(dtype);
    const bool stable = !attrs.has("stable") || attrs.get_bool("stable") || radix;
    return [descending, stable, topk = attrs.has("k"),
            sorted = !attrs.has("sorted") || attrs.get_bool("sorted")](auto& line, int64_t k) {
      const int64_t n = static_cast<int64_t>(line.size());
      auto by_value = [descending](const auto& a, const auto& b) { return before(a.first, b.first, descending); };
      if (!topk) {
        if (!stable) return std::sort(line.begin(), line.end(), by_value);
        std::sort(line.begin(), line.end(), [descending](const auto& a, const auto& b) {
          if (before(a.first, b.first, descending)) return true;
          return !before(b.first, a.first, descending) && a.second < b.second;
        });
        return;
      }
      if (k == 0) return;
      if (k * 64 <= n) {
        std::partial_sort(line.begin(), line.begin() + k, line.end(), by_value);
        return;
      }
      std::nth_element(line.begin(), line.begin() + (k - 1), line.end(), by_value);
      if (sorted) std::sort(line.begin(), line.begin() + (k - 1), by_value);
    };
  });
}

// ---------------------------------------------------------------------------------------
// mode

constexpr const char* kMode = "mode";

int64_t mode_kept(const Attrs&, const Shape& shape, int64_t dim) {
  if (!shape.empty() && shape[dim] == 0) op_error(kMode, "dim " + std::to_string(dim) + " is empty; expected at least one element");
  return 1;
}

// mode: linepick::mode_pick's pair moved to the front.
OpDef mode_op() {
  return picked_lines_op(kMode, mode_kept, [](const Attrs&, const Shape&, DType) {
    return [](auto& line, int64_t) {
      const size_t best = linepick::mode_pick(line);
      std::swap(line[0], line[best]);
    };
  });
}

// ---------------------------------------------------------------------------------------
// max_dim, min_dim

// Running picks (select::replaces) of `len` neighbouring lines `stride` apart over `steps`
// steps from first[c]: best[c] and at[c], the step where it was met. One vectorized loop per
// step, in one multiversioned call (core/loops.h) for all of them; kLen, when not 0, is len
// known when compiling (a contiguous line's lanes: whole vectors, no remainder loop).
template <bool kMax, int64_t kLen = 0, typename T>
MF_MULTIVERSIONED void running_picks(const T* first, int64_t steps, int64_t stride, int64_t len, T* best,
                                     int64_t* at) {
  if constexpr (kLen != 0) len = kLen;
  for (int64_t c = 0; c < len; ++c) {
    best[c] = first[c];
    at[c] = 0;
  }
  for (int64_t j = 1; j < steps; ++j) {
    const T* row = first + j * stride;
#pragma omp simd
    for (int64_t c = 0; c < len; ++c) {
      const bool take = select::replaces<kMax>(best[c], row[c]);
      best[c] = take ? row[c] : best[c];
      at[c] = take ? j : at[c];
    }
  }
}

// values[l], indices[l] = line l's pick and its first position, for outputs laid out [outer,
// inner] (the dim dropped or of size 1).
template <bool kMax, typename T>
void extreme_lines(const T* x, const Lines& lines, T* values, int64_t* indices) {
  const int64_t n = lines.n, inner = lines.inner;
  if (inner == 1) {
    // A contiguous line as rows of kLanes: each lane's running pick, then the lanes' picks
    // combined (ties and NaN to the smallest position), then the elements past the last row.
    constexpr int64_t kLanes = 16;
    kernel::parallel_for(lines.outer, lines.outer * n > kernel::kParallelGrain, [&](int64_t o) {
      const T* line = x + o * n;
      T best = line[0];
      int64_t at = 0, j = 1;
      if (n >= 2 * kLanes) {
        T lane[kLanes];
        int64_t row[kLanes];
        running_picks<kMax, kLanes>(line, n / kLanes, kLanes, kLanes, lane, row);
        at = row[0] * kLanes;
        best = lane[0];
        for (int64_t l = 1; l < kLanes; ++l) {
          const int64_t position = row[l] * kLanes + l;
          const bool same = lane[l] == best || (lane[l] != lane[l] && best != best);
          if (select::replaces<kMax>(best, lane[l]) || (same && position < at)) {
            best = lane[l];
            at = position;
          }
        }
        j = n / kLanes * kLanes;
      }
      for (; j < n; ++j) {
        if (select::replaces<kMax>(best, line[j])) {
          best = line[j];
          at = j;
        }
      }
      values[o] = best;
      indices[o] = at;
    });
    return;
  }
  // Lines `inner` apart: the running picks of a block of neighbouring ones, in the outputs.
  constexpr int64_t kBlock = 1 << 10;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  kernel::parallel_for(lines.outer * blocks, lines.count() * n > kernel::kParallelGrain, [&](int64_t t) {
    const int64_t o = t / blocks, c0 = t % blocks * kBlock;
    running_picks<kMax>(x + o * n * inner + c0, n, inner, std::min(kBlock, inner - c0), values + o * inner + c0,
                        indices + o * inner + c0);
  });
}

// x's shape without dim, or with it of size 1 (keepdim); a 0-d x's own.
Shape extreme_shape(Shape shape, int64_t dim, bool keepdim) {
  if (shape.empty()) return shape;
  if (keepdim) {
    shape[dim] = 1;
  } else {
    shape.erase(shape.begin() + dim);
  }
  return shape;
}

template <bool kMax>
OpDef extreme_op(const char* name) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    const int64_t dim = dim_of(name, attrs, in[0].shape);
    if (!in[0].shape.empty() && in[0].shape[dim] == 0) {
      index_error(name, "dim " + std::to_string(dim) + " is empty; expected at least one element");
    }
    const Shape out = extreme_shape(in[0].shape, dim, attrs.get_bool("keepdim"));
    return std::vector<TensorMeta>{{out, in[0].dtype}, {out, DType::kInt64}};
  };
  // S(k) -> S(k) along kept dims; S(k) -> S(k - 1) past a dropped one.
  op.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t nd = static_cast<int64_t>(in[0].shape.size()), dim = dim_of(name, attrs, in[0].shape);
    const bool keepdim = attrs.get_bool("keepdim");
    std::vector<Signature> sigs;
    for (int64_t k = 0; k < nd; ++k) {
      if (k == dim) continue;
      const Sbp out = Sbp::split(static_cast<int>(k > dim && !keepdim ? k - 1 : k));
      sigs.push_back({{Sbp::split(static_cast<int>(k))}, {out, out}});
    }
    return sigs;
  };
  op.kernel = [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = dim_of(name, ctx.attrs, in[0].shape());
    const Shape out = extreme_shape(in[0].shape(), dim, ctx.attrs.get_bool("keepdim"));
    Tensor values = ctx.output(0, out, in[0].dtype());
    Tensor indices = ctx.output(1, out, DType::kInt64);
    const Lines lines(in[0].shape(), dim);
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      extreme_lines<kMax>(in[0].data_as<T>(), lines, values.data_as<T>(), indices.data_as<int64_t>());
    });
    return std::vector<Tensor>{values, indices};
  };
  // All of dy to the picked element (torch's), read off the indices; x's values are not read.
  op.grad = [name](const GradContext& g) {
    const Var& x = g.inputs[0];
    if (x.shape().empty()) return std::vector<Var>{g.grad_outputs[0]};
    const int64_t dim = dim_of(name, g.attrs, x.shape());
    const Shape kept = extreme_shape(x.shape(), dim, true);
    return std::vector<Var>{call1("gather_backward", {fn::reshape(g.outputs[1], kept), fn::reshape(g.grad_outputs[0], kept)},
                                  Attrs{{"dim", dim}, {"size", x.shape()[dim]}})};
  };
  op.grad_reads = OpDef::GradReads{true, true, 1u};
  op.booleans = op.small_ints = true;  // as torch's max and min along a dim
  return op;
}

// ---------------------------------------------------------------------------------------
// cummax, cummin

int64_t every_kept(const Attrs&, const Shape& shape, int64_t dim) { return shape.empty() ? 1 : shape[dim]; }

// The running extreme and its index (linepick::running_takes), each pair replacing the line's
// element.
template <bool kLargest>
OpDef running_extreme_op(const char* name) {
  return picked_lines_op(name, every_kept, [](const Attrs&, const Shape&, DType) {
    return [](auto& line, int64_t) {
      if (line.empty()) return;
      auto best = line[0].first;
      int64_t at = 0;
      for (auto& [value, index] : line) {
        if (linepick::running_takes<kLargest>(best, value)) best = value, at = index;
        value = best, index = at;
      }
    };
  });
}

// ---------------------------------------------------------------------------------------
// kthvalue

constexpr const char* kKthvalue = "kthvalue";

// One element kept per line, once "k" is checked.
int64_t kth_kept(const Attrs& attrs, const Shape& shape, int64_t dim) {
  const int64_t n = shape.empty() ? 1 : shape[dim];
  const int64_t k = attrs.get_int("k");
  if (k < 1 || k > n) {
    op_error(kKthvalue, "k = " + std::to_string(k) + " is out of range for dim " + std::to_string(dim) +
                            " of size " + std::to_string(n) + "; expected 1 <= k <= " + std::to_string(n));
  }
  return 1;
}

// The element of rank k - 1 by torch's quickselect (select_math.h), moved to the front.
OpDef kthvalue_op() {
  return picked_lines_op(kKthvalue, kth_kept, [](const Attrs& attrs, const Shape&, DType) {
    return [k = attrs.get_int("k") - 1](auto& line, int64_t) {
      select::quick_select(
          static_cast<int64_t>(line.size()), k, [&line](int64_t i) { return line[i].first; },
          [&line](int64_t i, int64_t j) { std::swap(line[i], line[j]); });
      std::swap(line[0], line[k]);
    };
  });
}

// ---------------------------------------------------------------------------------------
// flip

constexpr const char* kFlip = "flip";

// Whether each dim is flipped; throws on a dim out of range or named twice.
std::vector<bool> flipped_dims(const Attrs& attrs, int64_t nd) {
  std::vector<bool> flipped(static_cast<size_t>(nd), false);
  for (int64_t d : attrs.get_ints("dims")) {
    d = kernel::normalize_dim(kFlip, d, std::max<int64_t>(nd, 1));
    if (nd == 0) continue;
    if (flipped[d]) op_error(kFlip, "dims names dim " + std::to_string(d) + " twice; expected each dim once");
    flipped[d] = true;
  }
  return flipped;
}

OpDef flip_op() {
  OpDef op;
  op.name = kFlip;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kFlip, in, 1);
    flipped_dims(attrs, static_cast<int64_t>(in[0].shape.size()));
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const std::vector<bool> flipped = flipped_dims(attrs, static_cast<int64_t>(in[0].shape.size()));
    std::vector<Signature> sigs;
    for (size_t k = 0; k < flipped.size(); ++k) {
      if (!flipped[k]) sigs.push_back({{Sbp::split(static_cast<int>(k))}, {Sbp::split(static_cast<int>(k))}});
    }
    for (ReduceOp r : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
      sigs.push_back({{Sbp::partial(r)}, {Sbp::partial(r)}});
    }
    return sigs;
  };
  // Row by row (rows: all dims but the last): each output row is one input row, read
  // backward when the last dim is flipped.
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    const int64_t nd = static_cast<int64_t>(shape.size());
    const std::vector<bool> flipped = flipped_dims(ctx.attrs, nd);
    Tensor out = ctx.output(0, shape, in[0].dtype());
    const int64_t width = nd ? shape[nd - 1] : 1, rows = width ? in[0].numel() / width : 0;
    const bool reversed = nd && flipped[nd - 1];
    const Shape strides = row_major_strides(shape);
    visit_storage(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const T* x = in[0].data_as<T>();
      T* y = out.data_as<T>();
      kernel::parallel_for(rows, in[0].numel() > kernel::kParallelGrain, [&](int64_t r) {
        int64_t rest = r, from = 0;
        for (int64_t d = nd - 2; d >= 0; --d) {
          const int64_t i = rest % shape[d];
          rest /= shape[d];
          from += (flipped[d] ? shape[d] - 1 - i : i) * strides[d];
        }
        const T* src = x + from;
        T* dst = y + r * width;
        if (reversed) {
          std::reverse_copy(src, src + width, dst);
        } else {
          std::copy(src, src + width, dst);
        }
      });
    });
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) { return std::vector<Var>{call1(kFlip, {g.grad_outputs[0]}, g.attrs)}; };
  // It only moves elements (visit_storage here and in the CUDA kernel): every dtype.
  op.bfloat16 = op.booleans = op.float16 = op.small_ints = op.complex = true;
  return op;
}

}  // namespace

void register_sort_ops(OpRegistry& r) {
  OpDef cumsum = with_grad(scan_op<Scan::kSum>(kCumsum), cumsum_grad);
  cumsum.complex = true;  // complex sums (the others need an order or a float's log)
  r.add(std::move(cumsum));
  r.add(with_grad(scan_op<Scan::kProduct>(kCumprod), cumprod_grad));
  r.add(with_grad(scan_op<Scan::kLogSumExp>(kLogcumsumexp), logcumsumexp_grad));
  r.add(cumprod_backward_op());
  r.add(logcumsumexp_backward_op());
  r.add(sort_op());
  r.add(kthvalue_op());
  r.add(mode_op());
  r.add(running_extreme_op<true>("cummax"));
  r.add(running_extreme_op<false>("cummin"));
  r.add(extreme_op<true>("max_dim"));
  r.add(extreme_op<false>("min_dim"));
  r.add(flip_op());
}

}  // namespace mf
