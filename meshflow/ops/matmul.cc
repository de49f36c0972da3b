// Copyright 2026 The meshflow Authors.
// matmul(a[..., m, k], b[..., k, n]) -> [..., m, n], batch dims broadcast as in NumPy.
// Signatures (CONCEPTS section 4), plus a split of any batch dim:
//   S(m), B -> S(m);  B, S(n) -> S(n);  S(k), S(k) -> P;  P, B -> P;  B, P -> P.
// float32 runs on oneDNN's sgemm, float64 on OpenBLAS's dgemm, integers on a plain loop.
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kName = "matmul";

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

std::vector<TensorMeta> infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kName, in, 2);
  kernel::expect_same_dtype(kName, in[0], in[1]);
  const Shape& a = in[0].shape;
  const Shape& b = in[1].shape;
  if (a.size() < 2 || b.size() < 2) {
    op_error(kName, "inputs of shapes " + to_string(a) + " and " + to_string(b) +
                        " must have at least 2 dims (matrices or batches of them)");
  }
  if (a[a.size() - 1] != b[b.size() - 2]) {
    op_error(kName, "inner dims differ: " + to_string(a) + " @ " + to_string(b) + " (" +
                        std::to_string(a.back()) + " vs " + std::to_string(b[b.size() - 2]) + ")");
  }
  Shape out = kernel::broadcast_shapes(kName, batch_of(a), batch_of(b));
  out.push_back(a[a.size() - 2]);
  out.push_back(b.back());
  return {{out, in[0].dtype}};
}

std::vector<Signature> signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                  const Attrs&) {
  const int a_nd = static_cast<int>(in[0].shape.size()), b_nd = static_cast<int>(in[1].shape.size());
  const int o_nd = static_cast<int>(out[0].shape.size());
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  // Batch dims: split like an elementwise op over the batch shapes.
  std::vector<Signature> sigs = kernel::broadcast_split_signatures(
      {{batch_of(in[0].shape), in[0].dtype}, {batch_of(in[1].shape), in[1].dtype}}, batch_of(out[0].shape));
  sigs.push_back({{Sbp::split(a_nd - 2), b}, {Sbp::split(o_nd - 2)}});
  sigs.push_back({{b, Sbp::split(b_nd - 1)}, {Sbp::split(o_nd - 1)}});
  sigs.push_back({{Sbp::split(a_nd - 1), Sbp::split(b_nd - 2)}, {p}});
  sigs.push_back({{p, b}, {p}});
  sigs.push_back({{b, p}, {p}});
  return sigs;
}

template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS leaves C untouched when k == 0; the product of empty shards is 0
    std::fill(c, c + m * n, T{0});
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    dnnl_sgemm('N', 'N', m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0, c, n);
  } else {
    for (int64_t i = 0; i < m * n; ++i) c[i] = 0;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t l = 0; l < k; ++l) {
        const T x = a[i * k + l];
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += x * b[l * n + j];
      }
    }
  }
}

std::vector<Tensor> run(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& as = in[0].shape();
  const Shape& bs = in[1].shape();
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  Shape out_shape = kernel::broadcast_shapes(kName, batch_of(as), batch_of(bs));
  const Shape batch = out_shape;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Tensor out = Tensor::empty(out_shape, in[0].dtype());
  const Shape sa = kernel::broadcast_strides(batch_of(as), batch), sb = kernel::broadcast_strides(batch_of(bs), batch);
  visit_dtype(out.dtype(), [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0, count = numel(batch); i < count; ++i) {
      int64_t rest = i, oa = 0, ob = 0;
      for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
        oa += rest % batch[d] * sa[d];
        ob += rest % batch[d] * sb[d];
        rest /= batch[d];
      }
      gemm<T>(m, n, k, in[0].data_as<T>() + oa * m * k, in[1].data_as<T>() + ob * k * n,
              out.data_as<T>() + i * m * n);
    }
  });
  return {out};
}

// d(a @ b) = dy @ b^T into a and a^T @ dy into b, summed over broadcast batch dims. A
// matrix b under a batch of a (a linear layer) gets one gemm over the flattened batch.
std::vector<Var> grad(const GradContext& ctx) {
  const Var &a = ctx.inputs[0], &b = ctx.inputs[1], &dy = ctx.grad_outputs[0];
  std::vector<Var> grads(2);
  if (ctx.needs_grad[0]) grads[0] = fn::sum_to(fn::matmul(dy, fn::transpose(b, -1, -2)), a.shape());
  if (ctx.needs_grad[1]) {
    const Shape& as = a.shape();
    if (b.shape().size() == 2 && as.size() > 2) {
      const Var flat_a = fn::reshape(a, {-1, as.back()}), flat_dy = fn::reshape(dy, {-1, dy.shape().back()});
      grads[1] = fn::matmul(fn::transpose(flat_a, 0, 1), flat_dy);
    } else {
      grads[1] = fn::sum_to(fn::matmul(fn::transpose(a, -1, -2), dy), b.shape());
    }
  }
  return grads;
}

}  // namespace

void register_matmul_ops(OpRegistry& r) {
  OpDef op{kName, infer, signatures, run};
  op.grad = grad;
  r.add(op);
}

}  // namespace mf
