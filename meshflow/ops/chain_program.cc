// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/chain_program.h"

#include <algorithm>
#include <unordered_map>

#include "meshflow/core/loops.h"
#include "meshflow/ops/attrs.h"
#include "meshflow/ops/kernel_util.h"

namespace mf {
namespace {

// The ops a program expresses by name, and how many registers each reads.
struct Entry {
  ChainOp op;
  int arity;
  bool scalar = false;  // its second operand is the attribute "value"
};

const std::unordered_map<std::string, Entry>& entries() {
  static const auto* table = new std::unordered_map<std::string, Entry>{
      {"neg", {ChainOp::kNeg, 1}},
      {"abs", {ChainOp::kAbs, 1}},
      {"relu", {ChainOp::kRelu, 1}},
      {"trunc", {ChainOp::kTrunc, 1}},
      {"exp", {ChainOp::kExp, 1}},
      {"log", {ChainOp::kLog, 1}},
      {"sqrt", {ChainOp::kSqrt, 1}},
      {"rsqrt", {ChainOp::kRsqrt, 1}},
      {"tanh", {ChainOp::kTanh, 1}},
      {"sigmoid", {ChainOp::kSigmoid, 1}},
      {"gelu", {ChainOp::kGelu, 1}},
      {"gelu_tanh", {ChainOp::kGeluTanh, 1}},
      {"silu", {ChainOp::kSilu, 1}},
      {"sign", {ChainOp::kSign, 1}},
      {"round", {ChainOp::kRound, 1}},
      {"frac", {ChainOp::kFrac, 1}},
      {"sin", {ChainOp::kSin, 1}},
      {"cos", {ChainOp::kCos, 1}},
      {"tan", {ChainOp::kTan, 1}},
      {"asin", {ChainOp::kAsin, 1}},
      {"acos", {ChainOp::kAcos, 1}},
      {"atan", {ChainOp::kAtan, 1}},
      {"sinh", {ChainOp::kSinh, 1}},
      {"cosh", {ChainOp::kCosh, 1}},
      {"asinh", {ChainOp::kAsinh, 1}},
      {"acosh", {ChainOp::kAcosh, 1}},
      {"atanh", {ChainOp::kAtanh, 1}},
      {"erf", {ChainOp::kErf, 1}},
      {"erfc", {ChainOp::kErfc, 1}},
      {"log1p", {ChainOp::kLog1p, 1}},
      {"expm1", {ChainOp::kExpm1, 1}},
      {"log2", {ChainOp::kLog2, 1}},
      {"log10", {ChainOp::kLog10, 1}},
      {"exp2", {ChainOp::kExp2, 1}},
      {"reciprocal", {ChainOp::kReciprocal, 1}},
      {"logical_not", {ChainOp::kLogicalNot, 1}},
      {"isnan", {ChainOp::kIsNan, 1}},
      {"isinf", {ChainOp::kIsInf, 1}},
      {"isfinite", {ChainOp::kIsFinite, 1}},
      {"cast", {ChainOp::kCast, 1}},
      {"clamp", {ChainOp::kClamp, 1}},
      {"hardtanh", {ChainOp::kHardtanh, 1}},
      {"leaky_relu", {ChainOp::kLeakyRelu, 1}},
      {"add", {ChainOp::kAdd, 2}},
      {"sub", {ChainOp::kSub, 2}},
      {"mul", {ChainOp::kMul, 2}},
      {"maximum", {ChainOp::kMaximum, 2}},
      {"minimum", {ChainOp::kMinimum, 2}},
      {"pow", {ChainOp::kPow, 2}},
      {"atan2", {ChainOp::kAtan2, 2}},
      {"hypot", {ChainOp::kHypot, 2}},
      {"copysign", {ChainOp::kCopysign, 2}},
      {"eq", {ChainOp::kEq, 2}},
      {"ne", {ChainOp::kNe, 2}},
      {"lt", {ChainOp::kLt, 2}},
      {"le", {ChainOp::kLe, 2}},
      {"gt", {ChainOp::kGt, 2}},
      {"ge", {ChainOp::kGe, 2}},
      {"logical_and", {ChainOp::kLogicalAnd, 2}},
      {"logical_or", {ChainOp::kLogicalOr, 2}},
      {"logical_xor", {ChainOp::kLogicalXor, 2}},
      {"gelu_backward", {ChainOp::kGeluBackward, 2}},
      {"gelu_tanh_backward", {ChainOp::kGeluTanhBackward, 2}},
      {"silu_backward", {ChainOp::kSiluBackward, 2}},
      {"sigmoid_backward", {ChainOp::kSigmoidBackward, 2}},
      {"tanh_backward", {ChainOp::kTanhBackward, 2}},
      {"relu_backward", {ChainOp::kReluBackward, 2}},
      {"clamp_backward", {ChainOp::kClampBackward, 2}},
      {"hardtanh_backward", {ChainOp::kHardtanhBackward, 2}},
      {"leaky_relu_backward", {ChainOp::kLeakyReluBackward, 2}},
      // On bools (a program holds no integers), the bitwise ops are the logical ones.
      {"bitwise_and", {ChainOp::kLogicalAnd, 2}},
      {"bitwise_or", {ChainOp::kLogicalOr, 2}},
      {"bitwise_xor", {ChainOp::kLogicalXor, 2}},
      {"bitwise_not", {ChainOp::kLogicalNot, 1}},
      {"where", {ChainOp::kWhere, 3}},
      {"add_scalar", {ChainOp::kAdd, 1, true}},
      {"mul_scalar", {ChainOp::kMul, 1, true}},
      {"div_scalar", {ChainOp::kDiv, 1, true}},
      {"pow_scalar", {ChainOp::kPowScalar, 1, true}},
      {"rpow_scalar", {ChainOp::kRPow, 1, true}},
  };
  return *table;
}

// The bounds as the op's kernel sees them in compute type T (kernel::clamp_bounds).
template <typename T>
void set_bounds(ChainInstruction& s, const Attrs& attrs) {
  const kernel::ClampBounds<T> b = kernel::clamp_bounds<T>(attrs);
  s.a = static_cast<double>(b.lo);
  s.b = static_cast<double>(b.hi);
  s.has_a = b.has_lo;
  s.has_b = b.has_hi;
}

}  // namespace

std::optional<DType> chain_compute_class(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kBFloat16:
    case DType::kFloat16:
      return DType::kFloat32;
    case DType::kFloat64:
      return DType::kFloat64;
    case DType::kBool:
      return DType::kBool;
    default:
      return std::nullopt;
  }
}

