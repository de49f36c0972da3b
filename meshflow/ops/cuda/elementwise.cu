// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the elementwise ops (ops/elementwise.cc) and of the activations'
// backward ops (ops/nn.cc). Each op's math is a __device__ functor written once for every dtype, mirroring
// the CPU's scalar functions (integers wrap, divide toward zero or down, raise to powers as
// torch.pow does); every op runs through one kernel template that reads each input at its
// NumPy-broadcast position. Broadcast dims are merged on the host first, so the common
// cases (equal shapes, a bias row) take few or no divisions per element.
//
// Float32 computes with the float functions (expf, logf, ...) and float64 with the double
// ones, as the CPU does; the CPU's float32 gelu uses a polynomial erf (ops/fast_math.h), here
// it is the library's erfc, within that polynomial's error of it.
#include <cuda_fp16.h>
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
#include "meshflow/ops/integer_math.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/scalar_power.h"
#include "meshflow/ops/special_math.h"

namespace mf::cuda {
namespace {

// ---------------------------------------------------------------------------------------
// Scalar math, as ops/elementwise.cc defines it. The math functions are called by their
// overloaded names, which CUDA resolves to the float versions (expf, ...) for float.

template <typename T>
constexpr bool kIntegral = std::is_integral_v<T>;

template <typename T>
__host__ __device__ constexpr T highest() {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(~U{0}) >> 1);
}

template <typename T>
__host__ __device__ constexpr T lowest() {
  return static_cast<T>(-highest<T>() - 1);
}

// -x; integers wrap (the lowest value is its own negation).
template <typename T>
__device__ T negate(T x) {
  if constexpr (kIntegral<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(U{0} - static_cast<U>(x));
  } else {
    return -x;
  }
}

// |x|; the lowest integer is its own absolute value.
template <typename T>
__device__ T absolute(T x) {
  if constexpr (kIntegral<T>) {
    return x < 0 ? negate(x) : x;
  } else {
    return fabs(x);
  }
}

// op(x, y) with integers computed in their unsigned type: they wrap modulo 2^bits (signed
// overflow is undefined), as core/dtype.h's wrapping().
template <typename T, typename Op>
__device__ T wrapping(T x, T y, Op op) {
  if constexpr (kIntegral<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(op(static_cast<U>(x), static_cast<U>(y)));
  } else {
    return op(x, y);
  }
}

// The quotient truncated toward zero; x / -1 is a negation, so the lowest value wraps.
template <typename T>
__device__ T trunc_div(T x, T y) {
  if constexpr (kIntegral<T>) {
    if (y == -1) return negate(x);
  }
  return x / y;
}

// torch.floor_divide; floats use PyTorch's correction of floor(x / y).
template <typename T>
__device__ T floor_div(T x, T y) {
  if constexpr (kIntegral<T>) {
    if (y == -1) return negate(x);
    const T q = x / y;
    return q * y != x && (x < 0) != (y < 0) ? q - 1 : q;
  } else {
    if (y == 0) return x / y;
    const T mod = fmod(x, y);
    T div = (x - mod) / y;
    if (mod != 0 && (y < 0) != (mod < 0)) div -= 1;
    if (div == 0) return copysign(T{0}, x / y);
    T down = floor(div);
    if (div - down > static_cast<T>(0.5)) down += 1;
    return down;
  }
}

// torch.pow: floats pow; integers kernel::integer_power (shared with the CPU's kernels).
template <typename T>
__device__ T power(T base, T exp) {
  if constexpr (kIntegral<T>) {
    return kernel::integer_power(base, exp);
  } else {
    return pow(base, exp);
  }
}

template <typename T>
__device__ bool is_nan(T x) {
  if constexpr (kIntegral<T>) {
    return false;
  } else {
    return x != x;
  }
}

// Phi(x) = (1 + erf(x / sqrt 2)) / 2, through erfc: no cancellation for negative x.
template <typename T>
__device__ T normal_cdf(T x) {
  return static_cast<T>(0.5) * erfc(-x * static_cast<T>(M_SQRT1_2));
}

// bfloat16: the upper half of a float32's bits; rounding as core/dtype.h's to_bfloat16 (to
// nearest, ties to even; NaN stays a quiet NaN of the same sign).
__device__ float widen(bfloat16 x) { return __uint_as_float(static_cast<uint32_t>(x.bits) << 16); }

__device__ bfloat16 round_to_bfloat16(float f) {
  const uint32_t u = __float_as_uint(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uint32_t quiet_nan = (u >> 16) | 0x40u;
  return bfloat16{static_cast<uint16_t>((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded)};
}

// float16: the hardware's conversions (to nearest, ties to even, as core/dtype.h's
// to_float16; a NaN may come out with other payload bits).
__device__ float widen(float16 x) { return __half2float(__ushort_as_half(x.bits)); }

template <typename H>
__device__ H round_to(float f) {
  if constexpr (std::is_same_v<H, bfloat16>) {
    return round_to_bfloat16(f);
  } else {
    return float16{__half_as_ushort(__float2half_rn(f))};
  }
}

// A float to an integer: truncated toward zero, saturated at the integer's range, NaN -> 0.
template <typename TO, typename TI>
__device__ TO float_to_integer(TI x) {
  constexpr TI lo = static_cast<TI>(lowest<TO>());
  constexpr TI hi = static_cast<TI>(highest<TO>());  // rounds up to a power of 2
  if (!(x == x)) return 0;
  if (x >= hi) return highest<TO>();
  return x <= lo ? lowest<TO>() : static_cast<TO>(x);
}

// ---------------------------------------------------------------------------------------
// The ops' functors: operator() of one element of each input.

// f(x) of a float rounded to a whole number; integers are whole already and stay.
template <typename T, typename F>
__device__ T whole(T x, F f) {
  if constexpr (kIntegral<T>) {
    return x;
  } else {
    return f(x);
  }
}

// A functor whose operator() is one expression of x (MF_FUNCTOR1) or of x and y (MF_FUNCTOR2),
// all of one type T, giving R.
#define MF_FUNCTOR1(Type, R, ...)             \
  struct Type {                               \
    template <typename T>                     \
    __device__ R operator()(T x) const {      \
      return __VA_ARGS__;                     \
    }                                         \
  };
#define MF_FUNCTOR2(Type, R, ...)             \
  struct Type {                               \
    template <typename T>                     \
    __device__ R operator()(T x, T y) const { \
      return __VA_ARGS__;                     \
    }                                         \
  };

MF_FUNCTOR2(Add, T, wrapping(x, y, [](auto a, auto b) { return a + b; }))
MF_FUNCTOR2(Sub, T, wrapping(x, y, [](auto a, auto b) { return a - b; }))
MF_FUNCTOR2(Mul, T, wrapping(x, y, [](auto a, auto b) { return a * b; }))
MF_FUNCTOR2(Div, T, trunc_div(x, y))
MF_FUNCTOR2(FloorDivide, T, floor_div(x, y))
// NaN wins, as in torch.maximum and torch.minimum.
MF_FUNCTOR2(Maximum, T, x > y || is_nan(x) ? x : y)
MF_FUNCTOR2(Minimum, T, x < y || is_nan(x) ? x : y)
MF_FUNCTOR2(Pow, T, power(x, y))
// value ** x.
MF_FUNCTOR2(RPow, T, power(y, x))
// x ** s, s a scalar: torch's loops for its special exponents (kernel::scalar_power).
struct PowScalar {
  template <typename T>
  __device__ T operator()(T x, T s) const {
    return kernel::with_scalar_power(
        s, [&](auto power) { return kernel::scalar_power<decltype(power)::value>(x, s); });
  }
};

// Comparisons and logical ops give bool (inputs of any dtype, bool too; nonzero is true).
MF_FUNCTOR2(Eq, bool, x == y)
MF_FUNCTOR2(Ne, bool, x != y)
MF_FUNCTOR2(Lt, bool, x < y)
MF_FUNCTOR2(Le, bool, x <= y)
MF_FUNCTOR2(Gt, bool, x > y)
MF_FUNCTOR2(Ge, bool, x >= y)
MF_FUNCTOR2(LogicalAnd, bool, x != T{0} && y != T{0})
MF_FUNCTOR2(LogicalOr, bool, x != T{0} || y != T{0})
MF_FUNCTOR2(LogicalXor, bool, (x != T{0}) != (y != T{0}))
MF_FUNCTOR1(LogicalNot, bool, x == T{0})
MF_FUNCTOR1(IsNan, bool, is_nan(x))
struct IsInf {
  template <typename T>
  __device__ bool operator()(T x) const {
    if constexpr (kIntegral<T>) {
      return false;
    } else {
      return isinf(x);
    }
  }
};
MF_FUNCTOR1(IsFinite, bool, !is_nan(x) && !IsInf{}(x))

// Bitwise ops of bool (its one bit) and integers.
MF_FUNCTOR2(BitwiseAnd, T, static_cast<T>(x & y))
MF_FUNCTOR2(BitwiseOr, T, static_cast<T>(x | y))
MF_FUNCTOR2(BitwiseXor, T, static_cast<T>(x ^ y))
struct ShiftLeft {
  template <typename T>
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else {
      return kernel::shift_left(x, y);
    }
  }
};
struct ShiftRight {
  template <typename T>
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) {
      return x;
    } else {
      return kernel::shift_right(x, y);
    }
  }
};
struct BitwiseNot {
  template <typename T>
  __device__ T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  }
};

