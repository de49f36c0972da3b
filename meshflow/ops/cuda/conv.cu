// Copyright 2026 The meshflow Authors.
// The CUDA kernels of convolution, pooling and padding (ops/conv.cc, ops/pool.cc), 2-d and
// 3-d alike (conv_util.h's three axes): same attributes, shapes and errors as the CPU's, the
// geometry from conv_util.h. Direct kernels, one thread per output element, except where
// several outputs would write one element: the weight gradient of a convolution gives each
// weight a block that sums its terms in a fixed tree (shapes alone decide the order), and the
// pooling backward ops give each plane a thread that adds its outputs' contributions in
// output order, as the CPU does. No atomics, so replicas agree bit for bit.
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

using kernel::kAxes;
using kernel::visit_floating;

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

// ---------------------------------------------------------------------------------------------
// conv2d, conv3d

// The input position of output o along axis a through tap i, or -1 outside the input.
__device__ int64_t tap_source(const ConvGeometry& g, int a, int64_t o, int64_t i) {
  const int64_t at = o * g.stride[a] - g.pad[a] + i * g.dilation[a];
  return at >= 0 && at < g.in[a] ? at : -1;
}

// The output position along axis a that reads input position `in` through tap i, or -1.
__device__ int64_t tap_target(const ConvGeometry& g, int a, int64_t in, int64_t i) {
  const int64_t t = in + g.pad[a] - i * g.dilation[a];
  return t >= 0 && t % g.stride[a] == 0 && t / g.stride[a] < g.out[a] ? t / g.stride[a] : -1;
}

template <typename T>
__global__ void conv_forward(ConvGeometry g, const T* __restrict__ x, const T* __restrict__ w,
                             const T* __restrict__ bias, T* __restrict__ y, int64_t total) {
  const int64_t cin = g.in_per_group(), cout = g.out_per_group(), pixels = g.out_volume();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % g.out[2], oh = e / g.out[2] % g.out[1], od = e / (g.out[2] * g.out[1]) % g.out[0];
    const int64_t co = e / pixels % g.out_channels, n = e / (pixels * g.out_channels), group = co / cout;
    T acc = bias ? bias[co] : T(0);
    for (int64_t c = 0; c < cin; ++c) {
      const T* plane = x + (n * g.in_channels + group * cin + c) * g.in_volume();
      const T* filter = w + (co * cin + c) * g.kernel_volume();
      for (int64_t i = 0; i < g.kernel[0]; ++i) {
        const int64_t id = tap_source(g, 0, od, i);
        if (id < 0) continue;
        for (int64_t j = 0; j < g.kernel[1]; ++j) {
          const int64_t ih = tap_source(g, 1, oh, j);
          if (ih < 0) continue;
          for (int64_t l = 0; l < g.kernel[2]; ++l) {
            const int64_t iw = tap_source(g, 2, ow, l);
            if (iw >= 0) {
              acc += plane[(id * g.in[1] + ih) * g.in[2] + iw] * filter[(i * g.kernel[1] + j) * g.kernel[2] + l];
            }
          }
        }
      }
    }
    y[e] = acc;
  }
}

Kernel conv(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor &x = in[0], &w = in[1];
    const ConvGeometry g = kernel::conv_geometry(name, ctx.attrs, x.shape(), w.shape());
    Memory& mem = memory_of(in);
    Tensor y = output(ctx, 0, kernel::conv_output_shape(g), x.dtype(), mem);
    const int64_t total = y.numel();
    launch_per_element(name, x.dtype(), total, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      conv_forward<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), w.data_as<T>(),
                                                      in.size() > 2 ? in[2].data_as<T>() : nullptr, y.data_as<T>(),
                                                      total);
    });
    return {y};
  };
}

