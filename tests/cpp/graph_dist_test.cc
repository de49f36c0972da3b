// Copyright 2026 The meshflow Authors.
// Graph mode on several ranks: a traced step compiled and run by actors equals the same
// step run eagerly, on every mesh of the suite.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "op_check.h"
#include "meshflow/graph/compile.h"
#include "meshflow/graph/graph.h"
#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"

namespace mf {
namespace {

Var matmul_relu_sum(const Var& x, const Var& w) { return fn::sum(fn::relu(fn::matmul(x, w)), {1}); }

TEST(GraphDist, MatmulStepEqualsEager) {
  for (const Placement& p : test::op_meshes()) {
    Tensor xs = Tensor::empty({6, 5}, DType::kFloat64), ws = Tensor::empty({5, 7}, DType::kFloat64);
    for (int64_t i = 0; i < xs.numel(); ++i) xs.data_as<double>()[i] = std::sin(1.0 + i);
    for (int64_t i = 0; i < ws.numel(); ++i) ws.data_as<double>()[i] = std::cos(2.0 + i);
    NdSbp split0(p.ndim(), Sbp::broadcast()), bcast(p.ndim(), Sbp::broadcast());
    split0[0] = Sbp::split(0);
    const Var x(global_from_full(xs, p, split0)), w(global_from_full(ws, p, bcast));
    const Tensor eager = gather_full(matmul_relu_sum(x, w).global());

    graph::Tracer tracer;
    Var lx = tracer.argument(x), lw = tracer.argument(w);
    Var out;
    {
      graph::Tracer::Scope scope(tracer);
      out = matmul_relu_sum(lx, lw);
    }
    graph::CompiledGraph compiled(tracer.finish({out}));
    for (int run = 0; run < 2; ++run) {
      const std::vector<Var> got = compiled.run({x, w});
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0].global().layout(), out.global().layout());
      EXPECT_TRUE(equal(gather_full(got[0].global()), eager)) << p.str();
    }
    EXPECT_LE(compiled.stats().graph_boxing_bytes, compiled.stats().eager_boxing_bytes);
    EXPECT_LE(compiled.memory().arena_bytes, compiled.memory().no_reuse_bytes);
    EXPECT_GE(compiled.memory().arena_bytes, compiled.memory().max_live_bytes);
  }
}

// ---- mf::nn::Graph, the C++ mirror of mf.nn.Graph (tests/python/.../test_dist_graph.py) ----

std::shared_ptr<nn::Sequential> mlp(const Placement& p, bool tensor_parallel) {
  manual_seed(3);
  auto model = std::make_shared<nn::Sequential>();
  model->append(std::make_shared<nn::Linear>(8, 16)).append(std::make_shared<nn::GELU>());
  model->append(std::make_shared<nn::Linear>(16, 4));
  const size_t last = p.ndim() - 1;
  model->to_global(p, [&](const std::string& name, const Var&) {
    NdSbp nd(p.ndim(), Sbp::broadcast());
    if (tensor_parallel && name.rfind("0.", 0) == 0) nd[last] = Sbp::split(0);  // column parallel
    if (tensor_parallel && name == "2.weight") nd[last] = Sbp::split(1);       // row parallel
    return nd;
  });
  return model;
}

class TrainStep : public nn::Graph {
 public:
  TrainStep(std::shared_ptr<nn::Sequential> model, std::shared_ptr<optim::Optimizer> opt) : model_(model) {
    register_module("model", model);
    add_optimizer(std::move(opt));
  }
  std::vector<Var> build(const std::vector<Var>& in) override {
    Var loss = fn::cross_entropy(model_->forward(in[0]), in[1]);
    loss.backward();
    optim::clip_grad_norm(model_->parameters(), 0.5);
    return {loss};
  }

 private:
  std::shared_ptr<nn::Sequential> model_;
};

std::pair<Var, Var> batch(const Placement& p, int64_t rows, int seed) {
  Tensor x = Tensor::empty({rows, 8}, DType::kFloat32), y = Tensor::empty({rows}, DType::kInt64);
  for (int64_t i = 0; i < x.numel(); ++i) x.data_as<float>()[i] = static_cast<float>(std::sin(seed + 0.7 * i));
  for (int64_t i = 0; i < rows; ++i) y.data_as<int64_t>()[i] = (i * 3 + seed) % 4;
  NdSbp split(p.ndim(), Sbp::broadcast());
  split[0] = Sbp::split(0);
  return {Var(global_from_full(x, p, split)), Var(global_from_full(y, p, split))};
}

