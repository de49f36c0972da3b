// Copyright 2026 The meshflow Authors.
// Dense linear algebra on batches of matrices [..., m, n], float32 and float64, with
// torch.linalg's semantics; the CPU kernels call LAPACK (the copy inside OpenBLAS):
//   linalg_solve(A[..., n, n], B[..., n, k]) -> X = A^-1 B          (gesv)
//   linalg_inv(A) -> A^-1                                            (gesv on the identity)
//   linalg_slogdet(A) -> sign [...], logabsdet [...]                 (getrf; a singular A
//                        gives sign 0 and logabsdet -inf, as torch's)
//   linalg_cholesky(A) -> L lower, A = L L^T, reading A's lower half  (potrf)
//   solve, inv and cholesky with attr `ex` true (torch.linalg's *_ex) also return info
//                        [...] int32 per matrix instead of raising: 0, or LAPACK's info (the
//                        order of the zero pivot / failing minor); L is then what potrf left
//                        (as torch's), X and A^-1 NaN (torch's: what its solves leave)
//   linalg_lu_factor(A[..., m, n]) -> LU [..., m, n] (L's unit diagonal left out, U above),
//                        pivots [..., min(m, n)] int32, 1-based rows each row i was swapped
//                        with in turn, as torch's; a singular A factors (U has a zero)  (getrf)
//   linalg_lu_permutation(pivots[..., k]; rows m) -> perm [..., m] int64: row i of P^T A
//                        is row perm[i] of A (the swaps applied in order to 0..m-1)
//   linalg_qr(A; complete) -> Q, R                                   (geqrf, orgqr)
//   linalg_geqrf(A[..., m, n]) -> QR [..., m, n] (R on and above the diagonal, the Householder
//                        vectors below it), tau [..., min(m, n)]: LAPACK's own, torch.geqrf (geqrf)
//   linalg_eigh(A; upper) -> eigenvalues ascending [..., n], eigenvectors as columns
//                        reading one half of A (upper: its upper one) (syevd)
//   linalg_svd(A; full_matrices) -> U, S (descending), Vh            (gesdd)
//   linalg_eig(A[..., n, n]) -> eigenvalues [..., n], eigenvectors as columns [..., n, n],
//                        complex64 / complex128, each vector of unit norm (geev's order
//                        and normalization, which torch returns)                  (geev)
//   linalg_lstsq(A[..., m, n], B[..., m, k]; rcond) -> X [..., n, k], rank [...] (int64),
//                        singular values [..., min(m, n)]            (gelsd)
// and the gradients that are kernels of their own (torch's formulas, FunctionsManual.cpp):
//   linalg_cholesky_backward(L, gL) -> gA
//   linalg_eigh_backward(eigenvalues, V, g_eigenvalues, gV) -> gA
//   linalg_svd_backward(U, S, Vh, gU, gS, gVh) -> gA   (full_matrices=False only)
// Inputs have the same batch dims (the Python front broadcasts them). A singular matrix,
// one not positive-definite (but for `ex` above) or a decomposition that does not converge raises LinAlgError
// (core/error.h) from the kernel, naming the batch element (its index on this rank).
//
// Signatures: every input and output split alike on any batch dim, each rank solving its
// own matrices; the matrix dims are never split (boxing gathers them), since every entry of
// a result depends on the whole matrix.
//
// Gradients: solve, inv and slogdet's are written with ops (solve and inv themselves);
// cholesky, eigh and svd have backward kernels. qr, geqrf, eig, lstsq and lu_factor have none (the
// Python front refuses inputs that require grad).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/core/error.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/gemm.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"

// LAPACK's Fortran entry points in OpenBLAS (column-major; a character argument's length
// is passed after the others, gfortran's convention).
extern "C" {
void sgesv_(const int* n, const int* nrhs, float* a, const int* lda, int* ipiv, float* b, const int* ldb, int* info);
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b, const int* ldb, int* info);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t, size_t);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t, size_t);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u, const int* ldu,
             float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info, size_t);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info, size_t);
void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr, float* wi,
            float* vl, const int* ldvl, float* vr, const int* ldvr, float* work, const int* lwork, int* info, size_t,
            size_t);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr, double* wi,
            double* vl, const int* ldvl, double* vr, const int* ldvr, double* work, const int* lwork, int* info, size_t,
            size_t);
void sgelsd_(const int* m, const int* n, const int* nrhs, float* a, const int* lda, float* b, const int* ldb, float* s,
             const float* rcond, int* rank, float* work, const int* lwork, int* iwork, int* info);
void dgelsd_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb,
             double* s, const double* rcond, int* rank, double* work, const int* lwork, int* iwork, int* info);
}

