// Copyright 2026 The meshflow Authors.
// Fused attention, as torch's F.scaled_dot_product_attention:
//   scaled_dot_product_attention(q[..., Tq, D], k[..., Tk, D], v[..., Tk, Dv];
//                                causal = false, scale = 1 / sqrt(D))
//     -> out[..., Tq, Dv], lse[..., Tq]
// out = softmax(q k^T * scale, masked to key j <= query i when causal) v, and lse the
// rows' log-sum-exp of the scaled scores, which the backward pass uses to rebuild the
// probabilities. The leading dims (batch, heads) are equal in q, k and v.
//   attention_backward(q, k, v, out, lse, dout, dlse; the forward's attributes) -> dq, dk, dv
// (lse is differentiable too: d lse_i / d score_ij = p_ij.)
//
// The kernels work one leading index (one head of one sequence) at a time, in blocks of
// kBlock queries: scores and probabilities exist only for one block at a time ([kBlock, Tk]
// per thread), never as the [B, H, Tq, Tk] tensor that the unfused composition makes, and
// a causal block reads only the keys up to its last query. The backward pass recomputes
// each block's probabilities from lse (as FlashAttention does) instead of storing them.
//
// Signatures: a split of any leading dim, on every input and output alike (heads split
// for tensor parallelism, batch split for data parallelism); no partial form.
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kAttention = "scaled_dot_product_attention";
constexpr const char* kAttentionBackward = "attention_backward";
constexpr int64_t kBlock = 64;

bool causal(const Attrs& attrs) { return attrs.has("causal") && attrs.get_bool("causal"); }

double scale_of(const Attrs& attrs, int64_t head_dim) {
  return attrs.has("scale") ? attrs.get_float("scale") : 1.0 / std::sqrt(static_cast<double>(head_dim));
}

// c = alpha op(a) op(b) + beta c, row-major, with leading dims lda, ldb, ldc.
template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
          int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a,
                lda, b, ldb, beta, c, ldc);
  }
}

struct Dims {
  int64_t count, tq, tk, d, dv;
};

Dims dims_of(const Shape& q, const Shape& k, const Shape& v) {
  const size_t nd = q.size();
  return {numel(Shape(q.begin(), q.end() - 2)), q[nd - 2], k[nd - 2], q[nd - 1], v[nd - 1]};
}

std::vector<TensorMeta> infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kAttention, in, 3);
  const Shape &q = in[0].shape, &k = in[1].shape, &v = in[2].shape;
  for (const TensorMeta& m : in) {
    if (m.dtype != DType::kFloat32 && m.dtype != DType::kFloat64) {
      op_error(kAttention, std::string("takes float32 or float64 inputs, got ") + dtype_name(m.dtype));
    }
    kernel::expect_same_dtype(kAttention, in[0], m);
  }
  const size_t nd = q.size();
  if (nd < 2 || k.size() != nd || v.size() != nd || !std::equal(q.begin(), q.end() - 2, k.begin()) ||
      !std::equal(q.begin(), q.end() - 2, v.begin()) || q[nd - 1] != k[nd - 1] || k[nd - 2] != v[nd - 2]) {
    op_error(kAttention, "q " + to_string(q) + ", k " + to_string(k) + ", v " + to_string(v) +
                             " do not fit; expected q [..., Tq, D], k [..., Tk, D], v [..., Tk, Dv] with the same "
                             "leading dims");
  }
  if (attrs.has("scale") && !(attrs.get_float("scale") > 0)) op_error(kAttention, "scale must be positive");
  Shape out = q, lse(q.begin(), q.end() - 1);
  out.back() = v[nd - 1];
  return {{out, in[0].dtype}, {lse, in[0].dtype}};
}

std::vector<Signature> signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
  return kernel::split_alike_signatures(in[0].shape.size() - 2, 3, 2);  // the leading dims
}

// The keys block [q0, q0 + rows) reads: all, or with a causal mask those up to its last query.
int64_t keys_for(bool is_causal, int64_t q0, int64_t rows, int64_t tk) {
  return is_causal ? std::min(tk, q0 + rows) : tk;
}

