// Copyright 2026 The meshflow Authors.
// Indexing by tensors of positions: the two ops that torch's advanced indexing, index_put,
// index_select, scatter, scatter_add, index_add and one_hot are composed of
// (python/meshflow/_ops_index.py). Signatures (B, ... -> B implied):
//   flat_index(i_1, ..., i_m int32/int64; sizes [s_1..s_m], dims, wrap = false) -> int64 of
//     the inputs' broadcast shape: the row-major position sum_k i_k * prod(s_{k+1..m}) of
//     the element the indices name in a tensor of shape sizes. With wrap, a negative index
//     counts from the end (i + s); an index outside [0, s) (after wrapping) raises torch's
//     "index 5 is out of bounds for dimension 1 with size 3", dimension dims[k] (k when no
//     dims are given): the one check of the user's indices, made where they are read.
//     S(k) -> S(k) for each output dim k (inputs split on their aligned dims, or B where
//     broadcast: kernel::broadcast_split_signatures).
//   index_put(x, positions int32/int64, values[positions.shape]; accumulate = false) ->
//     x's shape and dtype: x with values written at the flat row-major positions (added to
//     x there with accumulate), in the order of the positions, so that of repeated positions
//     the last value stays (accumulate: the values are added in that order: deterministic).
//     Any dtype, bool too on the CPU (masks written by x[i] = m; accumulated bools are or-ed).
//     S(k), B, B -> S(k) for each dim k of x: each rank writes the positions its part holds;
//     P, B, P -> P: each rank writes (adds) its partial values, whose sum is the values.
//     Its gradient: dx = dy (accumulate) or dy with zeros written at the positions, and
//     dvalues = dy at the positions (a gather of the flat dy); it reads no value of x, so x
//     may be written in place (fn::write_in_place: x[idx] = v costs what it writes).
//   index_extreme(x, positions int32/int64, values[positions.shape]; minimum = false,
//     include_self = false) -> x's shape and dtype: at each position the largest (with minimum
//     the smallest) of the values written there and, with include_self, x's own element;
//     where no position points, x's element. A NaN among them wins, as torch's amax/amin.
//     The reduction of scatter_reduce and index_reduce's 'amax' and 'amin' on the CPU, one
//     pass over the values (their Python composition in rounds took one index_put per
//     repetition of a position). B, B, B -> B only.
//     Its gradient, as torch's: dy at each position shared evenly among the values and x's
//     element (without include_self too, as torch) that equal the result there; dx = dy
//     where no position points (and, with include_self, x's share where it ties).
// Positions of index_put and index_extreme out of [0, numel(x)) raise an error from the kernel of the rank that
// holds them, before it writes anything (the Python compositions never make such positions).
// index_put's kernel is a sequential loop: its order defines the result.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/core/error.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kFlatIndex = "flat_index";
constexpr const char* kIndexPut = "index_put";
constexpr const char* kIndexExtreme = "index_extreme";

// A bool attribute, false when absent (a mistyped one throws naming it).
bool flag(const Attrs& attrs, const std::string& key) { return attrs.has(key) && attrs.get_bool(key); }

void expect_index_dtype(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (m.dtype != DType::kInt32 && m.dtype != DType::kInt64) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected int32 or int64");
  }
}

// ---------------------------------------------------------------------------------------------
// flat_index

std::vector<TensorMeta> flat_index_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const std::vector<int64_t>& sizes = attrs.get_ints("sizes");
  if (in.empty() || in.size() != sizes.size()) {
    op_error(kFlatIndex, "takes one index tensor per size; got " + std::to_string(in.size()) + " tensors and " +
                             std::to_string(sizes.size()) + " sizes");
  }
  if (attrs.has("dims") && attrs.get_ints("dims").size() != sizes.size()) {
    op_error(kFlatIndex, "dims names " + std::to_string(attrs.get_ints("dims").size()) + " dims for " +
                             std::to_string(sizes.size()) + " sizes");
  }
  flag(attrs, "wrap");  // checked here, before any rank runs the kernel
  Shape out;
  for (size_t k = 0; k < in.size(); ++k) {
    expect_index_dtype(kFlatIndex, in[k], "index " + std::to_string(k));
    if (sizes[k] < 0) op_error(kFlatIndex, "size " + std::to_string(sizes[k]) + " is negative");
    out = k == 0 ? in[k].shape : kernel::broadcast_shapes(kFlatIndex, out, in[k].shape);
  }
  return {{out, DType::kInt64}};
}

