// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/graph.h"

#include <fstream>
#include <stdexcept>

namespace mf::nn {
namespace {

// The inputs' metas, which select a compiled plan.
std::string key_of(const std::vector<Var>& inputs) {
  std::string key;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].is_global()) {
      throw std::invalid_argument("graph input " + std::to_string(i) +
                                  " must be a global tensor (graph mode runs on placements and SBP), got " +
                                  (inputs[i].defined() ? "a local tensor" : "an undefined Var"));
    }
    const GlobalTensor& t = inputs[i].global();
    key += to_string(t.shape()) + dtype_name(t.dtype()) + t.layout().str() + ";";
  }
  return key;
}

}  // namespace

void GraphConfig::set_gradient_accumulation_steps(int steps) {
  if (steps < 1) throw std::invalid_argument("gradient accumulation steps must be >= 1, got " + std::to_string(steps));
  steps_ = steps;
}

std::vector<Var> Graph::operator()(const std::vector<Var>& inputs) {
  const std::string key =
      key_of(inputs) + std::to_string(config_.gradient_accumulation_steps()) + (config_.fusion() ? "f" : "");
  auto it = compiled_.find(key);
  if (it == compiled_.end()) it = compiled_.emplace(key, compile(inputs)).first;
  last_ = it->second.get();
  return last_->run(inputs);
}

std::unique_ptr<graph::CompiledGraph> Graph::compile(const std::vector<Var>& inputs) {
  graph::Tracer tracer;
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
