// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/onednn.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "meshflow/core/loops.h"
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
  Tag data_tag, last_tag, w_tag;  // row-major and channels-last activations, weights
};

// The padding at the end that oneDNN's shape checks want for `out` windows of `extent`
// positions, `stride` apart, from pad_begin before an input of `in`: any value that gives the
// same output size; the least one >= 0 (past the last window nothing is read).
int64_t end_padding(int64_t in, int64_t out, int64_t extent, int64_t stride, int64_t pad_begin) {
  return std::max<int64_t>(0, (out - 1) * stride + extent - in - pad_begin);
}

ConvDims conv_dims(const ConvGeometry& g) {
  ConvDims d;
  d.x = {g.batch, g.in_channels};
  d.y = {g.batch, g.out_channels};
  const bool deep = g.dims == 3;
  d.data_tag = deep ? Tag::ncdhw : Tag::nchw;
  d.last_tag = deep ? Tag::ndhwc : Tag::nhwc;
  if (g.groups > 1) {
    d.w = {g.groups, g.out_per_group(), g.in_per_group()};
    d.w_tag = deep ? Tag::goidhw : Tag::goihw;
  } else {
    d.w = {g.out_channels, g.in_channels};
    d.w_tag = deep ? Tag::oidhw : Tag::oihw;
  }
  for (int k = kAxes - g.dims; k < kAxes; ++k) {
    d.x.push_back(g.in[k]);
    d.y.push_back(g.out[k]);
    d.w.push_back(g.kernel[k]);
    d.strides.push_back(g.stride[k]);
    d.dilates.push_back(g.dilation[k] - 1);
    d.pad_l.push_back(g.pad[k]);
    d.pad_r.push_back(end_padding(g.in[k], g.out[k], (g.kernel[k] - 1) * g.dilation[k] + 1, g.stride[k], g.pad[k]));
  }
  return d;
}

// Whether g's activations go to oneDNN channels-last rather than in the blocked layout it
// picks: convolutions of at most 16 channels in and out (one group, a kernel wider than 1x1),
// where the two layouts hold the same bytes (or the blocked one pads the channels to 16),
// and oneDNN's channels-last kernels (brgconv) run faster than its blocked ones.
bool channels_last(const ConvGeometry& g) {
  return g.groups == 1 && g.in_channels <= 16 && g.out_channels <= 16 && g.kernel_volume() > 1;
}

