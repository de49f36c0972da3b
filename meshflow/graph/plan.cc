// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/plan.h"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "meshflow/boxing/execute.h"
#include "meshflow/ops/op.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {

Tensor RankPlan::input_of(const Ref& r, int at) const {
  Tensor t;
  switch (r.kind) {
    case Ref::kRegister: {
      const Register& reg = registers[r.index];
      t = reg.persistent ? reg.value : reg.slot(at);
      break;
    }
    case Ref::kBound:
      t = argument_pieces[r.index].empty() ? bound[r.index] : argument_pieces[r.index][at];
      break;
    case Ref::kFixed:
      t = fixed[r.index];
      break;
    case Ref::kAccumulator:
      t = accumulators[r.index];
      break;
  }
  return r.view ? t.view(0, *r.view) : t;
}

bool RankPlan::in_arena(const Tensor& t) const {
  if (!arena || t.nbytes() == 0) return false;
  const char* p = static_cast<const char*>(t.data());
  const char* base = static_cast<const char*>(arena.get());
  return p >= base && p < base + arena_bytes;
}

void RankPlan::store(const Task& task, std::vector<Tensor>& outs, int at) {
  for (size_t k = 0; k < outs.size(); ++k) {
    const Register& reg = registers[task.outputs[k]];
    const bool in_place = !reg.persistent && (reg.slot(at).nbytes() == 0 || outs[k].data() == reg.slot(at).data());
    if (!in_place && in_arena(outs[k])) outs[k] = outs[k].clone();  // before any slot is overwritten
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    Register& reg = registers[task.outputs[k]];
    if (reg.persistent) {
      reg.value = outs[k];
    } else if (reg.slot(at).nbytes() && outs[k].data() != reg.slot(at).data()) {
      memory().copy_within(reg.slot(at).data(), outs[k].data(), reg.slot(at).nbytes());
    }
  }
}

// acc = x at the first micro-batch, acc += x at the others, acc *= 1/m after the last,
// with the add and mul_scalar ops' kernels for the graph's device, writing into acc
// (elementwise on operands of one shape: element i reads only element i).
void RankPlan::accumulate(Tensor& acc, const Tensor& x, int at) const {
  if (!is_floating(x.dtype())) {
    throw std::invalid_argument("graph: gradient accumulation averages floating values; a " +
                                std::string(dtype_name(x.dtype())) + " value crosses from the micro-batches");
  }
  if (at == 0) {
    memory().copy_within(acc.data(), x.data(), acc.nbytes());
  } else {
    run_into(acc, *add_kernel, {acc, x}, {});
  }
  if (at == micro_batches - 1) run_into(acc, *scale_kernel, {acc}, Attrs{{"value", 1.0 / micro_batches}});
}

// A local kernel call on whole tensors of acc's shape, its result written into acc (copied
// there if the kernel put it elsewhere).
void RankPlan::run_into(const Tensor& acc, const Kernel& kernel, const std::vector<Tensor>& in, const Attrs& attrs) const {
  std::vector<TensorMeta> metas;
  std::vector<Box> boxes;
  for (const Tensor& t : in) {
    metas.push_back({t.shape(), t.dtype()});
    boxes.push_back(Box::whole(t.shape()));
  }
  const std::vector<TensorMeta> outputs{metas[0]};
  const std::vector<Box> output_boxes{boxes[0]};
  const std::vector<Tensor> given{acc};
  KernelContext ctx{attrs, metas, boxes, outputs, output_boxes};
  ctx.given = &given;
  const Tensor out = kernel(in, ctx)[0];
  if (out.data() != acc.data()) memory().copy_within(acc.data(), out.data(), acc.nbytes());
}

void RankPlan::bind_donations(bool release) {
  std::unordered_map<const Storage*, int> uses;  // bound inputs over each storage
  bool donates = false;
  for (const Register& reg : registers) donates = donates || reg.donor >= 0;
  if (!donates) return;
  if (release) {
    for (Register& reg : registers) reg.donated = Tensor();
    return;
  }
  for (const Tensor& t : bound) {
    if (t.storage()) uses[t.storage().get()] += 1;
  }
  // Eager ops issued before the call may still read a variable (the VM runs them behind the
  // user's thread); errors they raise stay for the next synchronizing call.
  device->synchronize();
  if (&vm::device() != device) vm::device().synchronize();
  for (Register& reg : registers) {
    if (reg.donor < 0) continue;
    const Tensor& old = bound[reg.donor];
    reg.donated = old.storage() && uses[old.storage().get()] == 1 ? old : Tensor();
  }
}

void RankPlan::act(int t, int64_t system_piece) {
  const int at = pipelined ? static_cast<int>(system_piece) : piece;
  const Task& task = tasks[t];
  const Node& node = graph.nodes[task.node];
  if (task.accumulator >= 0) {
    accumulate(accumulators[task.accumulator], input_of(task.inputs[0], at), at);
    return;
  }
  std::vector<Tensor> in;
  in.reserve(task.inputs.size());
  for (const Ref& r : task.inputs) in.push_back(input_of(r, at));
  // Results go straight into their registers' slots (for registers that outlive the run:
  // the memory donated to them, else what the kernel makes); store() copies what went
  // elsewhere.
  std::vector<Tensor> given;
  given.reserve(task.outputs.size());
  for (int r : task.outputs) given.push_back(registers[r].persistent ? registers[r].donated : registers[r].slot(at));
  std::vector<Tensor> outs;
  if (node.kind == NodeKind::kOp) {
    const KernelCall& call = task.piece_calls.empty() ? *task.call : *task.piece_calls[at];
    KernelContext ctx = call.context();
    ctx.given = &given;
    try {
      outs = task.kernel(in, ctx);
    } catch (const std::exception& e) {
      // Results of the right sizes (zeros; slots keep what they hold), so that the acts
      // after it still move what the other ranks expect; the error is raised after the run.
      for (int r : task.outputs) {
        if (registers[r].persistent) {
          registers[r].value = Tensor::zeros(registers[r].meta.shape, registers[r].meta.dtype, memory());
        }
      }
      const std::string what = e.what();
      if (what.rfind("[" + node.name + "]", 0) == 0) throw;
      op_error(node.name, what);
    }
  } else {
    const Value& v = graph.values[node.outputs[0]];
    outs.push_back(boxing::execute(*node.plan, v.shape, in[0], task.lane_id, &given[0]));
  }
  store(task, outs, at);
}

}  // namespace mf::graph
