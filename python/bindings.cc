// Copyright 2026 The meshflow Authors.
// The Python extension meshflow._C: thin bindings over the C++ API. The Python layer
// (python/meshflow) shapes them into the user API. C++ exceptions become Python ones
// (std::invalid_argument -> ValueError, std::out_of_range -> IndexError; an op's errors as
// PyTorch's, below). Calls that communicate release the GIL.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <type_traits>
#include <typeinfo>
#include <variant>

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "meshflow/autograd/alias.h"
#include "meshflow/autograd/detach.h"
#include "meshflow/autograd/grad_api.h"
#include "meshflow/autograd/inference.h"
#include "meshflow/boxing/plan.h"
#include "meshflow/core/shape.h"
#include "meshflow/comm/comm.h"
#include "meshflow/comm/among.h"
#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"
#include "meshflow/device/cpu/cpu_device.h"
#include "meshflow/device/device.h"
#include "meshflow/device/meta/meta_device.h"
#include "meshflow/device/testdev/testdev.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/global/point_to_point.h"
#include "meshflow/ops/autocast_cache.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/saved_hooks.h"
#include "meshflow/ops/replication.h"
#include "meshflow/ops/write_in_place.h"
#include "meshflow/graph/compile.h"
#include "meshflow/graph/passes.h"
#include "meshflow/nn/optim.h"
#include "meshflow/nn/zero.h"
#include "meshflow/vm/vm.h"
#include "python/op_calls.h"

namespace py = pybind11;

namespace mf {
namespace {

DType dtype_of(const py::dtype& d) {
  if (d.is(py::dtype::of<float>())) return DType::kFloat32;
  if (d.is(py::dtype::of<double>())) return DType::kFloat64;
  if (d.is(py::dtype::of<int32_t>())) return DType::kInt32;
  if (d.is(py::dtype::of<int64_t>())) return DType::kInt64;
  if (d.is(py::dtype::of<bool>())) return DType::kBool;
  if (d.is(py::dtype::of<uint8_t>())) return DType::kUInt8;
  if (d.is(py::dtype::of<int8_t>())) return DType::kInt8;
  if (d.is(py::dtype::of<int16_t>())) return DType::kInt16;
  if (d.is(py::dtype::of<std::complex<float>>())) return DType::kComplex64;
  if (d.is(py::dtype::of<std::complex<double>>())) return DType::kComplex128;
  if (!py::cast<bool>(d.attr("isnative"))) {
    throw std::invalid_argument("arrays of non-native byte order (" + py::cast<std::string>(d.attr("str")) +
                                ") are not supported; convert with .astype(a.dtype.newbyteorder('='))");
  }
  return dtype_from_name(py::cast<std::string>(d.attr("name")));  // throws, naming the dtype and the supported ones
}

py::dtype numpy_dtype(DType d) {
  if (d == DType::kFloat16) return py::dtype("float16");  // the same bits as NumPy's
  if (is_complex(d)) return visit_complex(d, [](auto v) { return py::dtype::of<decltype(v)>(); });
  return visit_with_bool(d, [](auto v) { return py::dtype::of<decltype(v)>(); });
}

// The interpreter's references to arrays whose memory a tensor shares (from_numpy), dropped
// by a thread without the GIL (below), for the main thread to drop.
std::mutex released_mutex;
std::vector<PyObject*> released_arrays;

int drop_released_arrays(void*) {
  std::vector<PyObject*> arrays;
  {
    std::lock_guard<std::mutex> lock(released_mutex);
    arrays.swap(released_arrays);
  }
  for (PyObject* a : arrays) Py_DECREF(a);
  return 0;
}

// A tensor's reference to the array whose memory it shares goes with the tensor's last
// handle, on whichever thread drops it: a VM worker too, which must not wait for the GIL (the
// issuing thread may hold it while it waits for that worker). There it goes to the
// interpreter's main thread, as a pending call (which needs no GIL to add; on a full queue, a
// later one drops it).
void release_array(void* array) {
  if (!Py_IsInitialized()) return;  // at exit, the interpreter's own end frees it
  if (PyGILState_Check()) {
    Py_DECREF(static_cast<PyObject*>(array));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(released_mutex);
    released_arrays.push_back(static_cast<PyObject*>(array));
  }
  Py_AddPendingCall(&drop_released_arrays, nullptr);
}

// The array as a tensor. With `share` (torch.from_numpy), the tensor takes the array's memory,
// which both then read and write (vm.h: share_with_host); where a tensor cannot be
// that memory (an array that is not C-contiguous, aligned and writeable, or is empty) and
// without `share` (torch.tensor), a copy.
Tensor from_numpy(py::array array, bool share) {
  const TensorMeta meta{Shape(array.shape(), array.shape() + array.ndim()), dtype_of(array.dtype())};
  const int flags = array.flags();
  const int shareable = py::array::c_style | py::detail::npy_api::NPY_ARRAY_ALIGNED_ |
                        py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  if (share && (flags & shareable) == shareable && array.size() > 0) {
    PyObject* ref = array.inc_ref().ptr();
    Tensor t = Tensor::wrap(array.mutable_data(), meta.shape, meta.dtype, std::shared_ptr<void>(ref, release_array));
    vm::share_with_host(t, /*fresh=*/true);
    return t;
  }
  if (!(flags & py::array::c_style)) array = py::array::ensure(array, py::array::c_style);
  return vm::made_here("from_numpy", meta, host_memory(), [&] {
    Tensor t = Tensor::empty(meta.shape, meta.dtype);
    std::memcpy(t.data(), array.data(), t.nbytes());
    return t;
  });
}

// A row-major array of `dtype`, `item_bytes` an element, over `data` (`base` keeping it), or a
// new one where data is null. The strides are given: left out, pybind11 (2.10) derives them
// from the dtype's itemsize, read at NumPy 1's offset of the field, which NumPy 2 moved
// (torch's environments carry NumPy 2): strides of 0 there, every element reading the first.
py::array row_major_array(const py::dtype& dtype, size_t item_bytes, const Shape& dims, const void* data = nullptr,
                          py::handle base = py::handle()) {
  std::vector<py::ssize_t> shape(dims.begin(), dims.end()), strides(dims.size());
  py::ssize_t stride = static_cast<py::ssize_t>(item_bytes);
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return py::array(dtype, std::move(shape), std::move(strides), data, base);
}

// The tensor's value as an array, once the instructions making it have run (waited for without
// the GIL; raises the error of the one that failed). With `share` (Tensor.numpy()), an array
// over the memory of a tensor in host memory, which both then read and write (the array's
// base holds the storage); a copy for a tensor elsewhere (torch asks for .cpu() there), for
// bfloat16 (NumPy has none), for a channels-last tensor (row-major in NumPy) and without
// `share` (meshflow's own reads).
py::array to_numpy(const Tensor& on_device, bool share) {
  if (share && &on_device.memory() == &host_memory() && on_device.dtype() != DType::kBFloat16 &&
      on_device.format() == MemoryFormat::kContiguous) {
    {
      py::gil_scoped_release release;
      vm::share_with_host(on_device);
    }
    auto* keep = new std::shared_ptr<void>(on_device.storage());
    py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<void>*>(p); });
    return row_major_array(numpy_dtype(on_device.dtype()), dtype_size(on_device.dtype()), on_device.shape(),
                           on_device.data(), base);
  }
  Tensor t = on_device;
  {
    py::gil_scoped_release release;
    t = vm::copy_to(on_device, device::cpu());  // itself on the host
    vm::wait(t);
    t = in_format(t, MemoryFormat::kContiguous);
  }
  if (t.dtype() == DType::kBFloat16) {  // NumPy has no bfloat16: its values as float32 (exact)
    py::array_t<float> out(std::vector<py::ssize_t>(t.shape().begin(), t.shape().end()));
    const bfloat16* in = t.data_as<bfloat16>();
    float* o = out.mutable_data();
    for (int64_t i = 0; i < t.numel(); ++i) o[i] = to_float(in[i]);
    return std::move(out);
  }
  py::array out = row_major_array(numpy_dtype(t.dtype()), dtype_size(t.dtype()), t.shape());
  std::memcpy(out.mutable_data(), t.data(), t.nbytes());
  return out;
}

}  // namespace

