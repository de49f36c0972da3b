// Copyright 2026 The meshflow Authors.
// Shape ops: they move elements and compute nothing, so every dtype works and partial
// values pass through (P -> P). Python spells transpose, x.T, view, narrow and indexing
// with these.
//   permute(x; dims)                       output dim i is input dim dims[i]:  S(dims[i]) -> S(i)
//   reshape(x; shape)                      one -1 inferred:                    S(k) -> S(j), see below
//   expand(x; shape)                       torch's expand / broadcast_to:      S(k) -> S(k') on dims kept
//     (, format: to_memory_format's, for a result of 4 or 5 dims: the engine expands a broadcast
//     gradient in its tensor's format)
//   slice(x; starts, stops, steps, drop_dims)                                  S(k) -> S(k') on whole dims
//   slice_backward(dy; shape, + slice's)   slice's gradient:                   S(k') -> S(k) on whole dims
//   slice_scatter(x, values; slice's starts, stops, steps)                     S(k), B -> S(k); P, P -> P
//                                          x with the slice's elements replaced by values: what
//                                          x[2:5] = v and writes through views are, in place
//   cat(x0, x1, ...; dim)                  S(k), ..., S(k) -> S(k) for k != dim; in the
//                                          inputs' channels-last format where they share one
//   stack(x0, x1, ...; dim)                S(k), ..., S(k) -> S(k), or S(k + 1) from dim on
//   split(x; dim, sizes) -> x0, x1, ...    x cut along dim into pieces of sizes (summing to its
//                                          size): S(k) -> S(k), ..., S(k) for k != dim
//   to_memory_format(x; format)            x in MemoryFormat `format` (core/tensor.h) where x has
//                                          4 or 5 dims and lives in host memory, else
//                                          row-major:  S(k) -> S(k); P -> P
//   view_dtype(x; dtype)                   x's bytes read as `dtype` (torch's view(dtype)): the
//                                          last dim scaled by the ratio of the element sizes
//                                          (it must divide). S(k) -> S(k),
//                                          but the last dim where the sizes differ
// Gradients: permute's is the inverse permute, reshape's the reshape back, expand's the sum
// over the repeated dims (fn::sum_to), slice's slice_backward, slice_scatter's dy with zeros
// written in the slice (x's) and dy's slice summed to values' shape (values'), and cat's and
// stack's are slices of dy, split's one cat of its pieces' gradients, to_memory_format's dy. slice_backward has none
// (no second derivatives), nor has view_dtype (reinterpreted bits, as torch's).
// Not listed though valid: S(k) -> P wherever S(k) is not carried through (each rank writes
// its own elements into zeros). It costs nothing at this op, so cost-based inference would
// always take it, and the consumer then pays a reduction of the whole output: an
// all-reduce, twice the bytes of the all-gather it replaces (slicing q out of a split qkv
// would turn the attention scores partial).
#include <algorithm>
#include <cstring>

#include "meshflow/ops/dtype_view.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/onednn.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/slice_write.h"

namespace mf {
namespace {

// Side of the square tiles a transposing copy moves: a tile's rows of source and destination
// each stay in the first cache level while it is copied.
constexpr int64_t kTile = 16;

// dst[i * dst_row + j] = src[i + j * src_col] for i < rows, j < cols: a transpose, read and
// written a tile at a time (element by element along either side alone, every read or every
// write touches another cache line).
template <typename T>
void transpose_tiles(const T* src, int64_t src_col, T* dst, int64_t dst_row, int64_t rows, int64_t cols) {
  for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
    const int64_t j1 = std::min(cols, j0 + kTile);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = j0; j < j1; ++j) dst[i * dst_row + j] = src[i + j * src_col];
    }
  }
}

// The offsets of outer index `r` (row-major over dims [0, nd) of `shape`) along two strides,
// added to src_offset and dst_offset; its index in `at` when given.
void outer_offsets(int64_t r, const Shape& shape, const Shape& src_strides, const Shape& dst_strides, int64_t nd,
                   int64_t& src_offset, int64_t& dst_offset, int64_t* at = nullptr) {
  for (int64_t d = nd - 1; d >= 0; --d) {
    const int64_t i = r % shape[d];
    r /= shape[d];
    src_offset += i * src_strides[d];
    dst_offset += i * dst_strides[d];
    if (at) at[d] = i;
  }
}

// Rows of `inner` elements one task copies: enough that the index arithmetic at its start is
// paid once per block of rows, few enough that a large copy makes tasks for every thread.
int64_t rows_per_task(int64_t rows, int64_t inner) {
  constexpr int64_t kTaskElements = 4096, kTasks = 64;
  return std::max<int64_t>(1, std::min(kTaskElements / std::max<int64_t>(inner, 1), rows / kTasks));
}

