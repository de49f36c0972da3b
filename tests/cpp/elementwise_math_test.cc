// Copyright 2026 The meshflow Authors.
// The elementwise ops' scalar functors (ops/elementwise_math.h), which the GPU's kernels run
// as they are: the CPU's kernels give what the functors give on edge values (NaN, +-inf,
// -0, denormals, the largest and lowest values, an integer's lowest over -1), bit for bit,
// but where the CPU runs fast_math's vectorizing float32 forms, which stay within a few ulps.
// So the CPU's tests of the ops check the GPU's arithmetic too. And the one way every device
// type's kernels are registered (ops/registry.h): its errors, and the kernel found by the
// memory's device type.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/device/testdev/testdev.h"
#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

// The op's CPU kernel on whole tensors.
Tensor run_cpu(const std::string& name, const std::vector<Tensor>& in) {
  const OpDef& op = find_op(name);
  const Attrs attrs;
  std::vector<TensorMeta> metas;
  std::vector<Box> in_boxes;
  for (const Tensor& t : in) {
    metas.push_back({t.shape(), t.dtype()});
    in_boxes.push_back(Box::whole(t.shape()));
  }
  const std::vector<TensorMeta> out = op.infer(metas, attrs);
  const std::vector<Box> out_boxes{Box::whole(out[0].shape)};
  return kernel_for(op, host_memory())(in, KernelContext{attrs, metas, in_boxes, out, out_boxes})[0];
}

template <typename T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::kBool;
  if constexpr (std::is_same_v<T, float>) return DType::kFloat32;
  if constexpr (std::is_same_v<T, double>) return DType::kFloat64;
  if constexpr (std::is_same_v<T, int64_t>) return DType::kInt64;
  if constexpr (std::is_same_v<T, int32_t>) return DType::kInt32;
  if constexpr (std::is_same_v<T, int16_t>) return DType::kInt16;
  if constexpr (std::is_same_v<T, int8_t>) return DType::kInt8;
  return DType::kUInt8;
}

template <typename T>
Tensor tensor_of(const std::vector<T>& values) {
  Tensor t = Tensor::empty({static_cast<int64_t>(values.size())}, dtype_of<T>());
  for (size_t i = 0; i < values.size(); ++i) t.data_as<T>()[i] = values[i];
  return t;
}

template <typename T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    return {L::quiet_NaN(), L::infinity(), -L::infinity(), T{0}, -T{0}, L::denorm_min(), -L::denorm_min(),
            L::min(), T(1e-30), T(0.5), T(-0.5), T(1), T(-1), T(2.5), T(-3.5), T(7), T(-20), T(88.5), T(-104),
            T(1e10), T(-1e10), L::max(), L::lowest()};
  } else {
    std::vector<T> v{L::min(), static_cast<T>(L::min() + 1), T{0}, T{1}, T{2}, T{7}, L::max(), static_cast<T>(L::max() - 1)};
    if constexpr (std::is_signed_v<T>) v.insert(v.end(), {T{-1}, T{-2}, T{-7}});
    return v;
  }
}

// How far fast_math's float32 forms may be from the functors: `rtol` of the value, and
// `atol` times the inputs' magnitudes (at least 1 each), for the polynomial erf's absolute
// error (gelu's Phi(x) far below 1).
struct Tolerance {
  double rtol = 0, atol = 0;
};

// Whether the kernel's `got` is the functor's `want` for inputs of magnitude `scale`: the
// same bits (NaN any NaN), or within `tol` (with a floor among the denormals).
template <typename T>
bool agrees(T got, T want, Tolerance tol, double scale) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
    if (tol.rtol == 0 || std::isinf(want) || std::isinf(got)) {
      return got == want && std::signbit(got) == std::signbit(want);
    }
    const double bound = tol.rtol * std::fabs(static_cast<double>(want)) + (tol.atol > 0 ? tol.atol * scale : 0) + 1e-40;
    return std::fabs(static_cast<double>(got) - want) <= bound;
  } else {
    return got == want;
  }
}

