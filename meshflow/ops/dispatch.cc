// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/dispatch.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "meshflow/autograd/var.h"
#include "meshflow/boxing/execute.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/error.h"
#include "meshflow/core/loops.h"
#include "meshflow/device/device.h"
#include "meshflow/ops/signature_choice.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

size_t hash_meta(const TensorMeta& m) {
  size_t h = static_cast<size_t>(m.dtype) * 3 + static_cast<size_t>(m.format);
  for (int64_t d : m.shape) h = h * 1000003 + std::hash<int64_t>()(d);
  return h;
}

struct PlanKey {
  const OpDef* op;
  Attrs attrs;
  std::vector<TensorMeta> inputs;
  std::vector<NdSbp> sbps;
  Placement placement;
  Constraints constraints;

  bool operator==(const PlanKey& o) const {
    return op == o.op && attrs == o.attrs && inputs == o.inputs && sbps == o.sbps && placement == o.placement &&
           constraints == o.constraints;
  }
};

// The key's fields, the op counted by `op_hash`: its address within one process (the cache),
// its name across processes (the consistency check: the registry's address differs between
// processes).
size_t hash_key(const PlanKey& k, size_t op_hash) {
  size_t h = op_hash ^ k.attrs.hash() * 31;
  for (const TensorMeta& m : k.inputs) h = h * 131 + hash_meta(m);
  for (const NdSbp& s : k.sbps) h = h * 1000003 + hash_value(s);
  h = h * 31 + k.placement.hash();
  for (const auto& o : k.constraints.outputs) h = h * 131 + (o ? hash_value(*o) : 0);
  if (k.constraints.signature) {
    for (const NdSbp& s : k.constraints.signature->inputs) h = h * 1000003 + hash_value(s);
    for (const NdSbp& s : k.constraints.signature->outputs) h = h * 1000003 + hash_value(s);
  }
  return h;
}

struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const { return hash_key(k, std::hash<const void*>()(k.op)); }
};

using PlanCache = LruCache<PlanKey, OpPlan, PlanKeyHash>;

PlanCache& cache() {
  static auto* c = new PlanCache(default_cache_capacity());
  return *c;
}

// Plans served by the table of recent global calls in front of the cache (RecentGlobalCall),
// counted as the cache's hits (infer_cache_stats).
std::atomic<int64_t> recent_global_hits{0};

// A local call's kernel call by (op, attributes, input metas): its output metas are
// inferred once, and issuing it again allocates only the instruction.
struct LocalKey {
  const OpDef* op;
  Attrs attrs;
  std::vector<TensorMeta> inputs;
  bool host;  // in host memory, where outputs may be channels-last (OpDef::formats)
  bool operator==(const LocalKey& o) const {
    return op == o.op && attrs == o.attrs && inputs == o.inputs && host == o.host;
  }
};

struct LocalKeyHash {
  size_t operator()(const LocalKey& k) const {
    size_t h = std::hash<const void*>()(k.op) ^ k.attrs.hash() * 31 ^ k.host;
    for (const TensorMeta& m : k.inputs) h = h * 131 + hash_meta(m);
    return h;
  }
};

// A local call's plan: its kernel call, and the call's own input and output metas, which the
// kernel call's differ from where an elementwise kernel reads channels-last tensors with
// their channels moved last (ElementwiseFormat::permuted).
struct LocalPlan {
  KernelCall kernel;
  std::vector<TensorMeta> inputs, outputs;
  bool permuted = false;
};

using LocalCall = std::shared_ptr<const LocalPlan>;
using LocalCallCache = LruCache<LocalKey, LocalPlan, LocalKeyHash>;

LocalCallCache& local_cache() {
  static auto* c = new LocalCallCache(default_cache_capacity());
  return *c;
}

// Whether a kernel in host memory may run on the issuing thread while the compute stream is
// idle (vm::Flags::small), as its sizes tell: always when its inputs and outputs together are
// at most kSmallKernelBytes, or, for an op whose work is a few operations per element
// (elementwise, OpDef::linear_work), no tensor is over OpenMP's grain (kParallelGrain
// elements); up to kMidKernelElements per tensor for such an op when the issuing thread's
// kernels run on one thread (runs_here). Handing the call to the worker (an instruction, an
// event, the queue, waking the worker, producing pending outputs there) costs more than a
// kernel that touches up to these bytes, and a caller that waits on the result pays the
// worker's wake-up and its own too, several times the kernel of a sum of 256 KiB
// (bench/small_ops_bench.py measures both sides). No kernel that runs here starts an OpenMP
// team on the issuing thread: a team of its own there would compete with the worker's.
// Past the mid bound the kernel's time dominates the hand-off, and a caller that issues ahead
// gains more from the worker running it beside the issue of the next ops.
enum class Inline : uint8_t { kNever, kAlways, kOnOneThread };

constexpr int64_t kSmallKernelBytes = 16 << 10;
constexpr int64_t kMidKernelElements = 1 << 18;

