// Copyright 2026 The meshflow Authors.
// The ops between complex tensors and their real parts, with torch's names:
//   complex(re, im)        floats of one dtype (broadcast) -> complex64/128
//   polar(abs, angle)      abs (cos angle + i sin angle)
//   real(z) imag(z)        complex -> its float parts (values, not views)
//   view_as_real(z)        complex (...) -> float (..., 2): re, im (a copy)
//   view_as_complex(x)     float (..., 2) -> complex (...) (a copy)
//   conj(z)                complex conjugate
//   angle(z)               atan2(im, re), a float
// Complex arithmetic (+ - * / neg abs exp, with a real scalar, sum, mean) extends the
// existing ops (elementwise.cc, reduce.cc: OpDef::complex); fft.cc transforms.
// Signatures: splits follow the elementwise dims (view_as_real's added last dim stays
// whole); the linear ones (complex, real, imag, conj, the views) pass partial sums.
// Gradients, torch's (the conjugate Wirtinger convention: a real loss's gradient for z is
// dL/dre + i dL/dim): real's is dy + 0i, imag's 0 + i dy, complex's (re(dz), im(dz)),
// conj's conj(dz), the views' each other; polar's (re(dz conj(e^{i angle})), im(dz conj(z)));
// angle's i dy z / |z|^2, 0 at 0.
#include <cmath>
#include <string>
#include <vector>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

using V = const Var&;

void expect_complex(const std::string& op, const TensorMeta& m) {
  if (!is_complex(m.dtype)) {
    op_error(op, std::string("takes a complex64 or complex128 tensor, got ") + dtype_name(m.dtype));
  }
}

void expect_float(const std::string& op, const TensorMeta& m) {
  if (m.dtype != DType::kFloat32 && m.dtype != DType::kFloat64) {
    op_error(op, std::string("takes float32 or float64 tensors, got ") + dtype_name(m.dtype));
  }
}

// Elementwise splits, and partial sums where the op is linear.
decltype(OpDef::signatures) elementwise_signatures(bool linear) {
  return [linear](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
    if (linear) {
      sigs.push_back({std::vector<Sbp>(in.size(), Sbp::partial(ReduceOp::kSum)), {Sbp::partial(ReduceOp::kSum)}});
    }
    return sigs;
  };
}

// What every elementwise op of this file is: complex-only, split as its broadcast allows
// (and partial sums passed through where it is linear).
OpDef complex_elementwise(const std::string& name, bool linear) {
  OpDef op;
  op.name = name;
  op.elementwise = true;
  op.complex = true;
  op.complex_only = true;
  op.signatures = elementwise_signatures(linear);
  return op;
}

