// Copyright 2026 The meshflow Authors.
// C++ modules (meshflow/nn/module.h) under mpirun: parameter names over a module tree with
// tied weights, re-registration, train / eval, initial values drawn from the generator's
// counters with torch's formulas, to_global per parameter, state_dict / load_state_dict
// across kinds, layouts and dtypes, and an MLP trained with AdamW and cross_entropy under
// data, tensor and [2, 2] hybrid parallelism that ends with the parameters of the same
// training on one device; buffers; optimizer parameter groups; errors. The Python modules'
// tests (tests/python/test_nn.py, test_module_api.py, distributed/test_dist_nn.py) check the
// same behaviour.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>

#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"
#include "tests/cpp/grad_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers
using nn::Module;

const Sbp S0 = Sbp::split(0), S1 = Sbp::split(1), B = Sbp::broadcast();

class Block : public Module {
 public:
  explicit Block(int64_t width)
      : norm(register_module("norm", std::make_shared<nn::LayerNorm>(Shape{width}))),
        mlp(register_module("mlp", std::make_shared<nn::Sequential>())) {
    mlp->append(std::make_shared<nn::Linear>(width, 2 * width))
        .append(std::make_shared<nn::GELU>())
        .append(std::make_shared<nn::Linear>(2 * width, width));
  }
  std::shared_ptr<nn::LayerNorm> norm;
  std::shared_ptr<nn::Sequential> mlp;
};

// Embedding and output head share one weight, as in GPT-2.
class TiedModel : public Module {
 public:
  TiedModel()
      : embed(register_module("embed", std::make_shared<nn::Embedding>(7, 4))),
        blocks(register_module("blocks", std::make_shared<nn::ModuleList>())),
        head(register_module("head", std::make_shared<nn::Linear>(4, 7, /*bias=*/false))) {
    for (int i = 0; i < 2; ++i) blocks->append(std::make_shared<Block>(4));
    head->register_parameter("weight", embed->weight());
  }
  std::shared_ptr<nn::Embedding> embed;
  std::shared_ptr<nn::ModuleList> blocks;
  std::shared_ptr<nn::Linear> head;
};

std::vector<std::string> names_of(const std::vector<std::pair<std::string, Var>>& named) {
  std::vector<std::string> names;
  for (const auto& entry : named) names.push_back(entry.first);
  return names;
}

// The logical value of a Var, on every rank.
Tensor full_value(const Var& v) { return v.is_global() ? gather_full(v.global()) : v.local(); }

// ---- the module tree ----

TEST(NnModule, NamesFollowTheTreeAndTiedWeightsAreListedOnce) {
  TiedModel model;
  std::vector<std::string> expected = {"embed.weight"};
  for (const char* block : {"blocks.0.", "blocks.1."}) {
    for (const char* name : {"norm.weight", "norm.bias", "mlp.0.weight", "mlp.0.bias", "mlp.2.weight", "mlp.2.bias"}) {
      expected.push_back(std::string(block) + name);
    }
  }
  EXPECT_EQ(names_of(model.named_parameters()), expected);
  std::vector<std::string> state_keys;
  for (const auto& entry : model.state_dict()) state_keys.push_back(entry.first);
  EXPECT_EQ(state_keys, expected);
  ASSERT_EQ(model.parameters().size(), expected.size());
  for (const Var& p : model.parameters()) EXPECT_TRUE(p.requires_grad() && p.is_leaf());
  EXPECT_TRUE(model.head->weight().same(model.embed->weight()));
  EXPECT_FALSE(model.head->bias().defined());

  std::vector<std::string> module_names;
  for (const auto& entry : model.named_modules()) module_names.push_back(entry.first);
  EXPECT_EQ(std::vector<std::string>(module_names.begin(), module_names.begin() + 5),
            (std::vector<std::string>{"", "embed", "blocks", "blocks.0", "blocks.0.norm"}));
  EXPECT_EQ(model.children(), (std::vector<std::shared_ptr<Module>>{model.embed, model.blocks, model.head}));
  EXPECT_EQ(model.child("blocks"), model.blocks);
  EXPECT_EQ(model.child("nothing"), nullptr);

  ASSERT_EQ(model.blocks->size(), 2u);
  EXPECT_EQ((*model.blocks)[-1], (*model.blocks)[1]);
  const std::shared_ptr<nn::Sequential> mlp = model.blocks->at<Block>(0)->mlp;
  EXPECT_EQ(mlp->size(), 3u);
  EXPECT_NE(mlp->at<nn::GELU>(1), nullptr);
  EXPECT_THROW(mlp->at<nn::Linear>(1), std::invalid_argument);
  EXPECT_THROW((*mlp)[3], std::out_of_range);
  EXPECT_THROW((*model.blocks)[-3], std::out_of_range);
}

