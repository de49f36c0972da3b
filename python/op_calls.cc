// Copyright 2026 The meshflow Authors.
#include "python/op_calls.h"

#include <structmember.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

#include "meshflow/autograd/alias.h"
#include "meshflow/core/error.h"
#include "meshflow/core/strides.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/registry.h"

namespace py = pybind11;

namespace mf {

std::optional<int64_t> int64_of(const py::handle& value) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow) return std::nullopt;
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<int64_t>(v);
}

Scalar scalar_of(const py::handle& value, const std::string& op, const Var& x) {
  if (!py::isinstance<py::int_>(value)) return py::cast<double>(value);
  if (const std::optional<int64_t> i = int64_of(value)) return *i;
  if (is_floating(x.dtype())) return py::cast<double>(value);
  op_error(op, "value " + py::str(value).cast<std::string>() + " does not fit in " + dtype_name(x.dtype()) +
                   ", the dtype of its tensor operand");
}

namespace {

const py::detail::type_info* var_type = nullptr;  // set by bind_op_calls

// The Var a Python Var object holds, or null when none is constructed in it.
const Var* var_in(PyObject* object) {
  auto* inst = reinterpret_cast<py::detail::instance*>(object);
  return static_cast<const Var*>(inst->simple_layout ? inst->simple_value_holder[0]
                                                     : inst->get_value_and_holder().value_ptr());
}

// Argument `index` of `call` as a Var (held by the Python object), or a TypeError naming it.
const Var& var_arg(PyObject* arg, const char* call, int index) {
  if (Py_TYPE(arg) == var_type->type) {
    if (const Var* v = var_in(arg)) return *v;
  } else if (PyObject_TypeCheck(arg, var_type->type)) {
    return py::cast<const Var&>(py::handle(arg));  // a subclass: pybind11's own, slower path
  }
  throw py::type_error(std::string(call) + ": argument " + std::to_string(index) + " must be a _C.Var, got " +
                       Py_TYPE(arg)->tp_name);
}

// A new Python Var owning `v`; throws py::error_already_set where Python fails to make it.
PyObject* var_object(Var&& v) {
  const auto copy = [](const void* p) -> void* { return new Var(*static_cast<const Var*>(p)); };
  const auto move = [](const void* p) -> void* {
    return new Var(std::move(*const_cast<Var*>(static_cast<const Var*>(p))));
  };
  PyObject* object =
      py::detail::type_caster_generic::cast(&v, py::return_value_policy::move, nullptr, var_type, copy, move).ptr();
  if (!object) throw py::error_already_set();
  return object;
}

// The GIL let go while an op is issued (it may wait for the issuing lock or the VM's queue).
struct WithoutGil {
  PyThreadState* state = PyEval_SaveThread();
  WithoutGil() = default;
  WithoutGil(const WithoutGil&) = delete;
  WithoutGil& operator=(const WithoutGil&) = delete;
  ~WithoutGil() { PyEval_RestoreThread(state); }
};

// Sets the Python error of the exception being handled, as pybind11's own calls do (its
// translators, meshflow's OpError classes among them). Call inside a catch block.
void raise_current_exception() {
  if (py::detail::apply_exception_translators(py::detail::get_local_internals().registered_exception_translators)) {
    return;
  }
  if (py::detail::apply_exception_translators(py::detail::get_internals().registered_exception_translators)) return;
  PyErr_SetString(PyExc_SystemError, "an exception escaped meshflow's exception translators");
}

// ---- Op handles: _C.op(name), an op looked up once, for the Python fast paths. Calling its
// methods skips the registry lookup by name, the attribute dict and the list conversions of
// _C.apply. Each is a METH_FASTCALL function bound to a capsule of the OpDef.

struct OpRef {
  const OpDef* op;
};

// Runs `body` (returning a Var) as op call `call` taking `nargs` arguments; nullptr with the
// Python error set if it throws.
template <typename Body>
PyObject* op_call(const char* call, Py_ssize_t nargs, Py_ssize_t expected, Body&& body) {
  try {
    if (nargs != expected) {
      throw py::type_error(std::string(call) + " takes " + std::to_string(expected) + " arguments (" +
                           std::to_string(nargs) + " given)");
    }
    return var_object(body());
  } catch (...) {
    raise_current_exception();
    return nullptr;
  }
}

const OpDef& op_of(PyObject* capsule) { return *static_cast<const OpDef*>(PyCapsule_GetPointer(capsule, nullptr)); }

Var first_output(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs = {}) {
  std::vector<Var> outputs = call(op, inputs, attrs);
  if (outputs.empty()) throw std::logic_error(op.name + " has no outputs");
  return std::move(outputs[0]);
}

Var first_output_without_gil(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs = {}) {
  WithoutGil unlocked;
  return first_output(op, inputs, attrs);
}

PyObject* unary_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return op_call("Op.unary", nargs, 1,
                 [&] { return first_output_without_gil(op_of(self), {var_arg(args[0], "Op.unary", 1)}); });
}

PyObject* binary_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return op_call("Op.binary", nargs, 2, [&] {
    return first_output_without_gil(op_of(self),
                                    {var_arg(args[0], "Op.binary", 1), var_arg(args[1], "Op.binary", 2)});
  });
}

// (x, value): the op with the Python number `value` as its "value" attribute.
PyObject* scalar_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return op_call("Op.scalar", nargs, 2, [&] {
    const OpDef& op = op_of(self);
    const Var& x = var_arg(args[0], "Op.scalar", 1);
    const Scalar value = scalar_of(py::handle(args[1]), op.name, x);
    WithoutGil unlocked;
    return scalar_op(op, x, value);
  });
}

// (x, dims, keepdim): a reduction over `dims` (a list of ints; empty: every dim).
PyObject* reduce_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return op_call("Op.reduce", nargs, 3, [&] {
    const Var& x = var_arg(args[0], "Op.reduce", 1);
    if (!PyList_Check(args[1])) {
      throw py::type_error(std::string("Op.reduce: dims must be a list of ints, got ") + Py_TYPE(args[1])->tp_name);
    }
    const Attrs attrs{{"dims", py::cast<Shape>(py::handle(args[1])).vec()},
                      {"keepdim", static_cast<bool>(PyObject_IsTrue(args[2]))}};
    return first_output_without_gil(op_of(self), {x}, attrs);
  });
}

// (x, dim): the op along `dim` (an int, its "dim" attribute; softmax, log_softmax).
PyObject* along_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return op_call("Op.along", nargs, 2, [&] {
    const Var& x = var_arg(args[0], "Op.along", 1);
    const std::optional<int64_t> dim = PyLong_Check(args[1]) ? int64_of(py::handle(args[1])) : std::nullopt;
    if (!dim) throw py::type_error(std::string("Op.along: dim must be an int, got ") + Py_TYPE(args[1])->tp_name);
    return first_output_without_gil(op_of(self), {x}, Attrs{{"dim", *dim}});
  });
}

PyMethodDef op_methods[] = {
    {"unary", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&unary_call)), METH_FASTCALL,
     "unary(x): the op's first output on Var x"},
    {"binary", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&binary_call)), METH_FASTCALL,
     "binary(a, b): the op's first output on Vars a and b"},
    {"scalar", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&scalar_call)), METH_FASTCALL,
     "scalar(x, value): the op on Var x with the number value"},
    {"reduce", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&reduce_call)), METH_FASTCALL,
     "reduce(x, dims, keepdim): the reduction of Var x over dims (empty: every dim)"},
    {"along", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&along_call)), METH_FASTCALL,
     "along(x, dim): the op on Var x along dim"},
};

// Op's method `method` (an entry of op_methods) bound to the op.
py::object op_method(const OpRef& r, PyMethodDef& method) {
  py::capsule self(static_cast<const void*>(r.op));
  return py::reinterpret_steal<py::object>(PyCFunction_New(&method, self.ptr()));
}

// ---- Tensor methods in C (_C.tensor_method). `a + b`, `x * 2.0`, `x.sum()` on meshflow
// Tensors reach C++ here in one call, without the Python frames of the operator, the op
// and Tensor.__init__. Each stands for a Python method, its fallback, and takes only the
// calls whose meaning it can see at once: Tensors (subclasses too: the fallback's general
// path gives such operands the same call), or a Tensor and a Python int or float, and no
// keywords. Every other call goes to the fallback, as do the binary forms' calls that C++
// refuses with a ValueError before anything runs (dtypes an op does not take, which the
// fallback promotes), as the Python fast paths they replace catch it.

// meshflow.Tensor, and where its `_impl` slot (the Var object) sits in its instances and
// in its subclasses' (set_tensor_class).
PyTypeObject* tensor_class = nullptr;
Py_ssize_t impl_offset = 0;
// Where its `_view` (the record of the base a view was taken from) and `_views` (weak
// references to the views taken from it) slots sit (meshflow/_inplace.py).
Py_ssize_t view_offset = 0;
Py_ssize_t views_offset = 0;

PyObject*& slot(PyObject* object, Py_ssize_t offset) {
  return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(object) + offset);
}

// The Var of meshflow Tensor `object`; null for anything else.
const Var* var_of_tensor(PyObject* object) {
  if (!PyObject_TypeCheck(object, tensor_class)) return nullptr;
  PyObject* impl = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(object) + impl_offset);
  return impl && Py_TYPE(impl) == var_type->type ? var_in(impl) : nullptr;
}

