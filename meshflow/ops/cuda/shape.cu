// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the shape ops (ops/shape.cc). They move elements and compute nothing,
// so each is the CPU kernel's strided copy (output index -> input offset) run as one
// kernel that works on raw element sizes: every dtype, bfloat16 included, takes the same
// path. Before launching, dims that continue each other on both sides are merged, so a
// contiguous piece becomes one cudaMemcpyAsync and a contiguous innermost dim moves in
// wider (up to 16-byte) elements; reshape returns a view, as on the CPU. slice_scatter writes
// in place when given its target's memory.
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/dtype_view.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/slice_write.h"

namespace mf::cuda {
namespace {

// The most dims one launch handles; a copy with more (after merging) launches once per
// index of its outer dims.
constexpr int kMaxDims = 8;
constexpr int kThreads = 256;
// The widest element one thread moves: one vector load and store.
constexpr size_t kMaxBytes = 16;

// One dim of a strided copy: `size` indices, `src` and `dst` elements apart.
struct Dim {
  int64_t size, src, dst;
};

// The dims of a launch, innermost first, so that the unrolled loop indexes them with
// constants (kernel parameters, no local memory).
struct Layout {
  int nd;
  int64_t size[kMaxDims], src[kMaxDims], dst[kMaxDims];
};

// dst[i . dst] = src[i . src] for every index i. Index is 32-bit where every offset fits,
// since 64-bit division costs several times more.
template <typename T, typename Index>
__global__ void strided_copy_kernel(const T* __restrict__ src, T* __restrict__ dst, Layout l, Index n) {
  const Index grid_step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    Index rest = i, s = 0, d = 0;
#pragma unroll
    for (int k = 0; k < kMaxDims; ++k) {
      if (k < l.nd) {
        const Index size = static_cast<Index>(l.size[k]);
        const Index index = k + 1 < l.nd ? rest % size : rest;
        rest /= size;
        s += index * static_cast<Index>(l.src[k]);
        d += index * static_cast<Index>(l.dst[k]);
      }
    }
    dst[d] = src[s];
  }
}

// `shape`'s dims, outermost first, without those of size 1 and with each dim merged into
// the one outside it where both sides continue it.
std::vector<Dim> merged_dims(const Shape& shape, const Shape& src_strides, const Shape& dst_strides) {
  std::vector<Dim> dims;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const Dim next{shape[d], src_strides[d], dst_strides[d]};
    Dim* outer = dims.empty() ? nullptr : &dims.back();
    if (outer && outer->src == next.src * next.size && outer->dst == next.dst * next.size) {
      *outer = {outer->size * next.size, next.src, next.dst};
    } else {
      dims.push_back(next);
    }
  }
  return dims;
}

bool aligned(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// Pairs of elements become one element of twice the size while the innermost dim is
// contiguous on both sides, every offset stays a whole number of pairs and both pointers
// are aligned for the wider type.
void widen(const char* src, char* dst, size_t& bytes, std::vector<Dim>& dims) {
  while (bytes < kMaxBytes && !dims.empty()) {
    Dim& inner = dims.back();
    bool ok = inner.src == 1 && inner.dst == 1 && inner.size % 2 == 0 && aligned(src, 2 * bytes) &&
              aligned(dst, 2 * bytes);
    for (size_t d = 0; ok && d + 1 < dims.size(); ++d) ok = dims[d].src % 2 == 0 && dims[d].dst % 2 == 0;
    if (!ok) return;
    inner.size /= 2;
    for (size_t d = 0; d + 1 < dims.size(); ++d) {
      dims[d].src /= 2;
      dims[d].dst /= 2;
    }
    bytes *= 2;
  }
}

template <typename T>
void launch_strided_copy(const char* src, char* dst, const std::vector<Dim>& dims) {
  Layout l{};
  l.nd = static_cast<int>(dims.size());
  int64_t n = 1, src_span = 0, dst_span = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    const Dim& dim = dims[dims.size() - 1 - k];
    l.size[k] = dim.size;
    l.src[k] = dim.src;
    l.dst[k] = dim.dst;
    n *= dim.size;
    src_span += (dim.size - 1) * dim.src;
    dst_span += (dim.size - 1) * dim.dst;
  }
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  const unsigned blocks = blocks_for(n, kThreads);
  // Below 2^31, i plus the grid's step stays below 2^32.
  constexpr int64_t k32 = std::numeric_limits<int32_t>::max();
  if (n <= k32 && src_span <= k32 && dst_span <= k32) {
    strided_copy_kernel<T, uint32_t><<<blocks, kThreads, 0, stream()>>>(s, d, l, static_cast<uint32_t>(n));
  } else {
    strided_copy_kernel<T, uint64_t><<<blocks, kThreads, 0, stream()>>>(s, d, l, static_cast<uint64_t>(n));
  }
  check_launch("strided_copy");
}