MF_FUNCTOR1(Neg, T, negate(x))
MF_FUNCTOR1(Abs, T, absolute(x))
// 0 for negative x; NaN stays.
MF_FUNCTOR1(Relu, T, x < T{0} ? T{0} : x)
MF_FUNCTOR1(Trunc, T, whole(x, [](auto v) { return trunc(v); }))
MF_FUNCTOR1(Exp, T, exp(x))
MF_FUNCTOR1(Log, T, log(x))
MF_FUNCTOR1(Sqrt, T, sqrt(x))
// 1 / sqrt(x), both correctly rounded as on the CPU (rsqrt's approximation is not).
MF_FUNCTOR1(Rsqrt, T, 1 / sqrt(x))
MF_FUNCTOR1(Tanh, T, tanh(x))
MF_FUNCTOR1(Sigmoid, T, 1 / (1 + exp(-x)))
// x Phi(x), the exact (erf) form.
MF_FUNCTOR1(Gelu, T, x * normal_cdf(x))
// dy gelu'(x) = dy (Phi(x) + x phi(x)), phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
struct GeluBackward {
  template <typename T>
  __device__ T operator()(T x, T dy) const {
    const T density = static_cast<T>(M_2_SQRTPI * M_SQRT1_2 / 2) * exp(static_cast<T>(-0.5) * x * x);
    return dy * (normal_cdf(x) + x * density);
  }
};

