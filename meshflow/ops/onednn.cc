// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/onednn.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "meshflow/core/lru_cache.h"

namespace mf::kernel::onednn {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using Type = memory::data_type;

const dnnl::engine& engine() {
  static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

// The calling thread's growable, 64-byte-aligned buffers: one slot for each reordered
// argument or scratchpad that a call holds at once.
constexpr int kSlots = 8;

void* thread_buffer(int slot, size_t bytes) {
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  thread_local std::array<std::unique_ptr<void, Free>, kSlots> buffers;
  thread_local std::array<size_t, kSlots> sizes{};
  if (sizes[slot] < bytes) {
    buffers[slot].reset();  // before the new one: at most one of them held
    const size_t rounded = (bytes + 63) / 64 * 64;
    buffers[slot].reset(std::aligned_alloc(64, rounded));
    if (!buffers[slot]) throw std::bad_alloc();
    sizes[slot] = rounded;
  }
  return buffers[slot].get();
}

// Reorders and primitives run with a scratchpad the caller gives (scratchpad_mode::user):
// the library's own would be shared between threads running one primitive.
dnnl::primitive_attr user_scratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// One argument of a primitive: the plain layout the caller's memory has, and a reorder to or
// from the layout the primitive reads or writes where oneDNN picked another.
struct Arg {
  int id = 0;
  bool output = false;
  memory::desc plain, inner;
  dnnl::reorder reorder;  // empty when inner == plain
  memory::desc reorder_scratchpad;
};

// A primitive and its arguments in the order execute() takes their data; an empty primitive
// where oneDNN has none for this dtype on this CPU.
struct Plan {
  dnnl::primitive primitive;
  std::vector<Arg> args;
  memory::desc scratchpad;
};

Arg arg(int id, bool output, const memory::desc& plain, const memory::desc& inner) {
  Arg a{id, output, plain, inner, {}, {}};
  if (inner != plain) {
    const dnnl::reorder::primitive_desc pd = output ? dnnl::reorder::primitive_desc(engine(), inner, engine(), plain,
                                                                                    user_scratchpad())
                                                    : dnnl::reorder::primitive_desc(engine(), plain, engine(), inner,
                                                                                    user_scratchpad());
    a.reorder = dnnl::reorder(pd);
    a.reorder_scratchpad = pd.scratchpad_desc();
  }
  return a;
}

void run_reorder(const Arg& a, const memory& from, const memory& to, int slot) {
  std::unordered_map<int, memory> args{{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  if (a.reorder_scratchpad.get_size() > 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD,
                 memory(a.reorder_scratchpad, engine(), thread_buffer(slot, a.reorder_scratchpad.get_size())));
  }
  a.reorder.execute(stream(), args);
}

// Runs the plan on the caller's memory, data[i] for plan.args[i] (null: an argument left out).
void execute(const Plan& plan, const std::vector<void*>& data) {
  std::unordered_map<int, memory> args;
  std::vector<std::pair<const Arg*, std::pair<memory, memory>>> outputs;  // inner, plain
  int slot = 0;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const Arg& a = plan.args[i];
    const memory plain(a.plain, engine(), data[i]);
    if (!a.reorder) {
      args.emplace(a.id, plain);
      continue;
    }
    const memory inner(a.inner, engine(), thread_buffer(slot++, a.inner.get_size()));
    if (a.output) {
      outputs.push_back({&a, {inner, plain}});
    } else {
      run_reorder(a, plain, inner, kSlots - 1);
    }
    args.emplace(a.id, inner);
  }
  if (plan.scratchpad.get_size() > 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD, memory(plan.scratchpad, engine(), thread_buffer(slot++, plan.scratchpad.get_size())));
  }
  plan.primitive.execute(stream(), args);
  for (const auto& [a, mems] : outputs) run_reorder(*a, mems.first, mems.second, kSlots - 1);
  stream().wait();
}

struct KeyHash {
  size_t operator()(const std::vector<int64_t>& key) const {
    size_t h = 0;
    for (int64_t v : key) h = h * 1000003u ^ std::hash<int64_t>()(v);
    return h;
  }
};

// Plans by key, made on first use. A bounded number: each holds JIT-compiled code.
std::shared_ptr<const Plan> cached(const std::vector<int64_t>& key, const std::function<Plan()>& make) {
  engine();  // made before the cache, so destroyed after the primitives in it
  static LruCache<std::vector<int64_t>, Plan, KeyHash> plans(512);
  return plans.get(key, [&] {
    try {
      return make();
    } catch (const dnnl::error& e) {
      if (e.status != dnnl_unimplemented) throw;
      return Plan{};
    }
  });
}

Type type_of(DType dtype) { return dtype == DType::kBFloat16 ? Type::bf16 : Type::f32; }

// ---------------------------------------------------------------------------------------------
// Convolutions

struct ConvDims {
  memory::dims x, w, y, strides, dilates, pad_l, pad_r;
  Tag w_tag;
};

ConvDims conv_dims(const ConvGeometry& g) {
  ConvDims d;
  d.x = {g.batch, g.in_channels, g.in[0], g.in[1]};
  d.y = {g.batch, g.out_channels, g.out[0], g.out[1]};
  if (g.groups > 1) {
    d.w = {g.groups, g.out_per_group(), g.in_per_group(), g.kernel[0], g.kernel[1]};
    d.w_tag = Tag::goihw;
  } else {
    d.w = {g.out_channels, g.in_channels, g.kernel[0], g.kernel[1]};
    d.w_tag = Tag::oihw;
  }
  for (int k = 0; k < 2; ++k) {
    d.strides.push_back(g.stride[k]);
    d.dilates.push_back(g.dilation[k] - 1);
    d.pad_l.push_back(g.pad[k]);
    // The padding at the end that oneDNN's shape check wants: any value that gives the same
    // output size; the least one >= 0 (past the last window nothing is read).
    const int64_t extent = (g.kernel[k] - 1) * g.dilation[k] + 1;
    d.pad_r.push_back(std::max<int64_t>(0, (g.out[k] - 1) * g.stride[k] + extent - g.in[k] - g.pad[k]));
  }
  return d;
}

Plan make_conv(ConvPass pass, const ConvGeometry& g, Type t) {
  namespace dn = dnnl;
  const ConvDims d = conv_dims(g);
  const memory::desc x(d.x, t, Tag::nchw), w(d.w, t, d.w_tag), y(d.y, t, Tag::nchw);
  const memory::desc x_any(d.x, t, Tag::any), w_any(d.w, t, Tag::any), y_any(d.y, t, Tag::any);
  const dn::primitive_attr attr = user_scratchpad();
  const dn::convolution_forward::primitive_desc forward(
      dn::convolution_forward::desc(dn::prop_kind::forward_training, dn::algorithm::convolution_direct, x_any, w_any,
                                    y_any, d.strides, d.dilates, d.pad_l, d.pad_r),
      attr, engine());
  Plan p;
  if (pass == ConvPass::kForward) {
    p.primitive = dn::convolution_forward(forward);
    p.args = {arg(DNNL_ARG_SRC, false, x, forward.src_desc()), arg(DNNL_ARG_WEIGHTS, false, w, forward.weights_desc()),
              arg(DNNL_ARG_DST, true, y, forward.dst_desc())};
    p.scratchpad = forward.scratchpad_desc();
  } else if (pass == ConvPass::kBackwardData) {
    const dn::convolution_backward_data::primitive_desc pd(
        dn::convolution_backward_data::desc(dn::algorithm::convolution_direct, x_any, w_any, y_any, d.strides,
                                            d.dilates, d.pad_l, d.pad_r),
        attr, engine(), forward);
    p.primitive = dn::convolution_backward_data(pd);
    p.args = {arg(DNNL_ARG_DIFF_DST, false, y, pd.diff_dst_desc()), arg(DNNL_ARG_WEIGHTS, false, w, pd.weights_desc()),
              arg(DNNL_ARG_DIFF_SRC, true, x, pd.diff_src_desc())};
    p.scratchpad = pd.scratchpad_desc();
  } else {
    const dn::convolution_backward_weights::primitive_desc pd(
        dn::convolution_backward_weights::desc(dn::algorithm::convolution_direct, x_any, w_any, y_any, d.strides,
                                               d.dilates, d.pad_l, d.pad_r),
        attr, engine(), forward);
    p.primitive = dn::convolution_backward_weights(pd);
    p.args = {arg(DNNL_ARG_SRC, false, x, pd.src_desc()), arg(DNNL_ARG_DIFF_DST, false, y, pd.diff_dst_desc()),
              arg(DNNL_ARG_DIFF_WEIGHTS, true, w, pd.diff_weights_desc())};
    p.scratchpad = pd.scratchpad_desc();
  }
  return p;
}

// Element counts of a pass's operands a, b and output.
std::array<int64_t, 3> conv_sizes(ConvPass pass, const ConvGeometry& g) {
  const int64_t x = g.batch * g.in_channels * g.in[0] * g.in[1], y = g.batch * g.out_channels * g.out[0] * g.out[1];
  const int64_t w = g.out_channels * g.in_per_group() * g.kernel[0] * g.kernel[1];
  if (pass == ConvPass::kForward) return {x, w, y};
  if (pass == ConvPass::kBackwardData) return {y, w, x};
  return {x, y, w};
}

std::vector<float> widened(const void* data, int64_t n) {
  const bfloat16* b = static_cast<const bfloat16*>(data);
  std::vector<float> out(static_cast<size_t>(n));
  std::transform(b, b + n, out.begin(), [](bfloat16 v) { return to_float(v); });
  return out;
}

void round_into(const std::vector<float>& from, void* to) {
  std::transform(from.begin(), from.end(), static_cast<bfloat16*>(to), [](float v) { return to_bfloat16(v); });
}

}  // namespace

