// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/logical_graph.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "meshflow/comm/comm.h"
#include "meshflow/ops/autocast_cache.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/in_place.h"
#include "meshflow/ops/op.h"

namespace mf::graph {
namespace {

// The error a lazy tensor's storage carries: reading it raises this.
struct LazyTensorError : std::logic_error {
  LazyTensorError()
      : std::logic_error(
            "this tensor is lazy: it was made while a graph's build was traced and holds no value; return it from "
            "build and read the graph's result instead") {}
};

std::string value_name(int v) { return "%" + std::to_string(v); }

std::string meta_str(const Value& v) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v.shape.size(); ++i) s << (i ? ", " : "") << v.shape[i];
  s << "] " << dtype_name(v.dtype);
  return s.str();
}

}  // namespace

void LogicalGraph::renumber_producers() {
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (size_t k = 0; k < nodes[n].outputs.size(); ++k) {
      values[nodes[n].outputs[k]].producer = static_cast<int>(n);
      values[nodes[n].outputs[k]].index = static_cast<int>(k);
    }
  }
}

std::string LogicalGraph::str() const {
  std::ostringstream s;
  for (const Node& node : nodes) {
    s << "  ";
    for (size_t i = 0; i < node.outputs.size(); ++i) s << (i ? ", " : "") << value_name(node.outputs[i]);
    s << " = " << node.name << "(";
    for (size_t i = 0; i < node.inputs.size(); ++i) s << (i ? ", " : "") << value_name(node.inputs[i]);
    s << ")";
    if (node.kind == NodeKind::kInput) s << "  " << values[node.outputs[0]].layout.str();
    if (node.kind == NodeKind::kOp) s << "  " << node.signature.str();
    if (node.kind == NodeKind::kBoxing) {
      s << "  -> " << node.to->str() << (node.user ? " (user)" : "") << (node.zero == ZeroRole::kGather   ? " (ZeRO gather)"
                                                      : node.zero == ZeroRole::kReduce ? " (ZeRO reduce)"
                                                                                       : "");
      if (node.plan) {
        s << ": ";
        if (node.plan->steps.empty()) s << "no data moves";
        for (size_t i = 0; i < node.plan->steps.size(); ++i) {
          s << (i ? ", " : "") << boxing::step_kind_name(node.plan->steps[i].kind);
        }
        s << ", " << node.plan->cost << " bytes";
      }
    }
    s << "  " << meta_str(values[node.outputs[0]]);
    if (node.recomputes >= 0) s << "  (recomputes " << value_name(node.recomputes) << ")";
    s << "\n";
  }
  return s.str();
}

bool Tracer::is_lazy(const Tensor& t) {
  if (!t.is_ready()) return false;
  const std::exception_ptr e = t.storage()->error();
  if (!e) return false;
  try {
    std::rethrow_exception(e);
  } catch (const LazyTensorError&) {
    return true;
  } catch (...) {
    return false;
  }
}

Tracer::Tracer() = default;

Tracer::~Tracer() { restore(); }

Tracer::Scope::Scope(Tracer& tracer) : previous_op_(op_tracer()), previous_conversion_(conversion_tracer()) {
  set_op_tracer(&tracer);
  set_conversion_tracer(&tracer);
}

Tracer::Scope::~Scope() {
  drop_autocast_casts_of(op_tracer());  // lazy values of this tracing
  set_op_tracer(previous_op_);
  set_conversion_tracer(previous_conversion_);
}

void Tracer::add_variable(VariableSlot slot) {
  if (graph_.local && slot.get().defined() && !slot.get().is_global()) {
    // Module code computes on the variable itself while tracing: it holds the global view
    // until restore() writes back the local value.
    slot.set(as_global_here(slot.get()));
    slot = {slot.name, [get = slot.get] { return as_global_here(get()); },
            [set = slot.set](const Var& value) { set(value.is_global() ? Var(value.global().local()) : value); }};
  }
  const Var current = slot.get();
  if (!current.defined() || !current.is_global()) {
    throw std::invalid_argument("graph: variable '" + slot.name +
                                "' is not a global tensor; graph mode runs on global tensors (module.to_global)");
  }
  const int index = static_cast<int>(graph_.variables.size());
  variable_originals_.push_back(current.detach());  // the value, not the handle
  graph_.variable_values.push_back(add_input(current.global(), InputKind::kVariable, index, slot.name, true));
  graph_.variables.push_back(std::move(slot));
}

