// Copyright 2026 The meshflow Authors.
// Element types of tensors and the reduction ops that partial values use.
// Plain value types; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mf {

enum class DType : uint8_t { kFloat32, kFloat64, kInt32, kInt64 };

size_t dtype_size(DType dtype);
inline bool is_floating(DType dtype) { return dtype == DType::kFloat32 || dtype == DType::kFloat64; }
const char* dtype_name(DType dtype);
// Throws std::invalid_argument naming the supported dtypes when `name` is not one of them.
DType dtype_from_name(const std::string& name);

// Calls f(T{}) with T the C++ type of `dtype`, so a kernel is written once for every dtype.
template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat32: return f(float{});
    case DType::kFloat64: return f(double{});
    case DType::kInt32: return f(int32_t{});
    case DType::kInt64: break;
  }
  return f(int64_t{});
}

// How partial values combine into the logical value.
enum class ReduceOp : uint8_t { kSum, kMax, kMin };

const char* reduce_op_name(ReduceOp op);

}  // namespace mf
