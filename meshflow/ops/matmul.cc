// Copyright 2026 The meshflow Authors.
// matmul(a[..., m, k], b[..., k, n]) -> [..., m, n], batch dims broadcast as in NumPy.
// Bool attributes transpose_a / transpose_b (default false) take a as [..., k, m] or b as
// [..., n, k]: the gemm reads the operand transposed, so x @ w^T (a linear layer) and the
// gradients never copy a transpose.
// An optional third input, bias [n], is added to every row of the result inside the same
// kernel (a linear layer's bias: fn::linear), in the result's dtype, before any rounding to
// bfloat16: no pass of its own over the result, and cuBLASLt's bias epilogue on GPUs.
// Signatures (CONCEPTS section 4), plus a split of any batch dim, with m, k, n the
// operands' dims as the product sees them:
//   S(m), B -> S(m);  B, S(n) -> S(n);  S(k), S(k) -> P;  P, B -> P;  B, P -> P.
// The bias follows the result's last dim: S(0) where the result is S(n), P where it is P
// (each rank adds its share), B otherwise.
// float32 runs on oneDNN's sgemm (a dot as a cascaded sum; a batch of small products without a
// broadcast batch dim in one call of its matmul primitive), float64 on OpenBLAS's dgemm,
// integers (uint8, int8 and int16 too, wrapping as torch's) on a threaded loop in unsigned
// arithmetic.
// bfloat16 runs on oneDNN's matmul primitive (AVX512-BF16 or AMX where the CPU has them,
// emulated on plain AVX-512; widened to float32 for sgemm where oneDNN has none, below
// AVX-512), accumulating in float32; the result is bfloat16, or float32 with the bool attribute
// "float32_out" (what the gradient of an autocast product asks for, below). float16 computes
// in float32 (op.h, "Halves"): its operands widened exactly, sgemm, one rounding.
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <map>
#include <string>
#include <oneapi/dnnl/dnnl.hpp>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <omp.h>

#include <algorithm>
#include <functional>

#include "meshflow/core/allocator.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/gemm.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kName = "matmul";

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }

// The physical dims of an operand's two matrix dims: {rows, cols} as the product reads it.
std::pair<int, int> matrix_dims(const Shape& s, bool transposed) {
  const int nd = static_cast<int>(s.size());
  return transposed ? std::make_pair(nd - 1, nd - 2) : std::make_pair(nd - 2, nd - 1);
}

DType out_dtype(DType in, const Attrs& attrs) {
  if (!flag(attrs, "float32_out")) return in;
  if (in != DType::kBFloat16) op_error(kName, "float32_out is for bfloat16 inputs; these are " + std::string(dtype_name(in)));
  return DType::kFloat32;
}

std::vector<TensorMeta> infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  if (in.size() != 2 && in.size() != 3) {
    op_error(kName, "takes 2 inputs (a, b) or 3 (a, b, bias), got " + std::to_string(in.size()));
  }
  kernel::expect_same_dtype(kName, in[0], in[1]);
  const Shape& a = in[0].shape;
  const Shape& b = in[1].shape;
  if (a.size() < 2 || b.size() < 2) {
    op_error(kName, "inputs of shapes " + to_string(a) + " and " + to_string(b) +
                        " must have at least 2 dims (matrices or batches of them)");
  }
  const auto [am, ak] = matrix_dims(a, flag(attrs, "transpose_a"));
  const auto [bk, bn] = matrix_dims(b, flag(attrs, "transpose_b"));
  if (a[ak] != b[bk]) {
    op_error(kName, "inner dims differ: " + to_string(a) + " @ " + to_string(b) + " (" + std::to_string(a[ak]) +
                        " vs " + std::to_string(b[bk]) + ", transposes applied)");
  }
  Shape out = kernel::broadcast_shapes(kName, batch_of(a), batch_of(b));
  out.push_back(a[am]);
  out.push_back(b[bn]);
  const DType dtype = out_dtype(in[0].dtype, attrs);
  if (in.size() == 3 && (in[2].shape != Shape{b[bn]} || in[2].dtype != dtype)) {
    op_error(kName, "bias must be [" + std::to_string(b[bn]) + "] " + dtype_name(dtype) +
                        " (the result's last dim and dtype); got " + to_string(in[2].shape) + " " +
                        dtype_name(in[2].dtype));
  }
  return {{out, dtype}};
}

