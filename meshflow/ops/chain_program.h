// Copyright 2026 The meshflow Authors.
// A chain program: graph mode's fused chain of elementwise ops (graph/fusion.h) as a small
// bytecode for devices that cannot run the CPU's host loops on blocks of rows. The fusion
// pass builds it once, when the graph compiles, from the chain's op nodes
// (chain_instruction); one interpreter (run_chain_element) evaluates it for one element,
// host and device code alike (MF_HOST_DEVICE), a switch over opcodes calling
// elementwise_math.h's functors. A GPU runs it in one precompiled kernel launch per chain
// (ops/cuda/chain.cu); the test device runs it on the host (run_chain_on_host), so the
// CPU-run tests check the meaning a GPU's fused chains have.
//
// The chain's result has the local shape [rows, cols] (all of its dims but the last
// flattened, as graph/fusion.h's blocks of rows). Registers hold values of one compute type
// per chain: float32 for chains of float32, bfloat16 and float16 values, float64 for
// float64 ones, bool values (0 or 1) in either. Registers 0 .. inputs-1 are the inputs, each
// loaded from its dtype (ChainRead: by elements, or broadcast as a row's value, a column's
// or one value); instruction k writes register inputs + k, rounded to its value's dtype (a
// bfloat16 result rounds to bfloat16 exactly as the op's eager kernel rounds its float32
// result); outputs store registers in their dtypes. So each value is bitwise what the op's
// kernel on the device gives, its math being the functor's: the CPU's float32 exp, tanh,
// sigmoid, gelu (both forms) and silu (fast_math.h) are within a few ulps of it.
//
// What a program cannot express is not fused into one (chain_instruction says so): integer
// and complex values, a chain mixing float64 with the narrower floats (a float32 <-> float64
// cast), ops outside the opcodes below (the special functions, ops whose kernels check their
// data, random ops, which the pass never fuses), more than the limits below.
//
// Header-only but for the builders; pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/core/dtype.h"
#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/scalar_power.h"

namespace mf {

class Attrs;

// How input k is read at element i of the [rows, cols] result.
enum class ChainRead : uint8_t {
  kElement,  // its own shape: element i
  kRow,      // [.., rows, 1]: one value per row, i / cols
  kColumn,   // [.., 1, cols] (a bias): i % cols
  kScalar,   // one value
};

// An instruction's operation: an elementwise op (its functor), x, y and z its registers.
enum class ChainOp : uint8_t {
  // f(x)
  kNeg, kAbs, kRelu, kTrunc, kExp, kLog, kSqrt, kRsqrt, kTanh, kSigmoid, kGelu, kGeluTanh, kSilu, kSign, kRound, kFrac,
  kSin, kCos, kTan, kAsin, kAcos, kAtan, kSinh, kCosh, kAsinh, kAcosh, kAtanh, kErf, kErfc, kLog1p, kExpm1,
  kLog2, kLog10, kExp2, kReciprocal, kLogicalNot, kIsNan, kIsInf, kIsFinite,
  kCast,  // x itself: the rounding to the result's dtype is the cast
  kClamp, kHardtanh,  // bounds a, b
  kLeakyRelu,  // slope a
  // f(x, y), y the immediate a where `immediate` (the ops with a scalar)
  kAdd, kSub, kMul, kDiv, kMaximum, kMinimum, kPow, kPowScalar, kRPow, kAtan2, kHypot, kCopysign,
  kEq, kNe, kLt, kLe, kGt, kGe, kLogicalAnd, kLogicalOr, kLogicalXor,
  kGeluBackward, kGeluTanhBackward, kSiluBackward, kSigmoidBackward, kTanhBackward, kReluBackward,
  kClampBackward, kHardtanhBackward,  // bounds a, b where has_a, has_b
  kLeakyReluBackward,  // slope a
  // f(x, y, z)
  kWhere,
};

struct ChainInstruction {
  ChainOp op = ChainOp::kNeg;
  DType dtype = DType::kFloat32;  // its result's: rounded to it
  uint8_t in[3] = {0, 0, 0};
  bool immediate = false;
  bool has_a = false, has_b = false;
  double a = 0, b = 0;  // exact in the compute type: made from it
};

struct ChainProgram {
  static constexpr int kMaxInputs = 16;
  static constexpr int kMaxInstructions = 32;
  static constexpr int kMaxOutputs = kMaxInstructions;
  static constexpr int kMaxRegisters = kMaxInputs + kMaxInstructions;

  DType compute = DType::kFloat32;  // kFloat32 or kFloat64
  int64_t rows = 0, cols = 1;
  int inputs = 0, size = 0, outputs = 0;
  DType input_dtype[kMaxInputs] = {};
  ChainRead read[kMaxInputs] = {};
  ChainInstruction code[kMaxInstructions] = {};
  DType output_dtype[kMaxOutputs] = {};
  uint8_t output_register[kMaxOutputs] = {};

