// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the attention ops (ops/attention.cc defines them and their CPU
// kernels): flash attention on CUDA cores, in the inputs' float32 or float64 (tensor cores'
// TF32 would miss the CPU's values). No kernel makes the [..., Tq, Tk] scores, nor even a
// block's full row of them: the forward pass keeps an online softmax over tiles of 32 keys
// and saves each row's log-sum-exp; the backward pass rebuilds the probabilities from it
// (FlashAttention-2's scheme). Its gradients come from three kernels so that none needs
// atomics and the results are deterministic: delta_i = dout_i . out_i - dlse_i per query
// row, then dq by tiles of queries and dk, dv by tiles of keys, each recomputing the scores
// it needs.
//
// Work split, the same in every kernel: a block owns a tile of rows (queries, or keys for dk
// and dv), kRows of them per warp, and walks the other side's rows in tiles of 32 staged in
// shared memory. Lane j first takes row j of the staged tile (the scores of the warp's rows
// against it), then the columns j, j + 32, ... (the weighted sum of the staged rows that
// each of the warp's rows accumulates in shared memory). The layouts are the CPU's
// (Layout::head there): separate [..., T, D] tensors, or qkv [..., T, H, 3D] read and dqkv
// written with row strides. Heads are independent, so splits of batch or heads need nothing
// beyond the local tensors.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <mma.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"

namespace mf::cuda {
namespace {

constexpr const char* kAttention = "scaled_dot_product_attention";
constexpr const char* kAttentionBackward = "attention_backward";
constexpr const char* kPackedAttention = "packed_qkv_attention";
constexpr const char* kPackedAttentionBackward = "packed_qkv_attention_backward";

constexpr int kLanes = 32;     // a warp; also the rows of a staged tile
constexpr int kRows = 4;       // a block tile's rows per warp
constexpr int kMaxWarps = 8;   // fewer only where head dims make the tiles too large
constexpr size_t kDefaultShared = 48 * 1024;  // dynamic shared memory without opting in

// One head's matrices: where each starts and the distance between its rows (elements), as
// the CPU's Head. For a backward pass's gradients, out and lse are dout and dlse.
template <typename T>
struct Head {
  T *q, *k, *v;
  int64_t ldq, ldk, ldv;
  T* out;
  int64_t ldo;
  T* lse;
  int64_t lse_stride;
};

// The tensors of a call: the forward's q, k, v (all qkv when packed), out and lse; or the
// gradients dq, dk, dv (all dqkv), dout and dlse.
template <typename T>
struct Tensors {
  T *q, *k, *v, *out, *lse;
};

// The sizes of a call and where head i's matrices lie, as the CPU's Dims and Layout:
// separate q [..., Tq, D], k [..., Tk, D], v [..., Tk, Dv], out [..., Tq, Dv], lse [..., Tq];
// or packed qkv [..., T, H, 3D], out [..., T, H, D], lse [..., T, H], head i = (leading index
// i / H, head i % H).
struct Layout {
  int64_t count, tq, tk, d, dv;
  bool packed;
  int64_t heads;  // H when packed

  // Where head i's matrices start in their tensors and their row strides (elements), the
  // same for every dtype.
  struct Offsets {
    int64_t q, k, v, ld_q, ld_k, ld_v, out, ld_out, lse, lse_stride;
  };
  __device__ Offsets offsets(int64_t i) const {
    if (!packed) return {i * tq * d, i * tk * d, i * tk * dv, d, d, dv, i * tq * dv, dv, i * tq, 1};
    const int64_t b = i / heads, h = i % heads, ld = heads * 3 * d, base = b * tq * ld + h * 3 * d;
    return {base, base + d, base + 2 * d, ld, ld, ld, b * tq * heads * d + h * d, heads * d, b * tq * heads + h, heads};
  }

