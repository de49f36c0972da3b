// Copyright 2026 The meshflow Authors.
// Running ops on local and global tensors (CONCEPTS section 4).
//
// A global op call is split in two: planning, a pure function of the call's key (op,
// attributes, each input's shape, dtype and N-d SBP, the placement, the constraints) that
// infers the output metas, picks the N-d signature and plans each input's boxing, cached
// under that key; and execution on this rank, which boxes the inputs and runs the kernel.
// The eager VM turns execution into instructions without changing ops or planning.
//
// Choosing the signature: the candidates are the direct product over hierarchy axes of the
// op's 1-d signatures (all-broadcast appended), searched exhaustively; those that split a
// dim out of range, that the op's valid_on rejects for the hierarchy, contradict a
// constraint, or would box an input into partial are dropped. (Boxing into P costs no
// bytes, so without that rule S(0) + S(1) would become P + P -> P, whose consumers must
// then reduce; CONCEPTS section 4's example expects S(0).) Each is ranked by: the bytes
// boxing its inputs would cost (boxing's cost model; B -> S(k) is free), then how many
// inputs it takes as they are (more first), then the bytes of its outputs on one rank, then
// listed order. (CONCEPTS lists output memory before kept inputs; that order turns relu of a
// B tensor into S(0), which costs an all-gather at the next consumer that needs B.)
//
// Thread-safety: the cache is locked; execution drives the communicators, so one thread
// at a time.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/boxing/plan.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/ops/op.h"

namespace mf {

struct Constraints {
  // Where outputs live when the op has no inputs (creation ops).
  std::optional<Placement> placement;
  // The N-d SBP each output must have (empty, or one optional per output).
  std::vector<std::optional<NdSbp>> outputs;
  // Force this exact signature (for tests); it must be valid.
  std::optional<NdSignature> signature;

  bool operator==(const Constraints& o) const {
    return placement == o.placement && outputs == o.outputs && signature == o.signature;
  }
};

// What planning decided for one call key.
struct OpPlan {
  NdSignature signature;
  std::vector<TensorMeta> outputs;
  std::vector<std::shared_ptr<const boxing::Plan>> input_plans;
  int64_t cost = 0;  // bytes, the sum of the input plans' costs
};

// `overwrite`: an in-place update (vm::Flags::overwrite), output k written over input
// overwrite[k]'s memory (a global input: its local part, unless boxing converts it); the
// op's kernel must be elementwise. Empty: every output in new memory. `own`: a rank's own
// op, whose out of memory at issue raises at the call (vm::Flags::raise_at_issue); false
// for one on the local parts of global tensors (the sum of their gradients), whose ranks
// must fail alike: its outputs fail instead, raised at the next read.
std::vector<Tensor> apply_local(const OpDef& op, std::vector<Tensor> inputs, const Attrs& attrs,
                                const std::vector<int>& overwrite = {}, bool own = true);
// `t` in `format` (core/tensor.h), issued as the to_memory_format op: itself when it is in it.
// A tensor outside host memory stays row-major.
Tensor to_memory_format(const Tensor& t, MemoryFormat format);
std::vector<GlobalTensor> apply_global(const OpDef& op, const std::vector<GlobalTensor>& inputs, const Attrs& attrs,
                                       const Constraints& constraints = {}, const std::vector<int>& overwrite = {});

// Planning alone (cached; set_plan_cache_capacity). `placement` is the inputs' placement.
std::shared_ptr<const OpPlan> plan_op(const OpDef& op, const std::vector<TensorMeta>& inputs, const std::vector<NdSbp>& input_sbps,
                      const Placement& placement, const Attrs& attrs, const Constraints& constraints);
// Every valid N-d signature on a mesh of shape `hierarchy`, in listed order.
std::vector<NdSignature> valid_nd_signatures(const OpDef& op, const std::vector<TensorMeta>& inputs,
                                             const Attrs& attrs, const Shape& hierarchy);

// While alive, errors that kernels issued by this thread find in their data (raised later,
// when the kernel runs) are restated by `restate`, so that a composite op reports them in
// its own terms (cross_entropy's targets are gather's indices).
class DataErrorRestatement {
 public:
  explicit DataErrorRestatement(std::function<std::string(const std::string&)> restate);
  ~DataErrorRestatement();
  DataErrorRestatement(const DataErrorRestatement&) = delete;
  DataErrorRestatement& operator=(const DataErrorRestatement&) = delete;

 private:
  std::shared_ptr<const std::function<std::string(const std::string&)>> previous_;
};

// Graph mode's tracing hook (graph/tracer.h installs one while a graph's build is traced):
// while one is installed on this thread, apply_global plans the call as always (so bad
// arguments raise at the call) and hands it to the tracer, which records it and returns
// lazy outputs, instead of running it.
class OpTracer {
 public:
  virtual ~OpTracer() = default;
  virtual std::vector<GlobalTensor> trace_op(const OpDef& op, const std::vector<GlobalTensor>& inputs,
                                             const Attrs& attrs, const Constraints& constraints,
                                             const OpPlan& plan) = 0;
  // Whether the step traced is a program that placed nothing (graph mode's local steps).
  virtual bool local_program() const { return false; }
  // Where a random tensor the step makes locally is drawn (broadcast), so that each run draws
  // it anew: the placement the step's arguments share (else its variables'), or none.
  virtual std::optional<Placement> home_placement() const { return std::nullopt; }
};
OpTracer* op_tracer();
void set_op_tracer(OpTracer* tracer);  // null: none; per thread

// Attributes that a traced call must read anew at every run of the compiled graph (an
// optimizer's learning rate and step count): while a RunTimeAttrs is alive, the calls made
// on this thread record `source`, and the compiled graph calls it before each run.
using AttrsSource = std::function<Attrs()>;
class RunTimeAttrs {
 public:
  explicit RunTimeAttrs(AttrsSource source);
  ~RunTimeAttrs();
  RunTimeAttrs(const RunTimeAttrs&) = delete;
  RunTimeAttrs& operator=(const RunTimeAttrs&) = delete;
  // The source in force on this thread, or null.
  static const std::shared_ptr<const AttrsSource>& current();

 private:
  std::shared_ptr<const AttrsSource> previous_;
};

using InferCacheStats = LruCacheStats;
InferCacheStats infer_cache_stats();
// The capacity of each of meshflow's plan caches (op plans, local calls, boxing plans), in
// entries; MESHFLOW_CACHE_ENTRIES sets the starting one. The least recently used go first.
void set_plan_cache_capacity(size_t entries);

}  // namespace mf