// A new meshflow Tensor of `v`: Tensor(impl), whose __init__ only stores a Var.
PyObject* tensor_object(Var&& v) {
  PyObject* impl = var_object(std::move(v));
  PyObject* tensor = tensor_class->tp_alloc(tensor_class, 0);
  if (!tensor) {
    Py_DECREF(impl);
    throw py::error_already_set();
  }
  *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(tensor) + impl_offset) = impl;
  return tensor;
}

// The op's first output. The GIL stays held for local tensors: their issue waits only for
// the issuing lock and for the VM's queue (back pressure), and both waits let it go
// (vm::set_issuing_wait). A global op's issue may communicate, so it lets the GIL go.
Var issue(bool global, const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs = {}) {
  return global ? first_output_without_gil(op, inputs, attrs) : first_output(op, inputs, attrs);
}

enum class Form {
  kBinary,     // (self, other): the op on two Tensors; `scalar` on a Tensor and a number
  kReflected,  // (self, other) for other <op> self, of a commutative op: the same calls, operands swapped
  kReduce,     // (self[, dim[, keepdim]]): the reduction over an int dim, or every dim
  kGetitem,    // (self, key): fn::basic_index for a basic key, its result linked as a view of self
  kSetitem,    // (self, key, value): fn::write_basic_index for a basic key and a number or Tensor value
  kView,       // (self, *args): a view-making method (ViewOp), its result linked as a view of self
  kInplace,    // (self, other): self.<op>_(other), the binary op's result written back into self
  kSize,       // (self[, dim]): self.size(), a Size, or self.size(dim), an int (Tensor.shape's getter too)
  kCompare,    // (self, other): a comparison of two Tensors, or of a Tensor and a number made a 0-d tensor
  kUnary,      // (self): a C++ function of one local Var (TensorMethod::unary)
  kItem,       // (self): self.item() of a local self (item_of)
  kCat,        // (tensors[, dim]): the cat or stack op on a list or tuple of local Tensors and an exact int dim
  kContiguous,  // (self): self.contiguous() where known_strides knows torch's strides of self
  kMatrices,   // (a, b): the op on two Tensors of at least 2 dims each (matmul's batched form)
  kWhere,      // (condition, x, y): the op on a bool Tensor and two meshflow.Tensors of one dtype
  kCreate,     // (*sizes) or (sizes): the creation op's tensor of these sizes in creation_dtype, on the host
  kOne,        // (x): the op on one Tensor, its dtype as it is (an elementwise op of one input)
  kFloating,   // (x): as kOne, on a Tensor of a floating dtype (the fallback widens the others)
  kSubtract,   // (self, other): self - other, a Tensor as kBinary's; a number as sub_number's
  kReflectedSubtract,  // (self, other): other - self for a number other (sub_number)
  kDivide,     // (self, other): as kBinary's, for a float32 or float64 self (the fallback promotes the others)
  kChunk,      // (self, chunks[, dim]): the split op's pieces, each linked as the piece of self it is
};

// The view-making methods in C (Form::kView), each on exact ints.
enum class ViewOp {
  kReshape,    // x.reshape(*sizes) or x.reshape(sizes) on a tensor that is no view: fn::reshape
  kView,       // x.view(...): as reshape's
  kTranspose,  // x.transpose(dim0, dim1): fn::transpose
  kUnsqueeze,  // x.unsqueeze(dim): fn::unsqueeze
  kPermute,    // x.permute(*dims) or x.permute(dims): fn::permute
  kT,          // x.t() of a tensor of at most 2 dims: x itself below 2, else fn::transpose(x, 0, 1)
  kSqueeze,    // x.squeeze() or x.squeeze(dim) on a tensor that is no view: fn::reshape without those dims of 1
};

struct TensorMethod {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* dict;       // the fallback's name, doc and __wrapped__ (functools.update_wrapper)
  PyObject* fallback;   // the Python method this one stands for
  const OpDef* op;
  const OpDef* scalar;  // the op on a Tensor and a number (binary forms), or null: the fallback's
  Form form;
  PyObject* view_kind;    // kGetitem, kView: the _ViewKind its views are recorded with, else null
  PyObject* view_kwargs;  // kGetitem, kView: the records' (empty) keywords, else null
  ViewOp view_op;         // kView's
  Var (*unary)(const Var&);  // kUnary's
  size_t matrix_dims;     // kMatrices: the dims both operands have exactly (mm 2, bmm 3); 0: any from 2
  const char* node;       // kMatrices: torch's node the result is shown as (bmm's), or null: the op's
};

// Records `view` as a view of `base` taken by `kind` with these arguments (_inplace._link,
// which is this): view counts its writes with base (share_version), view._view = (base,
// kind, args, kwargs), and a weak reference to view
// appended to base._views, in place of the last one where that one is dead (a loop's views
// of one base die one by one: the list then neither grows nor is pruned), whose dead
// references are dropped at each power of two from 16.
// Returns false with the Python error set where Python fails.
bool link_view(PyObject* base, PyObject* view, PyObject* kind, PyObject* args, PyObject* kwargs) {
  if (!PyObject_TypeCheck(base, tensor_class) || !PyObject_TypeCheck(view, tensor_class)) {
    PyErr_SetString(PyExc_TypeError, "link_view: base and view must be meshflow Tensors");
    return false;
  }
  const Var* base_var = var_of_tensor(base);
  const Var* view_var = var_of_tensor(view);
  if (base_var && view_var) share_version(*view_var, *base_var);
  PyObject* record = PyTuple_Pack(4, base, kind, args, kwargs);
  if (!record) return false;
  Py_XSETREF(slot(view, view_offset), record);
  PyObject* ref = PyWeakref_NewRef(view, nullptr);
  if (!ref) return false;
  PyObject*& views = slot(base, views_offset);
  if (!views) {
    views = PyList_New(1);
    if (!views) {
      Py_DECREF(ref);
      return false;
    }
    PyList_SET_ITEM(views, 0, ref);
    return true;
  }
  Py_ssize_t n = PyList_GET_SIZE(views);
  if (n > 0 && PyWeakref_GET_OBJECT(PyList_GET_ITEM(views, n - 1)) == Py_None) {
    return PyList_SetItem(views, n - 1, ref) == 0;  // steals ref
  }
  const int appended = PyList_Append(views, ref);
  Py_DECREF(ref);
  if (appended < 0) return false;
  n = PyList_GET_SIZE(views);
  if (n >= 16 && !(n & (n - 1))) {  // prune dead ones at powers of two
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* r = PyList_GET_ITEM(views, i);
      if (PyWeakref_GET_OBJECT(r) != Py_None) {
        Py_INCREF(r);
        PyList_SetItem(views, kept++, r);
      }
    }
    if (PyList_SetSlice(views, kept, n, nullptr) < 0) return false;
  }
  return true;
}

PyObject* link_view_call(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "link_view takes (base, view, kind, args, kwargs)");
    return nullptr;
  }
  if (!link_view(args[0], args[1], args[2], args[3], args[4])) return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef link_view_method = {
    "link_view", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&link_view_call)), METH_FASTCALL,
    "link_view(base, view, kind, args, kwargs): records view as a view of base taken by kind (_inplace._link)"};

std::optional<std::vector<fn::IndexItem>> index_items(PyObject* key);
PyObject* basic_index_of(const Var& x, const std::vector<fn::IndexItem>& key);

// `view` (a new Tensor) linked to `self` as a view taken by m's kind with the call's `n`
// arguments `args` (link_view); throws, dropping it, where Python fails.
PyObject* linked_view(const TensorMethod& m, PyObject* self, PyObject* view, PyObject* const* args, Py_ssize_t n) {
  PyObject* call_args = PyTuple_New(n);
  for (Py_ssize_t i = 0; call_args && i < n; ++i) PyTuple_SET_ITEM(call_args, i, Py_NewRef(args[i]));
  const bool linked = call_args && link_view(self, view, m.view_kind, call_args, m.view_kwargs);
  Py_XDECREF(call_args);
  if (!linked) {
    Py_DECREF(view);
    throw py::error_already_set();
  }
  return view;
}

bool index_item(PyObject* object, fn::IndexItem& item);

// `key`, a Tensor or a tuple of basic items (index_item) and Tensors, at least one, as
// AdvancedItems; else nullopt.
std::optional<std::vector<fn::AdvancedItem>> advanced_key(PyObject* key) {
  const bool is_tuple = PyTuple_CheckExact(key);
  const Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(key) : 1;
  std::vector<fn::AdvancedItem> items(static_cast<size_t>(n));
  bool any = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* object = is_tuple ? PyTuple_GET_ITEM(key, i) : key;
    fn::AdvancedItem& item = items[static_cast<size_t>(i)];
    if (const Var* t = var_of_tensor(object)) {
      item.tensor = *t;
      any = true;
    } else if (!index_item(object, item.item)) {
      return std::nullopt;
    }
  }
  if (!any) return std::nullopt;
  return items;
}

// advanced_key's items where x[key] is picked without the fallback's preparation: x local and
// of a dtype picked as itself (bool and bfloat16 are picked in a carrier dtype), each tensor
// a local int32 or int64 one of at least one dim in x's memory (not a mask, a 0-d index or
// one to move); else nullopt.
std::optional<std::vector<fn::AdvancedItem>> advanced_items(const Var& x, PyObject* key) {
  if (x.is_global() || x.dtype() == DType::kBool || x.dtype() == DType::kBFloat16) return std::nullopt;
  std::optional<std::vector<fn::AdvancedItem>> items = advanced_key(key);
  if (!items) return std::nullopt;
  for (const fn::AdvancedItem& item : *items) {
    const Var& t = item.tensor;
    if (!t.defined()) continue;
    const DType d = t.dtype();
    if (t.is_global() || t.shape().empty() || (d != DType::kInt64 && d != DType::kInt32) ||
        &t.data().memory() != &x.data().memory()) {
      return std::nullopt;
    }
  }
  return items;
}

