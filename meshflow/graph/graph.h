// Copyright 2026 The meshflow Authors.
// mf::nn::Graph: the C++ mirror of Python's mf.nn.Graph (python/meshflow/nn/graph.py), as
// libtorch mirrors PyTorch. Subclass it, register the modules whose parameters the step
// updates, add optimizers, write the step in build(); the first call traces build with lazy
// tensors, compiles the logical graph (graph/compile.h) and runs it; later calls whose
// inputs have the same metas (shape, dtype, placement, SBP) run the cached plan, and new
// metas compile again. Parameters and optimizer state stay shared with eager code: eager
// code after a call sees the updated values, and an optimizer's lr is read at every call.
// Optimizers step after build, inside the graph. Random ops draw new values at every call.
//
//   class TrainStep : public mf::nn::Graph {
//    public:
//     TrainStep(std::shared_ptr<Mlp> model, std::shared_ptr<mf::optim::Optimizer> opt) : model_(model) {
//       register_module("model", model);
//       add_optimizer(opt);
//     }
//     std::vector<mf::Var> build(const std::vector<mf::Var>& in) override {
//       mf::Var loss = mf::fn::cross_entropy(model_->forward(in[0]), in[1]);
//       loss.backward();
//       return {loss};
//     }
//   };
//
// It lives in graph/ (the layer above nn/ and the compiler), in namespace nn like Python's.
// Thread-safety: one thread at a time, like eager code; a call is collective (every rank
// of the inputs' placements makes it alike).
#pragma once

#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/graph/compile.h"
#include "meshflow/nn/module.h"
#include "meshflow/nn/optim.h"

namespace mf::nn {

// A graph's settings (Python's Graph.config).
class GraphConfig {
 public:
  // Splits each call's batch into `steps` micro-batches (dim 0 of every argument cut into
  // equal parts on each rank): forward and backward per micro-batch, what reads the
  // gradients once on their mean; with ops on several placements, a pipeline (compile.h).
  void set_gradient_accumulation_steps(int steps);
  int gradient_accumulation_steps() const { return steps_; }
  // Whether compiling fuses chains of elementwise ops (graph/fusion.h); on by default.
  void enable_fusion(bool on) { fusion_ = on; }
  bool fusion() const { return fusion_; }
  // How many compiled plans the graph keeps (one per distinct input metas and settings), the
  // least recently used dropped first: each holds an arena and transfer threads. Default 8.
  void set_max_compiled(int n);
  int max_compiled() const { return max_compiled_; }
  // ZeRO (OneFlow's enable_zero): the graph's optimizers take this stage (1, 2 or 3;
  // optim::Optimizer::set_zero_stage) when it compiles, unless they already have it; 0 leaves
  // them as they are. An optimizer with another stage, or with state already (its stage is
  // set before its first step), makes the compile throw std::invalid_argument.
  void enable_zero(int stage);
  int zero_stage() const { return zero_stage_; }

 private:
  int steps_ = 1;
  bool fusion_ = true;
  int max_compiled_ = 8;
  int zero_stage_ = 0;
};

class Graph {
 public:
  Graph() = default;
  virtual ~Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // The step, run once on lazy tensors while compiling. Inputs are global.
  virtual std::vector<Var> build(const std::vector<Var>& inputs) = 0;

  // Runs the step on `inputs`, compiling it first for inputs with new metas. Inputs are all
  // global, or all local (a program that placed nothing): local ones, and local parameters
  // and optimizer state, run as global tensors of this rank alone (graph::as_global_here),
  // and the outputs come back local. std::invalid_argument for a mix.
  std::vector<Var> operator()(const std::vector<Var>& inputs);

  // The modules whose parameters the graph reads and updates (Python finds them among the
  // attributes); their parameters are named "<name>.<parameter name>" in the graph.
  template <typename M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> module) {
    modules_.emplace_back(name, module);
    return module;
  }
  GraphConfig& config() { return config_; }
  // Runs optimizer->step() after build, inside the graph, at every call.
  void add_optimizer(std::shared_ptr<optim::Optimizer> optimizer) { optimizers_.push_back(std::move(optimizer)); }

  // The last compiled plan (std::logic_error before the first call): its logical graph,
  // why each boxing node is there, Graphviz text, memory plan and compile figures.
  std::string str() const;
  std::string explain() const;
  void to_dot(const std::string& path) const;
  const graph::MemoryReport& memory_plan() const { return last().memory(); }
  const graph::CompileStats& compile_stats() const { return last().stats(); }
  // The graph as the compiler's passes leave it after the pass named `after` (passes.h).
  std::string debug_graph(const std::string& after = "") const { return last().debug_graph(after); }

 private:
  std::unique_ptr<graph::CompiledGraph> compile(const std::vector<Var>& inputs, bool local);
  const graph::CompiledGraph& last() const;
  // What build traces from the registered modules, so a plan is per value of it, as eager
  // code follows it between calls: each module's training mode (Dropout, BatchNorm's
  // statistics: model.eval()) and each parameter's requires_grad (which ones backward and the
  // optimizers update: a layer frozen for fine-tuning).
  std::string traced_state() const;

  std::vector<std::pair<std::string, std::shared_ptr<Module>>> modules_;
  std::vector<std::shared_ptr<optim::Optimizer>> optimizers_;
  GraphConfig config_;
  // By input metas and settings, most recently used first; at most config_.max_compiled().
  std::list<std::pair<std::string, std::unique_ptr<graph::CompiledGraph>>> compiled_;
  graph::CompiledGraph* last_ = nullptr;
};

}  // namespace mf::nn
