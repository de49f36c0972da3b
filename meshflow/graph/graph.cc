// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/graph.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "meshflow/ops/functional.h"

namespace mf::nn {
namespace {

// The inputs' metas, which select a compiled plan.
std::string key_of(const std::vector<Var>& inputs) {
  std::string key;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) {
      throw std::invalid_argument("graph input " + std::to_string(i) +
                                  " must be a tensor; got an undefined Var");
    }
    const GlobalTensor& t = inputs[i].global();
    key += to_string(t.shape()) + dtype_name(t.dtype()) + t.layout().str() + ";";
  }
  return key;
}

}  // namespace

void GraphConfig::set_max_compiled(int n) {
  if (n < 1) throw std::invalid_argument("set_max_compiled takes an int >= 1, got " + std::to_string(n));
  max_compiled_ = n;
}

void GraphConfig::enable_zero(int stage) {
  if (stage < 0 || stage > 3) throw std::invalid_argument("enable_zero takes stage 0, 1, 2 or 3, got " + std::to_string(stage));
  zero_stage_ = stage;
}

void GraphConfig::set_gradient_accumulation_steps(int steps) {
  if (steps < 1) throw std::invalid_argument("gradient accumulation steps must be >= 1, got " + std::to_string(steps));
  steps_ = steps;
}

std::vector<Var> Graph::operator()(const std::vector<Var>& given) {
  // Local inputs (a program that placed nothing) run as global tensors of this rank alone,
  // and their outputs come back local.
  const bool local = !given.empty() && std::none_of(given.begin(), given.end(), [](const Var& v) {
    return v.defined() && v.is_global();
  });
  std::vector<Var> inputs;
  for (const Var& v : given) inputs.push_back(local ? as_global_here(v) : v);
  if (!local) inputs = with_local_arguments_replicated(inputs);
  const std::string key = key_of(inputs) + std::to_string(config_.gradient_accumulation_steps()) +
                          (config_.fusion() ? "f" : "") + (local ? "L" : "") + traced_state() + "z" +
                          std::to_string(config_.zero_stage());
  auto it = std::find_if(compiled_.begin(), compiled_.end(), [&](const auto& c) { return c.first == key; });
  if (it != compiled_.end()) {
    compiled_.splice(compiled_.begin(), compiled_, it);  // most recently used first
  } else {
    compiled_.emplace_front(key, compile(inputs, local));
    while (static_cast<int>(compiled_.size()) > config_.max_compiled()) compiled_.pop_back();
  }
  last_ = compiled_.front().second.get();
  std::vector<Var> outputs = last_->run(inputs);
  if (local) {
    for (Var& o : outputs) o = Var(o.global().local());
  }
  return outputs;
}

std::string Graph::traced_state() const {
  std::string state = ";";
  for (const auto& [name, module] : modules_) {
    for (const auto& [sub, m] : std::as_const(*module).named_modules()) state += m->is_training() ? "T" : "E";
    for (const Var& p : module->parameters()) state += p.requires_grad() ? "G" : "N";
  }
  return state;
}

std::unique_ptr<graph::CompiledGraph> Graph::compile(const std::vector<Var>& inputs, bool local) {
  for (const auto& opt : optimizers_) optim::take_zero_stage(*opt, config_.zero_stage(), "config.enable_zero");
  graph::Tracer tracer;
  tracer.set_local(local);
  tracer.set_micro_batches(config_.gradient_accumulation_steps());
  tracer.set_fusion(config_.fusion());
  for (const auto& [name, module] : modules_) {
    for (const auto& [pname, p] : module->named_parameters()) tracer.add_parameter(p, name + "." + pname);
  }
  for (const auto& opt : optimizers_) tracer.add_optimizer(*opt);
  std::vector<Var> lazy;
  for (const Var& v : inputs) lazy.push_back(tracer.argument(v));
  std::vector<Var> outputs;
  try {
    graph::Tracer::Scope scope(tracer);
    outputs = build(lazy);
    for (const auto& opt : optimizers_) opt->step();
  } catch (...) {
    tracer.abandon();
    throw;
  }
  return std::make_unique<graph::CompiledGraph>(tracer.finish(outputs));
}

const graph::CompiledGraph& Graph::last() const {
  if (!last_) throw std::logic_error("the graph has not been compiled yet: call it once first");
  return *last_;
}

std::string Graph::str() const { return last_ ? last_->str() : "(not compiled yet)"; }
std::string Graph::explain() const { return last().explain(); }

void Graph::to_dot(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw std::invalid_argument("to_dot: cannot write " + path);
  out << last().dot();
}

}  // namespace mf::nn