// dx[n, c, id, ih, iw] = sum over the outputs whose windows read it of dy * w.
template <typename T>
__global__ void conv_backward_data(ConvGeometry g, const T* __restrict__ dy, const T* __restrict__ w,
                                   const T* __restrict__ bias, T* __restrict__ dx, int64_t total) {
  const int64_t cin = g.in_per_group(), cout = g.out_per_group(), volume = g.in_volume();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t iw = e % g.in[2], ih = e / g.in[2] % g.in[1], id = e / (g.in[2] * g.in[1]) % g.in[0];
    const int64_t c = e / volume % g.in_channels, n = e / (volume * g.in_channels);
    const int64_t group = c / cin, ci = c % cin;
    T acc = bias ? bias[c] : T(0);
    for (int64_t co = group * cout; co < (group + 1) * cout; ++co) {
      const T* grad = dy + (n * g.out_channels + co) * g.out_volume();
      const T* filter = w + (co * cin + ci) * g.kernel_volume();
      for (int64_t i = 0; i < g.kernel[0]; ++i) {
        const int64_t od = tap_target(g, 0, id, i);
        if (od < 0) continue;
        for (int64_t j = 0; j < g.kernel[1]; ++j) {
          const int64_t oh = tap_target(g, 1, ih, j);
          if (oh < 0) continue;
          for (int64_t l = 0; l < g.kernel[2]; ++l) {
            const int64_t ow = tap_target(g, 2, iw, l);
            if (ow >= 0) {
              acc += grad[(od * g.out[1] + oh) * g.out[2] + ow] * filter[(i * g.kernel[1] + j) * g.kernel[2] + l];
            }
          }
        }
      }
    }
    dx[e] = acc;
  }
}

Kernel conv_backward_data(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor &dy = in[0], &w = in[1];
    const Shape xs = kernel::conv_input_shape(ctx.attrs, dy.shape(), w.shape());
    const ConvGeometry g = kernel::conv_geometry(name, ctx.attrs, xs, w.shape());
    Memory& mem = memory_of(in);
    Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
    const int64_t total = dx.numel();
    launch_per_element(name, dy.dtype(), total, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      conv_backward_data<<<blocks, kThreads, 0, stream()>>>(g, dy.data_as<T>(), w.data_as<T>(),
                                                            in.size() > 2 ? in[2].data_as<T>() : nullptr,
                                                            dx.data_as<T>(), total);
    });
    return {dx};
  };
}

// A block per weight element: its threads stride over (n, od, oh, ow), then a tree in shared
// memory adds their sums.
template <typename T>
__global__ void conv_backward_weight(ConvGeometry g, const T* __restrict__ x, const T* __restrict__ dy,
                                     T* __restrict__ dw, int64_t weights) {
  __shared__ T partial[kThreads];
  const int64_t cin = g.in_per_group(), cout = g.out_per_group(), taps = g.kernel_volume();
  const int64_t pixels = g.out_volume(), terms = g.batch * pixels;
  for (int64_t e = blockIdx.x; e < weights; e += gridDim.x) {
    const int64_t t = e % taps, ci = e / taps % cin, co = e / (taps * cin);
    const int64_t l = t % g.kernel[2], j = t / g.kernel[2] % g.kernel[1], i = t / (g.kernel[2] * g.kernel[1]);
    const int64_t c = co / cout * cin + ci;
    T acc = 0;
    for (int64_t s = threadIdx.x; s < terms; s += blockDim.x) {
      const int64_t n = s / pixels, ow = s % g.out[2], oh = s / g.out[2] % g.out[1];
      const int64_t od = s / (g.out[2] * g.out[1]) % g.out[0];
      const int64_t id = tap_source(g, 0, od, i), ih = tap_source(g, 1, oh, j), iw = tap_source(g, 2, ow, l);
      if (id >= 0 && ih >= 0 && iw >= 0) {
        acc += dy[(n * g.out_channels + co) * pixels + s % pixels] *
               x[(n * g.in_channels + c) * g.in_volume() + (id * g.in[1] + ih) * g.in[2] + iw];
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

Kernel conv_backward_weight(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor &x = in[0], &dy = in[1];
    const Shape ws = kernel::conv_weight_shape(ctx.attrs, x.shape(), dy.shape());
    const ConvGeometry g = kernel::conv_geometry(name, ctx.attrs, x.shape(), ws);
    Memory& mem = memory_of(in);
    expect_no_bfloat16(name, x.dtype());
    Tensor dw = output(ctx, 0, ws, x.dtype(), mem);
    const int64_t weights = dw.numel();
    if (weights == 0) return {dw};
    visit_floating(x.dtype(), [&](auto v) {
      using T = decltype(v);
      const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(weights, int64_t{multiprocessors()} * 32));
      conv_backward_weight<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), dy.data_as<T>(), dw.data_as<T>(),
                                                              weights);
      check_launch(name);
    });
    return {dw};
  };
}

