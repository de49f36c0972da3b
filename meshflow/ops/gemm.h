// Copyright 2026 The meshflow Authors.
// The CPU's dense products, defined with the matmul op (ops/matmul.cc) and shared with ops
// that reduce to products (float64 convolutions through im2col, ops/conv.cc; linear algebra,
// ops/linalg.cc): c[m, n] = op(a) @ op(b),
// row-major, op transposing when ta / tb; c is overwritten (zeros when k == 0). float32 runs
// on oneDNN's sgemm (a dot, m = n = 1, as a cascaded sum), float64 on OpenBLAS's dgemm; for fixed shapes the result does not depend
// on the data's address or the call's thread. Thread-safe.
#pragma once

#include <cstdint>

namespace mf::kernel {

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, const double* b, double* c);
// The same with a's rows (its columns when ta) lda elements apart, as a matrix's rows that
// are every few rows of a larger one (the batch-first sequences of ops/rnn.cc).
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, float* c);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b, double* c);

}  // namespace mf::kernel