  template <typename T>
  __device__ Head<T> head(int64_t i, const Tensors<T>& t) const {
    const Offsets o = offsets(i);
    return {t.q + o.q, t.k + o.k, t.v + o.v, o.ld_q, o.ld_k, o.ld_v, t.out + o.out, o.ld_out, t.lse + o.lse,
            o.lse_stride};
  }
};

template <typename T>
__device__ T neg_inf();
template <>
__device__ float neg_inf<float>() {
  return -CUDART_INF_F;
}
template <>
__device__ double neg_inf<double>() {
  return -CUDART_INF;
}
__device__ float exp_of(float x) { return expf(x); }
__device__ double exp_of(double x) { return exp(x); }
__device__ float log_of(float x) { return logf(x); }
__device__ double log_of(double x) { return log(x); }

__device__ int64_t lesser(int64_t a, int64_t b) { return a < b ? a : b; }

template <typename T>
__device__ T warp_sum(T x) {
  for (int o = kLanes / 2; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

template <typename T>
__device__ T warp_max(T x) {
  for (int o = kLanes / 2; o > 0; o /= 2) {
    const T y = __shfl_xor_sync(0xffffffffu, x, o);
    x = y > x ? y : x;
  }
  return x;
}

// Rows [0, n) of a head's matrix (`cols` columns, rows `ld` apart) into a shared tile of
// `rows` rows `stride` apart. Rows from n on are zeros, not stale values: zero weights
// multiply them, and zero times a stale NaN would be NaN.
template <typename T>
__device__ void stage(T* tile, int rows, int stride, const T* src, int64_t ld, int64_t n, int cols) {
  const int warps = blockDim.x / kLanes, warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  for (int r = warp; r < rows; r += warps) {
    for (int c = lane; c < cols; c += kLanes) tile[r * stride + c] = r < n ? src[r * ld + c] : T(0);
  }
}

template <typename T>
__device__ void zero(T* tile, int n) {
  for (int e = threadIdx.x; e < n; e += blockDim.x) tile[e] = 0;
}

// s[r] = a_r . b over n columns, a the warp's kRows rows (`sa` apart; every lane reads the
// same element, a broadcast) and b the lane's row of a staged tile.
template <typename T>
__device__ void dots(T (&s)[kRows], const T* a, int sa, const T* b, int n) {
#pragma unroll
  for (int r = 0; r < kRows; ++r) s[r] = 0;
#pragma unroll 4
  for (int c = 0; c < n; ++c) {
    const T x = b[c];
#pragma unroll
    for (int r = 0; r < kRows; ++r) s[r] += a[r * sa + c] * x;
  }
}

// acc_r = acc_r * alpha_r + sum_j w_rj tile_j for the warp's rows (`sacc` apart), over n
// columns: w the warp's [kRows][32] weights, tile the 32 staged rows (`st` apart). Lane c
// takes columns c, c + 32, ...
template <typename T>
__device__ void accumulate(T* acc, int sacc, const T (&alpha)[kRows], const T* w, const T* tile, int st, int n) {
  for (int c = threadIdx.x % kLanes; c < n; c += kLanes) {
    T sum[kRows] = {};
#pragma unroll 4
    for (int j = 0; j < kLanes; ++j) {
      const T x = tile[j * st + c];
#pragma unroll
      for (int r = 0; r < kRows; ++r) sum[r] += w[r * kLanes + j] * x;
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) acc[r * sacc + c] = acc[r * sacc + c] * alpha[r] + sum[r];
  }
}

// The stride of a staged tile that lanes read one row each: odd, so that the 32 lanes' rows
// start in different banks.
__host__ __device__ int64_t lane_stride(int64_t cols) { return cols | 1; }

// Each kernel's shared tiles, as offsets (elements) into its dynamic shared memory; the host
// sizes the launch with the same struct. `rows` is the block's tile, `total` the size.
struct ForwardTiles {
  int64_t q, acc, k, v, w, total;
  __host__ __device__ ForwardTiles(int64_t rows, int64_t head_dim, int64_t value_dim)
      : q(0),
        acc(q + rows * head_dim),
        k(acc + rows * value_dim),
        v(k + kLanes * lane_stride(head_dim)),
        w(v + kLanes * value_dim),
        total(w + rows * kLanes) {}
};

struct DqTiles {
  int64_t q, dout, acc, k, v, w, total;
  __host__ __device__ DqTiles(int64_t rows, int64_t head_dim, int64_t value_dim)
      : q(0),
        dout(q + rows * head_dim),
        acc(dout + rows * value_dim),
        k(acc + rows * head_dim),
        v(k + kLanes * lane_stride(head_dim)),
        w(v + kLanes * lane_stride(value_dim)),
        total(w + rows * kLanes) {}
};

struct DkvTiles {
  int64_t k, v, dk, dv, q, dout, p, ds, total;
  __host__ __device__ DkvTiles(int64_t rows, int64_t head_dim, int64_t value_dim)
      : k(0),
        v(k + rows * head_dim),
        dk(v + rows * value_dim),
        dv(dk + rows * head_dim),
        q(dv + rows * value_dim),
        dout(q + kLanes * lane_stride(head_dim)),
        p(dout + kLanes * lane_stride(value_dim)),
        ds(p + rows * kLanes),
        total(ds + rows * kLanes) {}
};

template <typename T>
__device__ T* shared_base() {
  extern __shared__ __align__(16) unsigned char shared[];
  return reinterpret_cast<T*>(shared);
}

// Whether query qi sees key kj (both may lie past the ends of a partial tile).
__device__ bool sees(int64_t qi, int64_t kj, int64_t tq, int64_t tk, bool causal) {
  return qi < tq && kj < tk && (!causal || kj <= qi);
}

// out and lse, a block per tile of queries of a head (heavy tiles first: under a causal
// mask the last queries read the most keys).
template <typename T>
__global__ void forward_kernel(Layout s, Tensors<T> t, bool causal, T scale, int64_t tiles) {
  const int warps = blockDim.x / kLanes, warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int rows = warps * kRows, d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  const int kstride = static_cast<int>(lane_stride(d));
  const ForwardTiles at(rows, d, dv);
  T* base = shared_base<T>();
  T *qs = base + at.q, *acc = base + at.acc, *ks = base + at.k, *vs = base + at.v;
  T *my_q = qs + warp * kRows * d, *my_acc = acc + warp * kRows * dv, *w = base + at.w + warp * kRows * kLanes;
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, q0 = (tiles - 1 - b % tiles) * rows;
    const Head<T> h = s.head(i, t);
    const int64_t nq = lesser(rows, s.tq - q0), keys = causal ? lesser(s.tk, q0 + nq) : s.tk;
    const int64_t r0 = q0 + warp * kRows;  // the warp's first query
    stage(qs, rows, d, h.q + q0 * h.ldq, h.ldq, nq, d);
    zero(acc, rows * dv);
    T top[kRows], sum[kRows];  // the running max and sum of exp(score - top) of each row
#pragma unroll
    for (int r = 0; r < kRows; ++r) top[r] = neg_inf<T>(), sum[r] = 0;
    __syncthreads();
    for (int64_t k0 = 0; k0 < keys; k0 += kLanes) {
      stage(ks, kLanes, kstride, h.k + k0 * h.ldk, h.ldk, keys - k0, d);
      stage(vs, kLanes, dv, h.v + k0 * h.ldv, h.ldv, keys - k0, dv);
      __syncthreads();
      if (r0 < s.tq && (!causal || k0 <= r0 + kRows - 1)) {  // else no row of the warp sees a key of the tile
        T score[kRows], alpha[kRows];
        dots(score, my_q, d, ks + lane * kstride, d);
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          const T x = sees(r0 + r, k0 + lane, s.tq, keys, causal) ? score[r] * scale : neg_inf<T>();
          const T tile_top = warp_max(x);
          const T next = tile_top > top[r] ? tile_top : top[r];
          // Until a row has seen a key its max is -inf, and -inf - -inf would be NaN.
          const bool none = next == neg_inf<T>();
          const T p = none ? T(0) : exp_of(x - next);
          alpha[r] = none ? T(1) : exp_of(top[r] - next);
          sum[r] = sum[r] * alpha[r] + warp_sum(p);
          top[r] = next;
          w[r * kLanes + lane] = p;
        }
        __syncwarp();
        accumulate(my_acc, dv, alpha, w, vs, dv, dv);
      }
      __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int64_t qi = r0 + r;
      if (qi >= s.tq) break;
      // A row without keys (Tk = 0) has zeros and lse = -inf + log 0 = -inf, as on the CPU.
      const T inv = sum[r] > 0 ? 1 / sum[r] : T(0);
      for (int c = lane; c < dv; c += kLanes) h.out[qi * h.ldo + c] = my_acc[r * dv + c] * inv;
      if (lane == 0) h.lse[qi * h.lse_stride] = top[r] + log_of(sum[r]);
    }
    __syncthreads();
  }
}

// delta_i = dout_i . out_i - dlse_i: the softmax backward's sum_j p_ij dp_ij, less lse's
// gradient (d lse_i / d score_ij = p_ij). A warp per query row. TO is out's and dout's
// dtype, TL lse's, dlse's and delta's (float for bfloat16 attention).
template <typename TO, typename TL>
__global__ void delta_kernel(Layout s, const TO* out, const TO* dout, const TL* dlse, TL* delta) {
  const int lane = threadIdx.x % kLanes;
  const int64_t n = s.count * s.tq, step = static_cast<int64_t>(gridDim.x) * blockDim.x / kLanes;
  for (int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanes; row < n; row += step) {
    const int64_t i = row / s.tq, qi = row % s.tq;
    const Layout::Offsets o = s.offsets(i);
    const TO *out_row = out + o.out + qi * o.ld_out, *dout_row = dout + o.out + qi * o.ld_out;
    TL x = 0;
    for (int64_t c = lane; c < s.dv; c += kLanes) x += static_cast<TL>(dout_row[c]) * static_cast<TL>(out_row[c]);
    x = warp_sum(x);
    if (lane == 0) delta[row] = x - dlse[o.lse + qi * o.lse_stride];
  }
}

// Enqueues delta_kernel; returns the buffer (stream-ordered, so it may go once the kernels
// that read it are enqueued), null without rows.
template <typename TO, typename TL>
std::shared_ptr<void> deltas(Memory& memory, const Layout& s, const TO* out, const TO* dout, const TL* dlse) {
  const int64_t rows = s.count * s.tq;
  if (rows == 0) return nullptr;
  std::shared_ptr<void> delta = memory.allocate(static_cast<size_t>(rows) * sizeof(TL));
  constexpr int kThreads = 256;
  delta_kernel<TO, TL><<<blocks_for(rows * kLanes, kThreads), kThreads, 0, stream()>>>(
      s, out, dout, dlse, static_cast<TL*>(delta.get()));
  check_launch("attention_delta");
  return delta;
}

// The recomputed probability of a score, and the gradient of the scaled score
// ds = p (dp - delta) * scale (dp = dout_i . v_j); both zero where the query does not see
// the key.
template <typename T>
struct ScoreGrad {
  T p, ds;
  __device__ ScoreGrad(bool seen, T score, T scale, T lse, T dp, T delta)
      : p(seen ? exp_of(score * scale - lse) : T(0)), ds(seen ? p * (dp - delta) * scale : T(0)) {}
};

// dq_i = sum_j ds_ij k_j, a block per tile of queries of a head (heavy tiles first).
template <typename T>
__global__ void dq_kernel(Layout s, Tensors<T> t, Tensors<T> g, const T* delta, bool causal, T scale,
                          int64_t tiles) {
  const int warps = blockDim.x / kLanes, warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int rows = warps * kRows, d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  const int kstride = static_cast<int>(lane_stride(d)), vstride = static_cast<int>(lane_stride(dv));
  const DqTiles at(rows, d, dv);
  T* base = shared_base<T>();
  T *qs = base + at.q, *douts = base + at.dout, *acc = base + at.acc, *ks = base + at.k, *vs = base + at.v;
  T *my_q = qs + warp * kRows * d, *my_dout = douts + warp * kRows * dv, *my_acc = acc + warp * kRows * d;
  T* w = base + at.w + warp * kRows * kLanes;
  T ones[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) ones[r] = 1;
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, q0 = (tiles - 1 - b % tiles) * rows;
    const Head<T> h = s.head(i, t), gh = s.head(i, g);
    const int64_t nq = lesser(rows, s.tq - q0), keys = causal ? lesser(s.tk, q0 + nq) : s.tk;
    const int64_t r0 = q0 + warp * kRows;
    stage(qs, rows, d, h.q + q0 * h.ldq, h.ldq, nq, d);
    stage(douts, rows, dv, gh.out + q0 * gh.ldo, gh.ldo, nq, dv);
    zero(acc, rows * d);
    T lse[kRows], dlt[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const bool valid = r0 + r < s.tq;
      lse[r] = valid ? h.lse[(r0 + r) * h.lse_stride] : T(0);
      dlt[r] = valid ? delta[i * s.tq + r0 + r] : T(0);
    }
    __syncthreads();
    for (int64_t k0 = 0; k0 < keys; k0 += kLanes) {
      stage(ks, kLanes, kstride, h.k + k0 * h.ldk, h.ldk, keys - k0, d);
      stage(vs, kLanes, vstride, h.v + k0 * h.ldv, h.ldv, keys - k0, dv);
      __syncthreads();
      if (r0 < s.tq && (!causal || k0 <= r0 + kRows - 1)) {
        T score[kRows], dp[kRows];
        dots(score, my_q, d, ks + lane * kstride, d);
        dots(dp, my_dout, dv, vs + lane * vstride, dv);
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          const bool seen = sees(r0 + r, k0 + lane, s.tq, keys, causal);
          w[r * kLanes + lane] = ScoreGrad<T>(seen, score[r], scale, lse[r], dp[r], dlt[r]).ds;
        }
        __syncwarp();
        accumulate(my_acc, d, ones, w, ks, kstride, d);
      }
      __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int64_t qi = r0 + r;
      if (qi >= s.tq) break;
      for (int c = lane; c < d; c += kLanes) gh.q[qi * gh.ldq + c] = my_acc[r * d + c];
    }
    __syncthreads();
  }
}