// ---------------------------------------------------------------------------------------------
// Pooling

Shape backward_input_shape(const Attrs& attrs, const Shape& dy) {
  Shape x{dy[0], dy[1]};
  for (int64_t n : attrs.get_ints("input_size")) x.push_back(n);
  return x;
}

bool count_include_pad(const Attrs& attrs) {
  return !attrs.has("count_include_pad") || attrs.get_bool("count_include_pad");
}
int64_t divisor_override(const Attrs& attrs) {
  return attrs.has("divisor_override") ? attrs.get_int("divisor_override") : 0;
}

// Output e's position (od, oh, ow) in its plane, and the plane.
__device__ int64_t pool_output_at(const PoolGeometry& g, int64_t e, int64_t o[kAxes]) {
  o[2] = e % g.axis[2].out;
  o[1] = e / g.axis[2].out % g.axis[1].out;
  o[0] = e / (g.axis[2].out * g.axis[1].out) % g.axis[0].out;
  return e / g.out_volume();
}

template <typename T>
__global__ void max_pool_forward(PoolGeometry g, const T* __restrict__ x, T* __restrict__ y, int64_t* __restrict__ idx,
                                 int64_t total) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    int64_t o[kAxes];
    const T* plane = x + pool_output_at(g, e, o) * g.in_volume();
    const Window wd = kernel::pool_window(ad, o[0]), wh = kernel::pool_window(ah, o[1]);
    const Window ww = kernel::pool_window(aw, o[2]);
    T best = -INFINITY;
    int64_t at = (wd.first * ah.in + wh.first) * aw.in + ww.first;
    for (int64_t id = wd.first; id < wd.stop; id += wd.step) {
      for (int64_t ih = wh.first; ih < wh.stop; ih += wh.step) {
        for (int64_t iw = ww.first; iw < ww.stop; iw += ww.step) {
          const int64_t i = (id * ah.in + ih) * aw.in + iw;
          const T value = plane[i];
          if (value > best || isnan(value)) {
            best = value;
            at = i;
          }
        }
      }
    }
    y[e] = best;
    idx[e] = at;
  }
}

Kernel max_pool(const char* name, bool adaptive, int dims) {
  return [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive, dims);
    Memory& mem = memory_of(in);
    const Shape out = kernel::pool_output_shape(x.shape(), g);
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

Kernel max_pool_backward(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor &dy = in[0], &indices = in[1];
    const Shape xs = backward_input_shape(ctx.attrs, dy.shape());
    Memory& mem = memory_of(in);
    Tensor dx = output(ctx, 0, xs, dy.dtype(), mem);
    const int64_t planes = xs[0] * xs[1];
    if (dx.numel() == 0) return {dx};
    launch_per_element(name, dy.dtype(), planes, [&](auto v, unsigned blocks) {
      using T = decltype(v);
      max_pool_backward_planes<<<blocks, kThreads, 0, stream()>>>(dy.data_as<T>(), indices.data_as<int64_t>(),
                                                                  dx.data_as<T>(), planes, dx.numel() / planes,
                                                                  dy.numel() / planes);
    });
    return {dx};
  };
}

template <typename T>
__global__ void avg_pool_forward(PoolGeometry g, bool with_pad, int64_t override_, const T* __restrict__ x,
                                 T* __restrict__ y, int64_t total) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    int64_t o[kAxes];
    const T* plane = x + pool_output_at(g, e, o) * g.in_volume();
    const Window wd = kernel::pool_window(ad, o[0]), wh = kernel::pool_window(ah, o[1]);
    const Window ww = kernel::pool_window(aw, o[2]);
    T sum = 0;
    for (int64_t id = wd.first; id < wd.stop; ++id) {
      for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
        for (int64_t iw = ww.first; iw < ww.stop; ++iw) sum += plane[(id * ah.in + ih) * aw.in + iw];
      }
    }
    y[e] = sum / static_cast<T>(kernel::avg_pool_divisor(g, o, with_pad, override_));
  }
}