Inline inline_kernel(const OpDef& op, const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& outputs) {
  const bool linear = op.elementwise || op.linear_work;
  int64_t bytes = 0, largest = 0;
  for (const auto* metas : {&inputs, &outputs}) {
    for (const TensorMeta& m : *metas) {
      const int64_t elements = numel(m.shape);
      bytes += elements * static_cast<int64_t>(dtype_size(m.dtype));
      largest = std::max(largest, elements);
    }
  }
  if (!linear) return bytes <= kSmallKernelBytes ? Inline::kAlways : Inline::kNever;
  if (largest <= kernel::kParallelGrain) return Inline::kAlways;
  return largest <= kMidKernelElements ? Inline::kOnOneThread : Inline::kNever;
}

// Whether a kernel of `size` runs on the issuing thread when the stream is idle (vm::Flags::small).
bool runs_here(Inline size, const Memory& memory) {
  if (!memory.host_accessible()) return false;
  // A mid-size kernel only where it opens no team here: the kernels of a thread whose OpenMP
  // count is one run on that thread alone (kernel::opens_team).
  return size == Inline::kAlways || (size == Inline::kOnOneThread && omp_get_max_threads() == 1);
}

// The kernel calls of recent local calls, in front of the local call cache: a hit costs a
// hash of the input metas and a few comparisons, where the cache's key costs copies of the
// attributes and metas, their hash and the cache's lock. One slot per hash, replaced on a
// miss; under the issuing lock. `size`: whether the call's kernel may run on the issuing
// thread (inline_kernel).
struct RecentCall {
  const OpDef* op = nullptr;
  LocalCall call;
  Inline size = Inline::kNever;
  bool host = false;  // LocalKey::host
};
constexpr int kRecentCallBits = 6;

RecentCall& recent_slot(const OpDef& op, const std::vector<Tensor>& inputs) {
  static auto* recent = new RecentCall[size_t{1} << kRecentCallBits];
  uint64_t h = reinterpret_cast<uintptr_t>(&op);
  for (const Tensor& t : inputs) {
    h = h * 31 + static_cast<uint64_t>(t.dtype());
    for (int64_t d : t.shape()) h = h * 1000003 + static_cast<uint64_t>(d);
  }
  return recent[(h * 0x9E3779B97F4A7C15ull) >> (64 - kRecentCallBits)];  // Fibonacci hashing: the top bits
}

bool is_call(const RecentCall& recent, const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
             bool host) {
  if (recent.op != &op || recent.call->inputs.size() != inputs.size() || recent.host != host) return false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorMeta& m = recent.call->inputs[i];
    if (m.dtype != inputs[i].dtype() || m.format != inputs[i].format() || m.shape != inputs[i].shape()) return false;
  }
  return recent.call->kernel.attrs == attrs;
}

bool fits(const Sbp& s, const TensorMeta& m) { return !s.is_split() || s.split_dim() < static_cast<int>(m.shape.size()); }

std::vector<Signature> one_axis_candidates(const OpDef& op, const std::vector<TensorMeta>& inputs,
                                           const std::vector<TensorMeta>& outputs, const Attrs& attrs) {
  std::vector<Signature> listed = op.signatures ? op.signatures(inputs, outputs, attrs) : std::vector<Signature>{};
  listed.push_back(Signature{std::vector<Sbp>(inputs.size(), Sbp::broadcast()),
                             std::vector<Sbp>(outputs.size(), Sbp::broadcast())});
  std::vector<Signature> valid;
  for (const Signature& s : listed) {
    bool ok = s.inputs.size() == inputs.size() && s.outputs.size() == outputs.size();
    for (size_t i = 0; ok && i < inputs.size(); ++i) ok = fits(s.inputs[i], inputs[i]);
    for (size_t i = 0; ok && i < outputs.size(); ++i) ok = fits(s.outputs[i], outputs[i]);
    if (ok && std::find(valid.begin(), valid.end(), s) == valid.end()) valid.push_back(s);
  }
  return valid;
}

// Calls f with each N-d signature of the direct product, in listed (lexicographic) order.
void for_each_product(const std::vector<Signature>& one_axis, int axes, size_t n_in, size_t n_out,
                      const std::function<void(const NdSignature&)>& f) {
  std::vector<size_t> pick(axes, 0);
  while (true) {
    NdSignature nd{std::vector<NdSbp>(n_in, NdSbp(axes, Sbp::broadcast())),
                   std::vector<NdSbp>(n_out, NdSbp(axes, Sbp::broadcast()))};
    for (int a = 0; a < axes; ++a) {
      const Signature& s = one_axis[pick[a]];
      for (size_t i = 0; i < n_in; ++i) nd.inputs[i][a] = s.inputs[i];
      for (size_t i = 0; i < n_out; ++i) nd.outputs[i][a] = s.outputs[i];
    }
    f(nd);
    int a = axes - 1;
    while (a >= 0 && ++pick[a] == one_axis.size()) pick[a--] = 0;
    if (a < 0) return;
  }
}