Plan make_conv(ConvPass pass, const ConvGeometry& g, Type t, ConvFormats f, bool bias) {
  namespace dn = dnnl;
  const ConvDims d = conv_dims(g);
  // Each activation's format: a, b, out per pass (ConvFormats).
  const bool x_last = pass == ConvPass::kBackwardData ? f.out : f.a;
  const bool y_last = pass == ConvPass::kForward ? f.out : pass == ConvPass::kBackwardData ? f.a : f.b;
  const memory::desc x(d.x, t, x_last ? d.last_tag : d.data_tag), w(d.w, t, d.w_tag),
      y(d.y, t, y_last ? d.last_tag : d.data_tag);
  // The bfloat16 data gradient of a 1x1 convolution of stride 1 came out wrong from oneDNN
  // 2.6 in channels-last (test_conv3d_pool3d's pointwise case): it runs blocked.
  const bool wrong = pass == ConvPass::kBackwardData && t == Type::bf16 && g.kernel_volume() == 1 &&
                     std::all_of(g.stride, g.stride + kAxes, [](int64_t s) { return s == 1; });
  const Tag act = (x_last || y_last || channels_last(g)) && !wrong ? d.last_tag : Tag::any;
  const memory::desc x_any(d.x, t, act), w_any(d.w, t, Tag::any), y_any(d.y, t, act);
  const dn::primitive_attr attr = user_scratchpad();
  const memory::desc b({g.out_channels}, t, Tag::x);
  const dn::convolution_forward::primitive_desc forward(
      bias && pass == ConvPass::kForward
          ? dn::convolution_forward::desc(dn::prop_kind::forward_training, dn::algorithm::convolution_direct, x_any,
                                          w_any, b, y_any, d.strides, d.dilates, d.pad_l, d.pad_r)
          : dn::convolution_forward::desc(dn::prop_kind::forward_training, dn::algorithm::convolution_direct, x_any,
                                          w_any, y_any, d.strides, d.dilates, d.pad_l, d.pad_r),
      attr, engine());
  Plan p;
  if (pass == ConvPass::kForward) {
    p.primitive = dn::convolution_forward(forward);
    p.args = {arg(DNNL_ARG_SRC, false, x, forward.src_desc()), arg(DNNL_ARG_WEIGHTS, false, w, forward.weights_desc())};
    if (bias) p.args.push_back(arg(DNNL_ARG_BIAS, false, b, forward.bias_desc()));
    p.args.push_back(arg(DNNL_ARG_DST, true, y, forward.dst_desc()));
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
    auto weights_pd = [&](const memory::desc& x_in, const memory::desc& y_in) {
      return dn::convolution_backward_weights::primitive_desc(
          dn::convolution_backward_weights::desc(dn::algorithm::convolution_direct, x_in, w_any, y_in, d.strides,
                                                 d.dilates, d.pad_l, d.pad_r),
          attr, engine(), forward);
    };
    dn::convolution_backward_weights::primitive_desc pd = weights_pd(x_any, y_any);
    // oneDNN's pick for a grouped weight gradient whose blocked depthwise kernel declines it
    // (a kernel of 7x7) is im2col and gemm over the row-major layout, several times slower
    // than its direct kernel channels-last.
    if (act == Tag::any && g.groups > 1 && std::strstr(pd.impl_info_str(), "gemm") != nullptr) {
      pd = weights_pd(memory::desc(d.x, t, d.last_tag), memory::desc(d.y, t, d.last_tag));
    }
    p.primitive = dn::convolution_backward_weights(pd);
    p.args = {arg(DNNL_ARG_SRC, false, x, pd.src_desc()), arg(DNNL_ARG_DIFF_DST, false, y, pd.diff_dst_desc()),
              arg(DNNL_ARG_DIFF_WEIGHTS, true, w, pd.diff_weights_desc())};
    p.scratchpad = pd.scratchpad_desc();
  }
  return p;
}