// The value of a one-element tensor as a Python number, what numpy().item() gives (a bool, an
// int, a float; bfloat16 and float16 as float), read in place: a read after every step
// (loss.item()) made a NumPy array, reshaped it and read it (3.5 us of Python and NumPy
// where torch's item() takes 0.2).
py::object item_of(const Tensor& on_device) {
  const Shape& shape = on_device.shape();
  if (numel(shape) != 1) {
    std::string dims;  // as a Python tuple prints
    for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
    // torch's RuntimeError (an OpError is one, and still the ValueError this raised before)
    throw OpError("item() takes a tensor of one element; this one has shape (" + dims +
                                (shape.size() == 1 ? ",)" : ")"));
  }
  Tensor t = on_device;
  if (on_device.memory().device_type() == "cpu" && vm::settled(on_device)) {
    vm::wait(t);  // made, on the host: raises its error, waits for nothing, the GIL kept
  } else {
    py::gil_scoped_release release;
    t = vm::copy_to(on_device, device::cpu());  // itself on the host
    vm::wait(t);
  }
  return visit_storage(t.dtype(), [&](auto zero) -> py::object {
    using T = decltype(zero);
    const T x = *t.data_as<T>();
    if constexpr (std::is_same_v<T, bool>) {
      return py::bool_(x);
    } else if constexpr (std::is_integral_v<T>) {
      return py::int_(x);
    } else if constexpr (std::is_floating_point_v<T>) {
      return py::float_(static_cast<double>(x));
    } else if constexpr (is_complex_v<T>) {
      return py::cast(std::complex<double>(x));
    } else {
      return py::float_(static_cast<double>(to_float(x)));
    }
  });
}

namespace {

py::dict stats_dict() {
  comm::CommStats s;
  {
    py::gil_scoped_release release;  // waits for the collectives already issued
    s = comm::stats();
  }
  py::dict d;
  d["all_reduce"] = s.all_reduce;
  d["all_gather"] = s.all_gather;
  d["reduce_scatter"] = s.reduce_scatter;
  d["all_to_all"] = s.all_to_all;
  d["direct_all_to_all"] = s.direct_all_to_all;
  d["mapped_all_to_all"] = s.mapped_all_to_all;
  d["broadcast"] = s.broadcast;
  d["send"] = s.send;
  d["recv"] = s.recv;
  d["bytes_sent"] = s.bytes_sent;
  return d;
}


Attrs attrs_of(const py::dict& d) {
  Attrs attrs;
  for (const auto& [key, value] : d) {
    const std::string k = py::cast<std::string>(key);
    if (py::isinstance<py::bool_>(value)) {
      attrs.set(k, py::cast<bool>(value));
    } else if (py::isinstance<py::int_>(value)) {
      // Beyond int64 an int is kept as a float: ops that need it exact say it does not fit.
      const std::optional<int64_t> i = int64_of(value);
      if (i) {
        attrs.set(k, *i);
      } else {
        attrs.set(k, py::cast<double>(value));
      }
    } else if (py::isinstance<py::float_>(value)) {
      attrs.set(k, py::cast<double>(value));
    } else if (py::isinstance<DType>(value)) {
      attrs.set(k, py::cast<DType>(value));
    } else {
      attrs.set(k, py::cast<Shape>(value).vec());
    }
  }
  return attrs;
}

// Runs op `name` through the functional API (recording it for autograd); `placement` and
// `sbp` constrain creation ops and requested output layouts of global calls. The GIL stays
// held for a local call, as the op handles keep it (op_calls.h: issue): its issue waits only
// for the issuing lock and the VM's queue, and both waits let it go; a global call, which may
// communicate, lets it go.
std::vector<Var> apply(const std::string& name, const std::vector<Var>& inputs, const py::dict& attr_dict,
                       py::object placement, py::object sbp) {
  const Attrs attrs = attrs_of(attr_dict);
  Constraints constraints;
  if (!placement.is_none()) constraints.placement = py::cast<Placement>(placement);
  if (!sbp.is_none()) constraints.outputs.push_back(py::cast<NdSbp>(sbp));
  const bool global = constraints.placement ||
                      std::any_of(inputs.begin(), inputs.end(), [](const Var& v) { return v.defined() && v.is_global(); });
  if (!global) return call(name, inputs, attrs, constraints);
  py::gil_scoped_release release;
  return call(name, inputs, attrs, constraints);
}

// Device `index` of `type`; for a negative index, the one placements on `type` use on this
// rank (torch.cuda's current device).
device::Device& device_at(const std::string& type, int index) {
  return index < 0 ? device::for_placement(type) : device::get(type, index);
}

// Exceptions: an op's errors as PyTorch's classes, out of memory as torch.OutOfMemoryError.
void bind_errors(py::module_& m) {
  // An op's errors (meshflow/core/error.h) are PyTorch's classes, RuntimeError and IndexError,
  // and ValueError too, the class they had before: callers catching either keep catching them.
  static PyObject* op_error = PyErr_NewExceptionWithDoc(
      "meshflow.OpError", "An op's arguments break its contract (shapes, dtypes, attributes): PyTorch's RuntimeError.",
      py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_ValueError)).ptr(), nullptr);
  static PyObject* op_index_error = PyErr_NewExceptionWithDoc(
      "meshflow.OpIndexError", "An OpError whose cause is a dim or an index out of range: PyTorch's IndexError.",
      py::make_tuple(py::handle(PyExc_IndexError), py::handle(op_error)).ptr(), nullptr);
  m.attr("OpError") = py::handle(op_error);
  m.attr("OpIndexError") = py::handle(op_index_error);
  static PyObject* linalg_error = PyErr_NewExceptionWithDoc(
      "meshflow.linalg.LinAlgError",
      "An OpError whose cause is a linear-algebra op's data (a singular matrix, one not positive-definite): "
      "torch.linalg.LinAlgError.",
      op_error, nullptr);
  m.attr("LinAlgError") = py::handle(linalg_error);
  static PyObject* out_of_memory_error = PyErr_NewExceptionWithDoc(
      "meshflow.OutOfMemoryError",
      "An allocation found no room on its device, in its memory or under its limit (set_memory_limit), after the "
      "device's cache was freed: torch.OutOfMemoryError (torch.cuda.OutOfMemoryError), a RuntimeError.",
      PyExc_RuntimeError, nullptr);
  m.attr("OutOfMemoryError") = py::handle(out_of_memory_error);
  // RuntimeError as torch's distributed errors; ValueError too, the class it had before.
  static PyObject* collective_mismatch_error = PyErr_NewExceptionWithDoc(
      "meshflow.CollectiveMismatchError",
      "The ranks made different calls on global tensors, or the same call with different arguments or after "
      "different numbers of calls (code that only some ranks run); raised on every rank together.",
      py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_ValueError)).ptr(), nullptr);
  m.attr("CollectiveMismatchError") = py::handle(collective_mismatch_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(out_of_memory_error, e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(op_index_error, e.what());
    } catch (const LinAlgError& e) {
      PyErr_SetString(linalg_error, e.what());
    } catch (const OpError& e) {
      PyErr_SetString(op_error, e.what());
    } catch (const CollectiveMismatchError& e) {
      PyErr_SetString(collective_mismatch_error, e.what());
    } catch (const device::meta::NoDataError& e) {  // torch's class for a read of a meta tensor
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    }
  });
}