namespace mf {
namespace {

// A leading dimension: LAPACK refuses one below 1 even for an empty matrix, for which it
// then returns at once (det 1, an empty inverse), as torch's results of empty matrices are.
int ld(int rows) { return std::max(rows, 1); }

// One name per routine for both dtypes.
void gesv(int n, int nrhs, float* a, int* ipiv, float* b, int* info) {
  const int lda = ld(n);
  sgesv_(&n, &nrhs, a, &lda, ipiv, b, &lda, info);
}
void gesv(int n, int nrhs, double* a, int* ipiv, double* b, int* info) {
  const int lda = ld(n);
  dgesv_(&n, &nrhs, a, &lda, ipiv, b, &lda, info);
}
void getrf(int m, int n, float* a, int* ipiv, int* info) {
  const int lda = ld(m);
  sgetrf_(&m, &n, a, &lda, ipiv, info);
}
void getrf(int m, int n, double* a, int* ipiv, int* info) {
  const int lda = ld(m);
  dgetrf_(&m, &n, a, &lda, ipiv, info);
}
void getrf(int n, float* a, int* ipiv, int* info) { getrf(n, n, a, ipiv, info); }
void getrf(int n, double* a, int* ipiv, int* info) { getrf(n, n, a, ipiv, info); }
void potrf(int n, float* a, int* info) {
  const int lda = ld(n);
  spotrf_("L", &n, a, &lda, info, 1);
}
void potrf(int n, double* a, int* info) {
  const int lda = ld(n);
  dpotrf_("L", &n, a, &lda, info, 1);
}
void geqrf(int m, int n, float* a, float* tau, float* work, int lwork, int* info) {
  const int lda = ld(m);
  sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
void geqrf(int m, int n, double* a, double* tau, double* work, int lwork, int* info) {
  const int lda = ld(m);
  dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
void orgqr(int m, int n, int k, float* a, const float* tau, float* work, int lwork, int* info) {
  const int lda = ld(m);
  sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
void orgqr(int m, int n, int k, double* a, const double* tau, double* work, int lwork, int* info) {
  const int lda = ld(m);
  dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
void syevd(const char* uplo, int n, float* a, float* w, float* work, int lwork, int* iwork, int liwork, int* info) {
  const int lda = ld(n);
  ssyevd_("V", uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
void syevd(const char* uplo, int n, double* a, double* w, double* work, int lwork, int* iwork, int liwork, int* info) {
  const int lda = ld(n);
  dsyevd_("V", uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
void gesdd(const char* jobz, int m, int n, float* a, float* s, float* u, int ldu, float* vt, int ldvt, float* work,
           int lwork, int* iwork, int* info) {
  const int lda = ld(m), ldu1 = ld(ldu), ldvt1 = ld(ldvt);
  sgesdd_(jobz, &m, &n, a, &lda, s, u, &ldu1, vt, &ldvt1, work, &lwork, iwork, info, 1);
}
void gesdd(const char* jobz, int m, int n, double* a, double* s, double* u, int ldu, double* vt, int ldvt, double* work,
           int lwork, int* iwork, int* info) {
  const int lda = ld(m), ldu1 = ld(ldu), ldvt1 = ld(ldvt);
  dgesdd_(jobz, &m, &n, a, &lda, s, u, &ldu1, vt, &ldvt1, work, &lwork, iwork, info, 1);
}
// Right eigenvectors only (jobvl 'N'); vl is never read then.
void geev(int n, float* a, float* wr, float* wi, float* vr, float* work, int lwork, int* info) {
  const int one = 1;
  const int lda = ld(n);
  sgeev_("N", "V", &n, a, &lda, wr, wi, nullptr, &one, vr, &lda, work, &lwork, info, 1, 1);
}
void geev(int n, double* a, double* wr, double* wi, double* vr, double* work, int lwork, int* info) {
  const int one = 1;
  const int lda = ld(n);
  dgeev_("N", "V", &n, a, &lda, wr, wi, nullptr, &one, vr, &lda, work, &lwork, info, 1, 1);
}
void gelsd(int m, int n, int nrhs, float* a, float* b, int ldb, float* s, float rcond, int* rank, float* work,
           int lwork, int* iwork, int* info) {
  const int lda = ld(m), ldb1 = ld(ldb);
  sgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb1, s, &rcond, rank, work, &lwork, iwork, info);
}
void gelsd(int m, int n, int nrhs, double* a, double* b, int ldb, double* s, double rcond, int* rank, double* work,
           int lwork, int* iwork, int* info) {
  const int lda = ld(m), ldb1 = ld(ldb);
  dgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb1, s, &rcond, rank, work, &lwork, iwork, info);
}

// A workspace size LAPACK answered a query with (lwork = -1) in the work array's type.
template <typename T>
int work_size(T answer) {
  return std::max(1, static_cast<int>(answer));
}

// a[rows, cols] row-major to LAPACK's column-major order (leading dim `ld` >= rows), and back.
template <typename T>
void to_lapack(const T* a, int64_t rows, int64_t cols, T* f, int64_t ld) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) f[j * ld + i] = a[i * cols + j];
  }
}
template <typename T>
void from_lapack(const T* f, int64_t ld, int64_t rows, int64_t cols, T* a) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) a[i * cols + j] = f[j * ld + i];
  }
}

[[noreturn]] void linalg_error(const std::string& op, int64_t element, const std::string& what,
                               const std::string& expected) {
  throw LinAlgError("[" + op + "] batch element " + std::to_string(element) + ": " + what + "; expected " + expected);
}

// The dims LAPACK takes, as int, refusing a matrix beyond them.
int lapack_dim(const std::string& op, int64_t d) {
  if (d > std::numeric_limits<int>::max() / 64) op_error(op, "a matrix dim of " + std::to_string(d) + " is too large for LAPACK");
  return static_cast<int>(d);
}

// ---------------------------------------------------------------------------------------
// Shapes.

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

Shape with_batch(const Shape& batch, std::initializer_list<int64_t> dims) {
  Shape s = batch;
  s.insert(s.end(), dims.begin(), dims.end());
  return s;
}

// Checks that `m` is a float32 or float64 batch of matrices (square ones when `square`).
void expect_matrices(const std::string& op, const TensorMeta& m, bool square, const char* name = "A") {
  if (m.dtype != DType::kFloat32 && m.dtype != DType::kFloat64) {
    op_error(op, std::string("takes float32 and float64 tensors, got ") + dtype_name(m.dtype) +
                     "; cast to a float dtype first");
  }
  if (m.shape.size() < 2) {
    op_error(op, std::string(name) + " has shape " + to_string(m.shape) + "; expected a matrix or a batch of them [..., m, n]");
  }
  if (square && m.shape[m.shape.size() - 2] != m.shape.back()) {
    op_error(op, std::string(name) + " has shape " + to_string(m.shape) +
                     "; expected a square matrix or a batch of them [..., n, n]");
  }
}

// Checks that B [..., rows, k] goes with A: same dtype and batch dims, `rows` rows.
void expect_right_side(const std::string& op, const TensorMeta& a, const TensorMeta& b, int64_t rows) {
  expect_matrices(op, b, false, "B");
  kernel::expect_same_dtype(op, a, b);
  if (batch_of(b.shape) != batch_of(a.shape) || b.shape[b.shape.size() - 2] != rows) {
    op_error(op, "B has shape " + to_string(b.shape) + " against A's " + to_string(a.shape) + "; expected [..., " +
                     std::to_string(rows) + ", k] with A's batch dims");
  }
}

// Every input and output split alike on each batch dim of input 0.
decltype(OpDef::signatures) batch_splits() {
  return [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return kernel::split_alike_signatures(in[0].shape.size() - 2, in.size(), out.size());
  };
}

// f(element, dtype tag) for each matrix of the batch of input 0, float32 or float64.
template <typename F>
void for_each_matrix(const Tensor& a, F f) {
  const Shape& s = a.shape();
  const int64_t count = numel(batch_of(s));
  auto each = [&](auto tag) {
    for (int64_t e = 0; e < count; ++e) f(e, tag);
  };
  if (a.dtype() == DType::kFloat32) {
    each(float{});
  } else {
    each(double{});
  }
}

// ---------------------------------------------------------------------------------------
// solve, inv, slogdet, cholesky

constexpr const char* kSolve = "linalg_solve";
constexpr const char* kInv = "linalg_inv";
constexpr const char* kSlogdet = "linalg_slogdet";
constexpr const char* kCholesky = "linalg_cholesky";
constexpr const char* kCholeskyBackward = "linalg_cholesky_backward";

const char* const kInvertible = "an invertible matrix";

// Whether the op reports a failure in an info output (torch's *_ex) instead of raising.
bool reports_info(const Attrs& attrs) { return attrs.has("ex") && attrs.get_bool("ex"); }

// The op's outputs: `result`, and with `ex` the info per matrix of A (`a`).
std::vector<TensorMeta> with_info(const TensorMeta& result, const TensorMeta& a, const Attrs& attrs) {
  if (!reports_info(attrs)) return {result};
  return {result, {batch_of(a.shape), DType::kInt32}};
}

// The info output of an `ex` op (none otherwise), where the kernel writes each matrix's.
std::optional<Tensor> info_output(const std::vector<Tensor>& in, const KernelContext& ctx) {
  if (!reports_info(ctx.attrs)) return std::nullopt;
  return ctx.output(1, batch_of(in[0].shape()), DType::kInt32);
}

int32_t* data_of(std::optional<Tensor>& info) { return info ? info->data_as<int32_t>() : nullptr; }

std::vector<Tensor> with_info(Tensor result, std::optional<Tensor> info) {
  if (!info) return {std::move(result)};
  return {std::move(result), std::move(*info)};
}

// x[n, k] = a[n, n]^-1 b[n, k], row-major; b null: the identity (the inverse). A singular
// a raises, or with `info` is reported there (x NaN).
template <typename T>
void solve_one(const std::string& op, int64_t element, int n, int k, const T* a, const T* b, T* x,
               int32_t* info_out) {
  std::vector<T> fa(static_cast<size_t>(n) * n), fb(static_cast<size_t>(n) * k, T(0));
  std::vector<int> ipiv(n);
  to_lapack(a, n, n, fa.data(), n);
  if (b) {
    to_lapack(b, n, k, fb.data(), n);
  } else {
    for (int i = 0; i < n; ++i) fb[static_cast<size_t>(i) * n + i] = T(1);
  }
  int info = 0;
  gesv(n, k, fa.data(), ipiv.data(), fb.data(), &info);
  if (info_out) info_out[element] = info;
  if (info > 0 && info_out) {
    std::fill(x, x + static_cast<size_t>(n) * k, std::numeric_limits<T>::quiet_NaN());
    return;
  }
  if (info > 0) {
    linalg_error(op, element, "the matrix is singular (U[" + std::to_string(info - 1) + ", " +
                                  std::to_string(info - 1) + "] of its LU factorization is zero)", kInvertible);
  }
  from_lapack(fb.data(), n, n, k, x);
}

std::vector<TensorMeta> solve_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kSolve, in, 2);
  expect_matrices(kSolve, in[0], true);
  expect_right_side(kSolve, in[0], in[1], in[0].shape.back());
  return with_info(in[1], in[0], attrs);
}

