// Copyright 2026 The meshflow Authors.
// The gradient suite's central check. On local tensors: an op's autograd gradients equal
// float64 central finite differences (eps 1e-6) of L = sum_i sum(output_i * w_i), with
// fixed random weights w_i. On global tensors, on a placement: under the valid N-d
// signatures of the op (all, or eight spread over them), forced in turn, with each input
// laid out as the signature takes it (splits, broadcast, partial values), then with inputs
// in every kind of layout, whether the op takes it or not, and the weights given as the
// output's gradient in varied layouts, each input's .grad has the input's placement and
// SBP and its gathered value equals the local gradient. Inputs are full logical
// values, the same on every rank; the floating ones are differentiated (float64, for the
// differences to be accurate).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "meshflow/ops/functional.h"
#include "tests/cpp/op_check.h"

namespace mf::test {

struct GradCall {
  std::string op;
  std::vector<Tensor> inputs;
  Attrs attrs = {};
};

inline std::string describe(const GradCall& call) {
  std::string s = call.op + "(";
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    s += (i ? ", " : "") + to_string(call.inputs[i].shape()) + " " + dtype_name(call.inputs[i].dtype());
  }
  return s + ") " + call.attrs.str();
}

// Uniform values in [lo, hi) from `seed`, the same on every rank.
inline Tensor uniform(const Shape& shape, double lo, double hi, unsigned seed = 1) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> draw(lo, hi);
  Tensor t = Tensor::empty(shape, DType::kFloat64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_as<double>()[i] = draw(generator);
  return t;
}

inline bool differentiable(const Tensor& t) { return is_floating(t.dtype()); }

// Row-major, as the checks read elements by their index (an op may give channels-last).
inline Tensor as_float64(const Tensor& t) {
  return in_format(apply_local(find_op("cast"), {t}, {{"dtype", DType::kFloat64}})[0], MemoryFormat::kContiguous);
}

// The weights of L: one per output, none for outputs that are not floating; 0 where an
// output is not finite (a masked log-probability), which L then leaves out.
using Weights = std::vector<std::optional<Tensor>>;
inline Weights loss_weights(const std::vector<Tensor>& outputs) {
  Weights weights;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!is_floating(outputs[i].dtype())) {
      weights.push_back(std::nullopt);
      continue;
    }
    Tensor w = uniform(outputs[i].shape(), -1, 1, static_cast<unsigned>(100 + i));
    const Tensor out = as_float64(outputs[i]);
    for (int64_t e = 0; e < w.numel(); ++e) {
      if (!std::isfinite(out.data_as<double>()[e])) w.data_as<double>()[e] = 0;
    }
    weights.push_back(w);
  }
  return weights;
}

// L on local tensors, without autograd.
inline double weighted_sum(const GradCall& call, const std::vector<Tensor>& inputs, const Weights& weights) {
  const std::vector<Tensor> outputs = apply_local(find_op(call.op), inputs, call.attrs);
  double sum = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!weights[i]) continue;
    const Tensor out = as_float64(outputs[i]);
    for (int64_t e = 0; e < out.numel(); ++e) {
      const double w = weights[i]->data_as<double>()[e];
      if (w != 0) sum += out.data_as<double>()[e] * w;
    }
  }
  return sum;
}

// dL/d(input k) by central differences.
inline Tensor finite_differences(const GradCall& call, int k, const Weights& weights, double eps = 1e-6) {
  std::vector<Tensor> inputs = call.inputs;
  inputs[k] = call.inputs[k].clone();
  Tensor grad = Tensor::empty(inputs[k].shape(), DType::kFloat64);
  double* x = inputs[k].data_as<double>();
  for (int64_t e = 0; e < inputs[k].numel(); ++e) {
    const double saved = x[e];
    x[e] = saved + eps;
    const double above = weighted_sum(call, inputs, weights);
    x[e] = saved - eps;
    const double below = weighted_sum(call, inputs, weights);
    x[e] = saved;
    grad.data_as<double>()[e] = (above - below) / (2 * eps);
  }
  return grad;
}

// The gradient fed to output i (undefined for none), given the output.
using SeedFn = std::function<Var(size_t i, const Var& output)>;

