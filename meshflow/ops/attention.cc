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
//   packed_qkv_attention(qkv[..., T, H, 3D]; causal, scale) -> out[..., T, H, D], lse[..., T, H]
//   packed_qkv_attention_backward(qkv, out, lse, dout, dlse; attributes) -> dqkv
// The same attention on q, k, v packed per token and head, as one fused projection makes
// them (OneFlow's "BM(H3K)" layout, FlashAttention's qkvpacked form): the kernels read them
// and write out and dqkv in place with row strides, so the slices and permutes that separate
// q, k and v, and their gradients' zero-padded copies and sums, never run.
//
// The kernels work one leading index (one head of one sequence) at a time, in blocks of
// kBlock queries: scores and probabilities exist only for one block at a time ([kBlock, Tk]
// per thread), never as the [B, H, Tq, Tk] tensor that the unfused composition makes, and
// a causal block reads only the keys up to its last query. The backward pass recomputes
// each block's probabilities from lse (as FlashAttention does) instead of storing them.
//
// Signatures: a split of any leading dim, on every input and output alike (heads split
// for tensor parallelism, batch split for data parallelism); no partial form. Packed: a
// split of a leading dim or of H.
//
// dtypes: float32 and float64 compute in their own type. bfloat16 inputs (a bfloat16 model's,
// or what mf.autocast makes of float32 ones, as torch's autocast runs its attention in
// bfloat16) give lse in float32 and out in bfloat16, or in float32 with the bool attribute
// "float32_out"; the gradients come out in bfloat16, or in float32 with "float32_grads" (set
// by autocast, as for matmul). float16 computes in float32 (op.h, "Halves"). The CPU computes bfloat16 attention in float32 from the inputs' values;
// a GPU on tensor cores, with the probabilities rounded to bfloat16 before they multiply v
// (as FlashAttention does), which stays within bfloat16's rounding of the CPU's values.
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "meshflow/core/loops.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kAttention = "scaled_dot_product_attention";
constexpr const char* kAttentionBackward = "attention_backward";
constexpr const char* kPackedAttention = "packed_qkv_attention";
constexpr const char* kPackedAttentionBackward = "packed_qkv_attention_backward";
constexpr int64_t kBlock = 64;
constexpr int64_t kParallelElements = 1 << 16;  // conversions shorter than this stay on one thread

bool causal(const Attrs& attrs) { return attrs.has("causal") && attrs.get_bool("causal"); }

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }

// The dtypes of out and lse for inputs of `in` (see the file comment).
std::pair<DType, DType> result_dtypes(DType in, const Attrs& attrs) {
  if (in != DType::kBFloat16) return {in, in};
  return {flag(attrs, "float32_out") ? DType::kFloat32 : in, DType::kFloat32};
}

// The dtype of the gradients of inputs of `in`.
DType grad_dtype(DType in, const Attrs& attrs) {
  return in == DType::kBFloat16 && flag(attrs, "float32_grads") ? DType::kFloat32 : in;
}

bool attention_dtype(DType d) { return d == DType::kFloat32 || d == DType::kFloat64 || d == DType::kBFloat16; }

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

void check_scale(const char* op, const Attrs& attrs) {
  if (attrs.has("scale") && !(attrs.get_float("scale") > 0)) op_error(op, "scale must be positive");
}

// A backward op's inputs from `first` on: out, lse, dout, dlse, with the forward's shapes.
void expect_forward_results(const char* op, const std::vector<TensorMeta>& in, size_t first,
                            const std::vector<TensorMeta>& forward) {
  for (size_t i = first; i < first + 4; ++i) {
    const TensorMeta& expected = forward[(i - first) % 2];
    if (in[i].shape != expected.shape || in[i].dtype != expected.dtype) {
      op_error(op, "input " + std::to_string(i) + " is " + to_string(in[i].shape) + " " + dtype_name(in[i].dtype) +
                       "; expected " + to_string(expected.shape) + " " + dtype_name(expected.dtype));
    }
  }
}

std::vector<TensorMeta> infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kAttention, in, 3);
  const Shape &q = in[0].shape, &k = in[1].shape, &v = in[2].shape;
  for (const TensorMeta& m : in) {
    if (!attention_dtype(m.dtype)) {
      op_error(kAttention, std::string("takes float32, float64 or bfloat16 inputs, got ") + dtype_name(m.dtype));
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
  check_scale(kAttention, attrs);
  Shape out = q, lse(q.begin(), q.end() - 1);
  out.back() = v[nd - 1];
  const auto [out_dtype, lse_dtype] = result_dtypes(in[0].dtype, attrs);
  return {{out, out_dtype}, {lse, lse_dtype}};
}

std::vector<Signature> signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
  return kernel::split_alike_signatures(in[0].shape.size() - 2, 3, 2);  // the leading dims
}