// dst[dst_base + i . dst_strides] = src[src_base + i . src_strides] for every index i of
// `shape`, where i . s is the sum of i[d] * s[d]. Dims collapsed first (kernel::
// collapse_dims). Where the destination's last dim is contiguous and the source's runs along
// the dim before it (x.transpose(-1, -2) made contiguous), a batch of transposes by tiles.
// Otherwise rows of the last dim, blocks of them on the team (long rows cut into pieces): a
// contiguous row is one memcpy, a broadcast one (stride 0) a fill, and a block steps from row
// to row by adding strides, with no division per row.
template <typename T>
void copy_strided(const T* src, int64_t src_base, Shape src_strides, T* dst, int64_t dst_base, Shape dst_strides,
                  Shape shape) {
  const int64_t n = numel(shape);
  if (n == 0) return;
  kernel::collapse_dims(shape, {&src_strides, &dst_strides});
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t inner = nd ? shape[nd - 1] : 1;
  const int64_t src_step = nd ? src_strides[nd - 1] : 0, dst_step = nd ? dst_strides[nd - 1] : 0;
  const bool parallel = n > kernel::kParallelGrain;
  if (nd <= 1 && src_step == 1 && dst_step == 1 && !parallel) {  // one short run (x[0]): no tasks
    std::copy(src + src_base, src + src_base + n, dst + dst_base);
    return;
  }
  if (nd >= 2 && dst_step == 1 && src_step != 1 && src_strides[nd - 2] == 1) {
    const int64_t height = shape[nd - 2], bands = (height + kTile - 1) / kTile, matrices = n / (height * inner);
    kernel::parallel_for(matrices * bands, parallel, [&](int64_t task) {  // a band: kTile rows of a matrix
      const int64_t m = task / bands, i0 = task % bands * kTile;
      int64_t src_offset = src_base + i0, dst_offset = dst_base + i0 * dst_strides[nd - 2];
      outer_offsets(m, shape, src_strides, dst_strides, nd - 2, src_offset, dst_offset);
      transpose_tiles(src + src_offset, src_step, dst + dst_offset, dst_strides[nd - 2], std::min(kTile, height - i0),
                      inner);
    });
    return;
  }
  const int64_t rows = n / inner, piece = kernel::piece_length(rows, inner), pieces = (inner + piece - 1) / piece;
  const int64_t block = pieces == 1 ? rows_per_task(rows, inner) : 1;
  kernel::parallel_for(pieces == 1 ? (rows + block - 1) / block : rows * pieces, parallel, [&](int64_t task) {
    const int64_t first = pieces == 1 ? task * block : task / pieces, begin = pieces == 1 ? 0 : task % pieces * piece;
    const int64_t last = std::min(rows, first + block), len = std::min(piece, inner - begin);
    Shape at(static_cast<size_t>(std::max<int64_t>(nd - 1, 0)));
    int64_t src_offset = src_base + begin * src_step, dst_offset = dst_base + begin * dst_step;
    outer_offsets(first, shape, src_strides, dst_strides, nd - 1, src_offset, dst_offset, at.data());
    for (int64_t r = first; r < last; ++r) {
      const T* ps = src + src_offset;
      T* pd = dst + dst_offset;
      if (src_step == 1 && dst_step == 1) {
        std::copy(ps, ps + len, pd);
      } else if (src_step == 0 && dst_step == 1) {
        std::fill(pd, pd + len, *ps);
      } else {
        for (int64_t j = 0; j < len; ++j) pd[j * dst_step] = ps[j * src_step];
      }
      for (int64_t d = nd - 2; d >= 0; --d) {  // the next row's index, carrying
        src_offset += src_strides[d];
        dst_offset += dst_strides[d];
        if (++at[d] < shape[d]) break;
        src_offset -= shape[d] * src_strides[d];
        dst_offset -= shape[d] * dst_strides[d];
        at[d] = 0;
      }
    }
  });
}

// A channels-last tensor's shape as its elements lie, row-major: its channel dim (1) moved
// last, [N, spatial..., C]; the same move for a position in it or its strides.
Shape as_lying(const Shape& shape) {
  Shape out{shape[0]};
  out.insert(out.end(), shape.begin() + 2, shape.end());
  out.push_back(shape[1]);
  return out;
}

// Where each element of `t` lies in its storage, per dim: row-major, or channels-last
// ([N][spatial][C]: C innermost, the spatial dims row-major above it).
Shape element_strides(const Tensor& t) {
  const Shape& shape = t.shape();
  if (!channels_last(t.format())) return row_major_strides(shape);
  Shape strides(shape.size());
  int64_t step = shape[1];
  strides[1] = 1;
  for (size_t d = shape.size() - 1; d >= 2; --d) {
    strides[d] = step;
    step *= shape[d];
  }
  strides[0] = step;
  return strides;
}

// Fills `out` (of src's dtype, in its format): element i is src[base + i . strides]. Returns it.
Tensor gather_strided(const Tensor& src, int64_t base, const Shape& strides, const Tensor& out) {
  const Shape& shape = out.shape();
  visit_storage(src.dtype(), [&](auto v) {
    using T = decltype(v);
    copy_strided(src.data_as<T>(), base, strides, out.data_as<T>(), 0, element_strides(out), shape);
  });
  return out;
}

// dst[base + i . strides] = src[i] for every index i of src.
void scatter_strided(const Tensor& src, const Tensor& dst, int64_t base, const Shape& strides) {
  visit_storage(src.dtype(), [&](auto v) {
    using T = decltype(v);
    copy_strided(src.data_as<T>(), 0, row_major_strides(src.shape()), dst.data_as<T>(), base, strides, src.shape());
  });
}

Sbp split(int64_t dim) { return Sbp::split(static_cast<int>(dim)); }

std::vector<Signature> with_partial(std::vector<Signature> sigs, size_t n_inputs) {
  sigs.push_back({std::vector<Sbp>(n_inputs, Sbp::partial_sum()), {Sbp::partial_sum()}});
  return sigs;
}

// ---------------------------------------------------------------------------------------
// permute

constexpr const char* kPermute = "permute";

// The "dims" attribute, normalized; throws unless it is a permutation of [0, ndim). A Shape
// (inline storage) and the names made once: each call's kernel reads it, with no allocation.
Shape permutation(const Attrs& attrs, int64_t ndim) {
  static const std::string op = kPermute, key = "dims";
  Shape dims = attrs.get_ints(key);
  if (static_cast<int64_t>(dims.size()) != ndim) {
    op_error(kPermute, "dims " + to_string(dims) + " has " + std::to_string(dims.size()) + " entries for a tensor of " +
                           std::to_string(ndim) + " dims; expected one entry per dim");
  }
  Shape seen(static_cast<size_t>(ndim), 0);
  for (int64_t& d : dims) {
    d = kernel::normalize_dim(op, d, ndim);
    if (seen[d]) {
      op_error(kPermute, "dims " + to_string(attrs.get_ints("dims")) + " names dim " + std::to_string(d) +
                             " twice; expected a permutation of the dims");
    }
    seen[d] = 1;
  }
  return dims;
}