Kernel avg_pool(const char* name, bool adaptive, int dims) {
  return [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive, dims);
    Memory& mem = memory_of(in);
    Tensor y = output(ctx, 0, kernel::pool_output_shape(x.shape(), g), x.dtype(), mem);
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
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  for (int64_t p = first_index(); p < g.planes; p += grid_step()) {
    T* d = dx + p * g.in_volume();
    const T* gy = dy + p * g.out_volume();
    for (int64_t i = 0; i < g.in_volume(); ++i) d[i] = 0;
    for (int64_t e = 0; e < g.out_volume(); ++e) {
      int64_t o[kAxes];
      pool_output_at(g, e, o);
      const Window wd = kernel::pool_window(ad, o[0]), wh = kernel::pool_window(ah, o[1]);
    const Window ww = kernel::pool_window(aw, o[2]);
      const T share = gy[e] / static_cast<T>(kernel::avg_pool_divisor(g, o, with_pad, override_));
      for (int64_t id = wd.first; id < wd.stop; ++id) {
        for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
          for (int64_t iw = ww.first; iw < ww.stop; ++iw) d[(id * ah.in + ih) * aw.in + iw] += share;
        }
      }
    }
  }
}

Kernel avg_pool_backward(const char* name, bool adaptive, int dims) {
  return [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& dy = in[0];
    const Shape xs = backward_input_shape(ctx.attrs, dy.shape());
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, xs, adaptive, dims);
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
// unfold, fold (kernel::block_geometry: 2-d, its depth axis trivial)

template <typename T>
__global__ void unfold_kernel(ConvGeometry g, const T* __restrict__ x, T* __restrict__ y, int64_t total) {
  const int64_t taps = g.kernel_volume(), pixels = g.out_volume();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t b = e % pixels, t = e / pixels % taps, plane = e / (pixels * taps);
    const int64_t ih = tap_source(g, 1, b / g.out[2], t / g.kernel[2]), iw = tap_source(g, 2, b % g.out[2], t % g.kernel[2]);
    y[e] = ih >= 0 && iw >= 0 ? x[plane * g.in_volume() + ih * g.in[2] + iw] : T(0);
  }
}

std::vector<Tensor> unfold(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Shape& xs = x.shape();
  const ConvGeometry g = kernel::block_geometry("unfold", ctx.attrs, xs[1], {xs[2], xs[3]});
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, {xs[0], xs[1] * g.kernel_volume(), g.out_volume()}, x.dtype(), mem);
  const int64_t total = y.numel();
  launch_per_element("unfold", x.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    unfold_kernel<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), total);
  });
  return {y};
}

// A thread per output element sums its blocks' entries in tap order, as the CPU's col2im.
template <typename T>
__global__ void fold_kernel(ConvGeometry g, const T* __restrict__ cols, T* __restrict__ y, int64_t total) {
  const int64_t taps = g.kernel_volume(), pixels = g.out_volume();
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t at = e % g.in_volume(), plane = e / g.in_volume();
    const T* entries = cols + plane * taps * pixels;
    T sum = 0;
    for (int64_t t = 0; t < taps; ++t) {
      const int64_t oh = tap_target(g, 1, at / g.in[2], t / g.kernel[2]), ow = tap_target(g, 2, at % g.in[2], t % g.kernel[2]);
      if (oh >= 0 && ow >= 0) sum += entries[t * pixels + oh * g.out[2] + ow];
    }
    y[e] = sum;
  }
}

std::vector<Tensor> fold(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const std::vector<int64_t>& size = ctx.attrs.get_ints("output_size");
  const ConvGeometry g = kernel::block_geometry("fold", ctx.attrs, 0, Shape(size));
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, {x.shape()[0], x.shape()[1] / g.kernel_volume(), size[0], size[1]}, x.dtype(), mem);
  const int64_t total = y.numel();
  launch_per_element("fold", x.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    fold_kernel<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), total);
  });
  return {y};
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
  expect_no_bfloat16("upsample_nearest", x.dtype());
  if (total == 0) return {y};
  visit_numbers(x.dtype(), [&](auto v) {  // a gather: integer inputs too, as the CPU's
    using T = decltype(v);
    upsample_kernel<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), total);
    check_launch("upsample_nearest");
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