// The keys block [q0, q0 + rows) reads: all, or with a causal mask those up to its last query.
int64_t keys_for(bool is_causal, int64_t q0, int64_t rows, int64_t tk) {
  return is_causal ? std::min(tk, q0 + rows) : tk;
}

// One head's matrices: where each starts and the distance between its rows (elements), so
// that the same loops read q, k, v as separate [T, D] tensors or as slices of one packed
// [B, T, H, 3D] tensor, whose rows of one head are H * 3D apart.
template <typename T>
struct Head {
  T *q, *k, *v;  // writable where the caller passes gradients
  int64_t ldq, ldk, ldv;
  T* out;  // also the forward's output read by the backward pass
  int64_t ldo;
  T* lse;
  int64_t lse_stride;
};

template <typename T>
void forward_one(const Dims& s, bool is_causal, T scale, const Head<T>& h, std::vector<T>& scores) {
  for (int64_t q0 = 0; q0 < s.tq; q0 += kBlock) {
    const int64_t rows = std::min(kBlock, s.tq - q0), keys = keys_for(is_causal, q0, rows, s.tk);
    scores.resize(static_cast<size_t>(rows * std::max<int64_t>(keys, 1)));
    gemm<T>(false, true, rows, keys, s.d, scale, h.q + q0 * h.ldq, h.ldq, h.k, h.ldk, T{0}, scores.data(), keys);
    for (int64_t i = 0; i < rows; ++i) {
      // Vectorizable loops, as nn.cc's softmax: simd reductions, exp without libm.
      T* row = scores.data() + i * keys;
      const int64_t seen = is_causal ? std::min(keys, q0 + i + 1) : keys;
      T top = -std::numeric_limits<T>::infinity();
#pragma omp simd reduction(max : top)
      for (int64_t j = 0; j < seen; ++j) top = row[j] > top ? row[j] : top;
      // The elementwise loops run at the CPU's full vector width (kernel::simd_loop); the
      // sum stays a baseline-width reduction, so its order, and so the bits, are the same on
      // every CPU.
      kernel::simd_loop(seen, [&](int64_t j) { row[j] = fast_math::exp_nonpositive(row[j] - top); });
      T sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t j = 0; j < seen; ++j) sum += row[j];
      const T inv = 1 / sum;  // seen >= 1: a row sees at least its own key
      kernel::simd_loop(seen, [&](int64_t j) { row[j] *= inv; });
      std::fill(row + seen, row + keys, T{0});
      h.lse[(q0 + i) * h.lse_stride] = top + std::log(sum);
    }
    if (keys == 0) {
      for (int64_t i = q0; i < q0 + rows; ++i) std::fill(h.out + i * h.ldo, h.out + i * h.ldo + s.dv, T{0});
    } else {
      gemm<T>(false, false, rows, s.dv, keys, T{1}, scores.data(), keys, h.v, h.ldv, T{0}, h.out + q0 * h.ldo, h.ldo);
    }
  }
}