// x[key] for a basic key: the view, linked to x as one (link_view); x[key] picked for a key
// with index tensors (advanced_items); null without an error set for any other key (the
// fallback's).
PyObject* getitem_fast(const TensorMethod& m, PyObject* self, PyObject* key) {
  const Var* x = var_of_tensor(self);
  if (!x) return nullptr;
  if (std::optional<std::vector<fn::AdvancedItem>> advanced = advanced_items(*x, key)) {
    return tensor_object(fn::advanced_index(*x, *advanced));
  }
  const std::optional<std::vector<fn::IndexItem>> items = index_items(key);
  if (!items) return nullptr;
  return linked_view(m, self, basic_index_of(*x, *items), &key, 1);
}

// Whether Tensor `t` is a view as _inplace counts one: a record in its _view slot and a weak
// reference from its base (_inplace.torch_strides).
bool is_linked_view(PyObject* t) {
  return slot(t, view_offset) && *PyObject_GET_WEAKREFS_LISTPTR(t) != nullptr;
}

// Whether Tensor `t` has a view still alive (one its _views slot refers to).
bool has_live_views(PyObject* t) {
  PyObject* views = slot(t, views_offset);
  if (!views) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(views); ++i) {
    if (PyWeakref_GET_OBJECT(PyList_GET_ITEM(views, i)) != Py_None) return true;
  }
  return false;
}

// self[key] = value for a basic key and an exact int or float, or a Tensor of self's dtype
// on its device (fn::write_basic_index), on a local self that is no view and has no live
// views (whose records _inplace follows after a write) where no gradient is recorded; false
// for every other call (the fallback's), and for a value that does not broadcast (its error).
bool setitem_fast(PyObject* self, PyObject* key, PyObject* value) {
  const Var* x = var_of_tensor(self);
  if (!x || x->is_global() || slot(self, view_offset) || has_live_views(self)) return false;
  if (grad_enabled() && x->requires_grad()) return false;
  std::variant<Scalar, Var> v = Scalar(0);
  if (PyFloat_CheckExact(value)) {
    v = Scalar(PyFloat_AS_DOUBLE(value));
  } else if (PyLong_CheckExact(value)) {
    const std::optional<int64_t> i = int64_of(value);
    if (!i) return false;
    v = Scalar(*i);
  } else if (const Var* y = var_of_tensor(value)) {
    if (y->is_global() || y->dtype() != x->dtype() || &y->data().memory() != &x->data().memory() ||
        (grad_enabled() && y->requires_grad())) {
      return false;
    }
    v = *y;
  } else {
    return false;
  }
  const std::optional<std::vector<fn::IndexItem>> items = index_items(key);
  return items && fn::write_basic_index(*x, *items, v);
}

// The x[key] and transpose views' kinds (_inplace's), whose torch strides C++ computes
// (known_strides); set by set_strided_view_kinds, kept for the process.
PyObject* getitem_kind = nullptr;
PyObject* transpose_kind = nullptr;

// torch's strides of base[key] (items of a basic key) for a base of `shape` that is no view,
// as _inplace._indexed_strides makes them: an int drops its dim, a slice's step multiplies its
// stride, None adds a dim of stride size * stride of the dim it stands before (1 at the end).
std::vector<int64_t> indexed_strides(const Shape& shape, const std::vector<fn::IndexItem>& key) {
  using Kind = fn::IndexItem::Kind;
  const auto nd = static_cast<int64_t>(shape.size());
  const std::vector<int64_t> dense = dense_strides(shape);
  const auto used = std::count_if(key.begin(), key.end(),
                                  [](const fn::IndexItem& i) { return i.kind != Kind::kNone && i.kind != Kind::kEllipsis; });
  std::vector<int64_t> out;
  int64_t d = 0;
  for (const fn::IndexItem& item : key) {
    if (item.kind == Kind::kNone) {
      out.push_back(d < nd ? dense[d] * shape[d] : 1);
    } else if (item.kind == Kind::kEllipsis) {
      for (const int64_t end = d + nd - used; d < end; ++d) out.push_back(dense[d]);
    } else {
      if (item.kind == Kind::kSlice) out.push_back(dense[d] * item.step.value_or(1));
      ++d;
    }
  }
  for (; d < nd; ++d) out.push_back(dense[d]);
  return out;
}

// torch's strides of Tensor `t` where C++ can tell them as _inplace.torch_strides does: a
// tensor that is no view (dense), an x[key] view or a transpose of a tensor that is no view;
// nullopt for every other (the Python's).
std::optional<std::vector<int64_t>> known_strides(PyObject* t) {
  const Var* v = var_of_tensor(t);
  if (!v) return std::nullopt;
  if (!is_linked_view(t)) return dense_strides(v->shape());
  PyObject* record = slot(t, view_offset);
  if (!PyTuple_CheckExact(record) || PyTuple_GET_SIZE(record) != 4) return std::nullopt;
  PyObject* base = PyTuple_GET_ITEM(record, 0);
  PyObject* kind = PyTuple_GET_ITEM(record, 1);
  PyObject* args = PyTuple_GET_ITEM(record, 2);
  const Var* b = var_of_tensor(base);
  if (!b || is_linked_view(base) || !PyTuple_CheckExact(args)) return std::nullopt;
  const Shape& shape = b->shape();
  if (kind == getitem_kind && PyTuple_GET_SIZE(args) == 1) {
    const std::optional<std::vector<fn::IndexItem>> key = index_items(PyTuple_GET_ITEM(args, 0));
    if (!key) return std::nullopt;
    return indexed_strides(shape, *key);
  }
  if (kind == transpose_kind && PyTuple_GET_SIZE(args) == 2 && !shape.empty()) {
    const auto nd = static_cast<int64_t>(shape.size());
    std::vector<int64_t> strides = dense_strides(shape);
    int64_t dims[2];
    for (int i = 0; i < 2; ++i) {
      PyObject* a = PyTuple_GET_ITEM(args, i);
      const std::optional<int64_t> d = PyLong_CheckExact(a) ? int64_of(a) : std::nullopt;
      if (!d) return std::nullopt;
      dims[i] = ((*d % nd) + nd) % nd;  // Python's modulo, as _transposed_strides takes it
    }
    std::swap(strides[dims[0]], strides[dims[1]]);
    return strides;
  }
  return std::nullopt;
}

// self.contiguous(): self where torch's strides of it are contiguous (a tensor that is no view
// always: meshflow's tensors are dense), else its copy (fn::clone), as _inplace._contiguous
// decides, for the views known_strides knows; null without an error set for every other.
PyObject* contiguous_fast(PyObject* const* args, Py_ssize_t n) {
  const Var* x = n == 1 ? var_of_tensor(args[0]) : nullptr;
  if (!x || x->is_global()) return nullptr;
  PyObject* self = args[0];
  if (x->local().format() == MemoryFormat::kChannelsLast) return nullptr;  // its Python converts it
  if (!is_linked_view(self)) return Py_NewRef(self);
  const std::optional<std::vector<int64_t>> strides = known_strides(self);
  if (!strides) return nullptr;
  return strides_contiguous(x->shape(), *strides) ? Py_NewRef(self) : tensor_object(fn::clone(*x));
}

// `args` as a dim of a tensor of `ndim` dims, in [-ndim, ndim) (NumPy's, torch's): an exact
// int in range, or nullopt (the fallback's, which names an error).
std::optional<int64_t> dim_arg(PyObject* arg, int64_t ndim) {
  if (!PyLong_CheckExact(arg)) return std::nullopt;
  const std::optional<int64_t> d = int64_of(arg);
  if (!d || *d < -ndim || *d >= ndim) return std::nullopt;
  return *d < 0 ? *d + ndim : *d;
}

// `n` exact ints as a Shape, else nullopt.
std::optional<Shape> exact_ints(PyObject* const* items, Py_ssize_t n) {
  Shape sizes;
  for (Py_ssize_t i = 0; i < n; ++i) {
    const std::optional<int64_t> d = PyLong_CheckExact(items[i]) ? int64_of(items[i]) : std::nullopt;
    if (!d) return std::nullopt;
    sizes.push_back(*d);
  }
  return sizes;
}

// The sizes of x.reshape(*sizes) or x.reshape(sizes) (a tuple, a Size or a list): exact ints
// only, else nullopt.
std::optional<Shape> sizes_arg(PyObject* const* args, Py_ssize_t n) {
  if (n == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]))) {
    return exact_ints(PySequence_Fast_ITEMS(args[0]), PySequence_Fast_GET_SIZE(args[0]));
  }
  return exact_ints(args, n);
}