// Runs the call on `inputs` (the differentiable ones require grad) and back-propagates a
// seed into each output that `seed` gives one.
inline void run_backward(const GradCall& call, std::vector<Var>& inputs, const SeedFn& seed,
                         const Constraints& constraints = {}) {
  for (Var& in : inputs) {
    if (differentiable(in.data())) in.set_requires_grad(true);
  }
  const std::vector<Var> outputs = mf::call(call.op, inputs, call.attrs, constraints);
  std::vector<Var> seeds;
  int remaining = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    seeds.push_back(seed(i, outputs[i]));
    remaining += seeds[i].defined();
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (seeds[i].defined()) outputs[i].backward(seeds[i], /*retain_graph=*/--remaining > 0);
  }
}

// The gradient of each input, none for those that are not differentiable.
using Grads = std::vector<std::optional<Tensor>>;

// Checks the local gradients against finite differences; returns them (empty after a
// failure).
inline Grads check_local_gradients(const GradCall& call, double tol = 1e-5) {
  for (const Tensor& t : call.inputs) {
    if (differentiable(t) && t.dtype() != DType::kFloat64) {
      ADD_FAILURE() << describe(call) << ": floating inputs must be float64 for finite differences";
      return {};
    }
  }
  const Weights weights = loss_weights(apply_local(find_op(call.op), call.inputs, call.attrs));
  std::vector<Var> inputs;
  for (const Tensor& t : call.inputs) inputs.emplace_back(t.clone());
  run_backward(call, inputs, [&](size_t i, const Var&) { return weights[i] ? Var(*weights[i]) : Var(); });
  Grads grads;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!differentiable(call.inputs[k])) {
      grads.push_back(std::nullopt);
      continue;
    }
    EXPECT_TRUE(inputs[k].grad().defined()) << describe(call) << ": no gradient reached input " << k;
    if (!inputs[k].grad().defined()) return {};
    grads.push_back(in_format(inputs[k].grad().local(), MemoryFormat::kContiguous));
    EXPECT_TRUE(close(*grads[k], finite_differences(call, static_cast<int>(k), weights), tol))
        << describe(call) << ": input " << k << "'s gradient against finite differences";
  }
  return grads;
}

// The layout of the `n`th run's seed for an output laid out as `output`: the output's own
// (a partial max or min as broadcast: a gradient is summed) or partial sums on every axis,
// in turn.
inline NdSbp seed_layout(const NdSbp& output, int n) {
  NdSbp seed = output;
  for (Sbp& s : seed) {
    if (n % 2 == 1) {
      s = Sbp::partial_sum();
    } else if (s.is_partial() && s != Sbp::partial_sum()) {
      s = Sbp::broadcast();
    }
  }
  return seed;
}

// One global run, the `n`th on `placement`: the inputs laid out as `input_sbps`, the call
// made under `constraints`; checks each input's gradient against `expected`.
inline void check_global_run(const GradCall& call, const Grads& expected, const Placement& placement,
                             const std::vector<NdSbp>& input_sbps, const Constraints& constraints, int n,
                             const std::string& where, double tol) {
  const Weights weights = loss_weights(apply_local(find_op(call.op), call.inputs, call.attrs));
  std::vector<Var> inputs;
  for (size_t k = 0; k < call.inputs.size(); ++k) {
    inputs.emplace_back(make_source(call.inputs[k], placement, input_sbps[k]));
  }
  run_backward(
      call, inputs,
      [&](size_t i, const Var& output) {
        if (!weights[i]) return Var();
        return Var(make_source(*weights[i], placement, seed_layout(output.global().nd_sbp(), n)));
      },
      constraints);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!expected[k]) continue;
    const Var grad = inputs[k].grad();
    EXPECT_TRUE(grad.defined()) << where << ": no gradient reached input " << k;
    if (!grad.defined()) continue;
    EXPECT_EQ(grad.global().placement(), placement) << where << ": input " << k;
    EXPECT_EQ(grad.global().nd_sbp(), input_sbps[k]) << where << ": input " << k;
    EXPECT_TRUE(close(gather_full(grad.global()), *expected[k], tol)) << where << ": input " << k << "'s gradient";
  }
}