// x sigmoid(x); dy silu'(x) = dy s (1 + x (1 - s)) with s = sigmoid(x).
MF_FUNCTOR1(Silu, T, x / (1 + exp(-x)))
struct SiluBackward {
  template <typename T>
  __device__ T operator()(T x, T dy) const {
    const T s = 1 / (1 + exp(-x));
    return dy * (s * (1 + x * (1 - s)));
  }
};

// From the output y, as the CPU's: dy y (1 - y) and dy (1 - y^2).
struct SigmoidBackward {
  template <typename T>
  __device__ T operator()(T y, T dy) const {
    return dy * (y - y * y);
  }
};
struct TanhBackward {
  template <typename T>
  __device__ T operator()(T y, T dy) const {
    return dy - dy * (y * y);
  }
};

// dy where relu's output y > 0, else 0 (dy passes where y is NaN), as the CPU's.
struct ReluBackward {
  template <typename T>
  __device__ T operator()(T y, T dy) const {
    return y <= T{0} ? T{0} : dy;
  }
};

// clamp and hardtanh, as the CPU's: min(max(x, lo), hi) (NaN stays NaN; lo > hi gives hi), NaN
// everywhere for a NaN bound (which no comparison would pass on).
template <typename T>
struct Clamp {
  kernel::ClampBounds<T> b;
  __device__ T operator()(T x) const {
    if (b.lo != b.lo) return b.lo;
    if (b.hi != b.hi) return b.hi;
    const T y = x < b.lo ? b.lo : x;
    return y > b.hi ? b.hi : y;
  }
};
// Their gradients, as the CPU's: clamp's passes dy where lo < x < hi (an absent bound stops
// nothing), hardtanh's stops it where x <= lo or x >= hi (NaN passes).
template <typename T>
struct ClampBackward {
  kernel::ClampBounds<T> b;
  bool hardtanh;
  __device__ T operator()(T x, T dy) const {
    if (hardtanh) return x <= b.lo || x >= b.hi ? T{0} : dy;
    return (x > b.lo || !b.has_lo) && (x < b.hi || !b.has_hi) ? dy : T{0};
  }
};