void Tracer::add_parameter(const Var& parameter, const std::string& name) {
  if (std::find(parameters_.begin(), parameters_.end(), parameter.id()) != parameters_.end()) return;
  parameters_.push_back(parameter.id());
  add_variable({name, [parameter] { return parameter; },
                [parameter](const Var& value) {
                  Var p = parameter;
                  p.set_data(value);
                }});
  if (const std::optional<boxing::Layout> use = parameter.use_layout()) {
    use_layouts_.emplace(graph_.variable_values.back(), *use);
  }
  // A step's backward starts from no gradient, whatever eager code left in .grad: traced on
  // top of it, the stale gradient would be a constant added at every run.
  const Var grad = parameter.grad();
  Var(parameter).set_grad(Var());
  add_bookkeeping(
      [parameter, grad] {
        Var p = parameter;
        p.set_grad(grad);
      },
      [] {});
}

void Tracer::add_optimizer(optim::Optimizer& optimizer) {
  graph_.zero_stage = std::max(graph_.zero_stage, optimizer.zero_stage());
  const std::vector<Var>& params = optimizer.params();
  for (const Var& p : params) {
    if (optimizer.zero_stage() > 0) zero_gradients_[p.id()] = optimizer.zero_stage();
  }
  for (size_t i = 0; i < params.size(); ++i) add_parameter(params[i], "param " + std::to_string(i));
  const std::vector<Var*> slots = optimizer.graph_state();
  for (size_t i = 0; i < slots.size(); ++i) {
    Var* slot = slots[i];
    add_variable({"optimizer state " + std::to_string(i), [slot] { return *slot; },
                  [slot](const Var& value) { *slot = value; }});
  }
  const std::vector<int64_t> counters = optimizer.counters();
  add_bookkeeping([&optimizer, counters] { optimizer.set_counters(counters); }, [&optimizer] { optimizer.count_step(); });
}

void Tracer::add_bookkeeping(std::function<void()> restore, std::function<void()> before_run) {
  restores_.push_back(std::move(restore));
  graph_.before_run.push_back(std::move(before_run));
}

void Tracer::set_micro_batches(int m) {
  if (m < 1) throw std::invalid_argument("graph: gradient accumulation steps must be >= 1, got " + std::to_string(m));
  if (!graph_.arguments.empty()) throw std::logic_error("graph: set_micro_batches after an argument");
  graph_.micro_batches = m;
}

Var Tracer::argument(const Var& example) {
  if (!example.defined() || !example.is_global()) {
    throw std::invalid_argument("graph: argument " + std::to_string(graph_.arguments.size()) +
                                " is not a global tensor; graph mode runs on global tensors (to_global first)");
  }
  const int index = static_cast<int>(graph_.arguments.size());
  GlobalTensor meta = example.global();
  if (const int m = graph_.micro_batches; m > 1) {
    // One micro-batch: dim 0 of every rank's part cut into m equal runs of rows.
    std::string error;
    Shape shape = meta.shape();
    if (shape.empty() || shape[0] % m != 0) {
      error = "has shape " + to_string(shape) + ", whose dim 0 cannot be cut into " + std::to_string(m) + " micro-batches";
    } else {
      shape[0] /= m;
      const Shape whole = meta.local().shape(), part = local_meta(shape, meta.dtype(), meta.layout()).shape;
      Shape expected = part;
      if (!expected.empty()) expected[0] *= m;
      if (whole != expected) {
        error = "has the local part " + to_string(whole) + " on rank " + std::to_string(comm::world_rank()) +
                ", which does not cut into " + std::to_string(m) + " micro-batches of " + to_string(part) +
                " (dim 0 must split evenly on every rank)";
      } else {
        meta = GlobalTensor(shape, meta.placement(), meta.nd_sbp(), meta.local().view(0, part));
      }
    }
    comm::agree(error.empty() ? "" : "graph: argument " + std::to_string(index) + " " + error, 0, "[graph]");
  }
  const int id = add_input(meta, InputKind::kArgument, index, "argument " + std::to_string(index), false);
  graph_.arguments.push_back(id);
  return Var(lazy(id));
}