OpPlan choose(const OpDef& op, const std::vector<TensorMeta>& inputs, const std::vector<NdSbp>& sbps,
              const Placement& placement, const Attrs& attrs, const Constraints& constraints,
              const std::vector<TensorMeta>& outputs) {
  std::vector<NdSignature> candidates;
  for_each_product(one_axis_candidates(op, inputs, outputs, attrs), placement.ndim(), inputs.size(), outputs.size(),
                   [&](const NdSignature& nd) {
                     if (!satisfies(nd, constraints)) return;
                     if (op.valid_on && !op.valid_on(inputs, outputs, attrs, nd, placement.hierarchy())) return;
                     candidates.push_back(nd);
                   });
  const SignatureChoice choice =
      choose_signature(candidates, sbps, outputs, placement.hierarchy(), [&](size_t i, const NdSbp& want) {
        return boxing::cached_plan(inputs[i].shape, inputs[i].dtype, {placement, sbps[i]}, {placement, want})->cost;
      });
  if (!choice.valid) {
    std::string asked = constraints.signature ? "signature " + constraints.signature->str() : "output sbp";
    op_error(op.name, "no valid signature satisfies the requested " + asked);
  }
  OpPlan plan{candidates[choice.index], outputs, {}, choice.cost};
  for (size_t i = 0; i < inputs.size(); ++i) {
    plan.input_plans.push_back(boxing::cached_plan(inputs[i].shape, inputs[i].dtype, {placement, sbps[i]},
                                                   {placement, plan.signature.inputs[i]}));
  }
  return plan;
}

std::vector<Box> boxes_of(const std::vector<TensorMeta>& metas, const Placement& p, const std::vector<NdSbp>& sbps,
                          const Shape& coord) {
  std::vector<Box> boxes;
  boxes.reserve(metas.size());
  for (size_t i = 0; i < metas.size(); ++i) boxes.push_back(local_box(metas[i].shape, p.hierarchy(), sbps[i], coord));
  return boxes;
}

std::vector<Box> whole_boxes(const std::vector<TensorMeta>& metas) {
  std::vector<Box> boxes;
  boxes.reserve(metas.size());
  for (const TensorMeta& m : metas) boxes.push_back(Box::whole(m.shape));
  return boxes;
}

thread_local std::shared_ptr<const std::function<std::string(const std::string&)>> restatement;
thread_local OpTracer* tracer = nullptr;
thread_local std::shared_ptr<const AttrsSource> attrs_source;

// An op's kernel call as the VM launches it (vm::KernelLaunch): run at once, or queued as a
// body holding the call and the restatement in force when it was issued.
// `tensors` read in the shapes and formats of `to` (a LocalPlan's kernel call or call metas),
// each where its size agrees and its shape or format differs; the others as they are.
std::vector<Tensor> reshaped(const std::vector<Tensor>& tensors, const std::vector<TensorMeta>& to) {
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    const bool other = i < to.size() && (t.shape() != to[i].shape || t.format() != to[i].format) &&
                       t.numel() == numel(to[i].shape);
    out.push_back(other ? t.view(0, to[i].shape).with_format(to[i].format) : t);
  }
  return out;
}

class OpKernel : public vm::KernelLaunch {
 public:
  // `results`: the call's own output metas where the kernel call's shapes differ (LocalPlan).
  OpKernel(const OpDef& op, std::shared_ptr<const KernelCall> call, const Memory& memory,
           std::shared_ptr<const std::vector<TensorMeta>> results)
      : kernel_(kernel_for(op, memory)),
        call_(std::move(call)),
        results_(std::move(results)),
        elementwise_(op.elementwise) {}

  std::vector<Tensor> run_here(const std::vector<Tensor>& inputs, const std::vector<Tensor>* given) override {
    return run(kernel_, *call_, results_.get(), elementwise_, restatement.get(), inputs, given);
  }

  vm::KernelBody body() override {
    return [&kernel = kernel_, call = std::move(call_), results = std::move(results_), elementwise = elementwise_,
            restate = restatement](const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
      return run(kernel, *call, results.get(), elementwise, restate.get(), in, &out);
    };
  }

 private:
  static std::vector<Tensor> run(const Kernel& kernel, const KernelCall& call, const std::vector<TensorMeta>* results,
                                 bool elementwise, const std::function<std::string(const std::string&)>* restate,
                                 const std::vector<Tensor>& in, const std::vector<Tensor>* given) {
    try {
      KernelContext ctx = call.context();
      if (!results) {
        ctx.given = given;
        std::vector<Tensor> out = kernel(in, ctx);
        // An elementwise kernel wrote its outputs in its inputs' element order (OpDef::formats).
        for (size_t k = 0; elementwise && k < out.size() && k < call.outputs.size(); ++k) {
          if (out[k].format() != call.outputs[k].format) out[k] = out[k].with_format(call.outputs[k].format);
        }
        return out;
      }
      // The tensors in the kernel call's shapes, its outputs back in the call's.
      const std::vector<Tensor> given_rows = given ? reshaped(*given, call.outputs) : std::vector<Tensor>{};
      ctx.given = given ? &given_rows : nullptr;
      return reshaped(kernel(reshaped(in, call.inputs), ctx), *results);
    } catch (const std::invalid_argument& e) {
      if (!restate) throw;
      rethrow_restated(e, (*restate)(e.what()));
    }
  }

  const Kernel& kernel_;
  std::shared_ptr<const KernelCall> call_;
  std::shared_ptr<const std::vector<TensorMeta>> results_;
  bool elementwise_;
};