std::vector<Tensor> solve_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& s = in[1].shape();
  Tensor out = ctx.output(0, s, in[1].dtype());
  std::optional<Tensor> info = info_output(in, ctx);
  const int n = lapack_dim(kSolve, s[s.size() - 2]), k = lapack_dim(kSolve, s.back());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    solve_one<T>(kSolve, e, n, k, in[0].data_as<T>() + e * n * n, in[1].data_as<T>() + e * n * k,
                 out.data_as<T>() + e * n * k, data_of(info));
  });
  return with_info(out, info);
}

// X = A^-1 B: gB = A^-T gX, gA = -gB X^T.
std::vector<Var> solve_grad(const GradContext& ctx) {
  const Var gb = call1(kSolve, {fn::transpose(ctx.inputs[0], -2, -1), ctx.grad_outputs[0]});
  std::vector<Var> grads(2);
  if (ctx.needs_grad[0]) grads[0] = fn::neg(fn::matmul(gb, ctx.outputs[0], false, true));
  if (ctx.needs_grad[1]) grads[1] = gb;
  return grads;
}

std::vector<TensorMeta> square_infer(const std::string& op, const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(op, in, 1);
  expect_matrices(op, in[0], true);
  return with_info(in[0], in[0], attrs);
}

std::vector<Tensor> inv_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
  std::optional<Tensor> info = info_output(in, ctx);
  const int n = lapack_dim(kInv, in[0].shape().back());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    solve_one<T>(kInv, e, n, n, in[0].data_as<T>() + e * n * n, nullptr, out.data_as<T>() + e * n * n,
                 data_of(info));
  });
  return with_info(out, info);
}

// Y = A^-1: gA = -Y^T gY Y^T.
std::vector<Var> inv_grad(const GradContext& ctx) {
  const Var& y = ctx.outputs[0];
  return {fn::neg(fn::matmul(fn::matmul(y, ctx.grad_outputs[0], true, false), y, false, true))};
}

std::vector<TensorMeta> slogdet_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kSlogdet, in, 1);
  expect_matrices(kSlogdet, in[0], true);
  const TensorMeta per_matrix{batch_of(in[0].shape), in[0].dtype};
  return {per_matrix, per_matrix};
}