// The step the graphs here compile, run eagerly: returns the loss.
template <typename M>
Var eager_step(M& model, optim::Optimizer& opt, const Var& x, const Var& y, double clip) {
  const Var loss = fn::cross_entropy(model.forward(x), y);
  loss.backward();
  if (clip > 0) optim::clip_grad_norm(model.parameters(), clip);
  opt.step();
  opt.zero_grad();
  return loss;
}

void expect_same_parameters(const nn::Module& expected, const nn::Module& actual, double tol, const std::string& where) {
  const auto e = expected.parameters(), a = actual.parameters();
  ASSERT_EQ(e.size(), a.size());
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(a[i].global().layout(), e[i].global().layout()) << where;
    EXPECT_TRUE(test::close(gather_full(a[i].global()), gather_full(e[i].global()), tol)) << where;
  }
}

TEST(GraphDist, CppGraphTrainingEqualsEager) {
  std::vector<Placement> meshes = test::op_meshes();
  meshes.insert(meshes.begin(), test::first_ranks({1}));
  for (const Placement& p : meshes) {
    for (bool tensor_parallel : {false, true}) {
      const std::string where = p.str() + (tensor_parallel ? " tensor parallel" : " data parallel");
      auto eager_model = mlp(p, tensor_parallel), graph_model = mlp(p, tensor_parallel);
      const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
      optim::AdamW eager_opt(eager_model->parameters(), options);
      auto graph_opt = std::make_shared<optim::AdamW>(graph_model->parameters(), options);
      TrainStep step(graph_model, graph_opt);
      EXPECT_EQ(step.str(), "(not compiled yet)");
      for (int i = 0; i < 4; ++i) {
        eager_opt.set_lr(1e-2 / (i + 1));  // read anew at every call
        graph_opt->set_lr(1e-2 / (i + 1));
        // Six rows, then five: a new batch shape compiles a second plan.
        const auto [x, y] = batch(p, i < 2 ? 6 : 5, i);
        const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
        const std::vector<Var> got = step({x, y});
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].global().layout(), loss.global().layout()) << where;
        EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5)) << where << " step " << i;
      }
      expect_same_parameters(*eager_model, *graph_model, 1e-5, where);
      EXPECT_LE(step.compile_stats().graph_boxing_bytes, step.compile_stats().eager_boxing_bytes);
      EXPECT_LE(step.memory_plan().max_live_bytes, step.memory_plan().arena_bytes);
      EXPECT_NE(step.str().find("model.2.weight"), std::string::npos) << step.str();
    }
  }
}

// A local input beside global ones (labels every rank made alike) is taken as broadcast on
// their placement, as an eager op takes it: the step equals eager's on the split labels.
TEST(GraphDist, CppGraphTakesALocalInputAsBroadcastOnTheOthersPlacement) {
  for (const Placement& p : test::op_meshes()) {
    auto eager_model = mlp(p, false), graph_model = mlp(p, false);
    const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
    optim::AdamW eager_opt(eager_model->parameters(), options);
    TrainStep step(graph_model, std::make_shared<optim::AdamW>(graph_model->parameters(), options));
    for (int i = 0; i < 2; ++i) {
      const auto [x, y] = batch(p, 6, i);
      const Var local_y(gather_full(y.global()));
      const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
      const std::vector<Var> got = step({x, local_y});
      EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5)) << p.str();
    }
    expect_same_parameters(*eager_model, *graph_model, 1e-5, p.str());
  }
}

TEST(GraphDist, CppGraphAccumulatesMicroBatchesAsTheWholeBatch) {
  for (const Placement& p : test::op_meshes()) {
    auto eager_model = mlp(p, true), graph_model = mlp(p, true);
    const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
    optim::AdamW eager_opt(eager_model->parameters(), options);
    TrainStep step(graph_model, std::make_shared<optim::AdamW>(graph_model->parameters(), options));
    step.config().set_gradient_accumulation_steps(3);
    for (int i = 0; i < 2; ++i) {
      const auto [x, y] = batch(p, 12, i);
      const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
      const std::vector<Var> got = step({x, y});
      EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5)) << p.str();
    }
    expect_same_parameters(*eager_model, *graph_model, 1e-4, p.str());
  }
}

