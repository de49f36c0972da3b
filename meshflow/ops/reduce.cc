// Copyright 2026 The meshflow Authors.
// Reductions with PyTorch's names and semantics: sum, mean, amax, amin over the dims in
// attribute "dims" (ints, negative ones count from the end, no repeats; empty means every
// dim, like torch's dim=()), keeping them as size 1 when the optional bool "keepdim" is
// true. sum of an integer tensor is int64, as in PyTorch; mean takes floating tensors only
// and the mean of nothing is NaN; amax/amin reject a reduced dim of size 0 (the maximum of
// nothing has no value) and propagate NaN.
// Signatures, with op the reduction's partial kind (sum for sum and mean):
//   S(d) -> P(op) for each reduced dim d;  S(k) -> S(k') for each kept dim k (k' its index
//   in the output);  P(op) -> P(op), but for sums of uint8, int8 and int16 (their partial
//   values wrap, their int64 sum would not).
// mean divides its local sum by the LOGICAL number of reduced elements, so the partial means
// of S(d) parts add up to the mean.
// Gradients: sum and mean broadcast dy back over the reduced dims (mean divided by their
// size), unexpanded (autograd/var.h's broadcast gradients); amax and amin give it to the
// elements equal to the result, split evenly among ties.
//
// prod (torch.prod) has the reductions' attributes; integers and bool multiply in int64,
// wrapping, and the product of nothing is 1. There is no partial product: only splits of kept
// dims pass through it. Its gradient is the product of the other elements, exact where
// elements are zero (torch's).
//
// sum_squares (below) sums the squares of several tensors at once, for gradient clipping.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "meshflow/core/error.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/onednn.h"
#include "meshflow/ops/lanes.h"
#include "meshflow/ops/reduce_math.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/rows.h"

namespace mf {
namespace {

// Which input dims the attributes reduce. A 0-d tensor has one dim here, as in torch (dim 0
// or -1: `scalar.sum(0)`), and reducing it reduces nothing.
std::vector<bool> reduced_dims(const std::string& op, const Attrs& attrs, int64_t ndim) {
  const std::vector<int64_t>& dims = attrs.get_ints("dims");
  std::vector<bool> reduced(ndim, dims.empty());
  for (int64_t dim : dims) {
    const int64_t d = kernel::normalize_dim(op, dim, std::max<int64_t>(ndim, 1));
    if (ndim == 0) continue;
    if (reduced[d]) {
      op_error(op, "dim " + std::to_string(d) + " appears more than once in dims; expected distinct dims");
    }
    reduced[d] = true;
  }
  return reduced;
}

bool keepdim(const Attrs& attrs) { return attrs.has("keepdim") && attrs.get_bool("keepdim"); }

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// A run of adjacent input dims that are all reduced or all kept, merged into one dim.
struct Group {
  int64_t size, stride;
  bool reduced;
};

// The row-major index space of some groups (outermost first), e.g. the kept ones.
struct IndexSpace {
  std::vector<Group> groups;

  int64_t count() const {
    int64_t n = 1;
    for (const Group& g : groups) n *= g.size;
    return n;
  }
  // The input offset of flat index i (in [0, count())).
  int64_t offset(int64_t i) const {
    if (groups.size() == 1) return i * groups[0].stride;  // no division: one per row costs as much as a short row
    int64_t off = 0;
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
      off += i % g->size * g->stride;
      i /= g->size;
    }
    return off;
  }
};

// lanes[j % kLanes] = f(lanes[j % kLanes], p[j]) for j in [0, n); the remainder past the
// last full set goes to lane 0. Independent accumulators, so that the vector units never wait
// on one add's latency.
template <int kLanes, typename TI, typename TO, typename F>
__attribute__((always_inline)) inline void fold_into(TO* lanes, const TI* p, int64_t n, F f) {
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
#pragma omp simd
    for (int l = 0; l < kLanes; ++l) lanes[l] = f(lanes[l], static_cast<TO>(p[j + l]));
  }
  for (; j < n; ++j) lanes[0] = f(lanes[0], static_cast<TO>(p[j]));
}

// The f-reduction of `lanes`, pairwise (the halves folded together as vectors).
template <int kLanes, typename TO, typename F>
__attribute__((always_inline)) inline TO fold_lanes(TO* lanes, F f) {
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] = f(lanes[l], lanes[l + width]);
  }
  return lanes[0];
}

// Float sums across many rows cascade: add_block(acc, r0, r1) folds rows [r0, r1), at most
// kCascadeBlock of them, into the `width` accumulators at acc (level 0, at init); each
// block's sums are folded a level up, each kCascadeBlock sums of a level a level further, and
// the levels end folded into out (which holds its start). The rounding then grows with the
// levels, not with the rows (torch's cascade sum: a mean over a batch dim of 10^5 rows keeps
// float32's precision), in a fixed order (results do not depend on threads). levels:
// kCascadeLevels * width scratch accumulators.
constexpr int64_t kCascadeBlock = 16;
constexpr int kCascadeLevels = 4;

