// Copyright 2026 The meshflow Authors.
// Trains a small MLP classifier on synthetic data with data and tensor parallelism over all
// ranks, in C++: the counterpart of the Python API (meshflow.nn, meshflow.optim). Run it with
//
//   scripts/build && scripts/mpirun 4 build/train_mlp_example
//
// The ranks form a [data, tensor] mesh (tensor parallel over 2 ranks when the world size is
// even). Each batch is split over the data axis; the first layer is column-parallel (its
// weight split on the output features) and the second row-parallel (split on its inputs), so
// the hidden activations stay split and one all-reduce per layer pair brings the logits
// together. The SBPs are all there is to choose: meshflow infers the rest, and the losses
// are those of the same training on one rank.
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/core/tensor.h"
#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"

namespace {

constexpr int64_t kFeatures = 8, kHidden = 64, kClasses = 4, kExamples = 1024, kBatch = 64, kSteps = 150;

// Points of N(0, 1) labelled by the nearest of kClasses random centers (every rank draws the
// same data: one seed).
struct Dataset {
  mf::Tensor x = mf::Tensor::empty({kExamples, kFeatures}, mf::DType::kFloat32);
  mf::Tensor labels = mf::Tensor::empty({kExamples}, mf::DType::kInt64);
};

Dataset make_dataset() {
  std::mt19937 generator(0);
  std::normal_distribution<float> normal;
  std::vector<float> centers(kClasses * kFeatures);
  for (float& c : centers) c = normal(generator);
  Dataset data;
  for (int64_t i = 0; i < kExamples; ++i) {
    float* point = data.x.data_as<float>() + i * kFeatures;
    for (int64_t f = 0; f < kFeatures; ++f) point[f] = normal(generator);
    int64_t nearest = 0;
    float nearest_distance = 0;
    for (int64_t c = 0; c < kClasses; ++c) {
      float distance = 0;
      for (int64_t f = 0; f < kFeatures; ++f) {
        const float d = point[f] - centers[c * kFeatures + f];
        distance += d * d;
      }
      if (c == 0 || distance < nearest_distance) {
        nearest = c;
        nearest_distance = distance;
      }
    }
    data.labels.data_as<int64_t>()[i] = nearest;
  }
  return data;
}

// Rows [start, start + count) of `t` (a view).
mf::Tensor rows(const mf::Tensor& t, int64_t start, int64_t count) {
  mf::Box box = mf::Box::whole(t.shape());
  box.start[0] = start;
  box.extent[0] = count;
  return mf::slice(t, box);
}

// The value of a global one-element float32 Var, on every rank.
float scalar(const mf::Var& v) { return *mf::gather_full(v.global()).data_as<float>(); }

}  // namespace

int main() {
  using mf::Sbp;
  const int world = mf::comm::world_size(), rank = mf::comm::world_rank();
  const int tensor_ranks = world % 2 == 0 ? 2 : 1;
  std::vector<int> ranks(world);
  for (int r = 0; r < world; ++r) ranks[r] = r;
  const mf::Placement mesh("cpu", {world / tensor_ranks, tensor_ranks}, ranks);

  mf::manual_seed(0);  // the same initial weights on every rank, and on one device
  auto mlp = std::make_shared<mf::nn::Sequential>();
  mlp->append(std::make_shared<mf::nn::Linear>(kFeatures, kHidden))
      .append(std::make_shared<mf::nn::GELU>())
      .append(std::make_shared<mf::nn::Dropout>(0.1))
      .append(std::make_shared<mf::nn::Linear>(kHidden, kClasses));
  // Replicated over the data axis; over the tensor axis, column- then row-parallel.
  mlp->to_global(mesh, [](const std::string& name, const mf::Var&) -> mf::NdSbp {
    if (name == "0.weight" || name == "0.bias") return {Sbp::broadcast(), Sbp::split(0)};
    if (name == "3.weight") return {Sbp::broadcast(), Sbp::split(1)};
    return {Sbp::broadcast(), Sbp::broadcast()};
  });
  const mf::NdSbp batch_sbp = {Sbp::split(0), Sbp::broadcast()};
  if (rank == 0) {
    std::printf("%s\non a [%d, %d] mesh of %d ranks\n", mlp->repr().c_str(), world / tensor_ranks, tensor_ranks, world);
  }

  const Dataset data = make_dataset();
  mf::optim::AdamWOptions options;
  options.weight_decay = 1e-2;  // lr: set every step
  mf::optim::AdamW optimizer(mlp->parameters(), options);
  for (int64_t step = 0; step < kSteps; ++step) {
    const int64_t start = step * kBatch % kExamples;
    const mf::Var x(mf::global_from_full(rows(data.x, start, kBatch), mesh, batch_sbp));
    const mf::Var labels(mf::global_from_full(rows(data.labels, start, kBatch), mesh, batch_sbp));
    optimizer.set_lr(mf::optim::warmup_cosine_lr(step, 10, kSteps, 1e-2, 1e-3));
    optimizer.zero_grad();
    const mf::Var loss = mf::fn::cross_entropy(mlp->forward(x), labels);
    loss.backward();
    const mf::Var norm = mf::optim::clip_grad_norm(mlp->parameters(), 1.0);
    optimizer.step();
    const float value = scalar(loss);  // collective: every rank gathers
    const float grad_norm = scalar(norm);
    if (rank == 0 && (step % 15 == 0 || step == kSteps - 1)) {
      std::printf("step %3lld  loss %.4f  grad norm %.3f  lr %.5f\n", static_cast<long long>(step), value, grad_norm,
                  optimizer.lr());
    }
  }

  // Accuracy on the whole set, without dropout or autograd.
  mlp->eval();
  mf::NoGradGuard no_grad;
  const mf::Var logits = mlp->forward(mf::Var(mf::global_from_full(data.x, mesh, batch_sbp)));
  const mf::Tensor all = mf::gather_full(logits.global());
  int64_t correct = 0;
  for (int64_t i = 0; i < kExamples; ++i) {
    const float* row = all.data_as<float>() + i * kClasses;
    int64_t best = 0;
    for (int64_t c = 1; c < kClasses; ++c) best = row[c] > row[best] ? c : best;
    correct += best == data.labels.data_as<int64_t>()[i];
  }
  if (rank == 0) std::printf("accuracy %.3f\n", static_cast<double>(correct) / kExamples);
  return 0;
}