// self.<view method>(*args) on a local self with exact ints, linked to self as a view
// (link_view, with args as the call's) where the method has a view kind; null without an
// error set for any other call.
PyObject* view_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  PyObject* self = n >= 1 ? args[0] : nullptr;
  const Var* x = self ? var_of_tensor(self) : nullptr;
  if (!x || x->is_global()) return nullptr;
  const int64_t ndim = static_cast<int64_t>(x->shape().size());
  Var out;
  PyObject* const* link_args = args + 1;  // the arguments its view is recorded with: the call's
  Py_ssize_t link_count = n - 1;
  switch (m.view_op) {
    case ViewOp::kView:
    case ViewOp::kReshape: {
      // A view may be strided as torch's: view() then checks (its Python), reshape() copies
      // where torch's strides of it cannot take the new shape: its result is not linked then
      // (_inplace._reshaping, whose own calls come with no kind: never linked). A channels-last
      // tensor is strided as torch's too: its Python decides.
      if (x->local().format() == MemoryFormat::kChannelsLast) return nullptr;
      const bool strided = m.view_kind && is_linked_view(self);
      std::optional<std::vector<int64_t>> strides;
      if (strided && (m.view_op == ViewOp::kView || !(strides = known_strides(self)))) return nullptr;
      const std::optional<Shape> sizes = sizes_arg(args + 1, n - 1);
      if (!sizes) return nullptr;
      out = fn::reshape(*x, *sizes);
      if (strided && !strides_contiguous(x->shape(), *strides) && !viewed_strides(x->shape(), *strides, out.shape())) {
        const std::vector<Var> inputs{*x};
        show_as(out, "UnsafeViewBackward0", &inputs);  // torch's node: the view of its copy
        return tensor_object(std::move(out));
      }
      break;
    }
    case ViewOp::kTranspose: {
      const std::optional<int64_t> d0 = n == 3 ? dim_arg(args[1], ndim) : std::nullopt;
      const std::optional<int64_t> d1 = n == 3 ? dim_arg(args[2], ndim) : std::nullopt;
      if (!d0 || !d1) return nullptr;
      out = fn::transpose(*x, *d0, *d1);
      break;
    }
    case ViewOp::kUnsqueeze: {
      const std::optional<int64_t> d = n == 2 ? dim_arg(args[1], ndim + 1) : std::nullopt;
      if (!d) return nullptr;
      out = fn::unsqueeze(*x, *d);
      break;
    }
    case ViewOp::kPermute: {
      const std::optional<Shape> dims = sizes_arg(args + 1, n - 1);
      if (!dims) return nullptr;
      out = fn::permute(*x, dims->vec());
      break;
    }
    case ViewOp::kSqueeze: {
      // A view's strides, and a channels-last tensor's, are its Python's (as reshape's).
      if (n > 2 || is_linked_view(self) || x->local().format() == MemoryFormat::kChannelsLast) return nullptr;
      std::optional<int64_t> dim;
      if (n == 2 && !(dim = dim_arg(args[1], std::max<int64_t>(ndim, 1)))) return nullptr;
      Shape kept;
      for (int64_t d = 0; d < ndim; ++d) {
        if (x->shape()[d] != 1 || (dim && *dim != d)) kept.push_back(x->shape()[d]);
      }
      out = fn::reshape(*x, kept);
      if (out.grad_fn()) {
        const std::vector<Var> inputs{*x};
        show_as(out, dim ? "SqueezeBackward1" : "SqueezeBackward0", &inputs);  // torch's nodes
      }
      break;
    }
    case ViewOp::kT: {
      if (n != 1 || ndim > 2) return nullptr;  // the fallback names the error
      if (ndim < 2) return Py_NewRef(self);
      out = fn::transpose(*x, 0, 1);
      if (out.grad_fn()) {
        const std::vector<Var> inputs{*x};
        show_as(out, "TBackward0", &inputs);  // torch's node of x.t()
      }
      // Linked as the transpose it is (m.view_kind is transpose's): its strides and the writes
      // through it follow as x.transpose(0, 1)'s.
      static PyObject* const zero_one[] = {PyLong_FromLong(0), PyLong_FromLong(1)};
      link_args = zero_one;
      link_count = 2;
      break;
    }
  }
  PyObject* view = tensor_object(std::move(out));
  return m.view_kind ? linked_view(m, self, view, link_args, link_count) : view;
}

// A binary op's two tensor operands in the dtype it computes in, where they are local and of
// different categories (bool below the integers below the floats): the lower cast to the
// higher's dtype, torch's result_type for such a pair whichever has dims (the fallback's
// _promote); any other pair as it is (the op refuses differing dtypes; the fallback promotes).
// A float tensor times a bool mask went through a refused call, its exceptions and the
// Python promotion at every step.
// `bools`: whether the op takes a bool beside a number (torch's sub and pow refuse it, as
// their fallbacks do).
std::pair<Var, Var> promoted(const Var& a, const Var& b, bool bools = true) {
  const auto category = [](DType d) { return d == DType::kBool ? 0 : is_floating(d) ? 2 : is_complex(d) ? -1 : 1; };
  const int ca = category(a.dtype()), cb = category(b.dtype());
  if (ca == cb || ca < 0 || cb < 0 || a.is_global() || b.is_global() || (!bools && (ca == 0 || cb == 0))) return {a, b};
  return ca > cb ? std::pair{a, fn::cast(b, a.dtype())} : std::pair{fn::cast(a, b.dtype()), b};
}

// The binary forms' result on x and `other` (a Tensor, or a number where the op has a scalar
// form), or nullopt for the calls the fallback takes.
std::optional<Var> binary_var(const TensorMethod& m, const Var& x, PyObject* other) {
  if (const Var* y = var_of_tensor(other)) {
    const bool reflected = m.form == Form::kReflected;
    const bool bools = m.op->name == "add" || m.op->name == "mul" || m.op->name == "div";
    const auto [a, b] = promoted(reflected ? *y : x, reflected ? x : *y, bools);
    return issue(a.is_global() || b.is_global(), *m.op, {a, b});
  }
  const bool is_float = PyFloat_CheckExact(other);
  // An integer or bool tensor and a float: the fallback makes it the default float dtype.
  if (!m.scalar || !(is_float || PyLong_CheckExact(other)) ||
      (is_float && !is_floating(x.dtype()) && !is_complex(x.dtype()))) {
    return std::nullopt;
  }
  const Scalar value = scalar_of(other, m.scalar->name, x);
  if (!x.is_global()) return scalar_op(*m.scalar, x, value);
  WithoutGil unlocked;
  return scalar_op(*m.scalar, x, value);
}

// self - number (`reflected`: number - self) for a local self of a floating dtype and an exact
// float or int: m.scalar (add_scalar) of self and -number (of -self and number), shown as
// torch's node of it (SubBackward0, RsubBackward1), as the fallback makes it; null for every
// other call (its promotions, a bool's error, an int beyond int64 negated).
PyObject* sub_number(const TensorMethod& m, PyObject* self, PyObject* other, bool reflected) {
  const Var* x = var_of_tensor(self);
  if (!x || x->is_global() || !is_floating(x->dtype())) return nullptr;
  Scalar value = 0;
  if (PyFloat_CheckExact(other)) {
    value = reflected ? PyFloat_AS_DOUBLE(other) : -PyFloat_AS_DOUBLE(other);
  } else if (const std::optional<int64_t> i = PyLong_CheckExact(other) ? int64_of(other) : std::nullopt;
             i && *i != INT64_MIN) {
    value = reflected ? *i : -*i;
  } else {
    return nullptr;
  }
  Var out = scalar_op(*m.scalar, reflected ? fn::neg(*x) : *x, value);
  if (out.grad_fn()) {
    const std::vector<Var> inputs{*x};
    show_as(out, reflected ? "RsubBackward1" : "SubBackward0", &inputs);
  }
  return tensor_object(std::move(out));
}

// self.chunk(chunks[, dim]) of exact ints on a local self whose dim has elements: m.op (split)
// into pieces of ceil(size / chunks) elements (the last may be shorter), as a tuple, each
// linked to self as x[(:,) * dim + (start:stop,)] (m.view_kind's record, as the fallback's);
// null without an error set for every other call (the fallback names the errors).
PyObject* chunk_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  const Var* x = n == 2 || n == 3 ? var_of_tensor(args[0]) : nullptr;
  if (!x || x->is_global()) return nullptr;
  const auto ndim = static_cast<int64_t>(x->shape().size());
  const std::optional<int64_t> chunks = PyLong_CheckExact(args[1]) ? int64_of(args[1]) : std::nullopt;
  const std::optional<int64_t> dim = n == 3 ? dim_arg(args[2], ndim) : ndim ? std::optional<int64_t>(0) : std::nullopt;
  if (!chunks || *chunks <= 0 || !dim || x->shape()[*dim] == 0) return nullptr;
  const int64_t size = x->shape()[*dim], step = (size + *chunks - 1) / *chunks;
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < size; start += step) sizes.push_back(std::min(step, size - start));
  std::vector<Var> pieces = call(*m.op, {*x}, {{"dim", *dim}, {"sizes", sizes}});
  py::tuple out(pieces.size());
  const py::object whole = py::reinterpret_steal<py::object>(PySlice_New(nullptr, nullptr, nullptr));
  int64_t start = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    py::object piece = py::reinterpret_steal<py::object>(tensor_object(std::move(pieces[i])));
    py::tuple key(*dim + 1);
    for (int64_t d = 0; d < *dim; ++d) key[static_cast<size_t>(d)] = whole;
    const py::int_ first(start), last(start + sizes[i]);
    key[static_cast<size_t>(*dim)] = py::reinterpret_steal<py::object>(PySlice_New(first.ptr(), last.ptr(), nullptr));
    start += sizes[i];
    if (!link_view(args[0], piece.ptr(), m.view_kind, py::make_tuple(key).ptr(), m.view_kwargs)) {
      throw py::error_already_set();
    }
    out[i] = piece;
  }
  return out.release().ptr();
}

PyTypeObject* size_type = nullptr;  // meshflow.Size (a tuple subclass), set by size_method

