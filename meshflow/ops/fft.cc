// Copyright 2026 The meshflow Authors.
// The FFT ops, torch's three primitives under its names (torch.fft's functions resize,
// choose dims and pick one of them, python/meshflow/fft.py):
//   fft_c2c(x; dims, forward, norm)               complex -> complex of x's shape
//   fft_r2c(x; dims, norm, onesided)              float32/64 -> complex64/128; the last of
//                                                 dims keeps n // 2 + 1 entries where onesided
//   fft_c2r(x; dims, norm, last_dim_size)         complex -> float of x's shape with the last
//                                                 of dims of last_dim_size n (x's holds n // 2 + 1):
//                                                 the inverse of a onesided r2c, x taken as
//                                                 Hermitian (imaginary parts at 0 and n / 2 ignored)
// norm: 0 none, 1 by 1 / sqrt(N), 2 by 1 / N, N the product of the signal's sizes on dims
// (torch's fft_norm_mode). Each line of a dim is one FftPlan (fft.h) call, lines on the
// OpenMP team. Signatures: a split of a dim not transformed passes (every line lies on one
// rank), and so do partial sums (the transforms are linear).
// Gradients, torch's: c2c's is c2c the other way with the same norm; r2c's is the real part
// of c2c backward of dy zero-padded to the full length; c2r's is r2c of dy with the entries
// that stand for two (all but 0 and n / 2) doubled.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "meshflow/ops/fft.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kC2c = "fft_c2c";
constexpr const char* kR2c = "fft_r2c";
constexpr const char* kC2r = "fft_c2r";

// The dims attribute, normalized, checked distinct and non-empty.
std::vector<int64_t> fft_dims(const std::string& op, const Attrs& attrs, size_t rank) {
  std::vector<int64_t> dims = attrs.get_ints("dims");
  if (dims.empty()) op_error(op, "dims is empty; expected at least one dim to transform");
  std::vector<bool> seen(rank, false);
  for (int64_t& d : dims) {
    d = kernel::normalize_dim(op, d, static_cast<int64_t>(rank));
    if (seen[d]) op_error(op, "dims names dim " + std::to_string(d) + " twice; expected each dim once");
    seen[d] = true;
  }
  return dims;
}

// 1, 1/sqrt(n) or 1/n for the norm attribute.
double norm_scale(const std::string& op, const Attrs& attrs, double n) {
  switch (attrs.get_int("norm")) {
    case 0: return 1;
    case 1: return 1 / std::sqrt(n);
    case 2: return 1 / n;
    default: break;
  }
  op_error(op, "norm " + std::to_string(attrs.get_int("norm")) + "; expected 0 (none), 1 (by sqrt(n)) or 2 (by n)");
}

// Splits of the dims not in `dims` pass; so do partial sums.
decltype(OpDef::signatures) fft_signatures(const std::string& op) {
  return [op](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const size_t rank = in[0].shape.size();
    const std::vector<int64_t> dims = fft_dims(op, attrs, rank);
    std::vector<Signature> sigs;
    for (size_t d = 0; d < rank; ++d) {
      if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(d)) == dims.end()) {
        sigs.push_back({{Sbp::split(static_cast<int>(d))}, {Sbp::split(static_cast<int>(d))}});
      }
    }
    sigs.push_back({{Sbp::partial(ReduceOp::kSum)}, {Sbp::partial(ReduceOp::kSum)}});
    return sigs;
  };
}

