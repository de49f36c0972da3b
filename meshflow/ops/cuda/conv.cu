// Copyright 2026 The meshflow Authors.
// The CUDA kernels of convolution, pooling and padding (ops/conv.cc): same attributes,
// shapes and errors as the CPU's, the geometry from conv_util.h. Direct kernels, one thread
// per output element, except where several outputs would write one element: the weight
// gradient of a convolution gives each weight a block that sums its terms in a fixed tree
// (shapes alone decide the order), and the pooling backward ops give each plane a thread
// that adds its outputs' contributions in output order, as the CPU does. No atomics, so
// replicas agree bit for bit.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/conv_util.h"
#include "meshflow/ops/cuda/cuda_kernels.h"

namespace mf::cuda {
namespace {

using kernel::ConvGeometry;
using kernel::PoolAxis;
using kernel::PoolGeometry;
using kernel::Window;

constexpr int kThreads = 256;

__device__ int64_t first_index() { return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ int64_t grid_step() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

template <typename F>
void visit_floating(DType dtype, F&& f) {
  visit_dtype(dtype, [&](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>) f(v);
  });
}

// The convolutions take bfloat16 on the CPU (oneDNN's); these kernels have no bfloat16 form.
void expect_no_bfloat16(const char* name, DType dtype) {
  if (dtype == DType::kBFloat16) {
    op_error(name, "has no CUDA kernel for bfloat16 tensors; cast to float32 first, or run it on the CPU");
  }
}

// Launches launch(T{}, blocks) for the float dtype T of `dtype`, blocks enough for a thread per element of
// `total` (the kernels stride over the grid), and checks it as `name`; nothing to launch for none.
template <typename F>
void launch_per_element(const char* name, DType dtype, int64_t total, F&& launch) {
  expect_no_bfloat16(name, dtype);
  if (total == 0) return;
  visit_floating(dtype, [&](auto v) {
    launch(v, blocks_for(total, kThreads));
    check_launch(name);
  });
}

ConvGeometry geometry_of(const char* op, const Attrs& attrs, const Shape& x, const Shape& w) {
  const int64_t kernel[2] = {w[2], w[3]};
  const int64_t in[2] = {x[2], x[3]};
  return kernel::conv_geometry(op, attrs, x[0], x[1], w[0], in, kernel);
}

// ---------------------------------------------------------------------------------------------
// conv2d

template <typename T>
__global__ void conv_forward(ConvGeometry g, const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y,
                             int64_t total) {
  const int64_t oh_n = g.out[0], ow_n = g.out[1], cin = g.in_per_group(), cout = g.out_per_group();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % ow_n, oh = e / ow_n % oh_n, co = e / (ow_n * oh_n) % g.out_channels;
    const int64_t n = e / (ow_n * oh_n * g.out_channels), group = co / cout;
    T acc = 0;
    for (int64_t c = 0; c < cin; ++c) {
      const T* plane = x + (n * g.in_channels + group * cin + c) * g.in[0] * g.in[1];
      const T* filter = w + (co * cin + c) * g.kernel[0] * g.kernel[1];
      for (int64_t i = 0; i < g.kernel[0]; ++i) {
        const int64_t ih = oh * g.stride[0] - g.pad[0] + i * g.dilation[0];
        if (ih < 0 || ih >= g.in[0]) continue;
        for (int64_t j = 0; j < g.kernel[1]; ++j) {
          const int64_t iw = ow * g.stride[1] - g.pad[1] + j * g.dilation[1];
          if (iw >= 0 && iw < g.in[1]) acc += plane[ih * g.in[1] + iw] * filter[i * g.kernel[1] + j];
        }
      }
    }
    y[e] = acc;
  }
}

std::vector<Tensor> conv2d(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &x = in[0], &w = in[1];
  const ConvGeometry g = geometry_of("conv2d", ctx.attrs, x.shape(), w.shape());
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, {g.batch, g.out_channels, g.out[0], g.out[1]}, x.dtype(), mem);
  const int64_t total = y.numel();
  launch_per_element("conv2d", x.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    conv_forward<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), w.data_as<T>(), y.data_as<T>(), total);
  });
  return {y};
}

