// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the elementwise ops (ops/elementwise.cc) and of the activations'
// backward ops (ops/nn.cc). Each op's math is its functor in ops/elementwise_math.h, the
// CPU's kernels' too (integers wrap, divide toward zero or down, raise to powers as torch.pow
// does; casts round halves as core/dtype.h's conversions, bit for bit). Every op
// runs through one kernel template that reads each input at its NumPy-broadcast position.
// Broadcast dims are merged on the host first, so the common cases (equal shapes, a bias row)
// take few or no divisions per element.
//
// Float32 computes with the float functions (expf, logf, ...) and float64 with the double
// ones, as the functors say; the CPU's float32 exp, tanh, sigmoid, gelu (both forms) and silu use
// ops/fast_math.h's vectorizing forms instead, within a few ulps of them.
#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/special_math.h"

namespace mf::cuda {
namespace {

using scalar::kIntegral;

// A unary op computing in TO: integers given to an op that makes them float32 are
// converted first (TO is the input's own type otherwise).
template <typename TO, typename F>
struct In {
  template <typename TI>
  __device__ TO operator()(TI x) const {
    return F{}(static_cast<TO>(x));
  }
};

// x op s, s the attribute "value" in x's dtype.
template <typename F, typename T>
struct WithScalar {
  T s;
  __device__ T operator()(T x) const { return F{}(x, s); }
};

// ---------------------------------------------------------------------------------------
// The one elementwise kernel: out[i] = f(in_0[o_0(i)], ...), o_k(i) input k's broadcast
// offset of output index i.

constexpr int kThreads = 256;
// Elements a thread loads before it stores any: loads in flight hide memory latency.
constexpr int kUnroll = 4;
// Dims left after merging (the ones broadcasting cannot merge away).
constexpr int kMaxDims = 12;

// The output's dims (merged where every input runs contiguously across them) and each
// input's strides on them (0 where it is broadcast).
template <size_t N>
struct Layout {
  int nd = 0;
  bool narrow = true;  // every index and offset fits 32 bits: cheaper divisions
  int64_t dims[kMaxDims] = {};
  int64_t strides[N][kMaxDims] = {};

  template <typename I>
  __device__ void walk(I i, int64_t (&off)[N]) const {
    I o[N] = {};
    for (int d = nd - 1; d >= 0; --d) {
      const I dim = static_cast<I>(dims[d]);
      const I q = i / dim;
      const I idx = i - q * dim;
      i = q;
#pragma unroll
      for (size_t k = 0; k < N; ++k) o[k] += idx * static_cast<I>(strides[k][d]);
    }
#pragma unroll
    for (size_t k = 0; k < N; ++k) off[k] = static_cast<int64_t>(o[k]);
  }

  __device__ void offsets(int64_t i, int64_t (&off)[N]) const {
    if (narrow) {
      walk(static_cast<uint32_t>(i), off);
    } else {
      walk(i, off);
    }
  }
};

// f of the inputs at output index i; kSame: every input has the output's layout (offset i).
template <bool kSame, typename F, size_t... Is, typename... TI>
__device__ auto apply(const F& f, const Layout<sizeof...(TI)>& layout, int64_t i, std::index_sequence<Is...>,
                      const TI*... in) {
  if constexpr (kSame) {
    return f(in[i]...);
  } else {
    int64_t off[sizeof...(TI)];
    layout.offsets(i, off);
    return f(in[off[Is]]...);
  }
}

template <bool kSame, typename F, typename TO, typename... TI>
__global__ void __launch_bounds__(kThreads)
    elementwise_kernel(F f, int64_t n, Layout<sizeof...(TI)> layout, TO* out, const TI*... in) {
  const int64_t tile = static_cast<int64_t>(blockDim.x) * kUnroll;
  const int64_t step = tile * gridDim.x;
  for (int64_t base = blockIdx.x * tile + threadIdx.x; base < n; base += step) {
    // All loads (and results) first, then the stores: an output that is an input's memory
    // is still read before it is written.
    TO result[kUnroll];
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const int64_t i = base + static_cast<int64_t>(j) * blockDim.x;
      if (i < n) result[j] = apply<kSame>(f, layout, i, std::index_sequence_for<TI...>{}, in...);
    }
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const int64_t i = base + static_cast<int64_t>(j) * blockDim.x;
      if (i < n) out[i] = result[j];
    }
  }
}