// Whether `dims` moves the channels of [N, C, spatial...] last ([N, spatial..., C]), or with
// `to_last` false, back: a channels-last tensor's bytes are the row-major ones of the
// first's result, a row-major tensor's those of the second's in channels-last.
bool moves_channels(const Shape& dims, bool to_last) {
  const int64_t n = static_cast<int64_t>(dims.size());
  if (n != 4 && n != 5) return false;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t want = i == 0 ? 0 : to_last ? (i == n - 1 ? 1 : i + 1) : (i == 1 ? n - 1 : i - 1);
    if (dims[i] != want) return false;
  }
  return true;
}

// Whether `dims` keeps the dims of `shape` longer than 1 in their order (moving only dims of
// size 1): the result's row-major bytes are the input's, a view. One head's attention
// ([B, T, 1, D].transpose(1, 2)) and a batch of one moved no data but copied all of it.
bool keeps_order(const Shape& dims, const Shape& shape) {
  int64_t last = -1;
  for (int64_t d : dims) {
    if (shape[d] == 1) continue;
    if (d < last) return false;
    last = d;
  }
  return true;
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
  // ConvNeXt's LayerNorm over channels (x.permute(0, 2, 3, 1), then back) moves no bytes
  // where the layouts agree: a channels-last input moved channels last is its storage read
  // row-major, and a row-major one moved back is its storage read channels-last (kept
  // internal, as a convolution's output: the next convolution reads it without a reorder).
  op.formats = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const Shape dims = permutation(attrs, static_cast<int64_t>(in[0].shape.size()));
    const bool back = !channels_last(in[0].format) && moves_channels(dims, false);
    return std::vector<MemoryFormat>{back ? MemoryFormat::kChannelsLastInternal : MemoryFormat::kContiguous};
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape dims = permutation(ctx.attrs, in[0].ndim());
    const Shape& extent = ctx.output_boxes[0].extent;
    const MemoryFormat to = ctx.outputs.empty() ? MemoryFormat::kContiguous : ctx.outputs[0].format;
    if (channels_last(to) && !channels_last(in[0].format())) {
      return std::vector<Tensor>{in[0].view(0, extent).with_format(to)};
    }
    if (!channels_last(to) && channels_last(in[0].format()) && moves_channels(dims, true)) {
      return std::vector<Tensor>{in[0].view(0, extent)};
    }
    const Tensor x = in_format(in[0], MemoryFormat::kContiguous);
    if (keeps_order(dims, x.shape())) return std::vector<Tensor>{x.view(0, extent)};
    const Shape in_strides = row_major_strides(x.shape());
    Shape strides;
    for (int64_t d : dims) strides.push_back(in_strides[d]);
    return std::vector<Tensor>{gather_strided(x, 0, strides, ctx.output(0, extent, x.dtype()))};
  };
  op.grad = [](const GradContext& g) {
    const std::vector<int64_t> dims = permutation(g.attrs, static_cast<int64_t>(g.inputs[0].shape().size()));
    std::vector<int64_t> inverse(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) inverse[dims[i]] = static_cast<int64_t>(i);
    return std::vector<Var>{fn::permute(g.grad_outputs[0], inverse)};
  };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// reshape
