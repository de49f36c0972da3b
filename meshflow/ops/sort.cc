// Copyright 2026 The meshflow Authors.
// Ops that read a whole line along one dim, with torch's semantics:
//   cumsum(x; dim, reverse)    running sums along dim (reverse: from the end, the gradient's
//                              form); one dtype in and out (the Python front casts integers
//                              to int64 first, as torch.cumsum's result dtype)
//   cumprod(x; dim)            running products along dim
//   cumprod_backward(x, dy; dim) -> dx, exact where x holds zeros
//   sort(x; dim, descending) -> values, indices (int64): stable (ties keep their order);
//                              NaN is the largest value, as in torch
//   flip(x; dims)              the order of elements reversed along each of dims
// Floats accumulate their scans in double (torch's CPU accumulator); integers wrap.
//
// Signatures: every op splits its inputs and outputs alike on any dim other than the one it
// scans or sorts (flip: any dim it does not flip). cumsum is linear (P(sum) -> P(sum)) and so
// is cumprod_backward in dy; flip only moves elements, so every partial passes through it.
// A product over a split dim would be a partial product, which meshflow has no kind for.
//
// Gradients: cumsum's is the reverse cumsum; cumprod's is cumprod_backward; sort's values
// give theirs back through the indices (gather_backward); flip's is flip.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

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

// The type a scan of T accumulates in: double for floats, T (wrapping) for integers.
template <typename T>
using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;

// ---------------------------------------------------------------------------------------
// cumsum, cumprod

constexpr const char* kCumsum = "cumsum";
constexpr const char* kCumprod = "cumprod";
constexpr const char* kCumprodBackward = "cumprod_backward";

// out[k] = x[0] op ... op x[k] along dim (from the end when `reverse`).
template <typename T, typename Op>
void scan(const T* x, T* out, const Lines& lines, bool reverse, Acc<T> init, Op op) {
  for_each_line(lines, [&](int64_t s) {
    Acc<T> acc = init;
    for (int64_t j = 0; j < lines.n; ++j) {
      const int64_t at = s + (reverse ? lines.n - 1 - j : j) * lines.inner;
      acc = op(acc, static_cast<Acc<T>>(x[at]));
      out[at] = static_cast<T>(acc);
    }
  });
}

OpDef scan_op(const std::string& name, bool product) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    dim_of(name, attrs, in[0].shape);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [name, product](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                  const Attrs& attrs) {
    std::vector<Signature> linear;
    if (!product) linear.push_back({{Sbp::partial_sum()}, {Sbp::partial_sum()}});
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    return splits_but(nd, dim_of(name, attrs, in[0].shape), 1, 1, linear);
  };
  op.kernel = [name, product](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    const bool reverse = ctx.attrs.has("reverse") && ctx.attrs.get_bool("reverse");
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      using A = Acc<T>;
      if (product) {
        scan(in[0].data_as<T>(), out.data_as<T>(), lines, reverse, A{1},
             [](A a, A b) { return wrapping(a, b, std::multiplies<>()); });
      } else {
        scan(in[0].data_as<T>(), out.data_as<T>(), lines, reverse, A{0},
             [](A a, A b) { return wrapping(a, b, std::plus<>()); });
      }
    });
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

// dx[k] = sum_{j >= k} dy[j] prod_{i <= j, i != k} x[i] = P[k] S[k], with P[k] the product
// of x before k and S[k] = dy[k] + x[k + 1] S[k + 1]: no division, so zeros in x are exact.
OpDef cumprod_backward_op() {
  OpDef op;
  op.name = kCumprodBackward;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kCumprodBackward, in, 2);
    kernel::expect_same_dtype(kCumprodBackward, in[0], in[1]);
    if (in[0].shape != in[1].shape) {
      op_error(kCumprodBackward, "x has shape " + to_string(in[0].shape) + " and dy " + to_string(in[1].shape) +
                                     "; expected equal shapes");
    }
    if (!is_floating(in[0].dtype)) op_error(kCumprodBackward, "expected a float dtype");
    dim_of(kCumprodBackward, attrs, in[0].shape);
    return std::vector<TensorMeta>{in[1]};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    return splits_but(nd, dim_of(kCumprodBackward, attrs, in[0].shape), 2, 1,
                      {{{Sbp::broadcast(), Sbp::partial_sum()}, {Sbp::partial_sum()}}});
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(kCumprodBackward, ctx.attrs, in[0].shape()));
    Tensor out = ctx.output(0, in[1].shape(), in[1].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const T* x = in[0].data_as<T>();
        const T* dy = in[1].data_as<T>();
        T* dx = out.data_as<T>();
        const int64_t n = lines.n, step = lines.inner;
        for_each_line(lines, [&](int64_t s) {
          double suffix = 0;
          for (int64_t k = n - 1; k >= 0; --k) {
            suffix = static_cast<double>(dy[s + k * step]) + (k + 1 < n ? static_cast<double>(x[s + (k + 1) * step]) : 0) * suffix;
            dx[s + k * step] = static_cast<T>(suffix);
          }
          double prefix = 1;
          for (int64_t k = 0; k < n; ++k) {
            dx[s + k * step] = static_cast<T>(prefix * static_cast<double>(dx[s + k * step]));
            prefix *= static_cast<double>(x[s + k * step]);
          }
        });
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
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

OpDef sort_op() {
  OpDef op;
  op.name = kSort;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSort, in, 1);
    dim_of(kSort, attrs, in[0].shape);
    attrs.get_bool("descending");
    return std::vector<TensorMeta>{in[0], {in[0].shape, DType::kInt64}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    return splits_but(static_cast<int64_t>(in[0].shape.size()), dim_of(kSort, attrs, in[0].shape), 1, 2);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(kSort, ctx.attrs, in[0].shape()));
    const bool descending = ctx.attrs.get_bool("descending");
    Tensor values = ctx.output(0, in[0].shape(), in[0].dtype());
    Tensor indices = ctx.output(1, in[0].shape(), DType::kInt64);
    int64_t* pi = indices.data_as<int64_t>();
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const T* x = in[0].data_as<T>();
      T* pv = values.data_as<T>();
      const int64_t n = lines.n, step = lines.inner;
      kernel::parallel_for(lines.count(), lines.count() * n > kernel::kParallelGrain, [&](int64_t l) {
        const int64_t s = lines.start(l);
        std::vector<int64_t> order(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return before(x[s + a * step], x[s + b * step], descending); });
        for (int64_t j = 0; j < n; ++j) {
          pv[s + j * step] = x[s + order[j] * step];
          pi[s + j * step] = order[j];
        }
      });
    });
    return std::vector<Tensor>{values, indices};
  };
  op.grad = [](const GradContext& g) {
    const Var& x = g.inputs[0];
    const int64_t dim = dim_of(kSort, g.attrs, x.shape());
    const int64_t size = x.shape().empty() ? 1 : x.shape()[dim];
    if (x.shape().empty()) return std::vector<Var>{g.grad_outputs[0]};
    return std::vector<Var>{
        call1("gather_backward", {g.outputs[1], g.grad_outputs[0]}, Attrs{{"dim", dim}, {"size", size}})};
  };
  return op;
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
  op.bfloat16 = true;
  return op;
}

}  // namespace

void register_sort_ops(OpRegistry& r) {
  r.add(with_grad(scan_op(kCumsum, false), cumsum_grad));
  r.add(with_grad(scan_op(kCumprod, true), cumprod_grad));
  r.add(cumprod_backward_op());
  r.add(sort_op());
  r.add(flip_op());
}

}  // namespace mf
