// Copyright 2026 The meshflow Authors.
// The CUDA kernel of matmul (ops/matmul.cc): the floating dtypes through cuBLASLt, the
// integers through a small tiled kernel that wraps around as the CPU's loop does.
// cuBLAS is column-major and our tensors row-major: a row-major matrix is its transpose in
// column-major, so c = op(a) @ op(b) is computed as c^T = op(b)^T @ op(a)^T with the
// operands swapped, and neither the layout nor a transpose attribute ever costs a copy.
// Batch dims that coalesce into one (the usual [..., heads] batch, or a broadcast operand,
// stride 0) are one strided-batched call; broadcasts that do not coalesce loop on the host
// over strided batches. A bias (the op's third input) is cuBLASLt's bias epilogue, added
// in float32 before the result is rounded; the integer products add it after.
#include <cublasLt.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/cuda/device_util.cuh"
#include "meshflow/ops/kernel_util.h"

namespace mf::cuda {
namespace {

constexpr const char* kName = "matmul";

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }

// One strided batch of products c = op(a) @ op(b), row-major, each a [m, k] (or [k, m]
// with ta), b [k, n] (or [n, k] with tb), c [m, n] with c's matrices back to back.
struct Gemm {
  bool ta, tb;
  int64_t m, n, k;
  int64_t batch;               // at most INT_MAX: cuBLASLt's batch count is an int32
  int64_t stride_a, stride_b;  // elements between an operand's matrices (0: broadcast)
};

// A batch dim of the product: its size and each operand's stride, in matrices.
struct BatchDim {
  int64_t size, a, b;
};

// The output's batch dims, outer to inner, without dims of size 1 and with neighbours merged
// where both operands step through them as through one dim (the output always does).
std::vector<BatchDim> coalesce(const Shape& batch, const Shape& sa, const Shape& sb) {
  std::vector<BatchDim> dims;
  for (size_t d = 0; d < batch.size(); ++d) {
    if (batch[d] == 1) continue;
    if (!dims.empty() && dims.back().a == sa[d] * batch[d] && dims.back().b == sb[d] * batch[d]) {
      dims.back() = {dims.back().size * batch[d], sa[d], sb[d]};
    } else {
      dims.push_back({batch[d], sa[d], sb[d]});
    }
  }
  return dims;
}

// ---- integers ----

constexpr int kTile = 16;

// One block per kTile x kTile tile of c (grid-stride over the batch's tiles). Integers add
// and multiply in their unsigned type: the CPU's loop wraps modulo 2^bits, and signed
// overflow is undefined.
template <typename T>
__global__ void integer_gemm_kernel(const T* a, const T* b, T* c, Gemm g) {
  using U = std::make_unsigned_t<T>;
  __shared__ U sa[kTile][kTile + 1];  // [i][l] of op(a); padded against bank conflicts
  __shared__ U sb[kTile][kTile + 1];  // [l][j] of op(b)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t tiles_m = (g.m + kTile - 1) / kTile, tiles_n = (g.n + kTile - 1) / kTile;
  const int64_t per_matrix = tiles_m * tiles_n, tiles = g.batch * per_matrix;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t p = t / per_matrix, r = t % per_matrix;
    const int64_t i0 = r / tiles_n * kTile, j0 = r % tiles_n * kTile;
    const T* pa = a + p * g.stride_a;
    const T* pb = b + p * g.stride_b;
    U acc = 0;
    for (int64_t l0 = 0; l0 < g.k; l0 += kTile) {
      // threadIdx.x runs along each operand's rows in memory, transposed or not, so the
      // loads coalesce.
      const int64_t ai = i0 + (g.ta ? tx : ty), al = l0 + (g.ta ? ty : tx);
      sa[ai - i0][al - l0] = ai < g.m && al < g.k ? static_cast<U>(pa[g.ta ? al * g.m + ai : ai * g.k + al]) : U{0};
      const int64_t bl = l0 + (g.tb ? tx : ty), bj = j0 + (g.tb ? ty : tx);
      sb[bl - l0][bj - j0] = bl < g.k && bj < g.n ? static_cast<U>(pb[g.tb ? bj * g.k + bl : bl * g.n + bj]) : U{0};
      __syncthreads();
#pragma unroll
      for (int q = 0; q < kTile; ++q) acc += sa[ty][q] * sb[q][tx];
      __syncthreads();
    }
    const int64_t i = i0 + ty, j = j0 + tx;
    if (i < g.m && j < g.n) c[(p * g.m + i) * g.n + j] = static_cast<T>(acc);
  }
}