// The backward pass of one head: `h` the forward's inputs and results, `dh` the gradients,
// dh.out/dh.lse the incoming ones (dout, dlse) and dh.q/k/v where dq, dk, dv go.
template <typename T>
void backward_one(const Dims& s, bool is_causal, T scale, const Head<T>& h, const Head<T>& dh, std::vector<T>& p,
                  std::vector<T>& dp) {
  T *dq = dh.q, *dk = dh.k, *dv = dh.v;
  for (int64_t j = 0; j < s.tk; ++j) {
    std::fill(dk + j * dh.ldk, dk + j * dh.ldk + s.d, T{0});
    std::fill(dv + j * dh.ldv, dv + j * dh.ldv + s.dv, T{0});
  }
  for (int64_t q0 = 0; q0 < s.tq; q0 += kBlock) {
    const int64_t rows = std::min(kBlock, s.tq - q0), keys = keys_for(is_causal, q0, rows, s.tk);
    if (keys == 0) {
      for (int64_t i = q0; i < q0 + rows; ++i) std::fill(dq + i * dh.ldq, dq + i * dh.ldq + s.d, T{0});
      continue;
    }
    p.resize(static_cast<size_t>(rows * keys));
    dp.resize(p.size());
    // The block's probabilities again, from the scores and the rows' log-sum-exp.
    gemm<T>(false, true, rows, keys, s.d, scale, h.q + q0 * h.ldq, h.ldq, h.k, h.ldk, T{0}, p.data(), keys);
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t seen = is_causal ? std::min(keys, q0 + i + 1) : keys;
      T* row = p.data() + i * keys;
      const T shift = h.lse[(q0 + i) * h.lse_stride];
      kernel::simd_loop(seen, [&](int64_t j) { row[j] = fast_math::exp_nonpositive(row[j] - shift); });
      std::fill(row + seen, row + keys, T{0});
    }
    const T* dout_block = dh.out + q0 * dh.ldo;
    gemm<T>(true, false, keys, s.dv, rows, T{1}, p.data(), keys, dout_block, dh.ldo, T{1}, dv, dh.ldv);  // dv += p^T dout
    gemm<T>(false, true, rows, keys, s.dv, T{1}, dout_block, dh.ldo, h.v, h.ldv, T{0}, dp.data(), keys);  // dp = dout v^T
    for (int64_t i = 0; i < rows; ++i) {
      // The softmax's backward: ds = p (dp - sum_j p dp), and sum_j p dp = dout . out; lse's
      // gradient adds p dlse.
      const T* dout_row = dout_block + i * dh.ldo;
      const T* out_row = h.out + (q0 + i) * h.ldo;
      T dot = 0;
#pragma omp simd reduction(+ : dot)
      for (int64_t c = 0; c < s.dv; ++c) dot += dout_row[c] * out_row[c];
      dot -= dh.lse[(q0 + i) * dh.lse_stride];
      T* ds = dp.data() + i * keys;
      const T* pr = p.data() + i * keys;
      kernel::simd_loop(keys, [&](int64_t j) { ds[j] = pr[j] * (ds[j] - dot) * scale; });
    }
    gemm<T>(false, false, rows, s.d, keys, T{1}, dp.data(), keys, h.k, h.ldk, T{0}, dq + q0 * dh.ldq, dh.ldq);  // dq = ds k
    gemm<T>(true, false, keys, s.d, rows, T{1}, dp.data(), keys, h.q + q0 * h.ldq, h.ldq, T{1}, dk, dh.ldk);  // dk += ds^T q
  }
}

// Where one head's matrices lie in the tensors of an op's call. Separate: q [..., Tq, D],
// k [..., Tk, D], v [..., Tk, Dv], out [..., Tq, Dv], lse [..., Tq], head i the i-th leading
// index. Packed: qkv [..., T, H, 3D] (one head's q, k, v side by side, as the GPT's fused
// projection makes them), out [..., T, H, D], lse [..., T, H], head i = (leading index i / H,
// head i % H).
struct Layout {
  bool packed;
  int64_t heads;  // H when packed

  template <typename T>
  Head<T> head(const Dims& s, int64_t i, T* q, T* k, T* v, T* out, T* lse) const {
    if (!packed) {
      return {q + i * s.tq * s.d, k + i * s.tk * s.d, v + i * s.tk * s.dv, s.d, s.d, s.dv,
              out + i * s.tq * s.dv, s.dv, lse + i * s.tq, 1};
    }
    const int64_t b = i / heads, h = i % heads, ld = heads * 3 * s.d;
    T* base = q + b * s.tq * ld + h * 3 * s.d;
    return {base, base + s.d, base + 2 * s.d, ld, ld, ld, out + b * s.tq * heads * s.d + h * s.d, heads * s.d,
            lse + b * s.tq * heads + h, heads};
  }
};

