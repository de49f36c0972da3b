// Copyright 2026 The meshflow Authors.
// One model built from the C++ modules (nn/module.h), printed as JSON for
// tests/python/test_module_mirror.py, which builds the same model from the Python modules
// and compares: parameter names, initial values, the forward pass, the gradients and the
// values after an AdamW step. Python's modules mirror C++'s; this keeps them equal.
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/nn/conv_modules.h"
#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"
#include "meshflow/vm/vm.h"

namespace {

std::string json(const mf::Var& v) {
  const mf::Tensor t = mf::to_device(mf::fn::cast(v, mf::DType::kFloat64), mf::device::get("cpu")).local();
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

// Where each parameter lives and its dtype ("testdev float64"), and the output's.
std::string where_json(const mf::nn::Module& m, const mf::Var& out) {
  const auto where = [](const mf::Var& v) {
    return "\"" + v.local().memory().device_type() + " " + mf::dtype_name(v.dtype()) + "\"";
  };
  std::string s = "{";
  for (const auto& [name, p] : m.named_parameters()) s += "\"" + name + "\":" + where(p) + ",";
  return s + "\"output\":" + where(out) + "}";
}

// The model's parameters, forward pass, loss, gradients and parameters after an AdamW step
// on x, y, as a JSON object; `extra` adds entries.
std::string run(mf::nn::Sequential& model, const mf::Tensor& x, const mf::Tensor& y, const mf::nn::Factory& made,
                const std::function<std::string()>& extra = nullptr) {
  using namespace mf;
  const std::string init = params_json(model, false);
  const Var out = model.forward(fn::cast(nn::detail::on_device(Var(x), made), made.dtype));
  const Var loss = fn::cross_entropy(out, nn::detail::on_device(Var(y), made));
  const std::string where = where_json(model, out);
  loss.backward();
  const std::string grads = params_json(model, true);
  optim::AdamW opt(model.parameters(), optim::AdamWOptions{/*lr=*/0.05, 0.9, 0.999, 1e-8, 0.1});
  opt.step();
  return "{\"init\":" + init + ",\"forward\":" + json(out) + ",\"loss\":" + json(loss) + ",\"grads\":" + grads +
         ",\"stepped\":" + params_json(model, false) + ",\"where\":" + where + (extra ? extra() : "") + "}";
}

// An MLP (nn/module.h) made as `made` says.
std::string mlp(const mf::nn::Factory& made) {
  using namespace mf;
  manual_seed(7);
  auto model = std::make_shared<nn::Sequential>();
  model->append(std::make_shared<nn::LayerNorm>(Shape{8}, 1e-5, true, made))
      .append(std::make_shared<nn::Linear>(8, 16, true, made))
      .append(std::make_shared<nn::GELU>())
      .append(std::make_shared<nn::Linear>(16, 4, true, made));
  Tensor x = Tensor::empty({6, 8}, DType::kFloat32), y = Tensor::empty({6}, DType::kInt64);
  for (int64_t i = 0; i < x.numel(); ++i) x.data_as<float>()[i] = static_cast<float>((i * 7 % 13) - 6) / 4;
  for (int64_t i = 0; i < 6; ++i) y.data_as<int64_t>()[i] = i % 4;
  return run(*model, x, y, made);
}

// A small CNN (nn/conv_modules.h) made as `made` says; its BatchNorm2d's running statistics
// after the step.
std::string cnn(const mf::nn::Factory& made) {
  using namespace mf;
  manual_seed(8);
  fn::Conv2dOptions same;
  same.pad_begin = same.pad_end = {1, 1};
  fn::Conv2dOptions strided;
  strided.stride = {2, 2};
  strided.groups = 2;
  auto bn = std::make_shared<nn::BatchNorm2d>(4, 1e-5, 0.1, true, true, made);
  auto cnn = std::make_shared<nn::Sequential>();
  cnn->append(std::make_shared<nn::Conv2d>(2, 4, std::vector<int64_t>{3, 3}, same, true, made))
      .append(bn)
      .append(std::make_shared<nn::ReLU>())
      .append(std::make_shared<nn::MaxPool2d>(std::vector<int64_t>{2, 2}))
      .append(std::make_shared<nn::Conv2d>(4, 6, std::vector<int64_t>{2, 2}, strided, false, made))
      .append(std::make_shared<nn::AvgPool2d>(std::vector<int64_t>{1, 1}))
      .append(std::make_shared<nn::AdaptiveAvgPool2d>(std::vector<int64_t>{1, 1}))
      .append(std::make_shared<nn::Flatten>())
      .append(std::make_shared<nn::Linear>(6, 3, true, made));
  Tensor images = Tensor::empty({4, 2, 8, 8}, DType::kFloat32), labels = Tensor::empty({4}, DType::kInt64);
  for (int64_t i = 0; i < images.numel(); ++i) {
    images.data_as<float>()[i] = static_cast<float>((i * 11 % 17) - 8) / 4;
  }
  for (int64_t i = 0; i < 4; ++i) labels.data_as<int64_t>()[i] = i % 3;
  return run(*cnn, images, labels, made, [&] {
    return ",\"running_mean\":" + json(bn->running_mean()) + ",\"running_var\":" + json(bn->running_var()) +
           ",\"num_batches_tracked\":" + json(bn->num_batches_tracked());
  });
}

}  // namespace

// Each model on the CPU in float32, and made on the test device in float64 (torch's factory
// kwargs, nn::Factory).
int main() {
  using namespace mf;
  const nn::Factory testdev{&device::get("testdev", 0), DType::kFloat64};
  std::printf("{\"mlp\":%s,\"cnn\":%s,\"mlp_testdev_float64\":%s,\"cnn_testdev_float64\":%s}\n", mlp({}).c_str(),
              cnn({}).c_str(), mlp(testdev).c_str(), cnn(testdev).c_str());
  return 0;
}
