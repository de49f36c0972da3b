// Copyright 2026 The meshflow Authors.
// The op suites' central check (CONCEPTS section 3): for every valid N-d signature of an op
// on a placement, forced in turn, the global result gathered equals the single-device
// result. Inputs are full logical values, identical on every rank.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/device/device.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/vm/vm.h"
#include "tests/cpp/dist_util.h"

namespace mf::test {

// |actual - expected| <= tol * (1 + |expected|) elementwise, same shape and dtype.
inline ::testing::AssertionResult close(const Tensor& actual, const Tensor& expected, double tol) {
  if (actual.shape() != expected.shape() || actual.dtype() != expected.dtype()) {
    return ::testing::AssertionFailure() << "shape/dtype " << to_string(actual.shape()) << " "
                                         << dtype_name(actual.dtype()) << ", expected "
                                         << to_string(expected.shape()) << " " << dtype_name(expected.dtype());
  }
  return visit_storage(actual.dtype(), [&](auto v) -> ::testing::AssertionResult {
    using T = decltype(v);
    const T* a = actual.data_as<T>();
    const T* e = expected.data_as<T>();
    auto near = [tol](double x, double y) {
      const bool same = x == y || (std::isnan(x) && std::isnan(y));  // equal infinities too
      return same || std::abs(x - y) <= tol * (1 + std::abs(y));
    };
    for (int64_t i = 0; i < actual.numel(); ++i) {
      if constexpr (is_complex_v<T>) {  // each part on its own
        if (!near(a[i].real(), e[i].real()) || !near(a[i].imag(), e[i].imag())) {
          return ::testing::AssertionFailure() << "element " << i << " is (" << a[i].real() << ", " << a[i].imag()
                                               << "), expected (" << e[i].real() << ", " << e[i].imag() << ")";
        }
      } else {
        auto value = [](T x) -> double {
          if constexpr (is_half_v<T>) return to_float(x); else return static_cast<double>(x);
        };
        const double x = value(a[i]), y = value(e[i]);
        if (!near(x, y)) return ::testing::AssertionFailure() << "element " << i << " is " << x << ", expected " << y;
      }
    }
    return ::testing::AssertionSuccess();
  });
}

// Checks `op` on `inputs` under every valid N-d signature on `placement`; returns how many.
// Bytes equal, shapes and dtypes too (host tensors).
inline bool bitwise_equal(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.dtype() == b.dtype() && std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

// How far a GPU's result may lie from the CPU's: rounding differs (fused multiply-adds, the
// order of sums, the math library), never by more than a few units in the last place.
inline double gpu_tolerance(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return 1e-4;
    case DType::kFloat64:
      return 1e-9;
    case DType::kBFloat16:
      return 2e-2;
    case DType::kFloat16:
      return 1e-3;
    default:
      return 0;
  }
}

// The devices an op's results are compared on besides the CPU: the test device (bit for bit:
// it runs the CPU's kernels behind its memory), and a GPU where there is one.
inline std::vector<std::string> other_devices() {
  std::vector<std::string> out{"testdev"};
  if (gpu_here()) out.push_back("cuda");
  return out;
}

// `got` (on `device`) against the CPU's `expected`: the same bits on the test device, within
// the dtype's rounding on a GPU.
inline ::testing::AssertionResult same_as_cpu(const std::string& device, const Tensor& got, const Tensor& expected) {
  if (device == "testdev") {
    return bitwise_equal(got, expected) ? ::testing::AssertionSuccess()
                                        : ::testing::AssertionFailure() << "differs from the CPU's bit for bit";
  }
  return close(got, expected, gpu_tolerance(expected.dtype()));
}

// The op on each other device (memory the host cannot touch) gives the CPU's `expected`
// (ops without inputs run where creation puts them: the host), and on the meta device its
// shapes and dtypes.
inline void expect_same_on_test_device(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                       const std::vector<Tensor>& expected) {
  if (inputs.empty()) return;
  std::vector<std::string> types = other_devices();
  types.push_back("meta");  // shapes and dtypes only: it holds no values
  for (const std::string& type : types) {
    Memory& memory = device::for_placement(type).memory();
    std::vector<Tensor> on_device;
    for (const Tensor& t : inputs) on_device.push_back(t.copy_to(memory));
    const std::vector<Tensor> got = apply_local(op, on_device, attrs);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      const std::string where =
          op.name + " " + attrs.str() + ": output " + std::to_string(i) + " on " + memory.device_str();
      EXPECT_EQ(&got[i].memory(), &memory) << where;
      if (type == "meta") {
        EXPECT_EQ(got[i].shape(), expected[i].shape()) << where;
        EXPECT_EQ(got[i].dtype(), expected[i].dtype()) << where;
      } else {
        EXPECT_TRUE(same_as_cpu(type, got[i].copy_to(host_memory()), expected[i])) << where;
      }
    }
  }
}