std::vector<Signature> signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                  const Attrs& attrs) {
  const auto [am, ak] = matrix_dims(in[0].shape, flag(attrs, "transpose_a"));
  const auto [bk, bn] = matrix_dims(in[1].shape, flag(attrs, "transpose_b"));
  const int o_nd = static_cast<int>(out[0].shape.size());
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  // Batch dims: split like an elementwise op over the batch shapes.
  std::vector<Signature> sigs = kernel::broadcast_split_signatures(
      {{batch_of(in[0].shape), in[0].dtype}, {batch_of(in[1].shape), in[1].dtype}}, batch_of(out[0].shape));
  sigs.push_back({{Sbp::split(am), b}, {Sbp::split(o_nd - 2)}});
  sigs.push_back({{b, Sbp::split(bn)}, {Sbp::split(o_nd - 1)}});
  sigs.push_back({{Sbp::split(ak), Sbp::split(bk)}, {p}});
  sigs.push_back({{p, b}, {p}});
  sigs.push_back({{b, p}, {p}});
  if (in.size() == 3) {
    for (Signature& sig : sigs) {
      const Sbp& o = sig.outputs[0];
      sig.inputs.push_back(o.is_partial() ? o : o.is_split() && o.split_dim() == o_nd - 1 ? Sbp::split(0) : b);
    }
  }
  return sigs;
}

// The integers' product: sums and products in an unsigned type at least as wide as
// `unsigned` (narrower ones would promote to int, whose overflow is undefined), so the result
// wraps modulo 2^bits as every integer kernel's; rows of c on the OpenMP team, each row's
// inner loop contiguous in b (over n, or over k when b is transposed) so it vectorizes.
template <typename T>
void integer_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
                  int64_t ldb, T* c) {
  using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  auto row = [&](int64_t i) {
    T* out = c + i * n;
    if (tb) {
      for (int64_t j = 0; j < n; ++j) {
        const T* bj = b + j * ldb;
        W sum = 0;
        if (ta) {
          for (int64_t l = 0; l < k; ++l) sum += static_cast<W>(a[l * lda + i]) * static_cast<W>(bj[l]);
        } else {
          const T* ai = a + i * lda;
#pragma omp simd reduction(+ : sum)
          for (int64_t l = 0; l < k; ++l) sum += static_cast<W>(ai[l]) * static_cast<W>(bj[l]);
        }
        out[j] = static_cast<T>(sum);
      }
      return;
    }
    std::vector<W> sums(static_cast<size_t>(n), W{0});
    for (int64_t l = 0; l < k; ++l) {
      const W x = static_cast<W>(ta ? a[l * lda + i] : a[i * lda + l]);
      const T* bl = b + l * ldb;
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) sums[j] += x * static_cast<W>(bl[j]);
    }
    for (int64_t j = 0; j < n; ++j) out[j] = static_cast<T>(sums[j]);
  };
  kernel::parallel_for(m, m > 1 && m * n * k > kernel::kParallelGrain, row);
}

// The sum of a[i] * b[i]: sgemm sums a dot in one float32 chain, k * eps off (0.35% for
// k = 10^6); this sums blocks in float32 lanes and the blocks' sums in float64 (a cascade,
// as the sums of reduce.cc; torch's dot is as close).
float cascaded_dot(const float* a, const float* b, int64_t k) {
  constexpr int64_t kBlock = 1024;
  double total = 0;
  for (int64_t l = 0; l < k; l += kBlock) {
    const int64_t end = std::min(k, l + kBlock);
    float block = 0;
#pragma omp simd reduction(+ : block)
    for (int64_t i = l; i < end; ++i) block += a[i] * b[i];
    total += block;
  }
  return static_cast<float>(total);
}

// c[m, n] = op(a) @ op(b), row-major; op transposes when ta / tb; a's rows lda apart.
template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, T* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS leaves C untouched when k == 0; the product of empty shards is 0
    std::fill(c, c + m * n, T{0});
    return;
  }
  const int64_t ldb = tb ? k : n;
  if constexpr (std::is_same_v<T, float>) {
    if (m == 1 && n == 1 && (!ta || lda == 1)) {  // a dot: a [1, k] and b [k, 1] contiguous
      c[0] = cascaded_dot(a, b, k);
      return;
    }
    dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda,
                b, ldb, 0.0, c, n);
  } else if constexpr (is_complex_v<T>) {
    const T one(1), zero(0);
    const auto call = std::is_same_v<T, std::complex<float>> ? cblas_cgemm : cblas_zgemm;
    call(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, &one, a, lda, b, ldb,
         &zero, c, n);
  } else {
    integer_gemm<T>(ta, tb, m, n, k, a, lda, b, ldb, c);
  }
}