// self.size() as a Size, self.size(dim) for an exact int dim in range as an int; null
// without an error set for every other call (the fallback names the error).
PyObject* size_fast(PyObject* const* args, Py_ssize_t n) {
  const Var* x = n >= 1 && n <= 2 ? var_of_tensor(args[0]) : nullptr;
  if (!x) return nullptr;
  const Shape& shape = x->shape();
  const auto ndim = static_cast<Py_ssize_t>(shape.size());
  if (n == 2 && args[1] != Py_None) {
    const std::optional<int64_t> d = dim_arg(args[1], ndim);
    if (!d) return nullptr;
    return PyLong_FromLongLong(shape[static_cast<size_t>(*d)]);
  }
  PyObject* size = size_type->tp_alloc(size_type, ndim);
  if (!size) throw py::error_already_set();
  for (Py_ssize_t i = 0; i < ndim; ++i) {
    PyObject* d = PyLong_FromLongLong(shape[static_cast<size_t>(i)]);
    if (!d) {
      Py_DECREF(size);
      throw py::error_already_set();
    }
    PyTuple_SET_ITEM(size, i, d);
  }
  return size;
}

// self <op> other of a comparison on a local self: a Tensor operand as the binary forms
// take it; a number where the comparison's dtype is self's (an exact float or int beside a
// floating self, an exact int beside an int64 one: torch's result_type), as a 0-d tensor of
// that dtype (_promote and _tensors' operand); null for every other call.
PyObject* compare_fast(const TensorMethod& m, PyObject* self, PyObject* other) {
  const Var* x = var_of_tensor(self);
  if (!x || x->is_global()) return nullptr;
  if (const Var* y = var_of_tensor(other)) {
    if (y->is_global()) return nullptr;
    const auto [a, b] = promoted(*x, *y);
    return tensor_object(first_output(*m.op, {a, b}));
  }
  const bool floating = is_floating(x->dtype());
  if (x->data().memory().device_type() != "cpu" ||
      !(PyFloat_CheckExact(other) ? floating : PyLong_CheckExact(other) && (floating || x->dtype() == DType::kInt64))) {
    return nullptr;
  }
  const Scalar value = scalar_of(other, m.op->name, *x);
  const Var number = call1("full", {}, {{"shape", Shape{}}, {"dtype", x->dtype()}, {"value", value.value()}});
  return tensor_object(first_output(*m.op, {*x, number}));
}

PyObject* binary_fast(const TensorMethod& m, PyObject* self, PyObject* other) {
  const Var* x = var_of_tensor(self);
  if (!x) return nullptr;
  if (m.form == Form::kDivide && x->dtype() != DType::kFloat32 && x->dtype() != DType::kFloat64) return nullptr;
  if (m.form == Form::kSubtract && !var_of_tensor(other)) return sub_number(m, self, other, false);
  std::optional<Var> out = binary_var(m, *x, other);
  return out ? tensor_object(std::move(*out)) : nullptr;
}

// (a, b): the op on two Tensors of at least 2 dims each (of exactly m.matrix_dims where set:
// mm, bmm), as the fallback (matmul, mm, bmm) issues them without a change, shown as m.node
// where set; null without an error set for every other call (vectors, other dims: its errors).
PyObject* matrices_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  const Var* a = n == 2 ? var_of_tensor(args[0]) : nullptr;
  const Var* b = a ? var_of_tensor(args[1]) : nullptr;
  if (!b || a->shape().size() < 2 || b->shape().size() < 2) return nullptr;
  if (m.matrix_dims && (a->shape().size() != m.matrix_dims || b->shape().size() != m.matrix_dims)) return nullptr;
  Var out = issue(a->is_global() || b->is_global(), *m.op, {*a, *b});
  if (m.node && out.grad_fn()) {
    const std::vector<Var> inputs{*a, *b};
    show_as(out, m.node, &inputs);
  }
  return tensor_object(std::move(out));
}

// (condition, x, y): the op on a bool Tensor and two meshflow.Tensors (not subclasses) of one
// dtype, as the fallback (where) issues them without promotion; null without an error set
// for every other call.
PyObject* where_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  const Var* c = n == 3 ? var_of_tensor(args[0]) : nullptr;
  const Var* x = c && Py_TYPE(args[1]) == tensor_class ? var_of_tensor(args[1]) : nullptr;
  const Var* y = x && Py_TYPE(args[2]) == tensor_class ? var_of_tensor(args[2]) : nullptr;
  if (!y || c->dtype() != DType::kBool || x->dtype() != y->dtype()) return nullptr;
  return tensor_object(issue(c->is_global() || x->is_global() || y->is_global(), *m.op, {*c, *x, *y}));
}

// The dtype of a creation op's call without keywords (zeros(3)): the default dtype while
// creation ops run on the host by default, else none (their Python's); set_creation_dtype.
std::optional<DType> creation_dtype = DType::kFloat32;

// (*sizes) or (sizes) of exact non-negative ints whose product fits in int64: the creation
// op's tensor of those sizes in creation_dtype; null without an error set for every other
// call (the fallback names the error or takes the keywords).
PyObject* create_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  if (!creation_dtype) return nullptr;
  std::optional<Shape> sizes = sizes_arg(args, n);
  if (!sizes) return nullptr;
  int64_t numel = 1;
  for (const int64_t d : *sizes) {
    if (d < 0 || __builtin_mul_overflow(numel, d, &numel)) return nullptr;
  }
  return tensor_object(first_output(*m.op, {}, {{"shape", sizes->vec()}, {"dtype", *creation_dtype}}));
}

// Whether `from` broadcasts to `to` without growing it (NumPy's rule, trailing dims aligned).
bool broadcasts_into(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

// self.<op>_(other): the binary op's result, which self takes (Var::assign, as _inplace's
// write), for a local self that is no view, has no live views and is no leaf that requires
// grad while grad mode is on (the fallback names that error), and an operand that leaves
// self's shape and dtype as they are; null without an error set for every other call.
PyObject* inplace_fast(const TensorMethod& m, PyObject* self, PyObject* other) {
  const Var* x = var_of_tensor(self);
  if (!x || x->is_global() || slot(self, view_offset) || has_live_views(self)) return nullptr;
  if (grad_enabled() && x->requires_grad() && x->is_leaf()) return nullptr;
  if (const Var* y = var_of_tensor(other)) {
    if (y->is_global() || y->dtype() != x->dtype() || !broadcasts_into(y->shape(), x->shape())) return nullptr;
  }
  const uint64_t since = next_sequence();  // the op's own call reads x's old value and keeps it
  const std::optional<Var> out = binary_var(m, *x, other);
  if (!out || out->dtype() != x->dtype() || out->shape() != x->shape()) return nullptr;
  Var(*x).assign(*out, since);
  return Py_NewRef(self);
}

// cat or stack (m.op)(tensors[, dim]) of a list or tuple of local Tensors (not subclasses, as the fallback's
// own fast path) and an exact int dim: the cat op's result; null without an error set for
// every other call (the fallback promotes dtypes and drops empty 1-d tensors, for which the
// op raises a ValueError, which the caller then hands to the fallback).
PyObject* cat_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  if (n < 1 || n > 2 || !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0]))) return nullptr;
  const std::optional<int64_t> dim = n == 2 ? (PyLong_CheckExact(args[1]) ? int64_of(args[1]) : std::nullopt) : 0;
  if (!dim) return nullptr;
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(args[0]);
  PyObject** items = PySequence_Fast_ITEMS(args[0]);
  std::vector<Var> inputs;
  inputs.reserve(static_cast<size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    const Var* t = Py_TYPE(items[i]) == tensor_class ? var_of_tensor(items[i]) : nullptr;
    if (!t || t->is_global()) return nullptr;
    inputs.push_back(*t);
  }
  return tensor_object(first_output(*m.op, inputs, {{"dim", *dim}}));
}

PyObject* reduce_fast(const TensorMethod& m, PyObject* const* args, Py_ssize_t n) {
  const Var* x = n >= 1 && n <= 3 ? var_of_tensor(args[0]) : nullptr;
  if (!x) return nullptr;
  std::vector<int64_t> dims;
  if (n >= 2 && args[1] != Py_None) {
    std::optional<int64_t> dim = PyLong_CheckExact(args[1]) ? int64_of(args[1]) : std::nullopt;
    if (!dim) return nullptr;
    dims.push_back(*dim);
  }
  if (n == 3 && !PyBool_Check(args[2])) return nullptr;
  const Attrs attrs{{"dims", std::move(dims)}, {"keepdim", n == 3 && args[2] == Py_True}};
  return tensor_object(issue(x->is_global(), *m.op, {*x}, attrs));
}

// Whether pybind11 raises the exception being handled as a ValueError (as it translates
// these C++ classes). Call inside a catch block.
bool is_value_error() {
  try {
    throw;
  } catch (const std::invalid_argument&) {
    return true;
  } catch (const std::domain_error&) {
    return true;
  } catch (const std::length_error&) {
    return true;
  } catch (const std::range_error&) {
    return true;
  } catch (...) {
    return false;
  }
}

