// Copyright 2026 The meshflow Authors.
#include "meshflow/core/dtype.h"

#include <stdexcept>

namespace mf {

size_t dtype_size(DType dtype) {
  return visit_storage(dtype, [](auto v) { return sizeof(v); });
}

void no_arithmetic_on(DType dtype) {
  if (dtype == DType::kBool) {
    throw std::invalid_argument("no arithmetic kernel for bool; cast to an integer or float dtype first");
  }
  if (is_complex(dtype)) {
    throw std::invalid_argument(std::string("no kernel for ") + dtype_name(dtype) +
                                " here; only ops marked OpDef::complex compute complex values");
  }
  if (is_small_int(dtype)) {
    throw std::invalid_argument(std::string("no arithmetic kernel for ") + dtype_name(dtype) +
                                "; cast to int32, int64 or float32 first");
  }
  throw std::invalid_argument(std::string("no arithmetic kernel for ") + dtype_name(dtype) +
                              "; a half reaches a kernel only of an op with its own half kernels (OpDef::bfloat16)");
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
    case DType::kBFloat16: return "bfloat16";
    case DType::kBool: return "bool";
    case DType::kFloat16: return "float16";
    case DType::kUInt8: return "uint8";
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kComplex64: return "complex64";
    case DType::kComplex128: return "complex128";
  }
  return "?";
}

DType dtype_from_name(const std::string& name) {
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kBFloat16, DType::kBool,
                  DType::kFloat16, DType::kUInt8, DType::kInt8, DType::kInt16, DType::kComplex64, DType::kComplex128}) {
    if (name == dtype_name(d)) return d;
  }
  throw std::invalid_argument(
      "unsupported dtype '" + name +
      "'; expected one of float32, float64, int32, int64, bfloat16, bool, float16, uint8, int8, int16, complex64, "
      "complex128");
}

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return "sum";
    case ReduceOp::kMax: return "max";
    case ReduceOp::kMin: return "min";
  }
  return "?";
}

}  // namespace mf