std::vector<Tensor> slogdet_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape batch = batch_of(in[0].shape());
  Tensor sign = ctx.output(0, batch, in[0].dtype()), logabs = ctx.output(1, batch, in[0].dtype());
  const int n = lapack_dim(kSlogdet, in[0].shape().back());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    // det(A^T) = det(A): the row-major matrix goes to LAPACK as it lies.
    std::vector<T> lu(in[0].data_as<T>() + e * n * n, in[0].data_as<T>() + (e + 1) * n * n);
    std::vector<int> ipiv(std::max(n, 1));
    int info = 0;
    getrf(n, lu.data(), ipiv.data(), &info);
    T s = 1;
    double log_abs = 0;
    for (int i = 0; i < n; ++i) {
      const T d = lu[static_cast<size_t>(i) * n + i];
      if (d < 0) s = -s;
      if (ipiv[i] != i + 1) s = -s;
      log_abs += std::log(std::abs(static_cast<double>(d)));
    }
    if (info > 0) {
      s = 0;
      log_abs = -std::numeric_limits<double>::infinity();
    }
    sign.data_as<T>()[e] = s;
    logabs.data_as<T>()[e] = static_cast<T>(log_abs);
  });
  return {sign, logabs};
}

// d logabsdet / dA = A^-T (sign has no gradient).
std::vector<Var> slogdet_grad(const GradContext& ctx) {
  const Var& a = ctx.inputs[0];
  Shape g_shape = ctx.grad_outputs[1].shape();
  g_shape.insert(g_shape.end(), {1, 1});
  return {fn::mul(fn::reshape(ctx.grad_outputs[1], g_shape), fn::transpose(call1(kInv, {a}), -2, -1))};
}

std::vector<Tensor> cholesky_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
  std::optional<Tensor> info_tensor = info_output(in, ctx);
  int32_t* info_out = data_of(info_tensor);
  const int n = lapack_dim(kCholesky, in[0].shape().back());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> f(static_cast<size_t>(n) * n);
    to_lapack(in[0].data_as<T>() + e * n * n, n, n, f.data(), n);
    int info = 0;
    potrf(n, f.data(), &info);
    if (info_out) info_out[e] = info;
    if (info > 0 && !info_out) {
      linalg_error(kCholesky, e, "the leading minor of order " + std::to_string(info) + " is not positive-definite",
                   "a symmetric positive-definite matrix");
    }
    T* l = out.data_as<T>() + e * n * n;
    from_lapack(f.data(), n, n, n, l);
    for (int i = 0; i < n; ++i) std::fill(l + static_cast<size_t>(i) * n + i + 1, l + static_cast<size_t>(i + 1) * n, T(0));
  });
  return with_info(out, info_tensor);
}

std::vector<Var> cholesky_grad(const GradContext& ctx) {
  return {call1(kCholeskyBackward, {ctx.outputs[0], ctx.grad_outputs[0]})};
}

std::vector<TensorMeta> cholesky_backward_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kCholeskyBackward, in, 2);
  expect_matrices(kCholeskyBackward, in[0], true);
  kernel::expect_same_dtype(kCholeskyBackward, in[0], in[1]);
  return {in[0]};
}

// torch's cholesky_backward: with P = L^T gL and S = (tril(P) + tril(P, -1)^T) / 2,
// gA = L^-T S L^-1 (symmetric).
std::vector<Tensor> cholesky_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
  const int n = lapack_dim(kCholeskyBackward, in[0].shape().back());
  const size_t nn = static_cast<size_t>(n) * n;
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    const T* l = in[0].data_as<T>() + e * n * n;
    std::vector<T> p(nn), l_inv(nn), sm(nn);
    kernel::gemm(true, false, n, n, n, l, in[1].data_as<T>() + e * n * n, p.data());
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        const T v = p[static_cast<size_t>(i) * n + j] / 2;
        p[static_cast<size_t>(i) * n + j] = v;
        p[static_cast<size_t>(j) * n + i] = v;
      }
    }
    solve_one<T>(kCholeskyBackward, e, n, n, l, nullptr, l_inv.data(), nullptr);
    kernel::gemm(false, false, n, n, n, p.data(), l_inv.data(), sm.data());
    kernel::gemm(true, false, n, n, n, l_inv.data(), sm.data(), out.data_as<T>() + e * n * n);
  });
  return {out};
}

// ---------------------------------------------------------------------------------------
// qr, eigh, eig, svd, lstsq

constexpr const char* kQr = "linalg_qr";
constexpr const char* kGeqrf = "linalg_geqrf";
constexpr const char* kEig = "linalg_eig";
constexpr const char* kEigh = "linalg_eigh";
constexpr const char* kEighBackward = "linalg_eigh_backward";
constexpr const char* kSvd = "linalg_svd";
constexpr const char* kSvdBackward = "linalg_svd_backward";
constexpr const char* kLstsq = "linalg_lstsq";
constexpr const char* kLuFactor = "linalg_lu_factor";
constexpr const char* kLuPermutation = "linalg_lu_permutation";

const char* const kConverges = "a matrix whose decomposition converges (no NaN or infinity)";

struct Dims {
  int64_t m, n, k;  // rows, columns, min(rows, columns)
  explicit Dims(const Shape& s) : m(s[s.size() - 2]), n(s.back()), k(std::min(m, n)) {}
};

std::vector<TensorMeta> qr_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kQr, in, 1);
  expect_matrices(kQr, in[0], false);
  const Dims d(in[0].shape);
  const int64_t q_cols = attrs.get_bool("complete") ? d.m : d.k;
  const Shape batch = batch_of(in[0].shape);
  return {{with_batch(batch, {d.m, q_cols}), in[0].dtype}, {with_batch(batch, {q_cols, d.n}), in[0].dtype}};
}