PyObject* tensor_method_call(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  const auto& m = *reinterpret_cast<TensorMethod*>(callable);
  if (!kwnames) {
    const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    try {
      if (m.form == Form::kReduce) {
        if (PyObject* out = reduce_fast(m, args, n)) return out;
      } else if (m.form == Form::kGetitem) {
        if (n == 2) {
          if (PyObject* out = getitem_fast(m, args[0], args[1])) return out;
        }
      } else if (m.form == Form::kInplace) {
        if (n == 2) {
          if (PyObject* out = inplace_fast(m, args[0], args[1])) return out;
        }
      } else if (m.form == Form::kCompare) {
        if (n == 2) {
          if (PyObject* out = compare_fast(m, args[0], args[1])) return out;
        }
      } else if (m.form == Form::kUnary) {
        const Var* x = n == 1 ? var_of_tensor(args[0]) : nullptr;
        if (x && !x->is_global()) return tensor_object(m.unary(*x));
      } else if (m.form == Form::kItem) {
        const Var* x = n == 1 ? var_of_tensor(args[0]) : nullptr;
        if (x && !x->is_global()) return item_of(x->local()).release().ptr();
      } else if (m.form == Form::kContiguous) {
        if (PyObject* out = contiguous_fast(args, n)) return out;
      } else if (m.form == Form::kCat) {
        if (PyObject* out = cat_fast(m, args, n)) return out;
      } else if (m.form == Form::kSize) {
        if (PyObject* out = size_fast(args, n)) return out;
      } else if (m.form == Form::kView) {
        if (PyObject* out = view_fast(m, args, n)) return out;
      } else if (m.form == Form::kMatrices) {
        if (PyObject* out = matrices_fast(m, args, n)) return out;
      } else if (m.form == Form::kWhere) {
        if (PyObject* out = where_fast(m, args, n)) return out;
      } else if (m.form == Form::kOne || m.form == Form::kFloating) {
        const Var* x = n == 1 ? var_of_tensor(args[0]) : nullptr;
        if (x && (m.form == Form::kOne || is_floating(x->dtype()))) {
          return tensor_object(issue(x->is_global(), *m.op, {*x}));
        }
      } else if (m.form == Form::kCreate) {
        if (PyObject* out = create_fast(m, args, n)) return out;
      } else if (m.form == Form::kSetitem) {
        if (n == 3 && setitem_fast(args[0], args[1], args[2])) Py_RETURN_NONE;
      } else if (m.form == Form::kChunk) {
        if (PyObject* out = chunk_fast(m, args, n)) return out;
      } else if (m.form == Form::kReflectedSubtract) {
        if (n == 2) {
          if (PyObject* out = sub_number(m, args[0], args[1], true)) return out;
        }
      } else if (n == 2) {
        if (PyObject* out = binary_fast(m, args[0], args[1])) return out;
      }
    } catch (...) {
      // The Python reductions and indexing do not catch a ValueError either.
      if (m.form != Form::kBinary && m.form != Form::kReflected && m.form != Form::kInplace &&
          m.form != Form::kCompare && m.form != Form::kCat && m.form != Form::kSubtract &&
          m.form != Form::kReflectedSubtract && m.form != Form::kDivide) {
        raise_current_exception();
        return nullptr;
      }
      if (!is_value_error()) {
        raise_current_exception();
        return nullptr;
      }
    }
  }
  return PyObject_Vectorcall(m.fallback, args, nargsf, kwnames);
}

// A method: bound to an instance it is read from (a.__add__), itself read from the class.
PyObject* tensor_method_get(PyObject* self, PyObject* instance, PyObject*) {
  if (!instance) return Py_NewRef(self);
  return PyMethod_New(self, instance);
}

int tensor_method_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* m = reinterpret_cast<TensorMethod*>(self);
  Py_VISIT(m->dict);
  Py_VISIT(m->fallback);
  Py_VISIT(m->view_kind);
  Py_VISIT(m->view_kwargs);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int tensor_method_clear(PyObject* self) {
  auto* m = reinterpret_cast<TensorMethod*>(self);
  Py_CLEAR(m->dict);
  Py_CLEAR(m->fallback);
  Py_CLEAR(m->view_kind);
  Py_CLEAR(m->view_kwargs);
  return 0;
}

void tensor_method_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  tensor_method_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMemberDef tensor_method_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(TensorMethod, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(TensorMethod, dict), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyGetSetDef tensor_method_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot tensor_method_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
    {Py_tp_descr_get, reinterpret_cast<void*>(&tensor_method_get)},
    {Py_tp_traverse, reinterpret_cast<void*>(&tensor_method_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(&tensor_method_clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(&tensor_method_dealloc)},
    {Py_tp_members, tensor_method_members},
    {Py_tp_getset, tensor_method_getset},
    {0, nullptr},
};

PyType_Spec tensor_method_spec = {
    "meshflow._C.TensorMethod", sizeof(TensorMethod), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    tensor_method_slots};

PyTypeObject* tensor_method_type = nullptr;  // made by bind_op_calls

py::object make_tensor_method(const std::string& form, const std::string& op, const std::optional<std::string>& scalar,
                              py::function fallback) {
  static const std::pair<const char*, Form> forms[] = {
      {"binary", Form::kBinary}, {"reflected", Form::kReflected}, {"reduce", Form::kReduce},
      {"inplace", Form::kInplace}, {"compare", Form::kCompare}, {"matrices", Form::kMatrices},
      {"where", Form::kWhere}, {"one", Form::kOne}, {"floating", Form::kFloating}, {"subtract", Form::kSubtract},
      {"reflected_subtract", Form::kReflectedSubtract}, {"divide", Form::kDivide}, {"mm", Form::kMatrices},
      {"bmm", Form::kMatrices}};
  const auto found = std::find_if(std::begin(forms), std::end(forms), [&](const auto& f) { return form == f.first; });
  if (found == std::end(forms)) throw std::invalid_argument("tensor_method: no form '" + form + "'");
  if (!tensor_class) throw std::logic_error("tensor_method: set_tensor_class first");
  auto* m = PyObject_GC_New(TensorMethod, tensor_method_type);
  if (!m) throw py::error_already_set();
  m->vectorcall = &tensor_method_call;
  m->dict = nullptr;
  m->fallback = fallback.release().ptr();
  m->op = &find_op(op);
  m->scalar = scalar ? &find_op(*scalar) : nullptr;
  m->form = found->second;
  m->view_kind = m->view_kwargs = nullptr;
  m->view_op = ViewOp::kReshape;  // unread
  m->unary = nullptr;
  m->matrix_dims = form == "mm" ? 2 : form == "bmm" ? 3 : 0;
  m->node = form == "bmm" ? "BmmBackward0" : nullptr;  // torch's node where meshflow's op is named matmul
  PyObject_GC_Track(m);
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(m));
}

// A TensorMethod of `form` without an op standing for `fallback`; views it makes are linked
// with `kind` and `kwargs` (None for a form that makes none).
py::object make_method(const char* call, Form form, py::object kind, py::object kwargs, py::function fallback,
                       ViewOp view_op = ViewOp::kReshape) {
  if (!tensor_class) throw std::logic_error(std::string(call) + ": set_tensor_class first");
  auto* m = PyObject_GC_New(TensorMethod, tensor_method_type);
  if (!m) throw py::error_already_set();
  m->vectorcall = &tensor_method_call;
  m->dict = nullptr;
  m->fallback = fallback.release().ptr();
  m->op = m->scalar = nullptr;
  m->form = form;
  m->view_kind = kind.is_none() ? nullptr : kind.release().ptr();
  m->view_kwargs = kwargs.is_none() ? nullptr : kwargs.release().ptr();
  m->view_op = view_op;
  m->unary = nullptr;
  m->matrix_dims = 0;
  m->node = nullptr;
  PyObject_GC_Track(m);
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(m));
}

// Tensor.__getitem__ in C: a basic key's view in one call, linked as _inplace's views are
// (`kind`, `kwargs`); every other key goes to `fallback`.
py::object make_getitem_method(py::object kind, py::dict kwargs, py::function fallback) {
  return make_method("getitem_method", Form::kGetitem, std::move(kind), std::move(kwargs), std::move(fallback));
}

// Tensor.__setitem__ in C: setitem_fast's calls in one call; every other goes to `fallback`.
py::object make_setitem_method(py::function fallback) {
  return make_method("setitem_method", Form::kSetitem, py::none(), py::none(), std::move(fallback));
}

// Tensor.size() in C: the shape as a Size, or the size of an exact int dim in range.
py::object make_size_method(py::type size_class, py::function fallback) {
  size_type = reinterpret_cast<PyTypeObject*>(size_class.inc_ref().ptr());  // kept for the process
  return make_method("size_method", Form::kSize, py::none(), py::none(), std::move(fallback));
}

// Tensor.item() in C: a local tensor's value in one call; every other call to `fallback`.
py::object make_item_method(py::function fallback) {
  return make_method("item_method", Form::kItem, py::none(), py::none(), std::move(fallback));
}

// Tensor.chunk in C: chunk_fast's calls, its pieces linked with `kind` and `kwargs`; every
// other call to `fallback`.
py::object make_chunk_method(py::object kind, py::dict kwargs, py::function fallback) {
  py::object f = make_method("chunk_method", Form::kChunk, std::move(kind), std::move(kwargs), std::move(fallback));
  reinterpret_cast<TensorMethod*>(f.ptr())->op = &find_op("split");
  return f;
}

// Tensor.contiguous in C: contiguous_fast's calls; every other call to `fallback`.
py::object make_contiguous_method(py::function fallback) {
  return make_method("contiguous_method", Form::kContiguous, py::none(), py::none(), std::move(fallback));
}

// meshflow.cat (or stack: `op`) in C: cat_fast's calls in one call; every other call to
// `fallback`.
py::object make_cat_function(py::function fallback, const std::string& op) {
  if (op != "cat" && op != "stack") throw std::invalid_argument("cat_function: op must be 'cat' or 'stack', got '" + op + "'");
  py::object f = make_method("cat_function", Form::kCat, py::none(), py::none(), std::move(fallback));
  reinterpret_cast<TensorMethod*>(f.ptr())->op = &find_op(op);
  return f;
}