// At most `limit` of `all`, evenly spaced, the first and last included: the product of a
// binary op's signatures on a 2-d mesh is ~100, each a forward and backward with
// collectives, while the ways a gradient can go wrong show in a spread of them.
inline std::vector<NdSignature> spread(const std::vector<NdSignature>& all, size_t limit) {
  if (all.size() <= limit) return all;
  std::vector<NdSignature> some;
  for (size_t i = 0; i < limit; ++i) some.push_back(all[i * (all.size() - 1) / (limit - 1)]);
  return some;
}

// Every 1-d SBP of a tensor with `ndim` dims.
inline std::vector<Sbp> every_sbp(size_t ndim) {
  std::vector<Sbp> all;
  for (size_t d = 0; d < ndim; ++d) all.push_back(Sbp::split(static_cast<int>(d)));
  for (Sbp s : {Sbp::broadcast(), Sbp::partial_sum(), Sbp::partial(ReduceOp::kMax), Sbp::partial(ReduceOp::kMin)}) {
    all.push_back(s);
  }
  return all;
}

// Checks the global gradients on `placement` against the local ones (`expected`, from
// check_local_gradients): under the op's valid N-d signatures, forced (all of them, or
// `limit` spread over them); then with the inputs in layouts the op may not take (the
// dispatcher boxes them), input k in turn in every 1-d SBP on the first axis, the next
// one on each further axis, so that .grad has to be boxed back to layouts of every kind.
inline void check_global_gradients(const GradCall& call, const Grads& expected, const Placement& placement,
                                   size_t limit = 8, double tol = 1e-9) {
  std::vector<TensorMeta> metas;
  for (const Tensor& t : call.inputs) metas.push_back({t.shape(), t.dtype()});
  int n = 0;
  for (const NdSignature& sig :
       spread(valid_nd_signatures(find_op(call.op), metas, call.attrs, placement.hierarchy()), limit)) {
    Constraints constraints;
    constraints.signature = sig;
    check_global_run(call, expected, placement, sig.inputs, constraints, n++,
                     describe(call) + " signature " + sig.str() + " on " + placement.str(), tol);
  }
  size_t runs = 0;
  for (const TensorMeta& m : metas) runs = std::max(runs, every_sbp(m.shape.size()).size());
  for (size_t r = 0; r < runs; ++r) {
    std::vector<NdSbp> sbps;
    std::string where = describe(call) + " inputs";
    for (size_t k = 0; k < metas.size(); ++k) {
      const std::vector<Sbp> all = every_sbp(metas[k].shape.size());
      NdSbp sbp;
      for (int axis = 0; axis < placement.ndim(); ++axis) sbp.push_back(all[(r + k + axis) % all.size()]);
      sbps.push_back(sbp);
      where += " " + to_string(sbp);
    }
    check_global_run(call, expected, placement, sbps, {}, n++, where + " on " + placement.str(), tol);
  }
}

// The meshes gradients are checked on, those this world sweeps: [1] too (a placement that
// leaves ranks out), [2], [4], [2, 2].
inline std::vector<Placement> grad_meshes() {
  std::vector<Placement> meshes;
  if (sweeps_here(1)) meshes.push_back(first_ranks({1}));
  for (const Placement& p : op_meshes()) meshes.push_back(p);
  return meshes;
}

// Both checks, the global one on every mesh: under every valid signature on the 1-d
// meshes, and under 8 spread over them on [2, 2]. That covers every signature: an N-d
// signature applies a 1-d one per mesh axis (CONCEPTS section 4), each axis's gradient
// rule is the 1-d signature's, all of which run on [2] and [4]; [2, 2] checks that they
// compose (its product of ~100 signatures per binary op would each run forward and
// backward with collectives).
inline void check_gradients(const GradCall& call, double tol = 1e-5) {
  const Grads expected = check_local_gradients(call, tol);
  if (expected.empty()) return;
  for (const Placement& p : grad_meshes()) {
    check_global_gradients(call, expected, p, p.ndim() == 1 ? std::numeric_limits<size_t>::max() : 8);
  }
}

}  // namespace mf::test
