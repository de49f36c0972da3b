// Copyright 2026 The meshflow Authors.
// The global tensor (CONCEPTS section 3): a logical shape and dtype, a placement, an N-d SBP,
// and this rank's local tensor, whose shape is always the balanced split's (sbp.h).
// Ranks outside the placement hold boxing::empty_local(). A GlobalTensor is an immutable
// value; the functions below are collective: every rank of the world calls them with the
// same arguments, in the same order; they check that it does (one small all-gather of a hash
// and of any argument error), so that a mismatch raises on every rank instead of hanging.
// Data moves asynchronously, as instructions of the VM (vm.h): the local tensors returned
// may be pending. Call from one thread (the one that issues instructions).
#pragma once

#include <functional>
#include <optional>

#include "meshflow/boxing/plan.h"
#include "meshflow/core/tensor.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace mf {

class GlobalTensor {
 public:
  // Trusts that `local` is this rank's part; use the functions below to build one.
  GlobalTensor(Shape logical, Placement placement, NdSbp nd_sbp, Tensor local)
      : shape_(std::move(logical)),
        placement_(std::move(placement)),
        nd_sbp_(std::move(nd_sbp)),
        local_(std::move(local)) {}

  const Shape& shape() const { return shape_; }
  DType dtype() const { return local_.dtype(); }
  const Placement& placement() const { return placement_; }
  const NdSbp& nd_sbp() const { return nd_sbp_; }
  const Tensor& local() const { return local_; }
  boxing::Layout layout() const { return {placement_, nd_sbp_}; }
  // A small partial value's twin (with_read_twin): this rank's whole value, converted to
  // broadcast by every rank when the value was made, so that ranks may read it alone.
  const std::optional<Tensor>& twin() const { return twin_; }

 private:
  friend GlobalTensor with_read_twin(const GlobalTensor& t, const std::string& name);
  Shape shape_;
  Placement placement_;
  NdSbp nd_sbp_;
  Tensor local_;
  std::optional<Tensor> twin_;
};

// Every rank calls this on each value an eager global op or a compiled graph returns (the
// values every rank makes alike). A value partial on some mesh axis, of kTwinElements
// elements at most, on a placement of every rank of the world (a loss or a metric of a split
// batch) gets its twin: the conversion to broadcast, issued at once on the comm stream as
// any conversion (no wait here). Then a read of it (gather_full), or an op on it
// (apply_global takes the twin), made by some ranks only (`if rank == 0:
// print(loss.item())`) needs no collective. Other values, and every value made while a
// NoReadTwins lives on this thread, are returned as they are.
inline constexpr int64_t kTwinElements = 16;
GlobalTensor with_read_twin(const GlobalTensor& t, const std::string& name);
// Whether `t` is broadcast on every mesh axis of a placement of every rank of a world of
// several: each rank holds it whole.
bool whole_on_every_rank(const GlobalTensor& t);
// `t` laid out whole on this rank without communication: its twin as a broadcast tensor,
// or `t` itself when it is broadcast on a placement of every rank; nullopt otherwise.
std::optional<GlobalTensor> whole_here(const GlobalTensor& t);
// No twins on this thread for its scope: backward's gradients, whose conversion the
// gradient all-reduce makes (a twin of a small bias's partial gradient would be a second).
class NoReadTwins {
 public:
  static bool active();  // on this thread
  NoReadTwins();
  ~NoReadTwins();
  NoReadTwins(const NoReadTwins&) = delete;
  NoReadTwins& operator=(const NoReadTwins&) = delete;

 private:
  bool previous_;
};

// Local -> global: each rank's `local` is its part (a global tensor's parts are row-major: a
// channels-last one is converted first, on the calling thread). Split parts may differ in size along
// the split dim (they are moved to the balanced split); everything else must agree, or
// every rank throws std::invalid_argument naming the ranks and shapes. With
// check_consistency, replicas along broadcast axes must hold equal values.
GlobalTensor make_global(const Tensor& local, const Placement& placement, const NdSbp& nd_sbp,
                         bool check_consistency);