// Creation op `op` (zeros, ones) as a function in C: create_fast's calls in one call; every
// other call to `fallback`.
py::object make_creation_function(const std::string& op, py::function fallback) {
  py::object f = make_method("creation_function", Form::kCreate, py::none(), py::none(), std::move(fallback));
  reinterpret_cast<TensorMethod*>(f.ptr())->op = &find_op(op);
  return f;
}

// The Tensor methods in C that are a C++ function of the tensor alone, by name.
Var (*unary_function(const std::string& name))(const Var&) {
  static const std::pair<const char*, Var (*)(const Var&)> functions[] = {{"clone", &fn::clone}};
  for (const auto& [n, f] : functions) {
    if (name == n) return f;
  }
  throw std::invalid_argument("unary_method: no method '" + name + "'");
}

// Tensor method `name` (unary_function) in C: a local tensor's call without arguments in one
// call; every other goes to `fallback`.
py::object make_unary_method(const std::string& name, py::function fallback) {
  Var (*f)(const Var&) = unary_function(name);
  py::object method = make_method("unary_method", Form::kUnary, py::none(), py::none(), std::move(fallback));
  reinterpret_cast<TensorMethod*>(method.ptr())->unary = f;
  return method;
}

// A view-making Tensor method in C (ViewOp `name`): view_fast's calls in one call, linked as
// _inplace's views are (`kind`, `kwargs`); every other goes to `fallback`.
py::object make_view_method(const std::string& name, py::object kind, py::dict kwargs, py::function fallback) {
  static const std::pair<const char*, ViewOp> ops[] = {
      {"reshape", ViewOp::kReshape}, {"view", ViewOp::kView}, {"transpose", ViewOp::kTranspose},
      {"unsqueeze", ViewOp::kUnsqueeze}, {"permute", ViewOp::kPermute}, {"t", ViewOp::kT},
      {"squeeze", ViewOp::kSqueeze}};
  const auto found = std::find_if(std::begin(ops), std::end(ops), [&](const auto& o) { return name == o.first; });
  if (found == std::end(ops)) throw std::invalid_argument("view_method: no view method '" + name + "'");
  return make_method("view_method", Form::kView, std::move(kind), std::move(kwargs), std::move(fallback),
                     found->second);
}

// Records meshflow.Tensor and the offset of its `_impl` slot (a member of its __slots__).
void set_tensor_class(const py::type& cls) {
  PyObject* slot = PyDict_GetItemString(reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_dict, "_impl");
  if (!slot || Py_TYPE(slot) != &PyMemberDescr_Type) {
    throw std::invalid_argument("set_tensor_class: the class has no `_impl` slot");
  }
  tensor_class = reinterpret_cast<PyTypeObject*>(cls.inc_ref().ptr());  // kept for the process
  impl_offset = reinterpret_cast<PyMemberDescrObject*>(slot)->d_member->offset;
  const auto offset_of = [&](const char* name) {
    PyObject* member = PyDict_GetItemString(tensor_class->tp_dict, name);
    if (!member || Py_TYPE(member) != &PyMemberDescr_Type) {
      throw std::invalid_argument(std::string("set_tensor_class: the class has no `") + name + "` slot");
    }
    return reinterpret_cast<PyMemberDescrObject*>(member)->d_member->offset;
  };
  view_offset = offset_of("_view");
  views_offset = offset_of("_views");
}

using fn::IndexItem;

// ---- Basic indexing: a Python key of exact ints, slices of ints, None and '...' (alone or
// in a tuple) as C++'s IndexItems (fn::basic_index decides what it means).

// A slice bound (None or an exact int) into `bound`, one beyond int64 clamped as
// slice.indices clamps it; false for anything else.
bool slice_bound(PyObject* value, std::optional<int64_t>& bound) {
  if (value == Py_None) return true;
  if (!PyLong_CheckExact(value)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  bound = overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : static_cast<int64_t>(v);
  return true;
}

// Python item `object` into `item`; false where it is not of the exact types above.
bool index_item(PyObject* object, IndexItem& item) {
  using Kind = IndexItem::Kind;
  if (PyLong_CheckExact(object)) {
    const std::optional<int64_t> i = int64_of(object);
    if (!i) throw IndexError("index " + py::str(object).cast<std::string>() + " is out of range of int64");
    item.kind = Kind::kInt;
    item.index = *i;
    return true;
  }
  if (PySlice_Check(object)) {
    const auto* s = reinterpret_cast<PySliceObject*>(object);
    item.kind = Kind::kSlice;
    return slice_bound(s->start, item.start) && slice_bound(s->stop, item.stop) && slice_bound(s->step, item.step);
  }
  if (object == Py_None || object == Py_Ellipsis) {
    item.kind = object == Py_None ? Kind::kNone : Kind::kEllipsis;
    return true;
  }
  return false;
}

// `key` as IndexItems, or nullopt where an item is not a basic one of the exact types.
std::optional<std::vector<IndexItem>> index_items(PyObject* key) {
  const bool is_tuple = PyTuple_CheckExact(key);
  const Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(key) : 1;
  std::vector<IndexItem> items(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!index_item(is_tuple ? PyTuple_GET_ITEM(key, i) : key, items[static_cast<size_t>(i)])) return std::nullopt;
  }
  return items;
}

// x[key] as a new Tensor; a global x's without the GIL (its op may communicate).
PyObject* basic_index_of(const Var& x, const std::vector<IndexItem>& key) {
  if (!x.is_global()) return tensor_object(fn::basic_index(x, key));
  Var out;
  {
    WithoutGil unlocked;
    out = fn::basic_index(x, key);
  }
  return tensor_object(std::move(out));
}

// (x, key): x[key] as a new Tensor where key is basic (index_items), else None, for the
// Python path of every other key (advanced items, NumPy ints, __index__ objects).
PyObject* basic_index_call(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  try {
    if (nargs != 2) throw py::type_error("basic_index takes 2 arguments (" + std::to_string(nargs) + " given)");
    const Var* x = var_of_tensor(args[0]);
    if (!x) throw py::type_error(std::string("basic_index: x must be a meshflow Tensor, got ") + Py_TYPE(args[0])->tp_name);
    const std::optional<std::vector<IndexItem>> key = index_items(args[1]);
    if (!key) Py_RETURN_NONE;
    return basic_index_of(*x, *key);
  } catch (...) {
    raise_current_exception();
    return nullptr;
  }
}

// (x, key): x[key] (fn::advanced_index) for a tuple of exact basic items and int index
// tensors placed where x is, the Python path's last step; a global x's without the GIL.
py::object advanced_index_call(py::handle tensor, py::handle key) {
  const Var* found = var_of_tensor(tensor.ptr());
  if (!found) throw py::type_error("advanced_index: x must be a meshflow Tensor");
  const Var& x = *found;
  const std::optional<std::vector<fn::AdvancedItem>> items = advanced_key(key.ptr());
  if (!items) throw py::type_error("advanced_index: expected a tuple of ints, slices, None, '...' and index tensors");
  if (!x.is_global()) return py::reinterpret_steal<py::object>(tensor_object(fn::advanced_index(x, *items)));
  Var out;
  {
    WithoutGil unlocked;
    out = fn::advanced_index(x, *items);
  }
  return py::reinterpret_steal<py::object>(tensor_object(std::move(out)));
}

PyMethodDef basic_index_method = {
    "basic_index", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&basic_index_call)), METH_FASTCALL,
    "basic_index(x, key): x[key] for a key of exact ints, slices of ints, None and '...' (alone or in a tuple); "
    "None for any other key"};

// (out, name, *inputs): out (a Tensor, or a tuple whose first item is the one) returned, its
// node shown as torch's node `name` with edges to the inputs (show_as; arguments other than
// Tensors are skipped, as torch's node has no edge for them). Nothing to do for a result that
// does not require grad or a name of None: a composite's one C call, no Python frame.
PyObject* grad_fn_as_call(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  try {
    if (nargs < 2) throw py::type_error("grad_fn_as takes (out, name, *inputs)");
    PyObject* out = args[0];
    const bool tuple = PyTuple_Check(out) && PyTuple_GET_SIZE(out) > 0;
    const Var* v = var_of_tensor(tuple ? PyTuple_GET_ITEM(out, 0) : out);
    if (v && v->requires_grad() && args[1] != Py_None) {
      Py_ssize_t size = 0;
      const char* name = PyUnicode_AsUTF8AndSize(args[1], &size);
      if (!name) throw py::error_already_set();
      std::vector<Var> inputs;
      for (Py_ssize_t i = 2; i < nargs; ++i) {
        if (const Var* in = var_of_tensor(args[i])) inputs.push_back(*in);
      }
      show_as(*v, std::string(name, static_cast<size_t>(size)), &inputs);
    }
    Py_INCREF(out);
    return out;
  } catch (...) {
    raise_current_exception();
    return nullptr;
  }
}

PyMethodDef grad_fn_as_method = {
    "grad_fn_as", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&grad_fn_as_call)), METH_FASTCALL,
    "grad_fn_as(out, name, *inputs): out, its grad_fn shown as torch's node `name` (None: as recorded) whose "
    "next_functions lead to the inputs' nodes"};