// ZeRO in a C++ graph: config().enable_zero(stage) gives the graph's plain optimizer the stage
// when it compiles; the steps equal the same stage eagerly (with clipping, which reads the
// gradients in the stage's layout), and the parameters end in the same layouts.
TEST(GraphDist, CppGraphWithZeroEqualsEagerZero) {
  for (const Placement& p : test::op_meshes()) {
    for (int stage : {1, 2, 3}) {
      const std::string where = p.str() + " stage " + std::to_string(stage);
      auto eager_model = mlp(p, true), graph_model = mlp(p, true);
      const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
      optim::AdamW eager_opt(eager_model->parameters(), options);
      eager_opt.set_zero_stage(stage);
      auto graph_opt = std::make_shared<optim::AdamW>(graph_model->parameters(), options);
      TrainStep step(graph_model, graph_opt);
      step.config().enable_zero(stage);
      for (int i = 0; i < 3; ++i) {
        const auto [x, y] = batch(p, 6, i);
        const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
        const std::vector<Var> got = step({x, y});
        EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5)) << where;
      }
      EXPECT_EQ(graph_opt->zero_stage(), stage) << where;
      expect_same_parameters(*eager_model, *graph_model, 1e-5, where);
    }
  }
  EXPECT_THROW(nn::GraphConfig().enable_zero(4), std::invalid_argument);
}

// A chain of elementwise ops with a broadcast bias, a residual, and an intermediate the
// step also returns (so it is stored although the chain reads it too).
class ForwardStep : public nn::Graph {
 public:
  explicit ForwardStep(std::shared_ptr<nn::Sequential> model) : model_(model) { register_module("model", model); }
  std::vector<Var> build(const std::vector<Var>& in) override { return {model_->forward(in[0])}; }

 private:
  std::shared_ptr<nn::Sequential> model_;
};

// A plan is per training mode: one graph called after model->eval() drops nothing, as eager,
// and after model->train() drops again (build traced the mode).
TEST(GraphDist, CppGraphFollowsTheModelsModeBetweenCalls) {
  for (const Placement& p : test::op_meshes()) {
    manual_seed(5);
    auto model = std::make_shared<nn::Sequential>();
    model->append(std::make_shared<nn::Linear>(8, 16)).append(std::make_shared<nn::Dropout>(0.5));
    model->to_global(p, [&](const std::string&, const Var&) { return NdSbp(p.ndim(), Sbp::broadcast()); });
    ForwardStep step(model);
    const auto [x, y] = batch(p, 6, 0);
    const Tensor trained = gather_full(step({x})[0].global());
    model->eval();
    const Tensor evaluated = gather_full(step({x})[0].global());
    EXPECT_TRUE(test::close(evaluated, gather_full(model->forward(x).global()), 1e-6)) << p.str();
    EXPECT_FALSE(test::close(trained, evaluated, 1e-6)) << p.str();
    model->train();
    EXPECT_FALSE(test::close(gather_full(step({x})[0].global()), evaluated, 1e-6)) << p.str();
  }
}

// Fine-tuning: a layer frozen (requires_grad_(false)) between calls makes a plan of its own,
// in which backward and the optimizer leave it alone, as eager code does.
TEST(GraphDist, CppGraphLeavesALayerFrozenBetweenCallsAlone) {
  for (const Placement& p : test::op_meshes()) {
    auto eager_model = mlp(p, false), graph_model = mlp(p, false);
    const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
    optim::AdamW eager_opt(eager_model->parameters(), options);
    TrainStep step(graph_model, std::make_shared<optim::AdamW>(graph_model->parameters(), options));
    for (int i = 0; i < 4; ++i) {
      if (i == 2) {
        for (auto* m : {eager_model.get(), graph_model.get()}) m->children()[0]->requires_grad_(false);
      }
      const auto [x, y] = batch(p, 6, i);
      const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
      const std::vector<Var> got = step({x, y});
      EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5)) << p.str() << i;
    }
    expect_same_parameters(*eager_model, *graph_model, 1e-5, p.str());
  }
}

