// Copyright 2026 The meshflow Authors.
// The recurrence of nn.RNN, nn.LSTM and nn.GRU as one op per layer and direction, as cuDNN's
// and oneDNN's RNN primitives: the caller projects the inputs of every step in one product
// (x W_ih^T + b_ih), and the op runs the steps, each one product h W_hh^T and one fused pass
// over the gates (ops/rnn.h), where the composition of linear, sigmoid, tanh and
// products takes about fifteen ops and their gradients per step. Its backward is one op too:
// the steps in reverse, then the weight's gradient as one product over all steps.
// Signatures (B, ... -> B implied):
//   rnn_scan(x[T, B, G H], h0[B, P][, c0[B, H]], w_hh[G H, P][, b_hh[G H]][, w_hr[P, H]];
//            mode, reverse, has_bias[, has_proj][, batch_first][, batch_sizes][, bidirectional])
//            -> y[T, B, P], h_n[B, P][, c_n[B, H]], workspace[T, B, W]
//     mode: rnn.h's Mode (G = 4 LSTM, 3 GRU, 1 RNN); c0 and c_n for LSTM only; has_proj
//     (LSTM's proj_size): each step's state projected, h' = (o tanh(c')) W_hr^T, P = w_hr's
//     rows (without it P = H), the projection inside the scan as cuDNN's; reverse:
//     the steps from last to first; batch_first: x, y and the workspace (and the backward's
//     sequences) [B, T, ...], as nn.LSTM(batch_first=True) takes them, with no transposed
//     copy on either side; batch_sizes (a packed sequence): x is [N, G H] with step
//     t's batch_sizes[t] rows (non-increasing, summing to N) back to back, y and the
//     workspace likewise, and a row's state stops at its sequence's last step (starts there
//     in reverse), as torch runs a PackedSequence. The workspace (W in rnn.h) is what
//     the backward reads. bidirectional (not with reverse): both directions of a layer in
//     one call, as one parallel region (a direction a thread at two): the second runs the
//     steps in reverse; each sequence's last dim holds the first direction's values, then
//     the second's (x [.., 2 G H], one product for both directions' input projections, and
//     y [.., 2 P], the layer's output as torch's), the states are [2, B, P] ([2, B, H]) and
//     the weights both directions' stacked along dim 0 (w_hh [2 G H, P], b_hh [2 G H], w_hr
//     [2 P, H]).  S(1), S(0), S(0), B, B -> S(1), S(0), S(0), S(1) (not packed;
//     the sequences S(0) batch_first, bidirectional's states S(1)).
//   rnn_scan_backward(w_hh, h0[, c0], y, workspace, dy, dworkspace, dh_n[, dc_n][, w_hr]; the
//     same attributes) -> dx, dh0[, dc0], dw_hh[, db_hh][, dw_hr]: every output's gradient (the
//     workspace's is zeros unless a caller differentiates it).
//     B, S(0), S(0), S(1), S(1), S(1), S(1), S(0), S(0), B -> S(1), S(0), S(0), P, P, P (not
//     packed; bidirectional, the states S(1)).
// float32 and float64; bfloat16 and float16 computed in float32 (OpDef::bfloat16). The CPU's
// kernels below (the test device runs them on host views), CUDA's in cuda/rnn.cu. The backward
// op has no gradient: a second differentiation through it raises naming it.
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/gemm.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/rnn.h"