// A binary op of two floats of one dtype making complex ones: f(x, y) -> std::complex.
template <typename F>
OpDef from_parts(const std::string& name, bool linear, F f) {
  OpDef op = complex_elementwise(name, linear);
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 2);
    expect_float(name, in[0]);
    kernel::expect_same_dtype(name, in[0], in[1]);
    return std::vector<TensorMeta>{{kernel::broadcast_shapes(name, in[0].shape, in[1].shape), complex_of(in[0].dtype)}};
  };
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    visit_complex(out.dtype(), [&](auto v) {
      using C = decltype(v);
      using T = typename C::value_type;
      kernel::broadcast_binary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(), out.data_as<C>(),
                               out.shape(), [&](T x, T y) -> C { return f(x, y); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// A unary op of complex tensors: f(z) -> std::complex (same dtype) or its real type.
template <bool kToReal, typename F>
OpDef of_complex(const std::string& name, bool linear, F f) {
  OpDef op = complex_elementwise(name, linear);
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 1);
    expect_complex(name, in[0]);
    return std::vector<TensorMeta>{{in[0].shape, kToReal ? real_of(in[0].dtype) : in[0].dtype}};
  };
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), ctx.outputs[0].dtype);
    visit_complex(in[0].dtype(), [&](auto v) {
      using C = decltype(v);
      using R = std::conditional_t<kToReal, typename C::value_type, C>;
      const C* z = in[0].data_as<C>();
      R* o = out.data_as<R>();
      kernel::simd_for(in[0].numel(), [&](int64_t i) { o[i] = f(z[i]); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

Var real(V z) { return call1("real", {z}); }
Var imag(V z) { return call1("imag", {z}); }
Var complex(V re, V im) { return call1("complex", {re, im}); }
Var conj(V z) { return call1("conj", {z}); }

// view_as_real and view_as_complex: the same bytes, as (..., 2) floats or as complex values.
OpDef view_op(const std::string& name, bool to_real) {
  OpDef op;
  op.name = name;
  op.complex = true;
  op.complex_only = true;
  op.infer = [name, to_real](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 1);
    Shape shape = in[0].shape;
    if (to_real) {
      expect_complex(name, in[0]);
      shape.push_back(2);
      return std::vector<TensorMeta>{{shape, real_of(in[0].dtype)}};
    }
    expect_float(name, in[0]);
    if (shape.empty() || shape.back() != 2) {
      op_error(name, "takes a tensor whose last dim has size 2, got shape " + to_string(shape));
    }
    shape.pop_back();
    return std::vector<TensorMeta>{{shape, complex_of(in[0].dtype)}};
  };
  op.signatures = [to_real](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
    const size_t dims = in[0].shape.size() - (to_real ? 0 : 1);
    std::vector<Signature> sigs = kernel::split_alike_signatures(dims, 1, 1);
    sigs.push_back({{Sbp::partial(ReduceOp::kSum)}, {Sbp::partial(ReduceOp::kSum)}});
    return sigs;
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    std::copy(static_cast<const char*>(in[0].data()), static_cast<const char*>(in[0].data()) + in[0].nbytes(),
              static_cast<char*>(out.data()));
    return std::vector<Tensor>{out};
  };
  op.grad = [to_real](const GradContext& g) {
    return std::vector<Var>{call1(to_real ? "view_as_complex" : "view_as_real", {g.grad_outputs[0]})};
  };
  op.grad_reads = kReadsNothing;
  return op;
}

}  // namespace

void register_complex_ops(OpRegistry& r) {
  r.add(with_grad(from_parts("complex", true, [](auto x, auto y) { return std::complex<decltype(x)>(x, y); }),
                  [](const GradContext& g) {
                    const Var& dz = g.grad_outputs[0];
                    return std::vector<Var>{fn::sum_to(real(dz), g.inputs[0].shape()),
                                            fn::sum_to(imag(dz), g.inputs[1].shape())};
                  },
                  kReadsNothing));
  r.add(with_grad(from_parts("polar", false, [](auto r, auto t) { return std::polar(r, t); }),
                  [](const GradContext& g) {
                    const Var &abs = g.inputs[0], &angle = g.inputs[1], &z = g.outputs[0], &dz = g.grad_outputs[0];
                    const Var unit = call1("polar", {fn::ones_like(abs), angle});
                    return std::vector<Var>{fn::sum_to(real(fn::mul(dz, conj(unit))), abs.shape()),
                                            fn::sum_to(imag(fn::mul(dz, conj(z))), angle.shape())};
                  },
                  OpDef::GradReads{true, true}));
  r.add(with_grad(of_complex<true>("real", true, [](auto z) { return z.real(); }),
                  [](const GradContext& g) {
                    return std::vector<Var>{fn::cast(g.grad_outputs[0], g.inputs[0].dtype())};
                  },
                  kReadsNothing));
  r.add(with_grad(of_complex<true>("imag", true, [](auto z) { return z.imag(); }),
                  [](const GradContext& g) {
                    const Var& dy = g.grad_outputs[0];
                    return std::vector<Var>{complex(fn::zeros_like(dy), dy)};
                  },
                  kReadsNothing));
  r.add(with_grad(of_complex<false>("conj", true, [](auto z) { return std::conj(z); }),
                  [](const GradContext& g) { return std::vector<Var>{conj(g.grad_outputs[0])}; }, kReadsNothing));
  r.add(with_grad(of_complex<true>("angle", false, [](auto z) { return std::arg(z); }),
                  [](const GradContext& g) {
                    const Var &z = g.inputs[0], &dy = g.grad_outputs[0];
                    const Var r2 = fn::add(fn::mul(real(z), real(z)), fn::mul(imag(z), imag(z)));
                    const Var zero = fn::eq(r2, fn::zeros_like(r2));
                    const Var factor = fn::where(zero, fn::zeros_like(r2), fn::div(dy, fn::where(zero, fn::ones_like(r2), r2)));
                    const Var i_z = complex(fn::neg(imag(z)), real(z));
                    return std::vector<Var>{fn::mul(i_z, fn::cast(factor, z.dtype()))};
                  }));
  r.add(view_op("view_as_real", true));
  r.add(view_op("view_as_complex", false));
}

}  // namespace mf
