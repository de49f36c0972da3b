// Copyright 2026 The meshflow Authors.
// An op's definition, all in one place (CONCEPTS section 4): its shape and dtype rule
// (which also checks attributes), its valid 1-d SBP signatures for given input shapes
// (all-broadcast is implied and need not be listed), and its CPU kernel on local tensors.
// Each op family registers its ops in one file (elementwise.cc, matmul.cc, ...); registry.cc
// lists the families, so the set of ops is visible in one place. Every device type's kernel
// of an op is registered the same way (OpRegistry::add_kernel; the CPU's comes with the
// OpDef), and kernel_for finds it by the memory's device type index. Registered once, then
// read-only: thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/core/tensor.h"
#include "meshflow/ops/attrs.h"
#include "meshflow/placement/sbp.h"

namespace mf {

struct ChainProgram;  // ops/chain_program.h

// One hierarchy axis's SBP for every input and output.
struct Signature {
  std::vector<Sbp> inputs;
  std::vector<Sbp> outputs;
  bool operator==(const Signature& o) const { return inputs == o.inputs && outputs == o.outputs; }
  std::string str() const;  // "S(0), B -> S(0)"
};

// An N-d SBP for every input and output.
struct NdSignature {
  std::vector<NdSbp> inputs;
  std::vector<NdSbp> outputs;
  bool operator==(const NdSignature& o) const { return inputs == o.inputs && outputs == o.outputs; }
  std::string str() const;  // "(S(0), B), (B, S(1)) -> (S(0), S(1))"
};

// What a kernel knows beyond its local inputs: the attributes, the logical metas, and the
// region of each logical tensor this rank holds (the whole tensor when run locally), for
// kernels whose result depends on where their part lies (arange, random, embedding...).
//
// Outputs: a kernel takes output k's memory from output(k, ...), which is where the caller
// wants it when the caller gave it (graph mode's registers: the memory plan's slots) and new
// memory otherwise. A kernel may return something else instead (a view of an input); the
// caller then copies it where it wanted it.
struct KernelContext {
  const Attrs& attrs;
  const std::vector<TensorMeta>& inputs;
  const std::vector<Box>& input_boxes;
  const std::vector<TensorMeta>& outputs;
  const std::vector<Box>& output_boxes;
  // Per output, where the caller wants it: a tensor of its local shape and dtype, or
  // anything else (an empty tensor) for "new memory". Null: new memory for every output.
  const std::vector<Tensor>* given = nullptr;

  // Output k, of `shape` and `dtype`, in the memory format the call planned for it
  // (outputs[k].format): the given tensor when it is one of those, else new host memory (a
  // kernel for another device wraps the CPU's: device kernels see their own).
  Tensor output(size_t k, const Shape& shape, DType dtype) const {
    const MemoryFormat format = k < outputs.size() ? outputs[k].format : MemoryFormat::kContiguous;
    if (given && k < given->size()) {
      const Tensor& t = (*given)[k];
      if (t.nbytes() > 0 && t.shape() == shape && t.dtype() == dtype && t.format() == format) return t;
    }
    Tensor t = Tensor::empty(shape, dtype);
    return format == MemoryFormat::kContiguous ? t : t.with_format(format);
  }
};

// What a kernel call keeps from planning until it runs (KernelContext holds references
// into it): the eager VM's instructions and graph mode's tasks both hold one.
struct KernelCall {
  Attrs attrs;
  std::vector<TensorMeta> inputs;
  std::vector<Box> input_boxes;
  std::vector<TensorMeta> outputs;
  std::vector<Box> output_boxes;
  KernelContext context() const { return KernelContext{attrs, inputs, input_boxes, outputs, output_boxes}; }
};

// What an op's gradient sees: the call's attributes, inputs and outputs (detached), and one
// gradient per output (zeros where none arrived), of the output's shape, or, for an op whose
// grad_takes_broadcast, of a shape that broadcasts to it (autograd/var.h's broadcast
// gradients: a sum's, unexpanded). Global or local like the call.
struct GradContext {
  const Attrs& attrs;
  const std::vector<Var>& inputs;
  const std::vector<Var>& outputs;
  const std::vector<Var>& grad_outputs;
  // Whether input i wants a gradient; others may be left undefined.
  const std::vector<bool>& needs_grad;
};

using GradFn = std::function<std::vector<Var>(const GradContext& ctx)>;

// Local outputs (shapes ctx.output_boxes[i].extent) from local inputs.
using Kernel = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs, const KernelContext& ctx)>;

// An op's place in mf.autocast's lists (ops/functional.h, autocast_dtype).
enum class Autocast : uint8_t {
  kNone,           // runs as called: its inputs' dtypes, after promotion
  kLower,          // float32 inputs cast to the autocast dtype, as the result is (matmul, conv, attention)
  kFloat32,        // half inputs cast to float32, on every device type's list (losses, linalg)
  kFloat32OnCuda,  // the same under autocast("cuda") only (softmax, layer_norm, exp, log, sum, ...)
};