// ---------------------------------------------------------------------------------------------
// upsample_linear, upsample_linear_backward: one thread per element of the result

template <typename T>
__global__ void resample_kernel(kernel::ResampleGeometry g, const T* __restrict__ x, T* __restrict__ y, int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) y[e] = kernel::resample_at(g, x, e);
}

template <typename T>
__global__ void resample_backward_kernel(kernel::ResampleGeometry g, const T* __restrict__ dy, T* __restrict__ dx,
                                         int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) dx[e] = kernel::resample_backward_at(g, dy, e);
}

std::vector<Tensor> upsample_linear(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::ResampleGeometry g = kernel::resample_geometry("upsample_linear", ctx.attrs, x.shape());
  Shape out{x.shape()[0], x.shape()[1]};
  for (int d = 0; d < g.k; ++d) out.push_back(g.out[d]);
  Tensor y = output(ctx, 0, out, x.dtype(), memory_of(in));
  const int64_t total = y.numel();
  launch_per_element("upsample_linear", x.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    resample_kernel<<<blocks, kThreads, 0, stream()>>>(g, x.data_as<T>(), y.data_as<T>(), total);
  });
  return {y};
}

std::vector<Tensor> upsample_linear_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  Shape xs{dy.shape()[0], dy.shape()[1]};
  for (int64_t n : ctx.attrs.get_ints("input_size")) xs.push_back(n);
  const kernel::ResampleGeometry g = kernel::resample_geometry("upsample_linear_backward", ctx.attrs, xs);
  Tensor dx = output(ctx, 0, xs, dy.dtype(), memory_of(in));
  const int64_t total = dx.numel();
  launch_per_element("upsample_linear_backward", dy.dtype(), total, [&](auto v, unsigned blocks) {
    using T = decltype(v);
    resample_backward_kernel<<<blocks, kThreads, 0, stream()>>>(g, dy.data_as<T>(), dx.data_as<T>(), total);
  });
  return {dx};
}

}  // namespace

void add_conv_kernels(OpRegistry& r) {
  // The names outlive the kernels that keep them (the process's).
  static const char* const kNames[][10] = {
      {"conv2d", "conv2d_backward_data", "conv2d_backward_weight", "max_pool2d", "adaptive_max_pool2d",
       "max_pool2d_backward", "avg_pool2d", "adaptive_avg_pool2d", "avg_pool2d_backward",
       "adaptive_avg_pool2d_backward"},
      {"conv3d", "conv3d_backward_data", "conv3d_backward_weight", "max_pool3d", "adaptive_max_pool3d",
       "max_pool3d_backward", "avg_pool3d", "adaptive_avg_pool3d", "avg_pool3d_backward",
       "adaptive_avg_pool3d_backward"}};
  for (int dims : {2, 3}) {
    const char* const* n = kNames[dims - 2];
    r.add_kernel("cuda", n[0], conv(n[0]));
    r.add_kernel("cuda", n[1], conv_backward_data(n[1]));
    r.add_kernel("cuda", n[2], conv_backward_weight(n[2]));
    r.add_kernel("cuda", n[3], max_pool(n[3], false, dims));
    r.add_kernel("cuda", n[4], max_pool(n[4], true, dims));
    r.add_kernel("cuda", n[5], max_pool_backward(n[5]));
    r.add_kernel("cuda", n[6], avg_pool(n[6], false, dims));
    r.add_kernel("cuda", n[7], avg_pool(n[7], true, dims));
    r.add_kernel("cuda", n[8], avg_pool_backward(n[8], false, dims));
    r.add_kernel("cuda", n[9], avg_pool_backward(n[9], true, dims));
  }
  r.add_kernel("cuda", "pad", pad);
  r.add_kernel("cuda", "pad_backward", pad_backward);
  r.add_kernel("cuda", "unfold", unfold);
  r.add_kernel("cuda", "fold", fold);
  r.add_kernel("cuda", "upsample_nearest", upsample_nearest);
  r.add_kernel("cuda", "upsample_nearest_backward", upsample_nearest_backward);
  r.add_kernel("cuda", "upsample_linear", upsample_linear);
  r.add_kernel("cuda", "upsample_linear_backward", upsample_linear_backward);
}

}  // namespace mf::cuda