// Element counts of a pass's operands a, b and output.
std::array<int64_t, 3> conv_sizes(ConvPass pass, const ConvGeometry& g) {
  const int64_t x = g.batch * g.in_channels * g.in_volume(), y = g.batch * g.out_channels * g.out_volume();
  const int64_t w = g.out_channels * g.in_per_group() * g.kernel_volume();
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

// ---------------------------------------------------------------------------------------------
// Pooling

// g's windows as oneDNN's regular ones, over [1, planes, spatial] (or channels-last [N, C,
// spatial] with `channels` C > 0): kernel, strides, dilation (oneDNN's: minus one) and padding
// of each of g's axes.
struct PoolDims {
  memory::dims src, dst, kernel, strides, dilation, pad_l, pad_r;
  Tag tag;
};

// False where g's windows are not regular ones oneDNN takes: adaptive windows of an input
// size that is no multiple of the output's (they vary and overlap), and padding that reaches
// past the kernel (oneDNN refuses it; torch's pooling has at most half a kernel).
bool pool_dims(const PoolGeometry& g, int64_t channels, PoolDims* d) {
  d->src = d->dst = channels > 0 ? memory::dims{g.planes / channels, channels} : memory::dims{1, g.planes};
  d->tag = channels > 0 ? (g.dims == 3 ? Tag::ndhwc : Tag::nhwc) : (g.dims == 3 ? Tag::ncdhw : Tag::nchw);
  for (int k = kAxes - g.dims; k < kAxes; ++k) {
    const PoolAxis& a = g.axis[k];
    if (a.adaptive && a.in % a.out != 0) return false;
    const int64_t kernel = a.adaptive ? a.in / a.out : a.kernel, stride = a.adaptive ? kernel : a.stride;
    const int64_t dilation = a.adaptive ? 1 : a.dilation, pad = a.adaptive ? 0 : a.pad;
    const int64_t extent = (kernel - 1) * dilation + 1, pad_r = end_padding(a.in, a.out, extent, stride, pad);
    if (pad >= extent || pad_r >= extent) return false;
    d->src.push_back(a.in);
    d->dst.push_back(a.out);
    d->kernel.push_back(kernel);
    d->strides.push_back(stride);
    d->dilation.push_back(dilation - 1);
    d->pad_l.push_back(pad);
    d->pad_r.push_back(pad_r);
  }
  return true;
}

dnnl::algorithm pool_algorithm(PoolKind kind) {
  if (kind == PoolKind::kMax) return dnnl::algorithm::pooling_max;
  return kind == PoolKind::kAvgIncludePad ? dnnl::algorithm::pooling_avg_include_padding
                                          : dnnl::algorithm::pooling_avg_exclude_padding;
}

dnnl::pooling_v2_forward::primitive_desc pool_forward_pd(PoolKind kind, const PoolDims& d, dnnl::prop_kind prop) {
  const memory::desc src(d.src, Type::f32, d.tag), dst(d.dst, Type::f32, d.tag);
  return dnnl::pooling_v2_forward::primitive_desc(
      dnnl::pooling_v2_forward::desc(prop, pool_algorithm(kind), src, dst, d.strides, d.kernel, d.dilation, d.pad_l,
                                     d.pad_r),
      user_scratchpad(), engine());
}

// Forward: src, dst, and for max pooling the workspace (each window's maximum as its offset
// in the window, padding counted), as a plain tensor of dst's shape.
Plan make_pool_forward(PoolKind kind, const PoolDims& d) {
  const bool max = kind == PoolKind::kMax;
  const auto prop = max ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  const auto pd = pool_forward_pd(kind, d, prop);
  Plan p;
  p.primitive = dnnl::pooling_v2_forward(pd);
  p.args = {arg(DNNL_ARG_SRC, false, memory::desc(d.src, Type::f32, d.tag), pd.src_desc()),
            arg(DNNL_ARG_DST, true, memory::desc(d.dst, Type::f32, d.tag), pd.dst_desc())};
  if (max) {
    const memory::desc ws = pd.workspace_desc();
    p.args.push_back(arg(DNNL_ARG_WORKSPACE, true, memory::desc(d.dst, ws.data_type(), d.tag), ws));
  }
  p.scratchpad = pd.scratchpad_desc();
  return p;
}

Plan make_pool_backward(PoolKind kind, const PoolDims& d) {
  const memory::desc src(d.src, Type::f32, d.tag), dst(d.dst, Type::f32, d.tag);
  const dnnl::pooling_v2_backward::primitive_desc pd(
      dnnl::pooling_v2_backward::desc(pool_algorithm(kind), src, dst, d.strides, d.kernel, d.dilation, d.pad_l,
                                      d.pad_r),
      user_scratchpad(), engine(), pool_forward_pd(kind, d, dnnl::prop_kind::forward_training));
  Plan p;
  p.primitive = dnnl::pooling_v2_backward(pd);
  p.args = {arg(DNNL_ARG_DIFF_DST, false, dst, pd.diff_dst_desc()),
            arg(DNNL_ARG_DIFF_SRC, true, src, pd.diff_src_desc())};
  p.scratchpad = pd.scratchpad_desc();
  return p;
}

// The plan of a pooling pass (0 forward, 1 backward) over g, or null where g's windows are not
// oneDNN's or it has no primitive for them.
std::shared_ptr<const Plan> pool_plan(int pass, PoolKind kind, const PoolGeometry& g, int64_t channels,
                                      PoolDims* d) {
  if (!pool_dims(g, channels, d)) return nullptr;
  std::vector<int64_t> key{3, pass, static_cast<int64_t>(kind), g.dims, channels > 0};
  for (const memory::dims* v : {&d->src, &d->dst, &d->kernel, &d->strides, &d->dilation, &d->pad_l, &d->pad_r}) {
    key.insert(key.end(), v->begin(), v->end());
  }
  std::shared_ptr<const Plan> plan = cached(key, [&] {
    try {
      return pass == 0 ? make_pool_forward(kind, *d) : make_pool_backward(kind, *d);
    } catch (const dnnl::error& e) {
      if (e.status != dnnl_invalid_arguments) throw;
      return Plan{};  // a shape oneDNN's checks refuse: the caller's kernels run it
    }
  });
  return plan->primitive ? plan : nullptr;
}

// torch's indices from the workspace: each window's offset (kd, kh, kw) is a fixed step from
// the window's start in the input plane, (id * H + ih) * W + iw, which a table of the kernel's
// offsets holds.
template <typename W>
void indices_from_workspace(const PoolGeometry& g, const PoolDims& d, const W* ws, int64_t* indices) {
  int64_t kernel[kAxes] = {1, 1, 1}, stride[kAxes] = {1, 1, 1}, dilation[kAxes] = {1, 1, 1}, pad[kAxes] = {0, 0, 0};
  for (int i = 0; i < g.dims; ++i) {
    const int k = kAxes - g.dims + i;
    kernel[k] = d.kernel[i], stride[k] = d.strides[i], dilation[k] = d.dilation[i] + 1, pad[k] = d.pad_l[i];
  }
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  std::vector<int64_t> step(static_cast<size_t>(kernel[0] * kernel[1] * kernel[2]));
  for (size_t k = 0; k < step.size(); ++k) {
    const int64_t i = static_cast<int64_t>(k);
    step[k] = ((i / (kernel[2] * kernel[1]) * dilation[0]) * ah.in + i / kernel[2] % kernel[1] * dilation[1]) * aw.in +
              i % kernel[2] * dilation[2];
  }
  const int64_t rows = g.planes * ad.out * ah.out;
  parallel_for(rows, rows * aw.out > kParallelGrain, [&](int64_t row) {
    const int64_t oh = row % ah.out, od = row / ah.out % ad.out;
    const int64_t start = ((od * stride[0] - pad[0]) * ah.in + oh * stride[1] - pad[1]) * aw.in - pad[2];
    const W* w = ws + row * aw.out;
    int64_t* out = indices + row * aw.out;
    for (int64_t ow = 0; ow < aw.out; ++ow) out[ow] = start + ow * stride[2] + step[w[ow]];
  });
}

}  // namespace