// Values: dtypes, local tensors, placements, SBPs, global tensors.
void bind_values(py::module_& m) {
  py::enum_<DType>(m, "DType")
      .value("float32", DType::kFloat32)
      .value("float64", DType::kFloat64)
      .value("int32", DType::kInt32)
      .value("int64", DType::kInt64)
      .value("bfloat16", DType::kBFloat16)
      .value("bool", DType::kBool)
      .value("float16", DType::kFloat16)
      .value("uint8", DType::kUInt8)
      .value("int8", DType::kInt8)
      .value("int16", DType::kInt16)
      .value("complex64", DType::kComplex64)
      .value("complex128", DType::kComplex128);

  py::class_<Tensor>(m, "LocalTensor")
      .def_static("from_numpy", &from_numpy, py::arg("array"), py::arg("share") = false)
      .def("numpy", &to_numpy, py::arg("share") = false)
      .def("item", &item_of)
      // A bfloat16 tensor's bits as uint16 (a view; for checkpoints), and back (a copy).
      .def("bits", [](const Tensor& on_device) {
        if (on_device.dtype() != DType::kBFloat16) throw std::invalid_argument("bits(): the tensor is not bfloat16");
        Tensor t = on_device;
        {
          py::gil_scoped_release release;
          t = vm::copy_to(on_device, device::cpu());  // itself on the host
          vm::wait(t);
          t = in_format(t, MemoryFormat::kContiguous);
        }
        auto* keep = new std::shared_ptr<void>(t.storage());
        py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<void>*>(p); });
        return row_major_array(py::dtype::of<uint16_t>(), sizeof(uint16_t), t.shape(), t.data(), base);
      })
      .def_static("from_bits", [](py::array_t<uint16_t, py::array::c_style | py::array::forcecast> bits) {
        const TensorMeta meta{Shape(bits.shape(), bits.shape() + bits.ndim()), DType::kBFloat16};
        return vm::made_here("from_bits", meta, host_memory(), [&] {
          Tensor t = Tensor::empty(meta.shape, meta.dtype);
          std::memcpy(t.data(), bits.data(), t.nbytes());
          return t;
        });
      })
      // Whether NumPy shares its memory (from_numpy, numpy(): vm.h, share_with_host).
      .def_property_readonly("shares_numpy", [](const Tensor& t) { return vm::shared_with_host(t); })
      .def_property_readonly("shape", [](const Tensor& t) { return py::tuple(py::cast(t.shape())); })
      .def_property_readonly("dtype", [](const Tensor& t) { return std::string(dtype_name(t.dtype())); });

  py::class_<Placement>(m, "Placement")
      .def(py::init<std::string, Shape, std::vector<int>>(), py::arg("type"), py::arg("hierarchy"), py::arg("ranks"))
      .def_property_readonly("_type", &Placement::device_type)
      .def_property_readonly("_hierarchy", &Placement::hierarchy)
      .def_property_readonly("_flat_ranks", &Placement::ranks)
      .def("_check_in_world", &Placement::check_in_world)
      .def("__eq__", [](const Placement& a, const Placement& b) { return a == b; }, py::is_operator())
      .def("__hash__", &Placement::hash)
      .def("__repr__", &Placement::str);

  py::class_<Sbp>(m, "Sbp")
      .def_static("split", &Sbp::split, py::arg("dim"))
      .def_static("broadcast", &Sbp::broadcast)
      .def_static("partial_sum", &Sbp::partial_sum)
      .def_static("partial_max", &Sbp::partial_max)
      .def_static("partial_min", &Sbp::partial_min)
      .def_property_readonly("is_split", &Sbp::is_split)
      .def_property_readonly("is_broadcast", &Sbp::is_broadcast)
      .def_property_readonly("is_partial", &Sbp::is_partial)
      .def_property_readonly("dim", [](const Sbp& s) -> py::object {
        return s.is_split() ? py::object(py::int_(s.split_dim())) : py::none();
      })
      .def("__eq__", [](const Sbp& a, const Sbp& b) { return a == b; }, py::is_operator())
      .def("__hash__", &Sbp::hash)
      .def("__repr__", &Sbp::str);
  // The region of the logical tensor the rank at `coordinate` holds: (start, extent) per dimension.
  m.def(
      "local_box",
      [](const Shape& logical, const Shape& hierarchy, const NdSbp& nd_sbp, const Shape& coordinate) {
        const Box box = local_box(logical, hierarchy, nd_sbp, coordinate);
        return std::make_pair(box.start, box.extent);
      },
      py::arg("logical"), py::arg("hierarchy"), py::arg("nd_sbp"), py::arg("coordinate"));

  py::class_<GlobalTensor>(m, "GlobalTensor")
      .def_property_readonly("shape", [](const GlobalTensor& t) { return py::tuple(py::cast(t.shape())); })
      .def_property_readonly("dtype", [](const GlobalTensor& t) { return std::string(dtype_name(t.dtype())); })
      .def_property_readonly("placement", &GlobalTensor::placement)
      .def_property_readonly("nd_sbp", &GlobalTensor::nd_sbp)
      .def_property_readonly("local", &GlobalTensor::local);
}