namespace mf {
namespace kernel::rnn {

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }

int64_t Scan::prev_row(int64_t t, int64_t b, int64_t d) const {
  const int64_t s = reversed(d) ? t + 1 : t - 1;
  if (s < 0 || s >= steps() || b >= sizes[s]) return -1;
  return row(s, b);
}

int64_t mode_of(const std::string& op, const Attrs& attrs) {
  const int64_t mode = attrs.get_int("mode");
  if (mode < kRnnTanh || mode > kGru) {
    op_error(op, "mode is " + std::to_string(mode) + "; expected 0 (RNN tanh), 1 (RNN relu), 2 (LSTM) or 3 (GRU)");
  }
  return mode;
}

Scan scan_of(const std::string& op, const Attrs& attrs, const Shape& x, int64_t hidden, int64_t proj) {
  Scan s;
  s.mode = mode_of(op, attrs);
  s.reverse = flag(attrs, "reverse");
  if (flag(attrs, "bidirectional")) {
    if (s.reverse) op_error(op, "reverse with bidirectional: the second direction runs in reverse; expected one of them");
    s.directions = 2;
  }
  s.has_bias = flag(attrs, "has_bias");
  s.hidden = hidden;
  s.proj = proj;
  if (flag(attrs, "has_proj") && s.mode != kLstm) {
    op_error(op, "has_proj with mode " + std::to_string(s.mode) + ": a projection is LSTM's; expected mode 2");
  }
  s.batch_first = flag(attrs, "batch_first");
  if (s.batch_first && attrs.has("batch_sizes")) {
    op_error(op, "batch_first with batch_sizes: a packed sequence's steps are time-major; expected one of them");
  }
  if (attrs.has("batch_sizes")) {
    s.sizes = attrs.get_ints("batch_sizes");
    if (x.size() != 2) op_error(op, "a packed input is " + to_string(x) + "; expected [rows, gates * hidden]");
    for (size_t t = 0; t < s.sizes.size(); ++t) {
      if (s.sizes[t] < 1 || (t > 0 && s.sizes[t] > s.sizes[t - 1])) {
        op_error(op, "batch_sizes must be positive and non-increasing; got " + to_string(Shape(s.sizes)));
      }
    }
    if (std::accumulate(s.sizes.begin(), s.sizes.end(), int64_t{0}) != x[0]) {
      op_error(op, "batch_sizes sum to " + std::to_string(std::accumulate(s.sizes.begin(), s.sizes.end(), int64_t{0})) +
                       "; expected the packed input's " + std::to_string(x[0]) + " rows");
    }
    s.batch = s.sizes.empty() ? 0 : s.sizes[0];
  } else {
    if (x.size() != 3) {
      op_error(op, "the input is " + to_string(x) + "; expected [" +
                       (s.batch_first ? "batch, steps" : "steps, batch") + ", gates * hidden]");
    }
    s.batch = x[s.batch_first ? 0 : 1];
    s.sizes.assign(static_cast<size_t>(x[s.batch_first ? 1 : 0]), s.batch);
  }
  s.offsets.resize(s.sizes.size());
  std::exclusive_scan(s.sizes.begin(), s.sizes.end(), s.offsets.begin(), int64_t{0});
  return s;
}

}  // namespace kernel::rnn

namespace {

using kernel::rnn::Scan;
namespace rnn = kernel::rnn;

constexpr const char* kScan = "rnn_scan";
constexpr const char* kScanBackward = "rnn_scan_backward";

// sigmoid and tanh that vectorize in float32 (fast_math.h: no libm call, no float
// comparison), libm's in float64.
struct HostActivations {
  template <typename T>
  static MF_ALWAYS_INLINE T sigmoid(T x) {
    if constexpr (std::is_same_v<T, double>) {
      return 1 / (1 + std::exp(-x));
    } else {
      // e = exp(-|x|): sigmoid(x) = 1 / (1 + e) for x >= 0, e / (1 + e) below.
      const float e = fast_math::exp_nonpositive(-std::fabs(x)), s = 1 / (1 + e);
      const uint32_t negative = 0u - (fast_math::bits_of(x) >> 31);
      return fast_math::float_of((fast_math::bits_of(e * s) & negative) | (fast_math::bits_of(s) & ~negative));
    }
  }
  template <typename T>
  static MF_ALWAYS_INLINE T tanh(T x) {
    if constexpr (std::is_same_v<T, double>) {
      return std::tanh(x);
    } else {
      // tanh(|x|) = (1 - e) / (1 + e) with e = exp(-2 |x|), x's sign put back.
      const float e = fast_math::exp_nonpositive(-2 * std::fabs(x));
      return fast_math::float_of(fast_math::bits_of((1 - e) / (1 + e)) | (fast_math::bits_of(x) & 0x80000000u));
    }
  }
};

// The metas of rnn_scan's inputs by name, checked.
struct ScanInputs {
  const TensorMeta *x, *h0, *c0 = nullptr, *w, *b = nullptr, *w_hr = nullptr;
};

void expect_meta(const std::string& op, const TensorMeta& t, const char* what, const Shape& shape, DType dtype) {
  if (t.shape != shape || t.dtype != dtype) {
    op_error(op, std::string(what) + " is " + to_string(t.shape) + " " + dtype_name(t.dtype) + "; expected " +
                     to_string(shape) + " " + dtype_name(dtype));
  }
}

// A state's shape: [batch, width], bidirectional [2, batch, width] (torch's h_n rows of a layer).
Shape state_shape(const Scan& s, int64_t width) {
  return s.directions == 1 ? Shape{s.batch, width} : Shape{2, s.batch, width};
}

// Checks the forward's inputs; returns the scan and fills `named`.
Scan checked_scan(const std::vector<TensorMeta>& in, const Attrs& attrs, ScanInputs& named) {
  const bool lstm = rnn::mode_of(kScan, attrs) == rnn::kLstm, has_bias = rnn::flag(attrs, "has_bias");
  const bool has_proj = rnn::flag(attrs, "has_proj");
  kernel::expect_inputs(kScan, in, 3 + lstm + has_bias + has_proj);
  named.x = &in[0], named.h0 = &in[1];
  if (lstm) named.c0 = &in[2];
  named.w = &in[2 + lstm];
  if (has_bias) named.b = &in[3 + lstm];
  if (has_proj) named.w_hr = &in.back();
  const DType dtype = in[0].dtype;
  if (dtype != DType::kFloat32 && dtype != DType::kFloat64) {
    op_error(kScan, std::string("the input's dtype is ") + dtype_name(dtype) + "; expected a floating dtype");
  }
  const int64_t dirs = rnn::flag(attrs, "bidirectional") ? 2 : 1;
  const TensorMeta& sized = has_proj ? *named.w_hr : *named.h0;  // [..., hidden]
  if (sized.shape.size() != (has_proj || dirs == 1 ? 2u : 3u)) {
    op_error(kScan, std::string(has_proj ? "w_hr is " : "h0 is ") + to_string(sized.shape) + "; expected [" +
                        (has_proj ? (dirs == 1 ? "proj_size" : "2 * proj_size") : dirs == 1 ? "batch" : "2, batch") + ", hidden]");
  }
  Scan s = rnn::scan_of(kScan, attrs, in[0].shape, sized.shape.back(), has_proj ? sized.shape[0] / dirs : 0);
  const int64_t gh = rnn::gates(s.mode) * s.hidden;
  if (in[0].shape.back() != dirs * gh) {
    op_error(kScan, "the input projection's last dim is " + std::to_string(in[0].shape.back()) + "; expected " +
                        std::to_string(dirs * gh) + " (directions * gates * hidden)");
  }
  expect_meta(kScan, *named.h0, "h0", state_shape(s, s.state()), dtype);
  if (named.c0) expect_meta(kScan, *named.c0, "c0", state_shape(s, s.hidden), dtype);
  expect_meta(kScan, *named.w, "w_hh", {dirs * gh, s.state()}, dtype);
  if (named.b) expect_meta(kScan, *named.b, "b_hh", {dirs * gh}, dtype);
  if (named.w_hr) expect_meta(kScan, *named.w_hr, "w_hr", {dirs * s.proj, s.hidden}, dtype);
  return s;
}

// A [..., G H] shape with its last dim `width`.
Shape with_last(Shape shape, int64_t width) {
  shape.back() = width;
  return shape;
}

std::vector<TensorMeta> scan_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  ScanInputs named;
  const Scan s = checked_scan(in, attrs, named);
  const DType dtype = in[0].dtype;
  std::vector<TensorMeta> out{{with_last(in[0].shape, s.directions * s.state()), dtype}, *named.h0};
  if (named.c0) out.push_back(*named.c0);
  out.push_back({with_last(in[0].shape, s.directions * rnn::workspace_width(s.mode, s.hidden, s.proj > 0)), dtype});
  return out;
}