// c[r, j] = bias[j], or with `accumulate` c[r, j] += bias[j] (integers wrapping), for
// `rows` rows of n: the bias where no epilogue adds it.
template <typename T>
__global__ void bias_rows_kernel(T* c, const T* bias, int64_t rows, int64_t n, bool accumulate) {
  for (int64_t i = first_index(); i < rows * n; i += grid_step()) {
    c[i] = accumulate ? add(c[i], bias[i % n]) : bias[i % n];
  }
}

template <typename T>
void bias_rows(void* c, const void* bias, int64_t rows, int64_t n, bool accumulate) {
  bias_rows_kernel<T><<<blocks_for(rows * n, 256), 256, 0, stream()>>>(static_cast<T*>(c), static_cast<const T*>(bias),
                                                                      rows, n, accumulate);
  check_launch("matmul (bias)");
}

template <typename T>
void integer_gemm(const Gemm& g, const void* a, const void* b, void* c, const void* bias) {
  const int64_t tiles = g.batch * ((g.m + kTile - 1) / kTile) * ((g.n + kTile - 1) / kTile);
  integer_gemm_kernel<T><<<blocks_for(tiles * kTile * kTile, kTile * kTile), dim3(kTile, kTile), 0, stream()>>>(
      static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(c), g);
  check_launch("matmul (integer)");
  if (bias) bias_rows<T>(c, bias, g.batch * g.m, g.n, /*accumulate=*/true);
}

// ---- cuBLASLt ----

constexpr uint64_t kMaxWorkspace = uint64_t{32} << 20;

void check_lt(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cuBLASLt error in ") + what + ": " + cublasLtGetStatusString(status));
  }
}

// GPU `device`'s handle, made on first use. Handles and the map live as long as the
// process: destroying them at exit could run after the CUDA runtime is gone.
cublasLtHandle_t handle_of(int device) {
  static std::mutex mutex;
  static auto* handles = new std::unordered_map<int, cublasLtHandle_t>;
  std::lock_guard<std::mutex> lock(mutex);
  cublasLtHandle_t& h = (*handles)[device];
  if (!h) check_lt(cublasLtCreate(&h), "cublasLtCreate");
  return h;
}

// The largest power of two, up to cuBLASLt's default of 256, that divides the address: a
// view may start anywhere, and the heuristic must not pick kernels that assume more.
uint32_t alignment(const void* p) {
  const auto address = reinterpret_cast<uintptr_t>(p);
  return static_cast<uint32_t>(std::min<uintptr_t>(address & (~address + 1), 256));
}

// What the heuristic's answer depends on besides the handle's GPU.
struct AlgoKey {
  std::array<int64_t, 16> fields;
  bool operator==(const AlgoKey& o) const { return fields == o.fields; }
};

struct AlgoKeyHash {
  size_t operator()(const AlgoKey& key) const {
    size_t h = 0;
    for (int64_t f : key.fields) h = h * 1000003 ^ std::hash<int64_t>()(f);
    return h;
  }
};