// dx[n, c, ih, iw] = sum over the outputs whose windows read it of dy * w.
template <typename T>
__global__ void conv_backward_data(ConvGeometry g, const T* __restrict__ dy, const T* __restrict__ w,
                                   T* __restrict__ dx, int64_t total) {
  const int64_t h = g.in[0], wd = g.in[1], cin = g.in_per_group(), cout = g.out_per_group();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t iw = e % wd, ih = e / wd % h, c = e / (wd * h) % g.in_channels, n = e / (wd * h * g.in_channels);
    const int64_t group = c / cin, ci = c % cin;
    T acc = 0;
    for (int64_t co = group * cout; co < (group + 1) * cout; ++co) {
      const T* grad = dy + (n * g.out_channels + co) * g.out[0] * g.out[1];
      const T* filter = w + (co * cin + ci) * g.kernel[0] * g.kernel[1];
      for (int64_t i = 0; i < g.kernel[0]; ++i) {
        const int64_t th = ih + g.pad[0] - i * g.dilation[0];
        if (th < 0 || th % g.stride[0] != 0 || th / g.stride[0] >= g.out[0]) continue;
        for (int64_t j = 0; j < g.kernel[1]; ++j) {
          const int64_t tw = iw + g.pad[1] - j * g.dilation[1];
          if (tw < 0 || tw % g.stride[1] != 0 || tw / g.stride[1] >= g.out[1]) continue;
          acc += grad[th / g.stride[0] * g.out[1] + tw / g.stride[1]] * filter[i * g.kernel[1] + j];
        }
      }
    }
    dx[e] = acc;
  }
}

std::vector<Tensor> conv2d_backward_data(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &dy = in[0], &w = in[1];
  const Shape xs = kernel::conv_input_shape(ctx.attrs, dy.shape(), w.shape());
  const ConvGeometry g = geometry_of("conv2d_backward_data", ctx.attrs, xs, w.shape());
  Memory& mem = memory_of(in);
  Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
  const int64_t total = dx.numel();
  launch_per_element("conv2d_backward_data", dy.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    conv_backward_data<<<blocks, kThreads, 0, stream()>>>(g, dy.data_as<T>(), w.data_as<T>(), dx.data_as<T>(), total);
  });
  return {dx};
}

// A block per weight element: its threads stride over (n, oh, ow), then a tree in shared
// memory adds their sums.
template <typename T>
__global__ void conv_backward_weight(ConvGeometry g, const T* __restrict__ x, const T* __restrict__ dy,
                                     T* __restrict__ dw, int64_t weights) {
  __shared__ T partial[kThreads];
  const int64_t cin = g.in_per_group(), cout = g.out_per_group(), kh = g.kernel[0], kw = g.kernel[1];
  const int64_t pixels = g.out[0] * g.out[1], terms = g.batch * pixels;
  for (int64_t e = blockIdx.x; e < weights; e += gridDim.x) {
    const int64_t j = e % kw, i = e / kw % kh, ci = e / (kw * kh) % cin, co = e / (kw * kh * cin);
    const int64_t c = co / cout * cin + ci;
    T acc = 0;
    for (int64_t t = threadIdx.x; t < terms; t += blockDim.x) {
      const int64_t n = t / pixels, ow = t % g.out[1], oh = t / g.out[1] % g.out[0];
      const int64_t ih = oh * g.stride[0] - g.pad[0] + i * g.dilation[0];
      const int64_t iw = ow * g.stride[1] - g.pad[1] + j * g.dilation[1];
      if (ih >= 0 && ih < g.in[0] && iw >= 0 && iw < g.in[1]) {
        acc += dy[(n * g.out_channels + co) * pixels + oh * g.out[1] + ow] *
               x[((n * g.in_channels + c) * g.in[0] + ih) * g.in[1] + iw];
      }
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) dw[e] = partial[0];
    __syncthreads();
  }
}