template <typename T>
void forward_one(const Dims& s, bool is_causal, T scale, const T* q, const T* k, const T* v, T* out, T* lse,
                 std::vector<T>& scores) {
  for (int64_t q0 = 0; q0 < s.tq; q0 += kBlock) {
    const int64_t rows = std::min(kBlock, s.tq - q0), keys = keys_for(is_causal, q0, rows, s.tk);
    scores.resize(static_cast<size_t>(rows * std::max<int64_t>(keys, 1)));
    gemm<T>(false, true, rows, keys, s.d, scale, q + q0 * s.d, s.d, k, s.d, T{0}, scores.data(), keys);
    for (int64_t i = 0; i < rows; ++i) {
      // Vectorizable loops, as nn.cc's softmax: simd reductions, exp without libm.
      T* row = scores.data() + i * keys;
      const int64_t seen = is_causal ? std::min(keys, q0 + i + 1) : keys;
      T top = -std::numeric_limits<T>::infinity();
#pragma omp simd reduction(max : top)
      for (int64_t j = 0; j < seen; ++j) top = row[j] > top ? row[j] : top;
      T sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t j = 0; j < seen; ++j) {
        row[j] = fast_math::exp_nonpositive(row[j] - top);
        sum += row[j];
      }
      const T inv = 1 / sum;  // seen >= 1: a row sees at least its own key
      for (int64_t j = 0; j < seen; ++j) row[j] *= inv;
      std::fill(row + seen, row + keys, T{0});
      lse[q0 + i] = top + std::log(sum);
    }
    if (keys == 0) {
      std::fill(out + q0 * s.dv, out + (q0 + rows) * s.dv, T{0});
    } else {
      gemm<T>(false, false, rows, s.dv, keys, T{1}, scores.data(), keys, v, s.dv, T{0}, out + q0 * s.dv, s.dv);
    }
  }
}

template <typename T>
void backward_one(const Dims& s, bool is_causal, T scale, const T* q, const T* k, const T* v, const T* out,
                  const T* lse, const T* dout, const T* dlse, T* dq, T* dk, T* dv, std::vector<T>& p,
                  std::vector<T>& dp) {
  std::fill(dk, dk + s.tk * s.d, T{0});
  std::fill(dv, dv + s.tk * s.dv, T{0});
  for (int64_t q0 = 0; q0 < s.tq; q0 += kBlock) {
    const int64_t rows = std::min(kBlock, s.tq - q0), keys = keys_for(is_causal, q0, rows, s.tk);
    if (keys == 0) {
      std::fill(dq + q0 * s.d, dq + (q0 + rows) * s.d, T{0});
      continue;
    }
    p.resize(static_cast<size_t>(rows * keys));
    dp.resize(p.size());
    // The block's probabilities again, from the scores and the rows' log-sum-exp.
    gemm<T>(false, true, rows, keys, s.d, scale, q + q0 * s.d, s.d, k, s.d, T{0}, p.data(), keys);
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t seen = is_causal ? std::min(keys, q0 + i + 1) : keys;
      T* row = p.data() + i * keys;
      const T shift = lse[q0 + i];
#pragma omp simd
      for (int64_t j = 0; j < seen; ++j) row[j] = fast_math::exp_nonpositive(row[j] - shift);
      std::fill(row + seen, row + keys, T{0});
    }
    const T* dout_block = dout + q0 * s.dv;
    gemm<T>(true, false, keys, s.dv, rows, T{1}, p.data(), keys, dout_block, s.dv, T{1}, dv, s.dv);  // dv += p^T dout
    gemm<T>(false, true, rows, keys, s.dv, T{1}, dout_block, s.dv, v, s.dv, T{0}, dp.data(), keys);  // dp = dout v^T
    for (int64_t i = 0; i < rows; ++i) {
      // The softmax's backward: ds = p (dp - sum_j p dp), and sum_j p dp = dout . out; lse's
      // gradient adds p dlse.
      T dot = 0;
#pragma omp simd reduction(+ : dot)
      for (int64_t c = 0; c < s.dv; ++c) dot += dout_block[i * s.dv + c] * out[(q0 + i) * s.dv + c];
      dot -= dlse[q0 + i];
      T* ds = dp.data() + i * keys;
      const T* pr = p.data() + i * keys;
#pragma omp simd
      for (int64_t j = 0; j < keys; ++j) ds[j] = pr[j] * (ds[j] - dot) * scale;
    }
    gemm<T>(false, false, rows, s.d, keys, T{1}, dp.data(), keys, k, s.d, T{0}, dq + q0 * s.d, s.d);  // dq = ds k
    gemm<T>(true, false, keys, s.d, rows, T{1}, dp.data(), keys, q + q0 * s.d, s.d, T{1}, dk, s.d);  // dk += ds^T q
  }
}

