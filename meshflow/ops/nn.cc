// Copyright 2026 The meshflow Authors.
// Neural-network ops with PyTorch's names and semantics. Signatures (B, ... -> B implied):
//   softmax(x; dim), log_softmax(x; dim), floating x:  S(k) -> S(k) for every k != dim.
//   layer_norm(x[, weight][, bias]; normalized_shape, eps = 1e-5, has_weight, has_bias =
//     false), floating: normalizes over the trailing dims normalized_shape (biased variance),
//     then scales by weight and shifts by bias (of shape normalized_shape) when present.
//     S(k), B, B -> S(k) for every leading (not normalized) dim k.
//   embedding(indices int32/int64, weight[V, D]) -> indices.shape + [D], rows of weight:
//     S(k), B -> S(k) for each indices dim k;  B, S(1) -> S(last);  B, P -> P;
//     B, S(0) -> P: each rank gathers the vocabulary rows it holds, zeros for the others.
//   cross_entropy(logits[N, C] floating, target[N] int32/int64) -> [], the mean over N of
//     -log_softmax(logits)[i, target[i]]:  S(0), S(0) -> P (local sum over the LOGICAL N).
// Indices and targets out of range raise an error from the kernel of the rank that holds
// them, before it writes anything.
#include <algorithm>
#include <cmath>
#include <limits>

#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

void expect_floating(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (!is_floating(m.dtype)) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected float32 or float64");
  }
}

void expect_index(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (m.dtype != DType::kInt32 && m.dtype != DType::kInt64) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected int32 or int64");
  }
}

// Calls f(I{}) with I the C++ type of an index dtype (int32 or int64).
template <typename F>
void visit_index(DType dtype, F&& f) {
  if (dtype == DType::kInt32) {
    f(int32_t{});
  } else {
    f(int64_t{});
  }
}

// Throws unless every one of the n indices is in [0, size).
template <typename I>
void check_indices(const std::string& op, const I* idx, int64_t n, int64_t size, const std::string& what) {
  const I* bad = std::find_if(idx, idx + n, [size](I i) { return i < 0 || i >= size; });
  if (bad != idx + n) {
    op_error(op, what + " " + std::to_string(*bad) + " is out of range; expected values in [0, " +
                     std::to_string(size) + ")");
  }
}

// Softmax (or log-softmax) of `width` <= kLines adjacent lines: line c is x[c], x[c + inner],
// ..., x[c + (n - 1) inner], and likewise in y. Taking adjacent lines together keeps every
// pass over contiguous memory whatever the dim. Shifting by each line's maximum m keeps exp
// from overflowing, and results are written in terms of x - m (exact for nearby values).
constexpr int64_t kLines = 16;

template <typename T>
void softmax_lines(const T* x, T* y, int64_t n, int64_t inner, int64_t width, bool log) {
  T m[kLines], s[kLines];
  std::fill(m, m + width, -std::numeric_limits<T>::infinity());
  std::fill(s, s + width, T{0});
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < width; ++c) m[c] = std::max(m[c], x[i * inner + c]);
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < width; ++c) {
      const T e = std::exp(x[i * inner + c] - m[c]);
      s[c] += e;
      if (!log) y[i * inner + c] = e;
    }
  }
  for (int64_t c = 0; c < width; ++c) s[c] = log ? std::log(s[c]) : 1 / s[c];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < width; ++c) {
      const int64_t k = i * inner + c;
      y[k] = log ? x[k] - m[c] - s[c] : y[k] * s[c];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// softmax, log_softmax

OpDef softmax(const std::string& name, bool log) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    expect_floating(name, in[0], "the input");
    kernel::normalize_dim(name, attrs.get_int("dim"), static_cast<int64_t>(in[0].shape.size()));
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    const int64_t dim = kernel::normalize_dim(name, attrs.get_int("dim"), nd);
    std::vector<Signature> sigs;
    for (int k = 0; k < nd; ++k) {
      if (k != dim) sigs.push_back({{Sbp::split(k)}, {Sbp::split(k)}});
    }
    return sigs;
  };
  op.kernel = [name, log](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    const int64_t dim = kernel::normalize_dim(name, ctx.attrs.get_int("dim"), in[0].ndim());
    const int64_t n = shape[dim];
    int64_t inner = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    Tensor out = Tensor::empty(shape, in[0].dtype());
    // Tasks of kLines adjacent lines (fewer at the end of a row of `inner` lines).
    const int64_t outer = n == 0 || inner == 0 ? 0 : in[0].numel() / (n * inner);
    const int64_t chunks = (inner + kLines - 1) / kLines;
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
#pragma omp parallel for if (in[0].numel() > kernel::kParallelGrain)
        for (int64_t t = 0; t < outer * chunks; ++t) {
          const int64_t first = t % chunks * kLines, start = t / chunks * n * inner + first;
          softmax_lines(in[0].data_as<T>() + start, out.data_as<T>() + start, n, inner,
                        std::min(kLines, inner - first), log);
        }
      }
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// ---------------------------------------------------------------------------------------------
// layer_norm