// where(cond, a, b): nonzero cond (NaN included) takes a.
struct Select {
  template <typename TC, typename T>
  __device__ T operator()(TC cond, T a, T b) const {
    return cond != TC{0} ? a : b;
  }
};

// cast: halves (bfloat16, float16) go through float32 (exact one way; rounded to nearest
// even the other); to bool is x != 0 (NaN is true).
template <typename TO>
struct Cast {
  template <typename TI>
  __device__ TO operator()(TI x) const {
    if constexpr (std::is_same_v<TI, TO>) {
      return x;
    } else if constexpr (is_half_v<TI>) {
      return Cast<TO>{}(widen(x));
    } else if constexpr (std::is_same_v<TO, bool>) {
      return x != TI{0};
    } else if constexpr (is_half_v<TO>) {
      return round_to<TO>(static_cast<float>(x));
    } else if constexpr (!kIntegral<TI> && kIntegral<TO>) {
      return float_to_integer<TO>(x);
    } else {
      return static_cast<TO>(x);
    }
  }
};

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
      launch<T, T>(name, Clamp<T>{kernel::clamp_bounds<T>(ctx.attrs)}, out, {&in[0]});
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
        launch<T, T, T>(name, ClampBackward<T>{kernel::clamp_bounds<T>(ctx.attrs), hardtanh}, out, {&in[0], &in[1]});
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
      launch<T, TC, T, T>("where", Select{}, out, {&in[0], &in[1], &in[2]});
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
      launch<TO, TI>("cast", Cast<TO>{}, out, {&in[0]});
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
// The math ops of torch's names (elementwise.cc's register_math_ops). Float32 calls the
// float functions through their overloaded names, as above.

MF_FUNCTOR1(Sin, T, sin(x))
MF_FUNCTOR1(Cos, T, cos(x))
MF_FUNCTOR1(Tan, T, tan(x))
MF_FUNCTOR1(Asin, T, asin(x))
MF_FUNCTOR1(Acos, T, acos(x))
MF_FUNCTOR1(Atan, T, atan(x))
MF_FUNCTOR1(Sinh, T, sinh(x))
MF_FUNCTOR1(Cosh, T, cosh(x))
MF_FUNCTOR1(Asinh, T, asinh(x))
MF_FUNCTOR1(Acosh, T, acosh(x))
MF_FUNCTOR1(Atanh, T, atanh(x))
MF_FUNCTOR1(Erf, T, erf(x))
MF_FUNCTOR1(Erfc, T, erfc(x))
MF_FUNCTOR1(Erfinv, T, erfinv(x))
MF_FUNCTOR1(Log1p, T, log1p(x))
MF_FUNCTOR1(Expm1, T, expm1(x))
MF_FUNCTOR1(Log2, T, log2(x))
MF_FUNCTOR1(Log10, T, log10(x))
MF_FUNCTOR1(Exp2, T, exp2(x))
MF_FUNCTOR1(Reciprocal, T, 1 / x)
MF_FUNCTOR1(Frac, T, x - trunc(x))
// The gamma and Bessel families in double, as the CPU's (special_math.h).
MF_FUNCTOR1(Lgamma, T, static_cast<T>(special::log_gamma(static_cast<double>(x))))
MF_FUNCTOR1(Digamma, T, static_cast<T>(special::digamma(static_cast<double>(x))))
MF_FUNCTOR1(BesselI0, T, static_cast<T>(special::bessel_i0(static_cast<double>(x))))
MF_FUNCTOR1(BesselI0e, T, static_cast<T>(special::bessel_i0e(static_cast<double>(x))))
MF_FUNCTOR1(BesselI1, T, static_cast<T>(special::bessel_i1(static_cast<double>(x))))
MF_FUNCTOR1(BesselI1e, T, static_cast<T>(special::bessel_i1e(static_cast<double>(x))))
MF_FUNCTOR1(Erfcx, T, static_cast<T>(special::erfcx(static_cast<double>(x))))
MF_FUNCTOR1(BesselJ0, T, static_cast<T>(special::bessel_j0(static_cast<double>(x))))
MF_FUNCTOR1(BesselJ1, T, static_cast<T>(special::bessel_j1(static_cast<double>(x))))

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

