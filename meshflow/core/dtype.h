// Copyright 2026 The meshflow Authors.
// Element types of tensors and the reduction ops that partial values use.
// Plain value types; thread-safe.
//
// bfloat16 (the upper 16 bits of a float32: its 8 exponent bits, 7 of its mantissa bits) and
// float16 (IEEE half, NumPy's float16) are arithmetic dtypes as PyTorch's, with the values of
// a float32 computation rounded once per op (to nearest even): an op with its own half
// kernels (matmul, attention, and those that only move elements) visits them (visit_storage,
// visit_half); every other op computes them in float32, its inputs widened and its results
// rounded by the registry (ops/op.h, "Halves"), so its kernel never sees one. Their C++
// types below hold the bits and convert; they have no arithmetic of their own.
//
// bool is one byte holding 0 or 1 (C++ bool, NumPy's bool_). Kernels that move elements take
// it (visit_storage), and so do the ops defined on truth values (comparisons' outputs,
// where's condition, logical and bitwise ops, any/all through amax/amin, sum: visit_with_bool);
// arithmetic never sees it (visit_dtype throws): an op not marked OpDef::booleans refuses it
// at the call, and the Python layer promotes bool operands first, as PyTorch does. A
// partial sum of bools is their or (a sum cast to bool), which is also their max.
//
// uint8, int8 and int16 (the small integers; images arrive as uint8) compute as PyTorch's:
// arithmetic wraps modulo 2^bits, and a float converts through int64 (truncated toward zero,
// saturated, NaN -> 0) then wraps, which is what torch's conversion (undefined in C++ out of
// range) gives on x86: -1.0 -> 255 in uint8. Kernels that move elements take them
// (visit_storage), and so do those defined on truth values (visit_with_bool); an arithmetic
// kernel takes them only where its op is marked OpDef::small_ints (it visits visit_numbers):
// the others refuse them at the call. The CUDA kernels refuse them (ops/cuda/kernels.cc).
//
// complex64 and complex128 (std::complex<float> and <double>, NumPy's and torch's layout:
// the real part, then the imaginary part) are not floating (is_floating is false, as torch's
// is_floating_point). Kernels that move elements take them (visit_storage); arithmetic sees
// them only through visit_complex, in the ops marked OpDef::complex (ops/complex.h lists
// them): every other op refuses them at the call, naming itself and the dtype.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "meshflow/core/host_device.h"

namespace mf {

enum class DType : uint8_t { kFloat32, kFloat64, kInt32, kInt64, kBFloat16, kBool, kFloat16, kUInt8, kInt8, kInt16,
                          kComplex64, kComplex128 };

// The bits of `from` read as a To of the same size (C++20's std::bit_cast).
template <typename To, typename From>
MF_HOST_DEVICE inline To bits_as(From from) {
  static_assert(sizeof(To) == sizeof(From), "bits_as keeps the size");
  To to;
  __builtin_memcpy(&to, &from, sizeof to);
  return to;
}

// A bfloat16 value's bits. Convert with to_float / to_bfloat16; arithmetic goes through float.
// The conversions below are the CPU's and the GPU's alike (MF_HOST_DEVICE): a half rounds to
// the same bits on every device.
struct bfloat16 {
  uint16_t bits;
};

MF_HOST_DEVICE inline float to_float(bfloat16 x) {
  return bits_as<float>(static_cast<uint32_t>(x.bits) << 16);
}

// Rounds to the nearest bfloat16, ties to even; NaN stays NaN (quiet), infinities stay.
// Branch-free, so that loops of it vectorize.
MF_HOST_DEVICE inline bfloat16 to_bfloat16(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uint32_t quiet_nan = (u >> 16) | 0x40u;
  return bfloat16{static_cast<uint16_t>((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded)};
}

// An IEEE half's bits. Convert with to_float / to_float16; arithmetic goes through float.
struct float16 {
  uint16_t bits;
};

MF_HOST_DEVICE inline float to_float(float16 x) {
  const uint32_t h = x.bits, sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t u;
  if (exp == 0x1f) {
    u = sign | 0x7f800000u | (mant << 13);  // infinities, NaN (payload kept)
  } else if (exp != 0) {
    u = sign | ((exp + 112) << 23) | (mant << 13);
  } else {
    u = bits_as<uint32_t>(static_cast<float>(mant) * 0x1p-24f) | sign;  // zero and subnormals, exact
  }
  return bits_as<float>(u);
}

// Rounds to the nearest half, ties to even; beyond the largest half (65504) to infinity;
// NaN stays NaN (quiet).
MF_HOST_DEVICE inline float16 to_float16(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  const uint32_t sign = (u >> 16) & 0x8000u, abs = u & 0x7fffffffu;
  uint32_t h;
  if (abs > 0x7f800000u) {
    h = 0x7e00u | ((abs >> 13) & 0x3ffu);
  } else if (abs >= 0x477ff000u) {  // 65520 and up: infinity
    h = 0x7c00u;
  } else if (abs >= 0x38800000u) {  // a normal half: 2^-14 and up
    h = (abs + 0xfffu + ((abs >> 13) & 1u) - 0x38000000u) >> 13;
  } else if (abs <= 0x33000000u) {  // up to 2^-25, half the least subnormal: zero
    h = 0;
  } else {  // a subnormal: the value in units of 2^-24, rounded
    const uint32_t shift = 126 - (abs >> 23), m = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    h = (m >> shift) + (rest > half || (rest == half && ((m >> shift) & 1u)));
  }
  return float16{static_cast<uint16_t>(sign | h)};
}

// bfloat16 and float16: storage types that compute in float32.
template <typename T>
constexpr bool is_half_v = std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>;

// The half type H nearest to f.
template <typename H>
MF_HOST_DEVICE H from_float(float f) {
  if constexpr (std::is_same_v<H, bfloat16>) {
    return to_bfloat16(f);
  } else {
    return to_float16(f);
  }
}

size_t dtype_size(DType dtype);
inline bool is_floating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64 || dtype == DType::kBFloat16 ||
         dtype == DType::kFloat16;
}
inline bool is_half(DType dtype) { return dtype == DType::kBFloat16 || dtype == DType::kFloat16; }
inline bool is_complex(DType dtype) { return dtype == DType::kComplex64 || dtype == DType::kComplex128; }
// The complex dtype of a float's precision (float64: complex128; the others complex64), and
// the float dtype of a complex one's parts; other dtypes stay.
inline DType complex_of(DType real) { return real == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64; }
inline DType real_of(DType dtype) {
  return dtype == DType::kComplex128 ? DType::kFloat64 : dtype == DType::kComplex64 ? DType::kFloat32 : dtype;
}
template <typename T>
struct is_complex_type : std::false_type {};
template <typename T>
struct is_complex_type<std::complex<T>> : std::true_type {};
template <typename T>
constexpr bool is_complex_v = is_complex_type<T>::value;
inline bool is_small_int(DType dtype) {
  return dtype == DType::kUInt8 || dtype == DType::kInt8 || dtype == DType::kInt16;
}
const char* dtype_name(DType dtype);
// Throws std::invalid_argument naming the supported dtypes when `name` is not one of them.
DType dtype_from_name(const std::string& name);

// Calls f(T{}) with T the C++ type of `dtype`, so a kernel is written once for every dtype
// it computes in. The halves throw (an op without its own half kernels computes them in
// float32, see OpDef::bfloat16, so its kernel never sees one); so do bool and the small
// integers (see visit_numbers).
[[noreturn]] void no_arithmetic_on(DType dtype);
template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat32: return f(float{});
    case DType::kFloat64: return f(double{});
    case DType::kInt32: return f(int32_t{});
    case DType::kInt64: break;
    case DType::kBFloat16:
    case DType::kFloat16:
    case DType::kBool:
    case DType::kUInt8:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kComplex64:
    case DType::kComplex128: no_arithmetic_on(dtype);
  }
  return f(int64_t{});
}