// Issues the op's kernel on tensors in `memory`. On a device the host cannot touch, its
// outputs' memory is allocated now, by the issuing thread (vm::launch_kernel), except a
// view's, whose output is its input's memory. In host memory the worker that runs the kernel
// takes it: allocating at issue cost the issuing thread 0.15-0.2 us per op, about 9% of a
// small op's dispatch (bench/dispatch_bench.py), where the worker's allocation overlaps it.
std::vector<Tensor> launch_op(const OpDef& op, std::vector<Tensor> inputs, const std::vector<TensorMeta>& outputs,
                              std::shared_ptr<const KernelCall> call, const vm::Flags& flags, const Memory& memory,
                              std::shared_ptr<const std::vector<TensorMeta>> results = nullptr) {
  OpKernel kernel(op, std::move(call), memory, std::move(results));
  return vm::launch_kernel(op.name, std::move(inputs), outputs, kernel, flags,
                           /*allocate=*/!op.output_views_input && !memory.host_accessible());
}

// op.infer, with errors from reading attributes (Attrs's getters do not know the op)
// carrying the op's name like every other op error.
// Every output's size is checked here, once for every op: a shape whose element or byte count
// overflows (an expand or a creation op asked for too much) never reaches an allocation.
std::vector<TensorMeta> infer_outputs(const OpDef& op, const std::vector<TensorMeta>& inputs, const Attrs& attrs) {
  try {
    std::vector<TensorMeta> outputs = op.infer(inputs, attrs);
    for (const TensorMeta& m : outputs) {
      for (int64_t d : m.shape) {
        if (d < 0) op_error(op.name, "output shape " + to_string(m.shape) + " has a negative size");
      }
      checked_nbytes(m.shape, dtype_size(m.dtype));
    }
    return outputs;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).rfind("[" + op.name + "]", 0) == 0) throw;
    if (dynamic_cast<const IndexError*>(&e)) index_error(op.name, e.what());
    op_error(op.name, e.what());
  }
}

// `m` with leading ones up to `rank` dims, then its channel dim (1) moved last: the shape a
// row-major kernel reads it in beside channels-last tensors read as [N, *spatial, C].
Shape channels_moved_last(const Shape& m, size_t rank) {
  Shape padded(rank - m.size(), 1);
  padded.insert(padded.end(), m.begin(), m.end());
  Shape out{padded[0]};
  out.insert(out.end(), padded.begin() + 2, padded.end());
  out.push_back(padded[1]);
  return out;
}

// Whether a row-major `m` of at most `rank` dims keeps its bytes in place when its channel dim
// moves last (channels_moved_last): it has one channel, or one value along every dim after it
// (a per-channel operand: a bias's [C, 1, 1]).
bool moves_in_place(const Shape& m, size_t rank) {
  if (m.size() > rank) return false;
  const size_t lead = rank - m.size();
  if (lead > 1 || m[1 - lead] == 1) return true;
  for (size_t d = 2 - lead; d < m.size(); ++d) {
    if (m[d] != 1) return false;
  }
  return true;
}

// How an elementwise op without OpDef::formats runs on its inputs: in the format of the first
// input of the largest size (torch's rule: the output's layout follows it) where every other
// input has its shape (converted to that format), or one element, or, beside a channels-last
// one, broadcasts with its bytes in place once its channels move last (moves_in_place); else
// row-major. Inputs whose elements lie as that format's are read as they are (kChannelsLast
// and kChannelsLastInternal store alike).
struct ElementwiseFormat {
  MemoryFormat format = MemoryFormat::kContiguous;
  Shape full;             // the first largest input's shape, the output's
  bool permuted = false;  // broadcast inputs are there: the kernel reads every input's dims
                          // with the channels moved last (channels_moved_last)
};

ElementwiseFormat elementwise_format(const OpDef& op, const std::vector<TensorMeta>& inputs) {
  if (!op.elementwise || op.draws_random) return {};
  const TensorMeta* first = nullptr;
  for (const TensorMeta& m : inputs) {
    if (!first || numel(m.shape) > numel(first->shape)) first = &m;
  }
  if (!first) return {};
  bool permuted = false;
  for (const TensorMeta& m : inputs) {
    if (m.shape == first->shape || numel(m.shape) == 1) continue;
    if (!channels_last(first->format) || !moves_in_place(m.shape, first->shape.size())) return {};
    permuted = true;
  }
  return {first->format, first->shape, permuted};
}

// The kernel call's metas of a permuted call (ElementwiseFormat::permuted): each row-major,
// its channels moved last.
std::vector<TensorMeta> channels_moved_last(std::vector<TensorMeta> metas, const Shape& full) {
  for (TensorMeta& m : metas) {
    m.shape = channels_moved_last(m.shape, full.size());
    m.format = MemoryFormat::kContiguous;
  }
  return metas;
}

// Sets the output metas' formats (OpDef::formats); `host`: a call in host memory, the only
// one whose tensors may be channels-last.
void plan_formats(const OpDef& op, const std::vector<TensorMeta>& inputs, std::vector<TensorMeta>& outputs,
                  const Attrs& attrs, bool host) {
  std::vector<MemoryFormat> formats;
  if (host && op.formats) {
    formats = op.formats(inputs, outputs, attrs);
  } else if (host) {
    const MemoryFormat f = elementwise_format(op, inputs).format;
    for (const TensorMeta& out : outputs) {
      const bool kept = std::any_of(inputs.begin(), inputs.end(), [&](const TensorMeta& m) { return m.shape == out.shape; });
      formats.push_back(kept ? f : MemoryFormat::kContiguous);
    }
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const MemoryFormat f = k < formats.size() ? formats[k] : MemoryFormat::kContiguous;
    outputs[k].format = channels_last_rank(outputs[k].shape) ? f : MemoryFormat::kContiguous;
  }
}