//
// Whether a split passes through depends on the mesh, so every S(k) -> S(j) is listed and
// valid_on decides on the hierarchy: every rank's local box of the input must cover exactly
// the flat indices of its local box of the output (uneven and nested splits included); the
// local part then is the same run of memory, and the kernel a view. On one axis this
// needs equal prefixes, prod in[0, k) == prod out[0, j), so that the elements from dim k
// on (resp. j on) form the same run for each prefix index; when also in[k] == out[j] it
// always holds. A dim cut into several (attention heads: [B, T, H * D] -> [B, T, H, D],
// S(2) -> S(2)) or merged from several lines up only where the splits are even enough:
// H * D = 3 * 2 into 2 parts gives 3 + 3 elements, H = 3 into 2 parts gives 2 + 1 heads,
// that is 4 + 2 elements. An inner axis of a nested split sees what the outer axes left,
// so pairs without equal prefixes hold there: on [2, 2], (S(0), S(0)) -> (S(0), S(1))
// reshapes [6, 4] into [2, 3, 4].

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
    } else if (__builtin_mul_overflow(known, out[i], &known)) {
      op_error(kReshape, "shape " + to_string(out) + " has more elements than int64 can count");
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

// Every S(k) -> S(j), in order of preference, since listed order breaks the ties between
// valid ones (on one rank all are valid): dims that pass whole, then dims cut or merged
// behind equal prefixes, then the pairs that only an inner axis can carry.
std::vector<Signature> reshape_signatures(const Shape& in, const Shape& out) {
  std::vector<Signature> whole, cut, nested;
  int64_t in_before = 1;
  for (size_t k = 0; k < in.size(); in_before *= in[k++]) {
    int64_t out_before = 1;
    for (size_t j = 0; j < out.size(); out_before *= out[j++]) {
      std::vector<Signature>& tier = in_before != out_before ? nested : in[k] != out[j] ? cut : whole;
      tier.push_back({{split(k)}, {split(j)}});
    }
  }
  whole.insert(whole.end(), cut.begin(), cut.end());
  whole.insert(whole.end(), nested.begin(), nested.end());
  return with_partial(whole, 1);
}

// One dim of a box in a row-major index space.
struct FlatDim {
  int64_t size, start, extent;
  bool operator==(const FlatDim& o) const { return size == o.size && start == o.start && extent == o.extent; }
};

// The flat indices that `box` covers in a row-major tensor of `shape`, in a form that is
// the same for two boxes (of tensors with as many elements) exactly when they cover the
// same indices: empty for an empty box; otherwise the dims, merged while the inner one is
// whole or the outer one holds a single index, behind a leading dim of size 1 (so that a
// 0-d tensor's whole box is not empty).
std::vector<FlatDim> flat_form(const Box& box, const Shape& shape) {
  if (box.empty()) return {};
  std::vector<FlatDim> dims{{1, 0, 1}};
  for (size_t d = 0; d < shape.size(); ++d) {
    dims.push_back({shape[d], box.start[d], box.extent[d]});
    while (dims.size() >= 2) {
      FlatDim& outer = dims[dims.size() - 2];
      const FlatDim inner = dims.back();
      if (inner.extent == inner.size) {
        outer = {outer.size * inner.size, outer.start * inner.size, outer.extent * inner.size};
      } else if (outer.extent == 1) {
        outer = {outer.size * inner.size, outer.start * inner.size + inner.start, inner.extent};
      } else {
        break;
      }
      dims.pop_back();
    }
  }
  return dims;
}

// Whether every rank's local box of the input covers exactly the flat indices of its local
// box of the output.
bool reshape_valid_on(const std::vector<TensorMeta>& inputs, const std::vector<TensorMeta>& outputs, const Attrs&,
                      const NdSignature& sig, const Shape& hierarchy) {
  const Shape &in = inputs[0].shape, &out = outputs[0].shape;
  Shape coordinate(hierarchy.size(), 0);
  for (int64_t id = 0; id < numel(hierarchy); ++id) {
    for (int64_t a = static_cast<int64_t>(hierarchy.size()) - 1, rest = id; a >= 0; --a) {
      coordinate[a] = rest % hierarchy[a];
      rest /= hierarchy[a];
    }
    const Box in_box = local_box(in, hierarchy, sig.inputs[0], coordinate);
    const Box out_box = local_box(out, hierarchy, sig.outputs[0], coordinate);
    if (!(flat_form(in_box, in) == flat_form(out_box, out))) return false;
  }
  return true;
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
  op.valid_on = reshape_valid_on;
  // valid_on made the local part the same run of the flat layout: the result is a view.
  op.output_views_input = true;
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& extent = ctx.output_boxes[0].extent;
    if (numel(extent) != in[0].numel()) {
      op_error(kReshape, "local part " + to_string(in[0].shape()) + " cannot form the output part " +
                             to_string(extent) + "; the signature is not valid for these shapes");
    }
    return std::vector<Tensor>{in[0].view(0, extent)};
  };
  // A full sum's gradient, one value (autograd/var.h's broadcast gradients), passes on as
  // one value; any other broadcast one is expanded first (its repeats do not reshape).
  op.grad_takes_broadcast = true;
  op.grad = [](const GradContext& g) {
    const Var& dy = g.grad_outputs[0];
    const Shape &x = g.inputs[0].shape(), &y = g.outputs[0].shape();
    if (dy.shape() == y) return std::vector<Var>{fn::reshape(dy, x)};
    if (numel(dy.shape()) == 1) return std::vector<Var>{fn::reshape(dy, Shape(x.size(), 1))};
    return std::vector<Var>{fn::reshape(fn::expand(dy, y), x)};
  };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// expand: torch's expand / broadcast_to. The target may have new leading dims; -1 keeps a
// dim; a dim of size 1 repeats to any size. The result is a new tensor (no strided views).

constexpr const char* kExpand = "expand";

Shape expand_target(const Shape& in, const Attrs& attrs) {
  Shape out = attrs.get_ints("shape");
  if (out.size() < in.size()) {
    op_error(kExpand, "shape " + to_string(out) + " has fewer dims than the input's " + to_string(in) +
                          "; expected at least as many");
  }
  const size_t lead = out.size() - in.size();
  for (size_t j = 0; j < out.size(); ++j) {
    if (j >= lead && out[j] == -1) out[j] = in[j - lead];
    if (out[j] < 0) {
      op_error(kExpand, "shape " + to_string(attrs.get_ints("shape")) + " has size " + std::to_string(out[j]) +
                            " in dim " + std::to_string(j) + "; expected sizes >= 0, or -1 to keep an existing dim");
    }
    if (j < lead || out[j] == in[j - lead] || in[j - lead] == 1) continue;
    op_error(kExpand, "dim " + std::to_string(j - lead) + " of size " + std::to_string(in[j - lead]) +
                          " cannot be expanded to " + std::to_string(out[j]) + " (shape " + to_string(in) + " to " +
                          to_string(attrs.get_ints("shape")) + "); expected size 1 to expand, or -1 or " +
                          std::to_string(in[j - lead]) + " to keep it");
  }
  return out;
}

OpDef expand_op() {
  OpDef op;
  op.name = kExpand;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kExpand, in, 1);
    return std::vector<TensorMeta>{{expand_target(in[0].shape, attrs), in[0].dtype}};
  };
  // A dim that repeats is not listed: each rank's part of it would read the input's single
  // index, so the input would be broadcast anyway.
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    const Shape& shape = in[0].shape;
    const size_t lead = out[0].shape.size() - shape.size();
    std::vector<Signature> sigs;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == out[0].shape[d + lead]) sigs.push_back({{split(d)}, {split(d + lead)}});
    }
    return with_partial(sigs, 1);
  };
  op.formats = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>& out, const Attrs& attrs) {
    const bool asked = attrs.has("format") && channels_last_rank(out[0].shape);
    return std::vector<MemoryFormat>{asked ? static_cast<MemoryFormat>(attrs.get_int("format"))
                                           : MemoryFormat::kContiguous};
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Tensor x = kernel::onednn::in_format(in[0], MemoryFormat::kContiguous);  // as expand_source reads it
    const kernel::ExpandSource src = kernel::expand_source(ctx, x.shape());
    return std::vector<Tensor>{
        gather_strided(x, src.base, src.strides, ctx.output(0, ctx.output_boxes[0].extent, x.dtype()))};
  };
  op.grad = [](const GradContext& g) { return std::vector<Var>{fn::sum_to(g.grad_outputs[0], g.inputs[0].shape())}; };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// slice: per input dim d the elements start[d], start[d] + step[d], ... below stop[d], with