std::vector<Tensor> conv2d_backward_weight(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &x = in[0], &dy = in[1];
  const Shape ws = kernel::conv_weight_shape(ctx.attrs, x.shape(), dy.shape());
  const ConvGeometry g = geometry_of("conv2d_backward_weight", ctx.attrs, x.shape(), ws);
  Memory& mem = memory_of(in);
  expect_no_bfloat16("conv2d_backward_weight", x.dtype());
  Tensor dw = output(ctx, 0, ws, x.dtype(), mem);
  const int64_t weights = dw.numel();
  if (weights == 0) return {dw};
  visit_floating(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(weights, int64_t{multiprocessors()} * 32));
    conv_backward_weight<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), dy.data_as<T>(), dw.data_as<T>(),
                                                            weights);
    check_launch("conv2d_backward_weight");
  });
  return {dw};
}

// ---------------------------------------------------------------------------------------------
// Pooling

Shape pooled_shape(const Shape& x, const PoolGeometry& g) { return {x[0], x[1], g.axis[0].out, g.axis[1].out}; }

Shape backward_input_shape(const Attrs& attrs, const Shape& dy) {
  const std::vector<int64_t>& size = attrs.get_ints("input_size");
  return {dy[0], dy[1], size[0], size[1]};
}

bool count_include_pad(const Attrs& attrs) {
  return !attrs.has("count_include_pad") || attrs.get_bool("count_include_pad");
}
int64_t divisor_override(const Attrs& attrs) {
  return attrs.has("divisor_override") ? attrs.get_int("divisor_override") : 0;
}

template <typename T>
__global__ void max_pool_forward(PoolGeometry g, const T* __restrict__ x, T* __restrict__ y, int64_t* __restrict__ idx,
                                 int64_t total) {
  const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % aw.out, oh = e / aw.out % ah.out, p = e / (aw.out * ah.out);
    const T* plane = x + p * ah.in * aw.in;
    const Window wh = kernel::pool_window(ah, oh), ww = kernel::pool_window(aw, ow);
    T best = -INFINITY;
    int64_t at = wh.first * aw.in + ww.first;
    for (int64_t ih = wh.first; ih < wh.stop; ih += wh.step) {
      for (int64_t iw = ww.first; iw < ww.stop; iw += ww.step) {
        const T value = plane[ih * aw.in + iw];
        if (value > best || isnan(value)) {
          best = value;
          at = ih * aw.in + iw;
        }
      }
    }
    y[e] = best;
    idx[e] = at;
  }
}

Kernel max_pool(const char* name, bool adaptive) {
  return [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive);
    Memory& mem = memory_of(in);
    const Shape out = pooled_shape(x.shape(), g);
    Tensor y = output(ctx, 0, out, x.dtype(), mem), indices = output(ctx, 1, out, DType::kInt64, mem);
    const int64_t total = y.numel();
    launch_per_element(name, x.dtype(), total, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      max_pool_forward<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), indices.data_as<int64_t>(),
                                                          total);
    });
    return {y, indices};
  };
}

template <typename T>
__global__ void max_pool_backward_planes(const T* __restrict__ dy, const int64_t* __restrict__ idx, T* __restrict__ dx,
                                         int64_t planes, int64_t in_plane, int64_t out_plane) {
  for (int64_t p = first_index(); p < planes; p += grid_step()) {
    T* d = dx + p * in_plane;
    for (int64_t i = 0; i < in_plane; ++i) d[i] = 0;
    for (int64_t o = 0; o < out_plane; ++o) d[idx[p * out_plane + o]] += dy[p * out_plane + o];
  }
}

std::vector<Tensor> max_pool2d_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &dy = in[0], &indices = in[1];
  const Shape xs = backward_input_shape(ctx.attrs, dy.shape());
  Memory& mem = memory_of(in);
  Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
  const int64_t planes = xs[0] * xs[1];
  if (dx.numel() == 0) return {dx};
  launch_per_element("max_pool2d_backward", dy.dtype(), planes, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    max_pool_backward_planes<<<blocks, kThreads, 0, stream()>>>(dy.data_as<T>(), indices.data_as<int64_t>(),
                                                                dx.data_as<T>(), planes, xs[2] * xs[3],
                                                                dy.shape()[2] * dy.shape()[3]);
  });
  return {dx};
}