class ChainStep : public nn::Graph {
 public:
  explicit ChainStep(bool fuse) { config().enable_fusion(fuse); }
  std::vector<Var> build(const std::vector<Var>& in) override {
    const Var h = fn::gelu(fn::add(in[0], in[1]));
    return {fn::add_scalar(fn::mul(fn::mul_scalar(h, 2.0), in[0]), -1.0), h};
  }
};

TEST(GraphDist, CppFusedChainsEqualTheUnfusedOpsBitwise) {
  std::vector<Placement> meshes = test::op_meshes();
  meshes.insert(meshes.begin(), test::first_ranks({1}));
  for (const Placement& p : meshes) {
    // 4099 rows (uneven over the ranks, several blocks of rows and a shorter last one).
    Tensor x = Tensor::empty({4099, 64}, DType::kFloat32), b = Tensor::empty({64}, DType::kFloat32);
    for (int64_t i = 0; i < x.numel(); ++i) x.data_as<float>()[i] = static_cast<float>(std::sin(0.37 * i));
    for (int64_t i = 0; i < b.numel(); ++i) b.data_as<float>()[i] = static_cast<float>(std::cos(1.3 * i));
    for (int axis = 0; axis < 2; ++axis) {  // rows split, then columns (the bias split alike)
      NdSbp xs(p.ndim(), Sbp::broadcast()), bs(p.ndim(), Sbp::broadcast());
      xs[0] = Sbp::split(axis);
      if (axis == 1) bs[0] = Sbp::split(0);
      const Var gx(global_from_full(x, p, xs)), gb(global_from_full(b, p, bs));
      const std::string where = p.str() + " x " + xs[0].str();
      ChainStep fused(true), unfused(false);
      const std::vector<Var> a = fused({gx, gb}), e = unfused({gx, gb});
      ASSERT_EQ(a.size(), 2u);
      for (size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].global().layout(), e[k].global().layout()) << where;
        const Tensor got = gather_full(a[k].global()), want = gather_full(e[k].global());
        EXPECT_EQ(std::memcmp(got.data(), want.data(), want.nbytes()), 0) << where << " output " << k;
      }
      EXPECT_EQ(unfused.compile_stats().fused_chains, 0) << where;
      if (p.parallel_id(comm::world_rank()) < 0) continue;  // fusion is of this rank's tasks
      EXPECT_EQ(fused.compile_stats().fused_chains, 1) << where << "\n" << fused.str();
      EXPECT_EQ(fused.compile_stats().fused_ops, 5) << where;
      EXPECT_LT(fused.compile_stats().tasks, unfused.compile_stats().tasks) << where;
      EXPECT_GT(fused.memory_plan().unstored_bytes, 0) << where;
      EXPECT_NE(fused.str().find("fused(add, gelu, mul_scalar, mul, add_scalar)"), std::string::npos) << fused.str();
    }
  }
}

// Two pipeline stages, [0] and [1]: the activation moves to the second stage's placement.
class TwoStages : public nn::Module {
 public:
  TwoStages(const Placement& first, const Placement& second)
      : first_(first), second_(second), a_(register_module("a", std::make_shared<nn::Sequential>())),
        b_(register_module("b", std::make_shared<nn::Linear>(16, 4))) {
    a_->append(std::make_shared<nn::Linear>(8, 16)).append(std::make_shared<nn::GELU>());
    a_->to_global(first, NdSbp{Sbp::broadcast()});
    b_->to_global(second, NdSbp{Sbp::broadcast()});
  }
  Var forward(const Var& x) const { return b_->forward(mf::to_global(a_->forward(x), second_, {Sbp::broadcast()})); }

 private:
  Placement first_, second_;
  std::shared_ptr<nn::Sequential> a_;
  std::shared_ptr<nn::Linear> b_;
};

class PipelineStep : public nn::Graph {
 public:
  explicit PipelineStep(std::shared_ptr<TwoStages> model) : model_(model) {
    register_module("model", model);
    add_optimizer(std::make_shared<optim::SGD>(model->parameters(), optim::SgdOptions{/*lr=*/0.1}));
    config().set_gradient_accumulation_steps(4);
  }
  std::vector<Var> build(const std::vector<Var>& in) override {
    Var loss = fn::cross_entropy(model_->forward(in[0]), in[1]);
    loss.backward();
    return {loss};
  }

 private:
  std::shared_ptr<TwoStages> model_;
};