// Autograd: the tensor handle (Var), recorded calls, backward and grad.
void bind_autograd(py::module_& m) {
  // The tensor handle of the Python Tensor: a local or global value plus autograd state.
  py::class_<Var>(m, "Var")
      .def(py::init<Tensor, bool>(), py::arg("local"), py::arg("requires_grad") = false)
      .def(py::init<GlobalTensor, bool>(), py::arg("global_tensor"), py::arg("requires_grad") = false)
      .def_property_readonly("is_global", &Var::is_global)
      .def_property_readonly("shape", [](const Var& v) { return py::tuple(py::cast(v.shape())); })
      .def_property_readonly("dtype", [](const Var& v) { return std::string(dtype_name(v.dtype())); })
      .def_property_readonly("local_tensor", &Var::local)
      // Whether the value is channels-last (core/tensor.h; a global tensor's parts never are).
      .def_property_readonly("channels_last",
                             [](const Var& v) { return !v.is_global() && v.local().format() == MemoryFormat::kChannelsLast; })
      // item() of a local Var's value; None for a global one (Tensor.item's one call).
      .def("local_item", [](const Var& v) { return v.is_global() ? py::object(py::none()) : item_of(v.local()); })
      .def_property_readonly("device_type", [](const Var& v) { return v.local().memory().device_type(); })
      .def_property_readonly("device_index", [](const Var& v) { return v.local().memory().device_index(); })
      .def_property_readonly("global_tensor", &Var::global)
      .def_property_readonly("data", &Var::data)
      .def_property_readonly("placement", [](const Var& v) { return v.global().placement(); })
      .def_property_readonly("nd_sbp", [](const Var& v) { return v.global().nd_sbp(); })
      .def_property("requires_grad", &Var::requires_grad,
                    [](Var& v, bool requires_grad) { v.set_requires_grad(requires_grad); })
      .def_property_readonly("is_leaf", &Var::is_leaf)
      .def_property_readonly("is_inference", [](const Var& v) { return is_inference(v); })
      .def_property("grad",
                    [](const Var& v) -> std::optional<Var> {
                      Var g = v.grad();
                      return g.defined() ? std::optional<Var>(g) : std::nullopt;
                    },
                    [](Var& v, std::optional<Var> g) { v.set_grad(g ? *g : Var()); })
      .def_property_readonly("grad_fn", [](const Var& v) { return v.grad_fn(); })
      .def("detach", &Var::detach)
      .def("detach_in_place", [](Var& v) { detach_in_place(v); })
      .def("set_data", &Var::set_data, py::arg("value"))
      .def("set_data_in_place", &Var::set_data_in_place, py::arg("value"))
      .def("assign", &Var::assign, py::arg("result"), py::arg("since") = UINT64_MAX)
      .def("follow_write", &follow_write, py::arg("result"))
      .def_property_readonly("version", &Var::version)
      .def("same", &Var::same, py::arg("other"))
      .def("backward", [](const Var& v, std::optional<Var> grad, bool retain_graph, bool create_graph) {
            py::gil_scoped_release release;
            v.backward(grad ? *grad : Var(), retain_graph, create_graph);
          }, py::arg("grad") = py::none(), py::arg("retain_graph") = false, py::arg("create_graph") = false)
      .def("add_hook", [](Var& v, py::function fn) {
            // The function goes with the graph node or the leaf; whoever drops the last
            // reference (possibly without the GIL, inside backward) takes the GIL to free it.
            std::shared_ptr<py::function> held(new py::function(std::move(fn)), [](py::function* f) {
              if (!Py_IsInitialized()) return;  // at exit: leave it to the OS
              py::gil_scoped_acquire gil;
              delete f;
            });
            return v.add_hook([held](const Var& grad) -> Var {
              py::gil_scoped_acquire gil;
              py::object replaced = (*held)(grad);
              return replaced.is_none() ? Var() : replaced.cast<Var>();
            });
          }, py::arg("hook"))
      .def("add_post_accumulate_hook", [](Var& v, py::function fn) {
            std::shared_ptr<py::function> held(new py::function(std::move(fn)), [](py::function* f) {
              if (!Py_IsInitialized()) return;  // at exit: leave it to the OS
              py::gil_scoped_acquire gil;
              delete f;
            });
            return v.add_post_accumulate_hook([held] {
              py::gil_scoped_acquire gil;
              (*held)();
            });
          }, py::arg("hook"))
      .def("run_post_accumulate_hooks", &Var::run_post_accumulate_hooks)
      .def("remove_hook", &Var::remove_hook, py::arg("id"))
      .def("retain_grad", &Var::retain_grad)
      .def_property_readonly("retains_grad", &Var::retains_grad);
  // A recorded call (Tensor.grad_fn): its name and, per input, (the node that made it, which of
  // its outputs), (the leaf it accumulates into, 0) or (None, 0) where no gradient flows;
  // torch_name and shown_edges: the same as torch's node shows them (Node::torch_name).
  const auto edges = [](const std::vector<Edge>& edges) {
    py::list out;
    for (const Edge& e : edges) {
      const Var leaf = autograd::edge_leaf(e);
      out.append(e.node ? py::make_tuple(e.node, e.output)
                        : py::make_tuple(leaf.defined() ? py::cast(leaf) : py::none(), 0));
    }
    return out;
  };
  py::class_<Node, std::shared_ptr<Node>>(m, "Node")
      .def_property_readonly("name", [](const Node& n) { return n.name; })
      .def_property_readonly("torch_name", [](const Node& n) { return torch_name(n); })
      .def_property_readonly("edges", [edges](const Node& n) { return edges(n.inputs); })
      .def_property_readonly("shown_edges", [edges](const Node& n) { return edges(n.shown_inputs.value_or(n.inputs)); })
      .def_property_readonly("id", [](const Node& n) { return reinterpret_cast<uintptr_t>(&n); });
  m.def("autograd_backward", [](const std::vector<Var>& roots, const std::vector<std::optional<Var>>& grads,
                                bool retain_graph, bool create_graph) {
          std::vector<Var> seeds;
          for (const auto& g : grads) seeds.push_back(g ? *g : Var());
          py::gil_scoped_release release;
          autograd::backward(roots, seeds, retain_graph, create_graph);
        }, py::arg("tensors"), py::arg("grad_tensors"), py::arg("retain_graph"), py::arg("create_graph") = false);
  m.def("autograd_grad", [](const std::vector<Var>& outputs, const std::vector<Var>& inputs,
                            const std::vector<std::optional<Var>>& grad_outputs, bool retain_graph,
                            bool create_graph) {
          std::vector<Var> seeds;
          for (const auto& g : grad_outputs) seeds.push_back(g ? *g : Var());
          std::vector<Var> grads;
          {
            py::gil_scoped_release release;
            grads = autograd::grad(outputs, inputs, seeds, retain_graph, create_graph);
          }
          std::vector<std::optional<Var>> out;
          for (const Var& g : grads) out.push_back(g.defined() ? std::optional<Var>(g) : std::nullopt);
          return out;
        }, py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs"), py::arg("retain_graph"),
        py::arg("create_graph") = false);
  m.def("set_detect_anomaly", &set_detect_anomaly, py::arg("enabled"));
  m.def("detect_anomaly_enabled", &detect_anomaly_enabled);
  // Under anomaly detection a recorded call keeps the Python stack that made it (calls are
  // recorded without the GIL).
  set_anomaly_trace_source([]() -> std::string {
    if (!Py_IsInitialized()) return "";
    py::gil_scoped_acquire gil;
    return py::str("").attr("join")(py::module_::import("traceback").attr("format_stack")()).cast<std::string>();
  });
}

// Global tensors: making them, converting layouts, point-to-point, reading them whole.
void bind_global(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  m.def("make_global", &local_to_global, py::arg("local"), py::arg("placement"), py::arg("nd_sbp"),
        py::arg("check_consistency"), release());
  m.def(
      "global_from_full",
      [](const Tensor& full, const Placement& p, const NdSbp& s) { return Var(global_from_full(full, p, s)); },
      py::arg("full"), py::arg("placement"), py::arg("nd_sbp"), release());
  m.def(
      "to_global", [](const Var& v, const Placement& p, const NdSbp& s) { return to_global(v, p, s); },
      py::arg("tensor"), py::arg("placement"), py::arg("nd_sbp"), release());
  m.def("replicated_beside", &replicated_beside, py::arg("op"), py::arg("local"), py::arg("placement"),
        py::arg("nd_sbp"), release());
  m.def("to_local", &to_local, py::arg("tensor"), release());
  // torch.distributed's send / recv (global/point_to_point.h): made by the ranks of each
  // transfer alone. A receive's peers: one world rank, or several (from any of them). Returns
  // the batch's ready-or-error tensor, each received tensor, then the sender of each receive
  // from several.
  m.def(
      "transfer_batch",
      [](const std::vector<Var>& sends, const std::vector<int>& send_peers,
         const std::vector<std::tuple<Shape, DType, std::vector<int>>>& receives) {
        std::vector<Tensor> values;
        for (const Var& v : sends) values.push_back(v.local());
        std::vector<Receive> specs;
        for (const auto& [shape, dtype, peers] : receives) {
          specs.push_back(peers.size() == 1 ? Receive{shape, dtype, peers[0]}
                                            : Receive{shape, dtype, Receive::kAnySource, peers});
        }
        std::vector<Var> out;
        for (const Tensor& t : transfer_batch(values, send_peers, specs)) out.emplace_back(t);
        return out;
      },
      py::arg("sends"), py::arg("send_peers"), py::arg("receives"), release());
  m.def(
      "cast_local",
      [](const Tensor& t, DType dtype) { return apply_local(find_op("cast"), {t}, Attrs{{"dtype", dtype}})[0]; },
      py::arg("tensor"), py::arg("dtype"), release());
  m.def(
      "gather_full", [](const Var& v, const std::string& read) { return gather_full(v.global(), read); },
      py::arg("tensor"), py::arg("read") = "gather_full", release());
}

