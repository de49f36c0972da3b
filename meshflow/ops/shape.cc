// Copyright 2026 The meshflow Authors.
// Shape ops: they move elements and compute nothing, so every dtype works and partial
// values pass through (P -> P). Python spells transpose, x.T, view, narrow and indexing
// with these.
//   permute(x; dims)                       output dim i is input dim dims[i]:  S(dims[i]) -> S(i)
//   reshape(x; shape)                      one -1 inferred:                    S(k) -> S(j), see below
//   slice(x; starts, stops, steps, drop_dims)                                  S(k) -> S(k') on whole dims
//   cat(x0, x1, ...; dim)                  S(k), ..., S(k) -> S(k) for k != dim
//   stack(x0, x1, ...; dim)                S(k), ..., S(k) -> S(k), or S(k + 1) from dim on
// Not listed though valid: S(k) -> P wherever S(k) is not carried through (each rank writes
// its own elements into zeros). It costs nothing at this op, so cost-based inference would
// always take it, and the consumer then pays a reduction of the whole output: an
// all-reduce, twice the bytes of the all-gather it replaces (slicing q out of a split qkv
// would turn the attention scores partial).
#include <algorithm>

#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

// dst[i] = src[base + sum_d i[d] * strides[d]] for every index i of `shape`; dst is contiguous.
template <typename T>
void gather_strided(const T* src, int64_t base, const Shape& strides, T* dst, const Shape& shape) {
  const int64_t n = numel(shape);
  if (n == 0) return;
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t inner = nd ? shape[nd - 1] : 1, step = nd ? strides[nd - 1] : 0;
  const int64_t rows = n / inner;
#pragma omp parallel for if (n > kernel::kParallelGrain)
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rest = r, offset = base;
    for (int64_t d = nd - 2; d >= 0; --d) {
      offset += rest % shape[d] * strides[d];
      rest /= shape[d];
    }
    const T* ps = src + offset;
    T* pd = dst + r * inner;
    if (step == 1) {
      std::copy(ps, ps + inner, pd);
    } else {
      for (int64_t j = 0; j < inner; ++j) pd[j] = ps[j * step];
    }
  }
}

Tensor gather_strided(const Tensor& src, int64_t base, const Shape& strides, const Shape& shape) {
  Tensor out = Tensor::empty(shape, src.dtype());
  visit_dtype(src.dtype(), [&](auto v) {
    using T = decltype(v);
    gather_strided(src.data_as<T>(), base, strides, out.data_as<T>(), shape);
  });
  return out;
}

Sbp split(int64_t dim) { return Sbp::split(static_cast<int>(dim)); }

std::vector<Signature> with_partial(std::vector<Signature> sigs, size_t n_inputs) {
  sigs.push_back({std::vector<Sbp>(n_inputs, Sbp::partial_sum()), {Sbp::partial_sum()}});
  return sigs;
}

// ---------------------------------------------------------------------------------------
// permute

constexpr const char* kPermute = "permute";

// The "dims" attribute, normalized; throws unless it is a permutation of [0, ndim).
std::vector<int64_t> permutation(const Attrs& attrs, int64_t ndim) {
  std::vector<int64_t> dims = attrs.get_ints("dims");
  if (static_cast<int64_t>(dims.size()) != ndim) {
    op_error(kPermute, "dims " + to_string(dims) + " has " + std::to_string(dims.size()) + " entries for a tensor of " +
                           std::to_string(ndim) + " dims; expected one entry per dim");
  }
  std::vector<bool> seen(ndim, false);
  for (int64_t& d : dims) {
    d = kernel::normalize_dim(kPermute, d, ndim);
    if (seen[d]) {
      op_error(kPermute, "dims " + to_string(attrs.get_ints("dims")) + " names dim " + std::to_string(d) +
                             " twice; expected a permutation of the dims");
    }
    seen[d] = true;
  }
  return dims;
}