// The DFT of every line of `data` (row-major `shape`) along `dim`, in place.
template <typename T>
void transform_dim(std::complex<T>* data, const Shape& shape, int64_t dim, bool forward) {
  using C = std::complex<T>;
  const int64_t n = shape[dim];
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t lines = numel(shape) / std::max<int64_t>(n, 1);
  if (n <= 1 || lines == 0) return;
  const auto plan = fft::plan_for<T>(n);
#pragma omp parallel if (kernel::use_team(lines * n))
  {
    std::vector<C> line(inner == 1 ? 0 : n), scratch(plan->scratch_size());
#pragma omp for schedule(static)
    for (int64_t l = 0; l < lines; ++l) {
      C* first = data + (l / inner) * n * inner + l % inner;
      if (inner == 1) {
        plan->execute(first, first, forward, scratch.data());
        continue;
      }
      for (int64_t k = 0; k < n; ++k) line[k] = first[k * inner];
      plan->execute(line.data(), line.data(), forward, scratch.data());
      for (int64_t k = 0; k < n; ++k) first[k * inner] = line[k];
    }
  }
}

// The onesided DFT (n / 2 + 1 entries) of every real line of `x` (row-major `shape`) along
// `dim` into `out` (the same shape with n / 2 + 1 there), n even: the line's even and odd
// samples as one complex signal of n / 2, one FFT of that, then the two halves' spectra
// separated (E_k = (Z_k + conj Z_{h-k}) / 2, O_k = (Z_k - conj Z_{h-k}) / 2i) and joined
// (X_k = E_k + e^{-2 pi i k / n} O_k): half the work of the complex transform.
template <typename T>
void real_transform_dim(const T* x, std::complex<T>* out, const Shape& shape, int64_t dim) {
  using C = std::complex<T>;
  const int64_t n = shape[dim], h = n / 2, m = h + 1;
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t lines = numel(shape) / n;
  const auto plan = fft::plan_for<T>(h);
  std::vector<C> w(m);
  for (int64_t k = 0; k < m; ++k) {
    const double angle = -2 * M_PI * static_cast<double>(k) / static_cast<double>(n);
    w[k] = C(static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle)));
  }
#pragma omp parallel if (kernel::use_team(lines * n))
  {
    std::vector<C> z(h), scratch(plan->scratch_size());
#pragma omp for schedule(static)
    for (int64_t l = 0; l < lines; ++l) {
      const T* first = x + (l / inner) * n * inner + l % inner;
      C* o = out + (l / inner) * m * inner + l % inner;
      for (int64_t k = 0; k < h; ++k) z[k] = C(first[2 * k * inner], first[(2 * k + 1) * inner]);
      plan->execute(z.data(), z.data(), true, scratch.data());
      for (int64_t k = 0; k < m; ++k) {
        const C a = z[k % h], b = std::conj(z[(h - k) % h]);
        const C even = (a + b) * T(0.5), diff = (a - b) * T(0.5);
        const C odd(diff.imag(), -diff.real());  // diff / i
        const C t = w[k] * odd;
        o[k * inner] = even + t;
      }
    }
  }
}

template <typename C>
void scale(C* data, int64_t count, double factor) {
  if (factor == 1) return;
  const auto f = static_cast<typename C::value_type>(factor);
  kernel::simd_for(count, [&](int64_t i) { data[i] *= f; });
}

double signal_size(const Shape& shape, const std::vector<int64_t>& dims) {
  double n = 1;
  for (int64_t d : dims) n *= static_cast<double>(shape[d]);
  return n;
}

void expect_dtype(const std::string& op, const TensorMeta& x, bool complex) {
  const bool ok = complex ? is_complex(x.dtype) : x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64;
  if (!ok) {
    op_error(op, std::string("takes a ") + (complex ? "complex64 or complex128" : "float32 or float64") +
                     " tensor, got " + dtype_name(x.dtype));
  }
}

