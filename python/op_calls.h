// Copyright 2026 The meshflow Authors.
// The per-op hot path of the Python extension: the op handles (_C.op(name).unary, .binary,
// .scalar, .reduce) and Tensor's operators, reductions, views and the everyday functions
// (matmul, where, the unary ops, cat, zeros / ones) in C (_C.tensor_method and its kin): each
// takes the calls whose meaning it sees at once and hands every other to its Python. All are
// plain CPython calls that read and make Vars through the Python type of Var found once at
// import, so a call costs no pybind11 overload resolution and no lookup of a C++ type by
// name, and leaves pybind11's process-wide state alone. Also the one caster of Shape, which
// every translation unit of the extension must see alike.
// Thread-safety: called under the GIL; what bind_op_calls and set_tensor_class record is
// read-only afterwards.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>

#include "meshflow/autograd/var.h"
#include "meshflow/ops/functional.h"

namespace mf {

// A Python int as int64, or nullopt beyond its range (Python ints have no bound).
std::optional<int64_t> int64_of(const pybind11::handle& value);
// A Python number beside tensor x. An int beyond int64 is a float beside a float tensor (as
// Python's own arithmetic would make it) and refused beside an integer one, naming both.
Scalar scalar_of(const pybind11::handle& value, const std::string& op, const Var& x);

// item() of a tensor of one element on any device as a Python number (bindings.cc); an
// OpError naming the shape for any other.
pybind11::object item_of(const Tensor& on_device);

// Defines _C.Op, _C.op, _C.set_tensor_class and _C.tensor_method; after _C.Var.
void bind_op_calls(pybind11::module_& m);

}  // namespace mf

// Shapes cross to and from Python as lists of ints, as the std::vector they replaced; a size
// beyond int64 is an error naming it (pybind alone would say "Unable to cast").
namespace pybind11::detail {
template <>
struct type_caster<mf::Shape> : list_caster<mf::Shape, int64_t> {
  bool load(handle src, bool convert) {
    if (isinstance<sequence>(src) && !isinstance<str>(src)) {
      for (handle item : reinterpret_borrow<sequence>(src)) {
        if (PyLong_Check(item.ptr()) && !mf::int64_of(item)) {
          throw value_error("shape " + std::string(str(src)) + " has the size " + std::string(str(item)) +
                            ", which does not fit in int64");
        }
      }
    }
    return list_caster<mf::Shape, int64_t>::load(src, convert);
  }
};
}  // namespace pybind11::detail