std::optional<ChainInstruction> chain_instruction(const std::string& op, const Attrs& attrs,
                                                  const std::vector<DType>& in, DType out, DType compute) {
  auto it = entries().find(op);
  if (it == entries().end()) return std::nullopt;
  const Entry& e = it->second;
  if (static_cast<int>(in.size()) != e.arity) return std::nullopt;
  if (attrs.has("alpha")) return std::nullopt;  // add's and sub's fused multiply-add: no instruction
  std::vector<DType> dtypes = in;
  dtypes.push_back(out);
  for (DType d : dtypes) {
    const std::optional<DType> c = chain_compute_class(d);
    if (!c || (*c != DType::kBool && *c != compute)) return std::nullopt;
  }
  ChainInstruction s;
  s.op = e.op;
  s.dtype = out;
  const bool wide = compute == DType::kFloat64;
  if (e.scalar) {
    s.immediate = true;
    s.a = wide ? kernel::scalar_attr<double>(attrs, "value") : kernel::scalar_attr<float>(attrs, "value");
  }
  if (e.op == ChainOp::kClamp || e.op == ChainOp::kHardtanh || e.op == ChainOp::kClampBackward ||
      e.op == ChainOp::kHardtanhBackward) {
    wide ? set_bounds<double>(s, attrs) : set_bounds<float>(s, attrs);
  }
  if (e.op == ChainOp::kLeakyRelu || e.op == ChainOp::kLeakyReluBackward) {  // the slope as the kernel rounds it
    const double slope = attrs.get_float("negative_slope");
    s.a = wide ? slope : static_cast<double>(static_cast<float>(slope));
  }
  return s;
}

void run_chain_on_host(const ChainProgram& program, const ChainArgs& args) {
  constexpr int64_t kChunk = 1 << 12;
  const int64_t n = program.elements();
  kernel::parallel_for((n + kChunk - 1) / kChunk, n > kernel::kParallelGrain, [&](int64_t chunk) {
    const int64_t end = std::min(n, (chunk + 1) * kChunk);
    for (int64_t i = chunk * kChunk; i < end; ++i) {
      if (program.compute == DType::kFloat64) {
        run_chain_element<double>(program, args, i);
      } else {
        run_chain_element<float>(program, args, i);
      }
    }
  });
}

}  // namespace mf