TEST(NnModule, ReprIsPythons) {
  auto inner = std::make_shared<nn::Sequential>();
  inner->append(std::make_shared<nn::LayerNorm>(Shape{2})).append(std::make_shared<nn::Dropout>(0.1));
  nn::Sequential seq;
  seq.append(std::make_shared<nn::Linear>(3, 2))
      .append(std::make_shared<nn::GELU>())
      .append(inner)
      .append(std::make_shared<nn::Embedding>(5, 2));
  EXPECT_EQ(seq.repr(),
            "Sequential(\n"
            "  (0): Linear(in_features=3, out_features=2, bias=True)\n"
            "  (1): GELU()\n"
            "  (2): Sequential(\n"
            "    (0): LayerNorm((2,), eps=1e-05)\n"
            "    (1): Dropout(p=0.1)\n"
            "  )\n"
            "  (3): Embedding(5, 2)\n"
            ")");
}

TEST(NnModule, RegisteringANameAgainReplacesWhatItNamed) {
  nn::Linear linear(3, 2, /*bias=*/false);
  EXPECT_EQ(names_of(linear.named_parameters()), std::vector<std::string>{"weight"});
  const Var bias = call1("full", {}, {{"shape", Shape{2}}, {"dtype", DType::kFloat32}, {"value", 5.0}});
  EXPECT_TRUE(linear.register_parameter("bias", bias).same(bias));
  EXPECT_TRUE(linear.bias().same(bias) && bias.requires_grad());
  EXPECT_EQ(names_of(linear.named_parameters()), (std::vector<std::string>{"weight", "bias"}));

  // forward reads the registered bias: y = x @ W^T + 5.
  const Tensor x = uniform({2, 3}, -1, 1);
  const Tensor y = linear.forward(fn::cast(Var(x), DType::kFloat32)).local();
  const Tensor w = linear.weight().local();
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t o = 0; o < 2; ++o) {
      double expected = 5;
      for (int64_t k = 0; k < 3; ++k) expected += x.data_as<double>()[i * 3 + k] * w.data_as<float>()[o * 3 + k];
      EXPECT_NEAR(y.data_as<float>()[i * 2 + o], expected, 1e-5);
    }
  }

  linear.register_parameter("bias", Var());  // Python's `linear.bias = None`
  EXPECT_EQ(names_of(linear.named_parameters()), std::vector<std::string>{"weight"});
  linear.register_module("weight", std::make_shared<nn::ReLU>());  // a module where a parameter was
  EXPECT_TRUE(linear.named_parameters().empty());
  EXPECT_NE(linear.child("weight"), nullptr);
}

TEST(NnModule, TrainAndEvalSetEveryModule) {
  TiedModel model;
  model.eval();
  for (const auto& entry : model.named_modules()) EXPECT_FALSE(entry.second->is_training()) << entry.first;
  model.blocks->train();
  EXPECT_FALSE(model.is_training());
  EXPECT_TRUE(model.blocks->at<Block>(1)->mlp->at<nn::GELU>(1)->is_training());

  nn::Dropout dropout(0.5);
  const Var x(uniform({4, 5}, 1, 2));
  EXPECT_FALSE(dropout.eval().is_training());
  EXPECT_TRUE(dropout.forward(x).same(x));
  dropout.train();
  const Tensor y = dropout.forward(x).local();
  int zeros = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double kept = y.data_as<double>()[i];
    zeros += kept == 0;
    EXPECT_TRUE(kept == 0 || kept == 2 * x.local().data_as<double>()[i]) << kept;  // scaled by 1 / (1 - p)
  }
  EXPECT_GT(zeros, 0);
}