Dims packed_dims(const Shape& qkv) {
  const size_t nd = qkv.size();
  const int64_t d = qkv[nd - 1] / 3;
  return {numel(Shape(qkv.begin(), qkv.end() - 3)) * qkv[nd - 2], qkv[nd - 3], qkv[nd - 3], d, d};
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

// in: q, k, v (separate) or qkv (packed), float32 or float64; fills out and lse (their dtype).
void run_forward(const std::vector<Tensor>& in, const Attrs& attrs, const Dims& s, const Layout& layout,
                 const Tensor& out, const Tensor& lse) {
  const bool is_causal = causal(attrs);
  const Tensor &k = in[layout.packed ? 0 : 1], &v = in[layout.packed ? 0 : 2];
  each_head(in[0], attrs, s, [&](auto zero, auto scale, int64_t i) {
    using T = decltype(zero);
    thread_local std::vector<T> scores;  // reused across heads and calls: no allocation per head
    forward_one<T>(s, is_causal, scale,
                   layout.head<T>(s, i, in[0].data_as<T>(), k.data_as<T>(), v.data_as<T>(), out.data_as<T>(),
                                  lse.data_as<T>()),
                   scores);
  });
}

// in: the forward's inputs, then out, lse, dout, dlse, all of one dtype (float32 or float64);
// fills grads: dq, dk, dv or dqkv.
void run_backward(const std::vector<Tensor>& in, const Attrs& attrs, const Dims& s, const Layout& layout,
                  const std::vector<Tensor>& grads) {
  const bool is_causal = causal(attrs);
  const size_t n = layout.packed ? 1 : 3;  // the forward's inputs
  const Tensor &q = in[0], &k = in[n == 1 ? 0 : 1], &v = in[n == 1 ? 0 : 2];
  const Tensor &out = in[n], &lse = in[n + 1], &dout = in[n + 2], &dlse = in[n + 3];
  const Tensor &dq = grads[0], &dk = grads[grads.size() == 1 ? 0 : 1], &dv = grads.back();
  each_head(in[0], attrs, s, [&](auto zero, auto scale, int64_t i) {
    using T = decltype(zero);
    thread_local std::vector<T> p, dp;
    backward_one<T>(
        s, is_causal, scale,
        layout.head<T>(s, i, q.data_as<T>(), k.data_as<T>(), v.data_as<T>(), out.data_as<T>(), lse.data_as<T>()),
        layout.head<T>(s, i, dq.data_as<T>(), dk.data_as<T>(), dv.data_as<T>(), dout.data_as<T>(), dlse.data_as<T>()),
        p, dp);
  });
}

// bfloat16 attention on the CPU: float32 copies of the bfloat16 tensors, and float32
// results rounded into their bfloat16 destinations.
Tensor widened(const Tensor& t) {
  if (t.dtype() != DType::kBFloat16) return t;
  Tensor w = Tensor::empty(t.shape(), DType::kFloat32);
  const bfloat16* from = t.data_as<bfloat16>();
  float* to = w.data_as<float>();
  kernel::parallel_for(t.numel(), t.numel() > kParallelElements, [&](int64_t i) { to[i] = to_float(from[i]); });
  return w;
}

// Where a kernel computes result `r` (of the ctx's dtype): `r` itself when float32 or
// float64, else a float32 tensor that narrow_into rounds into `r`.
Tensor computed_in(const Tensor& r) { return r.dtype() == DType::kBFloat16 ? Tensor::empty(r.shape(), DType::kFloat32) : r; }

void narrow_into(const Tensor& wide, const Tensor& r) {
  if (wide.data() == r.data()) return;
  const float* from = wide.data_as<float>();
  bfloat16* to = r.data_as<bfloat16>();
  kernel::parallel_for(r.numel(), r.numel() > kParallelElements, [&](int64_t i) { to[i] = to_bfloat16(from[i]); });
}

std::vector<Tensor> forward_in_dtypes(const std::vector<Tensor>& in, const KernelContext& ctx, const Dims& s,
                                      const Layout& layout) {
  Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
  Tensor lse = ctx.output(1, ctx.output_boxes[1].extent, ctx.outputs[1].dtype);
  std::vector<Tensor> wide;
  for (const Tensor& t : in) wide.push_back(widened(t));
  const Tensor wide_out = computed_in(out);
  run_forward(wide, ctx.attrs, s, layout, wide_out, lse);
  narrow_into(wide_out, out);
  return {out, lse};
}

std::vector<Tensor> backward_in_dtypes(const std::vector<Tensor>& in, const KernelContext& ctx, const Dims& s,
                                       const Layout& layout) {
  std::vector<Tensor> grads, wide_grads, wide;
  for (size_t i = 0; i < ctx.outputs.size(); ++i) {
    grads.push_back(ctx.output(i, in[i].shape(), ctx.outputs[i].dtype));
    wide_grads.push_back(computed_in(grads.back()));
  }
  for (const Tensor& t : in) wide.push_back(widened(t));
  run_backward(wide, ctx.attrs, s, layout, wide_grads);
  for (size_t i = 0; i < grads.size(); ++i) narrow_into(wide_grads[i], grads[i]);
  return grads;
}

std::vector<Tensor> forward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return forward_in_dtypes(in, ctx, dims_of(in[0].shape(), in[1].shape(), in[2].shape()), Layout{false, 1});
}

std::vector<TensorMeta> backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kAttentionBackward, in, 7);
  expect_forward_results(kAttentionBackward, in, 3, infer({in[0], in[1], in[2]}, attrs));
  std::vector<TensorMeta> grads{in[0], in[1], in[2]};
  for (TensorMeta& g : grads) g.dtype = grad_dtype(g.dtype, attrs);
  return grads;
}