OpDef c2c_op() {
  OpDef op;
  op.name = kC2c;
  op.complex = true;
  op.complex_only = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kC2c, in, 1);
    expect_dtype(kC2c, in[0], true);
    fft_dims(kC2c, attrs, in[0].shape.size());
    attrs.get_bool("forward");
    norm_scale(kC2c, attrs, 1);
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = fft_signatures(kC2c);
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    Tensor out = ctx.output(0, shape, in[0].dtype());
    const std::vector<int64_t> dims = fft_dims(kC2c, ctx.attrs, shape.size());
    const bool forward = ctx.attrs.get_bool("forward");
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      C* o = out.data_as<C>();
      if (o != in[0].data_as<C>()) std::copy(in[0].data_as<C>(), in[0].data_as<C>() + in[0].numel(), o);
      for (int64_t d : dims) transform_dim(o, shape, d, forward);
      scale(o, out.numel(), norm_scale(kC2c, ctx.attrs, signal_size(shape, dims)));
    });
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    return std::vector<Var>{
        call1(kC2c, {g.grad_outputs[0]}, Attrs(g.attrs).set("forward", !g.attrs.get_bool("forward")))};
  };
  op.grad_reads = kReadsNothing;
  return op;
}

OpDef r2c_op() {
  OpDef op;
  op.name = kR2c;
  op.complex = true;
  op.complex_only = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kR2c, in, 1);
    expect_dtype(kR2c, in[0], false);
    const std::vector<int64_t> dims = fft_dims(kR2c, attrs, in[0].shape.size());
    norm_scale(kR2c, attrs, 1);
    Shape shape = in[0].shape;
    if (attrs.get_bool("onesided")) shape[dims.back()] = shape[dims.back()] / 2 + 1;
    return std::vector<TensorMeta>{{shape, complex_of(in[0].dtype)}};
  };
  op.signatures = fft_signatures(kR2c);
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    const std::vector<int64_t> dims = fft_dims(kR2c, ctx.attrs, shape.size());
    const int64_t last = dims.back();
    Shape half = shape;
    if (ctx.attrs.get_bool("onesided")) half[last] = shape[last] / 2 + 1;
    Tensor out = ctx.output(0, half, complex_of(in[0].dtype()));
    visit_complex(out.dtype(), [&](auto v) {
      using C = decltype(v);
      using T = typename C::value_type;
      // The last dim on the whole signal, then the others on the kept half.
      const T* x = in[0].data_as<T>();
      C* o = out.data_as<C>();
      const int64_t n = shape[last], m = half[last];
      if (m != n && n % 2 == 0 && numel(shape) > 0) {
        real_transform_dim(x, o, shape, last);
      } else {
        Tensor full = Tensor::empty(shape, out.dtype());
        C* f = full.data_as<C>();
        kernel::simd_for(in[0].numel(), [&](int64_t i) { f[i] = C(x[i], 0); });
        transform_dim(f, shape, last, true);
        int64_t inner = 1;
        for (size_t d = last + 1; d < shape.size(); ++d) inner *= shape[d];
        const int64_t outer = numel(shape) / std::max<int64_t>(n * inner, 1);
        for (int64_t a = 0; a < outer; ++a) std::copy(f + a * n * inner, f + (a * n + m) * inner, o + a * m * inner);
      }
      for (size_t k = 0; k + 1 < dims.size(); ++k) transform_dim(o, half, dims[k], true);
      scale(o, out.numel(), norm_scale(kR2c, ctx.attrs, signal_size(shape, dims)));
    });
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    const Shape& shape = g.inputs[0].shape();
    const std::vector<int64_t> dims = fft_dims(kR2c, g.attrs, shape.size());
    Var dy = g.grad_outputs[0];
    if (g.attrs.get_bool("onesided")) {  // the dropped half's gradient is zero
      const size_t rank = shape.size();
      Shape stops = dy.shape();
      Attrs slice{{"starts", Shape(rank, 0)}, {"stops", stops}, {"steps", Shape(rank, 1)}, {"shape", shape}};
      dy = call1("slice_backward", {dy}, slice);
    }
    Attrs c2c{{"dims", dims}, {"norm", g.attrs.get_int("norm")}, {"forward", false}};
    return std::vector<Var>{call1("real", {call1(kC2c, {dy}, c2c)})};
  };
  op.grad_reads = kReadsNothing;
  return op;
}