// ---- initial values ----

TEST(NnModule, LayersDrawTorchsInitializationFromTheGeneratorsCounters) {
  manual_seed(5);
  const RandomCall start = next_random_call(0);
  // Chained appends build the layers in order, as Python's nn.Sequential(...) does.
  nn::Sequential seq;
  seq.append(std::make_shared<nn::Linear>(6, 4))
      .append(std::make_shared<nn::Embedding>(3, 5))
      .append(std::make_shared<nn::LayerNorm>(Shape{2, 3}));
  const nn::Linear& linear = *seq.at<nn::Linear>(0);
  const nn::Embedding& embedding = *seq.at<nn::Embedding>(1);
  const nn::LayerNorm& norm = *seq.at<nn::LayerNorm>(2);
  // The layers' float32 draws take consecutive counters: weight, bias, then the embedding.
  auto counters = [&](const std::string& op, int64_t first, int64_t count) {
    return apply_local(find_op(op), {},
                       {{"shape", Shape{count}},
                        {"dtype", DType::kFloat32},
                        {"seed", start.seed},
                        {"offset", start.offset + first}})[0];
  };
  const double bound = 1 / std::sqrt(6.0);
  const Tensor u = counters("rand", 0, 28);
  auto expect_uniform = [&](const Var& p, int64_t first) {
    const Tensor t = p.local();
    ASSERT_EQ(t.dtype(), DType::kFloat32);
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double value = t.data_as<float>()[i];
      EXPECT_NEAR(value, u.data_as<float>()[first + i] * 2 * bound - bound, 1e-6);
      EXPECT_LE(std::abs(value), bound);
    }
  };
  EXPECT_EQ(linear.weight().shape(), (Shape{4, 6}));
  expect_uniform(linear.weight(), 0);
  expect_uniform(linear.bias(), 24);

  const Tensor n = counters("randn", 28, 15);
  const Tensor e = embedding.weight().local();
  EXPECT_EQ(e.shape(), (Shape{3, 5}));
  EXPECT_TRUE(close(e.view(0, {15}), n, 0));

  const Tensor ones = norm.weight().local(), zeros = norm.bias().local();
  EXPECT_EQ(ones.shape(), (Shape{2, 3}));
  for (int64_t i = 0; i < 6; ++i) EXPECT_TRUE(ones.data_as<float>()[i] == 1 && zeros.data_as<float>()[i] == 0);
  EXPECT_TRUE(nn::LayerNorm(Shape{3}, 1e-5, /*elementwise_affine=*/false).named_parameters().empty());
  EXPECT_EQ(next_random_call(0).offset, start.offset + 43);  // LayerNorm draws nothing
}

// ---- layouts and state ----

constexpr int64_t kIn = 5, kHidden = 10, kClasses = 4, kBatch = 7;  // 10 and 7 split unevenly over 3, 4 and 6 ranks

// Column-parallel first layer (its outputs split), row-parallel second (its inputs split).
NdSbp tensor_parallel(const std::string& name) {
  const std::map<std::string, Sbp> sbp = {{"0.weight", S0}, {"0.bias", S0}, {"2.weight", S1}, {"2.bias", B}};
  return {sbp.at(name)};
}

std::shared_ptr<nn::Sequential> make_mlp(uint64_t seed, DType dtype) {
  manual_seed(seed);
  auto mlp = std::make_shared<nn::Sequential>();
  mlp->append(std::make_shared<nn::Linear>(kIn, kHidden))
      .append(std::make_shared<nn::GELU>())
      .append(std::make_shared<nn::Linear>(kHidden, kClasses));
  for (Var& p : mlp->parameters()) p.set_data(fn::cast(p.detach(), dtype));
  return mlp;
}

Placement world() { return first_ranks({comm::world_size()}); }