// The layout of `in` read at `out`'s indices; returns whether every input has out's layout.
template <size_t N>
bool make_layout(const char* name, const Shape& out, const std::array<const Tensor*, N>& in, Layout<N>& layout) {
  std::array<Shape, N> strides;
  for (size_t k = 0; k < N; ++k) strides[k] = kernel::broadcast_strides(in[k]->shape(), out);
  // Outermost first; dims of size 1 index nothing. A dim merges into the one outside it when
  // every input steps across the boundary as it steps within (stride 0 merges with 0).
  struct Dim {
    int64_t size;
    std::array<int64_t, N> stride;
  };
  std::vector<Dim> dims;
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    Dim dim{out[d], {}};
    for (size_t k = 0; k < N; ++k) dim.stride[k] = strides[k][d];
    bool merges = !dims.empty();
    for (size_t k = 0; k < N && merges; ++k) merges = dims.back().stride[k] == dim.stride[k] * dim.size;
    if (merges) {
      dims.back().size *= dim.size;
      dims.back().stride = dim.stride;
    } else {
      dims.push_back(dim);
    }
  }
  if (dims.size() > static_cast<size_t>(kMaxDims)) {
    op_error(name, "the CUDA kernel broadcasts over at most " + std::to_string(kMaxDims) + " unmergeable dims, got " +
                       std::to_string(dims.size()));
  }
  layout.nd = static_cast<int>(dims.size());
  layout.narrow = numel(out) <= static_cast<int64_t>(UINT32_MAX);
  bool same = dims.size() <= 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    layout.dims[d] = dims[d].size;
    for (size_t k = 0; k < N; ++k) {
      layout.strides[k][d] = dims[d].stride[k];
      same = same && dims[d].stride[k] == 1;
    }
  }
  return same;
}

template <typename TO, typename... TI, typename F, size_t... Is>
void launch_on(const char* name, const F& f, const Tensor& out, const std::array<const Tensor*, sizeof...(TI)>& in,
               std::index_sequence<Is...>) {
  const int64_t n = out.numel();
  if (n == 0) return;
  Layout<sizeof...(TI)> layout;
  // One-input ops (unary, with a scalar, cast) have their input's shape: only two or more
  // inputs broadcast, and only they get the broadcasting kernel built.
  constexpr bool kOneInput = sizeof...(TI) == 1;
  const bool same = kOneInput || make_layout(name, out.shape(), in, layout);
  const unsigned blocks = blocks_for((n + kUnroll - 1) / kUnroll, kThreads);
  if (same) {
    elementwise_kernel<true><<<blocks, kThreads, 0, stream()>>>(f, n, layout, out.data_as<TO>(),
                                                                 in[Is]->template data_as<TI>()...);
  } else if constexpr (!kOneInput) {
    elementwise_kernel<false><<<blocks, kThreads, 0, stream()>>>(f, n, layout, out.data_as<TO>(),
                                                                  in[Is]->template data_as<TI>()...);
  }
  check_launch(name);
}

// out = f(in...) elementwise, in of dtypes TI... broadcast to out's shape, out of dtype TO.
template <typename TO, typename... TI, typename F>
void launch(const char* name, const F& f, const Tensor& out, const std::array<const Tensor*, sizeof...(TI)>& in) {
  launch_on<TO, TI...>(name, f, out, in, std::index_sequence_for<TI...>{});
}

// ---------------------------------------------------------------------------------------
// Integer division by zero: raised before any element is computed, as on the CPU.

template <typename T>
__global__ void find_zero(const T* y, int64_t n, int* found) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    if (y[i] == 0) *found = 1;  // every writer stores the same value
  }
}

void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void expect_nonzero_divisor(const std::string& name, const Tensor& y, Memory& mem) {
  visit_dtype(y.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (kIntegral<T>) {
      const int64_t n = y.numel();
      if (n == 0) return;
      std::shared_ptr<void> flag = mem.allocate(sizeof(int));
      check_cuda(cudaMemsetAsync(flag.get(), 0, sizeof(int), stream()), "cudaMemsetAsync");
      find_zero<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(y.data_as<T>(), n, static_cast<int*>(flag.get()));
      check_launch("find_zero");
      int found = 0;
      check_cuda(cudaMemcpyAsync(&found, flag.get(), sizeof(int), cudaMemcpyDeviceToHost, stream()), "cudaMemcpyAsync");
      check_cuda(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
      if (found) op_error(name, "integer division by zero; expected nonzero divisors (or a float dtype)");
    }
  });
}