std::vector<Signature> flat_index_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                             const Attrs&) {
  return kernel::broadcast_split_signatures(in, out[0].shape);
}

std::vector<Tensor> flat_index_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const std::vector<int64_t>& sizes = ctx.attrs.get_ints("sizes");
  const bool wrap = flag(ctx.attrs, "wrap");
  const Shape& shape = ctx.output_boxes[0].extent;
  const size_t nd = shape.size();
  Tensor out = ctx.output(0, shape, DType::kInt64);
  int64_t* po = out.data_as<int64_t>();
  const int64_t n = numel(shape);
  std::fill(po, po + n, int64_t{0});
  for (size_t k = 0; k < in.size(); ++k) {
    const Shape strides = kernel::broadcast_strides(in[k].shape(), shape);
    const int64_t size = sizes[k];
    kernel::visit_index(in[k].dtype(), [&](auto iv) {
      using I = decltype(iv);
      const I* idx = in[k].data_as<I>();
      // Index k's value at output element i, read through its broadcast strides.
      auto value_at = [&](int64_t i) {
        int64_t rest = i, at = 0;
        for (size_t d = nd; d-- > 0;) {
          at += rest % shape[d] * strides[d];
          rest /= shape[d];
        }
        return static_cast<int64_t>(idx[at]);
      };
      // Its position along the dim (a negative one from the end with wrap), bad outside [0, size).
      auto position = [&](int64_t v) { return v + (wrap && v < 0 ? size : 0); };
      std::atomic<int64_t> first_bad{n};  // the first bad element in row-major order
      if (in[k].shape() == shape) {
        // Index k has the output's shape (an index_select, x[idx]): one pass that vectorizes,
        // without value_at's divisions, which cost more than the rest; then, only where an
        // index was bad, the first one.
        bool bad = false;
#pragma omp simd reduction(| : bad)
        for (int64_t i = 0; i < n; ++i) {
          const int64_t v = position(static_cast<int64_t>(idx[i]));
          bad |= v < 0 || v >= size;
          po[i] = po[i] * size + v;
        }
        for (int64_t i = 0; bad && first_bad.load() == n; ++i) {
          const int64_t v = position(static_cast<int64_t>(idx[i]));
          if (v < 0 || v >= size) first_bad = i;
        }
      } else if (n > 0) {
        // Broadcast (the positions of x[idx, :], of index_add's and scatter's slices): row by
        // row of the output's last dim, the row's start in index k found once (value_at's
        // divisions per element cost several times the rest), its elements a strided pass
        // that vectorizes; then, only where an index was bad, the first one.
        const int64_t width = shape[nd - 1], step = strides[nd - 1], rows = n / width;
        constexpr int64_t kRows = 64;  // rows per task
        std::atomic<bool> bad{false};
        kernel::parallel_for((rows + kRows - 1) / kRows, n > kernel::kParallelGrain, [&](int64_t t) {
          bool seen = false;
          for (int64_t r = t * kRows, end = std::min(rows, r + kRows); r < end; ++r) {
            const I* row = idx;
            for (int64_t rest = r, d = static_cast<int64_t>(nd) - 1; d-- > 0;) {
              row += rest % shape[d] * strides[d];
              rest /= shape[d];
            }
            int64_t* out_row = po + r * width;
#pragma omp simd reduction(| : seen)
            for (int64_t j = 0; j < width; ++j) {
              const int64_t v = position(static_cast<int64_t>(row[j * step]));
              seen |= v < 0 || v >= size;
              out_row[j] = out_row[j] * size + v;
            }
          }
          if (seen) bad = true;
        });
        for (int64_t i = 0; bad && first_bad.load() == n; ++i) {
          const int64_t v = position(value_at(i));
          if (v < 0 || v >= size) first_bad = i;
        }
      }
      if (first_bad.load() < n) {
        const int64_t dim = ctx.attrs.has("dims") ? ctx.attrs.get_ints("dims")[k] : static_cast<int64_t>(k);
        index_error(kFlatIndex, "index " + std::to_string(value_at(first_bad.load())) +
                                    " is out of bounds for dimension " + std::to_string(dim) + " with size " +
                                    std::to_string(size));
      }
    });
  }
  return {out};
}

// ---------------------------------------------------------------------------------------------
// index_put