template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c) {
  gemm<T>(ta, tb, m, n, k, a, ta ? m : k, b, c);
}

// The same product where oneDNN has no bfloat16 matmul (a CPU below AVX-512, or
// ONEDNN_MAX_CPU_ISA set lower): the operands widened exactly to float32, sgemm, then the
// bias and one rounding, as the primitive does. Sums may be ordered otherwise than the
// primitive's, as between any two CPUs' kernels.
template <typename Out>
void gemm_bf16_widened(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const bfloat16* a, const bfloat16* b,
                       Out* c, const Out* bias) {
  std::vector<float> wa(static_cast<size_t>(m * k)), wb(static_cast<size_t>(k * n));
  std::transform(a, a + m * k, wa.begin(), [](bfloat16 x) { return to_float(x); });
  std::transform(b, b + k * n, wb.begin(), [](bfloat16 x) { return to_float(x); });
  std::vector<float> product;
  float* out = nullptr;
  if constexpr (std::is_same_v<Out, float>) {
    out = c;
  } else {
    product.resize(static_cast<size_t>(m * n));
    out = product.data();
  }
  dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, wa.data(), ta ? m : k, wb.data(), tb ? k : n, 0.0f, out,
             n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if constexpr (std::is_same_v<Out, float>) {
        if (bias) c[i * n + j] += bias[j];
      } else {
        c[i * n + j] = to_bfloat16(out[i * n + j] + (bias ? to_float(bias[j]) : 0.0f));
      }
    }
  }
}

// c[m, n] = op(a) @ op(b) (+ bias[n], added in float32 before c is rounded) for bfloat16
// a, b; c and the bias are float32 or bfloat16 (Out). One oneDNN matmul primitive per shape
// and thread, made once: making one costs more than a small product.
template <typename Out>
void gemm_bf16(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const bfloat16* a, const bfloat16* b, Out* c,
               const Out* bias) {
  using dnnl::memory;
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) {
      if (bias) {
        std::copy(bias, bias + n, c + i * n);
      } else {
        std::fill(c + i * n, c + (i + 1) * n, Out{});
      }
    }
    return;
  }
  struct Product {
    dnnl::matmul primitive;  // empty where oneDNN has no bfloat16 matmul for this CPU
    memory::desc a, b, c, bias;
  };
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  // Per thread: a primitive's library-managed scratchpad is not safe to share between
  // concurrent executions (the batched products below run on several threads at once).
  thread_local std::map<std::tuple<bool, bool, int64_t, int64_t, int64_t, bool, bool>, Product> products;
  thread_local dnnl::stream stream(engine);
  constexpr bool kFloatOut = std::is_same_v<Out, float>;
  auto [it, made] = products.try_emplace({ta, tb, m, n, k, kFloatOut, bias != nullptr});
  if (made) {
    Product& q = it->second;
    const memory::data_type out = kFloatOut ? memory::data_type::f32 : memory::data_type::bf16;
    q.a = memory::desc({m, k}, memory::data_type::bf16, ta ? memory::dims{1, m} : memory::dims{k, 1});
    q.b = memory::desc({k, n}, memory::data_type::bf16, tb ? memory::dims{1, k} : memory::dims{n, 1});
    q.c = memory::desc({m, n}, out, memory::dims{n, 1});
    if (bias) q.bias = memory::desc({1, n}, out, memory::dims{n, 1});
    try {
      q.primitive = dnnl::matmul(dnnl::matmul::primitive_desc(
          bias ? dnnl::matmul::desc(q.a, q.b, q.bias, q.c) : dnnl::matmul::desc(q.a, q.b, q.c), engine));
    } catch (const dnnl::error& e) {
      if (e.status != dnnl_unimplemented) throw;
    }
  }
  const Product* p = &it->second;
  if (!p->primitive) {
    gemm_bf16_widened(ta, tb, m, n, k, a, b, c, bias);
    return;
  }
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(p->a, engine, const_cast<bfloat16*>(a))},
                                       {DNNL_ARG_WEIGHTS, memory(p->b, engine, const_cast<bfloat16*>(b))},
                                       {DNNL_ARG_DST, memory(p->c, engine, c)}};
  if (bias) args.emplace(DNNL_ARG_BIAS, memory(p->bias, engine, const_cast<Out*>(bias)));
  p->primitive.execute(stream, args);
  stream.wait();
}