template <typename T>
__global__ void avg_pool_forward(PoolGeometry g, bool with_pad, int64_t override_, const T* __restrict__ x,
                                 T* __restrict__ y, int64_t total) {
  const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % aw.out, oh = e / aw.out % ah.out, p = e / (aw.out * ah.out);
    const T* plane = x + p * ah.in * aw.in;
    const Window wh = kernel::pool_window(ah, oh), ww = kernel::pool_window(aw, ow);
    T sum = 0;
    for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
      for (int64_t iw = ww.first; iw < ww.stop; ++iw) sum += plane[ih * aw.in + iw];
    }
    y[e] = sum / static_cast<T>(kernel::avg_pool_divisor(g, oh, ow, with_pad, override_));
  }
}

Kernel avg_pool(const char* name, bool adaptive) {
  return [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive);
    Memory& mem = memory_of(in);
    Tensor y = output(ctx, 0, pooled_shape(x.shape(), g), x.dtype(), mem);
    const int64_t total = y.numel();
    launch_per_element(name, x.dtype(), total, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      avg_pool_forward<<<blocks, kThreads, 0, stream()>>>(g, count_include_pad(ctx.attrs), divisor_override(ctx.attrs),
                                                          x.data_as<T>(), y.data_as<T>(), total);
    });
    return {y};
  };
}

template <typename T>
__global__ void avg_pool_backward_planes(PoolGeometry g, bool with_pad, int64_t override_, const T* __restrict__ dy,
                                         T* __restrict__ dx) {
  const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
  for (int64_t p = first_index(); p < g.planes; p += grid_step()) {
    T* d = dx + p * ah.in * aw.in;
    const T* gy = dy + p * ah.out * aw.out;
    for (int64_t i = 0; i < ah.in * aw.in; ++i) d[i] = 0;
    for (int64_t oh = 0; oh < ah.out; ++oh) {
      const Window wh = kernel::pool_window(ah, oh);
      for (int64_t ow = 0; ow < aw.out; ++ow) {
        const Window ww = kernel::pool_window(aw, ow);
        const T share = gy[oh * aw.out + ow] / static_cast<T>(kernel::avg_pool_divisor(g, oh, ow, with_pad, override_));
        for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
          for (int64_t iw = ww.first; iw < ww.stop; ++iw) d[ih * aw.in + iw] += share;
        }
      }
    }
  }
}

Kernel avg_pool_backward(const char* name, bool adaptive) {
  return [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& dy = in[0];
    const Shape xs = backward_input_shape(ctx.attrs, dy.shape());
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, xs, adaptive);
    Memory& mem = memory_of(in);
    Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
    if (dx.numel() == 0) return {dx};
    launch_per_element(name, dy.dtype(), g.planes, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      avg_pool_backward_planes<<<blocks, kThreads, 0, stream()>>>(
          g, count_include_pad(ctx.attrs), divisor_override(ctx.attrs), dy.data_as<T>(), dx.data_as<T>());
    });
    return {dx};
  };
}

// ---------------------------------------------------------------------------------------------
// pad, pad_backward

template <typename T>
__global__ void pad_kernel(kernel::PadGeometry g, const T* __restrict__ x, T* __restrict__ y, T fill, int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    int64_t rest = e, src = 0, stride = 1;
    bool inside = true;
    for (int d = g.nd - 1; d >= 0; --d) {
      const int64_t i = kernel::pad_source(g, d, rest % g.out[d]);
      rest /= g.out[d];
      inside = inside && i >= 0;
      src += i * stride;
      stride *= g.in[d];
    }
    y[e] = inside ? x[src] : fill;
  }
}

std::vector<Tensor> pad(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::PadGeometry g = kernel::pad_geometry("pad", ctx.attrs, x.shape());
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, Shape(g.out, g.out + g.nd), x.dtype(), mem);
  const int64_t total = y.numel();
  if (total == 0) return {y};
  const double value = ctx.attrs.has("value") ? ctx.attrs.get_float("value") : 0.0;
  visit_dtype(x.dtype(), [&](auto v) {
    using T = decltype(v);
    pad_kernel<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(),
                                                                       static_cast<T>(value), total);
    check_launch("pad");
  });
  return {y};
}