// dv_j = sum_i p_ij dout_i and dk_j = sum_i ds_ij q_i, a block per tile of keys of a head
// (in order: under a causal mask the first keys are read by the most queries). Keys that no
// query sees get zeros.
template <typename T>
__global__ void dkv_kernel(Layout s, Tensors<T> t, Tensors<T> g, const T* delta, bool causal, T scale,
                           int64_t tiles) {
  const int warps = blockDim.x / kLanes, warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int rows = warps * kRows, d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  const int qstride = static_cast<int>(lane_stride(d)), ostride = static_cast<int>(lane_stride(dv));
  const DkvTiles at(rows, d, dv);
  T* base = shared_base<T>();
  T *ks = base + at.k, *vs = base + at.v, *dks = base + at.dk, *dvs = base + at.dv, *qs = base + at.q,
    *douts = base + at.dout;
  T *my_k = ks + warp * kRows * d, *my_v = vs + warp * kRows * dv;
  T *my_dk = dks + warp * kRows * d, *my_dv = dvs + warp * kRows * dv;
  T *p = base + at.p + warp * kRows * kLanes, *ds = base + at.ds + warp * kRows * kLanes;
  T ones[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) ones[r] = 1;
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, k0 = b % tiles * rows;
    const Head<T> h = s.head(i, t), gh = s.head(i, g);
    const int64_t kw = k0 + warp * kRows;  // the warp's first key
    stage(ks, rows, d, h.k + k0 * h.ldk, h.ldk, s.tk - k0, d);
    stage(vs, rows, dv, h.v + k0 * h.ldv, h.ldv, s.tk - k0, dv);
    zero(dks, rows * d);
    zero(dvs, rows * dv);
    __syncthreads();
    // Under a causal mask, queries before the tile's first key see none of its keys.
    for (int64_t q0 = causal ? k0 : 0; q0 < s.tq; q0 += kLanes) {
      stage(qs, kLanes, qstride, h.q + q0 * h.ldq, h.ldq, s.tq - q0, d);
      stage(douts, kLanes, ostride, gh.out + q0 * gh.ldo, gh.ldo, s.tq - q0, dv);
      const int64_t qi = q0 + lane;  // the lane's query
      const T lse = qi < s.tq ? h.lse[qi * h.lse_stride] : T(0);
      const T dlt = qi < s.tq ? delta[i * s.tq + qi] : T(0);
      __syncthreads();
      if (kw < s.tk) {
        T score[kRows], dp[kRows];
        dots(score, my_k, d, qs + lane * qstride, d);
        dots(dp, my_v, dv, douts + lane * ostride, dv);
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          const ScoreGrad<T> grad(sees(qi, kw + r, s.tq, s.tk, causal), score[r], scale, lse, dp[r], dlt);
          p[r * kLanes + lane] = grad.p;
          ds[r * kLanes + lane] = grad.ds;
        }
        __syncwarp();
        accumulate(my_dv, dv, ones, p, douts, ostride, dv);
        accumulate(my_dk, d, ones, ds, qs, qstride, d);
      }
      __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int64_t kj = kw + r;
      if (kj >= s.tk) break;
      for (int c = lane; c < d; c += kLanes) gh.k[kj * gh.ldk + c] = my_dk[r * d + c];
      for (int c = lane; c < dv; c += kLanes) gh.v[kj * gh.ldv + c] = my_dv[r * dv + c];
    }
    __syncthreads();
  }
}

