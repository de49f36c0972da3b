// Copyright 2026 The meshflow Authors.
// The CPU's dense products, defined with the matmul op (ops/matmul.cc) and shared with ops
// that reduce to products (float64 convolutions through im2col, ops/conv.cc; linear algebra,
// ops/linalg.cc): c[m, n] = op(a) @ op(b),
// row-major, op transposing when ta / tb; c is overwritten (zeros when k == 0). float32 runs
// on oneDNN's sgemm (a dot, m = n = 1, as a cascaded sum), float64 on OpenBLAS's dgemm; for fixed shapes the result does not depend
// on the data's address or the call's thread. Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace mf::kernel {

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, const double* b, double* c);
// The same with a's rows (its columns when ta) lda elements apart, as a matrix's rows that
// are every few rows of a larger one (the batch-first sequences of ops/rnn.cc).
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, float* c);
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b, double* c);

// Many products by one right operand (a recurrent weight, read at every step of a scan,
// ops/rnn.cc): c[m, n] = a[m, k] @ b at each call, for any m, a's rows back to back, with
// b [k, n] (stored [n, k] when tb) laid out once for all of them. float32: reordered into
// the blocked layout of oneDNN's matmul primitive, whose kernels read it faster than sgemm
// reads b, which it packs again at every call; where oneDNN keeps b row-major on this CPU
// (no AVX-512), and for float64, a transposed b copied row-major once (sgemm reads a
// transposed operand of a few rows slowly), else b itself. b must
// outlive this object (an m without a blocked kernel runs sgemm on it).
// Construct outside a parallel region; multiply is thread-safe (each thread runs primitives
// of its own, on its own stream, one thread each inside a team).
template <typename T>
class PackedOperand {
 public:
  PackedOperand(bool tb, int64_t k, int64_t n, const T* b);
  ~PackedOperand();
  PackedOperand(const PackedOperand&) = delete;
  PackedOperand& operator=(const PackedOperand&) = delete;
  void multiply(int64_t m, const T* a, T* c) const;

 private:
  struct Blocked;
  bool tb_;  // b_ is [n, k]
  int64_t k_, n_;
  std::vector<T> copy_;  // b transposed, where b_ points
  const T* b_;
  std::unique_ptr<Blocked> blocked_;  // float32's blocked b; null: gemm on b_
};

}  // namespace mf::kernel