// Shapes of batched_sgemm's primitives kept per thread before they are dropped, so that a
// program whose shapes keep changing holds a bounded number.
constexpr size_t kMaxBatchedShapes = 64;

// c[i] = op(a[i]) @ op(b[i]) for `count` float32 products of m x k by k x n at fixed strides
// (no broadcast batch dim), in one call of oneDNN's matmul primitive: its batched kernels,
// where a call of sgemm per product costs as much as a small product's arithmetic (attention
// heads, bmm of small matrices). One primitive per shape and thread, made once (making one
// costs more than a small batch). False where oneDNN has none for the shape.
bool batched_sgemm(bool ta, bool tb, int64_t count, int64_t m, int64_t n, int64_t k, const float* a, const float* b,
                   float* c) {
  using dnnl::memory;
  struct Batched {
    dnnl::matmul primitive;  // empty where oneDNN has none for the shape
    memory::desc a, b, c;
  };
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  thread_local std::map<std::tuple<bool, bool, int64_t, int64_t, int64_t, int64_t>, Batched> primitives;
  thread_local dnnl::stream stream(engine);
  const auto key = std::make_tuple(ta, tb, count, m, n, k);
  auto it = primitives.find(key);
  if (it == primitives.end()) {
    if (primitives.size() >= kMaxBatchedShapes) primitives.clear();
    Batched q;
    const memory::dims a_strides = ta ? memory::dims{m * k, 1, m} : memory::dims{m * k, k, 1};
    const memory::dims b_strides = tb ? memory::dims{k * n, 1, k} : memory::dims{k * n, n, 1};
    q.a = memory::desc({count, m, k}, memory::data_type::f32, a_strides);
    q.b = memory::desc({count, k, n}, memory::data_type::f32, b_strides);
    q.c = memory::desc({count, m, n}, memory::data_type::f32, memory::dims{m * n, n, 1});
    try {
      q.primitive = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(q.a, q.b, q.c), engine));
    } catch (const dnnl::error& e) {
      if (e.status != dnnl_unimplemented) throw;
    }
    it = primitives.emplace(key, std::move(q)).first;
  }
  const Batched& q = it->second;
  if (!q.primitive) return false;
  q.primitive.execute(stream, {{DNNL_ARG_SRC, memory(q.a, engine, const_cast<float*>(a))},
                               {DNNL_ARG_WEIGHTS, memory(q.b, engine, const_cast<float*>(b))},
                               {DNNL_ARG_DST, memory(q.c, engine, c)}});
  stream.wait();
  return true;
}

// One product of the batch loop below, in the inputs' dtype T with output type O. A bias
// (n elements, or null) goes in oneDNN's bias argument for bfloat16; the caller adds it to
// the other dtypes' products.
template <typename T, typename O>
void product(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, const T* b, O* c, const O* bias) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    gemm_bf16<O>(ta, tb, m, n, k, a, b, c, bias);
  } else {
    gemm<T>(ta, tb, m, n, k, a, b, c);
  }
}

// c[r, j] += bias[j] for `rows` rows of n, on the OpenMP team when there is enough work
// (integers wrap, as add does).
template <typename O>
void add_bias_rows(O* c, const O* bias, int64_t rows, int64_t n) {
  auto row = [&](int64_t r) {
    O* out = c + r * n;
    if constexpr (std::is_integral_v<O>) {
      for (int64_t j = 0; j < n; ++j) out[j] = wrapping(out[j], bias[j], std::plus<>());
    } else {
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) out[j] += bias[j];
    }
  };
  if (rows * n >= (int64_t{1} << 16)) {
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) row(r);
  } else {
    for (int64_t r = 0; r < rows; ++r) row(r);
  }
}