// The pipeline's lanes are threads of their own: under ThreadSanitizer this checks them too.
TEST(GraphDist, CppTwoStagePipelineEqualsEager) {
  if (comm::world_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  const Placement first = test::first_ranks({1}), second("cpu", std::vector<int>{1});
  manual_seed(4);
  auto eager_model = std::make_shared<TwoStages>(first, second);
  manual_seed(4);
  auto graph_model = std::make_shared<TwoStages>(first, second);
  optim::SGD eager_opt(eager_model->parameters(), optim::SgdOptions{/*lr=*/0.1});
  PipelineStep step(graph_model);
  for (int i = 0; i < 3; ++i) {
    Tensor xs = Tensor::empty({8, 8}, DType::kFloat32), ys = Tensor::empty({8}, DType::kInt64);
    for (int64_t k = 0; k < xs.numel(); ++k) xs.data_as<float>()[k] = static_cast<float>(std::cos(i + 0.3 * k));
    for (int64_t k = 0; k < 8; ++k) ys.data_as<int64_t>()[k] = (k + i) % 4;
    const Var x(global_from_full(xs, first, {Sbp::broadcast()})), y(global_from_full(ys, second, {Sbp::broadcast()}));
    const Var loss = eager_step(*eager_model, eager_opt, x, y, 0);
    const std::vector<Var> got = step({x, y});
    EXPECT_TRUE(test::close(gather_full(got[0].global()), gather_full(loss.global()), 1e-5));
  }
  expect_same_parameters(*eager_model, *graph_model, 1e-5, "two stages");
}

// A program that placed nothing: local inputs, parameters and optimizer state run as
// global tensors of this rank alone; outputs and parameters stay local and equal eager's,
// over more batch shapes than the graph keeps compiled plans.
TEST(GraphDist, CppGraphRunsLocalProgramsAsEagerWithBoundedPlans) {
  auto local_mlp = [] {
    manual_seed(3);
    auto model = std::make_shared<nn::Sequential>();
    model->append(std::make_shared<nn::Linear>(8, 16)).append(std::make_shared<nn::GELU>());
    model->append(std::make_shared<nn::Linear>(16, 4));
    return model;
  };
  auto eager_model = local_mlp(), graph_model = local_mlp();
  const optim::AdamWOptions options{/*lr=*/1e-2, 0.9, 0.999, 1e-8, 0.01};
  optim::AdamW eager_opt(eager_model->parameters(), options);
  TrainStep step(graph_model, std::make_shared<optim::AdamW>(graph_model->parameters(), options));
  step.config().set_max_compiled(2);
  EXPECT_THROW(step.config().set_max_compiled(0), std::invalid_argument);
  const Placement here = test::first_ranks({1});
  for (int i = 0; i < 6; ++i) {
    const auto [gx, gy] = batch(here, 3 + i % 4, i);  // 4 shapes, 2 plans kept
    const Var x(gather_full(gx.global())), y(gather_full(gy.global()));
    const Var loss = eager_step(*eager_model, eager_opt, x, y, 0.5);
    const std::vector<Var> got = step({x, y});
    ASSERT_FALSE(got[0].is_global());
    EXPECT_TRUE(test::close(got[0].local(), loss.local(), 1e-6)) << "step " << i;
  }
  const auto e = eager_model->parameters(), a = graph_model->parameters();
  for (size_t i = 0; i < e.size(); ++i) {
    ASSERT_FALSE(a[i].is_global());
    EXPECT_TRUE(test::close(a[i].local(), e[i].local(), 1e-5)) << i;
  }
  // A local input beside global ones of several placements is refused before compiling (one
  // placement takes it as broadcast: CppGraphTakesALocalInputAsBroadcastOnTheOthersPlacement).
  const auto [gx, gy] = batch(here, 4, 0);
  const Var elsewhere(global_from_full(gather_full(gy.global()), test::first_ranks({1, 1}),
                                       {Sbp::broadcast(), Sbp::broadcast()}));
  test::expect_error([&] { step({gx, elsewhere, Var(gather_full(gy.global()))}); }, "several placements");
  TrainStep fresh(local_mlp(), std::make_shared<optim::AdamW>(std::vector<Var>{}, optim::AdamWOptions{}));
  EXPECT_THROW(fresh.explain(), std::logic_error);
}

}  // namespace
}  // namespace mf