// The output meta of an op of (x, positions, values) writing values at positions of x, after
// checking them and the op's bool attributes `flags`.
std::vector<TensorMeta> written_at_positions(const char* op, const std::vector<TensorMeta>& in, const Attrs& attrs,
                                             const std::vector<std::string>& flags) {
  kernel::expect_inputs(op, in, 3);
  expect_index_dtype(op, in[1], "positions");
  if (in[2].shape != in[1].shape) {
    op_error(op, "values have shape " + to_string(in[2].shape) + "; expected the positions' shape " +
                     to_string(in[1].shape));
  }
  kernel::expect_same_dtype(op, in[0], in[2]);
  for (const std::string& key : flags) flag(attrs, key);
  return {in[0]};
}

std::vector<TensorMeta> index_put_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  return written_at_positions(kIndexPut, in, attrs, {"accumulate"});
}

std::vector<Signature> index_put_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                            const Attrs&) {
  std::vector<Signature> sigs;
  const Sbp b = Sbp::broadcast();
  for (int k = 0; k < static_cast<int>(in[0].shape.size()); ++k) sigs.push_back({{Sbp::split(k), b, b}, {Sbp::split(k)}});
  // Linear in (x, values) together: every rank writes (adds) its partial values.
  sigs.push_back({{Sbp::partial_sum(), b, Sbp::partial_sum()}, {Sbp::partial_sum()}});
  return sigs;
}

template <typename T>
bool is_nan(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

// The first of positions[0, n) out of [0, total), thrown before a kernel writes anything.
template <typename I>
void expect_positions_in_range(const std::string& op, const I* pos, int64_t n, int64_t total) {
  const I* bad = std::find_if(pos, pos + n, [total](I p) { return p < 0 || p >= total; });
  if (bad != pos + n) {
    op_error(op, "position " + std::to_string(*bad) + " is out of range; expected positions in [0, " +
                     std::to_string(total) + ")");
  }
}

std::vector<Tensor> index_put_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& positions = in[1];
  const Tensor& values = in[2];
  const bool accumulate = flag(ctx.attrs, "accumulate");
  const Shape& logical = ctx.inputs[0].shape;
  const Box& box = ctx.input_boxes[0];
  const int64_t total = numel(logical), n = positions.numel();
  const size_t nd = logical.size();
  Tensor out = ctx.output(0, x.shape(), x.dtype());
  kernel::visit_index(positions.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* pos = positions.data_as<I>();
    expect_positions_in_range(kIndexPut, pos, n, total);
    auto write = [&](auto v) {  // bool: writes masks (x[m1] = m2); accumulate is an or
      using T = decltype(v);
      const T* px = x.data_as<T>();
      const T* pv = values.data_as<T>();
      T* po = out.data_as<T>();
      if (po != px) std::copy(px, px + x.numel(), po);
      if (x.numel() == total) {  // this rank holds the whole tensor: positions are local
        for (int64_t i = 0; i < n; ++i) {
          T& o = po[pos[i]];
          o = accumulate ? wrapping(o, pv[i], std::plus<>()) : pv[i];
        }
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        // The logical position's coordinates, kept when they lie in this rank's box.
        int64_t rest = static_cast<int64_t>(pos[i]), local = 0, stride = 1;
        bool here = true;
        for (size_t d = nd; d-- > 0;) {
          const int64_t c = rest % logical[d] - box.start[d];
          rest /= logical[d];
          if (c < 0 || c >= box.extent[d]) {
            here = false;
            break;
          }
          local += c * stride;
          stride *= box.extent[d];
        }
        if (!here) continue;
        po[local] = accumulate ? wrapping(po[local], pv[i], std::plus<>()) : pv[i];
      }
    };
    is_complex(x.dtype()) ? visit_complex(x.dtype(), write) : visit_with_bool(x.dtype(), write);
  });
  return {out};
}

std::vector<Var> index_put_grad(const GradContext& g) {
  const Var& positions = g.inputs[1];
  const Var& dy = g.grad_outputs[0];
  const bool accumulate = flag(g.attrs, "accumulate");
  Var dx, dvalues;
  if (g.needs_grad[0]) {
    dx = accumulate ? dy : call1(kIndexPut, {dy, positions, fn::zeros_like(g.inputs[2])}, {{"accumulate", false}});
  }
  if (g.needs_grad[2]) {
    const Var flat = call1("gather", {fn::reshape(dy, {-1}), fn::reshape(positions, {-1})}, {{"dim", int64_t{0}}});
    dvalues = fn::reshape(flat, positions.shape());
  }
  return {dx, Var(), dvalues};
}