// Optimizers, gradient clipping and the learning-rate schedule.
void bind_optim(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  py::class_<optim::Optimizer>(m, "Optimizer")
      .def("step", &optim::Optimizer::step, release())
      .def("zero_grad", &optim::Optimizer::zero_grad)
      .def_property("lr", &optim::Optimizer::lr, &optim::Optimizer::set_lr)
      .def_property_readonly("params", &optim::Optimizer::params)
      .def_property_readonly("step_count", &optim::Optimizer::step_count)
      .def_property_readonly("group_count", &optim::Optimizer::group_count)
      .def_property_readonly("defaults", &optim::Optimizer::defaults)
      .def("add_param_group", &optim::Optimizer::add_param_group, py::arg("params"), py::arg("options"))
      .def("group_params", &optim::Optimizer::group_params, py::arg("group"))
      .def("group_options", &optim::Optimizer::group_options, py::arg("group"))
      .def("set_group_option", &optim::Optimizer::set_group_option, py::arg("group"), py::arg("name"),
           py::arg("value"))
      .def("state", &optim::Optimizer::state)
      .def("load_state", &optim::Optimizer::load_state, py::arg("state"), py::arg("step_count"))
      .def_property("zero_stage", &optim::Optimizer::zero_stage, &optim::Optimizer::set_zero_stage)
      .def("take_zero_stage", [](optim::Optimizer& o, int stage, const std::string& what) {
        optim::take_zero_stage(o, stage, what);
      });
  // Whether the parameter was sharded (it has a broadcast mesh axis among `axes` to shard along).
  m.def(
      "shard_parameter",
      [](Var p, int stage, const std::vector<int>& axes) { return optim::shard_parameter(p, stage, axes).has_value(); },
      py::arg("param"), py::arg("stage"), py::arg("axes") = std::vector<int>{});
  // Constructed from [(params, {option: value})] groups and the defaults.
  using Groups = std::vector<std::pair<std::vector<Var>, optim::GroupOptions>>;
  auto param_groups = [](Groups groups) {
    std::vector<optim::ParamGroup> out;
    for (auto& [params, options] : groups) out.push_back({std::move(params), std::move(options)});
    return out;
  };
  py::class_<optim::SGD, optim::Optimizer>(m, "SGD")
      .def(py::init([param_groups](Groups groups, double lr, double momentum, double dampening, double weight_decay,
                                   bool nesterov) {
             return optim::SGD(param_groups(std::move(groups)), {lr, momentum, dampening, weight_decay, nesterov});
           }),
           py::arg("groups"), py::arg("lr"), py::arg("momentum"), py::arg("dampening"), py::arg("weight_decay"),
           py::arg("nesterov"));
  py::class_<optim::AdamW, optim::Optimizer>(m, "AdamW")
      .def(py::init([param_groups](Groups groups, double lr, double beta1, double beta2, double eps,
                                   double weight_decay) {
             return optim::AdamW(param_groups(std::move(groups)), {lr, beta1, beta2, eps, weight_decay});
           }),
           py::arg("groups"), py::arg("lr"), py::arg("beta1"), py::arg("beta2"), py::arg("eps"),
           py::arg("weight_decay"));
  py::class_<optim::Adam, optim::AdamW>(m, "Adam")
      .def(py::init([param_groups](Groups groups, double lr, double beta1, double beta2, double eps,
                                   double weight_decay) {
             return optim::Adam(param_groups(std::move(groups)), {lr, beta1, beta2, eps, weight_decay});
           }),
           py::arg("groups"), py::arg("lr"), py::arg("beta1"), py::arg("beta2"), py::arg("eps"),
           py::arg("weight_decay"));
  py::class_<optim::RMSprop, optim::Optimizer>(m, "RMSprop")
      .def(py::init([param_groups](Groups groups, double lr, double alpha, double eps, double weight_decay,
                                   double momentum, bool centered) {
             return optim::RMSprop(param_groups(std::move(groups)), {lr, alpha, eps, weight_decay, momentum, centered});
           }),
           py::arg("groups"), py::arg("lr"), py::arg("alpha"), py::arg("eps"), py::arg("weight_decay"),
           py::arg("momentum"), py::arg("centered"));
  py::class_<optim::Adagrad, optim::Optimizer>(m, "Adagrad")
      .def(py::init([param_groups](Groups groups, double lr, double lr_decay, double weight_decay,
                                   double initial_accumulator_value, double eps) {
             return optim::Adagrad(param_groups(std::move(groups)),
                                   {lr, lr_decay, weight_decay, initial_accumulator_value, eps});
           }),
           py::arg("groups"), py::arg("lr"), py::arg("lr_decay"), py::arg("weight_decay"),
           py::arg("initial_accumulator_value"), py::arg("eps"));
  // The elementwise rules' optimizers: groups, and the defaults they override by name.
  auto bind_rule = [&m, param_groups](auto* tag, const char* name) {
    using Class = std::remove_pointer_t<decltype(tag)>;
    py::class_<Class, optim::Optimizer>(m, name)
        .def(py::init([param_groups](Groups groups, const optim::GroupOptions& defaults) {
               return Class(param_groups(std::move(groups)), defaults);
             }),
             py::arg("groups"), py::arg("defaults"));
  };
  bind_rule(static_cast<optim::Adamax*>(nullptr), "Adamax");
  bind_rule(static_cast<optim::NAdam*>(nullptr), "NAdam");
  bind_rule(static_cast<optim::RAdam*>(nullptr), "RAdam");
  bind_rule(static_cast<optim::Adadelta*>(nullptr), "Adadelta");
  bind_rule(static_cast<optim::ASGD*>(nullptr), "ASGD");
  bind_rule(static_cast<optim::Rprop*>(nullptr), "Rprop");
  m.def(
      "clip_grad_norm",
      [](const std::vector<Var>& params, double max_norm, bool error_if_nonfinite) -> std::optional<Var> {
        Var norm = optim::clip_grad_norm(params, max_norm, error_if_nonfinite);
        return norm.defined() ? std::optional<Var>(norm) : std::nullopt;
      },
      py::arg("params"), py::arg("max_norm"), py::arg("error_if_nonfinite") = false, release());
  m.def("clip_grad_value", &optim::clip_grad_value, py::arg("params"), py::arg("clip_value"), release());
  m.def(
      "total_norm",
      [](const std::vector<Var>& tensors) -> std::optional<Var> {
        Var norm = optim::total_norm(tensors);
        return norm.defined() ? std::optional<Var>(norm) : std::nullopt;
      },
      py::arg("tensors"), release());
  m.def("warmup_cosine_lr", &optim::warmup_cosine_lr, py::arg("step"), py::arg("warmup"), py::arg("total"),
        py::arg("max_lr"), py::arg("min_lr"));
}