// Every rank holds the whole logical value in `full`; each keeps its part (no data moves but
// a channels-last `full`'s conversion, as make_global's).
// Ranks check the arguments alone (the errors are the same on every rank) and agree on
// them, shape included, only under the consistency check.
GlobalTensor global_from_full(const Tensor& full, const Placement& placement, const NdSbp& nd_sbp);
// Boxing to another placement and/or SBP, after every rank agrees on the arguments.
GlobalTensor to_global(const GlobalTensor& t, const Placement& placement, const NdSbp& nd_sbp);
// Boxing without that agreement, for layouts that come from planning (the same on every
// rank by construction): issues the conversion and returns at once.
GlobalTensor convert(const GlobalTensor& t, const Placement& placement, const NdSbp& nd_sbp);
// Issues `plan` (from the layout `local` is in, to `to`) on the VM's comm stream; returns
// this rank's local tensor of the result, pending (`local` itself for an empty plan).
// `name` says what the conversion is for (the op that needs it), in errors and the watchdog.
// A source whose value failed sends zeros, and the all-reduces and all-gathers of the plan
// carry each rank's status word (boxing::PartStatus), so that a failure one rank alone met (an
// out of memory) fails the result on every rank whose part depends on it; a plan that moves data to ranks outside its
// source placement first agrees among all its ranks on whether the source failed, so that
// those ranks fail too, with the source's error, instead of receiving zeros.
Tensor launch_boxing(std::shared_ptr<const boxing::Plan> plan, const Shape& logical, const Tensor& local, const boxing::Layout& to,
                     const std::string& name);
// Issues a fusable plan (boxing::fusion_key) for several local tensors of one dtype as one
// comm instruction: one collective per step over their concatenation, which carries each
// rank's status word as launch_boxing's conversions do (boxing::PartStatus). Returns each
// one's result, pending.
std::vector<Tensor> launch_fused_boxing(std::shared_ptr<const boxing::Plan> plan, const std::vector<Tensor>& locals,
                                        const std::string& name);
// A logical shape and dtype as one number, the same on every rank however the value is
// split: what ranks compare to find that they are in different calls.
uint64_t shape_hash(const Shape& shape, DType dtype);
// This rank's local shape and dtype under `layout` (an empty local outside the placement).
TensorMeta local_meta(const Shape& logical, DType dtype, const boxing::Layout& layout);
// The logical value, on every rank of the world, in storage of its own. Waits for it, and
// raises the error of the op that failed to make it (a synchronizing read); every rank
// raises it, also an out-of-memory error that struck one rank alone (the ranks agree on the
// read's outcome: one small collective). A value whole on this rank (whole_here) is read
// here alone, no collective: ranks may read it under `if rank == 0:`; its error is raised
// by the ranks that read it.
Tensor gather_full(const GlobalTensor& t, const std::string& read = "gather_full");
// MESHFLOW_CHECK_CONSISTENCY=1 in the environment.
bool consistency_check_enabled();

// Graph mode's tracing hook (graph/tracer.h installs one while a graph's build is traced):
// while one is installed on this thread, to_global and convert record the conversion and
// return its result as a lazy tensor (the metadata only; no data moves, nothing runs).
class ConversionTracer {
 public:
  virtual ~ConversionTracer() = default;
  // `user`: a to_global the user asked for (its layout is a constraint of the graph), not a
  // conversion planning chose (convert), which the graph compiler may choose anew.
  virtual GlobalTensor trace_conversion(const GlobalTensor& t, const boxing::Layout& to, bool user) = 0;
  // a + b, two gradients of one tensor in one layout (autograd sums them without an op).
  virtual GlobalTensor trace_accumulate(const GlobalTensor& a, const GlobalTensor& b) = 0;
  // A leaf's gradient as a backward left it. A step split into micro-batches runs what
  // reads these once, on their sum over the micro-batches (graph/compile.h).
  virtual void trace_leaf_gradient(const void* leaf, const GlobalTensor& grad) {
    (void)leaf;
    (void)grad;
  }
};
ConversionTracer* conversion_tracer();
void set_conversion_tracer(ConversionTracer* tracer);  // null: none; per thread

}  // namespace mf