template <typename T>
__global__ void pad_backward_kernel(kernel::PadGeometry g, const T* __restrict__ dy, T* __restrict__ dx,
                                    int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) dx[e] = kernel::pad_backward_at(g, dy, e);
}

std::vector<Tensor> pad_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  const std::vector<int64_t>& logical = ctx.attrs.get_ints("input_shape");
  const kernel::PadGeometry whole = kernel::pad_geometry("pad_backward", ctx.attrs, logical);
  Shape xs(logical);
  for (int d = 0; d < whole.nd; ++d) {
    if (whole.before[d] == 0 && whole.out[d] == whole.in[d]) xs[d] = dy.shape()[d];  // a split dim's part
  }
  const kernel::PadGeometry g = kernel::pad_geometry("pad_backward", ctx.attrs, xs);
  Memory& mem = memory_of(in);
  Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
  const int64_t total = dx.numel();
  launch_per_element("pad_backward", dy.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    pad_backward_kernel<<<blocks, kThreads, 0, stream()>>>(g, dy.data_as<T>(), dx.data_as<T>(), total);
  });
  return {dx};
}

// ---------------------------------------------------------------------------------------------
// upsample_nearest, upsample_nearest_backward

template <typename T>
__global__ void upsample_kernel(kernel::UpsampleGeometry g, const T* __restrict__ x, T* __restrict__ y, int64_t total) {
  const int64_t plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    int64_t rest = e % plane_out, src = 0, stride = 1;
    for (int d = g.k - 1; d >= 0; --d) {
      src += kernel::nearest_source(g, d, rest % g.out[d]) * stride;
      rest /= g.out[d];
      stride *= g.in[d];
    }
    y[e] = x[e / plane_out * plane_in + src];
  }
}

std::vector<Tensor> upsample_nearest(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::UpsampleGeometry g = kernel::upsample_geometry("upsample_nearest", ctx.attrs, x.shape());
  Shape out{x.shape()[0], x.shape()[1]};
  for (int d = 0; d < g.k; ++d) out.push_back(g.out[d]);
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, out, x.dtype(), mem);
  const int64_t total = y.numel();
  launch_per_element("upsample_nearest", x.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    upsample_kernel<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), total);
  });
  return {y};
}

template <typename T>
__global__ void upsample_backward_kernel(kernel::UpsampleGeometry g, const T* __restrict__ dy, T* __restrict__ dx,
                                         int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) dx[e] = kernel::nearest_backward_at(g, dy, e);
}

std::vector<Tensor> upsample_nearest_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  Shape xs{dy.shape()[0], dy.shape()[1]};
  for (int64_t n : ctx.attrs.get_ints("input_size")) xs.push_back(n);
  const kernel::UpsampleGeometry g = kernel::upsample_geometry("upsample_nearest_backward", ctx.attrs, xs);
  Memory& mem = memory_of(in);
  Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
  const int64_t total = dx.numel();
  launch_per_element("upsample_nearest_backward", dy.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    upsample_backward_kernel<<<blocks, kThreads, 0, stream()>>>(g, dy.data_as<T>(), dx.data_as<T>(), total);
  });
  return {dx};
}

}  // namespace

void add_conv_kernels(KernelTable& t) {
  t["conv2d"] = conv2d;
  t["conv2d_backward_data"] = conv2d_backward_data;
  t["conv2d_backward_weight"] = conv2d_backward_weight;
  t["max_pool2d"] = max_pool("max_pool2d", false);
  t["adaptive_max_pool2d"] = max_pool("adaptive_max_pool2d", true);
  t["max_pool2d_backward"] = max_pool2d_backward;
  t["avg_pool2d"] = avg_pool("avg_pool2d", false);
  t["adaptive_avg_pool2d"] = avg_pool("adaptive_avg_pool2d", true);
  t["avg_pool2d_backward"] = avg_pool_backward("avg_pool2d_backward", false);
  t["adaptive_avg_pool2d_backward"] = avg_pool_backward("adaptive_avg_pool2d_backward", true);
  t["pad"] = pad;
  t["pad_backward"] = pad_backward;
  t["upsample_nearest"] = upsample_nearest;
  t["upsample_nearest_backward"] = upsample_nearest_backward;
}

}  // namespace mf::cuda