std::vector<Tensor> run(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& as = in[0].shape();
  const Shape& bs = in[1].shape();
  const bool ta = flag(ctx.attrs, "transpose_a"), tb = flag(ctx.attrs, "transpose_b");
  const auto [am, ak] = matrix_dims(as, ta);
  const int64_t m = as[am], k = as[ak], n = bs[matrix_dims(bs, tb).second];
  Shape out_shape = kernel::broadcast_shapes(kName, batch_of(as), batch_of(bs));
  const Shape batch = out_shape;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Tensor out = ctx.output(0, out_shape, ctx.outputs[0].dtype);
  const int64_t count = numel(batch);
  auto products = [&](auto in_type, auto out_type) {
    using T = decltype(in_type);
    using O = decltype(out_type);
    const T* a = in[0].data_as<T>();
    const T* b = in[1].data_as<T>();
    O* c = out.data_as<O>();
    // oneDNN adds a bias to bfloat16 products; the others' is added after them (below).
    const O* bias = in.size() == 3 && std::is_same_v<T, bfloat16> ? in[2].data_as<O>() : nullptr;
    if (bs.size() == 2 && !ta) {
      // One matrix b under a batch of a (a linear layer): the batch's rows are one matrix.
      product<T, O>(false, tb, count * m, n, k, a, b, c, bias);
      return;
    }
    const bool small = m * n * k <= (int64_t{1} << 22);
    if constexpr (std::is_same_v<T, float> && std::is_same_v<O, float>) {
      // Small products without a broadcast batch dim: one batched call (a dot, m = n = 1, stays
      // gemm's cascaded sum).
      if (small && count > 1 && m * n > 1 && k > 0 && batch_of(as) == batch && batch_of(bs) == batch &&
          batched_sgemm(ta, tb, count, m, n, k, a, b, c)) {
        return;
      }
    }
    const Shape sa = kernel::broadcast_strides(batch_of(as), batch), sb = kernel::broadcast_strides(batch_of(bs), batch);
    auto one = [&](int64_t i) {
      int64_t rest = i, oa = 0, ob = 0;
      for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
        oa += rest % batch[d] * sa[d];
        ob += rest % batch[d] * sb[d];
        rest /= batch[d];
      }
      product<T, O>(ta, tb, m, n, k, a + oa * m * k, b + ob * k * n, c + i * m * n, bias);
    };
    // Many small products (attention heads) go one per thread, each gemm single-threaded
    // inside the parallel region; a few large ones use the gemm's own threads.
    if (count >= 2 * omp_get_max_threads() && small) {
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < count; ++i) one(i);
    } else {
      for (int64_t i = 0; i < count; ++i) one(i);
    }
  };
  if (in[0].dtype() == DType::kBFloat16) {
    if (out.dtype() == DType::kFloat32) {
      products(bfloat16{}, float{});
    } else {
      products(bfloat16{}, bfloat16{});
    }
  } else if (is_complex(out.dtype())) {
    visit_complex(out.dtype(), [&](auto v) {
      products(v, v);
      using O = decltype(v);
      if (in.size() == 3 && n > 0) add_bias_rows<O>(out.data_as<O>(), in[2].data_as<O>(), out.numel() / n, n);
    });
  } else {
    visit_numbers(out.dtype(), [&](auto v) {
      products(v, v);
      using O = decltype(v);
      if (in.size() == 3 && n > 0) add_bias_rows<O>(out.data_as<O>(), in[2].data_as<O>(), out.numel() / n, n);
    });
  }
  return {out};
}