// 1, 0 or -1 in x's dtype; NaN gives 0, as on the CPU.
MF_FUNCTOR1(Sign, T, static_cast<T>((T{0} < x) - (x < T{0})))
// Half to even (rint), as torch.round; integers stay.
MF_FUNCTOR1(Round, T, whole(x, [](auto v) { return rint(v); }))
// C's fmod; an integer x fmod -1 is 0 (x % -1 traps on the lowest value).
struct Fmod {
  template <typename T>
  __device__ T operator()(T x, T y) const {
    if constexpr (kIntegral<T>) {
      return y == -1 ? T{0} : static_cast<T>(x % y);
    } else {
      return fmod(x, y);
    }
  }
};
MF_FUNCTOR2(Atan2, T, atan2(x, y))
MF_FUNCTOR2(Hypot, T, hypot(x, y))
MF_FUNCTOR2(Copysign, T, copysign(x, y))
MF_FUNCTOR2(Zeta, T, static_cast<T>(special::zeta(static_cast<double>(x), static_cast<double>(y))))
MF_FUNCTOR2(Gammainc, T,
            static_cast<T>(special::incomplete_gamma(static_cast<double>(x), static_cast<double>(y), false)))
MF_FUNCTOR2(Gammaincc, T,
            static_cast<T>(special::incomplete_gamma(static_cast<double>(x), static_cast<double>(y), true)))

#undef MF_FUNCTOR1
#undef MF_FUNCTOR2

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