// Op tracing, the VM's trace, and graph mode.
void bind_graph(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  m.def("set_zero_prefetch", &autograd::set_zero_prefetch, py::arg("on"));
  m.def("zero_prefetch", &autograd::zero_prefetch);
  m.def("tracing", [] { return op_tracer() != nullptr; });
  m.def("trace_spans", [] {
    py::list out;
    for (const vm::TraceSpan& s : vm::trace_spans()) {
      out.append(py::make_tuple(s.name, device::stream_kind_name(s.stream), s.start_us, s.end_us));
    }
    return out;
  });
  // Graph mode (meshflow/graph): the tracer, its scope, and the compiled graph.
  m.def("as_global_here", &as_global_here, py::arg("tensor"));
  m.def("with_local_arguments_replicated", &with_local_arguments_replicated, py::arg("args"), release());
  py::class_<graph::Tracer>(m, "GraphTracer")
      .def(py::init<>())
      .def("add_parameter", &graph::Tracer::add_parameter, py::arg("parameter"), py::arg("name"))
      .def("add_optimizer", &graph::Tracer::add_optimizer, py::arg("optimizer"), py::keep_alive<1, 2>())
      .def("set_micro_batches", &graph::Tracer::set_micro_batches, py::arg("m"))
      .def("set_local", &graph::Tracer::set_local, py::arg("local"))
      .def("set_stage_order", &graph::Tracer::set_stage_order, py::arg("stages"))
      .def("set_fusion", &graph::Tracer::set_fusion, py::arg("on"))
      .def("begin_checkpoint", [](graph::Tracer& t, bool selective) {
             t.begin_checkpoint(selective ? graph::Recompute::kSelective : graph::Recompute::kFull);
           }, py::arg("selective"))
      .def("end_checkpoint", &graph::Tracer::end_checkpoint)
      .def("argument", &graph::Tracer::argument, py::arg("example"), release())
      .def("abandon", &graph::Tracer::abandon)
      .def("finish", [](graph::Tracer& t, const std::vector<Var>& outputs) {
             return std::make_shared<graph::CompiledGraph>(t.finish(outputs));
           }, py::arg("outputs"), release());
  struct TraceScope {
    graph::Tracer* tracer;
    std::unique_ptr<graph::Tracer::Scope> scope;
  };
  py::class_<TraceScope>(m, "TraceScope")
      .def(py::init([](graph::Tracer& t) { return TraceScope{&t, nullptr}; }), py::keep_alive<1, 2>())
      .def("__enter__", [](TraceScope& s) { s.scope = std::make_unique<graph::Tracer::Scope>(*s.tracer); })
      .def("__exit__", [](TraceScope& s, py::args) { s.scope.reset(); });
  // Whether compiling checks the graph between passes (passes.h; MESHFLOW_CHECK_PASSES=1).
  m.def("check_passes", &graph::check_passes);
  m.def("set_check_passes", &graph::set_check_passes, py::arg("on"));
  py::class_<graph::CompiledGraph, std::shared_ptr<graph::CompiledGraph>>(m, "CompiledGraph")
      .def("run", &graph::CompiledGraph::run, py::arg("arguments"), release())
      .def("__str__", &graph::CompiledGraph::str)
      .def("explain", &graph::CompiledGraph::explain)
      .def("dot", &graph::CompiledGraph::dot)
      .def("peak_register_use", &graph::CompiledGraph::peak_register_use)
      .def("last_pipeline_us", &graph::CompiledGraph::last_pipeline_us)
      .def("registers", [](const graph::CompiledGraph& g) {
        py::list out;
        for (const auto& r : g.registers()) {
          py::dict d;
          d["stage"] = r.stage;
          d["slots"] = r.slots;
          d["peak"] = r.peak;
          d["bytes"] = r.bytes;
          out.append(d);
        }
        return out;
      })
      .def("memory", [](const graph::CompiledGraph& g) {
        const graph::MemoryReport& r = g.memory();
        py::dict d;
        d["arena_bytes"] = r.arena_bytes;
        d["no_reuse_bytes"] = r.no_reuse_bytes;
        d["max_live_bytes"] = r.max_live_bytes;
        d["persistent_bytes"] = r.persistent_bytes;
        d["buffer_bytes"] = r.buffer_bytes;
        d["unstored_bytes"] = r.unstored_bytes;
        d["folded_bytes"] = r.folded_bytes;
        d["donated_bytes"] = r.donated_bytes;
        d["registers"] = r.registers;
        return d;
      })
      .def("stats", [](const graph::CompiledGraph& g) {
        const graph::CompileStats& s = g.stats();
        py::dict d;
        d["traced_nodes"] = s.traced_nodes;
        d["graph_nodes"] = s.graph_nodes;
        d["boxing_nodes"] = s.boxing_nodes;
        d["fused_chains"] = s.fused_chains;
        d["fused_ops"] = s.fused_ops;
        d["folded_ops"] = s.folded_ops;
        d["checkpointed_regions"] = s.checkpointed_regions;
        d["recomputed_ops"] = s.recomputed_ops;
        d["dropped_activation_bytes"] = s.dropped_activation_bytes;
        d["backward_gathers"] = s.backward_gathers;
        d["prefetch_orders"] = s.prefetch_orders;
        d["tasks"] = s.tasks;
        d["eager_boxing_bytes"] = s.eager_boxing_bytes;
        d["graph_boxing_bytes"] = s.graph_boxing_bytes;
        d["compile_ms"] = s.compile_ms;
        py::list passes;
        for (const auto& pass : s.passes) passes.append(py::make_tuple(pass.name, pass.ms));
        d["passes"] = passes;
        return d;
      })
      .def("debug_graph", &graph::CompiledGraph::debug_graph, py::arg("after"), release());
}

// Functions the C++ API writes with several ops, and Python autograd.Functions.
void bind_functions(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  // Functions the C++ API writes with several ops (functional.h).
  m.def(
      "linear", [](const Var& x, const Var& w, std::optional<Var> b) { return fn::linear(x, w, b ? *b : Var()); },
      py::arg("x"), py::arg("weight"), py::arg("bias"), release());
  m.def("add_bias", &fn::add_bias, py::arg("product"), py::arg("bias"), release());
  m.def("addmm", &fn::addmm, py::arg("input"), py::arg("mat1"), py::arg("mat2"), release());
  m.def("dropout", &fn::dropout, py::arg("x"), py::arg("p"), py::arg("training"), release());
  m.def("cross_entropy", &fn::cross_entropy, py::arg("logits"), py::arg("target"), release());
  // A Python autograd.Function's call: `outputs` (computed without recording) become the
  // results of a node whose gradient is the Python `backward(grad_outputs) -> grads`, one per
  // input (None where none flows). Backward runs with the GIL released, so the callable is
  // called, and dropped, under the GIL. `owner` is kept while the node lives (the callable is
  // dropped by a backward that frees the graph): its end tells Python the node is gone.
  m.def(
      "record_function",
      [](const std::string& name, const std::vector<Var>& inputs, std::vector<Var> outputs, py::function backward,
         py::object owner) {
        struct Callable {
          py::object fn, owner;
          ~Callable() {
            py::gil_scoped_acquire gil;
            fn = py::object();
            owner = py::object();
          }
        };
        auto callable = std::make_shared<Callable>();
        callable->fn = std::move(backward);
        callable->owner = std::move(owner);
        const size_t n = inputs.size();
        record(
            name, inputs, outputs,
            [callable, n, name](const std::vector<Var>& grads) {
              py::gil_scoped_acquire gil;
              py::list args;
              for (const Var& g : grads) args.append(g.defined() ? py::cast(g) : py::none());
              const py::object result = callable->fn(args);
              std::vector<Var> out;
              for (const py::handle item : result) out.push_back(item.is_none() ? Var() : item.cast<Var>());
              if (out.size() != n) {
                throw std::invalid_argument(name + ".backward returned " + std::to_string(out.size()) +
                                            " gradients; expected one per tensor input (" + std::to_string(n) + ")");
              }
              return out;
            },
            [callable] {
              py::gil_scoped_acquire gil;
              callable->fn = py::none();
            });
        return outputs;
      },
      py::arg("name"), py::arg("inputs"), py::arg("outputs"), py::arg("backward"), py::arg("owner") = py::none());
  // What a Function's ctx.save_for_backward keeps of one of the call's recorded outputs: its
  // value, attached again to the call's node when read in a create_graph backward (the node
  // is held weakly, so the node's ctx holding it makes no cycle).
  py::class_<SavedVar>(m, "SavedVar")
      .def(py::init([](const Var& output) { return SavedVar(output, true); }), py::arg("output"))
      .def("unpack", &SavedVar::unpack);
  // torch.autograd.graph.saved_tensors_hooks (autograd.py): pack(Var) -> any object, kept by
  // the saved value; unpack(that object) -> Var. The objects are released under the GIL.
  m.def(
      "push_saved_hooks",
      [](py::function pack, py::function unpack) {
        auto held = [](py::object o) {
          return std::shared_ptr<void>(new py::object(std::move(o)), [](void* p) {
            py::gil_scoped_acquire gil;
            delete static_cast<py::object*>(p);
          });
        };
        // The hooks' functions live as long as a value they packed: released under the GIL too.
        std::shared_ptr<void> keep_pack = held(std::move(pack)), keep_unpack = held(std::move(unpack));
        push_saved_hooks(SavedHooks{
            [keep_pack, held](const Var& v) {
              py::gil_scoped_acquire gil;
              return held((*static_cast<py::object*>(keep_pack.get()))(v));
            },
            [keep_unpack](const std::shared_ptr<void>& packed) {
              py::gil_scoped_acquire gil;
              return (*static_cast<py::object*>(keep_unpack.get()))(*static_cast<py::object*>(packed.get()))
                  .cast<Var>();
            }});
      },
      py::arg("pack"), py::arg("unpack"));
  m.def("pop_saved_hooks", &pop_saved_hooks);
  m.def(
      "batch_norm",
      [](const Var& x, std::optional<Var> running_mean, std::optional<Var> running_var, std::optional<Var> weight,
         std::optional<Var> bias, bool training, std::variant<double, Var> momentum, double eps) {
        auto get = [](const std::optional<Var>& v) { return v ? *v : Var(); };
        return std::visit(
            [&](const auto& m) {
              return fn::batch_norm(x, get(running_mean), get(running_var), get(weight), get(bias), training, m, eps);
            },
            momentum);
      },
      release());
}