// The tensors a local call's kernel reads (OpDef::formats): channels-last inputs converted
// to row-major for an op that reads only that, or to the format an elementwise op runs in.
std::vector<Tensor> formatted_inputs(const OpDef& op, std::vector<Tensor> inputs) {
  if (op.formats || std::all_of(inputs.begin(), inputs.end(), [](const Tensor& t) {
        return t.format() == MemoryFormat::kContiguous;
      })) {
    return inputs;
  }
  std::vector<TensorMeta> metas;
  for (const Tensor& t : inputs) metas.push_back({t.shape(), t.dtype(), t.format()});
  const ElementwiseFormat target = elementwise_format(op, metas);
  for (Tensor& t : inputs) {
    const bool kept = t.numel() == 1 || (target.permuted && t.shape() != target.full);  // broadcast operands
    if (!kept && channels_last(t.format()) != channels_last(target.format)) t = to_memory_format(t, target.format);
  }
  return inputs;
}

// A local call's kernel call by (op, attributes, input metas): its output metas inferred once.
// Kernel-only attributes (random ops' seeds) change at every call: those are not cached.
RecentCall local_call(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs, bool host) {
  RecentCall* slot = op.kernel_only_attrs.empty() ? &recent_slot(op, inputs) : nullptr;
  if (slot && is_call(*slot, op, inputs, attrs, host)) return *slot;
  LocalKey key{&op, attrs, {}, host};
  key.inputs.reserve(inputs.size());
  for (const Tensor& t : inputs) key.inputs.push_back({t.shape(), t.dtype(), t.format()});
  auto make = [&] {
    const std::vector<TensorMeta>& metas = key.inputs;
    std::vector<TensorMeta> outputs = infer_outputs(op, metas, attrs);
    plan_formats(op, metas, outputs, attrs, host);
    const ElementwiseFormat f = host && !op.formats ? elementwise_format(op, metas) : ElementwiseFormat{};
    if (!f.permuted) return LocalPlan{{attrs, metas, whole_boxes(metas), outputs, whole_boxes(outputs)}, metas, outputs};
    const std::vector<TensorMeta> in = channels_moved_last(metas, f.full), out = channels_moved_last(outputs, f.full);
    return LocalPlan{{attrs, in, whole_boxes(in), out, whole_boxes(out)}, metas, outputs, true};
  };
  LocalCall call = slot ? local_cache().get(key, make) : std::make_shared<const LocalPlan>(make());
  RecentCall made{&op, call, inline_kernel(op, call->kernel.inputs, call->kernel.outputs), host};
  if (slot) *slot = made;
  return made;
}

}  // namespace

std::vector<NdSignature> valid_nd_signatures(const OpDef& op, const std::vector<TensorMeta>& inputs,
                                             const Attrs& attrs, const Shape& hierarchy) {
  const std::vector<TensorMeta> outputs = infer_outputs(op, inputs, attrs);
  std::vector<NdSignature> all;
  for_each_product(one_axis_candidates(op, inputs, outputs, attrs), static_cast<int>(hierarchy.size()), inputs.size(),
                   outputs.size(), [&](const NdSignature& nd) {
                     if (!op.valid_on || op.valid_on(inputs, outputs, attrs, nd, hierarchy)) all.push_back(nd);
                   });
  return all;
}

std::shared_ptr<const OpPlan> plan_op(const OpDef& op, const std::vector<TensorMeta>& inputs, const std::vector<NdSbp>& input_sbps,
                      const Placement& placement, const Attrs& attrs, const Constraints& constraints) {
  PlanKey key{&op, op.kernel_only_attrs.empty() ? attrs : attrs.without(op.kernel_only_attrs), inputs, input_sbps,
              placement, constraints};
  return cache().get(key, [&] {
    std::vector<TensorMeta> outputs = infer_outputs(op, inputs, attrs);
    for (size_t i = 0; i < constraints.outputs.size(); ++i) {
      if (i >= outputs.size()) op_error(op.name, "more output sbps requested than the op has outputs");
      if (constraints.outputs[i]) check_nd_sbp(*constraints.outputs[i], placement, static_cast<int64_t>(outputs[i].shape.size()));
    }
    return choose(op, inputs, input_sbps, placement, attrs, constraints, outputs);
  });
}

InferCacheStats infer_cache_stats() {
  InferCacheStats stats = cache().stats();
  stats.hits += recent_global_hits.load(std::memory_order_relaxed);  // plans served from the table in front
  return stats;
}

void set_plan_cache_capacity(size_t entries) {
  cache().set_capacity(entries);
  local_cache().set_capacity(entries);
  boxing::set_boxing_cache_capacity(entries);
}

OpTracer* op_tracer() { return tracer; }
void set_op_tracer(OpTracer* t) { tracer = t; }

RunTimeAttrs::RunTimeAttrs(AttrsSource source) : previous_(attrs_source) {
  attrs_source = std::make_shared<const AttrsSource>(std::move(source));
}
RunTimeAttrs::~RunTimeAttrs() { attrs_source = previous_; }
const std::shared_ptr<const AttrsSource>& RunTimeAttrs::current() { return attrs_source; }