struct OpDef {
  std::string name;
  // Output metas from input metas; throws std::invalid_argument on bad input or attributes
  // (a missing or mistyped attribute's error gets the op's name from the dispatcher).
  std::function<std::vector<TensorMeta>(const std::vector<TensorMeta>& inputs, const Attrs& attrs)> infer;
  // Checks of a call as it was made, run before infer and before an op without kernels of
  // its own for the halves sees them widened to float32 ("Halves", below): what must hold of
  // the dtypes the caller gave (a number that must convert to float16: clamp's bounds, pad's
  // value). Null: infer checks everything.
  std::function<void(const std::vector<TensorMeta>& inputs, const Attrs& attrs)> check_given;
  // Valid 1-d signatures besides all-broadcast, in order of preference.
  std::function<std::vector<Signature>(const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& outputs,
                                       const Attrs& attrs)>
      signatures;
  // The kernel on host memory: the CPU's, which OpRegistry::add registers as the op's "cpu"
  // kernel (and a device type that runs host code adapts, OpRegistry::DeviceType::from_host).
  Kernel kernel;
  // Each device type's kernel by Memory::device_type_index (null or past the end: none),
  // filled by the registry and read by kernel_for. Empty for ops outside the registry (graph
  // mode's fused chains).
  std::vector<const Kernel*> kernels;
  // A fused chain's program (graph/fusion.h, ops/chain_program.h), on the ops graph mode
  // fuses for a device type that runs programs (OpRegistry::DeviceType::program): that
  // type's kernel of the op runs it. Null for every other op.
  std::shared_ptr<const ChainProgram> program;
  // Attributes that only the kernel reads (a random call's seed and offset): they are left
  // out of the SBP inference cache key, so calls that differ only in them share one plan.
  std::vector<std::string> kernel_only_attrs;
  // Whether the op's values come from the generator through the attributes "seed" and
  // "offset" (one next_random_call for its output's elements): a compiled graph then draws
  // them anew at every run after the first, as the eager step would.
  bool draws_random = false;
  // Whether the kernel can reject its data (an index out of range, an integer division by
  // zero): only the ranks whose part holds the bad value see it, so on global tensors every
  // rank then exchanges its verdict and all raise together. Any other exception in a
  // kernel is a bug and ends the job with its message.
  bool kernel_checks_data = false;
  // Whether the kernel's only output is its first input's local memory read in the output's
  // local shape (a reshape): graph mode then gives the output no register and no task, and
  // its consumers read the input's register in that shape.
  bool output_views_input = false;
  // Whether output element i depends only on element i of each input (with broadcasting):
  // every output has the inputs' broadcast shape, and the kernel takes its output shape from
  // its local inputs or ctx.output_boxes, never from where its part lies. Graph mode then
  // runs chains of such ops as one task, block of rows by block of rows (graph/fusion.h).
  bool elementwise = false;
  // Memory formats (core/tensor.h) of a local call in host memory (global tensors' parts and
  // other devices' tensors are row-major). Null: the kernel reads and writes row-major
  // tensors; the dispatcher converts channels-last inputs first, except for an elementwise op
  // (above), which runs on channels-last tensors as they lie where its broadcast operands
  // allow, its outputs in its largest input's format (ops/dispatch.cc, elementwise_format).
  // Else: the outputs' formats from the input metas (formats included)
  // and the output metas infer made; the kernel reads its inputs in whatever format they
  // come and writes output k in outputs[k].format (KernelContext::output makes it so).
  std::function<std::vector<MemoryFormat>(const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& outputs,
                                          const Attrs& attrs)>
      formats;
  // Whether the kernel's work is a few operations per element of its tensors, on the OpenMP
  // team only above kParallelGrain elements (reductions; elementwise ops are so without
  // it): op dispatch then runs it on the issuing thread up to that size (ops/dispatch.cc).
  bool linear_work = false;
  // Halves: whether the op has its own bfloat16 kernels on every device type (it moves the
  // elements, or computes with float32 accumulation inside: matmul, attention). An op without
  // them computes bfloat16 in float32, as PyTorch's CPU kernels do: the registry widens its
  // bfloat16 inputs (and dtype attributes) exactly to float32, runs the float32 kernel of the
  // tensors' device, and rounds its float32 results once, to nearest even, back to bfloat16
  // (results of other dtypes, and float32 ones where bfloat16 meets float16, stay as they
  // are). Its infer sees float32 the same way. One rule for eager, graph mode (fused chains
  // call the members' kernels) and every device type.
  bool bfloat16 = false;
  // Whether the op takes or makes bool tensors (its kernel visits them: visit_storage or
  // visit_with_bool). Registering an op without it makes its infer refuse them, naming the op.
  bool booleans = false;
  // The same for float16 (IEEE half): its own kernels, or computed in float32 and rounded.
  bool float16 = false;
  // Whether the op takes or makes uint8, int8 and int16 tensors (its kernel visits them:
  // visit_numbers, visit_with_bool or visit_storage). Registering an op without it makes its
  // infer refuse them, naming the op.
  bool small_ints = false;
  // Whether the op takes or makes complex64 and complex128 tensors (its kernel visits them:
  // visit_storage or visit_complex). Registering an op without it makes its infer refuse
  // them, naming the op and the dtype.
  bool complex = false;
  // Whether the op's values are complex on one side at least, always (an input or an output:
  // the FFTs, complex, real, view_as_real, ...), not merely allowed to be (`complex`, which it
  // implies). Only the CPU has complex arithmetic yet, so only the CPU has kernels for these
  // ops (a tensor of another device type raises "[op] has no kernel for device type ..."),
  // and real finite differences do not reach their gradients (tests/python/test_complex_fft.py
  // checks them against torch's): the tests of both coverages exempt the ops by this field.
  bool complex_only = false;
  // What mf.autocast does to a call of the op (torch's autocast op lists, which differ
  // between its CPU and CUDA device types).
  Autocast autocast = Autocast::kNone;
  // The inputs' gradients (undefined Var where none flows), written with meshflow ops
  // (ops/functional.h) so that on global tensors their SBPs are inferred like any call's.
  // Empty: the op is not differentiable and its outputs never require grad.
  GradFn grad;
  // Which values `grad` reads (PyTorch's saved tensors): backward refuses a call one of whose
  // read inputs or outputs was written in place since (Var::version, torch's "modified by an
  // inplace operation"). Shapes and dtypes do not count: add's and reshape's read nothing.
  struct GradReads {
    bool inputs = true;
    bool outputs = false;
    // Inputs (bit i: input i) whose values `grad` does not read though `inputs` is set:
    // embedding's weight, whose gradient reads only the indices and the weight's shape (as
    // torch's embedding, indexing and index_select), so a write to it before backward is fine.
    uint32_t unread_inputs = 0;
  };
  GradReads grad_reads;
  // Whether `grad` takes output gradients that only broadcast to the outputs' shapes (it is
  // written with ops that broadcast, and what it returns broadcasts to the inputs' shapes);
  // otherwise autograd expands them first (autograd/var.h, broadcast gradients). A gradient
  // may return broadcast gradients either way (sum's returns dy unexpanded).
  bool grad_takes_broadcast = false;
  // Whether an N-d signature combined from the listed ones is valid on `hierarchy`, for ops
  // whose listed signatures hold only for some shapes of the mesh (reshape carries a split
  // through a dim it cuts into several only where every rank's part lines up). Empty:
  // every combination is valid. The dispatcher never picks nor lists an invalid one.
  std::function<bool(const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& outputs,
                     const Attrs& attrs, const NdSignature& signature, const Shape& hierarchy)>
      valid_on;
};