std::vector<Tensor> qr_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims d(in[0].shape());
  const int m = lapack_dim(kQr, d.m), n = lapack_dim(kQr, d.n), k = static_cast<int>(d.k);
  const int q_cols = ctx.attrs.get_bool("complete") ? m : k;
  const Shape batch = batch_of(in[0].shape());
  Tensor q = ctx.output(0, with_batch(batch, {m, q_cols}), in[0].dtype());
  Tensor r = ctx.output(1, with_batch(batch, {q_cols, n}), in[0].dtype());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    // Room for Q's columns too when a complete Q has more of them than A.
    const int cols = std::max(n, q_cols);
    std::vector<T> f(static_cast<size_t>(m) * cols, T(0)), tau(std::max(k, 1)), work(1);
    to_lapack(in[0].data_as<T>() + e * m * n, m, n, f.data(), m);
    int info = 0;
    geqrf(m, n, f.data(), tau.data(), work.data(), -1, &info);
    work.resize(work_size(work[0]));
    geqrf(m, n, f.data(), tau.data(), work.data(), static_cast<int>(work.size()), &info);
    T* rr = r.data_as<T>() + e * q_cols * n;
    for (int i = 0; i < q_cols; ++i) {
      for (int j = 0; j < n; ++j) rr[static_cast<size_t>(i) * n + j] = j >= i ? f[static_cast<size_t>(j) * m + i] : T(0);
    }
    orgqr(m, q_cols, k, f.data(), tau.data(), work.data(), -1, &info);
    work.resize(work_size(work[0]));
    orgqr(m, q_cols, k, f.data(), tau.data(), work.data(), static_cast<int>(work.size()), &info);
    from_lapack(f.data(), m, m, q_cols, q.data_as<T>() + e * m * q_cols);
  });
  return {q, r};
}

std::vector<TensorMeta> geqrf_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kGeqrf, in, 1);
  expect_matrices(kGeqrf, in[0], false);
  return {in[0], {with_batch(batch_of(in[0].shape), {Dims(in[0].shape).k}), in[0].dtype}};
}

std::vector<Tensor> geqrf_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims d(in[0].shape());
  const int m = lapack_dim(kGeqrf, d.m), n = lapack_dim(kGeqrf, d.n), k = static_cast<int>(d.k);
  Tensor qr = ctx.output(0, in[0].shape(), in[0].dtype());
  Tensor tau = ctx.output(1, with_batch(batch_of(in[0].shape()), {k}), in[0].dtype());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> f(static_cast<size_t>(m) * n), t(std::max(k, 1)), work(1);
    to_lapack(in[0].data_as<T>() + e * m * n, m, n, f.data(), m);
    int info = 0;
    geqrf(m, n, f.data(), t.data(), work.data(), -1, &info);
    work.resize(work_size(work[0]));
    geqrf(m, n, f.data(), t.data(), work.data(), static_cast<int>(work.size()), &info);
    from_lapack(f.data(), m, m, n, qr.data_as<T>() + e * m * n);
    std::copy(t.begin(), t.begin() + k, tau.data_as<T>() + e * k);
  });
  return {qr, tau};
}

std::vector<TensorMeta> eigh_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kEigh, in, 1);
  expect_matrices(kEigh, in[0], true);
  attrs.get_bool("upper");
  Shape values = batch_of(in[0].shape);
  values.push_back(in[0].shape.back());
  return {{values, in[0].dtype}, in[0]};
}

std::vector<Tensor> eigh_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& s = in[0].shape();
  const int n = lapack_dim(kEigh, s.back());
  Shape values_shape = batch_of(s);
  values_shape.push_back(n);
  Tensor values = ctx.output(0, values_shape, in[0].dtype()), vectors = ctx.output(1, s, in[0].dtype());
  const char* uplo = ctx.attrs.get_bool("upper") ? "U" : "L";
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> f(static_cast<size_t>(n) * n), work(1);
    std::vector<int> iwork(1);
    to_lapack(in[0].data_as<T>() + e * n * n, n, n, f.data(), n);
    int info = 0;
    T* w = values.data_as<T>() + e * n;
    syevd(uplo, n, f.data(), w, work.data(), -1, iwork.data(), -1, &info);
    work.resize(work_size(work[0]));
    iwork.resize(std::max(1, iwork[0]));
    syevd(uplo, n, f.data(), w, work.data(), static_cast<int>(work.size()), iwork.data(),
          static_cast<int>(iwork.size()), &info);
    if (info != 0) linalg_error(kEigh, e, "the eigenvalue algorithm did not converge", kConverges);
    from_lapack(f.data(), n, n, n, vectors.data_as<T>() + e * n * n);
  });
  return {values, vectors};
}

std::vector<TensorMeta> eig_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kEig, in, 1);
  expect_matrices(kEig, in[0], true);
  Shape values = batch_of(in[0].shape);
  values.push_back(in[0].shape.back());
  const DType complex = complex_of(in[0].dtype);
  return {{values, complex}, {in[0].shape, complex}};
}

// geev returns a complex pair's eigenvalues together (the one with the positive imaginary
// part first) and their vectors as two real columns, re and im: v_j = re + i im and
// v_{j+1} = re - i im.
std::vector<Tensor> eig_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& s = in[0].shape();
  const int n = lapack_dim(kEig, s.back());
  const size_t nn = static_cast<size_t>(n) * n;
  Shape values_shape = batch_of(s);
  values_shape.push_back(n);
  const DType complex = complex_of(in[0].dtype());
  Tensor values = ctx.output(0, values_shape, complex), vectors = ctx.output(1, s, complex);
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    using C = std::complex<T>;
    std::vector<T> f(nn), wr(std::max(n, 1)), wi(std::max(n, 1)), vr(std::max<size_t>(nn, 1)), work(1);
    to_lapack(in[0].data_as<T>() + e * nn, n, n, f.data(), n);
    int info = 0;
    geev(n, f.data(), wr.data(), wi.data(), vr.data(), work.data(), -1, &info);
    work.resize(work_size(work[0]));
    geev(n, f.data(), wr.data(), wi.data(), vr.data(), work.data(), static_cast<int>(work.size()), &info);
    if (info != 0) linalg_error(kEig, e, "the QR algorithm did not converge", kConverges);
    C* w = values.data_as<C>() + e * n;
    C* v = vectors.data_as<C>() + e * nn;
    for (int j = 0; j < n; ++j) {
      w[j] = C(wr[j], wi[j]);
      // Column j of vr, or of the pair (first, first + 1) that j belongs to.
      const bool paired = wi[j] != T(0);
      const int first = paired && j > 0 && wi[j] < T(0) ? j - 1 : j;
      const T sign = first == j ? T(1) : T(-1);
      for (int i = 0; i < n; ++i) {
        const T re = vr[static_cast<size_t>(first) * n + i];
        const T im = paired ? sign * vr[static_cast<size_t>(first + 1) * n + i] : T(0);
        v[static_cast<size_t>(i) * n + j] = C(re, im);
      }
    }
  });
  return {values, vectors};
}