OpDef permute_op() {
  OpDef op;
  op.name = kPermute;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kPermute, in, 1);
    Shape out;
    for (int64_t d : permutation(attrs, static_cast<int64_t>(in[0].shape.size()))) out.push_back(in[0].shape[d]);
    return std::vector<TensorMeta>{{out, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const std::vector<int64_t> dims = permutation(attrs, static_cast<int64_t>(in[0].shape.size()));
    std::vector<Signature> sigs(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) sigs[dims[i]] = {{split(dims[i])}, {split(i)}};  // in input-dim order
    return with_partial(sigs, 1);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const std::vector<int64_t> dims = permutation(ctx.attrs, in[0].ndim());
    const Shape in_strides = row_major_strides(in[0].shape());
    Shape strides;
    for (int64_t d : dims) strides.push_back(in_strides[d]);
    return std::vector<Tensor>{gather_strided(in[0], 0, strides, ctx.output_boxes[0].extent)};
  };
  return op;
}

// ---------------------------------------------------------------------------------------
// reshape
//
// S(k) -> S(j) is valid exactly when input dim k passes through whole: in[k] == out[j] and
// the dims before it hold as many elements on both sides (prod in[0, k) == prod out[0, j)),
// so each split part is the same run of rows of the same flat layout. A dim that is split
// into several (in[k] == out[j] * r) or merged from several is not listed: its parts line
// up only when every split of out[j] (resp. in[k]) is even (in[k] = 3 * 2 into 2 parts
// gives 3 + 3 rows; out[j] = 3 gives 2 + 1, that is 4 + 2 rows), and signatures are
// listed without knowing the hierarchy.

constexpr const char* kReshape = "reshape";

Shape reshape_target(const Shape& in, const Attrs& attrs) {
  Shape out = attrs.get_ints("shape");
  const int64_t n = numel(in);
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1 && inferred < 0) {
      inferred = static_cast<int64_t>(i);
    } else if (out[i] < 0) {
      op_error(kReshape, "shape " + to_string(out) + " is invalid; expected sizes >= 0 and at most one -1");
    } else {
      known *= out[i];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || n % known != 0) {
      op_error(kReshape, "cannot infer the -1 in shape " + to_string(out) + " for an input of shape " + to_string(in) +
                             " (" + std::to_string(n) + " elements)");
    }
    out[inferred] = n / known;
  } else if (known != n) {
    op_error(kReshape, "shape " + to_string(out) + " (" + std::to_string(known) +
                           " elements) is invalid for an input of shape " + to_string(in) + " (" + std::to_string(n) +
                           " elements); expected as many elements");
  }
  return out;
}

std::vector<Signature> reshape_signatures(const Shape& in, const Shape& out) {
  std::vector<Signature> sigs;
  int64_t in_before = 1;
  for (size_t k = 0; k < in.size(); in_before *= in[k++]) {
    int64_t out_before = 1;
    for (size_t j = 0; j < out.size(); out_before *= out[j++]) {
      if (in_before == out_before && in[k] == out[j]) sigs.push_back({{split(k)}, {split(j)}});
    }
  }
  return with_partial(sigs, 1);
}

OpDef reshape_op() {
  OpDef op;
  op.name = kReshape;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kReshape, in, 1);
    return std::vector<TensorMeta>{{reshape_target(in[0].shape, attrs), in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return reshape_signatures(in[0].shape, out[0].shape);
  };
  // The local part is a run of whole rows of the same flat layout: the result is a view.
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& extent = ctx.output_boxes[0].extent;
    if (numel(extent) != in[0].numel()) {
      op_error(kReshape, "local part " + to_string(in[0].shape()) + " cannot form the output part " +
                             to_string(extent) + "; the signature is not valid for these shapes");
    }
    return std::vector<Tensor>{in[0].view(0, extent)};
  };
  return op;
}

// ---------------------------------------------------------------------------------------
// slice: per input dim d the elements start[d], start[d] + step[d], ... below stop[d], with
// 0 <= start <= stop <= size and step >= 1 (Python resolves negative and clamped indices);
// dims in drop_dims (integer indices) must hold one element and are removed.

constexpr const char* kSlice = "slice";

struct SliceSpec {
  Shape start, step, count;  // per input dim
  std::vector<bool> dropped;
  Shape out;
};