// y = op(a) @ op(b) (+ bias): d op(a) = dy @ op(b)^T and d op(b) = op(a)^T @ dy, each written as one
// product with transposes (no copies), summed over broadcast batch dims. A matrix b under a
// batch of a (a linear layer) gets one gemm over the flattened batch.
// bfloat16 operands: dy is rounded to bfloat16 (a float32_out product's dy is float32), and
// the gradients come out in bfloat16, the operands' dtype, or in float32 with the bool
// attribute "float32_grads" (set by mf.autocast when the operands and bias are its own casts
// of float32 tensors, whose gradients then reach them unrounded).
std::vector<Var> grad(const GradContext& ctx) {
  // Complex operands' gradients take the other's conjugate (torch's: dy @ b^H, a^H @ dy).
  auto conj = [](const Var& x) { return is_complex(x.dtype()) ? call1("conj", {x}) : x; };
  const Var a = conj(ctx.inputs[0]), b = conj(ctx.inputs[1]);
  const Var dy = fn::cast(ctx.grad_outputs[0], a.dtype());
  const bool ta = flag(ctx.attrs, "transpose_a"), tb = flag(ctx.attrs, "transpose_b");
  const bool wide = flag(ctx.attrs, "float32_grads");
  auto product = [wide](const Var& x, const Var& y, bool tx, bool ty) {
    if (!wide) return fn::matmul(x, y, tx, ty);
    return call1(kName, {x, y}, {{"transpose_a", tx}, {"transpose_b", ty}, {"float32_out", true}});
  };
  std::vector<Var> grads(ctx.inputs.size());
  if (ctx.inputs.size() == 3 && ctx.needs_grad[2]) {
    // The bias's: dy summed over every row, in the result's dtype (the bias's), or in float32
    // with float32_grads.
    const Var& dout = ctx.grad_outputs[0];
    grads[2] = fn::sum_to(wide ? fn::cast(dout, DType::kFloat32) : dout, ctx.inputs[2].shape());
  }
  if (ctx.needs_grad[0]) {
    grads[0] = fn::sum_to(ta ? product(b, dy, tb, true) : product(dy, b, false, !tb), a.shape());
  }
  if (ctx.needs_grad[1]) {
    const Shape& as = a.shape();
    if (b.shape().size() == 2 && as.size() > 2 && !ta) {
      const Var flat_a = fn::reshape(a, {-1, as.back()}), flat_dy = fn::reshape(dy, {-1, dy.shape().back()});
      grads[1] = tb ? product(flat_dy, flat_a, true, false) : product(flat_a, flat_dy, true, false);
    } else {
      grads[1] = fn::sum_to(tb ? product(dy, a, true, ta) : product(a, dy, !ta, false), b.shape());
    }
  }
  return grads;
}

}  // namespace

void kernel::gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  mf::gemm<float>(ta, tb, m, n, k, a, b, c);
}

void kernel::gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, const double* b, double* c) {
  mf::gemm<double>(ta, tb, m, n, k, a, b, c);
}

void kernel::gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                  float* c) {
  mf::gemm<float>(ta, tb, m, n, k, a, lda, b, c);
}

void kernel::gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
                  double* c) {
  mf::gemm<double>(ta, tb, m, n, k, a, lda, b, c);
}

namespace {

const dnnl::engine& dnnl_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// PackedOperand's products for one m, k, n and lda, made once per thread (making one costs
// as much as a few steps' products); empty where oneDNN has none for that blocked layout.
struct PackedProduct {
  dnnl::matmul primitive;
  dnnl::memory::desc a, b, c;
};

// Shapes kept per thread before they are dropped: a packed sequence's steps shrink through
// up to a batch's row counts, forward and backward.
constexpr size_t kMaxPackedShapes = 256;

// The product of m rows by b [k, n] (its layout b's), row-major a and c.
dnnl::matmul::desc packed_desc(int64_t m, const dnnl::memory::desc& b, int64_t n, dnnl::memory::desc* a = nullptr,
                               dnnl::memory::desc* c = nullptr) {
  using dnnl::memory;
  const memory::desc ad({m, b.dims()[0]}, memory::data_type::f32, memory::dims{b.dims()[0], 1});
  const memory::desc cd({m, n}, memory::data_type::f32, memory::dims{n, 1});
  if (a) *a = ad;
  if (c) *c = cd;
  return dnnl::matmul::desc(ad, b, cd);
}

}  // namespace

template <typename T>
struct kernel::PackedOperand<T>::Blocked {
  dnnl::memory::desc desc;
  std::shared_ptr<void> block;  // the blocked copy, a cached block (core/allocator.h): no fresh pages per scan
  dnnl::memory data;            // over block
};