template <typename TO, typename F, typename AddBlock>
__attribute__((always_inline)) inline void cascade_rows(TO* out, TO* levels, int64_t width, int64_t n, TO init, F f,
                                                        AddBlock add_block) {
  std::fill(levels, levels + kCascadeLevels * width, init);
  int64_t counts[kCascadeLevels] = {};
  auto fold_level = [&](TO* to, int k) MF_INLINE_LAMBDA {
    for (int64_t j = 0; j < width; ++j) to[j] = f(to[j], levels[k * width + j]);
    std::fill(levels + k * width, levels + (k + 1) * width, init);
  };
  for (int64_t r0 = 0; r0 < n; r0 += kCascadeBlock) {
    add_block(levels, r0, std::min(n, r0 + kCascadeBlock));
    for (int k = 0; k + 1 < kCascadeLevels; ++k) {  // a level's sum goes up; a full level's too
      fold_level(levels + (k + 1) * width, k);
      if (++counts[k + 1] < kCascadeBlock) break;
      counts[k + 1] = 0;
      if (k + 2 == kCascadeLevels) fold_level(out, k + 1);
    }
  }
  for (int k = kCascadeLevels - 1; k >= 0; --k) fold_level(out, k);
}

// add_block over rows [0, n) into kLanes `lanes`: in cascade_rows's order when `cascade`
// and the rows span more than a block, else in one block.
template <int kLanes, typename TO, typename F, typename AddBlock>
__attribute__((always_inline)) inline void add_rows(TO* lanes, int64_t n, TO init, F f, bool cascade,
                                                    AddBlock add_block) {
  if (cascade && n > kCascadeBlock) {
    TO levels[kCascadeLevels * kLanes];
    cascade_rows(lanes, levels, kLanes, n, init, f, add_block);
  } else {
    add_block(lanes, 0, n);
  }
}

// The f-reduction, from `init`, of the rows of `len` elements at base + across.offset(r)
// (always inlined, so that fold_long_rows's versions vectorize it for their own CPUs);
// `cascade`: cascade_rows's order, for float sums.
template <int kLanes, typename TI, typename TO, typename F>
__attribute__((always_inline)) inline TO fold_rows(const TI* base, const IndexSpace& across, int64_t len, TO init, F f,
                                                   bool cascade) {
  TO lanes[kLanes];
  std::fill(lanes, lanes + kLanes, init);
  auto add_block = [&](TO* acc, int64_t r0, int64_t r1) {
    TO local[kLanes];  // in registers: acc could alias the input
    std::copy(acc, acc + kLanes, local);
    for (int64_t r = r0; r < r1; ++r) fold_into<kLanes>(local, base + across.offset(r), len, f);
    std::copy(local, local + kLanes, acc);
  };
  add_rows<kLanes>(lanes, across.count(), init, f, cascade, add_block);
  return fold_lanes<kLanes>(lanes, f);
}

// fold_rows for short rows, in 8 lanes combined in order (this form vectorizes where the
// pairwise combination of fold_lanes, in line, does not).
template <typename TI, typename TO, typename F>
__attribute__((always_inline)) inline TO fold_short_rows(const TI* base, const IndexSpace& across, int64_t len, TO init,
                                                         F f, bool cascade) {
  constexpr int kLanes = 8;
  TO lanes[kLanes];
  std::fill(lanes, lanes + kLanes, init);
  auto add_block = [&](TO* acc, int64_t r0, int64_t r1) {
    TO local[kLanes];  // in registers: acc could alias the input
    std::copy(acc, acc + kLanes, local);
    for (int64_t r = r0; r < r1; ++r) {
      const TI* p = base + across.offset(r);
      int64_t j = 0;
      for (; j + kLanes <= len; j += kLanes) {
        for (int l = 0; l < kLanes; ++l) local[l] = f(local[l], static_cast<TO>(p[j + l]));
      }
      for (; j < len; ++j) local[0] = f(local[0], static_cast<TO>(p[j]));
    }
    std::copy(local, local + kLanes, acc);
  };
  add_rows<kLanes>(lanes, across.count(), init, f, cascade, add_block);
  TO acc = lanes[0];
  for (int l = 1; l < kLanes; ++l) acc = f(acc, lanes[l]);
  return acc;
}

// fold_rows for long rows: many lanes, on the widest vectors the CPU has (MF_MULTIVERSIONED,
// core/loops.h): 256 bytes of them, several vectors' chains of adds at once, as many as
// keep the loads (two a cycle) from waiting on an add's latency. Short rows stay in line, in
// few lanes: a call per row, or the lanes' own reduction, would cost as much as the row.
template <typename TO>
constexpr int kLongLanes = 256 / sizeof(TO);