SliceSpec slice_spec(const Shape& in, const Attrs& attrs) {
  const size_t nd = in.size();
  SliceSpec s{attrs.get_ints("starts"), attrs.get_ints("steps"), Shape(nd), std::vector<bool>(nd, false), {}};
  const Shape& stops = attrs.get_ints("stops");
  if (s.start.size() != nd || stops.size() != nd || s.step.size() != nd) {
    op_error(kSlice, "starts, stops and steps have " + std::to_string(s.start.size()) + ", " +
                         std::to_string(stops.size()) + " and " + std::to_string(s.step.size()) +
                         " entries for a tensor of shape " + to_string(in) + "; expected one per dim");
  }
  for (size_t d = 0; d < nd; ++d) {
    if (s.step[d] < 1) {
      op_error(kSlice, "step " + std::to_string(s.step[d]) + " in dim " + std::to_string(d) + "; expected a step >= 1");
    }
    if (s.start[d] < 0 || s.start[d] > stops[d] || stops[d] > in[d]) {
      op_error(kSlice, "range [" + std::to_string(s.start[d]) + ", " + std::to_string(stops[d]) + ") of dim " +
                           std::to_string(d) + " (size " + std::to_string(in[d]) +
                           ") is out of bounds; expected 0 <= start <= stop <= size");
    }
    s.count[d] = (stops[d] - s.start[d] + s.step[d] - 1) / s.step[d];
  }
  if (attrs.has("drop_dims")) {
    for (int64_t d : attrs.get_ints("drop_dims")) {
      d = kernel::normalize_dim(kSlice, d, static_cast<int64_t>(nd));
      if (s.dropped[d]) op_error(kSlice, "drop_dims names dim " + std::to_string(d) + " twice; expected each dim once");
      if (s.count[d] != 1) {
        op_error(kSlice, "dim " + std::to_string(d) + " is dropped (an integer index) but its range holds " +
                             std::to_string(s.count[d]) + " elements; expected exactly one element");
      }
      s.dropped[d] = true;
    }
  }
  for (size_t d = 0; d < nd; ++d) {
    if (!s.dropped[d]) s.out.push_back(s.count[d]);
  }
  return s;
}

OpDef slice_op() {
  OpDef op;
  op.name = kSlice;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSlice, in, 1);
    return std::vector<TensorMeta>{{slice_spec(in[0].shape, attrs).out, in[0].dtype}};
  };
  // A split dim must be kept whole: a sliced one would not cut its parts where the output's
  // balanced split cuts.
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const Shape& shape = in[0].shape;
    const SliceSpec s = slice_spec(shape, attrs);
    std::vector<Signature> sigs;
    int64_t out_dim = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (s.dropped[d]) continue;
      if (s.start[d] == 0 && s.count[d] == shape[d]) sigs.push_back({{split(d)}, {split(out_dim)}});
      ++out_dim;
    }
    return with_partial(sigs, 1);
  };
  // Output element o of a dim reads logical input element start + o * step; both are
  // shifted by where this rank's parts begin.
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const SliceSpec s = slice_spec(ctx.inputs[0].shape, ctx.attrs);
    const Box& in_box = ctx.input_boxes[0];
    const Box& out_box = ctx.output_boxes[0];
    const Shape in_strides = row_major_strides(in[0].shape());
    Shape extent, strides;  // the output's local part with dropped dims kept as size 1
    int64_t base = 0;
    for (size_t d = 0, j = 0; d < s.start.size(); ++d) {
      const int64_t out_start = s.dropped[d] ? 0 : out_box.start[j];
      extent.push_back(s.dropped[d] ? 1 : out_box.extent[j++]);
      strides.push_back(in_strides[d] * s.step[d]);
      base += (s.start[d] + out_start * s.step[d] - in_box.start[d]) * in_strides[d];
    }
    Tensor out = gather_strided(in[0], base, strides, extent);
    return std::vector<Tensor>{out.view(0, out_box.extent)};
  };
  return op;
}

// ---------------------------------------------------------------------------------------
// cat and stack: each input's local part is copied to where it lies in the output's.

void expect_some(const std::string& name, const std::vector<TensorMeta>& in) {
  if (in.empty()) op_error(name, "needs at least one tensor");
}

// Throws unless the inputs share dtype and shape, except in dim `free_dim` (-1: none).
void expect_matching(const std::string& name, const std::vector<TensorMeta>& in, int64_t free_dim) {
  for (size_t i = 1; i < in.size(); ++i) {
    kernel::expect_same_dtype(name, in[0], in[i]);
    const Shape& a = in[0].shape;
    const Shape& b = in[i].shape;
    bool same = a.size() == b.size();
    for (size_t d = 0; same && d < a.size(); ++d) same = a[d] == b[d] || static_cast<int64_t>(d) == free_dim;
    if (!same) {
      op_error(name, "input " + std::to_string(i) + " has shape " + to_string(b) + " and input 0 " + to_string(a) +
                         (free_dim < 0 ? "; expected equal shapes"
                                       : "; expected equal sizes in every dim but dim " + std::to_string(free_dim)));
    }
  }
}