std::vector<Var> eigh_grad(const GradContext& ctx) {
  return {call1(kEighBackward, {ctx.outputs[0], ctx.outputs[1], ctx.grad_outputs[0], ctx.grad_outputs[1]})};
}

std::vector<TensorMeta> eigh_backward_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kEighBackward, in, 4);
  expect_matrices(kEighBackward, in[1], true);
  return {in[1]};
}

template <typename T>
bool all_zero(const T* x, size_t count) {
  return std::all_of(x, x + count, [](T v) { return v == T(0); });
}

// torch's linalg_eig_backward for symmetric A: with W the skew part of V^T gV,
// gA = V R V^T where R[i, j] = W[i, j] / (w[j] - w[i]) off the diagonal, gw on it. An all-zero
// gV (eigvalsh) leaves W out, so repeated eigenvalues give no 0 / 0.
std::vector<Tensor> eigh_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = ctx.output(0, in[1].shape(), in[1].dtype());
  const int n = lapack_dim(kEighBackward, in[1].shape().back());
  const size_t nn = static_cast<size_t>(n) * n;
  for_each_matrix(in[1], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    const T* w = in[0].data_as<T>() + e * n;
    const T* v = in[1].data_as<T>() + e * n * n;
    const T* gw = in[2].data_as<T>() + e * n;
    const T* gv = in[3].data_as<T>() + e * n * n;
    std::vector<T> r(nn, T(0)), vr(nn);
    if (!all_zero(gv, nn)) {
      kernel::gemm(true, false, n, n, n, v, gv, r.data());
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < i; ++j) {
          const T skew = (r[static_cast<size_t>(i) * n + j] - r[static_cast<size_t>(j) * n + i]) / 2;
          // skew[j, i] = -skew[i, j] and w[i] - w[j] = -(w[j] - w[i]): R is symmetric.
          const T value = skew / (w[j] - w[i]);
          r[static_cast<size_t>(i) * n + j] = value;
          r[static_cast<size_t>(j) * n + i] = value;
        }
      }
    }
    for (int i = 0; i < n; ++i) r[static_cast<size_t>(i) * n + i] = gw[i];
    kernel::gemm(false, false, n, n, n, v, r.data(), vr.data());
    kernel::gemm(false, true, n, n, n, vr.data(), v, out.data_as<T>() + e * n * n);
  });
  return {out};
}

std::vector<TensorMeta> svd_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kSvd, in, 1);
  expect_matrices(kSvd, in[0], false);
  const Dims d(in[0].shape);
  const bool full = attrs.get_bool("full_matrices");
  const Shape batch = batch_of(in[0].shape);
  return {{with_batch(batch, {d.m, full ? d.m : d.k}), in[0].dtype},
          {with_batch(batch, {d.k}), in[0].dtype},
          {with_batch(batch, {full ? d.n : d.k, d.n}), in[0].dtype}};
}

std::vector<Tensor> svd_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims d(in[0].shape());
  const int m = lapack_dim(kSvd, d.m), n = lapack_dim(kSvd, d.n), k = static_cast<int>(d.k);
  const bool full = ctx.attrs.get_bool("full_matrices");
  const int u_cols = full ? m : k, vt_rows = full ? n : k;
  const Shape batch = batch_of(in[0].shape());
  Tensor u = ctx.output(0, with_batch(batch, {m, u_cols}), in[0].dtype());
  Tensor s = ctx.output(1, with_batch(batch, {k}), in[0].dtype());
  Tensor vh = ctx.output(2, with_batch(batch, {vt_rows, n}), in[0].dtype());
  const char* jobz = full ? "A" : "S";
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> f(static_cast<size_t>(m) * n), fu(static_cast<size_t>(m) * u_cols + 1),
        fvt(static_cast<size_t>(vt_rows) * n + 1), work(1);
    std::vector<int> iwork(8 * static_cast<size_t>(std::max(k, 1)));
    to_lapack(in[0].data_as<T>() + e * m * n, m, n, f.data(), m);
    const int ldu = std::max(m, 1), ldvt = std::max(vt_rows, 1);
    int info = 0;
    T* sv = s.data_as<T>() + e * k;
    gesdd(jobz, m, n, f.data(), sv, fu.data(), ldu, fvt.data(), ldvt, work.data(), -1, iwork.data(), &info);
    work.resize(work_size(work[0]));
    gesdd(jobz, m, n, f.data(), sv, fu.data(), ldu, fvt.data(), ldvt, work.data(), static_cast<int>(work.size()),
          iwork.data(), &info);
    if (info != 0) linalg_error(kSvd, e, "the SVD algorithm did not converge", kConverges);
    from_lapack(fu.data(), ldu, m, u_cols, u.data_as<T>() + e * m * u_cols);
    from_lapack(fvt.data(), ldvt, vt_rows, n, vh.data_as<T>() + e * vt_rows * n);
  });
  return {u, s, vh};
}

std::vector<Var> svd_grad(const GradContext& ctx) {
  if (ctx.attrs.get_bool("full_matrices")) {
    op_error(kSvd, "has no gradient with full_matrices=True; expected full_matrices=False (as torch)");
  }
  std::vector<Var> in = ctx.outputs;
  in.insert(in.end(), ctx.grad_outputs.begin(), ctx.grad_outputs.end());
  return {call1(kSvdBackward, in)};
}

std::vector<TensorMeta> svd_backward_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kSvdBackward, in, 6);
  const Shape& u = in[0].shape;
  Shape a = batch_of(u);
  a.insert(a.end(), {u[u.size() - 2], in[2].shape.back()});
  return {{a, in[0].dtype}};
}