TEST(NnModule, ToGlobalKeepsEachRanksPartThenBoxes) {
  const auto reference = make_mlp(0, DType::kFloat32);
  std::vector<Placement> meshes = {world()};
  if (comm::world_size() >= 4) meshes.push_back(first_ranks({2, 2}));
  for (const Placement& mesh : meshes) {
    auto sbp_of = [&](const std::string& name, const Var&) {
      NdSbp sbp = tensor_parallel(name);
      if (mesh.ndim() == 2) sbp.insert(sbp.begin(), B);
      return sbp;
    };
    const auto mlp = make_mlp(0, DType::kFloat32);
    const std::vector<Var> held = mlp->parameters();
    Var first = held[0];
    first.set_grad(fn::zeros_like(first));
    mlp->to_global(mesh, sbp_of);
    EXPECT_FALSE(first.grad().defined());  // a gradient in the old layout is dropped
    const auto named = mlp->named_parameters();
    const auto expected = reference->named_parameters();
    for (size_t i = 0; i < named.size(); ++i) {
      const auto& [name, p] = named[i];
      EXPECT_TRUE(p.same(held[i])) << name;
      ASSERT_TRUE(p.is_global()) << name;
      EXPECT_EQ(p.global().nd_sbp(), sbp_of(name, p)) << name;
      EXPECT_TRUE(close(p.data(), local_part(expected[i].second.local(), mesh, sbp_of(name, p), me()), 0)) << name;
    }
    mlp->to_global(mesh, NdSbp(mesh.ndim(), B));
    if (!mesh.contains(me())) continue;  // outside, a rank holds empty parts
    for (size_t i = 0; i < named.size(); ++i) {
      EXPECT_TRUE(close(mlp->parameters()[i].data(), expected[i].second.local(), 0)) << named[i].first;
    }
  }
}

// A module with a persistent and a non-persistent buffer (a norm layer's running statistics).
class WithBuffers : public Module {
 public:
  WithBuffers() : linear(register_module("linear", std::make_shared<nn::Linear>(3, 2))) {
    register_buffer("running", fn::zeros_like(linear->bias().detach()));
    register_buffer("scratch", fn::zeros_like(linear->bias().detach()), /*persistent=*/false);
  }
  std::string type_name() const override { return "WithBuffers"; }
  std::string extra_repr() const override { return "momentum=0.1"; }
  std::shared_ptr<nn::Linear> linear;
};

TEST(NnModule, BuffersAreStateButNotParameters) {
  auto m = std::make_shared<WithBuffers>();
  EXPECT_EQ(names_of(m->named_parameters()), (std::vector<std::string>{"linear.weight", "linear.bias"}));
  EXPECT_EQ(names_of(m->named_buffers()), (std::vector<std::string>{"running", "scratch"}));
  EXPECT_FALSE(m->buffer("running").requires_grad());
  std::vector<std::string> keys;
  for (const auto& entry : m->state_dict()) keys.push_back(entry.first);
  // torch's order: own parameters, own persistent buffers, then the children's.
  EXPECT_EQ(keys, (std::vector<std::string>{"running", "linear.weight", "linear.bias"}));
  EXPECT_EQ(m->repr(), "WithBuffers(\n  momentum=0.1\n  (linear): Linear(in_features=3, out_features=2, bias=True)\n)");

  Tensor value = Tensor::empty({2}, DType::kFloat64);
  value.data_as<double>()[0] = 1.5;
  value.data_as<double>()[1] = -2;
  nn::StateDict state = m->state_dict();
  state.set("running", Var(value));
  const Var held = m->buffer("running");
  m->load_state_dict(state);
  EXPECT_TRUE(held.same(m->buffer("running")));
  EXPECT_EQ(held.dtype(), DType::kFloat32);
  EXPECT_EQ(held.local().data_as<float>()[0], 1.5f);
  EXPECT_EQ(held.local().data_as<float>()[1], -2.0f);
  state.set("scratch", Var(value));
  EXPECT_THROW(m->load_state_dict(state), std::invalid_argument);  // not in state_dict: unexpected

  m->to_global(world(), NdSbp{B});
  EXPECT_TRUE(held.is_global());
  EXPECT_TRUE(m->buffer("scratch").is_global());
  EXPECT_TRUE(close(as_float64(full_value(held)), value, 0));

  std::vector<std::string> applied;
  m->apply([&applied](Module& module) { applied.push_back(module.type_name()); });
  EXPECT_EQ(applied, (std::vector<std::string>{"Linear", "WithBuffers"}));  // children first
  EXPECT_EQ(m->named_children().at(0).first, "linear");
  m->requires_grad_(false);
  EXPECT_FALSE(m->linear->weight().requires_grad());
  m->requires_grad_();
  EXPECT_TRUE(m->linear->weight().requires_grad());

  m->register_buffer("running", Var());  // unregisters
  EXPECT_EQ(names_of(m->named_buffers()), (std::vector<std::string>{"scratch"}));
  m->register_parameter("scratch", fn::zeros_like(m->linear->bias().detach()));  // a name changes kind
  EXPECT_TRUE(m->named_buffers().empty());
  EXPECT_EQ(m->named_parameters()[0].first, "scratch");
}