DataErrorRestatement::DataErrorRestatement(std::function<std::string(const std::string&)> restate)
    : previous_(restatement) {
  restatement = std::make_shared<const std::function<std::string(const std::string&)>>(std::move(restate));
}

DataErrorRestatement::~DataErrorRestatement() { restatement = previous_; }

namespace {
// Gradients on devices the host cannot touch sum through the add op's kernel for them.
const bool device_gradient_sum_installed = [] {
  set_device_gradient_sum(
      [](const Tensor& a, const Tensor& b) { return apply_local(find_op("add"), {a, b}, {}, {}, /*own=*/false)[0]; });
  return true;
}();
}  // namespace

Tensor to_memory_format(const Tensor& t, MemoryFormat format) {
  if (t.format() == format) return t;
  static const OpDef& op = find_op("to_memory_format");
  return apply_local(op, {t}, {{"format", static_cast<int64_t>(format)}})[0];
}

std::vector<Tensor> apply_local(const OpDef& op, std::vector<Tensor> inputs, const Attrs& attrs,
                                const std::vector<int>& overwrite, bool own) {
  vm::Issuing issuing;  // the caches below, and the kernel's issue
  // Ops run on their inputs' device (creation ops, with none, on the host's).
  Memory& memory = inputs.empty() ? host_memory() : inputs[0].memory();
  for (const Tensor& t : inputs) {
    if (&t.memory() != &memory) {
      op_error(op.name, "expected every input on one device, got " + memory.device_str() + " and " +
                            t.memory().device_str() + "; move them with to(device) first");
    }
  }
  // Host kernels keep channels-last layouts: the CPU's, and those a device type runs on its
  // memory (the test device's), which then computes what the CPU does, bit for bit.
  const bool host = &memory == &host_memory() || runs_host_kernels(memory);
  if (host) inputs = formatted_inputs(op, std::move(inputs));
  const RecentCall known = local_call(op, inputs, attrs, host);
  vm::Flags flags;
  flags.device = &device::of(memory);
  flags.overwrite = overwrite;
  flags.raise_at_issue = own;
  flags.small = runs_here(known.size, memory);
  const LocalCall& plan = known.call;
  return launch_op(op, std::move(inputs), plan->outputs, std::shared_ptr<const KernelCall>(plan, &plan->kernel), flags,
                   memory, plan->permuted ? std::shared_ptr<const std::vector<TensorMeta>>(plan, &plan->outputs) : nullptr);
}

namespace {

// What a global call's plan makes of it on this rank: the plan and, where this rank holds a
// part, its kernel call (the local boxes), its local output metas and whether its kernel may
// run on the issuing thread (inline_kernel).
struct RankCall {
  std::shared_ptr<const OpPlan> plan;
  std::shared_ptr<const KernelCall> call;  // null: this rank holds no part
  std::vector<TensorMeta> local_outputs;
  Inline size = Inline::kNever;
};

RankCall rank_call(const OpDef& op, std::shared_ptr<const OpPlan> planned, const std::vector<TensorMeta>& metas,
                   const Placement& placement, const Attrs& attrs) {
  RankCall r{std::move(planned), nullptr, {}, Inline::kNever};
  const int id = placement.parallel_id(comm::world_rank());
  if (id < 0) return r;
  const OpPlan& plan = *r.plan;
  const Shape coord = placement.coordinate(id);
  r.call = std::make_shared<const KernelCall>(KernelCall{attrs, metas, boxes_of(metas, placement, plan.signature.inputs, coord),
                                                         plan.outputs,
                                                         boxes_of(plan.outputs, placement, plan.signature.outputs, coord)});
  for (size_t i = 0; i < plan.outputs.size(); ++i) r.local_outputs.push_back({r.call->output_boxes[i].extent, plan.outputs[i].dtype});
  r.size = inline_kernel(op, r.call->inputs, r.local_outputs);
  return r;
}

// The rank calls of recent global calls without constraints, as RecentCall for local calls:
// one slot per hash of the op and input metas, holding the call's key; under the issuing
// lock. A hit costs comparisons where planning costs the plan cache's key (copies of the
// attributes, metas and SBPs, a hash, a lock) and the local boxes.
struct RecentGlobalCall {
  const OpDef* op = nullptr;
  Attrs attrs;
  std::vector<TensorMeta> metas;
  std::vector<NdSbp> sbps;
  std::optional<Placement> placement;
  std::shared_ptr<const RankCall> made;
};

RecentGlobalCall& recent_global_slot(const OpDef& op, const std::vector<GlobalTensor>& inputs) {
  static auto* recent = new RecentGlobalCall[size_t{1} << kRecentCallBits];
  uint64_t h = reinterpret_cast<uintptr_t>(&op);
  for (const GlobalTensor& t : inputs) {
    h = h * 31 + static_cast<uint64_t>(t.dtype());
    for (int64_t d : t.shape()) h = h * 1000003 + static_cast<uint64_t>(d);
  }
  return recent[(h * 0x9E3779B97F4A7C15ull) >> (64 - kRecentCallBits)];
}

bool is_call(const RecentGlobalCall& recent, const OpDef& op, const std::vector<GlobalTensor>& inputs,
             const Placement& placement, const Attrs& attrs) {
  if (recent.op != &op || recent.metas.size() != inputs.size() || *recent.placement != placement) return false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GlobalTensor& t = inputs[i];
    if (recent.metas[i].dtype != t.dtype() || recent.metas[i].shape != t.shape() || recent.sbps[i] != t.nd_sbp()) {
      return false;
    }
  }
  return recent.attrs == attrs;
}