// ---------------------------------------------------------------------------------------
// Kernels by kind of op, as elementwise.cc builds them.

// Two inputs of one dtype, broadcast to the output; `divides`: integer divisors are checked.
template <typename F>
Kernel binary(const char* name, bool divides = false) {
  return [name, divides](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Memory& mem = memory_of(in);
    const Shape& shape = ctx.output_boxes[0].extent;
    if (divides && numel(shape) > 0) expect_nonzero_divisor(name, in[1], mem);
    Tensor out = output(ctx, 0, shape, in[0].dtype(), mem);
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch<T, T, T>(name, F{}, out, {&in[0], &in[1]});
    });
    return std::vector<Tensor>{out};
  };
}

// add's and sub's (sign -1): `binary` without attribute "alpha", else x + sign alpha y by
// scalar::AddScaled (one fused multiply-add, as the CPU's).
Kernel with_alpha(Kernel plain, double sign) {
  return [plain, sign](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (!ctx.attrs.has("alpha")) return plain(in, ctx);
    Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    const scalar::AddScaled f{sign * ctx.attrs.get_float("alpha")};
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch<T, T, T>("add", f, out, {&in[0], &in[1]});
    });
    return std::vector<Tensor>{out};
  };
}

// addcmul: x + value t1 t2 by scalar::AddcmulOf (the CPU's rounding), floats and integers
// (halves come widened to float32).
std::vector<Tensor> addcmul(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
  const scalar::AddcmulOf f{ctx.attrs.get_float("value")};
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr ((std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, float> ||
                  std::is_same_v<T, double>) {
      launch<T, T, T, T>("addcmul", f, out, {&in[0], &in[1], &in[2]});
    }
  });
  return std::vector<Tensor>{out};
}

// What a unary op does with integer inputs.
enum class Integers { kKeep, kToFloat32, kReject };

template <typename F, Integers kIntegers>
Kernel unary(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), ctx.outputs[0].dtype, memory_of(in));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using TI = decltype(v);
      // The op's infer refuses integers for kReject.
      if constexpr (!kIntegral<TI> || kIntegers != Integers::kReject) {
        using TO = std::conditional_t<kIntegral<TI> && kIntegers == Integers::kToFloat32, float, TI>;
        launch<TO, TI>(name, In<TO, F>{}, out, {&in[0]});
      }
    });
    return std::vector<Tensor>{out};
  };
}

template <typename F>
Kernel with_scalar(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch<T, T>(name, WithScalar<F, T>{kernel::scalar_attr<T>(ctx.attrs, "value")}, out, {&in[0]});
    });
    return std::vector<Tensor>{out};
  };
}

Kernel clamp(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      const kernel::ClampBounds<T> b = kernel::clamp_bounds<T>(ctx.attrs);
      launch<T, T>(name, scalar::Clamp<T>{b.lo, b.hi}, out, {&in[0]});
    });
    return std::vector<Tensor>{out};
  };
}

