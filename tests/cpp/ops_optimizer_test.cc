// Copyright 2026 The meshflow Authors.
// Optimizer update ops (adamw_update, adam_update, sgd_update) under mpirun: every valid signature on
// every mesh against the single-device result, even and uneven shapes, both float dtypes;
// the signature lists; bad input. Their values against PyTorch's formulas are checked in
// tests/python/test_ops_optimizer.py.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

// logical_value scaled to [-1, 1], or its absolute value (a second moment is never negative).
Tensor value(const Shape& shape, DType dtype, bool nonnegative = false) {
  Tensor t = logical_value(shape, dtype);
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < t.numel(); ++i) {
      T& x = t.data_as<T>()[i];
      x = static_cast<T>((nonnegative && x < 0 ? -x : x) / 20.0);
    }
  });
  return t;
}

Attrs adamw_attrs(int64_t step, double weight_decay = 0.1) {
  return {{"lr", 1e-2},  {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}, {"weight_decay", weight_decay},
          {"step", step}};
}

Attrs sgd_attrs(double momentum, double dampening, double weight_decay, bool nesterov, bool has_buf) {
  return {{"lr", 0.1},
          {"momentum", momentum},
          {"dampening", dampening},
          {"weight_decay", weight_decay},
          {"nesterov", nesterov},
          {"has_buf", has_buf}};
}

// check_every_signature on every mesh of the world; each must have all-split signatures.
void sweep(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  for (const Placement& p : op_meshes()) {
    int all_split_or_broadcast = 1;
    for (int axis = 0; axis < p.ndim(); ++axis) all_split_or_broadcast *= static_cast<int>(inputs[0].ndim()) + 1;
    EXPECT_EQ(check_every_signature(op, inputs, attrs, p), all_split_or_broadcast)
        << op << " " << attrs.str() << " on " << p.str();
  }
}

const std::vector<Shape> kShapes = {{5, 3}, {7}, {0, 3}, {}};

TEST(OptimizerAdamW, EverySignatureMatchesOneDevice) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    for (const Shape& s : kShapes) {
      const std::vector<Tensor> in = {value(s, dtype), value(s, dtype), value(s, dtype), value(s, dtype, true)};
      sweep("adamw_update", in, adamw_attrs(1));
      sweep("adamw_update", in, adamw_attrs(7, 0));
      sweep("adam_update", in, adamw_attrs(1));
      sweep("adam_update", in, adamw_attrs(3, 0));
      // amsgrad's fifth input and fourth output (the running maximum), and maximize.
      std::vector<Tensor> amsgrad = in;
      amsgrad.push_back(value(s, dtype, true));
      sweep("adamw_update", amsgrad, adamw_attrs(2).set("amsgrad", true).set("maximize", true));
      sweep("adam_update", amsgrad, adamw_attrs(4).set("amsgrad", true));
    }
  }
}

// Adam's L2 term against AdamW's decoupled decay, one element by hand (torch's formulas).
TEST(OptimizerAdam, AddsTheWeightDecayToTheGradient) {
  auto one = [](double x) {
    Tensor t = Tensor::empty({1}, DType::kFloat64);
    t.data_as<double>()[0] = x;
    return t;
  };
  const double p = 0.5, g = 0.2, lr = 1e-2, wd = 0.1, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const std::vector<Tensor> in = {one(p), one(g), one(0), one(0)};
  auto param_after = [&](const std::string& op) {
    return apply_local(find_op(op), in, adamw_attrs(1))[0].data_as<double>()[0];
  };
  const double g_l2 = g + wd * p;
  const double m = (1 - b1) * g_l2, v = (1 - b2) * g_l2 * g_l2;
  const double adam = p - lr / (1 - b1) * m / (std::sqrt(v) / std::sqrt(1 - b2) + eps);
  EXPECT_NEAR(param_after("adam_update"), adam, 1e-15);
  const double mw = (1 - b1) * g, vw = (1 - b2) * g * g;
  const double adamw = p * (1 - lr * wd) - lr / (1 - b1) * mw / (std::sqrt(vw) / std::sqrt(1 - b2) + eps);
  EXPECT_NEAR(param_after("adamw_update"), adamw, 1e-15);
}

TEST(OptimizerSgd, EverySignatureMatchesOneDevice) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    for (const Shape& s : kShapes) {
      const Tensor p = value(s, dtype), g = value(s, dtype), buf = value(s, dtype, true);
      sweep("sgd_update", {p, g}, sgd_attrs(0, 0, 0, false, false));
      sweep("sgd_update", {p, g}, sgd_attrs(0, 0, 0.01, false, false));
      sweep("sgd_update", {p, g}, sgd_attrs(0.9, 0, 0.01, true, false));
      sweep("sgd_update", {p, g, buf}, sgd_attrs(0.9, 0.1, 0, false, true));
      sweep("sgd_update", {p, g, buf}, sgd_attrs(0.9, 0, 0.01, true, true));
      sweep("sgd_update", {p, g, buf}, sgd_attrs(0.9, 0.1, 0.01, false, true).set("maximize", true));
    }
  }
}