// Parameter groups (optim.h): options per group over the defaults, checked when added and
// when set; a parameter in one group only.
TEST(NnModule, OptimizerGroupsTakeTheirOwnOptions) {
  auto leaf = [](double v) {
    Tensor t = Tensor::empty({2}, DType::kFloat64);
    t.data_as<double>()[0] = t.data_as<double>()[1] = v;
    return Var(t, true);
  };
  Var a = leaf(1), b = leaf(1), c = leaf(1);
  optim::SGD sgd({{{a}, {}}, {{b}, {{"lr", 0.5}, {"weight_decay", 0.1}}}}, optim::SgdOptions{0.1});
  ASSERT_EQ(sgd.group_count(), 2u);
  EXPECT_EQ(sgd.group_options(0).at("lr"), 0.1);
  EXPECT_EQ(sgd.group_options(1).at("weight_decay"), 0.1);
  EXPECT_EQ(sgd.group_options(1).at("momentum"), 0.0);  // the default
  for (Var* p : {&a, &b}) p->set_grad(leaf(1).detach());
  sgd.step();
  EXPECT_DOUBLE_EQ(a.local().data_as<double>()[0], 1 - 0.1);
  EXPECT_DOUBLE_EQ(b.local().data_as<double>()[0], 1 - 0.5 * (1 + 0.1));
  sgd.add_param_group({c}, {{"momentum", 0.9}});
  EXPECT_TRUE(sgd.group_params(2)[0].same(c));
  EXPECT_EQ(sgd.params().size(), 3u);
  sgd.set_lr(0.01);
  for (size_t g = 0; g < 3; ++g) EXPECT_EQ(sgd.group_options(g).at("lr"), 0.01);
  EXPECT_THROW(sgd.add_param_group({a}), std::invalid_argument);                        // in a group already
  EXPECT_THROW(sgd.add_param_group({leaf(0)}, {{"betas", 0.9}}), std::invalid_argument);  // unknown option
  EXPECT_THROW(sgd.set_group_option(0, "lr", std::nan("")), std::invalid_argument);
  EXPECT_THROW(sgd.set_group_option(0, "nesterov", 1), std::invalid_argument);  // needs momentum
  EXPECT_EQ(sgd.group_options(0).at("lr"), 0.01);  // a refused value changes nothing
  sgd.set_group_option(0, "lr", -0.5);  // checked at construction only, as torch (a schedule's end)
  EXPECT_EQ(sgd.group_options(0).at("lr"), -0.5);
  EXPECT_THROW(sgd.set_group_option(3, "lr", 1), std::out_of_range);
}