template <typename TI, typename TO, typename F>
MF_MULTIVERSIONED TO fold_long_rows(const TI* base, const IndexSpace& across, int64_t len, TO init, F f,
                                   bool cascade) {
  return fold_rows<kLongLanes<TO>>(base, across, len, init, f, cascade);
}

// row[j] = f(row[j], p[j]) for j in [0, n): a kept last dim, reduced across rows.
template <typename TI, typename TO, typename F>
MF_ALWAYS_INLINE void combine_into(TO* row, const TI* p, int64_t n, F f) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) row[j] = f(row[j], static_cast<TO>(p[j]));
}

// acc[j] = f(acc[j], row[j]) for j in [0, len) and each of the rows at base + across.offset(r),
// r in [r0, r1), in that order. A float sum keeps 256 bytes of acc in registers while it adds
// every row in, so a row costs its loads alone; then 128, 64 and 32 bytes of them, then the
// last columns in memory. Written on GCC's 32-byte vectors (plain arrays gave scalar code):
// one AVX register each, two SSE ones; 64-byte ones, wider than the AVX2 version's
// registers, went through the stack there.
template <typename TI, typename TO, typename F>
MF_ALWAYS_INLINE void combine_rows(TO* acc, const TI* base, const IndexSpace& across, int64_t r0, int64_t r1,
                                   int64_t len, F f, bool sum) {
  int64_t j = 0;
  if constexpr (std::is_same_v<TI, TO> && std::is_floating_point_v<TO>) {
    // Loads and stores through a vector type of the element's alignment: a memcpy into an
    // array of vectors would keep the array in memory.
    typedef TO V __attribute__((vector_size(32), aligned(alignof(TO))));
    constexpr int64_t kL = 32 / sizeof(TO);
    auto add_columns = [&](auto width) MF_INLINE_LAMBDA {  // width: vectors held, a constant
      constexpr int kK = decltype(width)::value;
      for (; sum && j + kK * kL <= len; j += kK * kL) {
        V* to = reinterpret_cast<V*>(acc + j);
        V v[kK];
        for (int k = 0; k < kK; ++k) v[k] = to[k];
        for (int64_t r = r0; r < r1; ++r) {
          const V* x = reinterpret_cast<const V*>(base + across.offset(r) + j);
          for (int k = 0; k < kK; ++k) v[k] += x[k];
        }
        for (int k = 0; k < kK; ++k) to[k] = v[k];
      }
    };
    add_columns(std::integral_constant<int, 8>{});
    add_columns(std::integral_constant<int, 4>{});  // then at most one pass of each
    add_columns(std::integral_constant<int, 2>{});
    add_columns(std::integral_constant<int, 1>{});
  }
  for (int64_t r = r0; r < r1 && j < len; ++r) combine_into(acc + j, base + across.offset(r) + j, len - j, f);
}

// Rows of at least a set of its lanes fold in fold_long_rows's lanes once an output's rows
// hold this many elements together: its call and the fold of its lanes are paid once for
// all of them (a bias's gradient, [N, C, H, W] summed over N, H and W, is N rows of H W to
// each channel).
constexpr int64_t kLongRow = 512;

// Elements of a contiguous reduced row that one task folds when there are few rows: a fixed
// length, so that the result does not depend on the number of threads.
constexpr int64_t kPiece = 1 << 14;
// Elements of a kept row that one task folds across the reduced rows (a few pages: they stay
// in the first cache level while every reduced row is added in).
constexpr int64_t kKeptPiece = 1 << 12;

// row[0, len) = the f-reduction, from init, of the len elements at base + across.offset(r) for
// every r: in order, or in cascade_rows's (float sums).
template <typename TI, typename TO, typename F>
MF_MULTIVERSIONED void fold_across(TO* row, const TI* base, const IndexSpace& across, int64_t len, TO init, F f,
                                   bool cascade) {
  std::fill(row, row + len, init);
  const int64_t n = across.count();
  if (!cascade || n <= kCascadeBlock) {
    combine_rows(row, base, across, 0, n, len, f, cascade);
    return;
  }
  // Not a std::vector: vector<bool> has no data() (bool sums never cascade, but compile here).
  const std::unique_ptr<TO[]> levels(new TO[kCascadeLevels * len]);
  cascade_rows(row, levels.get(), len, n, init, f,
               [&](TO* acc, int64_t r0, int64_t r1)
                   MF_INLINE_LAMBDA { combine_rows(acc, base, across, r0, r1, len, f, cascade); });
}

