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
#include <cuda_runtime.h>
#include <math_constants.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
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

  template <typename T>
  __device__ Head<T> head(int64_t i, const Tensors<T>& t) const {
    if (!packed) {
      return {t.q + i * tq * d, t.k + i * tk * d, t.v + i * tk * dv, d, d, dv, t.out + i * tq * dv, dv,
              t.lse + i * tq, 1};
    }
    const int64_t b = i / heads, h = i % heads, ld = heads * 3 * d;
    T* base = t.q + b * tq * ld + h * 3 * d;
    return {base, base + d, base + 2 * d, ld, ld, ld, t.out + b * tq * heads * d + h * d, heads * d,
            t.lse + b * tq * heads + h, heads};
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
// gradient (d lse_i / d score_ij = p_ij). A warp per query row.
template <typename T>
__global__ void delta_kernel(Layout s, Tensors<T> t, Tensors<T> g, T* delta) {
  const int lane = threadIdx.x % kLanes;
  const int64_t n = s.count * s.tq, step = static_cast<int64_t>(gridDim.x) * blockDim.x / kLanes;
  for (int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanes; row < n; row += step) {
    const int64_t i = row / s.tq, qi = row % s.tq;
    const Head<T> h = s.head(i, t), gh = s.head(i, g);
    T x = 0;
    for (int64_t c = lane; c < s.dv; c += kLanes) x += gh.out[qi * gh.ldo + c] * h.out[qi * h.ldo + c];
    x = warp_sum(x);
    if (lane == 0) delta[row] = x - gh.lse[qi * gh.lse_stride];
  }
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
  const int64_t rows = s.count * s.tq;
  std::shared_ptr<void> delta;  // per query row; stream-ordered, so it may go once the kernels are enqueued
  if (rows > 0) {
    delta = memory_of(in).allocate(static_cast<size_t>(rows) * sizeof(T));
    constexpr int kThreads = 256;
    delta_kernel<T><<<blocks_for(rows * kLanes, kThreads), kThreads, 0, stream()>>>(s, t, g,
                                                                                     static_cast<T*>(delta.get()));
    check_launch("attention_delta");
  }
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

void add_attention_kernels(KernelTable& t) {
  t[kAttention] = [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = separate_layout(in[0].shape(), in[1].shape(), in[2].shape());
    return by_dtype(in[0].dtype(), [&](auto tag) { return run_forward<decltype(tag)>(kAttention, in, ctx, s); });
  };
  t[kAttentionBackward] = [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = separate_layout(in[0].shape(), in[1].shape(), in[2].shape());
    Memory& mem = memory_of(in);
    std::vector<Tensor> grads;
    for (size_t i = 0; i < 3; ++i) grads.push_back(output(ctx, i, in[i].shape(), in[i].dtype(), mem));
    by_dtype(in[0].dtype(),
             [&](auto tag) { run_backward<decltype(tag)>(kAttentionBackward, in, ctx, s, grads); });
    return grads;
  };
  t[kPackedAttention] = [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = packed_layout(in[0].shape());
    return by_dtype(in[0].dtype(),
                    [&](auto tag) { return run_forward<decltype(tag)>(kPackedAttention, in, ctx, s); });
  };
  t[kPackedAttentionBackward] = [](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Layout s = packed_layout(in[0].shape());
    Tensor dqkv = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    by_dtype(in[0].dtype(),
             [&](auto tag) { run_backward<decltype(tag)>(kPackedAttentionBackward, in, ctx, s, {dqkv}); });
    return {dqkv};
  };
}

}  // namespace mf::cuda