// 0 <= start <= stop <= size and step >= 1 (Python resolves negative and clamped indices);
// dims in drop_dims (integer indices) must hold one element and are removed.
// slice_backward(dy; shape, starts, ...): the gradient of slicing a tensor of `shape`,
// zeros with dy written where the slice read.

constexpr const char* kSlice = "slice";
constexpr const char* kSliceBackward = "slice_backward";

}  // namespace

namespace kernel {
// kernel::slice_local's over a sliced part whose element d lies sliced_strides[d] apart (a
// channels-last one's strides: element_strides).
SliceLocal slice_local_at(const SliceSpec& s, const Box& sliced_box, const Box& slice_box, const Shape& sliced_strides);
}  // namespace kernel

namespace {

// (sliced dim, slice dim) for each dim the slice keeps whole: only there can a split pass
// through, since a sliced dim would not cut its parts where the other side's balanced
// split cuts.
std::vector<std::pair<int64_t, int64_t>> whole_slice_dims(const Shape& shape, const kernel::SliceSpec& s) {
  std::vector<std::pair<int64_t, int64_t>> dims;
  int64_t out_dim = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (s.dropped[d]) continue;
    if (s.start[d] == 0 && s.count[d] == shape[d]) dims.emplace_back(d, out_dim);
    ++out_dim;
  }
  return dims;
}


OpDef slice_op() {
  OpDef op;
  op.name = kSlice;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSlice, in, 1);
    return std::vector<TensorMeta>{{kernel::slice_spec(kSlice, in[0].shape, attrs).out, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    std::vector<Signature> sigs;
    for (auto [d, j] : whole_slice_dims(in[0].shape, kernel::slice_spec(kSlice, in[0].shape, attrs))) {
      sigs.push_back({{split(d)}, {split(j)}});
    }
    return with_partial(sigs, 1);
  };
  // A slice keeping every dim of an input a convolution laid out channels-last (cat's
  // backward: a decoder's skip gradients, slices of the channels) stays so, read and written
  // as the bytes lie (runs along C), where a row-major one would reorder the whole input for
  // each slice. Slices of torch's channels_last (whose strides users see) stay row-major.
  op.formats = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    const bool kept = in[0].format == MemoryFormat::kChannelsLastInternal && out[0].shape.size() == in[0].shape.size();
    return std::vector<MemoryFormat>{kept ? in[0].format : MemoryFormat::kContiguous};
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    static const std::string op = kSlice;  // made once, not per call
    const kernel::SliceSpec s = kernel::slice_spec(op, ctx.inputs[0].shape, ctx.attrs);
    const Tensor& x = in[0];
    const kernel::SliceLocal l = kernel::slice_local_at(s, ctx.input_boxes[0], ctx.output_boxes[0], element_strides(x));
    const Tensor out = ctx.output(0, ctx.output_boxes[0].extent, x.dtype());
    if (!channels_last(out.format())) {
      gather_strided(x, l.base, l.strides, out.view(0, l.extent));
    } else {
      visit_storage(x.dtype(), [&](auto v) {
        using T = decltype(v);
        copy_strided(x.data_as<T>(), l.base, as_lying(l.strides), out.data_as<T>(), 0, as_lying(element_strides(out)),
                     as_lying(l.extent));
      });
    }
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    return std::vector<Var>{
        call1(kSliceBackward, {g.grad_outputs[0]}, Attrs(g.attrs).set("shape", g.inputs[0].shape()))};
  };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

