// Copyright 2026 The meshflow Authors.
// Optimizers over Vars, local or global, with PyTorch's semantics (torch.optim.SGD and
// AdamW). Each parameter's update is one fused elementwise op (optimizer_ops.cc) on the
// parameter, its gradient and its state, which all share the parameter's placement and SBP
// (the autograd engine delivers gradients in that layout), so a step moves no data. The
// Python classes mf.optim.SGD / AdamW are these.
// Thread-safety: one thread at a time, like every op.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/ops/attrs.h"

namespace mf::optim {

class Optimizer {
 public:
  explicit Optimizer(std::vector<Var> params, double lr);
  virtual ~Optimizer() = default;

  // Updates every parameter that has a gradient, in place (Var::set_data), without
  // recording anything for autograd.
  virtual void step() = 0;
  // Drops the parameters' gradients (the next backward starts from none).
  void zero_grad();

  double lr() const { return lr_; }
  void set_lr(double lr) { lr_ = lr; }
  const std::vector<Var>& params() const { return params_; }
  // Per-parameter state tensors by name ("exp_avg", ...), for checkpoints; `step_count` is
  // the number of steps taken.
  virtual std::vector<std::map<std::string, Var>> state() const = 0;
  virtual void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) = 0;
  int64_t step_count() const { return steps_; }

  // For graph mode, which traces step() once and runs it many times. graph_state() creates
  // any state a first step would create (zeros) and returns every state slot, so that the
  // compiled graph reads and writes them like parameters. counters() / set_counters() are
  // the host-side step counts (saved around the trace), and count_step() advances them as
  // step() would, before each run; the learning rate and counts the update ops read are
  // taken anew at each run (ops/dispatch.h, RunTimeAttrs).
  virtual std::vector<Var*> graph_state() = 0;
  virtual std::vector<int64_t> counters() const { return {steps_}; }
  virtual void set_counters(const std::vector<int64_t>& counters) { steps_ = counters.at(0); }
  virtual void count_step() { ++steps_; }

 protected:
  std::vector<Var> params_;
  double lr_;
  int64_t steps_ = 0;
};

struct SgdOptions {
  double lr = 1e-3;
  double momentum = 0;
  double dampening = 0;
  double weight_decay = 0;
  bool nesterov = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Var> params, SgdOptions options);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;

 private:
  Attrs update_attrs(bool has_buf) const;

  SgdOptions options_;
  std::vector<Var> momentum_;  // per parameter; undefined until its first step
};

struct AdamWOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 1e-2;
};

class AdamW : public Optimizer {
 public:
  AdamW(std::vector<Var> params, AdamWOptions options);
  void step() override;
  std::vector<std::map<std::string, Var>> state() const override;
  void load_state(const std::vector<std::map<std::string, Var>>& state, int64_t step_count) override;
  std::vector<Var*> graph_state() override;
  std::vector<int64_t> counters() const override;
  void set_counters(const std::vector<int64_t>& counters) override;
  void count_step() override;

 private:
  Attrs update_attrs(size_t i) const;

  AdamWOptions options_;
  std::vector<Var> exp_avg_, exp_avg_sq_;  // per parameter; undefined until its first step
  std::vector<int64_t> param_steps_;       // per parameter: the steps it took (bias correction)
};

// Scales every gradient by min(1, max_norm / total_norm), where total_norm is the 2-norm of
// all gradients together (over every shard of every parameter); returns total_norm.
double clip_grad_norm(const std::vector<Var>& params, double max_norm);

// clip_grad_norm for graph mode (while a graph is traced): the norm stays a tensor and the
// scale min(1, max_norm / total_norm) is applied with ops; returns total_norm, a global
// scalar. The gradients must be global and on one placement.
Var clip_grad_norm_traced(const std::vector<Var>& params, double max_norm);

// Linear warmup from 0 to max_lr over `warmup` steps, then cosine decay to min_lr at `total`
// steps (min_lr after).
double warmup_cosine_lr(int64_t step, int64_t warmup, int64_t total, double max_lr, double min_lr);

}  // namespace mf::optim