// basic_index_plan(shape, key): fn::basic_index_plan as (slice attributes, result shape, the
// Nones' dims in it) for the writes through a basic index.
py::tuple basic_index_plan_of(const Shape& shape, const py::handle& key) {
  const std::optional<std::vector<IndexItem>> items = index_items(key.ptr());
  if (!items) {
    throw py::type_error("basic_index_plan: a key of ints, slices of ints, None and '...' expected, got " +
                         py::repr(key).cast<std::string>());
  }
  const fn::BasicIndex plan = fn::basic_index_plan(shape, *items);
  py::dict attrs;
  attrs["starts"] = plan.starts;
  attrs["stops"] = plan.stops;
  attrs["steps"] = plan.steps;
  if (!plan.drop_dims.empty()) attrs["drop_dims"] = plan.drop_dims;
  return py::make_tuple(attrs, plan.shape.vec(), plan.news);
}

}  // namespace

void bind_op_calls(py::module_& m) {
  var_type = py::detail::get_type_info(typeid(Var));
  py::class_<OpRef>(m, "Op")
      .def_property_readonly("name", [](const OpRef& r) { return r.op->name; })
      .def_property_readonly("unary", [](const OpRef& r) { return op_method(r, op_methods[0]); })
      .def_property_readonly("binary", [](const OpRef& r) { return op_method(r, op_methods[1]); })
      .def_property_readonly("scalar", [](const OpRef& r) { return op_method(r, op_methods[2]); })
      .def_property_readonly("reduce", [](const OpRef& r) { return op_method(r, op_methods[3]); })
      .def_property_readonly("along", [](const OpRef& r) { return op_method(r, op_methods[4]); });
  m.def("op", [](const std::string& name) { return OpRef{&find_op(name)}; }, py::arg("name"));

  tensor_method_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&tensor_method_spec));
  if (!tensor_method_type) throw py::error_already_set();
  m.attr("TensorMethod") = py::handle(reinterpret_cast<PyObject*>(tensor_method_type));
  m.def("set_tensor_class", &set_tensor_class, py::arg("cls"));
  m.attr("basic_index") = py::reinterpret_steal<py::object>(PyCFunction_New(&basic_index_method, nullptr));
  m.def("advanced_index", &advanced_index_call, py::arg("x"), py::arg("key"),
        "advanced_index(x, key): x[key] for a tuple of exact ints, slices, None, '...' and int32/int64 index "
        "tensors of at least one dim placed where x is (C++'s advanced_index)");
  m.attr("grad_fn_as") = py::reinterpret_steal<py::object>(PyCFunction_New(&grad_fn_as_method, nullptr));
  m.def("basic_index_plan", &basic_index_plan_of, py::arg("shape"), py::arg("key"),
        "What x[key] of a basic key selects in a tensor of `shape`: (the slice op's attributes, the result's "
        "shape, where the Nones' dims are in it)");
  m.def(
      "slice_values_shape",
      [](const Shape& shape, const py::handle& key, const Shape& values) -> std::optional<Shape> {
        const std::optional<std::vector<IndexItem>> items = index_items(key.ptr());
        if (!items) throw py::type_error("slice_values_shape: a basic key expected, got " + py::repr(key).cast<std::string>());
        return fn::slice_values_shape(fn::basic_index_plan(shape, *items), static_cast<int64_t>(shape.size()), values);
      },
      py::arg("shape"), py::arg("key"), py::arg("values"),
      "The shape values of shape `values` are written in at x[key] (a basic key) of a tensor of `shape`: one dim "
      "per dim of x (fn::slice_values_shape); None where they do not broadcast to x[key]");
  m.def("unary_method", &make_unary_method, py::arg("name"), py::arg("fallback"),
        "Tensor method `name` (clone) in C: a local tensor's call without arguments reaches C++ in one call; any "
        "other call goes to fallback");
  m.def(
      "unary", [](const std::string& name, const Var& x) {
        Var (*f)(const Var&) = unary_function(name);
        py::gil_scoped_release release;  // a global x's op may communicate
        return f(x);
      },
      py::arg("name"), py::arg("x"), "The C++ function of unary_method `name` on Var x (any layout)");
  m.def("item_method", &make_item_method, py::arg("fallback"),
        "Tensor.item in C: a local tensor's value as a Python number in one call; any other call goes to fallback");
  m.def("chunk_method", &make_chunk_method, py::arg("kind"), py::arg("kwargs"), py::arg("fallback"),
        "Tensor.chunk in C: chunk(chunks[, dim]) of exact ints on a local tensor, its pieces (the split op's) "
        "each linked with link_view(kind, kwargs) as the slice of it along dim; any other call goes to fallback");
  m.def("contiguous_method", &make_contiguous_method, py::arg("fallback"),
        "Tensor.contiguous in C: a tensor that is no view as itself; an x[key] view or a transpose of a tensor that "
        "is no view as itself or its copy, as torch's strides of it say; any other call goes to fallback");
  m.def(
      "dense_strides", [](const std::vector<int64_t>& shape) { return py::tuple(py::cast(dense_strides(shape))); },
      py::arg("shape"), "Row-major strides of shape, a dim of 0 counting as 1 (core/strides.h)");
  m.def(
      "strides_contiguous",
      [](const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
        return strides_contiguous(shape, strides);
      },
      py::arg("shape"), py::arg("strides"), "torch's is_contiguous of these strides (core/strides.h)");
  m.def(
      "viewed_strides",
      [](const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
         const std::vector<int64_t>& new_shape) -> py::object {
        const std::optional<std::vector<int64_t>> out = viewed_strides(shape, strides, new_shape);
        return out ? py::object(py::tuple(py::cast(*out))) : py::object(py::none());
      },
      py::arg("shape"), py::arg("strides"), py::arg("new_shape"),
      "The strides of the elements viewed in new_shape, or None where torch cannot view them so (core/strides.h)");
  m.def(
      "expanded_strides",
      [](const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
         const std::vector<int64_t>& new_shape) { return py::tuple(py::cast(expanded_strides(shape, strides, new_shape))); },
      py::arg("shape"), py::arg("strides"), py::arg("new_shape"),
      "The strides of an expand of shape (with these strides) to new_shape, as torch's (core/strides.h)");
  m.def(
      "set_strided_view_kinds",
      [](py::object getitem, py::object transpose) {
        getitem_kind = getitem.release().ptr();  // kept for the process
        transpose_kind = transpose.release().ptr();
      },
      py::arg("getitem_kind"), py::arg("transpose_kind"),
      "The view kinds of x[key] and x.transpose whose views' torch strides C++ computes (contiguous_method, the "
      "reshape view method of a view)");
  m.def("cat_function", &make_cat_function, py::arg("fallback"), py::arg("op") = "cat",
        "meshflow.cat (op 'cat') or meshflow.stack (op 'stack') in C: a list or tuple of local Tensors of one dtype "
        "and an exact int dim reach the op in one call; any other call (or one the op refuses with a ValueError) "
        "goes to fallback");
  m.def("creation_function", &make_creation_function, py::arg("op"), py::arg("fallback"),
        "Creation op `op` (zeros, ones) in C: a call of exact ints alone (zeros(2, 3), zeros((2, 3))) makes its "
        "tensor in the dtype set_creation_dtype gave, in one call; any other call (or any call while that is "
        "None) goes to fallback");
  m.def(
      "set_creation_dtype",
      [](const std::optional<std::string>& name) {
        creation_dtype = name ? std::optional<DType>(dtype_from_name(*name)) : std::nullopt;
      },
      py::arg("name"),
      "The dtype (by name) of the creation functions' calls in C: the default dtype while creation ops run on "
      "the host by default; None sends every call to their Python");
  m.def("size_method", &make_size_method, py::arg("size_class"), py::arg("fallback"),
        "Tensor.size in C: size() as a `size_class` (meshflow.Size), size(dim) of an exact int dim in range as an "
        "int; any other call goes to fallback");
  m.def("view_method", &make_view_method, py::arg("name"), py::arg("kind"), py::arg("kwargs"), py::arg("fallback"),
        "Tensor's view-making method `name` (reshape, view, transpose, unsqueeze, permute, t, squeeze) in C: its calls with "
        "exact ints on a local tensor reach C++ in one call, the result linked with link_view(kind, kwargs) (not "
        "linked where kind is None: the caller links it); any other call goes to fallback");
  m.def("setitem_method", &make_setitem_method, py::arg("fallback"),
        "Tensor.__setitem__ in C: a basic key and a number or a Tensor of self's dtype written over a local self's "
        "memory (fn::write_basic_index) where self is no view, has no live views and no gradient is recorded; any "
        "other call goes to fallback");
  m.attr("link_view") = py::reinterpret_steal<py::object>(PyCFunction_New(&link_view_method, nullptr));
  m.def("getitem_method", &make_getitem_method, py::arg("kind"), py::arg("kwargs"), py::arg("fallback"),
        "Tensor.__getitem__ in C: a basic key's view (basic_index) linked with link_view(kind, kwargs); any other "
        "key goes to fallback");
  m.def("tensor_method", &make_tensor_method, py::arg("form"), py::arg("op"), py::arg("scalar"), py::arg("fallback"),
        "A Tensor method in C standing for `fallback` (python/op_calls.h): form 'binary', 'reflected', 'reduce', "
        "'inplace' (self.<op>_(other)), 'compare', 'matrices' (two Tensors of at least 2 dims; 'mm', 'bmm': of exactly 2, 3 "
        "dims, bmm's shown as BmmBackward0), 'where' (a bool Tensor and two Tensors of one dtype), 'one' (one "
        "Tensor), 'floating' (one Tensor of a floating dtype), "
        "'subtract' (self - other: a number added negated by `scalar`), 'reflected_subtract' (number - self: "
        "`scalar` of -self) or 'divide' (as 'binary', for a float32 or float64 self) of op `op`, with `scalar` the "
        "op on a Tensor and a number (or None)");
}

}  // namespace mf