template <typename T>
kernel::PackedOperand<T>::PackedOperand(bool tb, int64_t k, int64_t n, const T* b) : tb_(tb), k_(k), n_(n), b_(b) {
  using dnnl::memory;
  if (k == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    const memory::desc plain({k, n}, memory::data_type::f32, tb ? memory::dims{1, k} : memory::dims{n, 1});
    const memory::desc any({k, n}, memory::data_type::f32, memory::format_tag::any);
    memory::desc blocked;
    try {
      // The layout does not depend on m (checked from 1 to 3000 rows); one row asks for it.
      blocked = dnnl::matmul::primitive_desc(packed_desc(1, any, n), dnnl_engine()).weights_desc();
    } catch (const dnnl::error& e) {
      if (e.status != dnnl_unimplemented) throw;
    }
    if (!blocked.is_zero() && blocked != memory::desc({k, n}, memory::data_type::f32, memory::dims{n, 1})) {
      std::shared_ptr<void> block = allocate_host(blocked.get_size());
      blocked_ = std::make_unique<Blocked>(Blocked{blocked, block, memory(blocked, dnnl_engine(), block.get())});
      thread_local dnnl::stream stream(dnnl_engine());
      memory source(plain, dnnl_engine(), const_cast<float*>(b));
      // On the calling thread alone: a team for a copy of a megabyte cost more in its join
      // than it saved (an LSTM's scan of 12 steps twice as long at 2 threads on a busy
      // machine, the join waiting a scheduler tick for a thread off its core).
      struct OneThread {
        int threads = omp_get_max_threads();
        OneThread() { omp_set_num_threads(1); }
        ~OneThread() { omp_set_num_threads(threads); }
      } one_thread;
      dnnl::reorder(source, blocked_->data).execute(stream, source, blocked_->data);
      stream.wait();
      return;
    }
  }
  if (tb) {
    // b [n, k] transposed in tiles that stay in the cache.
    constexpr int64_t kTile = 32;
    copy_.resize(static_cast<size_t>(k * n));
    for (int64_t i0 = 0; i0 < n; i0 += kTile) {
      for (int64_t j0 = 0; j0 < k; j0 += kTile) {
        for (int64_t i = i0; i < std::min(n, i0 + kTile); ++i) {
          for (int64_t j = j0; j < std::min(k, j0 + kTile); ++j) copy_[j * n + i] = b[i * k + j];
        }
      }
    }
    b_ = copy_.data();
    tb_ = false;
  }
}

template <typename T>
kernel::PackedOperand<T>::~PackedOperand() = default;

template <typename T>
void kernel::PackedOperand<T>::multiply(int64_t m, const T* a, T* c) const {
  using dnnl::memory;
  if constexpr (std::is_same_v<T, float>) {
    if (blocked_ && m > 0) {
      thread_local std::map<std::tuple<int64_t, int64_t, int64_t>, PackedProduct> products;
      thread_local dnnl::stream stream(dnnl_engine());
      const auto key = std::make_tuple(m, k_, n_);
      auto it = products.find(key);
      if (it == products.end() || it->second.b != blocked_->desc) {
        if (products.size() >= kMaxPackedShapes) products.clear();
        PackedProduct q;
        q.b = blocked_->desc;
        try {
          const dnnl::matmul::primitive_desc pd(packed_desc(m, q.b, n_, &q.a, &q.c), dnnl_engine());
          // Its scalar reference kernel reads any layout (strided rows, which its blocked
          // kernels do not take), far slower than sgemm.
          if (std::string(pd.impl_info_str()).rfind("ref", 0) != 0) q.primitive = dnnl::matmul(pd);
        } catch (const dnnl::error& e) {
          if (e.status != dnnl_unimplemented) throw;
        }
        it = products.insert_or_assign(key, std::move(q)).first;
      }
      const PackedProduct& q = it->second;
      if (q.primitive) {
        q.primitive.execute(stream, {{DNNL_ARG_SRC, memory(q.a, dnnl_engine(), const_cast<float*>(a))},
                                     {DNNL_ARG_WEIGHTS, blocked_->data},
                                     {DNNL_ARG_DST, memory(q.c, dnnl_engine(), c)}});
        stream.wait();
        return;
      }
    }
  }
  mf::gemm<T>(false, tb_, m, n_, k_, a, k_, b_, c);
}

template class kernel::PackedOperand<float>;
template class kernel::PackedOperand<double>;

void register_matmul_ops(OpRegistry& r) {
  OpDef op = make_op(kName, infer, signatures, run);
  op.grad = grad;
  op.bfloat16 = true;
  op.small_ints = true;  // as torch's on the CPU: the integer loop, wrapping
  op.complex = true;     // cgemm and zgemm
  r.add(op);
}

}  // namespace mf