// Launches `kernel` over the heads' tiles of `extent` rows (queries or keys), with the most
// warps up to kMaxWarps whose shared tiles fit the GPU; the kernel's last parameter is the
// tiles per head. Head dims whose tiles fit no block are refused naming `op` (past about 700
// in float32 and 350 in float64 on an H100: far past any model's).
template <typename Tiles, typename T, typename... Params, typename... Args>
void launch(const char* op, const char* name, void (*kernel)(Params...), const Layout& s, int64_t extent,
            Args... args) {
  if (s.count == 0 || extent == 0) return;
  int device = 0, limit = 0;
  device::cuda::check(cudaGetDevice(&device), "cudaGetDevice");
  device::cuda::check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                      "cudaDeviceGetAttribute");
  const auto bytes = [&](int warps) { return static_cast<size_t>(Tiles(warps * kRows, s.d, s.dv).total) * sizeof(T); };
  int warps = kMaxWarps;
  while (warps > 1 && bytes(warps) > static_cast<size_t>(limit)) warps /= 2;
  const size_t shared = bytes(warps);
  if (shared > static_cast<size_t>(limit)) {
    op_error(op, "head dims " + std::to_string(s.d) + " and " + std::to_string(s.dv) +
                     " are too large for the CUDA kernel's shared memory");
  }
  const int64_t rows = warps * kRows, tiles = (extent + rows - 1) / rows, blocks = s.count * tiles;
  if (shared > kDefaultShared) {
    device::cuda::check(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
        "cudaFuncSetAttribute");
  }
  kernel<<<static_cast<unsigned>(std::min<int64_t>(blocks, INT_MAX)), warps * kLanes, shared, stream()>>>(args...,
                                                                                                      tiles);
  check_launch(name);
}

bool causal_of(const Attrs& attrs) { return attrs.has("causal") && attrs.get_bool("causal"); }

template <typename T>
T scale_of(const Attrs& attrs, int64_t head_dim) {
  return static_cast<T>(attrs.has("scale") ? attrs.get_float("scale")
                                           : 1.0 / std::sqrt(static_cast<double>(head_dim)));
}

Layout separate_layout(const Shape& q, const Shape& k, const Shape& v) {
  const size_t nd = q.size();
  return {numel(Shape(q.begin(), q.end() - 2)), q[nd - 2], k[nd - 2], q[nd - 1], v[nd - 1], false, 1};
}

Layout packed_layout(const Shape& qkv) {
  const size_t nd = qkv.size();
  const int64_t d = qkv[nd - 1] / 3, heads = qkv[nd - 2];
  return {numel(Shape(qkv.begin(), qkv.end() - 3)) * heads, qkv[nd - 3], qkv[nd - 3], d, d, true, heads};
}

// ---- bfloat16 on tensor cores ----
// The same three-kernel scheme (forward; dq by query tiles; dk, dv by key tiles) with the
// products on tensor cores: mma.sync m16n8k16, bfloat16 operands, float32 accumulators, as
// FlashAttention-2 does on Ampere and Hopper. A block is four warps and owns 64 rows
// (queries, or keys), 16 a warp; the other side's rows come in tiles of 64 staged in shared
// memory as bfloat16, along with transposed copies where a product needs its operand the
// other way round. Scores stay in the accumulators' registers: in the m16n8k16 layout lane
// l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and the next of each 8-wide tile, so
// a row's max and sum take two shuffles, and the probabilities of two 8-wide tiles are, once
// rounded to bfloat16, the next product's 16-wide operand as they lie (no trip through
// shared memory). Head dims are padded with zeros to kD (64 or 128): zero columns add
// nothing to scores, and the padded columns of the results are not written.
namespace tc {

using bf16 = __nv_bfloat16;

constexpr int kWarps = 4;
constexpr int kRowsPerWarp = 16;                    // an mma's m
constexpr int kBlockRows = kWarps * kRowsPerWarp;   // a block's rows, and a staged tile's
constexpr int kTileTiles = kBlockRows / 8;          // 8-wide n tiles across a staged tile
constexpr int kMaxHeadDim = 128;
constexpr int kPad = 8;                             // row padding (elements): conflict-free fragment loads

// The row strides of the staged tiles: [64][kD] as loaded, and transposed [kD][64].
template <int kD>
struct Tile {
  static constexpr int kLd = kD + kPad;
  static constexpr int kLdT = kBlockRows + kPad;
  static constexpr size_t kBytes = size_t{kBlockRows} * kLd * sizeof(bf16);
  static constexpr size_t kBytesT = size_t{kD} * kLdT * sizeof(bf16);
};

__device__ float to_f(float x) { return x; }
__device__ float to_f(bf16 x) { return __bfloat162float(x); }
template <typename T>
__device__ T from_f(float x);
template <>
__device__ float from_f<float>(float x) {
  return x;
}
template <>
__device__ bf16 from_f<bf16>(float x) {
  return __float2bfloat16(x);
}

__device__ uint32_t pack(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);  // lo at the lower address
  return *reinterpret_cast<const uint32_t*>(&v);
}

__device__ uint32_t pair(const bf16* p) { return *reinterpret_cast<const uint32_t*>(p); }

// c += a b for one 16x8 tile: a 16x16 (row-major fragment), b 16x8 (column-major).
__device__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The a fragment of rows [m0, m0 + 16), columns [k0, k0 + 16) of a row-major tile.
__device__ void load_a(uint32_t (&a)[4], const bf16* t, int ld, int m0, int k0) {
  const int lane = threadIdx.x % kLanes, g = lane / 4, c = lane % 4 * 2;
  a[0] = pair(t + (m0 + g) * ld + k0 + c);
  a[1] = pair(t + (m0 + g + 8) * ld + k0 + c);
  a[2] = pair(t + (m0 + g) * ld + k0 + c + 8);
  a[3] = pair(t + (m0 + g + 8) * ld + k0 + c + 8);
}

// c[n] += A B^T over kSteps 16-wide steps of k, for the 8-wide tiles n of B's rows: A the
// rows [m0, m0 + 16) of row-major tile a, B the rows [0, 8 kN) of row-major tile b (each
// row one column of the product), both read along k from column 0.
template <int kSteps, int kN>
__device__ void rows_by_rows(float (&c)[kN][4], const bf16* a, int lda, int m0, const bf16* b, int ldb) {
  const int lane = threadIdx.x % kLanes, g = lane / 4, col = lane % 4 * 2;
#pragma unroll
  for (int kk = 0; kk < kSteps; ++kk) {
    uint32_t fa[4];
    load_a(fa, a, lda, m0, kk * 16);
#pragma unroll
    for (int n = 0; n < kN; ++n) {
      const bf16* row = b + (n * 8 + g) * ldb + kk * 16 + col;
      mma(c[n], fa, pair(row), pair(row + 8));
    }
  }
}

// c[n] += W B over the 64 columns of W (4 steps), W given as a fragments (w[j]: columns
// [16 j, 16 j + 16)), B as its transpose bt (row-major: row r is column r of B).
template <int kN>
__device__ void weights_by_rows(float (&c)[kN][4], const uint32_t (&w)[kBlockRows / 16][4], const bf16* bt, int ldt) {
  const int lane = threadIdx.x % kLanes, g = lane / 4, col = lane % 4 * 2;
#pragma unroll
  for (int j = 0; j < kBlockRows / 16; ++j) {
#pragma unroll
    for (int n = 0; n < kN; ++n) {
      const bf16* row = bt + (n * 8 + g) * ldt + j * 16 + col;
      mma(c[n], w[j], pair(row), pair(row + 8));
    }
  }
}