// out[o] = f-reduction of the input elements that map to o, starting from `init`. Dims are
// merged into groups first, so the innermost loop always runs over contiguous memory: along
// the last group when it is reduced (in independent accumulators; a few long rows in
// pieces of kPiece, on the team, folded in order after), else across it, a piece of an
// output row at a time (`cascade`: fold_across's cascade, for float sums).
template <typename TI, typename TO, typename F>
void reduce(const TI* in, const Shape& shape, const std::vector<bool>& reduced, TO* out, int64_t out_n, TO init,
            F f, bool cascade = false) {
  if (numel(shape) == 0) {
    std::fill(out, out + out_n, init);
    return;
  }
  std::vector<Group> groups;
  int64_t stride = numel(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    stride /= shape[d];
    if (shape[d] == 1) continue;
    if (!groups.empty() && groups.back().reduced == reduced[d]) {
      groups.back().size *= shape[d];
      groups.back().stride = stride;
    } else {
      groups.push_back({shape[d], stride, reduced[d]});
    }
  }
  const bool inner_reduced = !groups.empty() && groups.back().reduced;
  const int64_t inner = groups.empty() ? 1 : groups.back().size;
  if (!groups.empty()) groups.pop_back();
  IndexSpace outer, across;
  for (const Group& g : groups) (g.reduced ? across : outer).groups.push_back(g);
  const int64_t n_outer = outer.count(), n_across = across.count();
  const bool parallel = numel(shape) > kernel::kParallelGrain;
  if (inner_reduced) {
    const int64_t piece = n_across == 1 && n_outer < 64 ? kPiece : inner, pieces = (inner + piece - 1) / piece;
    // Not a std::vector: a vector<bool>'s elements share bytes, which threads would race on.
    const std::unique_ptr<TO[]> partial(pieces > 1 ? new TO[n_outer * pieces] : nullptr);
    kernel::parallel_for(n_outer * pieces, parallel, [&](int64_t task) {
      // (No division where rows are not cut: a division per short row costs as much as the row.)
      const int64_t o = pieces == 1 ? task : task / pieces, begin = pieces == 1 ? 0 : task % pieces * piece;
      const int64_t len = std::min(piece, inner - begin);
      const TI* base = in + outer.offset(o) + begin;
      const bool long_rows = len >= kLongLanes<TO> && len * n_across >= kLongRow;
      const TO acc = long_rows ? fold_long_rows(base, across, len, init, f, cascade)
                               : fold_short_rows(base, across, len, init, f, cascade);
      (pieces > 1 ? partial.get() : out)[pieces > 1 ? task : o] = acc;
    });
    for (int64_t o = 0; pieces > 1 && o < n_outer; ++o) {
      out[o] = partial[o * pieces];
      for (int64_t k = 1; k < pieces; ++k) out[o] = f(out[o], partial[o * pieces + k]);
    }
    return;
  }
  // Kept last dims: output rows cut into pieces of kKeptPiece, each summed across its rows
  // while it stays in cache, and the pieces spread over the team (one output row, as a mean
  // over the batch dim, is then still many tasks; shorter pieces where the team would have
  // fewer than a task per thread); each element is folded in the same order whatever the cut.
  int64_t piece = std::min(inner, kKeptPiece);
  const int64_t threads = parallel ? omp_get_max_threads() : 1;
  if (n_outer * ((inner + piece - 1) / piece) < threads) {
    constexpr int64_t kColumns = 64;  // a piece's least length: whole vectors of lanes
    piece = std::min(inner, std::max(kColumns, (inner / threads + kColumns - 1) / kColumns * kColumns));
  }
  const int64_t pieces = (inner + piece - 1) / piece;
  kernel::parallel_for(n_outer * pieces, parallel, [&](int64_t task) {
    const int64_t o = pieces == 1 ? task : task / pieces, begin = pieces == 1 ? 0 : task % pieces * piece;
    const int64_t len = std::min(piece, inner - begin);
    const TI* base = in + outer.offset(o) + begin;
    fold_across(out + o * inner + begin, base, across, len, init, f, cascade);
  });
}

// Whether reducing x over `reduced` folds short contiguous rows (the reduced dims, those of
// size 1 aside, all after the kept ones, and fewer than kLongRow elements to each output),
// and if so folds them with ops/rows.h's batches: vectorized, and 16 rows' lanes folded at
// once (a row of a few vectors costs less than the fold of its lanes on its own).
template <typename T>
bool reduce_short_rows(ReduceOp op, const T* x, const Shape& shape, const std::vector<bool>& reduced, T* y,
                       int64_t rows) {
  bool past_kept = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (reduced[d]) {
      past_kept = true;
    } else if (past_kept) {
      return false;
    }
  }
  const int64_t total = numel(shape);
  if (total == 0 || total / rows >= kLongRow) return false;
  const int64_t n = total / rows, per_task = std::max<int64_t>(1, kernel::kParallelGrain / 2 / n);
  kernel::parallel_for((rows + per_task - 1) / per_task, total > kernel::kParallelGrain, [&](int64_t t) {
    const int64_t first = t * per_task;
    kernel::reduce_rows(x + first * n, y + first, std::min(per_task, rows - first), n, op);
  });
  return true;
}