// Every valid signature of the op on `placement` gives the one-device result, and the same
// placement on every other device gives the CPU's result (same_as_cpu). Returns how many
// signatures it checked.
inline int check_every_signature(const std::string& op_name, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                 const Placement& placement, double tol = 1e-5) {
  const OpDef& op = find_op(op_name);
  const std::vector<Tensor> expected = apply_local(op, inputs, attrs);
  expect_same_on_test_device(op, inputs, attrs, expected);
  std::vector<TensorMeta> metas;
  for (const Tensor& t : inputs) metas.push_back({t.shape(), t.dtype()});
  std::vector<std::string> devices{"cpu"};
  for (const std::string& d : other_devices()) devices.push_back(d);
  int checked = 0;
  for (const NdSignature& sig : valid_nd_signatures(op, metas, attrs, placement.hierarchy())) {
    std::vector<Tensor> on_cpu;
    for (const std::string& device : devices) {
      const Placement p(device, placement.hierarchy(), placement.ranks());
      std::vector<GlobalTensor> globals;
      for (size_t i = 0; i < inputs.size(); ++i) globals.push_back(make_source(inputs[i], p, sig.inputs[i]));
      Constraints constraints;
      constraints.signature = sig;
      if (inputs.empty()) constraints.placement = p;
      std::vector<GlobalTensor> outs = apply_global(op, globals, attrs, constraints);
      for (size_t i = 0; i < outs.size(); ++i) {
        EXPECT_EQ(outs[i].nd_sbp(), sig.outputs[i]);
        const int id = p.parallel_id(me());
        if (id >= 0) {
          EXPECT_EQ(outs[i].local().shape(),
                    local_box(outs[i].shape(), p.hierarchy(), sig.outputs[i], p.coordinate(id)).extent)
              << op_name << " " << sig.str();
          EXPECT_EQ(&outs[i].local().memory(), &p.memory()) << op_name << " " << sig.str();
        }
        const Tensor full = gather_full(outs[i]).copy_to(host_memory());
        if (device == "cpu") {
          // A local kernel may give channels-last; a global tensor's parts are row-major.
          EXPECT_TRUE(close(full, in_format(expected[i], MemoryFormat::kContiguous), tol))
              << op_name << " " << attrs.str() << " signature " << sig.str() << " on " << p.str();
          on_cpu.push_back(full);
        } else {
          EXPECT_TRUE(same_as_cpu(device, full, on_cpu[i]))
              << op_name << " " << attrs.str() << " signature " << sig.str() << " on " << p.str();
        }
      }
    }
    ++checked;
  }
  return checked;
}

// The op's valid 1-d signatures, as strings, all-broadcast last.
inline std::vector<std::string> one_axis(const std::string& op, const std::vector<TensorMeta>& inputs, const Attrs& attrs) {
  std::vector<std::string> out;
  for (const NdSignature& s : valid_nd_signatures(find_op(op), inputs, attrs, {1})) out.push_back(s.str());
  return out;
}

// check_every_signature, expecting every combination of the op's 1-d signatures (each
// axis of the mesh picks one) to be checked.
inline void check(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs, const Placement& p,
                  double tol = 1e-5) {
  std::vector<TensorMeta> metas;
  for (const Tensor& t : inputs) metas.push_back({t.shape(), t.dtype()});
  int64_t expected = 1;
  for (int a = 0; a < p.ndim(); ++a) {
    expected *= static_cast<int64_t>(valid_nd_signatures(find_op(op), metas, attrs, {1}).size());
  }
  EXPECT_EQ(check_every_signature(op, inputs, attrs, p, tol), expected)
      << op << " " << attrs.str() << " on " << p.str();
}

// Runs f on every rank; each must throw std::invalid_argument containing `text`, either
// from f or (an error a kernel finds in its data, after the call returned) at the next
// synchronization.
template <typename F>
void expect_error(F f, const std::string& text) {
  try {
    f();
    vm::synchronize();
    ADD_FAILURE() << "no error; expected one containing '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

inline Placement first_ranks(const Shape& hierarchy) {
  std::vector<int> ranks(numel(hierarchy));
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int>(i);
  return Placement("cpu", hierarchy, ranks);
}

// The meshes every op is checked on, those this world sweeps (sweeps_here).
inline std::vector<Placement> op_meshes() {
  std::vector<Placement> meshes;
  for (const Shape& h : {Shape{2}, Shape{4}, Shape{2, 2}}) {
    if (sweeps_here(static_cast<int>(numel(h)))) meshes.push_back(first_ranks(h));
  }
  return meshes;
}

// Inputs and sweeps of the elementwise and math ops' suites (a namespace of their own, as
// other suites define their own `filled` and `sweep`).
namespace elementwise {

// `shape` filled with f(i) for element i (bool: nonzero is true).
template <typename F>
Tensor filled(const Shape& shape, DType dtype, F f) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_with_bool(dtype, [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] = static_cast<T>(f(i));
  });
  return t;
}

// Integers in [-20, 20].
inline Tensor value(const Shape& shape, DType dtype) { return logical_value(shape, dtype); }
inline Tensor positive(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return 1 + (i * 7) % 23; });
}
// -3..3 without 0.
inline Tensor divisor(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return i % 6 < 3 ? i % 6 - 3 : i % 6 - 2; });
}

// check_every_signature on every mesh of the world.
inline void sweep(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {}) {
  for (const Placement& p : op_meshes()) check_every_signature(op, inputs, attrs, p);
}

// The 1-d signatures the op lists (all-broadcast is not among them).
inline std::set<std::string> listed(const std::string& op_name, const std::vector<TensorMeta>& inputs,
                                    const Attrs& attrs = {}) {
  const OpDef& op = find_op(op_name);
  std::set<std::string> out;
  for (const Signature& s : op.signatures(inputs, op.infer(inputs, attrs), attrs)) out.insert(s.str());
  return out;
}

// A unary op, the dtypes it takes and its input of a shape and dtype.
struct UnaryCase {
  const char* op;
  std::vector<DType> dtypes;
  Tensor (*input)(const Shape&, DType);
};

// sweep of every case on every shape and dtype.
inline void sweep_unary(const std::vector<UnaryCase>& cases, const std::vector<Shape>& shapes) {
  for (const UnaryCase& c : cases) {
    for (const Shape& shape : shapes) {
      for (DType dtype : c.dtypes) sweep(c.op, {c.input(shape, dtype)});
    }
  }
}

}  // namespace elementwise

}  // namespace mf::test