// Scores (or weights) s over 64 columns as the a fragments of the product that follows:
// two 8-wide accumulator tiles are one 16-wide a fragment.
__device__ void to_a(uint32_t (&w)[kBlockRows / 16][4], const float (&s)[kTileTiles][4]) {
#pragma unroll
  for (int j = 0; j < kBlockRows / 16; ++j) {
    w[j][0] = pack(s[2 * j][0], s[2 * j][1]);
    w[j][1] = pack(s[2 * j][2], s[2 * j][3]);
    w[j][2] = pack(s[2 * j + 1][0], s[2 * j + 1][1]);
    w[j][3] = pack(s[2 * j + 1][2], s[2 * j + 1][3]);
  }
}

// Rows [0, n) of a matrix (`cols` columns, rows `ld` apart, element type T) into a [64][kD]
// bfloat16 tile (stride ld_tile) and its transpose [kD][64] (stride ld_t), each where not
// null. Rows past n and columns past cols are zeros. `vector`: every row starts
// 16-byte aligned and cols is a multiple of 8, so 8 columns load as 16 bytes (bfloat16) or
// 32 (float).
template <int kD, typename T>
__device__ void stage(bf16* tile, int ld_tile, bf16* transposed, int ld_t, const T* src, int64_t ld, int64_t n,
                      int cols, bool vector) {
  constexpr int kChunks = kD / 8;
  for (int e = threadIdx.x; e < kBlockRows * kChunks; e += blockDim.x) {
    const int r = e / kChunks, c0 = e % kChunks * 8;
    float v[8];
    const T* p = src + r * ld + c0;
    if (r < n && vector && c0 < cols) {
      if constexpr (sizeof(T) == 2) {
        const uint4 raw = *reinterpret_cast<const uint4*>(p);
        const bf16* h = reinterpret_cast<const bf16*>(&raw);
#pragma unroll
        for (int i = 0; i < 8; ++i) v[i] = to_f(h[i]);
      } else {
        const float4 lo = *reinterpret_cast<const float4*>(p), hi = *reinterpret_cast<const float4*>(p + 4);
        v[0] = lo.x, v[1] = lo.y, v[2] = lo.z, v[3] = lo.w, v[4] = hi.x, v[5] = hi.y, v[6] = hi.z, v[7] = hi.w;
      }
    } else {
#pragma unroll
      for (int i = 0; i < 8; ++i) v[i] = r < n && c0 + i < cols ? to_f(p[i]) : 0.f;
    }
    if (tile != nullptr) {
      uint4 packed;
      packed.x = pack(v[0], v[1]), packed.y = pack(v[2], v[3]), packed.z = pack(v[4], v[5]), packed.w = pack(v[6], v[7]);
      *reinterpret_cast<uint4*>(tile + r * ld_tile + c0) = packed;
    }
    if (transposed != nullptr) {
#pragma unroll
      for (int i = 0; i < 8; ++i) transposed[(c0 + i) * ld_t + r] = __float2bfloat16(v[i]);
    }
  }
}

// The pointers of a call: q, k, v (all qkv when packed) in bfloat16; out and dout in TO
// (float32 or bfloat16); lse, dlse in float32; the gradients in TG. `vector`: what stage
// may assume of q, k, v and dout.
template <typename TO, typename TG>
struct Args {
  const bf16 *q, *k, *v;
  TO* out;
  float* lse;
  const TO* dout;
  const float* dlse;
  TG *dq, *dk, *dv;
  bool vector;
};

// The rows and columns of lane's accumulator element e of 8-wide tile n, in a warp's 16 x 64.
__device__ int acc_row(int e) { return threadIdx.x % kLanes / 4 + (e >= 2 ? 8 : 0); }
__device__ int acc_col(int n, int e) { return n * 8 + threadIdx.x % 4 * 2 + (e & 1); }

// Max (or sum) over the four lanes that share a row.
__device__ float quad_max(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ float quad_sum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// Writes a warp's accumulated [16][kD] rows to rows row0.. of a matrix (`cols` columns,
// rows `ld` apart, n of them valid), each row times scale[0] (rows l / 4) or scale[1].
template <int kD, typename T>
__device__ void write_rows(const float (&acc)[kD / 8][4], T* dst, int64_t ld, int64_t n, int cols,
                           const float (&scale)[2]) {
#pragma unroll
  for (int t = 0; t < kD / 8; ++t) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int r = acc_row(e), c = acc_col(t, e);
      if (r < n && c < cols) dst[r * ld + c] = from_f<T>(acc[t][e] * scale[e >= 2]);
    }
  }
}

// out and lse, a block per tile of 64 queries of a head (heavy tiles first under a causal
// mask). Each warp keeps its rows' running max and sum and their unnormalized output in
// registers.
template <int kD, typename TO>
__global__ void __launch_bounds__(kWarps * kLanes) forward(Layout s, Args<TO, float> a, bool causal, float scale,
                                                           int64_t tiles) {
  using L = Tile<kD>;
  extern __shared__ __align__(16) unsigned char tc_shared[];
  bf16* qs = reinterpret_cast<bf16*>(tc_shared);
  bf16* ks = reinterpret_cast<bf16*>(tc_shared + L::kBytes);
  bf16* vt = reinterpret_cast<bf16*>(tc_shared + 2 * L::kBytes);
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, q0 = (tiles - 1 - b % tiles) * kBlockRows;
    const Layout::Offsets o = s.offsets(i);
    const int64_t nq = lesser(kBlockRows, s.tq - q0), keys = causal ? lesser(s.tk, q0 + nq) : s.tk;
    const int64_t w0 = q0 + warp * kRowsPerWarp;  // the warp's first query
    stage<kD>(qs, L::kLd, nullptr, 0, a.q + o.q + q0 * o.ld_q, o.ld_q, nq, d, a.vector);
    float acc[kD / 8][4] = {};
    float top[2] = {-CUDART_INF_F, -CUDART_INF_F}, sum[2] = {0.f, 0.f};  // rows l / 4 and l / 4 + 8
    for (int64_t k0 = 0; k0 < keys; k0 += kBlockRows) {
      __syncthreads();  // the last tile's reads are done (and the queries staged)
      stage<kD>(ks, L::kLd, nullptr, 0, a.k + o.k + k0 * o.ld_k, o.ld_k, keys - k0, d, a.vector);
      stage<kD>(nullptr, 0, vt, L::kLdT, a.v + o.v + k0 * o.ld_v, o.ld_v, keys - k0, dv, a.vector);
      __syncthreads();
      if (w0 >= s.tq || (causal && k0 > w0 + kRowsPerWarp - 1)) continue;  // no row of the warp sees a key here
      float sc[kTileTiles][4] = {};
      rows_by_rows<kD / 16>(sc, qs, L::kLd, warp * kRowsPerWarp, ks, L::kLd);
      float tile_top[2] = {-CUDART_INF_F, -CUDART_INF_F};
#pragma unroll
      for (int n = 0; n < kTileTiles; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int64_t qi = w0 + acc_row(e), kj = k0 + acc_col(n, e);
          sc[n][e] = kj < keys && (!causal || kj <= qi) ? sc[n][e] * scale : -CUDART_INF_F;
          tile_top[e >= 2] = fmaxf(tile_top[e >= 2], sc[n][e]);
        }
      }
      float alpha[2], tile_sum[2] = {0.f, 0.f};
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float next = fmaxf(top[h], quad_max(tile_top[h]));
        // Until a row has seen a key its max is -inf, and -inf - -inf would be NaN.
        alpha[h] = next == -CUDART_INF_F ? 1.f : __expf(top[h] - next);
        top[h] = next;
      }