// torch's svd_backward (FunctionsManual.cpp) for the reduced SVD A = U diag(S) Vh, A [m, n],
// k = min(m, n): with E[j, l] = S[l]^2 - S[j]^2 and skew(X) = X - X^T,
//   R = (skew(U^T gU) S[l] + S[j] skew(Vh gVh^T)) / E off the diagonal, gS on it;
//   gA = U R Vh, plus (I - U U^T) gU S^-1 Vh when m > k, or U S^-1 gVh (I - Vh^T Vh) when
//   n > k. An all-zero gU or gVh (svdvals) leaves its terms out, so repeated or zero singular
//   values give no 0 / 0.
template <typename T>
void svd_backward_one(int64_t m, int64_t n, const T* u, const T* s, const T* vh, const T* gu, const T* gs,
                      const T* gvh, T* ga) {
  const int64_t k = std::min(m, n);
  const size_t kk = static_cast<size_t>(k * k);
  const bool has_u = !all_zero(gu, static_cast<size_t>(m * k)), has_v = !all_zero(gvh, static_cast<size_t>(k * n));
  std::vector<T> uu(kk, T(0)), vv(kk, T(0)), r(kk, T(0));
  if (has_u) kernel::gemm(true, false, k, k, m, u, gu, uu.data());
  if (has_v) kernel::gemm(false, true, k, k, n, vh, gvh, vv.data());
  for (int64_t j = 0; j < k; ++j) {
    for (int64_t l = 0; l < k; ++l) {
      if (j == l) {
        r[j * k + l] = gs[j];
        continue;
      }
      const T skew_u = uu[j * k + l] - uu[l * k + j], skew_v = vv[j * k + l] - vv[l * k + j];
      r[j * k + l] = (skew_u * s[l] + s[j] * skew_v) / (s[l] * s[l] - s[j] * s[j]);
    }
  }
  if (m > k && has_u) {
    // gA = (U R + gU S^-1 - U (U^T gU S^-1)) Vh
    std::vector<T> left(static_cast<size_t>(m * k)), gu_s(static_cast<size_t>(m * k)), proj(kk);
    kernel::gemm(false, false, m, k, k, u, r.data(), left.data());
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t l = 0; l < k; ++l) gu_s[i * k + l] = gu[i * k + l] / s[l];
    }
    kernel::gemm(true, false, k, k, m, u, gu_s.data(), proj.data());
    std::vector<T> u_proj(static_cast<size_t>(m * k));
    kernel::gemm(false, false, m, k, k, u, proj.data(), u_proj.data());
    for (size_t i = 0; i < left.size(); ++i) left[i] += gu_s[i] - u_proj[i];
    kernel::gemm(false, false, m, n, k, left.data(), vh, ga);
  } else if (n > k && has_v) {
    // gA = U (R Vh + S^-1 gVh - (S^-1 gVh Vh^T) Vh)
    std::vector<T> right(static_cast<size_t>(k * n)), s_gvh(static_cast<size_t>(k * n)), proj(kk);
    kernel::gemm(false, false, k, n, k, r.data(), vh, right.data());
    for (int64_t j = 0; j < k; ++j) {
      for (int64_t c = 0; c < n; ++c) s_gvh[j * n + c] = gvh[j * n + c] / s[j];
    }
    kernel::gemm(false, true, k, k, n, s_gvh.data(), vh, proj.data());
    std::vector<T> proj_vh(static_cast<size_t>(k * n));
    kernel::gemm(false, false, k, n, k, proj.data(), vh, proj_vh.data());
    for (size_t i = 0; i < right.size(); ++i) right[i] += s_gvh[i] - proj_vh[i];
    kernel::gemm(false, false, m, n, k, u, right.data(), ga);
  } else {
    std::vector<T> ur(static_cast<size_t>(m * k));
    kernel::gemm(false, false, m, k, k, u, r.data(), ur.data());
    kernel::gemm(false, false, m, n, k, ur.data(), vh, ga);
  }
}

std::vector<Tensor> svd_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const int64_t m = in[0].shape()[in[0].shape().size() - 2], n = in[2].shape().back(), k = std::min(m, n);
  Shape a_shape = batch_of(in[0].shape());
  a_shape.insert(a_shape.end(), {m, n});
  Tensor out = ctx.output(0, a_shape, in[0].dtype());
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    svd_backward_one<T>(m, n, in[0].data_as<T>() + e * m * k, in[1].data_as<T>() + e * k,
                        in[2].data_as<T>() + e * k * n, in[3].data_as<T>() + e * m * k, in[4].data_as<T>() + e * k,
                        in[5].data_as<T>() + e * k * n, out.data_as<T>() + e * m * n);
  });
  return {out};
}

std::vector<TensorMeta> lstsq_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kLstsq, in, 2);
  expect_matrices(kLstsq, in[0], false);
  const Dims d(in[0].shape);
  expect_right_side(kLstsq, in[0], in[1], d.m);
  attrs.get_float("rcond");
  const Shape batch = batch_of(in[0].shape);
  return {{with_batch(batch, {d.n, in[1].shape.back()}), in[0].dtype},
          {batch, DType::kInt64},
          {with_batch(batch, {d.k}), in[0].dtype}};
}

std::vector<Tensor> lstsq_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims d(in[0].shape());
  const int m = lapack_dim(kLstsq, d.m), n = lapack_dim(kLstsq, d.n), k = static_cast<int>(d.k);
  const int nrhs = lapack_dim(kLstsq, in[1].shape().back()), ldb = std::max({m, n, 1});
  const Shape batch = batch_of(in[0].shape());
  Tensor x = ctx.output(0, with_batch(batch, {n, nrhs}), in[0].dtype());
  Tensor rank = ctx.output(1, batch, DType::kInt64);
  Tensor sv = ctx.output(2, with_batch(batch, {k}), in[0].dtype());
  const double rcond = ctx.attrs.get_float("rcond");
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> fa(static_cast<size_t>(m) * n + 1), fb(static_cast<size_t>(ldb) * nrhs + 1, T(0)), work(1);
    std::vector<int> iwork(1);
    to_lapack(in[0].data_as<T>() + e * m * n, m, n, fa.data(), m);
    to_lapack(in[1].data_as<T>() + e * m * nrhs, m, nrhs, fb.data(), ldb);
    int info = 0, r = 0;
    T* s = sv.data_as<T>() + e * k;
    std::vector<T> s_all(std::max(k, 1));
    gelsd(m, n, nrhs, fa.data(), fb.data(), ldb, s_all.data(), static_cast<T>(rcond), &r, work.data(), -1,
          iwork.data(), &info);
    work.resize(work_size(work[0]));
    iwork.resize(std::max(1, iwork[0]));
    gelsd(m, n, nrhs, fa.data(), fb.data(), ldb, s_all.data(), static_cast<T>(rcond), &r, work.data(),
          static_cast<int>(work.size()), iwork.data(), &info);
    if (info != 0) linalg_error(kLstsq, e, "the SVD algorithm did not converge", kConverges);
    std::copy(s_all.begin(), s_all.begin() + k, s);
    rank.data_as<int64_t>()[e] = r;
    from_lapack(fb.data(), ldb, n, nrhs, x.data_as<T>() + e * n * nrhs);
  });
  return {x, rank, sv};
}