// A row-major [rows, cols] matrix is cuBLAS's column-major cols x rows with leading dim cols.
void row_major_layout(cublasLtMatrixLayoutOpaque_t& layout, cudaDataType_t type, int64_t rows, int64_t cols,
                      int64_t batch, int64_t stride) {
  check_lt(cublasLtMatrixLayoutInit(&layout, type, cols, rows, cols), "cublasLtMatrixLayoutInit");
  if (batch == 1) return;
  const int32_t count = static_cast<int32_t>(batch);
  check_lt(cublasLtMatrixLayoutSetAttribute(&layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
           "cublasLtMatrixLayoutSetAttribute");
  check_lt(cublasLtMatrixLayoutSetAttribute(&layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                            sizeof stride),
           "cublasLtMatrixLayoutSetAttribute");
}

// The products of one call in dtype `in` (float32, float64, bfloat16) with results in `out`.
// float32 computes in CUBLAS_COMPUTE_32F, never TF32: results match the CPU's sgemm to
// float32 rounding. bfloat16 accumulates in float32 like the CPU's oneDNN primitive and is
// rounded to bfloat16 once, unless float32_out keeps the float32 result.
class LtGemm {
 public:
  LtGemm(DType in, DType out, Memory& memory) : in_(in), out_(out), memory_(memory) {
    device::cuda::check(cudaGetDevice(&device_), "cudaGetDevice");
    handle_ = handle_of(device_);
    switch (in) {
      case DType::kFloat64:
        compute_ = CUBLAS_COMPUTE_64F;
        scale_ = ab_ = cd_ = CUDA_R_64F;
        break;
      case DType::kBFloat16:
        ab_ = CUDA_R_16BF;
        cd_ = out == DType::kFloat32 ? CUDA_R_32F : CUDA_R_16BF;
        break;
      default:
        break;
    }
  }

  // `bias`: null, or n elements of the result's dtype added to every row.
  void operator()(const Gemm& g, const void* a, const void* b, void* c, const void* bias) const {
    // cuBLAS's A is our b and its B our a (c^T = op(b)^T @ op(a)^T); each is transposed
    // where ours is.
    cublasLtMatrixLayoutOpaque_t la, lb, lc;
    row_major_layout(la, ab_, g.tb ? g.n : g.k, g.tb ? g.k : g.n, g.batch, g.stride_b);
    row_major_layout(lb, ab_, g.ta ? g.k : g.m, g.ta ? g.m : g.k, g.batch, g.stride_a);
    row_major_layout(lc, cd_, g.m, g.n, g.batch, g.m * g.n);
    cublasLtMatmulDescOpaque_t op;
    check_lt(cublasLtMatmulDescInit(&op, compute_, scale_), "cublasLtMatmulDescInit");
    const cublasOperation_t trans_a = g.tb ? CUBLAS_OP_T : CUBLAS_OP_N, trans_b = g.ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    check_lt(cublasLtMatmulDescSetAttribute(&op, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a),
             "cublasLtMatmulDescSetAttribute");
    check_lt(cublasLtMatmulDescSetAttribute(&op, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b),
             "cublasLtMatmulDescSetAttribute");
    if (bias) {
      // cuBLAS's D is c^T: its rows are our columns, which the bias runs along; its batch
      // stride (0, the default) gives every product of the batch the same bias.
      const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
      check_lt(cublasLtMatmulDescSetAttribute(&op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue),
               "cublasLtMatmulDescSetAttribute");
      check_lt(cublasLtMatmulDescSetAttribute(&op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias),
               "cublasLtMatmulDescSetAttribute");
    }
    const std::array<uint32_t, 4> aligned = {alignment(b), alignment(a), alignment(c), bias ? alignment(bias) : 0};
    const std::optional<cublasLtMatmulHeuristicResult_t> found = algo_for(g, aligned, &op, &la, &lb, &lc);
    if (!found && bias) {
      // No algorithm with the epilogue for this shape and alignment: the product, then the
      // bias on its own.
      operator()(g, a, b, c, nullptr);
      switch (out_) {
        case DType::kFloat64: bias_rows<double>(c, bias, g.batch * g.m, g.n, true); break;
        case DType::kBFloat16: bias_rows<__nv_bfloat16>(c, bias, g.batch * g.m, g.n, true); break;
        default: bias_rows<float>(c, bias, g.batch * g.m, g.n, true); break;
      }
      return;
    }
    if (!found) {
      throw std::runtime_error(std::string("[matmul] cuBLASLt has no algorithm for ") + dtype_name(in_) + " [" +
                               std::to_string(g.batch) + ", " + std::to_string(g.m) + ", " + std::to_string(g.k) +
                               "] @ [" + std::to_string(g.k) + ", " + std::to_string(g.n) + "]");
    }
    const cublasLtMatmulHeuristicResult_t& algo = *found;
    const std::shared_ptr<void> workspace = algo.workspaceSize ? memory_.allocate(algo.workspaceSize) : nullptr;
    static constexpr float kOne32 = 1, kZero32 = 0;
    static constexpr double kOne64 = 1, kZero64 = 0;
    const bool wide = scale_ == CUDA_R_64F;
    check_lt(cublasLtMatmul(handle_, &op, wide ? static_cast<const void*>(&kOne64) : &kOne32, b, &la, a, &lb,
                            wide ? static_cast<const void*>(&kZero64) : &kZero32, c, &lc, c, &lc, &algo.algo,
                            workspace.get(), algo.workspaceSize, stream()),
             "cublasLtMatmul");
  }

 private:
  // The heuristic's best algorithm (none: nullopt), asked once per GPU, dtypes, shape,
  // alignment and epilogue: the query costs more than launching a small product.
  std::optional<cublasLtMatmulHeuristicResult_t> algo_for(const Gemm& g, const std::array<uint32_t, 4>& aligned,
                                           cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t la,
                                           cublasLtMatrixLayout_t lb, cublasLtMatrixLayout_t lc) const {
    static std::mutex mutex;
    static auto* cache = new std::unordered_map<AlgoKey, std::optional<cublasLtMatmulHeuristicResult_t>, AlgoKeyHash>;
    // aligned[3]: the bias's alignment, 0 without one (the epilogue is part of the key).
    const AlgoKey key{{device_, static_cast<int64_t>(in_), static_cast<int64_t>(out_), g.ta, g.tb, g.m, g.n, g.k,
                       g.batch, g.stride_a, g.stride_b, aligned[0], aligned[1], aligned[2], aligned[3],
                       aligned[3] != 0}};
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = cache->find(key);
      if (it != cache->end()) return it->second;
    }
    cublasLtMatmulPreferenceOpaque_t preference;
    check_lt(cublasLtMatmulPreferenceInit(&preference), "cublasLtMatmulPreferenceInit");
    check_lt(cublasLtMatmulPreferenceSetAttribute(&preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                  &kMaxWorkspace, sizeof kMaxWorkspace),
             "cublasLtMatmulPreferenceSetAttribute");
    const cublasLtMatmulPreferenceAttributes_t aligns[4] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
    for (int i = 0; i < 4; ++i) {
      const uint32_t bytes = aligned[std::min(i, 2)];  // C is D
      check_lt(cublasLtMatmulPreferenceSetAttribute(&preference, aligns[i], &bytes, sizeof bytes),
               "cublasLtMatmulPreferenceSetAttribute");
    }
    cublasLtMatmulHeuristicResult_t result = {};
    int found = 0;
    const cublasStatus_t status =
        cublasLtMatmulAlgoGetHeuristic(handle_, op, la, lb, lc, lc, &preference, 1, &result, &found);
    // "Not supported" is an answer too: no algorithm for this combination.
    if (status != CUBLAS_STATUS_NOT_SUPPORTED) check_lt(status, "cublasLtMatmulAlgoGetHeuristic");
    std::optional<cublasLtMatmulHeuristicResult_t> answer;
    if (status == CUBLAS_STATUS_SUCCESS && found > 0) answer = result;
    std::lock_guard<std::mutex> lock(mutex);
    cache->emplace(key, answer);
    return answer;
  }

  DType in_, out_;
  Memory& memory_;
  int device_ = 0;
  cublasLtHandle_t handle_ = nullptr;
  cublasComputeType_t compute_ = CUBLAS_COMPUTE_32F;
  cudaDataType_t scale_ = CUDA_R_32F, ab_ = CUDA_R_32F, cd_ = CUDA_R_32F;
};