constexpr const char* kLayerNorm = "layer_norm";

bool flag(const Attrs& attrs, const std::string& key) { return attrs.has(key) && attrs.get_bool(key); }

std::vector<TensorMeta> layer_norm_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kLayerNorm, in, 1 + has_weight + has_bias);
  expect_floating(kLayerNorm, in[0], "the input");
  const Shape& x = in[0].shape;
  const std::vector<int64_t>& normalized = attrs.get_ints("normalized_shape");
  const bool trailing = !normalized.empty() && normalized.size() <= x.size() &&
                        std::equal(normalized.begin(), normalized.end(), x.end() - normalized.size());
  if (!trailing) {
    op_error(kLayerNorm, "normalized_shape " + to_string(normalized) + " is not the trailing dims of the input's " +
                             "shape " + to_string(x) + "; expected a nonempty suffix of it");
  }
  if (attrs.has("eps") && !(attrs.get_float("eps") >= 0)) {
    op_error(kLayerNorm, "eps is " + std::to_string(attrs.get_float("eps")) + "; expected eps >= 0");
  }
  for (size_t i = 1; i < in.size(); ++i) {
    const std::string what = i == 1 && has_weight ? "weight" : "bias";
    if (in[i].shape != normalized) {
      op_error(kLayerNorm, what + " has shape " + to_string(in[i].shape) + "; expected normalized_shape " +
                               to_string(normalized));
    }
    kernel::expect_same_dtype(kLayerNorm, in[0], in[i]);
  }
  return {in[0]};
}

std::vector<Signature> layer_norm_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                             const Attrs& attrs) {
  const int leading = static_cast<int>(in[0].shape.size() - attrs.get_ints("normalized_shape").size());
  std::vector<Signature> sigs;
  for (int k = 0; k < leading; ++k) {
    Signature s{std::vector<Sbp>(in.size(), Sbp::broadcast()), {Sbp::split(k)}};
    s.inputs[0] = Sbp::split(k);
    sigs.push_back(s);
  }
  return sigs;
}

std::vector<Tensor> layer_norm_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const double eps = ctx.attrs.has("eps") ? ctx.attrs.get_float("eps") : 1e-5;
  const int64_t n = numel(ctx.attrs.get_ints("normalized_shape"));
  const Tensor& x = in[0];
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  visit_dtype(x.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      const T* w = has_weight ? in[1].data_as<T>() : nullptr;
      const T* b = has_bias ? in[1 + has_weight].data_as<T>() : nullptr;
#pragma omp parallel for if (x.numel() > kernel::kParallelGrain)
      for (int64_t r = 0; r < rows; ++r) {
        const T* xr = x.data_as<T>() + r * n;
        T* yr = out.data_as<T>() + r * n;
        // Statistics in double, two passes: no cancellation in the variance.
        double mean = 0, var = 0;
        for (int64_t j = 0; j < n; ++j) mean += xr[j];
        mean /= static_cast<double>(n);
        for (int64_t j = 0; j < n; ++j) var += (xr[j] - mean) * (xr[j] - mean);
        const T m = static_cast<T>(mean), rstd = static_cast<T>(1 / std::sqrt(var / static_cast<double>(n) + eps));
        for (int64_t j = 0; j < n; ++j) {
          T y = (xr[j] - m) * rstd;
          if (w) y *= w[j];
          if (b) y += b[j];
          yr[j] = y;
        }
      }
    }
  });
  return {out};
}

// ---------------------------------------------------------------------------------------------
// embedding

constexpr const char* kEmbedding = "embedding";

std::vector<TensorMeta> embedding_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kEmbedding, in, 2);
  expect_index(kEmbedding, in[0], "indices");
  if (in[1].shape.size() != 2) {
    op_error(kEmbedding,
             "weight has shape " + to_string(in[1].shape) + "; expected 2 dims [vocabulary, embedding dim]");
  }
  Shape out = in[0].shape;
  out.push_back(in[1].shape[1]);
  return {{out, in[1].dtype}};
}