Kernel clamp_backward(const char* name, bool hardtanh) {
  return [name, hardtanh](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) {
        const kernel::ClampBounds<T> b = kernel::clamp_bounds<T>(ctx.attrs);
        if (hardtanh) {
          launch<T, T, T>(name, scalar::ClampBackward<T, true>{b.lo, b.hi, b.has_lo, b.has_hi}, out, {&in[0], &in[1]});
        } else {
          launch<T, T, T>(name, scalar::ClampBackward<T, false>{b.lo, b.hi, b.has_lo, b.has_hi}, out, {&in[0], &in[1]});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
}

// smooth_l1 (x, t) and its backward (x, t, dy): float x (the op's infer refuses others).
Kernel smooth_l1(const char* name, bool backward) {
  return [name, backward](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) {
        const T beta = static_cast<T>(ctx.attrs.get_float("beta"));
        auto run = [&](auto term, auto gradient) {
          if (backward) {
            launch<T, T, T, T>(name, gradient, out, {&in[0], &in[1], &in[2]});
          } else {
            launch<T, T, T>(name, term, out, {&in[0], &in[1]});
          }
        };
        if (ctx.attrs.get_bool("huber")) {
          run(scalar::SmoothL1<T, true>{beta}, scalar::SmoothL1Backward<T, true>{beta});
        } else {
          run(scalar::SmoothL1<T, false>{beta}, scalar::SmoothL1Backward<T, false>{beta});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
}

// leaky_relu and its backward (x, dy): float x (the op's infer refuses others).
Kernel leaky_relu(const char* name, bool backward) {
  return [name, backward](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) {
        const T slope = static_cast<T>(ctx.attrs.get_float("negative_slope"));
        if (backward) {
          launch<T, T, T>(name, scalar::LeakyReluBackward<T>{slope}, out, {&in[0], &in[1]});
        } else {
          launch<T, T>(name, scalar::LeakyRelu<T>{slope}, out, {&in[0]});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
}

// softplus and its backward (x, dy): float x (the op's infer refuses others).
Kernel softplus(const char* name, bool backward) {
  return [name, backward](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) {
        const T beta = static_cast<T>(ctx.attrs.get_float("beta"));
        const T threshold = static_cast<T>(ctx.attrs.get_float("threshold"));
        if (backward) {
          launch<T, T, T>(name, scalar::SoftplusBackward<T>{beta, threshold}, out, {&in[0], &in[1]});
        } else {
          launch<T, T>(name, scalar::Softplus<T>{beta, threshold}, out, {&in[0]});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
}

// Two inputs of one dtype (bool too), a bool result.
template <typename F>
Kernel predicate2(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, DType::kBool, memory_of(in));
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch<bool, T, T>(name, F{}, out, {&in[0], &in[1]});
    });
    return std::vector<Tensor>{out};
  };
}

// One input of any dtype (bool too), a bool result.
template <typename F>
Kernel predicate(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), DType::kBool, memory_of(in));
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch<bool, T>(name, F{}, out, {&in[0]});
    });
    return std::vector<Tensor>{out};
  };
}

// Bitwise ops: bool or integer inputs (infer refuses floats), the result in their dtype.
template <typename F, size_t kInputs>
Kernel bitwise(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (kIntegral<T>) {
        if constexpr (kInputs == 2) {
          launch<T, T, T>(name, F{}, out, {&in[0], &in[1]});
        } else {
          launch<T, T>(name, F{}, out, {&in[0]});
        }
      }
    });
    return std::vector<Tensor>{out};
  };
}

std::vector<Tensor> where(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[1].dtype(), memory_of(in));
  visit_with_bool(in[0].dtype(), [&](auto c) {
    visit_with_bool(out.dtype(), [&](auto v) {
      using TC = decltype(c);
      using T = decltype(v);
      launch<T, TC, T, T>("where", scalar::Select{}, out, {&in[0], &in[1], &in[2]});
    });
  });
  return {out};
}

std::vector<Tensor> cast(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = output(ctx, 0, in[0].shape(), ctx.outputs[0].dtype, memory_of(in));
  visit_real_storage(in[0].dtype(), [&](auto from) {
    visit_real_storage(out.dtype(), [&](auto to) {
      using TI = decltype(from);
      using TO = decltype(to);
      launch<TO, TI>("cast", scalar::Cast<TO>{}, out, {&in[0]});
    });
  });
  return {out};
}

// An activation's backward op: floats only (its infer refuses the rest), the saved tensor
// and dy of one shape.
template <typename F>
Kernel activation_backward(const char* op) {
  return [op](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) launch<T, T, T>(op, F{}, out, {&in[0], &in[1]});
    });
    return std::vector<Tensor>{out};
  };
}

// ---------------------------------------------------------------------------------------
// The math ops of torch's names (elementwise.cc's register_math_ops) but for their functors.

// polygamma(x; n), n >= 1 (the op's infer checks it).
struct Polygamma {
  int64_t n;
  template <typename T>
  __device__ T operator()(T x) const {
    return static_cast<T>(special::polygamma(n, static_cast<double>(x)));
  }
};