TEST(NnModule, LoadStateDictConvertsToEachParametersKindLayoutAndDtype) {
  const auto source = make_mlp(1, DType::kFloat64);
  std::vector<Tensor> expected;
  for (const Var& p : source->parameters()) expected.push_back(p.local());
  auto expect_loaded = [&](const Module& m, DType dtype, const std::string& what) {
    const std::vector<Var> params = m.parameters();
    for (size_t i = 0; i < params.size(); ++i) {
      EXPECT_EQ(params[i].dtype(), dtype) << what;
      EXPECT_TRUE(close(as_float64(full_value(params[i])), expected[i], dtype == DType::kFloat64 ? 0 : 1e-7))
          << what << " parameter " << i;
    }
  };

  // Local into local, float64 into float32: the same parameters, their dtype kept.
  const auto local = make_mlp(2, DType::kFloat32);
  const std::vector<Var> held = local->parameters();
  local->load_state_dict(source->state_dict());
  for (size_t i = 0; i < held.size(); ++i) EXPECT_TRUE(local->parameters()[i].same(held[i]));
  for (const Var& p : held) EXPECT_TRUE(p.requires_grad());
  for (size_t i = 0; i < held.size(); ++i) {
    ASSERT_EQ(held[i].dtype(), DType::kFloat32);
    EXPECT_TRUE(close(as_float64(held[i].local()), expected[i], 1e-7));
  }

  // Local into global; then global into global in another layout, and into local.
  const auto tensor_parallel_mlp = make_mlp(3, DType::kFloat64);
  tensor_parallel_mlp->to_global(world(), [](const std::string& name, const Var&) { return tensor_parallel(name); });
  tensor_parallel_mlp->load_state_dict(source->state_dict());
  for (const auto& [name, p] : tensor_parallel_mlp->named_parameters()) {
    EXPECT_EQ(p.global().nd_sbp(), tensor_parallel(name)) << name;
  }
  expect_loaded(*tensor_parallel_mlp, DType::kFloat64, "local into global");

  const auto split = make_mlp(4, DType::kFloat64);
  split->to_global(world(), NdSbp{S0});
  split->load_state_dict(tensor_parallel_mlp->state_dict());
  for (const Var& p : split->parameters()) EXPECT_EQ(p.global().nd_sbp(), NdSbp{S0});
  expect_loaded(*split, DType::kFloat64, "global into global");

  const auto back = make_mlp(5, DType::kFloat64);
  back->load_state_dict(split->state_dict());
  for (const Var& p : back->parameters()) EXPECT_FALSE(p.is_global());
  expect_loaded(*back, DType::kFloat64, "global into local");
}

TEST(NnModule, ErrorsNameTheProblem) {
  const auto mlp = make_mlp(0, DType::kFloat32);
  const Tensor weight_before = mlp->parameters()[0].local(), bias_before = mlp->parameters()[1].local();
  nn::StateDict state = make_mlp(1, DType::kFloat32)->state_dict();
  nn::StateDict partial;
  for (const auto& [name, value] : state) {
    if (name != "0.bias") partial.set(name, value);
  }
  partial.set("extra", state.at("0.bias"));
  expect_error([&] { mlp->load_state_dict(partial); },
               "[load_state_dict] missing keys [0.bias], unexpected keys [extra]; expected exactly the keys");
  EXPECT_TRUE(close(mlp->parameters()[0].local(), weight_before, 0));  // nothing loaded
  mlp->load_state_dict(partial, /*strict=*/false);
  EXPECT_TRUE(close(mlp->parameters()[0].local(), state.at("0.weight").local(), 0));
  EXPECT_TRUE(close(mlp->parameters()[1].local(), bias_before, 0));  // missing: kept

  nn::StateDict wrong_shape = state;
  wrong_shape.set("2.weight", Var(Tensor::zeros({kHidden, kClasses}, DType::kFloat32)));
  expect_error([&] { mlp->load_state_dict(wrong_shape); },
               "[load_state_dict] 2.weight has shape [10, 4]; the module's parameter has shape [4, 10]");
  expect_error([&] { state.at("nothing"); }, "[StateDict] has no key \"nothing\"");

  nn::Linear linear(2, 2);
  const Var leaf(uniform({2}, 0, 1), /*requires_grad=*/true);
  expect_error([&] { linear.register_parameter("scale", fn::mul_scalar(leaf, 2)); },
               "[register_parameter] scale is the result of a recorded call; expected a leaf");
  expect_error([&] { linear.register_parameter("a.b", Var(uniform({2}, 0, 1))); },
               "[register_parameter] name \"a.b\" is empty or has a '.'");
  expect_error([&] { linear.register_module("", std::make_shared<nn::ReLU>()); }, "[register_module] name \"\"");
  const Var counts(Tensor::zeros({2}, DType::kInt64));
  expect_error([&] { linear.register_parameter("bias", counts); }, "only floating and complex tensors can require gradients");
  EXPECT_TRUE(linear.bias().defined());  // the refused registration replaced nothing
  EXPECT_TRUE(linear.register_parameter("bias", counts, /*requires_grad=*/false).same(linear.bias()));
  expect_error([] { nn::Dropout(1.0); }, "[Dropout] p is 1.0; expected 0 <= p < 1");
  expect_error([] { nn::ModuleList().append(nullptr); }, "[ModuleList] append got nullptr");
  // A bad SBP raises on every rank (the conversion checks its arguments collectively).
  expect_error([&] { mlp->to_global(world(), NdSbp{B, B}); }, "has 2 entries");
}

