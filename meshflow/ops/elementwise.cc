// Copyright 2026 The meshflow Authors.
// Elementwise ops with NumPy broadcasting. Their splits follow the output dims (see
// broadcast_split_signatures); partial values pass through where the op is linear in them:
// a + b and a - b take P, P -> P; a * b takes P, B -> P and B, P -> P; a / b takes P, B -> P.
#include <cmath>

#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

enum class PartialRule { kNone, kBothPartial, kEitherPartial, kLeftPartial };

std::vector<Signature> partial_signatures(PartialRule rule) {
  const Sbp p = Sbp::partial_sum(), b = Sbp::broadcast();
  switch (rule) {
    case PartialRule::kBothPartial: return {{{p, p}, {p}}};
    case PartialRule::kEitherPartial: return {{{p, b}, {p}}, {{b, p}, {p}}};
    case PartialRule::kLeftPartial: return {{{p, b}, {p}}};
    case PartialRule::kNone: break;
  }
  return {};
}

// A binary op; `f` is a generic lambda applied to two values of the inputs' dtype.
template <typename F>
OpDef binary(const std::string& name, PartialRule rule, F f) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(name, in, 2);
    kernel::expect_same_dtype(name, in[0], in[1]);
    return std::vector<TensorMeta>{{kernel::broadcast_shapes(name, in[0].shape, in[1].shape), in[0].dtype}};
  };
  op.signatures = [rule](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
    for (const Signature& s : partial_signatures(rule)) sigs.push_back(s);
    return sigs;
  };
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = Tensor::empty(ctx.output_boxes[0].extent, in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      kernel::broadcast_binary(in[0].data_as<T>(), in[0].shape(), in[1].data_as<T>(), in[1].shape(),
                               out.data_as<T>(), out.shape(), [&](T x, T y) -> T { return f(x, y); });
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

// x op scalar, the scalar in attribute "value" converted to x's dtype.
template <typename F>
OpDef with_scalar(const std::string& name, bool keeps_partial, F f) {
  OpDef op;
  op.name = name;
  op.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    attrs.get_float("value");
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [keeps_partial](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                  const Attrs&) {
    std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
    if (keeps_partial) sigs.push_back({{Sbp::partial_sum()}, {Sbp::partial_sum()}});
    return sigs;
  };
  op.kernel = [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = Tensor::empty(in[0].shape(), in[0].dtype());
    const double value = ctx.attrs.get_float("value");
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const T s = static_cast<T>(value);
      const T* x = in[0].data_as<T>();
      T* o = out.data_as<T>();
      const int64_t n = out.numel();
#pragma omp parallel for simd if (n > kernel::kParallelGrain)
      for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], s);
    });
    return std::vector<Tensor>{out};
  };
  return op;
}

}  // namespace

void register_elementwise_ops(OpRegistry& r) {
  r.add(binary("add", PartialRule::kBothPartial, [](auto x, auto y) { return x + y; }));
  r.add(binary("sub", PartialRule::kBothPartial, [](auto x, auto y) { return x - y; }));
  r.add(binary("mul", PartialRule::kEitherPartial, [](auto x, auto y) { return x * y; }));
  r.add(binary("div", PartialRule::kLeftPartial, [](auto x, auto y) { return x / y; }));
  r.add(with_scalar("add_scalar", false, [](auto x, auto s) { return x + s; }));
  r.add(with_scalar("mul_scalar", true, [](auto x, auto s) { return x * s; }));
}

}  // namespace mf