OpDef slice_backward_op() {
  OpDef op;
  op.name = kSliceBackward;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSliceBackward, in, 1);
    const Shape shape = attrs.get_ints("shape");
    for (int64_t size : shape) {
      if (size < 0) op_error(kSliceBackward, "shape " + to_string(shape) + " is invalid; expected sizes >= 0");
    }
    const Shape sliced = kernel::slice_spec(kSliceBackward, shape, attrs).out;
    if (in[0].shape != sliced) {
      op_error(kSliceBackward, "the gradient has shape " + to_string(in[0].shape) +
                                   " but the slice of a tensor of shape " + to_string(shape) + " has shape " +
                                   to_string(sliced) + "; expected them equal");
    }
    return std::vector<TensorMeta>{{shape, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>& out, const Attrs& attrs) {
    std::vector<Signature> sigs;
    for (auto [d, j] : whole_slice_dims(out[0].shape, kernel::slice_spec(kSliceBackward, out[0].shape, attrs))) {
      sigs.push_back({{split(j)}, {split(d)}});
    }
    return with_partial(sigs, 1);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::SliceSpec s = kernel::slice_spec(kSliceBackward, ctx.outputs[0].shape, ctx.attrs);
    const kernel::SliceLocal l = kernel::slice_local(s, ctx.output_boxes[0], ctx.input_boxes[0]);
    Tensor dx = ctx.output(0, ctx.output_boxes[0].extent, in[0].dtype());
    std::memset(dx.data(), 0, dx.nbytes());
    scatter_strided(in[0].view(0, l.extent), dx, l.base, l.strides);
    return std::vector<Tensor>{dx};
  };
  // Linear in dy: its gradient is the slice of ddx (a create_graph backward through slice).
  op.grad = [](const GradContext& g) { return std::vector<Var>{call1(kSlice, {g.grad_outputs[0]}, g.attrs)}; };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// slice_scatter: the slice's elements of x replaced by values (the slice's shape, or 1 on
// dims it broadcasts along; integer indices are dims of one element, not dropped). Each
// rank writes the part of the slice its box of x holds (kernel::slice_write_local), so a
// write costs what it writes; given x's memory for the output (fn::write_in_place) it
// copies nothing else. Linear in (x, values) together: partial sums stay partial.

constexpr const char* kSliceScatter = "slice_scatter";

OpDef slice_scatter_op() {
  OpDef op;
  op.name = kSliceScatter;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kSliceScatter, in, 2);
    kernel::expect_same_dtype(kSliceScatter, in[0], in[1]);
    if (attrs.has("drop_dims")) {
      op_error(kSliceScatter, "takes no drop_dims; expected values with a dim of size 1 where the index is an integer");
    }
    const kernel::SliceSpec s = kernel::slice_spec(kSliceScatter, in[0].shape, attrs);
    const Shape& v = in[1].shape;
    bool fits = v.size() == s.count.size();
    for (size_t d = 0; fits && d < v.size(); ++d) fits = v[d] == s.count[d] || v[d] == 1;
    if (!fits) {
      op_error(kSliceScatter, "values have shape " + to_string(v) + "; expected the slice's shape " +
                                  to_string(s.count) + " (or 1 on dims they broadcast along)");
    }
    return std::vector<TensorMeta>{in[0]};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
    std::vector<Signature> sigs;
    for (size_t k = 0; k < in[0].shape.size(); ++k) {
      sigs.push_back({{split(static_cast<int64_t>(k)), Sbp::broadcast()}, {split(static_cast<int64_t>(k))}});
    }
    return with_partial(sigs, 2);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::SliceWrite w = kernel::slice_write_local(kernel::slice_spec(kSliceScatter, ctx.inputs[0].shape, ctx.attrs),
                                                           ctx.input_boxes[0], in[1].shape());
    const Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    if (out.data() != in[0].data()) std::memcpy(out.data(), in[0].data(), in[0].nbytes());
    visit_storage(out.dtype(), [&](auto v) {
      using T = decltype(v);
      copy_strided(in[1].data_as<T>(), w.src_base, w.src_strides, out.data_as<T>(), w.dst_base, w.dst_strides,
                   w.extent);
    });
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    const Var& dy = g.grad_outputs[0];
    Var dx, dvalues;
    if (g.needs_grad[0]) dx = call1(kSliceScatter, {dy, fn::zeros_like(g.inputs[1])}, g.attrs);
    if (g.needs_grad[1]) dvalues = fn::sum_to(call1(kSlice, {dy}, g.attrs), g.inputs[1].shape());
    return std::vector<Var>{dx, dvalues};
  };
  op.grad_reads = kReadsNothing;  // shapes only
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

// Fills `out`, the output's local part (out_box), from parts[i], which lies at logical
// position starts[i]. Returns it.
Tensor assemble(const std::vector<Tensor>& parts, const std::vector<Shape>& starts, const Box& out_box, const Tensor& out) {
  for (size_t i = 0; i < parts.size(); ++i) {
    Shape at = starts[i];
    for (size_t d = 0; d < at.size(); ++d) at[d] -= out_box.start[d];
    copy_box(parts[i], Box::whole(parts[i].shape()), out, at);
  }
  return out;
}

// Input i's gradient for cat and stack: dy's elements [start, stop) along `dim`, that dim
// dropped for stack (stop = start + 1).
Var slice_along(const Var& dy, int64_t dim, int64_t start, int64_t stop, bool drop) {
  const Shape& shape = dy.shape();
  Shape starts(shape.size(), 0), stops = shape;
  starts[dim] = start;
  stops[dim] = stop;
  Attrs attrs{{"starts", starts}, {"stops", stops}, {"steps", Shape(shape.size(), 1)}};
  if (drop) attrs.set("drop_dims", Shape{dim});
  return call1(kSlice, {dy}, attrs);
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
  // Inputs all in one channels-last format (a decoder's skip connection: conv outputs)
  // give an output in it, as torch's cat keeps a format its inputs share; any other mix a
  // row-major one, the channels-last inputs read row-major.
  op.formats = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
    const bool shared = std::all_of(in.begin(), in.end(), [&](const TensorMeta& m) { return m.format == in[0].format; });
    return std::vector<MemoryFormat>{shared ? in[0].format : MemoryFormat::kContiguous};
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
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    if (!channels_last(out.format())) {
      std::vector<Tensor> parts;
      for (const Tensor& t : in) parts.push_back(kernel::onednn::in_format(t, MemoryFormat::kContiguous));
      return std::vector<Tensor>{assemble(parts, starts, ctx.output_boxes[0], out)};
    }
    // Every input in the output's format (formats above; a local call, whole boxes): the
    // parts are assembled as their bytes lie, row-major [N, spatial..., C], positions alike.
    std::vector<Tensor> parts;
    for (const Tensor& t : in) parts.push_back(t.view(0, as_lying(t.shape())));
    for (Shape& start : starts) start = as_lying(start);
    const Shape lying = as_lying(out.shape());
    assemble(parts, starts, Box::whole(lying), out.view(0, lying));
    return std::vector<Tensor>{out};
  };
  op.grad = [](const GradContext& g) {
    const Var& dy = g.grad_outputs[0];
    const int64_t dim = kernel::normalize_dim(kCat, g.attrs.get_int("dim"), static_cast<int64_t>(dy.shape().size()));
    std::vector<Var> grads(g.inputs.size());
    int64_t offset = 0;
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const int64_t size = g.inputs[i].shape()[dim];
      if (g.needs_grad[i]) grads[i] = slice_along(dy, dim, offset, offset + size, false);
      offset += size;
    }
    return grads;
  };
  op.grad_reads = kReadsNothing;  // shapes only
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
    return std::vector<Tensor>{
        assemble(slabs, starts, ctx.output_boxes[0], ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype))};
  };
  op.grad = [](const GradContext& g) {
    const Var& dy = g.grad_outputs[0];
    const int64_t dim = kernel::normalize_dim(kStack, g.attrs.get_int("dim"), static_cast<int64_t>(dy.shape().size()));
    std::vector<Var> grads(g.inputs.size());
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      if (g.needs_grad[i]) grads[i] = slice_along(dy, dim, static_cast<int64_t>(i), static_cast<int64_t>(i) + 1, true);
    }
    return grads;
  };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// split