// Checks the op's CPU kernel against functor `f` on every edge value of T (every pair of
// them for two inputs; `nonzero_second`: none with a zero second input, which integer
// division refuses).
template <typename T, int kInputs, typename F>
void check(const std::string& name, F f, Tolerance tol = {}, bool nonzero_second = false) {
  const std::vector<T> values = edge_values<T>();
  std::vector<T> a, b;
  for (T x : values) {
    if constexpr (kInputs == 1) {
      a.push_back(x);
    } else {
      for (T y : values) {
        if (nonzero_second && y == T{0}) continue;
        a.push_back(x);
        b.push_back(y);
      }
    }
  }
  std::vector<Tensor> in{tensor_of(a)};
  if constexpr (kInputs == 2) in.push_back(tensor_of(b));
  const Tensor out = run_cpu(name, in);
  using R = decltype(f(T{}, T{}));
  ASSERT_EQ(out.dtype(), dtype_of<R>()) << name;
  int bad = 0;
  for (size_t i = 0; i < a.size() && bad < 5; ++i) {
    R want;
    if constexpr (kInputs == 1) {
      want = f(a[i], T{});
    } else {
      want = f(a[i], b[i]);
    }
    const R got = out.data_as<R>()[i];
    double scale = std::max(1.0, std::fabs(static_cast<double>(a[i])));
    if constexpr (kInputs == 2) scale *= std::max(1.0, std::fabs(static_cast<double>(b[i])));
    if (!agrees(got, want, tol, scale)) {
      ++bad;
      ADD_FAILURE() << name << " on " << dtype_name(dtype_of<T>()) << " " << +a[i]
                    << (kInputs == 2 ? ", " + std::to_string(+b[i]) : "") << ": the CPU gives " << +got
                    << ", the functor " << +want;
    }
  }
}

// f(x) as a function of two arguments, the second ignored (check's one form).
template <typename F>
auto first(F f) {
  return [f](auto x, auto) { return f(x); };
}

// fast_math's float32 forms: exp, sigmoid, tanh and silu within a few ulps; gelu (and the
// gradients of gelu and silu) within the polynomial erf's error; gelu_tanh and its gradient
// within that too (1 + tanh cancels below 0, where an ulp of tanh is one of 1).
constexpr Tolerance kFewUlps{6e-7, 0}, kPolynomial{2e-5, 2e-7};

template <typename T>
void check_float_ops() {
  const bool f32 = std::is_same_v<T, float>;
  const Tolerance exact{};
  check<T, 2>("add", scalar::Add{});
  check<T, 2>("sub", scalar::Sub{});
  check<T, 2>("mul", scalar::Mul{});
  check<T, 2>("div", scalar::Div{});
  check<T, 2>("floor_divide", scalar::FloorDivide{});
  check<T, 2>("fmod", scalar::Fmod{});
  check<T, 2>("maximum", scalar::Maximum{});
  check<T, 2>("minimum", scalar::Minimum{});
  check<T, 2>("pow", scalar::Pow{});
  check<T, 2>("atan2", scalar::Atan2{});
  check<T, 2>("hypot", scalar::Hypot{});
  check<T, 2>("copysign", scalar::Copysign{});
  check<T, 2>("eq", scalar::Eq{});
  check<T, 2>("lt", scalar::Lt{});
  check<T, 2>("ge", scalar::Ge{});
  check<T, 2>("logical_and", scalar::LogicalAnd{});
  check<T, 2>("logical_xor", scalar::LogicalXor{});
  check<T, 1>("isnan", first(scalar::IsNan{}));
  check<T, 1>("isinf", first(scalar::IsInf{}));
  check<T, 1>("isfinite", first(scalar::IsFinite{}));
  check<T, 1>("neg", first(scalar::Neg{}));
  check<T, 1>("abs", first(scalar::Abs{}));
  check<T, 1>("relu", first(scalar::Relu{}));
  check<T, 1>("trunc", first(scalar::Trunc{}));
  check<T, 1>("round", first(scalar::Round{}));
  check<T, 1>("sign", first(scalar::Sign{}));
  check<T, 1>("frac", first(scalar::Frac{}));
  check<T, 1>("log", first(scalar::Log{}));
  check<T, 1>("sqrt", first(scalar::Sqrt{}));
  check<T, 1>("rsqrt", first(scalar::Rsqrt{}));
  check<T, 1>("reciprocal", first(scalar::Reciprocal{}));
  check<T, 1>("exp", first(scalar::Exp{}), f32 ? kFewUlps : exact);
  check<T, 1>("tanh", first(scalar::Tanh{}), f32 ? kFewUlps : exact);
  check<T, 1>("sigmoid", first(scalar::Sigmoid{}), f32 ? kFewUlps : exact);
  check<T, 1>("gelu", first(scalar::Gelu{}), f32 ? kPolynomial : exact);
  check<T, 1>("gelu_tanh", first(scalar::GeluTanh{}), f32 ? kPolynomial : exact);
  check<T, 1>("silu", first(scalar::Silu{}), f32 ? kFewUlps : exact);
  check<T, 1>("sin", first(scalar::Sin{}));
  check<T, 1>("atanh", first(scalar::Atanh{}));
  check<T, 1>("erfc", first(scalar::Erfc{}));
  check<T, 1>("expm1", first(scalar::Expm1{}));
  check<T, 1>("lgamma", first(scalar::Lgamma{}));
  check<T, 1>("erfcx", first(scalar::Erfcx{}));
  check<T, 2>("gelu_backward", scalar::GeluBackward{}, f32 ? kPolynomial : exact);
  check<T, 2>("gelu_tanh_backward", scalar::GeluTanhBackward{}, f32 ? kPolynomial : exact);
  check<T, 2>("silu_backward", scalar::SiluBackward{}, f32 ? kPolynomial : exact);
  check<T, 2>("sigmoid_backward", scalar::SigmoidBackward{});
  check<T, 2>("tanh_backward", scalar::TanhBackward{});
  check<T, 2>("relu_backward", scalar::ReluBackward{});
}