bool handles(DType dtype) { return dtype == DType::kFloat32 || dtype == DType::kBFloat16; }

void conv(ConvPass pass, const ConvGeometry& g, DType dtype, const void* a, const void* b, void* out) {
  const std::vector<int64_t> key{0,
                                 static_cast<int64_t>(pass),
                                 static_cast<int64_t>(dtype),
                                 g.batch,
                                 g.in_channels,
                                 g.out_channels,
                                 g.groups,
                                 g.in[0],
                                 g.in[1],
                                 g.out[0],
                                 g.out[1],
                                 g.kernel[0],
                                 g.kernel[1],
                                 g.stride[0],
                                 g.stride[1],
                                 g.pad[0],
                                 g.pad[1],
                                 g.dilation[0],
                                 g.dilation[1]};
  const std::shared_ptr<const Plan> plan = cached(key, [&] { return make_conv(pass, g, type_of(dtype)); });
  if (plan->primitive) {
    execute(*plan, {const_cast<void*>(a), const_cast<void*>(b), out});
    return;
  }
  // bfloat16 without oneDNN's kernels for it on this CPU (float32 always has them).
  const std::array<int64_t, 3> n = conv_sizes(pass, g);
  std::vector<float> wide_out(static_cast<size_t>(n[2]));
  conv(pass, g, DType::kFloat32, widened(a, n[0]).data(), widened(b, n[1]).data(), wide_out.data());
  round_into(wide_out, out);
}

}  // namespace mf::kernel::onednn