#pragma unroll
      for (int n = 0; n < kTileTiles; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int h = e >= 2;
          sc[n][e] = top[h] == -CUDART_INF_F ? 0.f : __expf(sc[n][e] - top[h]);
          tile_sum[h] += sc[n][e];
        }
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) sum[h] = sum[h] * alpha[h] + quad_sum(tile_sum[h]);
#pragma unroll
      for (int t = 0; t < kD / 8; ++t) {
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[t][e] *= alpha[e >= 2];
      }
      uint32_t p[kBlockRows / 16][4];
      to_a(p, sc);
      weights_by_rows<kD / 8>(acc, p, vt, L::kLdT);
    }
    if (w0 < s.tq) {
      // A row without keys (Tk = 0) has zeros and lse = -inf, as on the CPU.
      const float inv[2] = {sum[0] > 0 ? 1 / sum[0] : 0.f, sum[1] > 0 ? 1 / sum[1] : 0.f};
      write_rows<kD>(acc, a.out + o.out + w0 * o.ld_out, o.ld_out, s.tq - w0, dv, inv);
      if (lane % 4 == 0) {
        for (int h = 0; h < 2; ++h) {
          const int64_t qi = w0 + lane / 4 + 8 * h;
          if (qi < s.tq) a.lse[o.lse + qi * o.lse_stride] = top[h] + logf(sum[h]);
        }
      }
    }
    __syncthreads();  // before the next tile's queries are staged
  }
}

// The probability and the scaled score's gradient of the accumulator elements of a warp:
// p = exp(s scale - lse), ds = p (dp - delta) scale, zeros where a query does not see a key.
// `query` and `key` give an element's (n, e) indices.
template <typename Query, typename Key, typename Lse, typename Delta>
__device__ void score_grads(float (&s)[kTileTiles][4], float (&dp)[kTileTiles][4], float scale, int64_t tq,
                            int64_t tk, bool causal, Query query, Key key, Lse lse, Delta delta) {
#pragma unroll
  for (int n = 0; n < kTileTiles; ++n) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int64_t qi = query(n, e), kj = key(n, e);
      const bool seen = qi < tq && kj < tk && (!causal || kj <= qi);
      const float p = seen ? __expf(s[n][e] * scale - lse(n, e)) : 0.f;
      s[n][e] = p;
      dp[n][e] = seen ? p * (dp[n][e] - delta(n, e)) * scale : 0.f;
    }
  }
}

// dq_i = sum_j ds_ij k_j, a block per tile of 64 queries of a head (heavy tiles first).
template <int kD, typename TO, typename TG>
__global__ void __launch_bounds__(kWarps * kLanes) dq(Layout s, Args<TO, TG> a, const float* delta, bool causal,
                                                      float scale, int64_t tiles) {
  using L = Tile<kD>;
  extern __shared__ __align__(16) unsigned char tc_shared[];
  bf16* qs = reinterpret_cast<bf16*>(tc_shared);
  bf16* douts = reinterpret_cast<bf16*>(tc_shared + L::kBytes);
  bf16* ks = reinterpret_cast<bf16*>(tc_shared + 2 * L::kBytes);
  bf16* vs = reinterpret_cast<bf16*>(tc_shared + 3 * L::kBytes);
  bf16* kt = reinterpret_cast<bf16*>(tc_shared + 4 * L::kBytes);
  const int warp = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, q0 = (tiles - 1 - b % tiles) * kBlockRows;
    const Layout::Offsets o = s.offsets(i);
    const int64_t nq = lesser(kBlockRows, s.tq - q0), keys = causal ? lesser(s.tk, q0 + nq) : s.tk;
    const int64_t w0 = q0 + warp * kRowsPerWarp;
    float row_lse[2], row_delta[2];
    for (int h = 0; h < 2; ++h) {
      const int64_t qi = w0 + lane / 4 + 8 * h;
      row_lse[h] = qi < s.tq ? a.lse[o.lse + qi * o.lse_stride] : 0.f;
      row_delta[h] = qi < s.tq ? delta[i * s.tq + qi] : 0.f;
    }
    stage<kD>(qs, L::kLd, nullptr, 0, a.q + o.q + q0 * o.ld_q, o.ld_q, nq, d, a.vector);
    stage<kD>(douts, L::kLd, nullptr, 0, a.dout + o.out + q0 * o.ld_out, o.ld_out, nq, dv, a.vector);
    float acc[kD / 8][4] = {};
    for (int64_t k0 = 0; k0 < keys; k0 += kBlockRows) {
      __syncthreads();
      stage<kD>(ks, L::kLd, kt, L::kLdT, a.k + o.k + k0 * o.ld_k, o.ld_k, keys - k0, d, a.vector);
      stage<kD>(vs, L::kLd, nullptr, 0, a.v + o.v + k0 * o.ld_v, o.ld_v, keys - k0, dv, a.vector);
      __syncthreads();
      if (w0 >= s.tq || (causal && k0 > w0 + kRowsPerWarp - 1)) continue;
      float sc[kTileTiles][4] = {}, dp[kTileTiles][4] = {};
      rows_by_rows<kD / 16>(sc, qs, L::kLd, warp * kRowsPerWarp, ks, L::kLd);
      rows_by_rows<kD / 16>(dp, douts, L::kLd, warp * kRowsPerWarp, vs, L::kLd);
      score_grads(
          sc, dp, scale, s.tq, keys, causal, [&](int, int e) { return w0 + acc_row(e); },
          [&](int n, int e) { return k0 + acc_col(n, e); }, [&](int, int e) { return row_lse[e >= 2]; },
          [&](int, int e) { return row_delta[e >= 2]; });
      uint32_t w[kBlockRows / 16][4];
      to_a(w, dp);
      weights_by_rows<kD / 8>(acc, w, kt, L::kLdT);
    }
    if (w0 < s.tq) {
      const float one[2] = {1.f, 1.f};
      write_rows<kD>(acc, a.dq + o.q + w0 * o.ld_q, o.ld_q, s.tq - w0, d, one);
    }
    __syncthreads();
  }
}