// One row's gates, forward and backward: whole functions built for each ISA level, the cell
// inlined into the loop, so that it vectorizes (a lambda passed to simd_for stayed a call per
// element).
template <int64_t mode, typename T>
MF_MULTIVERSIONED void forward_row(int64_t n, const T* x, const T* hp, const T* b, T* ws, T* h, T* c, T* y) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) {
    T cell = mode == rnn::kLstm ? c[j] : T(0);
    rnn::forward<mode, HostActivations>(n, j, x, hp, b, ws, h[j], cell);
    if constexpr (mode == rnn::kLstm) c[j] = cell;
    y[j] = h[j];
  }
}

// Previous states hp and cp; dy + dh the gradient reaching the cell's output (the output's
// and the running one; projected, m's through W_hr and the workspace's m), dc the running
// one (overwritten); writes the pre-activations' gradients and GRU's direct term.
template <int64_t mode, typename T>
MF_MULTIVERSIONED void backward_row(int64_t n, const T* ws, const T* dws, const T* y, const T* hp, const T* cp,
                                    const T* dy, const T* dh, T* dc, T* dx, T* dhp, T* direct) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) {
    T cell = mode == rnn::kLstm ? dc[j] : T(0);
    direct[j] = rnn::backward<mode, HostActivations>(n, j, ws, dws, mode == rnn::kLstm ? T(0) : y[j],
                                                     mode == rnn::kGru ? hp[j] : T(0),
                                                     mode == rnn::kLstm ? cp[j] : T(0), dy[j] + dh[j], cell, dx, dhp);
    if constexpr (mode == rnn::kLstm) dc[j] = cell;
  }
}

// The batch's rows are independent along the whole scan, and a bidirectional call's two
// directions too: the team's threads each run every step for a share of them (Share: a
// direction's batch rows), a product of its rows and its gates pass a step, with no join
// between steps. Joining the team at each of a sequence's steps, for a product of a few rows
// each, cost more than the steps' work at two threads, and far more where the machine's
// other processes keep a thread from its core. Two directions on two threads run one each,
// its whole batch (one product of all rows a step, not two of half as many).
struct Share {
  int64_t index, direction, begin, end;  // the index-th share: batch rows [begin, end) of `direction`
  // Of the step's rows (its first sizes[t]; a packed sequence's shrink), this share's.
  int64_t rows(const Scan& s, int64_t t) const { return std::max<int64_t>(0, std::min(end, s.sizes[t]) - begin); }
};