// Op calls and their settings: gradients, devices, boxing plans, signatures.
void bind_ops(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  m.def("grad_enabled", &grad_mode_set);  // torch.is_grad_enabled(); inference mode records nothing whatever it says
  m.def("set_grad_enabled", &set_grad_enabled, py::arg("enabled"));
  m.def("inference_mode_enabled", &inference_mode_enabled);
  m.def("set_inference_mode", &set_inference_mode, py::arg("enabled"));
  m.def("set_grad_bucket_bytes", &set_grad_bucket_bytes, py::arg("bytes"));
  m.def("grad_bucket_bytes", &grad_bucket_bytes);
  m.def("consistency_check_enabled", &consistency_check_enabled);
  m.def("device_types", &device::types);
  m.def(
      "to_device",
      [](const Var& x, const std::string& type, int index) { return to_device(x, device::get(type, index)); },
      py::arg("x"), py::arg("device_type"), py::arg("index") = 0, release());
  // A creation op's output on the meta device: its shape inference alone, as every op's there
  // (ops/meta/kernels.cc), without the op's run on the host that a move would need first.
  m.def(
      "create_on_meta",
      [](const std::string& name, const py::dict& attr_dict) {
        const TensorMeta out = find_op(name).infer({}, attrs_of(attr_dict)).at(0);
        return Var(Tensor::empty(out.shape, out.dtype, device::meta::device().memory()));
      },
      py::arg("op"), py::arg("attrs"));

  m.def(
      "plan_boxing",
      [](const Shape& shape, const std::string& dtype, const Placement& pa, const NdSbp& sa, const Placement& pb,
         const NdSbp& sb) {
        boxing::Plan plan = boxing::plan_boxing(shape, dtype_from_name(dtype), {pa, sa}, {pb, sb});
        py::list steps;
        for (const boxing::Step& s : plan.steps) {
          steps.append(py::make_tuple(boxing::step_kind_name(s.kind), s.axis, s.cost, s.str()));
        }
        return py::make_tuple(steps, plan.cost);
      },
      py::arg("shape"), py::arg("dtype"), py::arg("from_placement"), py::arg("from_sbp"), py::arg("to_placement"),
      py::arg("to_sbp"));

  m.def("autocast_dtype", [] {
    const std::optional<DType> d = autocast_dtype();
    return d ? py::object(py::str(dtype_name(*d))) : py::object(py::none());
  });
  // The setting as (dtype name or None, device type, whether the cache is on); set_autocast
  // returns the previous one.
  auto autocast_tuple = [](const AutocastState& s, bool cache) {
    return py::make_tuple(s.dtype ? py::object(py::str(dtype_name(*s.dtype))) : py::object(py::none()), s.device_type,
                          cache);
  };
  m.def("autocast_state", [autocast_tuple] { return autocast_tuple(autocast_state(), autocast_cache_enabled()); });
  m.def("set_autocast", [autocast_tuple](std::optional<std::string> name, const std::string& device_type, bool cache) {
    const AutocastState previous =
        set_autocast({name ? std::optional(dtype_from_name(*name)) : std::nullopt, device_type});
    return autocast_tuple(previous, set_autocast_cache(cache));
  }, py::arg("dtype"), py::arg("device_type"), py::arg("cache") = true);
  m.def("autocast_cached_casts", &autocast_cached_casts);
  m.def("apply", &apply, py::arg("name"), py::arg("inputs"), py::arg("attrs"), py::arg("placement") = py::none(),
        py::arg("sbp") = py::none());
  // An in-place write (fn::write_in_place): the op's output, written over inputs[target]'s
  // memory, for the caller to bind in its place (Var.assign).
  m.def("write_in_place", [](const std::string& name, const std::vector<Var>& inputs, const py::dict& attr_dict,
                             int target) {
    const Attrs attrs = attrs_of(attr_dict);
    py::gil_scoped_release release;
    return write_in_place(name, inputs, attrs, target);
  }, py::arg("name"), py::arg("inputs"), py::arg("attrs"), py::arg("target") = 0);
  m.def("op_names", &op_names);
  // The valid 1-d SBP signatures of op `name` for inputs of these (shape, dtype name) and
  // these attributes, on one mesh axis of `ranks` ranks ("S(0), B -> S(0)"), in the op's
  // listed order, without all-broadcast (always valid). For documentation
  // (scripts/api-reference): plans and runs nothing, needs no MPI. Bad inputs or attributes
  // raise the op's ValueError, as a call would.
  m.def(
      "op_signatures",
      [](const std::string& name, const std::vector<std::pair<Shape, std::string>>& inputs, const py::dict& attrs,
         int64_t ranks) {
        if (ranks < 1) throw std::invalid_argument("ranks is " + std::to_string(ranks) + "; expected at least 1");
        std::vector<TensorMeta> metas;
        for (const auto& [shape, dtype] : inputs) metas.push_back({shape, dtype_from_name(dtype)});
        std::vector<std::string> out;
        for (const NdSignature& nd : valid_nd_signatures(find_op(name), metas, attrs_of(attrs), {ranks})) {
          Signature s;
          for (const NdSbp& in : nd.inputs) s.inputs.push_back(in[0]);
          for (const NdSbp& o : nd.outputs) s.outputs.push_back(o[0]);
          const auto broadcast = [](const Sbp& x) { return x.is_broadcast(); };
          if (std::all_of(s.inputs.begin(), s.inputs.end(), broadcast) &&
              std::all_of(s.outputs.begin(), s.outputs.end(), broadcast)) {
            continue;
          }
          out.push_back(s.str());
        }
        return out;
      },
      py::arg("name"), py::arg("inputs"), py::arg("attrs") = py::dict(), py::arg("ranks") = 2);
  m.def("promote_for_scalar", [](const Var& x, const py::object& value) {
    return promote_for_scalar(x, scalar_of(value, "promote_for_scalar", x));
  }, py::arg("x"), py::arg("value"));
}

// Random state, threads and the caches' statistics.
void bind_random(py::module_& m) {
  m.def("manual_seed", &manual_seed, py::arg("seed"));
  m.def("set_num_threads", &device::set_cpu_threads, py::arg("n"));
  m.def("get_num_threads", &device::cpu_threads);
  m.def("generator_state", [] {
    const GeneratorState s = generator_state();
    return std::make_pair(s.seed, s.offset);
  });
  m.def("set_generator_state", [](uint64_t seed, uint64_t offset) { set_generator_state({seed, offset}); });
  m.def("torch_cpu_permutation", &torch_cpu_permutation, py::arg("n"), py::arg("seed"), py::arg("drawn") = 0);
  m.def(
      "next_random_call",
      [](int64_t numel) {
        const RandomCall call = next_random_call(numel);
        return py::make_tuple(call.seed, call.offset);
      },
      py::arg("numel"));
  auto cache_dict = [](const LruCacheStats& s) {
    py::dict d;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    d["entries"] = s.entries;
    d["capacity"] = s.capacity;
    return d;
  };
  m.def("infer_cache_stats", [cache_dict] { return cache_dict(infer_cache_stats()); });
  m.def("boxing_cache_stats", [cache_dict] { return cache_dict(boxing::boxing_cache_stats()); });
  m.def("set_plan_cache_capacity", &set_plan_cache_capacity, py::arg("entries"));
}