int Tracer::add_input(const GlobalTensor& t, InputKind kind, int index, const std::string& name, bool bind) {
  graph_.values.push_back(Value{t.shape(), t.dtype(), t.layout(), static_cast<int>(graph_.nodes.size()), 0});
  const int id = static_cast<int>(graph_.values.size()) - 1;
  Node node{NodeKind::kInput, name, {}, {id}};
  node.input_kind = kind;
  node.input_index = index;
  graph_.nodes.push_back(std::move(node));
  if (bind) {
    value_ids_[t.local().storage().get()] = id;
    storages_.push_back(t.local().storage());
  }
  return id;
}

std::optional<Placement> Tracer::home_placement() const {
  for (const std::vector<int>* ids : {&graph_.arguments, &graph_.variable_values}) {
    if (ids->empty()) continue;
    const Placement& home = graph_.values[ids->front()].layout.placement;
    for (int v : *ids) {
      if (graph_.values[v].layout.placement != home) return std::nullopt;
    }
    return home;
  }
  return std::nullopt;
}

int Tracer::value_of(const GlobalTensor& t) {
  auto it = value_ids_.find(t.local().storage().get());
  if (it != value_ids_.end()) return it->second;
  if (is_lazy(t.local())) {
    throw std::invalid_argument(
        "graph: a lazy tensor from another trace (or from a local tensor taken inside build) was used; graph mode "
        "runs global ops on the tensors build receives and makes");
  }
  const int index = static_cast<int>(graph_.constants.size());
  graph_.constants.push_back(t);
  return add_input(t, InputKind::kConstant, index, "constant " + std::to_string(index), true);
}

namespace {

// A random op's attributes at each run: the traced call for the first (tracing drew it from
// the generator, as the first eager step would have), then a new call each time, drawn in
// node order, which is the order of the traced (eager) program.
std::shared_ptr<const AttrsSource> random_attrs(const Attrs& traced, const Shape& shape) {
  auto first = std::make_shared<bool>(true);
  return std::make_shared<const AttrsSource>([traced, numel = numel(shape), first] {
    if (std::exchange(*first, false)) return traced;
    const RandomCall call = next_random_call(numel);
    Attrs attrs = traced;
    attrs.set("seed", call.seed);
    attrs.set("offset", call.offset);
    return attrs;
  });
}

}  // namespace

GlobalTensor Tracer::lazy(int value) {
  const Value& v = graph_.values[value];
  const TensorMeta local = local_meta(v.shape, v.dtype, v.layout);
  Tensor t = Tensor::pending(local.shape, local.dtype, v.layout.placement.memory());  // where its value would live
  t.storage()->fail(std::make_exception_ptr(LazyTensorError()), nullptr, nullptr);
  value_ids_[t.storage().get()] = value;
  storages_.push_back(t.storage());
  return GlobalTensor(v.shape, v.layout.placement, v.layout.nd_sbp, t);
}

std::vector<GlobalTensor> Tracer::trace_op(const OpDef& op, const std::vector<GlobalTensor>& inputs,
                                           const Attrs& attrs, const Constraints& constraints, const OpPlan& plan) {
  Node node{NodeKind::kOp, op.name, {}, {}};
  for (const GlobalTensor& t : inputs) node.inputs.push_back(value_of(t));
  node.op = &op;
  node.attrs = attrs;
  node.constraints = constraints;
  if (const std::vector<int>* overwrite = InPlaceUpdate::of(op)) node.overwrite = *overwrite;
  node.run_time_attrs = RunTimeAttrs::current();
  if (op.draws_random && !node.run_time_attrs) node.run_time_attrs = random_attrs(attrs, plan.outputs[0].shape);
  node.signature = plan.signature;
  tag(node);
  const Placement& placement = inputs.empty() ? *constraints.placement : inputs[0].placement();
  const int id = static_cast<int>(graph_.nodes.size());
  std::vector<GlobalTensor> results;
  for (size_t i = 0; i < plan.outputs.size(); ++i) {
    graph_.values.push_back(Value{plan.outputs[i].shape, plan.outputs[i].dtype,
                                  {placement, plan.signature.outputs[i]}, id, static_cast<int>(i)});
    node.outputs.push_back(static_cast<int>(graph_.values.size()) - 1);
  }
  graph_.nodes.push_back(std::move(node));
  for (int v : graph_.nodes[id].outputs) results.push_back(lazy(v));
  return results;
}

