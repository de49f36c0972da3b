// Copyright 2026 The meshflow Authors.
// One model built from the C++ modules (nn/module.h), printed as JSON for
// tests/python/test_module_mirror.py, which builds the same model from the Python modules
// and compares: parameter names, initial values, the forward pass, the gradients and the
// values after an AdamW step. Python's modules mirror C++'s; this keeps them equal.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"
#include "meshflow/vm/vm.h"

namespace {

std::string json(const mf::Var& v) {
  const mf::Tensor t = mf::fn::cast(v, mf::DType::kFloat64).local();
  mf::vm::wait(t);
  std::string s = "[";
  char number[32];
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::snprintf(number, sizeof number, "%.9g", t.data_as<double>()[i]);
    s += (i ? "," : "") + std::string(number);
  }
  return s + "]";
}

std::string params_json(const mf::nn::Module& m, bool grads) {
  std::string s = "{";
  bool first = true;
  for (const auto& [name, p] : m.named_parameters()) {
    s += (first ? "\"" : ",\"") + name + "\":" + json(grads ? p.grad() : p);
    first = false;
  }
  return s + "}";
}

}  // namespace

int main() {
  using namespace mf;
  manual_seed(7);
  auto model = std::make_shared<nn::Sequential>();
  model->append(std::make_shared<nn::LayerNorm>(Shape{8}))
      .append(std::make_shared<nn::Linear>(8, 16))
      .append(std::make_shared<nn::GELU>())
      .append(std::make_shared<nn::Linear>(16, 4));
  const std::string init = params_json(*model, false);
  Tensor x = Tensor::empty({6, 8}, DType::kFloat32), y = Tensor::empty({6}, DType::kInt64);
  for (int64_t i = 0; i < x.numel(); ++i) x.data_as<float>()[i] = static_cast<float>((i * 7 % 13) - 6) / 4;
  for (int64_t i = 0; i < 6; ++i) y.data_as<int64_t>()[i] = i % 4;
  const Var out = model->forward(Var(x));
  const Var loss = fn::cross_entropy(out, Var(y));
  loss.backward();
  const std::string grads = params_json(*model, true);
  optim::AdamW opt(model->parameters(), optim::AdamWOptions{/*lr=*/0.05, 0.9, 0.999, 1e-8, 0.1});
  opt.step();
  std::printf("{\"init\":%s,\"forward\":%s,\"loss\":%s,\"grads\":%s,\"stepped\":%s}\n", init.c_str(), json(out).c_str(),
              json(loss).c_str(), grads.c_str(), params_json(*model, false).c_str());
  return 0;
}