// ---- training ----

// The layouts of the parallel training: mesh, input (and target) SBP, parameter SBPs.
struct Layout {
  std::string name;
  Placement mesh;
  NdSbp input;
  nn::SbpRule params;
};

std::vector<Layout> training_layouts() {
  std::vector<Layout> layouts = {
      {"data", world(), {S0}, [](const std::string&, const Var&) { return NdSbp{B}; }},
      {"tensor", world(), {B}, [](const std::string& name, const Var&) { return tensor_parallel(name); }},
  };
  if (comm::world_size() >= 4) {
    layouts.push_back({"2x2", first_ranks({2, 2}), {S0, B}, [](const std::string& name, const Var&) {
                         NdSbp sbp = tensor_parallel(name);
                         sbp.insert(sbp.begin(), B);
                         return sbp;
                       }});
  }
  return layouts;
}

// Three AdamW steps of cross_entropy(mlp(x), target); returns the losses. `after_backward`
// looks at the gradients.
std::vector<double> train(
    nn::Sequential& mlp, const Var& x, const Var& target, const std::function<void()>& after_backward = [] {}) {
  optim::AdamW optimizer(mlp.parameters(), {/*lr=*/0.05, 0.9, 0.999, 1e-8, /*weight_decay=*/0.1});
  std::vector<double> losses;
  for (int step = 0; step < 3; ++step) {
    mlp.zero_grad();
    const Var loss = fn::cross_entropy(mlp.forward(x), target);
    loss.backward();
    after_backward();
    optimizer.step();
    losses.push_back(full_value(loss).data_as<double>()[0]);
  }
  return losses;
}

TEST(NnModule, ParallelTrainingMatchesOneDevice) {
  const Tensor x = uniform({kBatch, kIn}, -2, 2, 7);
  Tensor target = Tensor::empty({kBatch}, DType::kInt64);
  for (int64_t i = 0; i < kBatch; ++i) target.data_as<int64_t>()[i] = (i * 3 + 1) % kClasses;

  const auto reference = make_mlp(0, DType::kFloat64);
  const std::vector<double> expected_losses = train(*reference, Var(x), Var(target));
  EXPECT_LT(expected_losses[2], expected_losses[0]);

  for (const Layout& layout : training_layouts()) {
    const auto mlp = make_mlp(0, DType::kFloat64);
    mlp->to_global(layout.mesh, layout.params);
    auto gradients_keep_their_parameters_layout = [&] {
      for (const auto& [name, p] : mlp->named_parameters()) {
        ASSERT_TRUE(p.grad().defined()) << layout.name << " " << name;
        EXPECT_EQ(p.grad().global().layout(), p.global().layout()) << layout.name << " " << name;
      }
    };
    const std::vector<double> losses =
        train(*mlp, Var(global_from_full(x, layout.mesh, layout.input)),
              Var(global_from_full(target, layout.mesh, layout.input)), gradients_keep_their_parameters_layout);
    for (size_t i = 0; i < losses.size(); ++i) EXPECT_NEAR(losses[i], expected_losses[i], 1e-10) << layout.name;
    const auto named = mlp->named_parameters(), expected = reference->named_parameters();
    for (size_t i = 0; i < named.size(); ++i) {
      EXPECT_EQ(named[i].second.global().nd_sbp(), layout.params(named[i].first, named[i].second)) << layout.name;
      EXPECT_TRUE(close(full_value(named[i].second), expected[i].second.local(), 1e-10))
          << layout.name << " " << named[i].first;
    }
  }
}

}  // namespace
}  // namespace mf