template <typename T>
void check_integer_ops() {
  constexpr bool kNonzero = true;  // integer division refuses a zero divisor
  check<T, 2>("add", scalar::Add{});
  check<T, 2>("sub", scalar::Sub{});
  check<T, 2>("mul", scalar::Mul{});
  check<T, 2>("div", scalar::Div{}, {}, kNonzero);
  check<T, 2>("floor_divide", scalar::FloorDivide{}, {}, kNonzero);
  check<T, 2>("fmod", scalar::Fmod{}, {}, kNonzero);
  check<T, 2>("maximum", scalar::Maximum{});
  check<T, 2>("minimum", scalar::Minimum{});
  check<T, 2>("pow", scalar::Pow{});
  check<T, 2>("bitwise_and", scalar::BitwiseAnd{});
  check<T, 2>("bitwise_xor", scalar::BitwiseXor{});
  check<T, 2>("bitwise_left_shift", scalar::ShiftLeft{});
  check<T, 2>("bitwise_right_shift", scalar::ShiftRight{});
  check<T, 2>("le", scalar::Le{});
  check<T, 2>("logical_or", scalar::LogicalOr{});
  check<T, 1>("bitwise_not", first(scalar::BitwiseNot{}));
  check<T, 1>("logical_not", first(scalar::LogicalNot{}));
  check<T, 1>("neg", first(scalar::Neg{}));
  check<T, 1>("abs", first(scalar::Abs{}));
  check<T, 1>("relu", first(scalar::Relu{}));
  check<T, 1>("sign", first(scalar::Sign{}));
}

TEST(ElementwiseMath, CpuKernelsAreTheFunctorsOnFloats) {
  check_float_ops<float>();
  check_float_ops<double>();
}

TEST(ElementwiseMath, CpuKernelsAreTheFunctorsOnIntegers) {
  check_integer_ops<int64_t>();
  check_integer_ops<int32_t>();
  check_integer_ops<int16_t>();
  check_integer_ops<int8_t>();
  check_integer_ops<uint8_t>();
}

// The rules the functors must keep, for every device: an integer's lowest over -1 wraps
// rather than traps, and division rounds toward zero or down.
TEST(ElementwiseMath, IntegerDivisionRules) {
  constexpr int32_t kLowest = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(scalar::Div{}(kLowest, -1), kLowest);
  EXPECT_EQ(scalar::FloorDivide{}(kLowest, -1), kLowest);
  EXPECT_EQ(scalar::Fmod{}(kLowest, -1), 0);
  EXPECT_EQ(scalar::Div{}(-7, 2), -3);
  EXPECT_EQ(scalar::FloorDivide{}(-7, 2), -4);
  EXPECT_EQ(scalar::Fmod{}(-7, 2), -1);
  EXPECT_EQ(scalar::Mul{}(int16_t{-32768}, int16_t{-32768}), 0);  // wraps in unsigned int, not int
  EXPECT_EQ(scalar::Neg{}(kLowest), kLowest);
  EXPECT_EQ(scalar::Abs{}(kLowest), kLowest);
  EXPECT_EQ(scalar::FloorDivide{}(-7.0, 2.0), -4.0);
  EXPECT_EQ(scalar::FloorDivide{}(-1.0, 3.0), -1.0);
  EXPECT_TRUE(std::signbit(scalar::FloorDivide{}(-0.0, 3.0)));
  // An unsigned divisor of all ones is its largest value, not -1.
  EXPECT_EQ(scalar::Div{}(uint8_t{254}, uint8_t{255}), 0);
  EXPECT_EQ(scalar::Fmod{}(uint8_t{7}, uint8_t{255}), 7);
}