template <typename TI, typename TO>
void reduce_with(ReduceOp op, const Tensor& in, const std::vector<bool>& reduced, const Tensor& out) {
  const TI* x = in.data_as<TI>();
  TO* y = out.data_as<TO>();
  if constexpr (std::is_floating_point_v<TI> && std::is_same_v<TI, TO>) {
    if (reduce_short_rows(op, x, in.shape(), reduced, y, out.numel())) return;
  }
  const TO init = kernel::identity<TO>(op);
  // The steps are reduce_math.h's, the GPU's too.
  switch (op) {
    case ReduceOp::kSum:
      reduce(x, in.shape(), reduced, y, out.numel(), init, scalar::SumStep{}, std::is_floating_point_v<TO>);
      return;
    case ReduceOp::kMax:
      reduce(x, in.shape(), reduced, y, out.numel(), init, scalar::MaxStep{});
      return;
    case ReduceOp::kMin:
      reduce(x, in.shape(), reduced, y, out.numel(), init, scalar::MinStep{});
      return;
  }
}

// A mean's sums divided by the count of reduced elements (0 for an empty reduction: 0 / 0 is
// NaN, as in NumPy).
template <typename T>
void divide_by_count(const Tensor& out, const Shape& logical, const std::vector<bool>& reduced) {
  int64_t count = 1;
  for (size_t d = 0; d < logical.size(); ++d) count *= reduced[d] ? logical[d] : 1;
  T* y = out.data_as<T>();
  const T divisor = static_cast<T>(count);
  for (int64_t i = 0, n = out.numel(); i < n; ++i) y[i] /= divisor;
}

// A channels-last x ([N, C, spatial...] lying as [N, spatial..., C]) viewed as it lies, with
// `reduced` (per logical dim) in that order, where its kept dims lie in the same order as in
// the row-major output (C reduced, or every spatial dim); else none and `reduced` as given.
std::pair<std::optional<Tensor>, std::vector<bool>> as_it_lies(const Tensor& x, const std::vector<bool>& reduced) {
  const Shape& shape = x.shape();
  const bool planes_reduced = std::all_of(reduced.begin() + std::min<size_t>(2, reduced.size()), reduced.end(),
                                          [](bool r) { return r; });
  if (!channels_last(x.format()) || !(reduced[1] || planes_reduced)) return {std::nullopt, reduced};
  Shape lying{shape[0]};
  std::vector<bool> flags{reduced[0]};
  for (size_t d = 2; d < shape.size(); ++d) lying.push_back(shape[d]), flags.push_back(reduced[d]);
  lying.push_back(shape[1]), flags.push_back(reduced[1]);
  return {Tensor::wrap(x.data(), lying, x.dtype(), x.storage()), flags};
}