// Issues a planned global call: its inputs boxed into the signature's layouts, then this
// rank's kernel, and for a kernel that checks its data an agreement on its errors, unless
// its inputs are `whole` on every rank (whole_on_every_rank): then every rank finds the same
// errors alone, and ranks may make the call alone (rank 0's generation with a broadcast
// model, an embedding's index check included).
std::vector<GlobalTensor> issue_global(const OpDef& op, const std::vector<GlobalTensor>& inputs,
                                       const RankCall& rank, const Placement& placement,
                                       const std::vector<int>& overwrite, bool whole) {
  const OpPlan& plan = *rank.plan;
  std::vector<Tensor> locals;
  locals.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& boxing = plan.input_plans[i];
    locals.push_back(boxing->steps.empty() ? inputs[i].local()
                                           : launch_boxing(boxing, inputs[i].shape(), inputs[i].local(),
                                                           {placement, plan.signature.inputs[i]}, op.name));
  }
  std::vector<Tensor> outs;
  if (!rank.call) {
    for (const TensorMeta& m : plan.outputs) outs.push_back(boxing::empty_local(m.shape, m.dtype, placement.memory()));
  } else {
    // A kernel that checks its data agrees with the placement's other ranks below (on one
    // rank too: the agreement also paces how far issuing runs ahead, which bounds memory);
    // any other kernel failing on this rank alone must end the job, or the others would
    // wait for it.
    vm::Flags flags;
    const bool agree_on_errors = op.kernel_checks_data && !whole;
    flags.abort_on_error = !op.kernel_checks_data;
    flags.report_error = !agree_on_errors;
    flags.device = &placement.device();
    flags.small = runs_here(rank.size, placement.memory());
    // An input that boxing converted is a copy: its output takes memory of its own.
    for (size_t k = 0; k < overwrite.size(); ++k) {
      const int from = overwrite[k];
      flags.overwrite.push_back(from >= 0 && plan.input_plans.at(static_cast<size_t>(from))->steps.empty() ? from : -1);
    }
    outs = launch_op(op, std::move(locals), rank.local_outputs, rank.call, flags, placement.memory());
    if (agree_on_errors) {
      // The placement's ranks raise the data error together: the outputs pass through an
      // agreement among them. Ranks outside hold no part and take no part; a transfer of
      // the outputs to them carries the error (global/global_tensor.h, launch_boxing).
      vm::Flags agreement;
      agreement.run_on_failed_inputs = true;
      agreement.outputs_in = &placement.memory();
      outs = vm::launch(op.name, device::StreamKind::kComm, outs, rank.local_outputs,
                        [name = op.name, ranks = placement.ranks(), trail = comm::call_trail()](
                            const std::vector<Tensor>& in) {
                          std::exception_ptr error;
                          for (const Tensor& t : in) {
                            if (std::exception_ptr e = t.storage()->error()) error = e;
                          }
                          try {
                            comm::agree(error, 0, "[" + name + "]", ranks, &trail);
                          } catch (const std::invalid_argument&) {
                            // A rank that failed with an op's error keeps it, the one object a
                            // read of any tensor it reaches raises (and clears as pending): an
                            // error inherited from an earlier agreement is not raised anew. An
                            // out of memory stays the agreement's (as a comm instruction's own,
                            // it would end the job).
                            if (!error) throw;
                            try {
                              std::rethrow_exception(error);
                            } catch (const std::invalid_argument&) {
                              throw;
                            } catch (...) {
                            }
                            throw;
                          }
                          return in;
                        },
                        agreement);
    }
  }
  std::vector<GlobalTensor> results;
  results.reserve(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    results.emplace_back(plan.outputs[i].shape, placement, plan.signature.outputs[i], std::move(outs[i]));
  }
  return results;
}

// The plan of a global call, agreed on by the ranks under MESHFLOW_CHECK_CONSISTENCY: every
// rank agrees on the call, and on whether planning it failed, before any acts on its plan,
// so a rank whose planning fails (its arguments differ) raises with the others instead of
// leaving them waiting.
std::shared_ptr<const OpPlan> agreed_plan(const OpDef& op, const std::vector<TensorMeta>& metas,
                                          const std::vector<NdSbp>& sbps, const Placement& placement,
                                          const Attrs& attrs, const Constraints& constraints, bool check) {
  if (!check) return plan_op(op, metas, sbps, placement, attrs, constraints);
  std::shared_ptr<const OpPlan> planned;
  std::exception_ptr error;
  try {
    planned = plan_op(op, metas, sbps, placement, attrs, constraints);
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  const PlanKey key{&op, attrs, metas, sbps, placement, constraints};
  comm::agree(error, hash_key(key, std::hash<std::string>()(op.name)), "[" + op.name + "]");
  return planned;
}

// The inputs with each twin in place of its partial value (global_tensor.h, with_read_twin):
// an op on a loss some ranks make alone (`if rank == 0: if loss < best:`) runs on the
// whole value there, with no conversion, and on every rank it saves one. Not for an input
// written in place, whose own memory the op must write, nor in a call whose layouts are
// given (a composite op's step on the partial value itself).
std::vector<GlobalTensor> twins_in_place(const std::vector<GlobalTensor>& inputs, const std::vector<int>& overwrite) {
  std::vector<GlobalTensor> out = inputs;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].twin() || std::find(overwrite.begin(), overwrite.end(), static_cast<int>(i)) != overwrite.end()) continue;
    out[i] = *whole_here(out[i]);
  }
  return out;
}