// Whether the shares run on the team: float32 alone, whose products (oneDNN's sgemm) run on
// the calling thread inside a team, where OpenBLAS's dgemm keeps threads of its own.
template <typename T>
bool shares_on_team(const Scan& s) {
  return std::is_same_v<T, float> && kernel::opens_team(s.batch > 1 || s.directions > 1);
}

// Each direction's shares: its part of the team's threads, each a part of the batch.
template <typename T>
int64_t shares_per_direction(const Scan& s) {
  return shares_on_team<T>(s) ? std::clamp<int64_t>(omp_get_max_threads() / s.directions, 1, std::max<int64_t>(s.batch, 1))
                              : 1;
}

// Where the batch's `parts` shares begin (and, last, the batch's end): as many row-steps each
// (a row's steps: its sequence's length). A packed batch's rows come longest first: an equal
// number of rows each gave the first share the long sequences, most of the work.
std::vector<int64_t> share_bounds(const Scan& s, int64_t parts) {
  std::vector<int64_t> length(static_cast<size_t>(s.batch), 0), bounds(static_cast<size_t>(parts + 1), s.batch);
  for (int64_t size : s.sizes) {
    for (int64_t b = 0; b < size; ++b) ++length[b];
  }
  bounds[0] = 0;
  int64_t done = 0, part = 1;
  for (int64_t b = 0; b < s.batch && part < parts; ++b) {
    done += length[b];
    while (part < parts && done * parts >= s.rows() * part) bounds[part++] = b + 1;
  }
  return bounds;
}

// f(Share) for each share, one a thread (in turn off the team).
template <typename T, typename F>
void for_each_share(const Scan& s, F f) {
  const int64_t parts = shares_per_direction<T>(s), count = s.directions * parts;
  const std::vector<int64_t> bounds = share_bounds(s, parts);
  kernel::parallel_for(count, shares_on_team<T>(s) && count > 1, [&](int64_t i) {
    const int64_t part = i % parts;
    f(Share{i, i / parts, bounds[part], bounds[part + 1]});
  });
}

// c[rows, n] = a[rows, k] @ w^T by w's layout for all steps where it has one (w_t), else w
// as it is.
template <typename T>
void multiply_t(const std::optional<kernel::PackedOperand<T>>& w_t, int64_t rows, int64_t n, int64_t k, const T* a,
                const T* w, T* c) {
  if (w_t) {
    w_t->multiply(rows, a, c);
  } else {
    kernel::gemm(false, true, rows, n, k, a, w, c);
  }
}

// Where direction d's values are: a row of x (and dx), y (dy) and the workspace holds each
// direction's in turn (rows x_pitch, y_pitch, ws_pitch apart, d's from column d gh, d p,
// d width); the states and the per-row buffers of the batch (h, c, hp, m, dm) hold each
// direction's B rows in turn (from row `base`), its weights its G H rows (P of w_hr).
struct Direction {
  int64_t d, base, x_pitch, y_pitch, ws_pitch;
  Direction(const Scan& s, int64_t direction, int64_t gh, int64_t width)
      : d(direction), base(direction * s.batch), x_pitch(s.directions * gh), y_pitch(s.directions * s.state()),
        ws_pitch(s.directions * width) {}
};

// The forward on the CPU, T float or double; w_hr null without a projection.
template <int64_t mode, typename T>
void scan_forward(const Scan& s, const T* x, const T* h0, const T* c0, const T* w, const T* b, const T* w_hr, T* y,
                  T* h_n, T* c_n, T* ws) {
  constexpr bool lstm = mode == rnn::kLstm;
  const int64_t n = s.hidden, p = s.state(), gh = rnn::gates(mode) * n, dirs = s.directions;
  const int64_t width = rnn::workspace_width(mode, n, s.proj > 0);
  std::copy(h0, h0 + dirs * s.batch * p, h_n);
  if (lstm) std::copy(c0, c0 + dirs * s.batch * n, c_n);
  std::vector<T> hp(static_cast<size_t>(dirs * s.batch * gh));
  // With a projection, each step's m = o tanh(c') (the cells' output) back to back, the
  // projection's left operand.
  std::vector<T> m(static_cast<size_t>(s.proj ? dirs * s.batch * n : 0));
  // W_hh^T (and W_hr^T) laid out once for all steps' products (gemm.h), where a single step
  // (a cell's call) reads W_hh as it is, once: the copy would cost more than its faster reads.
  std::vector<std::optional<kernel::PackedOperand<T>>> w_t(static_cast<size_t>(dirs)), w_hr_t(w_t.size());
  for (int64_t d = 0; d < dirs && s.steps() > 1; ++d) {
    w_t[d].emplace(true, p, gh, w + d * gh * p);
    if (s.proj) w_hr_t[d].emplace(true, n, p, w_hr + d * p * n);
  }
  for_each_share<T>(s, [&](Share share) {
    const Direction at(s, share.direction, gh, width);
    const int64_t d = at.d, first = at.base + share.begin;
    const T *x_d = x + d * gh, *w_d = w + d * gh * p, *b_d = b ? b + d * gh : nullptr;
    T *y_d = y + d * p, *ws_d = ws + d * width;
    for (int64_t k = 0; k < s.steps(); ++k) {
      const int64_t t = s.step(k, d), rows = share.rows(s, t);
      if (rows == 0) continue;
      multiply_t(w_t[d], rows, gh, p, h_n + first * p, w_d, hp.data() + first * gh);
      for (int64_t r = share.begin; r < share.begin + rows; ++r) {
        const int64_t row = s.row(t, r), state = at.base + r;
        T* ws_row = ws_d + row * at.ws_pitch;
        // Projected, the cell's output m goes to the workspace's m and to the product's rows.
        forward_row<mode, T>(n, x_d + row * at.x_pitch, hp.data() + state * gh, b_d, ws_row,
                             s.proj ? m.data() + state * n : h_n + state * n, lstm ? c_n + state * n : nullptr,
                             s.proj ? ws_row + 5 * n : y_d + row * at.y_pitch);
      }
      if (s.proj) {
        T* h = h_n + first * p;
        multiply_t(w_hr_t[d], rows, p, n, m.data() + first * n, w_hr + d * p * n, h);
        for (int64_t r = 0; r < rows; ++r) {
          std::copy(h + r * p, h + (r + 1) * p, y_d + s.row(t, share.begin + r) * at.y_pitch);
        }
      }
    }
  });
}