OpDef reduction(const std::string& name, ReduceOp op, bool mean) {
  OpDef def;
  def.name = name;
  def.linear_work = true;
  def.infer = [name, op, mean](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    const Shape& shape = in[0].shape;
    const std::vector<bool> reduced = reduced_dims(name, attrs, static_cast<int64_t>(shape.size()));
    if (mean && !is_floating(in[0].dtype) && !is_complex(in[0].dtype)) {
      op_error(name, std::string("takes a floating tensor, got ") + dtype_name(in[0].dtype) +
                         "; expected float32 or float64 (cast first)");
    }
    Shape out;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (reduced[d] && op != ReduceOp::kSum && shape[d] == 0) {
        // An IndexError where the dims are named (amax(x, 0)), as torch's; of every dim, not.
        const std::string message = "cannot reduce dim " + std::to_string(d) + " of size 0 of a tensor of shape " +
                                    to_string(shape) + ": the " + reduce_op_name(op) +
                                    " of nothing has no value; expected nonempty reduced dims";
        if (attrs.get_ints("dims").empty()) op_error(name, message);
        index_error(name, message);
      }
      if (!reduced[d]) out.push_back(shape[d]);
      if (reduced[d] && keepdim(attrs)) out.push_back(1);
    }
    const bool widen = op == ReduceOp::kSum && !is_floating(in[0].dtype) && !is_complex(in[0].dtype);
    return std::vector<TensorMeta>{{out, widen ? DType::kInt64 : in[0].dtype}};
  };
  def.signatures = [name, op](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    const std::vector<bool> reduced = reduced_dims(name, attrs, nd);
    const bool keep = keepdim(attrs);
    const Sbp partial = Sbp::partial(op);
    std::vector<Signature> sigs;
    int kept = 0;  // kept dims before d
    for (int d = 0; d < nd; ++d) {
      const Sbp out = reduced[d] ? partial : Sbp::split(keep ? d : kept);
      sigs.push_back({{Sbp::split(d)}, {out}});
      kept += !reduced[d];
    }
    // A small integer's partial sums wrap, which its sum in int64 would not: sum it whole.
    if (!(op == ReduceOp::kSum && is_small_int(in[0].dtype))) sigs.push_back({{partial}, {partial}});
    return sigs;
  };
  // A channels-last input (core/tensor.h) is read as it lies where every dim is reduced, or
  // where its kept dims lie in the same order either way (the channels or the planes reduced:
  // a conv bias's gradient, over [N, H, W, C] as it lies), else row-major; the output is
  // row-major.
  def.formats = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>& out, const Attrs&) {
    return std::vector<MemoryFormat>(out.size(), MemoryFormat::kContiguous);
  };
  def.kernel = [name, op, mean](const std::vector<Tensor>& in_any, const KernelContext& ctx) {
    const Shape& logical = ctx.inputs[0].shape;
    const std::vector<bool> reduced = reduced_dims(name, ctx.attrs, static_cast<int64_t>(logical.size()));
    const bool whole = std::all_of(reduced.begin(), reduced.end(), [](bool r) { return r; });
    const std::pair<std::optional<Tensor>, std::vector<bool>> lies = as_it_lies(in_any[0], reduced);
    const std::vector<bool>& flags = lies.second;
    const std::vector<Tensor> in{whole        ? in_any[0]
                                 : lies.first ? *lies.first
                                              : kernel::onednn::in_format(in_any[0], MemoryFormat::kContiguous)};
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    if (is_complex(in[0].dtype())) {  // sum and mean: the parts' as a float tensor of shape (..., 2)
      auto parts = [](const Tensor& t) {
        Shape shape = t.shape();
        shape.push_back(2);
        return Tensor::wrap(t.data(), shape, real_of(t.dtype()), t.storage());
      };
      const Tensor real_out = parts(out);
      std::vector<bool> reduced_parts = flags;
      reduced_parts.push_back(false);
      visit_dtype(real_out.dtype(), [&](auto v) {
        using T = decltype(v);
        if constexpr (std::is_floating_point_v<T>) {
          reduce_with<T, T>(op, parts(in[0]), reduced_parts, real_out);
          if (mean) divide_by_count<T>(real_out, logical, reduced);
        }
      });
      return std::vector<Tensor>{out};
    }
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (sizeof(T) == 1 && !std::is_same_v<T, bool>) {
        // uint8 and int8 sum through int16: GCC 12.2 at -O3 miscompiles the loop summing
        // 1-byte integers into int64 lanes (its widening-sum pattern drops some lanes).
        if (out.dtype() != in[0].dtype()) {
          Tensor wide = Tensor::empty(in[0].shape(), DType::kInt16);
          const T* x = in[0].data_as<T>();
          int16_t* w = wide.data_as<int16_t>();
          kernel::simd_for(in[0].numel(), [&](int64_t i) { w[i] = x[i]; });
          return reduce_with<int16_t, int64_t>(op, wide, flags, out);
        }
      } else if constexpr (std::is_integral_v<T>) {
        if (out.dtype() != in[0].dtype()) return reduce_with<T, int64_t>(op, in[0], flags, out);
      }
      reduce_with<T, T>(op, in[0], flags, out);
      if constexpr (std::is_floating_point_v<T>) {
        if (mean) divide_by_count<T>(out, logical, reduced);
      }
    });
    return std::vector<Tensor>{out};
  };
  return def;
}

// ---------------------------------------------------------------------------------------
// Gradients. A value of the output's shape broadcasts back over the input once the reduced
// dims are restored as size 1 (the keepdim shape). Each gradient takes a broadcast dy (one
// that broadcasts to the output's shape: autograd/var.h), whose dims go back alike.

struct Reduced {
  std::vector<bool> reduced;  // per input dim
  bool keepdim = false;
  int64_t count = 1;  // input elements per output element
};

Reduced reduced_of(const std::string& op, const GradContext& g) {
  const Shape& shape = g.inputs[0].shape();
  Reduced r{reduced_dims(op, g.attrs, static_cast<int64_t>(shape.size())), keepdim(g.attrs)};
  for (size_t d = 0; d < shape.size(); ++d) r.count *= r.reduced[d] ? shape[d] : 1;
  return r;
}

// `y`, of the output's shape or a broadcast of it, with the reduced dims back as size 1.
Var with_kept_dims(const Var& y, const Reduced& r) {
  if (r.keepdim) return y;
  Shape shape;
  size_t kept = 0;
  for (const bool reduced : r.reduced) shape.push_back(reduced ? 1 : y.shape()[kept++]);
  return y.shape() == shape ? y : fn::reshape(y, shape);
}