Kernel noop_kernel() {
  return [](const std::vector<Tensor>& in, const KernelContext&) { return in; };
}

TEST(KernelRegistry, RefusesAnUnknownOpADuplicateAndAnUndeclaredDeviceType) {
  find_op("add");  // the registry is filled
  OpRegistry r;
  auto message = [&](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const std::logic_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([&] { r.add_kernel("testdev", "no_such_op", noop_kernel()); }),
            "a 'testdev' kernel of unknown op 'no_such_op' (register the op first)");
  EXPECT_EQ(message([&] { r.add_kernel("cpu", "add", noop_kernel()); }),
            "op 'add' has two kernels for device type 'cpu'");
  EXPECT_EQ(message([&] { r.add_kernel("testdev", "add", noop_kernel()); }),
            "op 'add' has two kernels for device type 'testdev'");
  EXPECT_EQ(message([&] { r.add_kernel("no_such_device", "add", noop_kernel()); }),
            "op 'add' gets a kernel of undeclared device type 'no_such_device' (OpRegistry::add_device_type first)");
  EXPECT_EQ(message([&] { r.add_device_type("testdev", {}); }), "device type 'testdev' is declared twice");
  EXPECT_EQ(message([&] { r.add_device_type("cpu", {}); }), "device type 'cpu' is declared twice");
}

// Each device type's kernel is the one registered for it, found by the memory's device type
// index: the CPU's is OpDef::kernel; the test device's wraps it (host views), as its own.
TEST(KernelRegistry, FindsTheKernelByDeviceType) {
  const OpDef& add = find_op("add");
  Memory& testdev = device::testdev::device().memory();
  EXPECT_EQ(host_memory().device_type_index(), 0);
  EXPECT_EQ(device_type_index("cpu"), 0);
  EXPECT_EQ(testdev.device_type_index(), device_type_index("testdev"));
  EXPECT_EQ(&kernel_for(add, host_memory()), &add.kernel);
  const Kernel& on_testdev = kernel_for(add, testdev);
  EXPECT_NE(&on_testdev, &add.kernel);
  EXPECT_EQ(&kernel_for(add, testdev), &on_testdev);
  EXPECT_TRUE(has_kernel(add, "cpu"));
  EXPECT_TRUE(has_kernel(add, "testdev"));
  EXPECT_TRUE(has_kernel(add, "meta"));
  EXPECT_FALSE(has_kernel(add, "no_such_device"));
  EXPECT_TRUE(runs_host_kernels(testdev));
  EXPECT_TRUE(runs_host_kernels(host_memory()));
  EXPECT_EQ(fused_chains(testdev), FusedChains::kPrograms);
  EXPECT_EQ(fused_chains(host_memory()), FusedChains::kHostLoops);
  // The kernel runs on the test device's memory and gives the CPU's values there.
  Tensor a = tensor_of<float>({1, 2, 3}), b = tensor_of<float>({4, 5, -6});
  const std::vector<TensorMeta> metas{{a.shape(), a.dtype()}, {b.shape(), b.dtype()}};
  const std::vector<TensorMeta> out{{a.shape(), a.dtype()}};
  const std::vector<Box> boxes{Box::whole(a.shape()), Box::whole(b.shape())}, out_boxes{Box::whole(a.shape())};
  const Attrs attrs;
  const Tensor sum = on_testdev({a.copy_to(testdev), b.copy_to(testdev)},
                                KernelContext{attrs, metas, boxes, out, out_boxes})[0];
  EXPECT_EQ(sum.memory().device_type(), "testdev");
  const Tensor host = sum.copy_to(host_memory());
  EXPECT_EQ(std::vector<float>(host.data_as<float>(), host.data_as<float>() + 3), (std::vector<float>{5, 7, -3}));
}

}  // namespace
}  // namespace mf