// Whether a call without inputs makes values broadcast on a placement of every rank (a
// creation op's constants, an arange inside an op on a broadcast value).
bool makes_whole_on_every_rank(const Constraints& c) {
  if (!c.placement || comm::world_size() < 2 || c.placement->size() != comm::world_size() || c.outputs.empty()) {
    return false;
  }
  return std::all_of(c.outputs.begin(), c.outputs.end(), [](const std::optional<NdSbp>& sbp) {
    return sbp && std::all_of(sbp->begin(), sbp->end(), [](const Sbp& s) { return s.is_broadcast(); });
  });
}

std::vector<GlobalTensor> with_read_twins(const OpDef& op, std::vector<GlobalTensor> outputs) {
  for (GlobalTensor& t : outputs) t = with_read_twin(t, op.name);
  return outputs;
}

}  // namespace

std::vector<GlobalTensor> apply_global(const OpDef& op, const std::vector<GlobalTensor>& given, const Attrs& attrs,
                                       const Constraints& constraints, const std::vector<int>& overwrite) {
  vm::Issuing issuing;  // the plan cache, the agreements and the kernels' issue
  const bool twins = !constraints.signature && constraints.outputs.empty() &&
                     std::any_of(given.begin(), given.end(), [](const GlobalTensor& t) { return t.twin().has_value(); });
  std::vector<GlobalTensor> with_twins;
  if (twins) with_twins = twins_in_place(given, overwrite);
  const std::vector<GlobalTensor>& inputs = twins ? with_twins : given;
  if (inputs.empty() && !constraints.placement) op_error(op.name, "an op without inputs needs a placement");
  if (!inputs.empty() && constraints.placement && *constraints.placement != inputs[0].placement()) {
    op_error(op.name, "a placement was given for outputs of inputs on " + inputs[0].placement().str() +
                          "; ops run where their inputs are: move them with to_global(placement=...) first");
  }
  const Placement& placement = inputs.empty() ? *constraints.placement : inputs[0].placement();
  // One rank's placement is that rank's own work (a local graph runs on one), no rank's call.
  // Nor is a call that writes nothing and draws nothing on inputs whole on every rank: it
  // needs no communication and leaves every other value as it was, so ranks may make it
  // alone (`if rank == 0:` around a comparison of a loss, an evaluation of a broadcast model).
  // Backward's are counted: gradients made alone would part the ranks' parameters. The
  // consistency check agrees on such calls too: under it every rank makes every call.
  const bool whole = inputs.empty() ? makes_whole_on_every_rank(constraints)
                                    : std::all_of(inputs.begin(), inputs.end(), whole_on_every_rank);
  const bool alone_is_fine = whole && overwrite.empty() && !op.draws_random && !NoReadTwins::active();
  if (placement.size() > 1 && !alone_is_fine) {
    uint64_t shapes = 0;
    for (const GlobalTensor& t : inputs) shapes = shapes * 31 + shape_hash(t.shape(), t.dtype());
    comm::note_global_call(op.name.c_str(), shapes, grad_enabled());
  }
  for (const GlobalTensor& t : inputs) {
    if (t.placement() != placement) {
      op_error(op.name, "inputs are on different placements: " + placement.str() + " and " + t.placement().str() +
                            "; move one with to_global(placement=...) first");
    }
  }
  const bool check = consistency_check_enabled();
  // A call that is planned, agreed on or traced anew every time takes no slot.
  RecentGlobalCall* slot = !check && !tracer && constraints == Constraints{} && op.kernel_only_attrs.empty()
                               ? &recent_global_slot(op, inputs)
                               : nullptr;
  if (slot && slot->op && is_call(*slot, op, inputs, placement, attrs)) {
    ++recent_global_hits;
    const std::shared_ptr<const RankCall> made = slot->made;
    return with_read_twins(op, issue_global(op, inputs, *made, placement, overwrite, whole));
  }
  std::vector<TensorMeta> metas;
  std::vector<NdSbp> sbps;
  metas.reserve(inputs.size());
  sbps.reserve(inputs.size());
  for (const GlobalTensor& t : inputs) {
    metas.push_back({t.shape(), t.dtype()});
    sbps.push_back(t.nd_sbp());
  }
  std::shared_ptr<const OpPlan> planned = agreed_plan(op, metas, sbps, placement, attrs, constraints, check);
  if (tracer) return tracer->trace_op(op, inputs, attrs, constraints, *planned);
  auto made = std::make_shared<const RankCall>(rank_call(op, std::move(planned), metas, placement, attrs));
  if (slot) *slot = RecentGlobalCall{&op, attrs, std::move(metas), std::move(sbps), placement, made};
  return with_read_twins(op, issue_global(op, inputs, *made, placement, overwrite, whole));
}

}  // namespace mf