// sum, and mean (`mean`): every input element gets its output's gradient (over the count):
// dy with the reduced dims back as size 1, a broadcast gradient (autograd/var.h) that the
// engine expands only for a consumer that needs the full shape.
GradFn sum_grad(const std::string& op, bool mean) {
  return [op, mean](const GradContext& g) {
    const Reduced r = reduced_of(op, g);
    Var dy = g.grad_outputs[0];
    if (mean) dy = fn::div_scalar(dy, static_cast<double>(r.count));
    return std::vector<Var>{with_kept_dims(dy, r)};
  };
}

// amax, amin: the gradient goes to the elements equal to the result, split evenly among
// ties, as in torch (a NaN result equals nothing: NaN everywhere, as torch's amax). With the
// attribute nan_is_extremum (torch.max() and min() of every element, whose backward differs
// from amax's), a NaN result's gradient is split among the NaN elements instead.
GradFn extremum_grad(const std::string& op) {
  return [op](const GradContext& g) {
    const Reduced r = reduced_of(op, g);
    const Var& x = g.inputs[0];
    const Var out = with_kept_dims(g.outputs[0], r);
    Var is_extremum = fn::cast(fn::eq(x, out), x.dtype());
    if (g.attrs.has("nan_is_extremum") && g.attrs.get_bool("nan_is_extremum")) {
      // disjoint from eq: a NaN result equals no element
      is_extremum = fn::add(is_extremum, fn::cast(fn::logical_and(fn::ne(x, x), fn::ne(out, out)), x.dtype()));
    }
    const Var ties = fn::sum(is_extremum, g.attrs.get_ints("dims"), /*keepdim=*/true);
    return std::vector<Var>{fn::mul(is_extremum, fn::div(with_kept_dims(g.grad_outputs[0], r), ties))};
  };
}

// ---------------------------------------------------------------------------------------
// prod.

OpDef prod_op() {
  const std::string name = "prod";
  OpDef def = reduction(name, ReduceOp::kSum, false);  // sum's shape and dtype rule (int64 for integers)
  def.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t nd = static_cast<int64_t>(in[0].shape.size());
    const std::vector<bool> reduced = reduced_dims(name, attrs, nd);
    std::vector<Signature> sigs;
    int kept = 0;  // kept dims before d
    for (int d = 0; d < nd; ++d) {
      if (!reduced[d]) sigs.push_back({{Sbp::split(d)}, {Sbp::split(keepdim(attrs) ? d : kept)}});
      kept += !reduced[d];
    }
    return sigs;
  };
  def.kernel = [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const std::vector<bool> reduced =
        reduced_dims(name, ctx.attrs, static_cast<int64_t>(ctx.inputs[0].shape.size()));
    Tensor out = ctx.output(0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype);
    auto products = [&](auto v) {
      using T = decltype(v);
      using TO = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
      reduce(in[0].data_as<T>(), in[0].shape(), reduced, out.data_as<TO>(), out.numel(), TO{1},
             scalar::ProdStep{});
    };
    is_complex(in[0].dtype()) ? visit_complex(in[0].dtype(), products) : visit_with_bool(in[0].dtype(), products);
    return std::vector<Tensor>{out};
  };
  // d prod / d x_i is the product of the others: prod / x_i without zeros; with one zero in
  // the reduced elements, the product of the nonzero ones at the zero and 0 elsewhere; with
  // more, 0. A complex x's is its conjugate (torch's). Those zeros are written as products
  // with the zero elements (their sum z: the zero itself where there is one, the other one at
  // a zero where there are two), so that the gradient's own gradient (create_graph) is the
  // product of the others too: z (P / x_i) and (z - x_i) P are 0, but not their derivatives.
  def.grad = [name](const GradContext& g) {
    const Reduced r = reduced_of(name, g);
    const Var& x = g.inputs[0];
    const std::vector<int64_t>& dims = g.attrs.get_ints("dims");
    const Var zero = fn::eq(x, fn::zeros_like(x));
    const Var nonzero_x = fn::where(zero, fn::ones_like(x), x);
    const Var nonzero_product = call1(name, {nonzero_x}, {{"dims", dims}, {"keepdim", true}});
    const Var zero_sum = fn::sum(fn::where(zero, x, fn::zeros_like(x)), dims, /*keepdim=*/true);
    const Var zeros = fn::sum(fn::cast(zero, DType::kInt64), dims, /*keepdim=*/true);
    auto count_is = [&](int64_t n) { return fn::eq(zeros, fn::full_like(zeros, static_cast<double>(n))); };
    const Var at_nonzero = fn::where(count_is(0), fn::div(nonzero_product, nonzero_x),
                                     fn::where(count_is(1), fn::mul(zero_sum, fn::div(nonzero_product, nonzero_x)),
                                               fn::zeros_like(x)));
    const Var at_zero = fn::where(count_is(1), nonzero_product,
                                  fn::where(count_is(2), fn::mul(fn::sub(zero_sum, x), nonzero_product),
                                            fn::zeros_like(x)));
    const Var others = fn::where(zero, at_zero, at_nonzero);
    const Var slope = is_complex(x.dtype()) ? call1("conj", {others}) : others;
    return std::vector<Var>{fn::mul(slope, with_kept_dims(g.grad_outputs[0], r))};
  };
  def.grad_takes_broadcast = true;
  def.booleans = true;
  def.small_ints = true;
  def.complex = true;
  return def;
}