// Throws std::invalid_argument("unknown op ...") when no op has that name.
// An op of the four parts every op has (and whether its kernel checks its data); the other
// fields are set on the result.
inline OpDef make_op(std::string name, decltype(OpDef::infer) infer, decltype(OpDef::signatures) signatures,
                     decltype(OpDef::kernel) kernel, bool kernel_checks_data = false) {
  OpDef op;
  op.name = std::move(name);
  op.infer = std::move(infer);
  op.signatures = std::move(signatures);
  op.kernel = std::move(kernel);
  op.kernel_checks_data = kernel_checks_data;
  return op;
}

const OpDef& find_op(const std::string& name);
std::vector<std::string> op_names();

// The op's kernel for tensors in `memory`: the one registered for its device type (looked
// up by index, no lock: the dispatcher's hot path). Where the type has none for the op, a
// kernel that raises "[op] has no kernel for device type ..." when called; throws that at
// once where no kernels of the type are registered at all. For ops of the registry (a
// kernel made for another op is kept by the op's address, for the life of the process).
const Kernel& kernel_for(const OpDef& op, const Memory& memory);
// The same, made anew and not kept: for ops that live shorter than the process (graph
// mode's fused chains), whose addresses are reused.
Kernel make_kernel_for(const OpDef& op, const Memory& memory);

// Whether `device_type` ("cpu", "cuda", ...) has a kernel of `op`, without touching a device:
// the check that every op runs on every device type built in.
bool has_kernel(const OpDef& op, const std::string& device_type);

// Whether tensors in `memory` are computed by host kernels: the CPU's, and a device type's
// that runs them on its memory (OpRegistry::DeviceType::from_host).
bool runs_host_kernels(const Memory& memory);

// How graph mode fuses chains of elementwise ops on tensors in `memory` (graph/fusion.h).
enum class FusedChains {
  kNone,        // it does not: a device type with neither of the below
  kHostLoops,   // host loops over blocks of rows: the CPU's
  kPrograms,    // chain programs (ops/chain_program.h): a type with DeviceType::program
};
FusedChains fused_chains(const Memory& memory);

// "[name] message": the prefix every op error carries.
[[noreturn]] void op_error(const std::string& op, const std::string& message);

}  // namespace mf