// Elements of `bytes` each, `dims` as merged and widened.
void copy_dims(const char* src, char* dst, size_t bytes, const std::vector<Dim>& dims) {
  if (dims.size() > static_cast<size_t>(kMaxDims)) {
    const std::vector<Dim> inner(dims.begin() + 1, dims.end());
    const int64_t step = static_cast<int64_t>(bytes);
    for (int64_t i = 0; i < dims[0].size; ++i) {
      copy_dims(src + i * dims[0].src * step, dst + i * dims[0].dst * step, bytes, inner);
    }
    return;
  }
  switch (bytes) {
    case 2: return launch_strided_copy<uint16_t>(src, dst, dims);
    case 4: return launch_strided_copy<uint32_t>(src, dst, dims);
    case 8: return launch_strided_copy<uint64_t>(src, dst, dims);
    default: return launch_strided_copy<uint4>(src, dst, dims);
  }
}

// dst[dst_base + i . dst_strides] = src[src_base + i . src_strides] for every index i of
// `shape` (offsets in elements), as the CPU's copy_strided.
void copy_strided(const Tensor& src, int64_t src_base, const Shape& src_strides, const Tensor& dst, int64_t dst_base,
                  const Shape& dst_strides, const Shape& shape) {
  if (numel(shape) == 0) return;
  size_t bytes = dtype_size(src.dtype());
  const int64_t element = static_cast<int64_t>(bytes);
  const char* s = static_cast<const char*>(src.data()) + src_base * element;
  char* d = static_cast<char*>(dst.data()) + dst_base * element;
  std::vector<Dim> dims = merged_dims(shape, src_strides, dst_strides);
  if (dims.empty() || (dims.size() == 1 && dims[0].src == 1 && dims[0].dst == 1)) {
    const size_t count = dims.empty() ? 1 : static_cast<size_t>(dims[0].size);
    device::cuda::check(cudaMemcpyAsync(d, s, count * bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    return;
  }
  widen(s, d, bytes, dims);
  copy_dims(s, d, bytes, dims);
}

// Fills `out` (contiguous, of src's dtype): element i is src[base + i . strides].
void gather_strided(const Tensor& src, int64_t base, const Shape& strides, const Tensor& out) {
  copy_strided(src, base, strides, out, 0, row_major_strides(out.shape()), out.shape());
}

// Copies `part`, read in `shape`, to where it lies in `out`: at logical position `start`
// of a tensor whose part `out_box` `out` holds.
void place(const Tensor& part, const Shape& shape, const Shape& start, const Box& out_box, const Tensor& out) {
  const Shape out_strides = row_major_strides(out.shape());
  int64_t base = 0;
  for (size_t d = 0; d < start.size(); ++d) base += (start[d] - out_box.start[d]) * out_strides[d];
  copy_strided(part, 0, row_major_strides(shape), out, base, out_strides, shape);
}

// ---- slice and slice_backward: where the slice lies, as the CPU computes it
// (kernel::slice_spec, kernel::slice_local).

constexpr const char* kSlice = "slice";
constexpr const char* kSliceBackward = "slice_backward";

}  // namespace

void add_shape_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "permute", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape in_strides = row_major_strides(in[0].shape());
    Shape strides;
    for (int64_t d : ctx.attrs.get_ints("dims")) {
      strides.push_back(in_strides[kernel::normalize_dim("permute", d, in[0].ndim())]);
    }
    const Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    gather_strided(in[0], 0, strides, out);
    return std::vector<Tensor>{out};
  });

  // A GPU's tensors are row-major (core/tensor.h's memory formats): the input itself.
  r.add_kernel("cuda", "to_memory_format",
               [](const std::vector<Tensor>& in, const KernelContext&) { return std::vector<Tensor>{in[0]}; });

  // A GPU's tensors are row-major: the same bytes, read as the other dtype.
  r.add_kernel("cuda", "view_dtype", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const DType to = ctx.attrs.get_dtype("dtype");
    const Shape shape = kernel::dtype_view_shape(in[0].shape(), in[0].dtype(), to);
    return std::vector<Tensor>{kernel::bytes_into(in[0], output(ctx, 0, shape, to, memory_of(in)))};
  });

  // The signature made the local part the same run of the flat layout: a view.
  r.add_kernel("cuda", "reshape", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& extent = ctx.output_boxes[0].extent;
    if (numel(extent) != in[0].numel()) {
      op_error("reshape", "local part " + to_string(in[0].shape()) + " cannot form the output part " +
                              to_string(extent) + "; the signature is not valid for these shapes");
    }
    return std::vector<Tensor>{in[0].view(0, extent)};
  });

  // Where each output element reads: kernel::expand_source, as on the CPU.
  r.add_kernel("cuda", "expand", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::ExpandSource src = kernel::expand_source(ctx, in[0].shape());
    const Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    gather_strided(in[0], src.base, src.strides, out);
    return std::vector<Tensor>{out};
  });

  r.add_kernel("cuda", kSlice, [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::SliceLocal l =
        kernel::slice_local(kernel::slice_spec(kSlice, ctx.inputs[0].shape, ctx.attrs), ctx.input_boxes[0],
                            ctx.output_boxes[0]);
    const Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    copy_strided(in[0], l.base, l.strides, out, 0, row_major_strides(l.extent), l.extent);
    return std::vector<Tensor>{out};
  });

  // Zeros, then dy written where the slice read.
  r.add_kernel("cuda", kSliceBackward, [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::SliceLocal l =
        kernel::slice_local(kernel::slice_spec(kSliceBackward, ctx.outputs[0].shape, ctx.attrs), ctx.output_boxes[0],
                            ctx.input_boxes[0]);
    const Tensor dx = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), memory_of(in));
    if (dx.nbytes() > 0) {
      device::cuda::check(cudaMemsetAsync(dx.data(), 0, dx.nbytes(), stream()), "cudaMemsetAsync");
    }
    copy_strided(in[0], 0, row_major_strides(l.extent), dx, l.base, l.strides, l.extent);
    return std::vector<Tensor>{dx};
  });

  // x's part (unless the output is its memory: an in-place write), then the values written
  // where the slice lies in it (kernel::slice_write_local, as on the CPU).
  r.add_kernel("cuda", "slice_scatter", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const kernel::SliceWrite w = kernel::slice_write_local(
        kernel::slice_spec("slice_scatter", ctx.inputs[0].shape, ctx.attrs), ctx.input_boxes[0], in[1].shape());
    Memory& mem = memory_of(in);
    const Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), mem);
    if (out.data() != in[0].data() && in[0].nbytes() > 0) {
      device::cuda::check(cudaMemcpyAsync(out.data(), in[0].data(), in[0].nbytes(), cudaMemcpyDeviceToDevice, stream()),
                          "cudaMemcpyAsync");
    }
    copy_strided(in[1], w.src_base, w.src_strides, out, w.dst_base, w.dst_strides, w.extent);
    return std::vector<Tensor>{out};
  });

  // Each input's local part is copied to where it lies in the output's.
  r.add_kernel("cuda", "cat", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim("cat", ctx.attrs.get_int("dim"), in[0].ndim());
    const Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, memory_of(in));
    int64_t offset = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      Shape start = ctx.input_boxes[i].start;
      start[dim] += offset;
      offset += ctx.inputs[i].shape[dim];
      place(in[i], in[i].shape(), start, ctx.output_boxes[0], out);
    }
    return std::vector<Tensor>{out};
  });

  // Piece k: the input's elements from the previous pieces' end along dim (which every local
  // part holds whole).
  r.add_kernel("cuda", "split", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim("split", ctx.attrs.get_int("dim"), in[0].ndim());
    const Shape strides = row_major_strides(in[0].shape());
    std::vector<Tensor> out;
    int64_t offset = 0;
    for (size_t k = 0; k < ctx.outputs.size(); ++k) {
      const Shape& extent = ctx.output_boxes[k].extent;
      out.push_back(output(ctx, k, extent, in[0].dtype(), memory_of(in)));
      gather_strided(in[0], offset * strides[dim], strides, out.back());
      offset += extent[dim];
    }
    return out;
  });

  // Input i is the slab at index i of the new dim.
  r.add_kernel("cuda", "stack", [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const int64_t dim = kernel::normalize_dim("stack", ctx.attrs.get_int("dim"), in[0].ndim() + 1);
    const Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, memory_of(in));
    for (size_t i = 0; i < in.size(); ++i) {
      Shape shape = in[i].shape(), start = ctx.input_boxes[i].start;
      shape.insert(shape.begin() + dim, 1);
      start.insert(start.begin() + dim, static_cast<int64_t>(i));
      place(in[i], shape, start, ctx.output_boxes[0], out);
    }
    return std::vector<Tensor>{out};
  });
}

}  // namespace mf::cuda