  MF_HOST_DEVICE int64_t elements() const { return rows * cols; }
};

// Where one run's tensors lie (device addresses on a device), by the program's indices.
struct ChainArgs {
  const void* in[ChainProgram::kMaxInputs] = {};
  void* out[ChainProgram::kMaxOutputs] = {};
};

// A chain's compute type for a value of `dtype`: kFloat32 (float32 and the halves), kFloat64,
// kBool for bool (either); nullopt for what a program cannot hold.
std::optional<DType> chain_compute_class(DType dtype);

// The instruction computing op `op` (by name) with `attrs` on values of dtypes `in` into one
// of dtype `out`, in compute type `compute`, its registers left for the caller to fill;
// nullopt when a program cannot express it.
std::optional<ChainInstruction> chain_instruction(const std::string& op, const Attrs& attrs,
                                                  const std::vector<DType>& in, DType out, DType compute);

// Runs `program` on host memory: every element, on the OpenMP team.
void run_chain_on_host(const ChainProgram& program, const ChainArgs& args);

namespace chain {

// Element `i` of `p`, of `dtype`, as compute type C.
template <typename C>
MF_HOST_DEVICE C load(const void* p, DType dtype, int64_t i) {
  switch (dtype) {
    case DType::kFloat64:
      return static_cast<C>(static_cast<const double*>(p)[i]);
    case DType::kBFloat16:
      return static_cast<C>(to_float(static_cast<const bfloat16*>(p)[i]));
    case DType::kFloat16:
      return static_cast<C>(to_float(static_cast<const float16*>(p)[i]));
    case DType::kBool:
      return static_cast<const bool*>(p)[i] ? C{1} : C{0};
    default:
      return static_cast<C>(static_cast<const float*>(p)[i]);
  }
}

template <typename C>
MF_HOST_DEVICE void store(void* p, DType dtype, int64_t i, C x) {
  switch (dtype) {
    case DType::kFloat64:
      static_cast<double*>(p)[i] = scalar::Cast<double>{}(x);
      return;
    case DType::kBFloat16:
      static_cast<bfloat16*>(p)[i] = scalar::Cast<bfloat16>{}(x);
      return;
    case DType::kFloat16:
      static_cast<float16*>(p)[i] = scalar::Cast<float16>{}(x);
      return;
    case DType::kBool:
      static_cast<bool*>(p)[i] = scalar::Cast<bool>{}(x);
      return;
    default:
      static_cast<float*>(p)[i] = scalar::Cast<float>{}(x);
      return;
  }
}

// x as a value of `dtype` holds it (what storing and loading it back gives).
template <typename C>
MF_HOST_DEVICE C rounded(DType dtype, C x) {
  switch (dtype) {
    case DType::kFloat32:
      return static_cast<C>(static_cast<float>(x));
    case DType::kBFloat16:
      return static_cast<C>(to_float(scalar::Cast<bfloat16>{}(x)));
    case DType::kFloat16:
      return static_cast<C>(to_float(scalar::Cast<float16>{}(x)));
    case DType::kBool:
      return x != C{0} ? C{1} : C{0};
    default:
      return x;
  }
}

// One instruction's result from the registers r.
template <typename C>
MF_HOST_DEVICE C step(const ChainInstruction& s, const C* r) {
  const C x = r[s.in[0]];
  const C y = s.immediate ? static_cast<C>(s.a) : r[s.in[1]];
  const C lo = static_cast<C>(s.a), hi = static_cast<C>(s.b);
  auto truth = [](bool t) { return t ? C{1} : C{0}; };
  using namespace scalar;  // NOLINT: the functors by their names
  switch (s.op) {
    case ChainOp::kNeg: return Neg{}(x);
    case ChainOp::kAbs: return Abs{}(x);
    case ChainOp::kRelu: return Relu{}(x);
    case ChainOp::kTrunc: return Trunc{}(x);
    case ChainOp::kExp: return Exp{}(x);
    case ChainOp::kLog: return Log{}(x);
    case ChainOp::kSqrt: return Sqrt{}(x);
    case ChainOp::kRsqrt: return Rsqrt{}(x);
    case ChainOp::kTanh: return Tanh{}(x);
    case ChainOp::kSigmoid: return Sigmoid{}(x);
    case ChainOp::kGelu: return Gelu{}(x);
    case ChainOp::kGeluTanh: return GeluTanh{}(x);
    case ChainOp::kSilu: return Silu{}(x);
    case ChainOp::kSign: return Sign{}(x);
    case ChainOp::kRound: return Round{}(x);
    case ChainOp::kFrac: return Frac{}(x);
    case ChainOp::kSin: return Sin{}(x);
    case ChainOp::kCos: return Cos{}(x);
    case ChainOp::kTan: return Tan{}(x);
    case ChainOp::kAsin: return Asin{}(x);
    case ChainOp::kAcos: return Acos{}(x);
    case ChainOp::kAtan: return Atan{}(x);
    case ChainOp::kSinh: return Sinh{}(x);
    case ChainOp::kCosh: return Cosh{}(x);
    case ChainOp::kAsinh: return Asinh{}(x);
    case ChainOp::kAcosh: return Acosh{}(x);
    case ChainOp::kAtanh: return Atanh{}(x);
    case ChainOp::kErf: return Erf{}(x);
    case ChainOp::kErfc: return Erfc{}(x);
    case ChainOp::kLog1p: return Log1p{}(x);
    case ChainOp::kExpm1: return Expm1{}(x);
    case ChainOp::kLog2: return Log2{}(x);
    case ChainOp::kLog10: return Log10{}(x);
    case ChainOp::kExp2: return Exp2{}(x);
    case ChainOp::kReciprocal: return Reciprocal{}(x);
    case ChainOp::kLogicalNot: return truth(LogicalNot{}(x));
    case ChainOp::kIsNan: return truth(IsNan{}(x));
    case ChainOp::kIsInf: return truth(IsInf{}(x));
    case ChainOp::kIsFinite: return truth(IsFinite{}(x));
    case ChainOp::kCast: return x;
    case ChainOp::kClamp:
    case ChainOp::kHardtanh: return Clamp<C>{lo, hi}(x);
    case ChainOp::kLeakyRelu: return LeakyRelu<C>{lo}(x);
    case ChainOp::kAdd: return Add{}(x, y);
    case ChainOp::kSub: return Sub{}(x, y);
    case ChainOp::kMul: return Mul{}(x, y);
    case ChainOp::kDiv: return Div{}(x, y);
    case ChainOp::kMaximum: return Maximum{}(x, y);
    case ChainOp::kMinimum: return Minimum{}(x, y);
    case ChainOp::kPow: return Pow{}(x, y);
    case ChainOp::kPowScalar: return PowScalar{}(x, y);
    case ChainOp::kRPow: return RPow{}(x, y);
    case ChainOp::kAtan2: return Atan2{}(x, y);
    case ChainOp::kHypot: return Hypot{}(x, y);
    case ChainOp::kCopysign: return Copysign{}(x, y);
    case ChainOp::kEq: return truth(Eq{}(x, y));
    case ChainOp::kNe: return truth(Ne{}(x, y));
    case ChainOp::kLt: return truth(Lt{}(x, y));
    case ChainOp::kLe: return truth(Le{}(x, y));
    case ChainOp::kGt: return truth(Gt{}(x, y));
    case ChainOp::kGe: return truth(Ge{}(x, y));
    case ChainOp::kLogicalAnd: return truth(LogicalAnd{}(x, y));
    case ChainOp::kLogicalOr: return truth(LogicalOr{}(x, y));
    case ChainOp::kLogicalXor: return truth(LogicalXor{}(x, y));
    case ChainOp::kGeluBackward: return GeluBackward{}(x, y);
    case ChainOp::kGeluTanhBackward: return GeluTanhBackward{}(x, y);
    case ChainOp::kSiluBackward: return SiluBackward{}(x, y);
    case ChainOp::kSigmoidBackward: return SigmoidBackward{}(x, y);
    case ChainOp::kTanhBackward: return TanhBackward{}(x, y);
    case ChainOp::kReluBackward: return ReluBackward{}(x, y);
    case ChainOp::kClampBackward: return ClampBackward<C, false>{lo, hi, s.has_a, s.has_b}(x, y);
    case ChainOp::kHardtanhBackward: return ClampBackward<C, true>{lo, hi, s.has_a, s.has_b}(x, y);
    case ChainOp::kLeakyReluBackward: return LeakyReluBackward<C>{lo}(x, y);
    case ChainOp::kWhere: return Select{}(x, y, r[s.in[2]]);
  }
  return x;
}

}  // namespace chain

// Element i of the chain's result: its inputs loaded, its instructions run in compute type C
// (float or double, as program.compute), its outputs stored.
template <typename C>
MF_HOST_DEVICE void run_chain_element(const ChainProgram& p, const ChainArgs& args, int64_t i) {
  C r[ChainProgram::kMaxRegisters];
  for (int k = 0; k < p.inputs; ++k) {
    const ChainRead read = p.read[k];
    const int64_t at = read == ChainRead::kElement ? i
                       : read == ChainRead::kRow   ? i / p.cols
                       : read == ChainRead::kColumn ? i % p.cols
                                                    : 0;
    r[k] = chain::load<C>(args.in[k], p.input_dtype[k], at);
  }
  for (int k = 0; k < p.size; ++k) r[p.inputs + k] = chain::rounded(p.code[k].dtype, chain::step(p.code[k], r));
  for (int k = 0; k < p.outputs; ++k) chain::store(args.out[k], p.output_dtype[k], i, r[p.output_register[k]]);
}

}  // namespace mf