void add_elementwise_kernels(KernelTable& t) {
  t["add"] = binary<Add>("add");
  t["sub"] = binary<Sub>("sub");
  t["mul"] = binary<Mul>("mul");
  t["div"] = binary<Div>("div", true);
  t["floor_divide"] = binary<FloorDivide>("floor_divide", true);
  t["maximum"] = binary<Maximum>("maximum");
  t["minimum"] = binary<Minimum>("minimum");
  t["pow"] = binary<Pow>("pow");
  t["eq"] = predicate2<Eq>("eq");
  t["ne"] = predicate2<Ne>("ne");
  t["lt"] = predicate2<Lt>("lt");
  t["le"] = predicate2<Le>("le");
  t["gt"] = predicate2<Gt>("gt");
  t["ge"] = predicate2<Ge>("ge");
  t["where"] = where;
  t["logical_and"] = predicate2<LogicalAnd>("logical_and");
  t["logical_or"] = predicate2<LogicalOr>("logical_or");
  t["logical_xor"] = predicate2<LogicalXor>("logical_xor");
  t["logical_not"] = predicate<LogicalNot>("logical_not");
  t["isnan"] = predicate<IsNan>("isnan");
  t["isinf"] = predicate<IsInf>("isinf");
  t["isfinite"] = predicate<IsFinite>("isfinite");
  t["bitwise_and"] = bitwise<BitwiseAnd, 2>("bitwise_and");
  t["bitwise_or"] = bitwise<BitwiseOr, 2>("bitwise_or");
  t["bitwise_xor"] = bitwise<BitwiseXor, 2>("bitwise_xor");
  t["bitwise_not"] = bitwise<BitwiseNot, 1>("bitwise_not");
  t["bitwise_left_shift"] = bitwise<ShiftLeft, 2>("bitwise_left_shift");
  t["bitwise_right_shift"] = bitwise<ShiftRight, 2>("bitwise_right_shift");

  using I = Integers;
  t["neg"] = unary<Neg, I::kKeep>("neg");
  t["abs"] = unary<Abs, I::kKeep>("abs");
  t["relu"] = unary<Relu, I::kKeep>("relu");
  t["trunc"] = unary<Trunc, I::kKeep>("trunc");
  t["exp"] = unary<Exp, I::kToFloat32>("exp");
  t["log"] = unary<Log, I::kToFloat32>("log");
  t["sqrt"] = unary<Sqrt, I::kToFloat32>("sqrt");
  t["rsqrt"] = unary<Rsqrt, I::kToFloat32>("rsqrt");
  t["tanh"] = unary<Tanh, I::kToFloat32>("tanh");
  t["sigmoid"] = unary<Sigmoid, I::kToFloat32>("sigmoid");
  t["gelu"] = unary<Gelu, I::kReject>("gelu");
  t["gelu_backward"] = activation_backward<GeluBackward>("gelu_backward");
  t["silu"] = unary<Silu, I::kReject>("silu");
  t["silu_backward"] = activation_backward<SiluBackward>("silu_backward");
  t["sigmoid_backward"] = activation_backward<SigmoidBackward>("sigmoid_backward");
  t["tanh_backward"] = activation_backward<TanhBackward>("tanh_backward");
  t["relu_backward"] = activation_backward<ReluBackward>("relu_backward");
  t["cast"] = cast;
  t["clamp"] = clamp("clamp");
  t["hardtanh"] = clamp("hardtanh");
  t["clamp_backward"] = clamp_backward("clamp_backward", false);
  t["hardtanh_backward"] = clamp_backward("hardtanh_backward", true);

  t["add_scalar"] = with_scalar<Add>("add_scalar");
  t["mul_scalar"] = with_scalar<Mul>("mul_scalar");
  t["div_scalar"] = with_scalar<Div>("div_scalar");
  t["pow_scalar"] = with_scalar<PowScalar>("pow_scalar");
  t["rpow_scalar"] = with_scalar<RPow>("rpow_scalar");

  // The math ops (elementwise.cc's register_math_ops).
  t["sin"] = unary<Sin, I::kToFloat32>("sin");
  t["cos"] = unary<Cos, I::kToFloat32>("cos");
  t["tan"] = unary<Tan, I::kToFloat32>("tan");
  t["asin"] = unary<Asin, I::kToFloat32>("asin");
  t["acos"] = unary<Acos, I::kToFloat32>("acos");
  t["atan"] = unary<Atan, I::kToFloat32>("atan");
  t["sinh"] = unary<Sinh, I::kToFloat32>("sinh");
  t["cosh"] = unary<Cosh, I::kToFloat32>("cosh");
  t["asinh"] = unary<Asinh, I::kToFloat32>("asinh");
  t["acosh"] = unary<Acosh, I::kToFloat32>("acosh");
  t["atanh"] = unary<Atanh, I::kToFloat32>("atanh");
  t["erf"] = unary<Erf, I::kToFloat32>("erf");
  t["erfc"] = unary<Erfc, I::kToFloat32>("erfc");
  t["erfinv"] = unary<Erfinv, I::kToFloat32>("erfinv");
  t["log1p"] = unary<Log1p, I::kToFloat32>("log1p");
  t["expm1"] = unary<Expm1, I::kToFloat32>("expm1");
  t["log2"] = unary<Log2, I::kToFloat32>("log2");
  t["log10"] = unary<Log10, I::kToFloat32>("log10");
  t["exp2"] = unary<Exp2, I::kToFloat32>("exp2");
  t["reciprocal"] = unary<Reciprocal, I::kToFloat32>("reciprocal");
  t["sign"] = unary<Sign, I::kKeep>("sign");
  t["round"] = unary<Round, I::kKeep>("round");
  t["frac"] = unary<Frac, I::kReject>("frac");
  t["lgamma"] = unary<Lgamma, I::kToFloat32>("lgamma");
  t["digamma"] = unary<Digamma, I::kToFloat32>("digamma");
  t["polygamma"] = polygamma;
  t["i0"] = unary<BesselI0, I::kToFloat32>("i0");
  t["i0e"] = unary<BesselI0e, I::kToFloat32>("i0e");
  t["i1"] = unary<BesselI1, I::kToFloat32>("i1");
  t["i1e"] = unary<BesselI1e, I::kToFloat32>("i1e");
  t["erfcx"] = unary<Erfcx, I::kToFloat32>("erfcx");
  t["bessel_j0"] = unary<BesselJ0, I::kToFloat32>("bessel_j0");
  t["bessel_j1"] = unary<BesselJ1, I::kToFloat32>("bessel_j1");
  t["atan2"] = float_binary<Atan2>("atan2");
  t["fmod"] = binary<Fmod>("fmod", true);
  t["hypot"] = float_binary<Hypot>("hypot");
  t["copysign"] = float_binary<Copysign>("copysign");
  t["zeta"] = float_binary<Zeta>("zeta");
  t["gammainc"] = float_binary<Gammainc>("gammainc");
  t["gammaincc"] = float_binary<Gammaincc>("gammaincc");
}

}  // namespace mf::cuda