OpDef c2r_op() {
  OpDef op;
  op.name = kC2r;
  op.complex = true;
  op.complex_only = true;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kC2r, in, 1);
    expect_dtype(kC2r, in[0], true);
    const std::vector<int64_t> dims = fft_dims(kC2r, attrs, in[0].shape.size());
    norm_scale(kC2r, attrs, 1);
    const int64_t n = attrs.get_int("last_dim_size");
    Shape shape = in[0].shape;
    if (n < 1 || shape[dims.back()] != n / 2 + 1) {
      op_error(kC2r, "last_dim_size " + std::to_string(n) + " with " + std::to_string(shape[dims.back()]) +
                         " entries on the last transformed dim; expected n >= 1 and n // 2 + 1 entries");
    }
    shape[dims.back()] = n;
    return std::vector<TensorMeta>{{shape, real_of(in[0].dtype)}};
  };
  op.signatures = fft_signatures(kC2r);
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& half = in[0].shape();
    const std::vector<int64_t> dims = fft_dims(kC2r, ctx.attrs, half.size());
    const int64_t last = dims.back(), n = ctx.attrs.get_int("last_dim_size"), m = half[last];
    Shape shape = half;
    shape[last] = n;
    Tensor out = ctx.output(0, shape, real_of(in[0].dtype()));
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      using T = typename C::value_type;
      // The other dims on the half, then the last one on its Hermitian extension.
      Tensor work = Tensor::empty(half, in[0].dtype());
      C* h = work.data_as<C>();
      std::copy(in[0].data_as<C>(), in[0].data_as<C>() + in[0].numel(), h);
      for (size_t k = 0; k + 1 < dims.size(); ++k) transform_dim(h, half, dims[k], false);
      Tensor full = Tensor::empty(shape, in[0].dtype());
      C* f = full.data_as<C>();
      int64_t inner = 1;
      for (size_t d = last + 1; d < half.size(); ++d) inner *= half[d];
      const int64_t outer = numel(half) / std::max<int64_t>(m * inner, 1);
      for (int64_t a = 0; a < outer; ++a) {
        for (int64_t k = 0; k < n; ++k) {
          const bool mirrored = k >= m;
          const C* src = h + (a * m + (mirrored ? n - k : k)) * inner;
          C* dst = f + (a * n + k) * inner;
          for (int64_t i = 0; i < inner; ++i) dst[i] = mirrored ? std::conj(src[i]) : src[i];
        }
      }
      transform_dim(f, shape, last, false);
      T* o = out.data_as<T>();
      const T factor = static_cast<T>(norm_scale(kC2r, ctx.attrs, signal_size(shape, dims)));
      kernel::simd_for(out.numel(), [&](int64_t i) { o[i] = f[i].real() * factor; });
    });
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    const std::vector<int64_t> dims = fft_dims(kC2r, g.attrs, g.inputs[0].shape().size());
    const int64_t last = dims.back(), n = g.attrs.get_int("last_dim_size");
    Var gx = call1(kR2c, {g.grad_outputs[0]}, {{"dims", dims}, {"norm", g.attrs.get_int("norm")}, {"onesided", true}});
    // Entries 1 .. n - m (those whose mirror image the extension added) count twice.
    const Shape& half = gx.shape();
    const int64_t doubled = n - half[last];
    if (doubled <= 0) return std::vector<Var>{gx};
    Shape starts(half.size(), 0), stops = half;
    starts[last] = 1;
    stops[last] = 1 + doubled;
    Attrs slice{{"starts", starts}, {"stops", stops}, {"steps", Shape(half.size(), 1)}};
    Var middle = call1("slice", {gx}, slice);
    return std::vector<Var>{fn::add(gx, call1("slice_backward", {middle}, slice.set("shape", half)))};
  };
  op.grad_reads = kReadsNothing;
  return op;
}

}  // namespace

void register_fft_ops(OpRegistry& r) {
  r.add(c2c_op());
  r.add(r2c_op());
  r.add(c2r_op());
}

}  // namespace mf