bool handles(DType dtype) { return dtype == DType::kFloat32 || dtype == DType::kBFloat16; }

void conv(ConvPass pass, const ConvGeometry& g, DType dtype, const void* a, const void* b, void* out,
          ConvFormats formats, const void* bias) {
  const bool with_bias = bias && pass == ConvPass::kForward;
  std::vector<int64_t> key{0, static_cast<int64_t>(pass), static_cast<int64_t>(dtype), g.dims, g.batch,
                           g.in_channels, g.out_channels, g.groups, formats.a + 2 * formats.b + 4 * formats.out,
                           with_bias};
  for (int k = 0; k < kAxes; ++k) {
    key.insert(key.end(), {g.in[k], g.out[k], g.kernel[k], g.stride[k], g.pad[k], g.dilation[k]});
  }
  const std::shared_ptr<const Plan> plan =
      cached(key, [&] { return make_conv(pass, g, type_of(dtype), formats, with_bias); });
  if (plan->primitive) {
    std::vector<void*> data{const_cast<void*>(a), const_cast<void*>(b)};
    if (with_bias) data.push_back(const_cast<void*>(bias));
    data.push_back(out);
    execute(*plan, data);
    return;
  }
  // bfloat16 without oneDNN's kernels for it on this CPU (float32 always has them).
  const std::array<int64_t, 3> n = conv_sizes(pass, g);
  std::vector<float> wide_out(static_cast<size_t>(n[2]));
  const std::vector<float> wide_bias = with_bias ? widened(bias, g.out_channels) : std::vector<float>();
  conv(pass, g, DType::kFloat32, widened(a, n[0]).data(), widened(b, n[1]).data(), wide_out.data(), formats,
       with_bias ? wide_bias.data() : nullptr);
  round_into(wide_out, out);
}