std::vector<Signature> embedding_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                            const Attrs&) {
  const int nd = static_cast<int>(in[0].shape.size());
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  std::vector<Signature> sigs;
  for (int k = 0; k < nd; ++k) sigs.push_back({{Sbp::split(k), b}, {Sbp::split(k)}});
  sigs.push_back({{b, Sbp::split(1)}, {Sbp::split(nd)}});
  sigs.push_back({{b, Sbp::split(0)}, {p}});
  sigs.push_back({{b, p}, {p}});
  return sigs;
}

// The local weight holds logical rows [first, first + rows); other rows come out as zeros
// (only under a vocabulary split, where the ranks' outputs add up).
std::vector<Tensor> embedding_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& indices = in[0];
  const Tensor& weight = in[1];
  const int64_t first = ctx.input_boxes[1].start[0], rows = weight.shape()[0], width = weight.shape()[1];
  Tensor out = Tensor::empty(ctx.output_boxes[0].extent, weight.dtype());
  const int64_t n = indices.numel();
  visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices(kEmbedding, idx, n, ctx.inputs[1].shape[0], "index");
    visit_dtype(weight.dtype(), [&](auto wv) {
      using T = decltype(wv);
      const T* w = weight.data_as<T>();
      T* y = out.data_as<T>();
#pragma omp parallel for if (n * width > kernel::kParallelGrain)
      for (int64_t i = 0; i < n; ++i) {
        const int64_t r = idx[i] - first;
        T* yi = y + i * width;
        if (r >= 0 && r < rows) {
          std::copy(w + r * width, w + (r + 1) * width, yi);
        } else {
          std::fill(yi, yi + width, T{0});
        }
      }
    });
  });
  return {out};
}

// ---------------------------------------------------------------------------------------------
// cross_entropy

constexpr const char* kCrossEntropy = "cross_entropy";

std::vector<TensorMeta> cross_entropy_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kCrossEntropy, in, 2);
  expect_floating(kCrossEntropy, in[0], "logits");
  expect_index(kCrossEntropy, in[1], "target");
  const Shape& logits = in[0].shape;
  if (logits.size() != 2) {
    op_error(kCrossEntropy, "logits have shape " + to_string(logits) + "; expected 2 dims [batch, classes]");
  }
  if (in[1].shape != Shape{logits[0]}) {
    op_error(kCrossEntropy, "target has shape " + to_string(in[1].shape) + "; expected [" +
                                std::to_string(logits[0]) + "], one class per row of the logits");
  }
  return {{Shape{}, in[0].dtype}};
}

std::vector<Signature> cross_entropy_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                                const Attrs&) {
  return {{{Sbp::split(0), Sbp::split(0)}, {Sbp::partial_sum()}}};
}

std::vector<Tensor> cross_entropy_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& logits = in[0];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1];
  Tensor out = Tensor::empty({}, logits.dtype());
  visit_index(in[1].dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* target = in[1].data_as<I>();
    check_indices(kCrossEntropy, target, rows, classes, "target");
    visit_dtype(logits.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const T* x = logits.data_as<T>();
        double total = 0;
#pragma omp parallel reduction(+ : total) if (rows * classes > kernel::kParallelGrain)
        {
          std::vector<T> log_probs(classes);
#pragma omp for
          for (int64_t i = 0; i < rows; ++i) {
            softmax_lines(x + i * classes, log_probs.data(), classes, 1, 1, true);
            total -= log_probs[target[i]];
          }
        }
        // Over the logical batch size, so that the ranks' partial losses add up to the mean;
        // 0 / 0 is NaN for an empty batch, as in PyTorch.
        *out.data_as<T>() = static_cast<T>(total / static_cast<double>(ctx.inputs[0].shape[0]));
      }
    });
  });
  return {out};
}

}  // namespace

void register_nn_ops(OpRegistry& r) {
  r.add(softmax("softmax", false));
  r.add(softmax("log_softmax", true));
  r.add(OpDef{kLayerNorm, layer_norm_infer, layer_norm_signatures, layer_norm_kernel});
  r.add(OpDef{kEmbedding, embedding_infer, embedding_signatures, embedding_kernel, {}, /*kernel_checks_data=*/true});
  r.add(OpDef{kCrossEntropy, cross_entropy_infer, cross_entropy_signatures, cross_entropy_kernel, {},
              /*kernel_checks_data=*/true});
}

}  // namespace mf