// x's dtype for floats, float32 for integers (as In does for the unary ops).
template <typename TO, typename F>
struct InWith {
  F f;
  template <typename TI>
  __device__ TO operator()(TI x) const {
    return f(static_cast<TO>(x));
  }
};

std::vector<Tensor> polygamma(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = output(ctx, 0, in[0].shape(), ctx.outputs[0].dtype, memory_of(in));
  const Polygamma f{ctx.attrs.get_int("n")};
  visit_dtype(in[0].dtype(), [&](auto v) {
    using TI = decltype(v);
    using TO = std::conditional_t<kIntegral<TI>, float, TI>;
    launch<TO, TI>("polygamma", InWith<TO, Polygamma>{f}, out, {&in[0]});
  });
  return std::vector<Tensor>{out};
}

// A binary op on floats only (its infer refuses the rest).
template <typename F>
Kernel float_binary(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (!kIntegral<T>) launch<T, T, T>(name, F{}, out, {&in[0], &in[1]});
    });
    return std::vector<Tensor>{out};
  };
}

}  // namespace

void add_elementwise_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "add", with_alpha(binary<scalar::Add>("add"), 1));
  r.add_kernel("cuda", "sub", with_alpha(binary<scalar::Sub>("sub"), -1));
  r.add_kernel("cuda", "mul", binary<scalar::Mul>("mul"));
  r.add_kernel("cuda", "addcmul", addcmul);
  r.add_kernel("cuda", "div", binary<scalar::Div>("div", true));
  r.add_kernel("cuda", "floor_divide", binary<scalar::FloorDivide>("floor_divide", true));
  r.add_kernel("cuda", "maximum", binary<scalar::Maximum>("maximum"));
  r.add_kernel("cuda", "minimum", binary<scalar::Minimum>("minimum"));
  r.add_kernel("cuda", "pow", binary<scalar::Pow>("pow"));
  r.add_kernel("cuda", "eq", predicate2<scalar::Eq>("eq"));
  r.add_kernel("cuda", "ne", predicate2<scalar::Ne>("ne"));
  r.add_kernel("cuda", "lt", predicate2<scalar::Lt>("lt"));
  r.add_kernel("cuda", "le", predicate2<scalar::Le>("le"));
  r.add_kernel("cuda", "gt", predicate2<scalar::Gt>("gt"));
  r.add_kernel("cuda", "ge", predicate2<scalar::Ge>("ge"));
  r.add_kernel("cuda", "where", where);
  r.add_kernel("cuda", "logical_and", predicate2<scalar::LogicalAnd>("logical_and"));
  r.add_kernel("cuda", "logical_or", predicate2<scalar::LogicalOr>("logical_or"));
  r.add_kernel("cuda", "logical_xor", predicate2<scalar::LogicalXor>("logical_xor"));
  r.add_kernel("cuda", "logical_not", predicate<scalar::LogicalNot>("logical_not"));
  r.add_kernel("cuda", "isnan", predicate<scalar::IsNan>("isnan"));
  r.add_kernel("cuda", "isinf", predicate<scalar::IsInf>("isinf"));
  r.add_kernel("cuda", "isfinite", predicate<scalar::IsFinite>("isfinite"));
  r.add_kernel("cuda", "bitwise_and", bitwise<scalar::BitwiseAnd, 2>("bitwise_and"));
  r.add_kernel("cuda", "bitwise_or", bitwise<scalar::BitwiseOr, 2>("bitwise_or"));
  r.add_kernel("cuda", "bitwise_xor", bitwise<scalar::BitwiseXor, 2>("bitwise_xor"));
  r.add_kernel("cuda", "bitwise_not", bitwise<scalar::BitwiseNot, 1>("bitwise_not"));
  r.add_kernel("cuda", "bitwise_left_shift", bitwise<scalar::ShiftLeft, 2>("bitwise_left_shift"));
  r.add_kernel("cuda", "bitwise_right_shift", bitwise<scalar::ShiftRight, 2>("bitwise_right_shift"));

  using I = Integers;
  r.add_kernel("cuda", "neg", unary<scalar::Neg, I::kKeep>("neg"));
  r.add_kernel("cuda", "abs", unary<scalar::Abs, I::kKeep>("abs"));
  r.add_kernel("cuda", "relu", unary<scalar::Relu, I::kKeep>("relu"));
  r.add_kernel("cuda", "trunc", unary<scalar::Trunc, I::kKeep>("trunc"));
  r.add_kernel("cuda", "exp", unary<scalar::Exp, I::kToFloat32>("exp"));
  r.add_kernel("cuda", "log", unary<scalar::Log, I::kToFloat32>("log"));
  r.add_kernel("cuda", "sqrt", unary<scalar::Sqrt, I::kToFloat32>("sqrt"));
  r.add_kernel("cuda", "rsqrt", unary<scalar::Rsqrt, I::kToFloat32>("rsqrt"));
  r.add_kernel("cuda", "tanh", unary<scalar::Tanh, I::kToFloat32>("tanh"));
  r.add_kernel("cuda", "sigmoid", unary<scalar::Sigmoid, I::kToFloat32>("sigmoid"));
  r.add_kernel("cuda", "gelu", unary<scalar::Gelu, I::kReject>("gelu"));
  r.add_kernel("cuda", "gelu_backward", activation_backward<scalar::GeluBackward>("gelu_backward"));
  r.add_kernel("cuda", "gelu_tanh", unary<scalar::GeluTanh, I::kReject>("gelu_tanh"));
  r.add_kernel("cuda", "gelu_tanh_backward", activation_backward<scalar::GeluTanhBackward>("gelu_tanh_backward"));
  r.add_kernel("cuda", "silu", unary<scalar::Silu, I::kReject>("silu"));
  r.add_kernel("cuda", "silu_backward", activation_backward<scalar::SiluBackward>("silu_backward"));
  r.add_kernel("cuda", "sigmoid_backward", activation_backward<scalar::SigmoidBackward>("sigmoid_backward"));
  r.add_kernel("cuda", "tanh_backward", activation_backward<scalar::TanhBackward>("tanh_backward"));
  r.add_kernel("cuda", "relu_backward", activation_backward<scalar::ReluBackward>("relu_backward"));
  r.add_kernel("cuda", "cast", cast);
  r.add_kernel("cuda", "clamp", clamp("clamp"));
  r.add_kernel("cuda", "hardtanh", clamp("hardtanh"));
  r.add_kernel("cuda", "clamp_backward", clamp_backward("clamp_backward", false));
  r.add_kernel("cuda", "hardtanh_backward", clamp_backward("hardtanh_backward", true));
  r.add_kernel("cuda", "leaky_relu", leaky_relu("leaky_relu", false));
  r.add_kernel("cuda", "leaky_relu_backward", leaky_relu("leaky_relu_backward", true));
  r.add_kernel("cuda", "softplus", softplus("softplus", false));
  r.add_kernel("cuda", "softplus_backward", softplus("softplus_backward", true));
  r.add_kernel("cuda", "smooth_l1", smooth_l1("smooth_l1", false));
  r.add_kernel("cuda", "smooth_l1_backward", smooth_l1("smooth_l1_backward", true));

  r.add_kernel("cuda", "add_scalar", with_scalar<scalar::Add>("add_scalar"));
  r.add_kernel("cuda", "mul_scalar", with_scalar<scalar::Mul>("mul_scalar"));
  r.add_kernel("cuda", "div_scalar", with_scalar<scalar::Div>("div_scalar"));
  r.add_kernel("cuda", "pow_scalar", with_scalar<scalar::PowScalar>("pow_scalar"));
  r.add_kernel("cuda", "rpow_scalar", with_scalar<scalar::RPow>("rpow_scalar"));

  // The math ops (elementwise.cc's register_math_ops).
  r.add_kernel("cuda", "sin", unary<scalar::Sin, I::kToFloat32>("sin"));
  r.add_kernel("cuda", "cos", unary<scalar::Cos, I::kToFloat32>("cos"));
  r.add_kernel("cuda", "tan", unary<scalar::Tan, I::kToFloat32>("tan"));
  r.add_kernel("cuda", "asin", unary<scalar::Asin, I::kToFloat32>("asin"));
  r.add_kernel("cuda", "acos", unary<scalar::Acos, I::kToFloat32>("acos"));
  r.add_kernel("cuda", "atan", unary<scalar::Atan, I::kToFloat32>("atan"));
  r.add_kernel("cuda", "sinh", unary<scalar::Sinh, I::kToFloat32>("sinh"));
  r.add_kernel("cuda", "cosh", unary<scalar::Cosh, I::kToFloat32>("cosh"));
  r.add_kernel("cuda", "asinh", unary<scalar::Asinh, I::kToFloat32>("asinh"));
  r.add_kernel("cuda", "acosh", unary<scalar::Acosh, I::kToFloat32>("acosh"));
  r.add_kernel("cuda", "atanh", unary<scalar::Atanh, I::kToFloat32>("atanh"));
  r.add_kernel("cuda", "erf", unary<scalar::Erf, I::kToFloat32>("erf"));
  r.add_kernel("cuda", "erfc", unary<scalar::Erfc, I::kToFloat32>("erfc"));
  r.add_kernel("cuda", "erfinv", unary<scalar::Erfinv, I::kToFloat32>("erfinv"));
  r.add_kernel("cuda", "log1p", unary<scalar::Log1p, I::kToFloat32>("log1p"));
  r.add_kernel("cuda", "expm1", unary<scalar::Expm1, I::kToFloat32>("expm1"));
  r.add_kernel("cuda", "log2", unary<scalar::Log2, I::kToFloat32>("log2"));
  r.add_kernel("cuda", "log10", unary<scalar::Log10, I::kToFloat32>("log10"));
  r.add_kernel("cuda", "exp2", unary<scalar::Exp2, I::kToFloat32>("exp2"));
  r.add_kernel("cuda", "reciprocal", unary<scalar::Reciprocal, I::kToFloat32>("reciprocal"));
  r.add_kernel("cuda", "sign", unary<scalar::Sign, I::kKeep>("sign"));
  r.add_kernel("cuda", "round", unary<scalar::Round, I::kKeep>("round"));
  r.add_kernel("cuda", "frac", unary<scalar::Frac, I::kReject>("frac"));
  r.add_kernel("cuda", "lgamma", unary<scalar::Lgamma, I::kToFloat32>("lgamma"));
  r.add_kernel("cuda", "digamma", unary<scalar::Digamma, I::kToFloat32>("digamma"));
  r.add_kernel("cuda", "polygamma", polygamma);
  r.add_kernel("cuda", "i0", unary<scalar::BesselI0, I::kToFloat32>("i0"));
  r.add_kernel("cuda", "i0e", unary<scalar::BesselI0e, I::kToFloat32>("i0e"));
  r.add_kernel("cuda", "i1", unary<scalar::BesselI1, I::kToFloat32>("i1"));
  r.add_kernel("cuda", "i1e", unary<scalar::BesselI1e, I::kToFloat32>("i1e"));
  r.add_kernel("cuda", "erfcx", unary<scalar::Erfcx, I::kToFloat32>("erfcx"));
  r.add_kernel("cuda", "bessel_j0", unary<scalar::BesselJ0, I::kToFloat32>("bessel_j0"));
  r.add_kernel("cuda", "bessel_j1", unary<scalar::BesselJ1, I::kToFloat32>("bessel_j1"));
  r.add_kernel("cuda", "atan2", float_binary<scalar::Atan2>("atan2"));
  r.add_kernel("cuda", "fmod", binary<scalar::Fmod>("fmod", true));
  r.add_kernel("cuda", "remainder", binary<scalar::Remainder>("remainder", true));
  r.add_kernel("cuda", "hypot", float_binary<scalar::Hypot>("hypot"));
  r.add_kernel("cuda", "binary_cross_entropy_with_logits",
               float_binary<scalar::BceWithLogits>("binary_cross_entropy_with_logits"));
  r.add_kernel("cuda", "binary_cross_entropy", float_binary<scalar::BinaryCrossEntropy>("binary_cross_entropy"));
  r.add_kernel("cuda", "copysign", float_binary<scalar::Copysign>("copysign"));
  r.add_kernel("cuda", "zeta", float_binary<scalar::Zeta>("zeta"));
  r.add_kernel("cuda", "gammainc", float_binary<scalar::Gammainc>("gammainc"));
  r.add_kernel("cuda", "gammaincc", float_binary<scalar::Gammaincc>("gammaincc"));
}

}  // namespace mf::cuda