std::vector<Tensor> scan_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  std::vector<TensorMeta> metas;
  for (const Tensor& t : in) metas.push_back({t.shape(), t.dtype()});
  ScanInputs named;
  const Scan s = checked_scan(metas, ctx.attrs, named);
  const std::vector<TensorMeta> out_metas = scan_infer(metas, ctx.attrs);
  std::vector<Tensor> out;
  for (size_t k = 0; k < out_metas.size(); ++k) out.push_back(ctx.output(k, out_metas[k].shape, out_metas[k].dtype));
  const bool lstm = named.c0 != nullptr;
  const Tensor* c0 = lstm ? &in[2] : nullptr;
  const Tensor* b = s.has_bias ? &in[3 + lstm] : nullptr;
  const Tensor* w_hr = s.proj ? &in.back() : nullptr;
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      rnn::with_mode(s.mode, [&](auto mode) {
        scan_forward<mode.value, T>(s, in[0].data_as<T>(), in[1].data_as<T>(), c0 ? c0->data_as<T>() : nullptr,
                                    in[2 + lstm].data_as<T>(), b ? b->data_as<T>() : nullptr,
                                    w_hr ? w_hr->data_as<T>() : nullptr, out[0].data_as<T>(), out[1].data_as<T>(),
                                    lstm ? out[2].data_as<T>() : nullptr, out.back().data_as<T>());
      });
    }
  });
  return out;
}

// rnn_scan_backward's inputs by position: w, h0[, c0], y, workspace, dy, dworkspace, dh_n[, dc_n][, w_hr].
struct BackwardInputs {
  size_t w = 0, h0 = 1, c0 = 0, y, ws, dy, dws, dh_n, dc_n = 0, w_hr = 0, count;
  BackwardInputs(bool lstm, bool proj) {
    size_t k = 2;
    if (lstm) c0 = k++;
    y = k++, ws = k++, dy = k++, dws = k++, dh_n = k++;
    if (lstm) dc_n = k++;
    if (proj) w_hr = k++;
    count = k;
  }
  explicit BackwardInputs(const Attrs& attrs)
      : BackwardInputs(attrs.get_int("mode") == rnn::kLstm, rnn::flag(attrs, "has_proj")) {}
};

// The backward's scan, from w_hh (and w_hr) and the input's gradient's shape dx.
Scan backward_scan(const std::vector<TensorMeta>& in, const Attrs& attrs, const BackwardInputs& at, const Shape& dx) {
  const Shape& w = in[at.w].shape;
  if (!at.w_hr) return rnn::scan_of(kScanBackward, attrs, dx, w[1]);
  const Shape& w_hr = in[at.w_hr].shape;
  const int64_t dirs = rnn::flag(attrs, "bidirectional") ? 2 : 1;
  if (w_hr.size() != 2 || w_hr[0] != dirs * w[1]) {
    op_error(kScanBackward,
             "w_hr is " + to_string(w_hr) + "; expected [" + std::to_string(dirs * w[1]) + ", hidden]");
  }
  return rnn::scan_of(kScanBackward, attrs, dx, w_hr[1], w[1]);
}