// f(T{}, scale, head) for every head, T the inputs' floating type: one head at a time on
// each thread, each gemm single-threaded inside the parallel region.
template <typename F>
void each_head(const Tensor& q, const Attrs& attrs, const Dims& s, F f) {
  visit_dtype(q.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T>) {
      const T scale = static_cast<T>(scale_of(attrs, s.d));
#pragma omp parallel for schedule(dynamic)
      for (int64_t h = 0; h < s.count; ++h) f(zero, scale, h);
    }
  });
}

std::vector<Tensor> forward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims s = dims_of(in[0].shape(), in[1].shape(), in[2].shape());
  Shape out_shape = in[0].shape(), lse_shape(out_shape.begin(), out_shape.end() - 1);
  out_shape.back() = s.dv;
  Tensor out = Tensor::empty(out_shape, in[0].dtype()), lse = Tensor::empty(lse_shape, in[0].dtype());
  const bool is_causal = causal(ctx.attrs);
  each_head(in[0], ctx.attrs, s, [&](auto zero, auto scale, int64_t h) {
    using T = decltype(zero);
    thread_local std::vector<T> scores;  // reused across heads and calls: no allocation per head
    forward_one<T>(s, is_causal, scale, in[0].data_as<T>() + h * s.tq * s.d, in[1].data_as<T>() + h * s.tk * s.d,
                   in[2].data_as<T>() + h * s.tk * s.dv, out.data_as<T>() + h * s.tq * s.dv, lse.data_as<T>() + h * s.tq,
                   scores);
  });
  return {out, lse};
}

std::vector<TensorMeta> backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kAttentionBackward, in, 7);
  const std::vector<TensorMeta> forward = infer({in[0], in[1], in[2]}, attrs);
  for (int i = 3; i < 7; ++i) {
    const TensorMeta& expected = forward[i == 4 || i == 6 ? 1 : 0];
    if (in[i].shape != expected.shape || in[i].dtype != expected.dtype) {
      op_error(kAttentionBackward, "input " + std::to_string(i) + " has shape " + to_string(in[i].shape) +
                                       "; expected " + to_string(expected.shape));
    }
  }
  return {in[0], in[1], in[2]};
}

std::vector<Signature> backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                           const Attrs&) {
  return kernel::split_alike_signatures(in[0].shape.size() - 2, 7, 3);
}

std::vector<Tensor> backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims s = dims_of(in[0].shape(), in[1].shape(), in[2].shape());
  Tensor dq = Tensor::empty(in[0].shape(), in[0].dtype()), dk = Tensor::empty(in[1].shape(), in[0].dtype()),
         dv = Tensor::empty(in[2].shape(), in[0].dtype());
  const bool is_causal = causal(ctx.attrs);
  each_head(in[0], ctx.attrs, s, [&](auto zero, auto scale, int64_t h) {
    using T = decltype(zero);
    thread_local std::vector<T> p, dp;
    backward_one<T>(s, is_causal, scale, in[0].data_as<T>() + h * s.tq * s.d, in[1].data_as<T>() + h * s.tk * s.d,
                    in[2].data_as<T>() + h * s.tk * s.dv, in[3].data_as<T>() + h * s.tq * s.dv,
                    in[4].data_as<T>() + h * s.tq, in[5].data_as<T>() + h * s.tq * s.dv, in[6].data_as<T>() + h * s.tq,
                    dq.data_as<T>() + h * s.tq * s.d, dk.data_as<T>() + h * s.tk * s.d, dv.data_as<T>() + h * s.tk * s.dv,
                    p, dp);
  });
  return {dq, dk, dv};
}

std::vector<Var> grad(const GradContext& g) {
  const Var dout = g.grad_outputs[0].defined() ? g.grad_outputs[0] : fn::zeros_like(g.outputs[0]);
  const Var dlse = g.grad_outputs[1].defined() ? g.grad_outputs[1] : fn::zeros_like(g.outputs[1]);
  return call(kAttentionBackward, {g.inputs[0], g.inputs[1], g.inputs[2], g.outputs[0], g.outputs[1], dout, dlse},
              g.attrs);
}

}  // namespace

void register_attention_ops(OpRegistry& r) {
  OpDef forward{kAttention, infer, signatures, forward_kernel};
  forward.grad = grad;
  r.add(forward);
  r.add(OpDef{kAttentionBackward, backward_infer, backward_signatures, backward_kernel});
}

}  // namespace mf
