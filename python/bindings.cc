// Copyright 2026 The meshflow Authors.
// The Python extension meshflow._C: thin bindings over the C++ API. The Python layer
// (python/meshflow) shapes them into the user API. C++ exceptions become Python ones
// (std::invalid_argument -> ValueError, std::out_of_range -> IndexError). Calls that
// communicate release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "meshflow/boxing/plan.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/allocator.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/dispatch.h"

namespace py = pybind11;

namespace mf {
namespace {

DType dtype_of(const py::dtype& d) {
  if (d.is(py::dtype::of<float>())) return DType::kFloat32;
  if (d.is(py::dtype::of<double>())) return DType::kFloat64;
  if (d.is(py::dtype::of<int32_t>())) return DType::kInt32;
  if (d.is(py::dtype::of<int64_t>())) return DType::kInt64;
  if (!py::cast<bool>(d.attr("isnative"))) {
    throw std::invalid_argument("arrays of non-native byte order (" + py::cast<std::string>(d.attr("str")) +
                                ") are not supported; convert with .astype(a.dtype.newbyteorder('='))");
  }
  return dtype_from_name(py::cast<std::string>(d.attr("name")));  // throws, naming the dtype and the supported ones
}

py::dtype numpy_dtype(DType d) {
  return visit_dtype(d, [](auto v) { return py::dtype::of<decltype(v)>(); });
}

// Wraps a C-contiguous array without copying; the tensor keeps the array alive.
Tensor from_numpy(py::array array) {
  if (!(array.flags() & py::array::c_style)) array = py::array::ensure(array, py::array::c_style);
  DType dtype = dtype_of(array.dtype());
  Shape shape(array.shape(), array.shape() + array.ndim());
  PyObject* owner = array.ptr();
  Py_INCREF(owner);
  std::shared_ptr<void> keep(nullptr, [owner](void*) {
    py::gil_scoped_acquire gil;
    Py_DECREF(owner);
  });
  return Tensor::wrap(array.mutable_data(), shape, dtype, std::move(keep));
}

// A NumPy view of the tensor's memory; the array keeps the storage alive.
py::array to_numpy(const Tensor& t) {
  auto* keep = new std::shared_ptr<void>(t.storage());
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<void>*>(p); });
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  return py::array(numpy_dtype(t.dtype()), shape, t.data(), base);
}

py::dict stats_dict() {
  const comm::CommStats& s = comm::stats();
  py::dict d;
  d["all_reduce"] = s.all_reduce;
  d["all_gather"] = s.all_gather;
  d["reduce_scatter"] = s.reduce_scatter;
  d["all_to_all"] = s.all_to_all;
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
      attrs.set(k, py::cast<int64_t>(value));
    } else if (py::isinstance<py::float_>(value)) {
      attrs.set(k, py::cast<double>(value));
    } else if (py::isinstance<DType>(value)) {
      attrs.set(k, py::cast<DType>(value));
    } else {
      attrs.set(k, py::cast<std::vector<int64_t>>(value));
    }
  }
  return attrs;
}

// Runs op `name` on local tensors, or on global ones (then `placement` and `sbp` constrain
// creation ops and requested output layouts).
py::list apply(const std::string& name, const py::list& inputs, const py::dict& attr_dict, py::object placement,
               py::object sbp) {
  const OpDef& op = find_op(name);
  const Attrs attrs = attrs_of(attr_dict);
  bool global = !placement.is_none();
  for (const auto& in : inputs) global = global || py::isinstance<GlobalTensor>(in);
  py::list out;
  if (!global) {
    std::vector<Tensor> locals;
    for (const auto& in : inputs) locals.push_back(py::cast<Tensor>(in));
    std::vector<Tensor> results;
    {
      py::gil_scoped_release release;
      results = apply_local(op, locals, attrs);
    }
    for (Tensor& t : results) out.append(py::cast(std::move(t)));
    return out;
  }
  std::vector<GlobalTensor> globals;
  for (const auto& in : inputs) {
    if (!py::isinstance<GlobalTensor>(in)) {
      op_error(name, "mixes local and global tensors; convert the local ones with to_global() first");
    }
    globals.push_back(py::cast<GlobalTensor>(in));
  }
  Constraints constraints;
  if (!placement.is_none()) constraints.placement = py::cast<Placement>(placement);
  if (!sbp.is_none()) constraints.outputs.push_back(py::cast<NdSbp>(sbp));
  std::vector<GlobalTensor> results;
  {
    py::gil_scoped_release release;
    results = apply_global(op, globals, attrs, constraints);
  }
  for (GlobalTensor& t : results) out.append(py::cast(std::move(t)));
  return out;
}

}  // namespace
}  // namespace mf

PYBIND11_MODULE(_C, m) {
  using namespace mf;
  m.doc() = "meshflow's C++ core";
  using release = py::call_guard<py::gil_scoped_release>;

  py::enum_<DType>(m, "DType")
      .value("float32", DType::kFloat32)
      .value("float64", DType::kFloat64)
      .value("int32", DType::kInt32)
      .value("int64", DType::kInt64);

  py::class_<Tensor>(m, "LocalTensor")
      .def_static("from_numpy", &from_numpy, py::arg("array"))
      .def("numpy", &to_numpy)
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

  py::class_<GlobalTensor>(m, "GlobalTensor")
      .def_property_readonly("shape", [](const GlobalTensor& t) { return py::tuple(py::cast(t.shape())); })
      .def_property_readonly("dtype", [](const GlobalTensor& t) { return std::string(dtype_name(t.dtype())); })
      .def_property_readonly("placement", &GlobalTensor::placement)
      .def_property_readonly("nd_sbp", &GlobalTensor::nd_sbp)
      .def_property_readonly("local", &GlobalTensor::local);

  m.def("make_global", &make_global, py::arg("local"), py::arg("placement"), py::arg("nd_sbp"),
        py::arg("check_consistency"), release());
  m.def("global_from_full", &global_from_full, py::arg("full"), py::arg("placement"), py::arg("nd_sbp"), release());
  m.def("to_global", &to_global, py::arg("tensor"), py::arg("placement"), py::arg("nd_sbp"), release());
  m.def("gather_full", &gather_full, py::arg("tensor"), release());
  m.def("consistency_check_enabled", &consistency_check_enabled);

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

  m.def("apply", &apply, py::arg("name"), py::arg("inputs"), py::arg("attrs"), py::arg("placement") = py::none(),
        py::arg("sbp") = py::none());
  m.def("op_names", &op_names);
  m.def("manual_seed", &manual_seed, py::arg("seed"));
  m.def(
      "next_random_call",
      [](int64_t numel) {
        const RandomCall call = next_random_call(numel);
        return py::make_tuple(call.seed, call.offset);
      },
      py::arg("numel"));
  m.def("infer_cache_stats", [] {
    InferCacheStats s = infer_cache_stats();
    py::dict d;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    return d;
  });

  m.def("world_rank", &comm::world_rank);
  m.def("world_size", &comm::world_size);
  m.def("initialized", &comm::initialized);
  m.def("backend_name", &comm::backend_name);
  m.def("comm_stats", &stats_dict);
  m.def("abort", [](const std::string& message, int code) { comm::abort_job(message, code); }, py::arg("message"),
        py::arg("exit_code") = 1);
  m.def("release_host_cache", &release_host_cache);
}