std::vector<TensorMeta> backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool lstm = rnn::mode_of(kScanBackward, attrs) == rnn::kLstm, has_bias = rnn::flag(attrs, "has_bias");
  const BackwardInputs at(attrs);
  kernel::expect_inputs(kScanBackward, in, at.count);
  const TensorMeta &w = in[at.w], &y = in[at.y];
  if (w.shape.size() != 2 || y.shape.empty()) {
    op_error(kScanBackward, "w_hh is " + to_string(w.shape) + " and y " + to_string(y.shape) +
                                "; expected [gates * hidden, state] and [..., state]");
  }
  const Scan s = backward_scan(in, attrs, at, with_last(y.shape, w.shape[0]));
  expect_meta(kScanBackward, w, "w_hh", {s.directions * rnn::gates(s.mode) * s.hidden, s.state()}, y.dtype);
  expect_meta(kScanBackward, in[at.dy], "dy", y.shape, y.dtype);
  const Shape ws_shape = with_last(y.shape, s.directions * rnn::workspace_width(s.mode, s.hidden, s.proj > 0));
  expect_meta(kScanBackward, in[at.ws], "workspace", ws_shape, y.dtype);
  expect_meta(kScanBackward, in[at.dws], "dworkspace", ws_shape, y.dtype);
  if (y.shape.back() != s.directions * s.state()) {
    op_error(kScanBackward, "y is " + to_string(y.shape) + "; expected its last dim " +
                                std::to_string(s.directions * s.state()) + " (directions * state)");
  }
  for (size_t k : {at.h0, at.dh_n}) expect_meta(kScanBackward, in[k], "a state", state_shape(s, s.state()), y.dtype);
  if (lstm) {
    for (size_t k : {at.c0, at.dc_n}) expect_meta(kScanBackward, in[k], "a cell state", state_shape(s, s.hidden), y.dtype);
  }
  std::vector<TensorMeta> out{{with_last(y.shape, w.shape[0]), y.dtype}, in[at.h0]};
  if (lstm) out.push_back(in[at.c0]);
  out.push_back(w);
  if (has_bias) out.push_back({{w.shape[0]}, w.dtype});
  if (at.w_hr) out.push_back(in[at.w_hr]);
  return out;
}

// The backward's buffers: running gradients of the state (dh: [B, P], dc: [B, H]), the
// products' pre-activation gradients dhp (GRU's, rows as dx's; dx itself for the others), the
// previous states h_prev of every row ([N, P]: the weight's gradient is dhp^T h_prev over all
// rows) and each share's sum of its rows of dhp (db_parts, [shares, G H]: b_hh's gradient
// summed on the team while the rows are in the cache, where a pass after the scan read them
// all again on one thread). Projected: the gradient reaching each row's state (dhr, [N, P]:
// W_hr's is its product with m) and the step's m's (dm, [B, H]). Bidirectional: each
// direction's in turn (Direction), dhp's rows as dx's.
template <typename T>
struct BackwardBuffers {
  T *dx, *dh, *dc, *dw, *db, *dw_hr;
  std::vector<T> dhp, h_prev, direct, db_parts, dhr, dm;
};

// Step t's backward for a share of the batch's rows.
template <int64_t mode, typename T>
void backward_step(const Scan& s, int64_t t, Share share, const T* w, const T* w_hr, const T* h0, const T* c0,
                   const T* y, const T* ws, const T* dy, const T* dws, BackwardBuffers<T>& buf) {
  constexpr bool lstm = mode == rnn::kLstm, gru = mode == rnn::kGru;
  const int64_t n = s.hidden, p = s.state(), gh = rnn::gates(mode) * n;
  const int64_t width = rnn::workspace_width(mode, n, s.proj > 0);
  const int64_t rows = share.rows(s, t);
  if (rows == 0) return;
  const Direction at(s, share.direction, gh, width);
  const int64_t d = at.d, first = at.base + share.begin;
  T* dx = buf.dx + d * gh;
  T* dhp = (gru ? buf.dhp.data() : buf.dx) + d * gh;
  T* h_prev = buf.h_prev.data() + d * s.rows() * p;
  const T *y_d = y + d * p, *dy_d = dy + d * p, *ws_d = ws + d * width, *dws_d = dws + d * width;
  if (s.proj) {
    // The state's gradient, through h' = m W_hr^T: dm = (dy + dh) W_hr.
    T* dhr = buf.dhr.data() + d * s.rows() * p;
    for (int64_t r = share.begin; r < share.begin + rows; ++r) {
      const int64_t row = s.row(t, r);
      for (int64_t j = 0; j < p; ++j) dhr[row * p + j] = dy_d[row * at.y_pitch + j] + buf.dh[(at.base + r) * p + j];
    }
    kernel::gemm(false, false, rows, n, p, dhr + s.row(t, share.begin) * p, s.row_stride() * p, w_hr + d * p * n,
                 buf.dm.data() + first * n);
  }
  for (int64_t r = share.begin; r < share.begin + rows; ++r) {
    const int64_t row = s.row(t, r), prev = s.prev_row(t, r, d), state = at.base + r;
    const T* hp = prev < 0 ? h0 + state * p : y_d + prev * at.y_pitch;
    const T* cp = lstm ? (prev < 0 ? c0 + state * n : ws_d + prev * at.ws_pitch + 4 * n) : nullptr;
    std::copy(hp, hp + p, h_prev + row * p);
    // Projected, the cell's output m has the gradient dm and the workspace's m's.
    const T* ws_row = ws_d + row * at.ws_pitch;
    const T* dws_row = dws_d + row * at.ws_pitch;
    backward_row<mode, T>(n, ws_row, dws_row, y_d + row * at.y_pitch, hp, cp,
                          s.proj ? buf.dm.data() + state * n : dy_d + row * at.y_pitch,
                          s.proj ? dws_row + 5 * n : buf.dh + state * n, lstm ? buf.dc + state * n : nullptr,
                          dx + row * at.x_pitch, dhp + row * at.x_pitch, buf.direct.data() + state * n);
    if (buf.db) {
      T* db = buf.db_parts.data() + share.index * gh;
      const T* g = dhp + row * at.x_pitch;
#pragma omp simd
      for (int64_t j = 0; j < gh; ++j) db[j] += g[j];
    }
  }
  // dh_prev = dhp W_hh (+ GRU's direct term) for the step's rows; later rows pass through.
  T* dh = buf.dh + first * p;
  // W_hh as it is: laid out for oneDNN's blocked product (gemm.h), the step ran no faster
  // (1 thread, 12 steps of an LSTM of 256 on a batch of 64) and 4 steps 10% slower.
  kernel::gemm(false, false, rows, p, gh, dhp + s.row(t, share.begin) * at.x_pitch, s.row_stride() * at.x_pitch,
               w + d * gh * p, dh);
  if constexpr (gru) {
    const T* direct = buf.direct.data() + first * n;
    for (int64_t i = 0; i < rows * n; ++i) dh[i] += direct[i];
  }
}