constexpr const char* kSplit = "split";

// Checks split's input and attributes; returns the normalized dim.
int64_t split_dim(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kSplit, in, 1);
  const Shape& x = in[0].shape;
  const int64_t dim = kernel::normalize_dim(kSplit, attrs.get_int("dim"), static_cast<int64_t>(x.size()));
  const std::vector<int64_t> sizes = attrs.get_ints("sizes");
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0) op_error(kSplit, "sizes " + to_string(sizes) + " hold a negative size; expected sizes >= 0");
    total += size;
  }
  if (sizes.empty() || total != x[dim]) {
    op_error(kSplit, "sizes " + to_string(sizes) + " add up to " + std::to_string(total) + "; expected dim " +
                         std::to_string(dim) + "'s size " + std::to_string(x[dim]) + " for an input of shape " +
                         to_string(x));
  }
  return dim;
}

OpDef split_op() {
  OpDef op;
  op.name = kSplit;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const int64_t dim = split_dim(in, attrs);
    std::vector<TensorMeta> out;
    for (int64_t size : attrs.get_ints("sizes")) {
      out.push_back(in[0]);
      out.back().shape[dim] = size;
    }
    return out;
  };
  // Any split but of the cut dim, carried to every piece; a partial input makes partial pieces.
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs& attrs) {
    const int64_t dim = split_dim(in, attrs);
    std::vector<Signature> sigs;
    for (int64_t k = 0; k < static_cast<int64_t>(in[0].shape.size()); ++k) {
      if (k != dim) sigs.push_back({{split(k)}, std::vector<Sbp>(out.size(), split(k))});
    }
    sigs.push_back({{Sbp::partial_sum()}, std::vector<Sbp>(out.size(), Sbp::partial_sum())});
    return sigs;
  };
  // Every local part holds the cut dim whole (no signature splits it).
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim(kSplit, ctx.attrs.get_int("dim"), in[0].ndim());
    const Shape strides = row_major_strides(in[0].shape());
    std::vector<Tensor> out;
    int64_t offset = 0;
    for (size_t k = 0; k < ctx.outputs.size(); ++k) {
      const Shape& extent = ctx.output_boxes[k].extent;
      out.push_back(gather_strided(in[0], offset * strides[dim], strides, ctx.output(k, extent, in[0].dtype())));
      offset += extent[dim];
    }
    return out;
  };
  // One cat of the pieces' gradients (zeros where none flows), where a slice per piece would
  // pad each to x's shape with zeros and backward would sum them.
  op.grad = [](const GradContext& g) {
    const int64_t dim = kernel::normalize_dim(kSplit, g.attrs.get_int("dim"), static_cast<int64_t>(g.inputs[0].shape().size()));
    return std::vector<Var>{call1(kCat, g.grad_outputs, {{"dim", dim}})};
  };
  op.grad_reads = kReadsNothing;  // shapes only
  return op;
}

// ---------------------------------------------------------------------------------------
// view_dtype

constexpr const char* kViewDtype = "view_dtype";

OpDef view_dtype_op() {
  OpDef op;
  op.name = kViewDtype;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(kViewDtype, in, 1);
    const DType to = attrs.get_dtype("dtype");
    return std::vector<TensorMeta>{{kernel::dtype_view_shape(in[0].shape, in[0].dtype, to), to}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    const size_t nd = in[0].shape.size();
    const bool same_size = dtype_size(in[0].dtype) == dtype_size(out[0].dtype);
    return kernel::split_alike_signatures(same_size || nd == 0 ? nd : nd - 1, 1, 1);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const DType to = ctx.attrs.get_dtype("dtype");
    const Tensor x = channels_last(in[0].format()) ? kernel::onednn::in_format(in[0], MemoryFormat::kContiguous) : in[0];
    return std::vector<Tensor>{kernel::bytes_into(x, ctx.output(0, kernel::dtype_view_shape(x.shape(), x.dtype(), to), to))};
  };
  op.grad_reads = kReadsNothing;
  return op;
}

}  // namespace

OpDef to_memory_format_op() {
  OpDef op = make_op(
      "to_memory_format",
      [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
        kernel::expect_inputs("to_memory_format", in, 1);
        const int64_t format = attrs.get_int("format");
        if (format < 0 || format > static_cast<int64_t>(MemoryFormat::kChannelsLastInternal)) {
          op_error("to_memory_format", "format is " + std::to_string(format) +
                                           "; expected 0 (row-major), 1 (channels-last) or 2 (channels-last, internal)");
        }
        return std::vector<TensorMeta>{{in[0].shape, in[0].dtype}};
      },
      [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
        std::vector<Signature> sigs = kernel::split_alike_signatures(in[0].shape.size(), 1, 1);
        sigs.push_back({{Sbp::partial_sum()}, {Sbp::partial_sum()}});
        return sigs;
      },
      [](const std::vector<Tensor>& in, const KernelContext& ctx) {
        return std::vector<Tensor>{kernel::onednn::in_format(in[0], ctx.outputs[0].format)};
      });
  op.formats = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs& attrs) {
    return std::vector<MemoryFormat>{static_cast<MemoryFormat>(attrs.get_int("format"))};
  };
  op.grad = [](const GradContext& g) { return std::vector<Var>{g.grad_outputs[0]}; };
  op.grad_reads = kReadsNothing;
  return op;
}