// sum_squares: the sum of the squares of every element of every input (of one floating dtype,
// any shapes), a scalar of their dtype: clip_grad_norm's fused reduction (nn/optim.h), one
// call for a group of gradients instead of a square and a sum per gradient. Accumulated in
// float64 over fixed chunks, added in their order: the same bits at any thread count.
// Signatures: every input S(d) -> P(sum), for each dim d every input has. Not differentiable.
constexpr const char* kSumSquares = "sum_squares";
constexpr int64_t kSquaresChunk = 1 << 14;

template <typename T>
double squares_of(const T* x, int64_t n) {
  double acc[8] = {};  // one per lane, each adding its elements in order: any vector width alike
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) {
      const double v = static_cast<double>(x[i + j]);
      acc[j] += v * v;
    }
  }
  for (; i < n; ++i) acc[0] += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

std::vector<Tensor> sum_squares_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  struct Chunk {
    size_t input;
    int64_t start, size;
  };
  std::vector<Chunk> chunks;
  int64_t total = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t n = in[i].numel();
    for (int64_t start = 0; start < n; start += kSquaresChunk) chunks.push_back({i, start, std::min(kSquaresChunk, n - start)});
    total += n;
  }
  std::vector<double> partial(chunks.size());
  kernel::parallel_for(static_cast<int64_t>(chunks.size()), total > kernel::kParallelGrain, [&](int64_t c) {
    const Chunk& k = chunks[c];
    partial[c] = visit_dtype(in[k.input].dtype(), [&](auto v) -> double {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        return squares_of(in[k.input].data_as<T>() + k.start, k.size);
      } else {
        return 0;  // infer admits floating inputs only
      }
    });
  });
  double sum = 0;
  for (double p : partial) sum += p;
  Tensor out = ctx.output(0, {}, ctx.outputs[0].dtype);
  visit_dtype(out.dtype(), [&](auto v) { *out.data_as<decltype(v)>() = static_cast<decltype(v)>(sum); });
  return {out};
}

OpDef sum_squares_op() {
  OpDef op;
  op.name = kSumSquares;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs&) {
    if (in.empty()) op_error(kSumSquares, "no inputs; expected one tensor or more");
    for (const TensorMeta& m : in) {
      if (!is_floating(m.dtype) || m.dtype != in[0].dtype) {
        op_error(kSumSquares, std::string("inputs of dtypes ") + dtype_name(in[0].dtype) + " and " + dtype_name(m.dtype) +
                                  "; expected floating tensors of one dtype");
      }
    }
    return std::vector<TensorMeta>{{Shape{}, in[0].dtype}};
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
    size_t ndim = in[0].shape.size();
    for (const TensorMeta& m : in) ndim = std::min(ndim, m.shape.size());
    std::vector<Signature> out;
    for (size_t d = 0; d < ndim; ++d) {
      out.push_back({std::vector<Sbp>(in.size(), Sbp::split(static_cast<int>(d))), {Sbp::partial_sum()}});
    }
    return out;
  };
  op.kernel = sum_squares_kernel;
  op.linear_work = true;
  return op;
}

}  // namespace

void register_reduce_ops(OpRegistry& r) {
  r.add(prod_op());
  r.add(sum_squares_op());
  // sum of bool counts the true values (int64, as in torch); amax and amin of bool are any and
  // all (the Python layer's any and all call them).
  for (OpDef op : {with_grad(reduction("sum", ReduceOp::kSum, false), sum_grad("sum", false), kReadsNothing),
                   with_grad(reduction("mean", ReduceOp::kSum, true), sum_grad("mean", true), kReadsNothing),
                   with_grad(reduction("amax", ReduceOp::kMax, false), extremum_grad("amax")),
                   with_grad(reduction("amin", ReduceOp::kMin, false), extremum_grad("amin"))}) {
    op.booleans = op.name != "mean";
    op.small_ints = true;  // mean's infer refuses every integer
    op.complex = op.name == "sum" || op.name == "mean";  // complex values have no order
    op.grad_takes_broadcast = true;
    r.add(std::move(op));
  }
}

}  // namespace mf