std::vector<Signature> backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                           const Attrs&) {
  return kernel::split_alike_signatures(in[0].shape.size() - 2, 7, 3);
}

std::vector<Tensor> backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return backward_in_dtypes(in, ctx, dims_of(in[0].shape(), in[1].shape(), in[2].shape()), Layout{false, 1});
}

// The incoming gradient of output i in the output's dtype, zeros where none arrived (the
// kernels read both).
Var grad_or_zeros(const GradContext& g, size_t i) {
  return g.grad_outputs[i].defined() ? fn::cast(g.grad_outputs[i], g.outputs[i].dtype()) : fn::zeros_like(g.outputs[i]);
}

std::vector<Var> grad(const GradContext& g) {
  return call(kAttentionBackward,
              {g.inputs[0], g.inputs[1], g.inputs[2], g.outputs[0], g.outputs[1], grad_or_zeros(g, 0),
               grad_or_zeros(g, 1)},
              g.attrs);
}

// The packed form.
std::vector<TensorMeta> packed_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kPackedAttention, in, 1);
  const Shape& qkv = in[0].shape;
  if (!attention_dtype(in[0].dtype)) {
    op_error(kPackedAttention, std::string("takes a float32, float64 or bfloat16 qkv, got ") + dtype_name(in[0].dtype));
  }
  if (qkv.size() < 3 || qkv.back() % 3 != 0) {
    op_error(kPackedAttention, "qkv is " + to_string(qkv) +
                                   "; expected [..., T, H, 3 D]: per token and head, q, k and v of D elements each");
  }
  check_scale(kPackedAttention, attrs);
  Shape out = qkv, lse(qkv.begin(), qkv.end() - 1);
  out.back() /= 3;
  const auto [out_dtype, lse_dtype] = result_dtypes(in[0].dtype, attrs);
  return {{out, out_dtype}, {lse, lse_dtype}};
}

// A split of a leading dim or of the heads, on qkv and every result alike (the heads are
// dim nd - 2 of qkv, out and lse).
std::vector<Signature> packed_signatures(const Shape& qkv, size_t n_inputs, size_t n_outputs) {
  std::vector<Signature> sigs = kernel::split_alike_signatures(qkv.size() - 3, n_inputs, n_outputs);
  const Sbp heads = Sbp::split(static_cast<int>(qkv.size() - 2));
  sigs.push_back({std::vector<Sbp>(n_inputs, heads), std::vector<Sbp>(n_outputs, heads)});
  return sigs;
}

std::vector<Tensor> packed_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& qkv = in[0].shape();
  return forward_in_dtypes(in, ctx, packed_dims(qkv), Layout{true, qkv[qkv.size() - 2]});
}

std::vector<TensorMeta> packed_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kPackedAttentionBackward, in, 5);
  expect_forward_results(kPackedAttentionBackward, in, 1, packed_infer({in[0]}, attrs));
  return {{in[0].shape, grad_dtype(in[0].dtype, attrs)}};
}

std::vector<Tensor> packed_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& qkv = in[0].shape();
  return backward_in_dtypes(in, ctx, packed_dims(qkv), Layout{true, qkv[qkv.size() - 2]});
}

std::vector<Var> packed_grad(const GradContext& g) {
  return call(kPackedAttentionBackward,
              {g.inputs[0], g.outputs[0], g.outputs[1], grad_or_zeros(g, 0), grad_or_zeros(g, 1)}, g.attrs);
}

}  // namespace

void register_attention_ops(OpRegistry& r) {
  OpDef forward = make_op(kAttention, infer, signatures, forward_kernel);
  forward.grad = grad;
  forward.bfloat16 = true;
  r.add(forward);
  OpDef backward = make_op(kAttentionBackward, backward_infer, backward_signatures, backward_kernel);
  backward.bfloat16 = true;
  r.add(backward);
  OpDef packed = make_op(kPackedAttention, packed_infer,
                         [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
                           return packed_signatures(in[0].shape, 1, 2);
                         },
                         packed_kernel);
  packed.grad = packed_grad;
  packed.bfloat16 = true;
  r.add(packed);
  OpDef packed_backward = make_op(kPackedAttentionBackward, packed_backward_infer,
                                  [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
                                    return packed_signatures(in[0].shape, 5, 1);
                                  },
                                  packed_backward_kernel);
  packed_backward.bfloat16 = true;
  r.add(packed_backward);
}

}  // namespace mf