void register_shape_ops(OpRegistry& r) {
  // They only move elements: every dtype.
  for (OpDef op : {permute_op(), reshape_op(), expand_op(), slice_op(), slice_backward_op(), slice_scatter_op(), cat_op(),
                   stack_op(), split_op(), to_memory_format_op(), view_dtype_op()}) {
    op.bfloat16 = true;
    op.booleans = true;
    op.float16 = true;
    op.small_ints = true;
    op.complex = true;
    r.add(std::move(op));
  }
}

}  // namespace mf

namespace mf::kernel {

SliceSpec slice_spec(const std::string& op, const Shape& in, const Attrs& attrs) {
  // The keys made once: every slice kernel's call reads them.
  static const std::string starts = "starts", steps = "steps", stops_key = "stops", drop_dims = "drop_dims";
  const size_t nd = in.size();
  SliceSpec s{attrs.get_ints(starts), attrs.get_ints(steps), Shape(nd), std::vector<bool>(nd, false), {}};
  const Shape& stops = attrs.get_ints(stops_key);
  if (s.start.size() != nd || stops.size() != nd || s.step.size() != nd) {
    op_error(op, "starts, stops and steps have " + std::to_string(s.start.size()) + ", " +
                     std::to_string(stops.size()) + " and " + std::to_string(s.step.size()) +
                     " entries for a tensor of shape " + to_string(in) + "; expected one per dim");
  }
  for (size_t d = 0; d < nd; ++d) {
    if (s.step[d] < 1) {
      op_error(op, "step " + std::to_string(s.step[d]) + " in dim " + std::to_string(d) + "; expected a step >= 1");
    }
    if (s.start[d] < 0 || s.start[d] > stops[d] || stops[d] > in[d]) {
      op_error(op, "range [" + std::to_string(s.start[d]) + ", " + std::to_string(stops[d]) + ") of dim " +
                       std::to_string(d) + " (size " + std::to_string(in[d]) +
                       ") is out of bounds; expected 0 <= start <= stop <= size");
    }
    s.count[d] = (stops[d] - s.start[d] + s.step[d] - 1) / s.step[d];
  }
  if (attrs.has(drop_dims)) {
    for (int64_t d : attrs.get_ints(drop_dims)) {
      d = kernel::normalize_dim(op, d, static_cast<int64_t>(nd));
      if (s.dropped[d]) op_error(op, "drop_dims names dim " + std::to_string(d) + " twice; expected each dim once");
      if (s.count[d] != 1) {
        op_error(op, "dim " + std::to_string(d) + " is dropped (an integer index) but its range holds " +
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

SliceLocal slice_local_at(const SliceSpec& s, const Box& sliced_box, const Box& slice_box, const Shape& sliced_strides) {
  SliceLocal l;
  for (size_t d = 0, j = 0; d < s.start.size(); ++d) {
    const int64_t slice_start = s.dropped[d] ? 0 : slice_box.start[j];
    l.extent.push_back(s.dropped[d] ? 1 : slice_box.extent[j++]);
    l.strides.push_back(sliced_strides[d] * s.step[d]);
    l.base += (s.start[d] + slice_start * s.step[d] - sliced_box.start[d]) * sliced_strides[d];
  }
  return l;
}

SliceLocal slice_local(const SliceSpec& s, const Box& sliced_box, const Box& slice_box) {
  return slice_local_at(s, sliced_box, slice_box, row_major_strides(sliced_box.extent));
}

SliceWrite slice_write_local(const SliceSpec& s, const Box& target_box, const Shape& values) {
  const Shape target_strides = row_major_strides(target_box.extent);
  const Shape value_strides = row_major_strides(values);
  SliceWrite w;
  for (size_t d = 0; d < s.start.size(); ++d) {
    // The slice's indices [first, last) whose elements start + i * step lie in the box.
    const int64_t begin = target_box.start[d], end = begin + target_box.extent[d];
    const int64_t start = s.start[d], step = s.step[d];
    const int64_t first = start >= begin ? 0 : (begin - start + step - 1) / step;
    const int64_t last = end <= start ? 0 : std::min(s.count[d], (end - start + step - 1) / step);
    const int64_t src_stride = values[d] == 1 ? 0 : value_strides[d];
    w.extent.push_back(std::max<int64_t>(0, last - first));
    w.src_strides.push_back(src_stride);
    w.dst_strides.push_back(target_strides[d] * step);
    if (last <= first) continue;  // nothing written here: the bases are never read
    w.src_base += first * src_stride;
    w.dst_base += (start + first * step - begin) * target_strides[d];
  }
  return w;
}

ExpandSource expand_source(const KernelContext& ctx, const Shape& local_input) {
  const Shape& shape = ctx.inputs[0].shape;
  const Shape& target = ctx.outputs[0].shape;
  const size_t lead = target.size() - shape.size();
  const Shape in_strides = row_major_strides(local_input);
  ExpandSource src{0, Shape(target.size(), 0)};
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != target[d + lead]) continue;
    src.strides[d + lead] = in_strides[d];
    src.base += (ctx.output_boxes[0].start[d + lead] - ctx.input_boxes[0].start[d]) * in_strides[d];
  }
  return src;
}

}  // namespace mf::kernel