// One call of several tensors (the ops' "tensors"), every signature on every mesh: each
// split of a dim every tensor has, or all broadcast.
TEST(Optimizer, MultiTensorCallsMatchOneDevice) {
  const std::vector<Shape> shapes{{5, 3}, {7}, {4, 2}};
  std::vector<Tensor> adam_in, sgd_in;
  for (int role = 0; role < 4; ++role) {
    for (const Shape& s : shapes) adam_in.push_back(value(s, DType::kFloat32, role == 3));
  }
  for (int role = 0; role < 3; ++role) {
    for (const Shape& s : shapes) sgd_in.push_back(value(s, DType::kFloat64));
  }
  Attrs adam = adamw_attrs(2), sgd = sgd_attrs(0.9, 0.0, 0.01, false, true);
  adam.set("tensors", int64_t{3});
  sgd.set("tensors", int64_t{3});
  for (const Placement& p : op_meshes()) {
    int splits = 1;
    for (int axis = 0; axis < p.ndim(); ++axis) splits *= 2;  // S(0) or B: dim 0 is the only one all have
    EXPECT_EQ(check_every_signature("adamw_update", adam_in, adam, p), splits) << p.str();
    EXPECT_EQ(check_every_signature("sgd_update", sgd_in, sgd, p), splits) << p.str();
  }
}

TEST(Optimizer, SignaturesSplitEverythingAlike) {
  auto listed = [](const std::string& name, size_t n_inputs, const Attrs& attrs) {
    const OpDef& op = find_op(name);
    const std::vector<TensorMeta> in(n_inputs, TensorMeta{{4, 3}, DType::kFloat32});
    std::set<std::string> out;
    for (const Signature& s : op.signatures(in, op.infer(in, attrs), attrs)) out.insert(s.str());
    return out;
  };
  EXPECT_EQ(listed("adamw_update", 4, adamw_attrs(1)),
            (std::set<std::string>{"S(0), S(0), S(0), S(0) -> S(0), S(0), S(0)",
                                   "S(1), S(1), S(1), S(1) -> S(1), S(1), S(1)"}));
  EXPECT_EQ(listed("sgd_update", 2, sgd_attrs(0, 0, 0, false, false)),
            (std::set<std::string>{"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"}));
  EXPECT_EQ(listed("sgd_update", 2, sgd_attrs(0.9, 0, 0, false, false)),
            (std::set<std::string>{"S(0), S(0) -> S(0), S(0)", "S(1), S(1) -> S(1), S(1)"}));
}

TEST(Optimizer, BadInputNamesTheProblem) {
  const Tensor x = value({4, 3}, DType::kFloat32);
  auto call = [](const std::string& op, const std::vector<Tensor>& in, const Attrs& a) {
    return [&, op, in, a] { apply_local(find_op(op), in, a); };
  };
  expect_error(call("adamw_update", {x, x, x}, adamw_attrs(1)), "[adamw_update] takes 4 inputs");
  expect_error(call("adamw_update", {x, x, x, value({3, 4}, DType::kFloat32)}, adamw_attrs(1)),
               "exp_avg_sq is float32 [3, 4] and param float32 [4, 3]");
  expect_error(call("adamw_update", {x, value({4, 3}, DType::kFloat64), x, x}, adamw_attrs(1)), "grad is float64");
  const Tensor ints = logical_value({4, 3}, DType::kInt32);
  expect_error(call("adamw_update", {ints, ints, ints, ints}, adamw_attrs(1)), "expected float32 or float64");
  expect_error(call("adamw_update", {x, x, x, x}, adamw_attrs(0)), "[adamw_update] step is 0");
  expect_error(call("adamw_update", {x, x, x, x}, Attrs(adamw_attrs(1)).set("beta1", 1.0)), "expected 0 <= beta1 < 1");
  expect_error(call("adamw_update", {x, x, x, x}, Attrs(adamw_attrs(1)).set("beta2", -0.5)), "beta2");
  expect_error(call("adamw_update", {x, x, x, x}, Attrs(adamw_attrs(1)).without({"eps"})), "[adamw_update]");
  expect_error(call("sgd_update", {x, x, x}, sgd_attrs(0, 0, 0, false, true)), "has_buf is set without momentum");
  expect_error(call("sgd_update", {x, x}, sgd_attrs(0.9, 0.1, 0, true, false)),
               "expected momentum > 0 and dampening 0");
  expect_error(call("sgd_update", {x, x}, sgd_attrs(0.9, 0, 0, false, true)),
               "takes 3 inputs (param, grad, momentum_buf)");
  expect_error(call("sgd_update", {x, x, x}, sgd_attrs(0.9, 0, 0, false, false)), "takes 2 inputs");
}

}  // namespace
}  // namespace mf