Tensor in_format(const Tensor& t, MemoryFormat format) {
  const Shape& shape = t.shape();
  // Past the first test one format is channels-last: 4 or 5 dims. One channel or one pixel
  // the core relabels.
  if (mf::channels_last(format) == mf::channels_last(t.format()) || !handles(t.dtype()) || shape[1] == 1 ||
      t.numel() == shape[0] * shape[1]) {
    return mf::in_format(t, format);
  }
  Tensor out = Tensor::empty(t.shape(), t.dtype()).with_format(format);
  const DType dtype = t.dtype();
  const bool to_channels_last = mf::channels_last(format);
  std::vector<int64_t> key{4, static_cast<int64_t>(dtype), to_channels_last};
  key.insert(key.end(), shape.begin(), shape.end());
  const std::shared_ptr<const Plan> plan = cached(key, [&] {
    const memory::dims dims(shape.begin(), shape.end());
    const bool deep = shape.size() == 5;
    const memory::desc plain(dims, type_of(dtype), deep ? Tag::ncdhw : Tag::nchw),
        last(dims, type_of(dtype), deep ? Tag::ndhwc : Tag::nhwc);
    const memory::desc &from = to_channels_last ? plain : last, &to = to_channels_last ? last : plain;
    const dnnl::reorder::primitive_desc pd(engine(), from, engine(), to, user_scratchpad());
    Plan p;
    p.primitive = dnnl::reorder(pd);
    p.args = {arg(DNNL_ARG_FROM, false, from, from), arg(DNNL_ARG_TO, true, to, to)};
    p.scratchpad = pd.scratchpad_desc();
    return p;
  });
  execute(*plan, {t.data(), out.data()});
  return out;
}

}  // namespace mf::kernel::onednn

namespace mf::kernel::onednn {

bool pool_forward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, int64_t* indices,
                  int64_t channels) {
  PoolDims d;
  const std::shared_ptr<const Plan> plan = pool_plan(0, kind, g, kind == PoolKind::kMax ? 0 : channels, &d);
  if (!plan) return false;
  if (kind != PoolKind::kMax) {
    execute(*plan, {const_cast<float*>(x), y});
    return true;
  }
  const memory::desc& ws = plan->args[2].plain;
  thread_local std::vector<int32_t> workspace;  // u8 or s32 offsets, as oneDNN picks
  workspace.resize((ws.get_size() + 3) / 4);
  execute(*plan, {const_cast<float*>(x), y, workspace.data()});
  if (ws.data_type() == Type::u8) {
    indices_from_workspace(g, d, reinterpret_cast<const uint8_t*>(workspace.data()), indices);
  } else {
    indices_from_workspace(g, d, workspace.data(), indices);
  }
  return true;
}

bool avg_pool_backward(PoolKind kind, const PoolGeometry& g, const float* dy, float* dx, int64_t channels) {
  PoolDims d;
  const std::shared_ptr<const Plan> plan = pool_plan(1, kind, g, channels, &d);
  if (!plan) return false;
  execute(*plan, {const_cast<float*>(dy), dx});
  return true;
}

}  // namespace mf::kernel::onednn