// dv_j = sum_i p_ij dout_i and dk_j = sum_i ds_ij q_i, a block per tile of 64 keys of a
// head. Each warp works on the transposed scores of its 16 keys against a tile of queries.
// Keys that no query sees get zeros.
template <int kD, typename TO, typename TG>
__global__ void __launch_bounds__(kWarps * kLanes) dkv(Layout s, Args<TO, TG> a, const float* delta, bool causal,
                                                       float scale, int64_t tiles) {
  using L = Tile<kD>;
  extern __shared__ __align__(16) unsigned char tc_shared[];
  bf16* ks = reinterpret_cast<bf16*>(tc_shared);
  bf16* vs = reinterpret_cast<bf16*>(tc_shared + L::kBytes);
  bf16* qs = reinterpret_cast<bf16*>(tc_shared + 2 * L::kBytes);
  bf16* douts = reinterpret_cast<bf16*>(tc_shared + 3 * L::kBytes);
  bf16* qt = reinterpret_cast<bf16*>(tc_shared + 4 * L::kBytes);
  bf16* doutt = reinterpret_cast<bf16*>(tc_shared + 4 * L::kBytes + L::kBytesT);
  float* lses = reinterpret_cast<float*>(tc_shared + 4 * L::kBytes + 2 * L::kBytesT);
  float* deltas = lses + kBlockRows;
  const int warp = threadIdx.x / kLanes;
  const int d = static_cast<int>(s.d), dv = static_cast<int>(s.dv);
  for (int64_t b = blockIdx.x; b < s.count * tiles; b += gridDim.x) {
    const int64_t i = b / tiles, k0 = b % tiles * kBlockRows;
    const Layout::Offsets o = s.offsets(i);
    const int64_t kw = k0 + warp * kRowsPerWarp;  // the warp's first key
    stage<kD>(ks, L::kLd, nullptr, 0, a.k + o.k + k0 * o.ld_k, o.ld_k, s.tk - k0, d, a.vector);
    stage<kD>(vs, L::kLd, nullptr, 0, a.v + o.v + k0 * o.ld_v, o.ld_v, s.tk - k0, dv, a.vector);
    float dk_acc[kD / 8][4] = {}, dv_acc[kD / 8][4] = {};
    // Under a causal mask, queries before the tile's first key see none of its keys.
    for (int64_t q0 = causal ? k0 : 0; q0 < s.tq; q0 += kBlockRows) {
      const int64_t nq = lesser(kBlockRows, s.tq - q0);
      __syncthreads();
      stage<kD>(qs, L::kLd, qt, L::kLdT, a.q + o.q + q0 * o.ld_q, o.ld_q, nq, d, a.vector);
      stage<kD>(douts, L::kLd, doutt, L::kLdT, a.dout + o.out + q0 * o.ld_out, o.ld_out, nq, dv, a.vector);
      for (int e = threadIdx.x; e < kBlockRows; e += blockDim.x) {
        lses[e] = e < nq ? a.lse[o.lse + (q0 + e) * o.lse_stride] : 0.f;
        deltas[e] = e < nq ? delta[i * s.tq + q0 + e] : 0.f;
      }
      __syncthreads();
      if (kw >= s.tk || (causal && kw > q0 + nq - 1)) continue;  // no query of the tile sees the warp's keys
      float st[kTileTiles][4] = {}, dpt[kTileTiles][4] = {};
      rows_by_rows<kD / 16>(st, ks, L::kLd, warp * kRowsPerWarp, qs, L::kLd);
      rows_by_rows<kD / 16>(dpt, vs, L::kLd, warp * kRowsPerWarp, douts, L::kLd);
      score_grads(
          st, dpt, scale, s.tq, s.tk, causal, [&](int n, int e) { return q0 + acc_col(n, e); },
          [&](int, int e) { return kw + acc_row(e); }, [&](int n, int e) { return lses[acc_col(n, e)]; },
          [&](int n, int e) { return deltas[acc_col(n, e)]; });
      uint32_t w[kBlockRows / 16][4];
      to_a(w, st);
      weights_by_rows<kD / 8>(dv_acc, w, doutt, L::kLdT);
      to_a(w, dpt);
      weights_by_rows<kD / 8>(dk_acc, w, qt, L::kLdT);
    }
    if (kw < s.tk) {
      const float one[2] = {1.f, 1.f};
      write_rows<kD>(dk_acc, a.dk + o.k + kw * o.ld_k, o.ld_k, s.tk - kw, d, one);
      write_rows<kD>(dv_acc, a.dv + o.v + kw * o.ld_v, o.ld_v, s.tk - kw, dv, one);
    }
    __syncthreads();
  }
}

template <int kD>
constexpr size_t forward_shared() {
  return 2 * Tile<kD>::kBytes + Tile<kD>::kBytesT;
}
template <int kD>
constexpr size_t dq_shared() {
  return 4 * Tile<kD>::kBytes + Tile<kD>::kBytesT;
}
template <int kD>
constexpr size_t dkv_shared() {
  return 4 * Tile<kD>::kBytes + 2 * Tile<kD>::kBytesT + 2 * kBlockRows * sizeof(float);
}

// Launches one of the kernels above over `tiles` tiles of 64 rows of every head.
template <typename... Params, typename... Rest>
void launch_tiles(const char* name, void (*kernel)(Params...), size_t shared, const Layout& s, int64_t extent,
                  Rest... rest) {
  if (s.count == 0 || extent == 0) return;
  const int64_t tiles = (extent + kBlockRows - 1) / kBlockRows;
  if (shared > kDefaultShared) {
    device::cuda::check(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
        "cudaFuncSetAttribute");
  }
  kernel<<<static_cast<unsigned>(std::min<int64_t>(s.count * tiles, INT_MAX)), kWarps * kLanes, shared, stream()>>>(
      s, rest..., tiles);
  check_launch(name);
}

template <typename T>
T* typed(const Tensor& t) {
  return static_cast<T*>(t.data());
}

// Whether stage may load 8 columns at once from every head's rows of these tensors: head
// dims multiples of 8 (so are the row strides and head offsets), starts 16-byte aligned.
bool vectorizable(const Layout& s, const std::vector<const Tensor*>& tensors) {
  if (s.d % 8 != 0 || s.dv % 8 != 0) return false;
  return std::all_of(tensors.begin(), tensors.end(),
                     [](const Tensor* t) { return reinterpret_cast<uintptr_t>(t->data()) % 16 == 0; });
}

// f(std::integral_constant<int, kD>) for a call's head dims padded to 64 or 128; refuses
// head dims past kMaxHeadDim naming `op`.
template <typename F>
void by_head_dim(const char* op, const Layout& s, F f) {
  const int64_t dim = std::max(s.d, s.dv);
  if (dim > kMaxHeadDim) {
    op_error(op, "bfloat16 attention on CUDA takes head dims up to " + std::to_string(kMaxHeadDim) + "; got " +
                     std::to_string(dim) + " (use float32)");
  }
  if (dim <= 64) {
    f(std::integral_constant<int, 64>{});
  } else {
    f(std::integral_constant<int, 128>{});
  }
}

// f(T{}) for a float32 or bfloat16 tensor's element type.
template <typename F>
void by_float(DType dtype, F f) {
  if (dtype == DType::kFloat32) {
    f(float{});
  } else {
    f(bf16{});
  }
}

// bfloat16 forward: in q, k, v or qkv; out and lse of the ctx's dtypes.
std::vector<Tensor> run_forward(const char* op, const std::vector<Tensor>& in, const KernelContext& ctx,
                                const Layout& s) {
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, mem);
  Tensor lse = output(ctx, 1, ctx.output_boxes[1].extent, DType::kFloat32, mem);
  const Tensor &k = in[s.packed ? 0 : 1], &v = in[s.packed ? 0 : 2];
  by_float(out.dtype(), [&](auto to) {
    using TO = decltype(to);
    const Args<TO, float> a{typed<const bf16>(in[0]), typed<const bf16>(k), typed<const bf16>(v), typed<TO>(out),
                            typed<float>(lse), nullptr, nullptr, nullptr, nullptr, nullptr,
                            vectorizable(s, {&in[0], &k, &v})};
    by_head_dim(op, s, [&](auto dims) {
      constexpr int kD = decltype(dims)::value;
      launch_tiles("attention_forward_bf16", forward<kD, TO>, forward_shared<kD>(), s, s.tq, a, causal_of(ctx.attrs),
                   scale_of<float>(ctx.attrs, s.d));
    });
  });
  return {out, lse};
}