// ---- the op ----

std::vector<Tensor> matmul(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& as = in[0].shape();
  const Shape& bs = in[1].shape();
  const bool ta = flag(ctx.attrs, "transpose_a"), tb = flag(ctx.attrs, "transpose_b");
  const size_t nda = as.size(), ndb = bs.size();
  const int64_t m = as[ta ? nda - 1 : nda - 2], k = as[ta ? nda - 2 : nda - 1], n = bs[tb ? ndb - 2 : ndb - 1];
  const Shape batch_a(as.begin(), as.end() - 2), batch_b(bs.begin(), bs.end() - 2);
  const Shape batch = kernel::broadcast_shapes(kName, batch_a, batch_b);
  Shape out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Memory& memory = memory_of(in);
  const DType in_dtype = in[0].dtype(), out_dtype = ctx.outputs[0].dtype;
  Tensor out = output(ctx, 0, out_shape, out_dtype, memory);
  if (out.numel() == 0) return {out};
  const void* bias = in.size() == 3 ? in[2].data() : nullptr;
  if (k == 0) {  // the product of empty shards (a split k) is 0: the bias alone
    if (!bias) {
      device::cuda::check(cudaMemsetAsync(out.data(), 0, out.nbytes(), stream()), "cudaMemsetAsync");
    } else {
      // A copy of the bias's bits into every row: any type of its width does.
      const int64_t rows = out.numel() / n;
      switch (dtype_size(out_dtype)) {
        case 2: bias_rows<uint16_t>(out.data(), bias, rows, n, false); break;
        case 4: bias_rows<uint32_t>(out.data(), bias, rows, n, false); break;
        default: bias_rows<uint64_t>(out.data(), bias, rows, n, false); break;
      }
    }
    return {out};
  }

  std::vector<BatchDim> dims =
      coalesce(batch, kernel::broadcast_strides(batch_a, batch), kernel::broadcast_strides(batch_b, batch));
  Gemm g{ta, tb, m, n, k, 1, 0, 0};
  if (!ta && dims.size() == 1 && dims[0].a == 1 && dims[0].b == 0) {
    // One b under a batch of a (a linear layer): the batch's rows are one taller matrix.
    g.m *= dims[0].size;
    dims.clear();
  }
  // The innermost dim is each call's strided batch; the others loop here.
  const BatchDim inner = dims.empty() ? BatchDim{1, 0, 0} : dims.back();
  if (!dims.empty()) dims.pop_back();
  int64_t outer = 1;
  for (const BatchDim& d : dims) outer *= d.size;
  g.stride_a = inner.a * m * k;
  g.stride_b = inner.b * k * n;

  const size_t in_size = dtype_size(in_dtype), out_size = dtype_size(out_dtype);
  const auto* a = static_cast<const char*>(in[0].data());
  const auto* b = static_cast<const char*>(in[1].data());
  auto* c = static_cast<char*>(out.data());
  auto each = [&](const auto& product) {
    for (int64_t o = 0; o < outer; ++o) {
      int64_t rest = o, oa = 0, ob = 0;  // matrices
      for (size_t d = dims.size(); d-- > 0;) {
        const int64_t i = rest % dims[d].size;
        rest /= dims[d].size;
        oa += i * dims[d].a;
        ob += i * dims[d].b;
      }
      for (int64_t s = 0; s < inner.size; s += INT_MAX) {
        g.batch = std::min<int64_t>(INT_MAX, inner.size - s);
        const int64_t ia = oa + s * inner.a, ib = ob + s * inner.b, ic = o * inner.size + s;
        product(g, a + ia * m * k * in_size, b + ib * k * n * in_size, c + ic * g.m * n * out_size, bias);
      }
    }
  };
  switch (in_dtype) {
    case DType::kInt32: each(integer_gemm<int32_t>); break;
    case DType::kInt64: each(integer_gemm<int64_t>); break;
    default: each(LtGemm(in_dtype, out_dtype, memory)); break;
  }
  return {out};
}

}  // namespace

void gemm(DType dtype, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c,
          Memory& memory) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    device::cuda::check(cudaMemsetAsync(c, 0, static_cast<size_t>(m * n) * dtype_size(dtype), stream()),
                        "cudaMemsetAsync");
    return;
  }
  LtGemm(dtype, dtype, memory)(Gemm{ta, tb, m, n, k, 1, 0, 0}, a, b, c, nullptr);
}

void add_matmul_kernels(OpRegistry& r) { r.add_kernel("cuda", "matmul", matmul); }

}  // namespace mf::cuda