// The job and the VM: ranks, aborts, exit status, synchronization.
void bind_runtime(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  m.def("world_rank", &comm::world_rank);
  m.def("world_size", &comm::world_size);
  m.def("local_rank", &comm::local_rank);
  m.def("local_size", &comm::local_size);
  m.def("initialized", &comm::initialized);
  m.def("backend_name", &comm::backend_name);
  m.def("comm_stats", &stats_dict);
  // The metadata exchanges (agreements, shapes) this rank made, apart from comm_stats, whose
  // dicts tests compare whole between calls that agree on arguments and calls that do not.
  m.def("metadata_exchanges", [] {
    py::gil_scoped_release release;
    return comm::stats().metadata;
  });
  m.def("abort", [](const std::string& message, int code) { comm::abort_job(message, code); }, py::arg("message"),
        py::arg("exit_code") = 1);
  m.def("raised_on_every_rank", &comm::raised_on_every_rank, py::arg("message"));
  // No read twins while it lives, on this thread (global_tensor.h): for benches and tests
  // that measure what twins cost.
  struct NoReadTwinsScope {
    std::unique_ptr<NoReadTwins> scope;
  };
  py::class_<NoReadTwinsScope>(m, "NoReadTwins")
      .def(py::init<>())
      .def("__enter__", [](NoReadTwinsScope& s) { s.scope = std::make_unique<NoReadTwins>(); })
      .def("__exit__", [](NoReadTwinsScope& s, py::args) { s.scope.reset(); });
  // comm::Among while it lives, on this thread: torch.distributed's collectives over a group
  // that is not the world, made by its ranks alone.
  struct AmongScope {
    std::vector<int> ranks;
    std::unique_ptr<comm::Among> scope;
  };
  py::class_<AmongScope>(m, "Among")
      .def(py::init([](std::vector<int> ranks) { return AmongScope{std::move(ranks), nullptr}; }), py::arg("ranks"))
      .def("__enter__", [](AmongScope& s) { s.scope = std::make_unique<comm::Among>(s.ranks); })
      .def("__exit__", [](AmongScope& s, py::args) { s.scope.reset(); });
  // An error of queued work that nothing read is reported at exit (meshflow/__init__.py); the
  // process must still end non-zero, as an uncaught exception would. The status is set by a C
  // exit handler registered at import, so it runs after every handler registered later (MPI's
  // finalize among them) and after Python's own, which it leaves to run.
  static std::atomic<int> exit_status{0};
  std::atexit([] {
    if (const int code = exit_status.load()) {
      std::fflush(nullptr);
      _exit(code);
    }
  });
  m.def("fail_at_exit", [](int code) { exit_status.store(code); }, py::arg("exit_code") = 1);
  // A thread that waits for another's issuing lock, or for the workers to catch up (vm.h),
  // lets the GIL go meanwhile: the holder may need it (a hook in backward), and other Python
  // threads may run.
  vm::set_issuing_wait([](const std::function<void()>& wait) {
    if (PyGILState_Check()) {
      py::gil_scoped_release release;
      wait();
    } else {
      wait();
    }
  });
  m.def("release_host_cache", &release_host_cache);
  m.def("synchronize", &vm::synchronize, release());
  m.def(
      "synchronize_if_allocated_at_issue",
      [](const std::vector<Var>& values) {
        std::vector<Tensor> data;
        for (const Var& v : values) data.push_back(v.data());
        vm::synchronize_if_allocated_at_issue(data);
      },
      release());
  m.def("finish_queued_work", &vm::finish, release());
  m.def("mark_exiting", &comm::mark_exiting);
  m.def("set_testdev_latency_us", &device::testdev::set_latency_us, py::arg("us"));
  m.def("testdev_latency_us", &device::testdev::latency_us);
  m.def("next_sequence", &next_sequence);  // before an in-place write's calls (Var.assign's since)
  m.def("launch_blocking", &vm::blocking);
  m.def("set_launch_blocking", &vm::set_blocking, py::arg("on"), release());
  // Every rank passes its error ("" for none); all raise the first one together. Also a
  // barrier over the world. Ranks in calls of different names (one in a torch.distributed
  // collective under `if rank == 0:`, another in a barrier) raise together naming each
  // rank's call: the call's hash is its name's (FNV-1a, the same on every rank).
  m.def(
      "agree",
      [](const std::string& error, const std::string& call) {
        uint64_t hash = 14695981039346656037ull;
        for (unsigned char c : call) hash = (hash ^ c) * 1099511628211ull;
        comm::agree(error, hash, call);
      },
      py::arg("error"), py::arg("call"), release());
}

// Device memory: statistics, limits, caches, kernel times.
void bind_memory(py::module_& m) {
  using release = py::call_guard<py::gil_scoped_release>;
  m.def(
      "memory_stats",
      [](const std::string& type, int index) {
        const device::MemoryStats s = device_at(type, index).memory_stats();
        py::dict d;
        d["in_use_bytes"] = s.in_use_bytes;
        d["cached_bytes"] = s.cached_bytes;
        d["peak_bytes"] = s.peak_bytes;
        d["limit_bytes"] = s.limit_bytes == kNoMemoryLimit ? py::object(py::none()) : py::object(py::int_(s.limit_bytes));
        return d;
      },
      py::arg("type"), py::arg("index"));
  m.def(
      "set_memory_limit",
      [](const std::string& type, int index, std::optional<size_t> bytes) {
        device_at(type, index).set_memory_limit(bytes ? *bytes : kNoMemoryLimit);
      },
      py::arg("type"), py::arg("index"), py::arg("bytes"));
  m.def("release_cached_memory", [](const std::string& type, int index) { device_at(type, index).release_cached_memory(); },
        py::arg("type"), py::arg("index"), release());
  m.def("parse_memory_size", &parse_memory_size, py::arg("text"), py::arg("what"));
  m.def("memory_limit_from_env", [] {
    const size_t limit = memory_limit_from_env();
    return limit == kNoMemoryLimit ? py::object(py::none()) : py::object(py::int_(limit));
  });
  m.def("reset_peak_memory_stats", [](const std::string& type, int index) { device_at(type, index).reset_peak(); },
        py::arg("type"), py::arg("index"));
  m.def(
      "kernel_times",
      [](const std::string& type, int index, bool reset) {
        std::vector<device::KernelTime> times;
        {
          py::gil_scoped_release unlocked;  // waits for the GPU
          times = device::get(type, index).kernel_times(reset);
        }
        py::list out;
        for (const device::KernelTime& k : times) out.append(py::make_tuple(k.op, k.calls, k.ms));
        return out;
      },
      py::arg("type"), py::arg("index"), py::arg("reset"));
}

}  // namespace
}  // namespace mf

PYBIND11_MODULE(_C, m) {
  using namespace mf;
  m.doc() = "meshflow's C++ core";

  bind_errors(m);
  bind_values(m);
  bind_autograd(m);
  bind_global(m);
  bind_optim(m);
  bind_graph(m);
  bind_functions(m);
  bind_ops(m);
  bind_random(m);
  bind_runtime(m);
  bind_memory(m);
  bind_op_calls(m);  // after Var
}