std::vector<TensorMeta> lu_factor_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kLuFactor, in, 1);
  expect_matrices(kLuFactor, in[0], false);
  const Dims d(in[0].shape);
  return {in[0], {with_batch(batch_of(in[0].shape), {d.k}), DType::kInt32}};
}

std::vector<Tensor> lu_factor_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Dims d(in[0].shape());
  const int m = lapack_dim(kLuFactor, d.m), n = lapack_dim(kLuFactor, d.n), k = static_cast<int>(d.k);
  Tensor lu = ctx.output(0, in[0].shape(), in[0].dtype());
  Tensor pivots = ctx.output(1, with_batch(batch_of(in[0].shape()), {k}), DType::kInt32);
  for_each_matrix(in[0], [&](int64_t e, auto tag) {
    using T = decltype(tag);
    std::vector<T> f(static_cast<size_t>(m) * n + 1);
    std::vector<int> ipiv(std::max(k, 1));
    to_lapack(in[0].data_as<T>() + e * m * n, m, n, f.data(), std::max(m, 1));
    int info = 0;  // > 0: U has a zero on its diagonal, which torch's lu_factor returns too
    getrf(std::max(m, 1), n, f.data(), ipiv.data(), &info);
    from_lapack(f.data(), std::max(m, 1), m, n, lu.data_as<T>() + e * m * n);
    std::copy(ipiv.begin(), ipiv.begin() + k, pivots.data_as<int32_t>() + e * k);
  });
  return {lu, pivots};
}

std::vector<TensorMeta> lu_permutation_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kLuPermutation, in, 1);
  if (in[0].dtype != DType::kInt32 || in[0].shape.empty()) {
    op_error(kLuPermutation, "pivots are " + std::string(dtype_name(in[0].dtype)) + " of shape " + to_string(in[0].shape) +
                                 "; expected int32 pivots [..., k] (lu_factor's)");
  }
  const int64_t m = attrs.get_int("rows");
  if (m < in[0].shape.back()) {
    op_error(kLuPermutation, std::to_string(in[0].shape.back()) + " pivots for " + std::to_string(m) +
                                 " rows; expected at most one pivot per row");
  }
  Shape perm(in[0].shape.begin(), in[0].shape.end() - 1);
  perm.push_back(m);
  return {{perm, DType::kInt64}};
}

std::vector<Tensor> lu_permutation_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& s = in[0].shape();
  const int64_t k = s.back(), m = ctx.attrs.get_int("rows"), count = numel(Shape(s.begin(), s.end() - 1));
  Shape out_shape(s.begin(), s.end() - 1);
  out_shape.push_back(m);
  Tensor perm = ctx.output(0, out_shape, DType::kInt64);
  for (int64_t e = 0; e < count; ++e) {
    int64_t* p = perm.data_as<int64_t>() + e * m;
    for (int64_t i = 0; i < m; ++i) p[i] = i;
    const int32_t* piv = in[0].data_as<int32_t>() + e * k;
    for (int64_t i = 0; i < k; ++i) {
      if (piv[i] < 1 || piv[i] > m) {
        throw IndexError("[" + std::string(kLuPermutation) + "] pivot " + std::to_string(piv[i]) + " of batch element " +
                         std::to_string(e) + " is out of range; expected 1-based rows in [1, " + std::to_string(m) + "]");
      }
      std::swap(p[i], p[piv[i] - 1]);
    }
  }
  return {perm};
}

OpDef data_checked(std::string name, decltype(OpDef::infer) infer, decltype(OpDef::kernel) kernel) {
  return make_op(std::move(name), std::move(infer), batch_splits(), std::move(kernel), /*kernel_checks_data=*/true);
}

}  // namespace

void register_linalg_ops(OpRegistry& r) {
  r.add(with_grad(data_checked(kSolve, solve_infer, solve_kernel), solve_grad));
  r.add(with_grad(data_checked(kInv, [](const std::vector<TensorMeta>& in, const Attrs& a) { return square_infer(kInv, in, a); },
                               inv_kernel),
                  inv_grad));
  r.add(with_grad(data_checked(kSlogdet, slogdet_infer, slogdet_kernel), slogdet_grad));
  r.add(with_grad(
      data_checked(kCholesky, [](const std::vector<TensorMeta>& in, const Attrs& a) { return square_infer(kCholesky, in, a); },
                   cholesky_kernel),
      cholesky_grad));
  r.add(data_checked(kCholeskyBackward, cholesky_backward_infer, cholesky_backward_kernel));
  r.add(data_checked(kQr, qr_infer, qr_kernel));
  r.add(make_op(kGeqrf, geqrf_infer, batch_splits(), geqrf_kernel));
  OpDef eig = data_checked(kEig, eig_infer, eig_kernel);
  eig.complex = true;  // its results (its infer refuses complex inputs)
  r.add(std::move(eig));
  r.add(with_grad(data_checked(kEigh, eigh_infer, eigh_kernel), eigh_grad));
  r.add(make_op(kEighBackward, eigh_backward_infer, batch_splits(), eigh_backward_kernel));
  r.add(with_grad(data_checked(kSvd, svd_infer, svd_kernel), svd_grad));
  r.add(make_op(kSvdBackward, svd_backward_infer, batch_splits(), svd_backward_kernel));
  r.add(data_checked(kLstsq, lstsq_infer, lstsq_kernel));
  r.add(data_checked(kLuFactor, lu_factor_infer, lu_factor_kernel));
  r.add(make_op(
      kLuPermutation, lu_permutation_infer,
      [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
        return kernel::split_alike_signatures(in[0].shape.size() - 1, in.size(), out.size());
      },
      lu_permutation_kernel, /*kernel_checks_data=*/true));
}

}  // namespace mf