template <int64_t mode, typename T>
void scan_backward(const Scan& s, const T* w, const T* w_hr, const T* h0, const T* c0, const T* y, const T* ws,
                   const T* dy, const T* dws, const T* dh_n, const T* dc_n, BackwardBuffers<T>& buf) {
  const int64_t n = s.hidden, p = s.state(), gh = rnn::gates(mode) * n, rows = s.rows(), dirs = s.directions;
  std::copy(dh_n, dh_n + dirs * s.batch * p, buf.dh);
  if (dc_n) std::copy(dc_n, dc_n + dirs * s.batch * n, buf.dc);
  if (mode == rnn::kGru) buf.dhp.resize(static_cast<size_t>(rows * dirs * gh));
  buf.h_prev.resize(static_cast<size_t>(dirs * rows * p));
  buf.direct.resize(static_cast<size_t>(dirs * s.batch * n));
  if (s.proj) {
    buf.dhr.resize(static_cast<size_t>(dirs * rows * p));
    buf.dm.resize(static_cast<size_t>(dirs * s.batch * n));
  }
  const int64_t parts = shares_per_direction<T>(s);
  if (buf.db) buf.db_parts.assign(static_cast<size_t>(dirs * parts * gh), T(0));
  for_each_share<T>(s, [&](Share share) {
    for (int64_t k = s.steps() - 1; k >= 0; --k) {
      backward_step<mode>(s, s.step(k, share.direction), share, w, w_hr, h0, c0, y, ws, dy, dws, buf);
    }
  });
  const int64_t width = rnn::workspace_width(mode, n, s.proj > 0);
  std::vector<T> dw_t(static_cast<size_t>(s.proj ? n * p : 0));
  for (int64_t d = 0; d < dirs; ++d) {
    const T* dhp = (mode == rnn::kGru ? buf.dhp.data() : buf.dx) + d * gh;
    kernel::gemm(true, false, gh, p, rows, dhp, dirs * gh, buf.h_prev.data() + d * rows * p, buf.dw + d * gh * p);
    if (s.proj) {
      // dW_hr = dhr^T m over all rows, m the workspace's (rows `width` apart, which gemm takes
      // of its left operand only): as (m^T dhr)^T.
      kernel::gemm(true, false, n, p, rows, ws + d * width + 5 * n, dirs * width, buf.dhr.data() + d * rows * p,
                   dw_t.data());
      T* dw_hr = buf.dw_hr + d * p * n;
      for (int64_t i = 0; i < p; ++i) {
        for (int64_t j = 0; j < n; ++j) dw_hr[i * n + j] = dw_t[j * p + i];
      }
    }
    if (buf.db) {
      const T* part = buf.db_parts.data() + d * parts * gh;
      std::copy(part, part + gh, buf.db + d * gh);
      for (int64_t q = 1; q < parts; ++q) {
        for (int64_t j = 0; j < gh; ++j) buf.db[d * gh + j] += part[q * gh + j];
      }
    }
  }
}