// As visit_dtype, for kernels of ops marked OpDef::small_ints: uint8, int8 and int16 too.
template <typename F>
decltype(auto) visit_numbers(DType dtype, F&& f) {
  if (dtype == DType::kUInt8) return f(uint8_t{});
  if (dtype == DType::kInt8) return f(int8_t{});
  if (dtype == DType::kInt16) return f(int16_t{});
  return visit_dtype(dtype, std::forward<F>(f));
}

// As visit_numbers, for kernels defined on truth values too: bool as C++ bool.
template <typename F>
decltype(auto) visit_with_bool(DType dtype, F&& f) {
  if (dtype == DType::kBool) return f(bool{});
  return visit_numbers(dtype, std::forward<F>(f));
}

// f(C{}) for a complex dtype: std::complex<float> or std::complex<double>; throws for others.
template <typename F>
decltype(auto) visit_complex(DType dtype, F&& f) {
  if (dtype == DType::kComplex128) return f(std::complex<double>{});
  if (dtype != DType::kComplex64) no_arithmetic_on(dtype);
  return f(std::complex<float>{});
}

// As visit_dtype, for kernels that only move elements (copies, gathers): every dtype.
template <typename F>
decltype(auto) visit_storage(DType dtype, F&& f) {
  if (is_complex(dtype)) return visit_complex(dtype, std::forward<F>(f));
  if (dtype == DType::kBFloat16) return f(bfloat16{});
  if (dtype == DType::kFloat16) return f(float16{});
  return visit_with_bool(dtype, std::forward<F>(f));
}

// As visit_storage without the complex dtypes: for device code that has no complex type
// (the CUDA kernels, which refuse complex tensors at the call).
template <typename F>
decltype(auto) visit_real_storage(DType dtype, F&& f) {
  if (is_complex(dtype)) no_arithmetic_on(dtype);
  if (dtype == DType::kBFloat16) return f(bfloat16{});
  if (dtype == DType::kFloat16) return f(float16{});
  return visit_with_bool(dtype, std::forward<F>(f));
}

// f(H{}) for a half dtype (is_half): bfloat16 or float16.
template <typename F>
decltype(auto) visit_half(DType dtype, F&& f) {
  if (dtype == DType::kFloat16) return f(float16{});
  return f(bfloat16{});
}

// f(x, y) (+, - or *) with integers wrapping around modulo 2^bits, as PyTorch's do: signed
// overflow is undefined in C++, so integers compute in their unsigned type, at least unsigned
// int (uint16_t would promote to int, whose product overflows). Floats compute as they are;
// bools give the result cast to bool (a sum is an or, a product an and).
template <typename T, typename F>
T wrapping(T x, T y, F f) {
  if constexpr (std::is_same_v<T, bool>) {
    return f(int{x}, int{y}) != 0;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
    return static_cast<T>(f(static_cast<U>(x), static_cast<U>(y)));
  } else {
    return f(x, y);
  }
}

// How partial values combine into the logical value.
enum class ReduceOp : uint8_t { kSum, kMax, kMin };

const char* reduce_op_name(ReduceOp op);

}  // namespace mf