// bfloat16 backward: in the forward's inputs, then out, lse, dout, dlse; the gradients (dq,
// dk, dv or dqkv) in the ctx's dtype.
std::vector<Tensor> run_backward(const char* op, const std::vector<Tensor>& in, const KernelContext& ctx,
                                 const Layout& s) {
  Memory& mem = memory_of(in);
  std::vector<Tensor> grads;
  for (size_t i = 0; i < ctx.outputs.size(); ++i) grads.push_back(output(ctx, i, in[i].shape(), ctx.outputs[i].dtype, mem));
  const size_t n = s.packed ? 1 : 3;
  const Tensor &k = in[n == 1 ? 0 : 1], &v = in[n == 1 ? 0 : 2];
  const Tensor &out = in[n], &lse = in[n + 1], &dout = in[n + 2], &dlse = in[n + 3];
  const Tensor &dq_t = grads[0], &dk_t = grads[grads.size() == 1 ? 0 : 1], &dv_t = grads.back();
  const bool causal = causal_of(ctx.attrs);
  const float scale = scale_of<float>(ctx.attrs, s.d);
  by_float(out.dtype(), [&](auto to) {
    using TO = decltype(to);
    const std::shared_ptr<void> delta =
        deltas<TO, float>(mem, s, typed<const TO>(out), typed<const TO>(dout), typed<const float>(dlse));
    const float* dlt = static_cast<const float*>(delta.get());
    by_float(dq_t.dtype(), [&](auto tg) {
      using TG = decltype(tg);
      const Args<TO, TG> a{typed<const bf16>(in[0]), typed<const bf16>(k), typed<const bf16>(v), typed<TO>(out),
                           typed<float>(lse), typed<const TO>(dout), typed<const float>(dlse), typed<TG>(dq_t),
                           typed<TG>(dk_t), typed<TG>(dv_t), vectorizable(s, {&in[0], &k, &v, &dout})};
      by_head_dim(op, s, [&](auto dims) {
        constexpr int kD = decltype(dims)::value;
        launch_tiles("attention_backward_dq_bf16", dq<kD, TO, TG>, dq_shared<kD>(), s, s.tq, a, dlt, causal, scale);
        launch_tiles("attention_backward_dkv_bf16", dkv<kD, TO, TG>, dkv_shared<kD>(), s, s.tk, a, dlt, causal, scale);
      });
    });
  });
  return grads;
}

}  // namespace tc

// in: q, k, v (separate) or qkv (packed); returns out and lse, of the shapes infer gave.
template <typename T>
std::vector<Tensor> run_forward(const char* op, const std::vector<Tensor>& in, const KernelContext& ctx,
                                const Layout& s) {
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), mem);
  Tensor lse = output(ctx, 1, ctx.output_boxes[1].extent, in[0].dtype(), mem);
  const Tensor &k = in[s.packed ? 0 : 1], &v = in[s.packed ? 0 : 2];
  const Tensors<T> t{in[0].data_as<T>(), k.data_as<T>(), v.data_as<T>(), out.data_as<T>(), lse.data_as<T>()};
  launch<ForwardTiles, T>(op, "attention_forward", forward_kernel<T>, s, s.tq, s, t, causal_of(ctx.attrs),
                          scale_of<T>(ctx.attrs, s.d));
  return {out, lse};
}

// in: the forward's inputs, then out, lse, dout, dlse; grads: dq, dk, dv or dqkv.
template <typename T>
void run_backward(const char* op, const std::vector<Tensor>& in, const KernelContext& ctx, const Layout& s,
                  const std::vector<Tensor>& grads) {
  const size_t n = s.packed ? 1 : 3;  // the forward's inputs
  const Tensor &q = in[0], &k = in[n == 1 ? 0 : 1], &v = in[n == 1 ? 0 : 2];
  const Tensor &out = in[n], &lse = in[n + 1], &dout = in[n + 2], &dlse = in[n + 3];
  const Tensor &dq = grads[0], &dk = grads[grads.size() == 1 ? 0 : 1], &dv = grads.back();
  const Tensors<T> t{q.data_as<T>(), k.data_as<T>(), v.data_as<T>(), out.data_as<T>(), lse.data_as<T>()};
  const Tensors<T> g{dq.data_as<T>(), dk.data_as<T>(), dv.data_as<T>(), dout.data_as<T>(), dlse.data_as<T>()};
  const bool causal = causal_of(ctx.attrs);
  const T scale = scale_of<T>(ctx.attrs, s.d);
  const std::shared_ptr<void> delta = deltas<T, T>(memory_of(in), s, t.out, g.out, g.lse);
  const T* dlt = static_cast<const T*>(delta.get());
  launch<DqTiles, T>(op, "attention_backward_dq", dq_kernel<T>, s, s.tq, s, t, g, dlt, causal, scale);
  launch<DkvTiles, T>(op, "attention_backward_dkv", dkv_kernel<T>, s, s.tk, s, t, g, dlt, causal, scale);
}

// f<T>() for the inputs' dtype: float32 or float64, which is all that infer lets through.
template <typename F>
auto by_dtype(DType dtype, F f) {
  return dtype == DType::kFloat64 ? f(double{}) : f(float{});
}

}  // namespace

void add_attention_kernels(OpRegistry& r) {
  r.add_kernel("cuda", kAttention, [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = separate_layout(in[0].shape(), in[1].shape(), in[2].shape());
    if (in[0].dtype() == DType::kBFloat16) return tc::run_forward(kAttention, in, ctx, s);
    return by_dtype(in[0].dtype(), [&](auto tag) { return run_forward<decltype(tag)>(kAttention, in, ctx, s); });
  });
  r.add_kernel("cuda", kAttentionBackward, [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = separate_layout(in[0].shape(), in[1].shape(), in[2].shape());
    if (in[0].dtype() == DType::kBFloat16) return tc::run_backward(kAttentionBackward, in, ctx, s);
    Memory& mem = memory_of(in);
    std::vector<Tensor> grads;
    for (size_t i = 0; i < 3; ++i) grads.push_back(output(ctx, i, in[i].shape(), in[i].dtype(), mem));
    by_dtype(in[0].dtype(),
             [&](auto tag) { run_backward<decltype(tag)>(kAttentionBackward, in, ctx, s, grads); });
    return grads;
  });
  r.add_kernel("cuda", kPackedAttention, [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = packed_layout(in[0].shape());
    if (in[0].dtype() == DType::kBFloat16) return tc::run_forward(kPackedAttention, in, ctx, s);
    return by_dtype(in[0].dtype(),
                    [&](auto tag) { return run_forward<decltype(tag)>(kPackedAttention, in, ctx, s); });
  });
  r.add_kernel("cuda", kPackedAttentionBackward, [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = packed_layout(in[0].shape());
    if (in[0].dtype() == DType::kBFloat16) return tc::run_backward(kPackedAttentionBackward, in, ctx, s);
    Tensor dqkv = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    by_dtype(in[0].dtype(),
             [&](auto tag) { run_backward<decltype(tag)>(kPackedAttentionBackward, in, ctx, s, {dqkv}); });
    return {dqkv};
  });
}

}  // namespace mf::cuda