std::vector<Tensor> backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  std::vector<TensorMeta> metas;
  for (const Tensor& t : in) metas.push_back({t.shape(), t.dtype()});
  const std::vector<TensorMeta> out_metas = backward_infer(metas, ctx.attrs);
  std::vector<Tensor> out;
  for (size_t k = 0; k < out_metas.size(); ++k) out.push_back(ctx.output(k, out_metas[k].shape, out_metas[k].dtype));
  const BackwardInputs at(ctx.attrs);
  const bool lstm = at.c0 != 0;
  const Scan s = backward_scan(metas, ctx.attrs, at, out[0].shape());
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      BackwardBuffers<T> buf{out[0].data_as<T>(),
                             out[1].data_as<T>(),
                             lstm ? out[2].data_as<T>() : nullptr,
                             out[2 + lstm].data_as<T>(),
                             s.has_bias ? out[3 + lstm].data_as<T>() : nullptr,
                             s.proj ? out.back().data_as<T>() : nullptr,
                             {}, {}, {}, {}, {}, {}};
      rnn::with_mode(s.mode, [&](auto mode) {
        scan_backward<mode.value, T>(s, in[at.w].data_as<T>(), s.proj ? in[at.w_hr].data_as<T>() : nullptr,
                                     in[at.h0].data_as<T>(), lstm ? in[at.c0].data_as<T>() : nullptr,
                                     in[at.y].data_as<T>(), in[at.ws].data_as<T>(), in[at.dy].data_as<T>(),
                                     in[at.dws].data_as<T>(), in[at.dh_n].data_as<T>(),
                                     lstm ? in[at.dc_n].data_as<T>() : nullptr, buf);
      });
    }
  });
  return out;
}

// The split of a sequence ([T, B, ...], or [B, T, ...] batch_first) along its batch.
Sbp batch_split(const Attrs& attrs) { return Sbp::split(rnn::flag(attrs, "batch_first") ? 0 : 1); }

// The split of a state ([B, ...], bidirectional [2, B, ...]) along its batch.
Sbp state_split(const Attrs& attrs) { return Sbp::split(rnn::flag(attrs, "bidirectional") ? 1 : 0); }

// Not packed: the batch split (data parallelism); the weights' gradients partial sums.
std::vector<Signature> scan_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                       const Attrs& attrs) {
  if (attrs.has("batch_sizes")) return {};
  const bool lstm = attrs.get_int("mode") == rnn::kLstm;
  Signature s{std::vector<Sbp>(in.size(), state_split(attrs)), std::vector<Sbp>(out.size(), state_split(attrs))};
  s.inputs[0] = batch_split(attrs);
  for (size_t k = 2 + lstm; k < in.size(); ++k) s.inputs[k] = Sbp::broadcast();
  s.outputs[0] = s.outputs.back() = batch_split(attrs);
  return {s};
}

std::vector<Signature> backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                           const Attrs& attrs) {
  if (attrs.has("batch_sizes")) return {};
  const bool lstm = attrs.get_int("mode") == rnn::kLstm;
  const BackwardInputs at(attrs);
  Signature s{std::vector<Sbp>(in.size(), state_split(attrs)), std::vector<Sbp>(out.size(), Sbp::partial_sum())};
  s.inputs[at.w] = Sbp::broadcast();
  if (at.w_hr) s.inputs[at.w_hr] = Sbp::broadcast();
  for (size_t k : {at.y, at.ws, at.dy, at.dws}) s.inputs[k] = batch_split(attrs);
  s.outputs[0] = batch_split(attrs);
  s.outputs[1] = state_split(attrs);
  if (lstm) s.outputs[2] = state_split(attrs);
  return {s};
}

std::vector<Var> scan_grad(const GradContext& g) {
  const bool lstm = g.attrs.get_int("mode") == rnn::kLstm;
  std::vector<Var> inputs{g.inputs[2 + lstm], g.inputs[1]};
  if (lstm) inputs.push_back(g.inputs[2]);
  inputs.push_back(g.outputs[0]);
  inputs.push_back(g.outputs.back());
  inputs.push_back(g.grad_outputs[0]);
  inputs.push_back(g.grad_outputs.back());
  inputs.push_back(g.grad_outputs[1]);
  if (lstm) inputs.push_back(g.grad_outputs[2]);
  if (rnn::flag(g.attrs, "has_proj")) inputs.push_back(g.inputs.back());
  // dx, dh0[, dc0], dw[, db][, dw_hr]: the forward's inputs in order.
  return call(kScanBackward, inputs, g.attrs);
}

}  // namespace

void register_rnn_ops(OpRegistry& r) {
  OpDef scan = with_grad(make_op(kScan, scan_infer, scan_signatures, scan_kernel), scan_grad,
                         OpDef::GradReads{true, true});
  OpDef backward = make_op(kScanBackward, backward_infer, backward_signatures, backward_kernel);
  r.add(scan);
  r.add(backward);
}

}  // namespace mf