// ---------------------------------------------------------------------------------------------
// index_extreme

std::vector<TensorMeta> index_extreme_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  return written_at_positions(kIndexExtreme, in, attrs, {"minimum", "include_self"});
}

std::vector<Signature> index_extreme_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                                const Attrs&) {
  return {};  // a position's values may lie on any rank: all-broadcast only
}

std::vector<Tensor> index_extreme_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& positions = in[1];
  const Tensor& values = in[2];
  const bool minimum = flag(ctx.attrs, "minimum"), include_self = flag(ctx.attrs, "include_self");
  const int64_t total = x.numel(), n = positions.numel();
  Tensor out = ctx.output(0, x.shape(), x.dtype());
  kernel::visit_index(positions.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* pos = positions.data_as<I>();
    expect_positions_in_range(kIndexExtreme, pos, n, total);
    visit_numbers(x.dtype(), [&](auto v) {
      using T = decltype(v);
      const T* px = x.data_as<T>();
      const T* pv = values.data_as<T>();
      T* po = out.data_as<T>();
      if (po != px) std::copy(px, px + total, po);
      // Without include_self a position's first value replaces x's element.
      std::vector<bool> written(include_self ? 0 : static_cast<size_t>(total));
      for (int64_t i = 0; i < n; ++i) {
        T& o = po[pos[i]];
        const T value = pv[i];
        if (!include_self && !written[static_cast<size_t>(pos[i])]) {
          written[static_cast<size_t>(pos[i])] = true;
          o = value;
        } else if ((minimum ? value < o : value > o) || is_nan(value)) {
          o = value;
        }
      }
    });
  });
  return {out};
}

std::vector<Var> index_extreme_grad(const GradContext& g) {
  const Var& x = g.inputs[0];
  const Var& positions = g.inputs[1];
  const Var& values = g.inputs[2];
  const Var& out = g.outputs[0];
  const Var& dy = g.grad_outputs[0];
  const bool include_self = flag(g.attrs, "include_self");
  const Attrs along{{"dim", int64_t{0}}};
  const Var flat_positions = fn::reshape(positions, {-1});
  auto at_positions = [&](const Var& t) {  // t's elements at the positions, in the positions' shape
    return fn::reshape(call1("gather", {fn::reshape(t, {-1}), flat_positions}, along), positions.shape());
  };
  // The values and x's elements that equal the result, and how many tie at each element: x's
  // counted without include_self too, as torch counts it.
  const Var value_ties = fn::cast(fn::eq(values, at_positions(out)), dy.dtype());
  const Var self_ties = fn::cast(fn::eq(x, out), dy.dtype());
  const Var ties = call1(kIndexPut, {self_ties, positions, value_ties}, {{"accumulate", true}});
  const Var share = fn::div(dy, fn::maximum(ties, fn::ones_like(ties)));
  Var dx, dvalues;
  if (g.needs_grad[0]) {
    dx = include_self ? fn::mul(self_ties, share)
                      : call1(kIndexPut, {dy, positions, fn::zeros_like(value_ties)}, {{"accumulate", false}});
  }
  if (g.needs_grad[2]) dvalues = fn::mul(value_ties, at_positions(share));
  return {dx, Var(), dvalues};
}

}  // namespace

void register_index_ops(OpRegistry& r) {
  constexpr bool kChecksData = true;  // the kernels reject indices and positions out of range
  r.add(make_op(kFlatIndex, flat_index_infer, flat_index_signatures, flat_index_kernel, kChecksData));
  OpDef index_put = with_grad(
      make_op(kIndexPut, index_put_infer, index_put_signatures, index_put_kernel, kChecksData), index_put_grad);
  index_put.small_ints = true;
  index_put.booleans = true;
  index_put.complex = true;
  // Its gradient reads only the positions, which callers derive from an index (x[i] = v):
  // a later write to x or to the values (x[i] += v writes the view it stores back) does not
  // change it, as torch's index_put_, whose backward saves the indices alone.
  index_put.grad_reads = kReadsNothing;
  r.add(std::move(index_put));
  OpDef index_extreme = with_grad(make_op(kIndexExtreme, index_extreme_infer, index_extreme_signatures,
                                          index_extreme_kernel, kChecksData),
                                  index_extreme_grad);
  index_extreme.small_ints = true;
  r.add(std::move(index_extreme));
}

}  // namespace mf