GlobalTensor Tracer::trace_conversion(const GlobalTensor& t, const boxing::Layout& to, bool user) {
  Node node{NodeKind::kBoxing, "to_global", {value_of(t)}, {}};
  node.to = to;
  node.user = user;
  const auto use = use_layouts_.find(node.inputs[0]);
  if (!user && use != use_layouts_.end() && use->second == to) node.zero = ZeroRole::kGather;
  tag(node);
  const int id = static_cast<int>(graph_.nodes.size());
  graph_.values.push_back(Value{t.shape(), t.dtype(), to, id, 0});
  node.outputs.push_back(static_cast<int>(graph_.values.size()) - 1);
  graph_.nodes.push_back(std::move(node));
  return lazy(graph_.nodes[id].outputs[0]);
}

GlobalTensor Tracer::trace_accumulate(const GlobalTensor& a, const GlobalTensor& b) {
  const OpDef& add = find_op("add");
  const std::shared_ptr<const OpPlan> plan = plan_op(
      add, {{a.shape(), a.dtype()}, {b.shape(), b.dtype()}}, {a.nd_sbp(), b.nd_sbp()}, a.placement(), {}, {});
  return trace_op(add, {a, b}, {}, {}, *plan)[0];
}

void Tracer::begin_checkpoint(Recompute mode) {
  if (checkpoint_depth_++ > 0) return;
  open_checkpoint_ = static_cast<int>(graph_.checkpoints.size());
  graph_.checkpoints.push_back(mode);
}

void Tracer::end_checkpoint() {
  if (checkpoint_depth_ == 0) throw std::logic_error("graph: end_checkpoint without begin_checkpoint");
  if (--checkpoint_depth_ == 0) open_checkpoint_ = -1;
}

void Tracer::tag(Node& node) const {
  node.no_grad = !grad_enabled();
  node.checkpoint = node.no_grad ? -1 : open_checkpoint_;
}

void Tracer::trace_leaf_gradient(const void* leaf, const GlobalTensor& grad) {
  int v = value_of(grad);
  // Under ZeRO the reduction into the gradient's layout is a constraint. At stage 1 (the
  // parameter's own layout) the gradient is what it reduces, so that with micro-batches it
  // reduces once, their mean; at stages 2 and 3 it is the shard, reduced per micro-batch and
  // accumulated as shards.
  const auto zero = zero_gradients_.find(leaf);
  Node& producer = graph_.nodes[graph_.values[v].producer];
  if (zero != zero_gradients_.end() && producer.kind == NodeKind::kBoxing && !producer.user) {
    producer.zero = ZeroRole::kReduce;
    if (zero->second == 1) v = producer.inputs[0];
  }
  leaf_gradients_[leaf] = v;
}

LogicalGraph Tracer::finish(const std::vector<Var>& outputs) {
  for (const auto& [leaf, v] : leaf_gradients_) graph_.gradients.push_back(v);
  std::sort(graph_.gradients.begin(), graph_.gradients.end());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined() || !outputs[i].is_global()) {
      throw std::invalid_argument("graph: output " + std::to_string(i) + " of build is not a global tensor");
    }
    graph_.outputs.push_back(value_of(outputs[i].global()));
  }
  for (size_t i = 0; i < graph_.variables.size(); ++i) {
    const Var now = graph_.variables[i].get();
    const int v = value_of(now.global());
    if (v != graph_.variable_values[i]) graph_.writes.emplace_back(static_cast<int>(i), v);
  }
  restore();
  return std::move(graph_);
}

void Tracer::restore() {
  if (finished_) return;
  finished_ = true;
  for (size_t i = 0; i < variable_originals_.size(); ++i) graph_.variables[i].set(variable_originals_[i]);
  for (auto& r : restores_) r();
}

}  // namespace mf::graph