// Signatures that split every input on dim k and the output on out_dim(k), for each k
// that `keeps` allows.
template <typename KeepsDim, typename OutDim>
std::vector<Signature> same_split_signatures(size_t n_inputs, int64_t ndim, KeepsDim keeps, OutDim out_dim) {
  std::vector<Signature> sigs;
  for (int64_t k = 0; k < ndim; ++k) {
    if (keeps(k)) sigs.push_back({std::vector<Sbp>(n_inputs, split(k)), {split(out_dim(k))}});
  }
  return with_partial(sigs, n_inputs);
}

// The output's local part from parts[i], which lies at logical position starts[i].
Tensor assemble(const std::vector<Tensor>& parts, const std::vector<Shape>& starts, const Box& out_box, DType dtype) {
  Tensor out = Tensor::empty(out_box.extent, dtype);
  for (size_t i = 0; i < parts.size(); ++i) {
    Shape at = starts[i];
    for (size_t d = 0; d < at.size(); ++d) at[d] -= out_box.start[d];
    copy_box(parts[i], Box::whole(parts[i].shape()), out, at);
  }
  return out;
}

constexpr const char* kCat = "cat";

OpDef cat_op() {
  OpDef op;
  op.name = kCat;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    expect_some(kCat, in);
    const int64_t dim = kernel::normalize_dim(kCat, attrs.get_int("dim"), static_cast<int64_t>(in[0].shape.size()));
    expect_matching(kCat, in, dim);
    Shape out = in[0].shape;
    for (size_t i = 1; i < in.size(); ++i) out[dim] += in[i].shape[dim];
    return std::vector<TensorMeta>{{out, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t ndim = static_cast<int64_t>(in[0].shape.size());
    const int64_t dim = kernel::normalize_dim(kCat, attrs.get_int("dim"), ndim);
    return same_split_signatures(
        in.size(), ndim, [dim](int64_t k) { return k != dim; }, [](int64_t k) { return k; });
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim(kCat, ctx.attrs.get_int("dim"), in[0].ndim());
    std::vector<Shape> starts;
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      starts.push_back(ctx.input_boxes[i].start);
      starts.back()[dim] += offset;
      offset += ctx.inputs[i].shape[dim];
    }
    return std::vector<Tensor>{assemble(in, starts, ctx.output_boxes[0], ctx.outputs[0].dtype)};
  };
  return op;
}

constexpr const char* kStack = "stack";

OpDef stack_op() {
  OpDef op;
  op.name = kStack;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    expect_some(kStack, in);
    expect_matching(kStack, in, -1);
    Shape out = in[0].shape;
    const int64_t dim = kernel::normalize_dim(kStack, attrs.get_int("dim"), static_cast<int64_t>(out.size()) + 1);
    out.insert(out.begin() + dim, static_cast<int64_t>(in.size()));
    return std::vector<TensorMeta>{{out, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t ndim = static_cast<int64_t>(in[0].shape.size());
    const int64_t dim = kernel::normalize_dim(kStack, attrs.get_int("dim"), ndim + 1);
    return same_split_signatures(
        in.size(), ndim, [](int64_t) { return true; }, [dim](int64_t k) { return k < dim ? k : k + 1; });
  };
  // Input i is the slab at index i of the new dim.
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim(kStack, ctx.attrs.get_int("dim"), in[0].ndim() + 1);
    std::vector<Tensor> slabs;
    std::vector<Shape> starts;
    for (size_t i = 0; i < in.size(); ++i) {
      Shape shape = in[i].shape(), start = ctx.input_boxes[i].start;
      shape.insert(shape.begin() + dim, 1);
      start.insert(start.begin() + dim, static_cast<int64_t>(i));
      slabs.push_back(in[i].view(0, shape));
      starts.push_back(start);
    }
    return std::vector<Tensor>{assemble(slabs, starts, ctx.output_boxes[0], ctx.outputs[0].dtype)};
  };
  return op;
}

}  // namespace

void register_shape_ops(OpRegistry& r) {
  r.add(permute_op());
  r.add(reshape_op());
  r.add(slice_op());
  r.add(cat_op());
  r.add(stack_op());
}

}  // namespace mf
