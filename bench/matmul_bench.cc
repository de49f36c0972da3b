// Copyright 2026 The meshflow Authors.
// meshflow's matmul against the bare GEMMs it should match: float32 C = A B, square n x n,
// n = 256 and 1024, on one rank. Run with the thread counts stated, e.g.
//   OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 build/matmul_bench
// Rows per size, in this order: openblas (cblas_sgemm into a preallocated C), onednn
// (dnnl_sgemm, likewise), meshflow (apply_local(matmul), which allocates its output as a
// user's call does). GFLOPs = 2 n^3 / mean time / 1e9; on the meshflow row, vs_best is its
// GFLOP/s over the best the bare GEMMs reached at that size in any run so far (with
// --benchmark_repetitions, their best repetition). Each row first checks its result against
// OpenBLAS's.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "meshflow/comm/comm.h"
#include "meshflow/ops/dispatch.h"

namespace {

using mf::Tensor;

enum class Impl { kOpenBlas, kOneDnn, kMeshflow };

const char* impl_name(Impl impl) {
  switch (impl) {
    case Impl::kOpenBlas: return "openblas";
    case Impl::kOneDnn: return "onednn";
    case Impl::kMeshflow: break;
  }
  return "meshflow";
}

Tensor matrix(int64_t n, int salt) {
  Tensor t = Tensor::empty({n, n}, mf::DType::kFloat32);
  float* p = t.data_as<float>();
  for (int64_t i = 0; i < n * n; ++i) p[i] = static_cast<float>((i * 7 + salt) % 19) / 19.0f - 0.5f;
  return t;
}

// C = A B by `impl`; the bare GEMMs write into `c`, meshflow returns a new tensor.
Tensor multiply(Impl impl, const Tensor& a, const Tensor& b, const Tensor& c) {
  const int64_t n = a.shape()[0];
  switch (impl) {
    case Impl::kOpenBlas:
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data_as<float>(), n,
                  b.data_as<float>(), n, 0.0f, c.data_as<float>(), n);
      return c;
    case Impl::kOneDnn:
      dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data_as<float>(), n, b.data_as<float>(), n, 0.0f, c.data_as<float>(), n);
      return c;
    case Impl::kMeshflow: break;
  }
  static const mf::OpDef& matmul = mf::find_op("matmul");
  return mf::apply_local(matmul, {a, b}, {})[0];
}

double max_difference(const Tensor& x, const Tensor& y) {
  double worst = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    worst = std::max(worst, static_cast<double>(std::abs(x.data_as<float>()[i] - y.data_as<float>()[i])));
  }
  return worst;
}

// GFLOP/s of the bare GEMMs, by size, for the meshflow row's ratio.
std::map<int64_t, double>& best_bare() {
  static std::map<int64_t, double> m;
  return m;
}

void BM_matmul(benchmark::State& state, Impl impl, int64_t n) {
  const Tensor a = matrix(n, 1), b = matrix(n, 5), c = Tensor::empty({n, n}, mf::DType::kFloat32);
  const Tensor reference = multiply(Impl::kOpenBlas, a, b, Tensor::empty({n, n}, mf::DType::kFloat32)).clone();
  const Tensor mine = multiply(impl, a, b, c);
  if (max_difference(mine, reference) > 1e-3 * n) {
    state.SkipWithError("the result differs from OpenBLAS's");
    return;
  }
  multiply(impl, a, b, c);  // warm up: pages, thread pools
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(multiply(impl, a, b, c).data());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const double gflops = 2.0 * n * n * n / (total / static_cast<double>(state.iterations())) / 1e9;
  state.counters["GFLOPs"] = gflops;
  if (impl == Impl::kMeshflow) {
    state.counters["vs_best"] = gflops / best_bare()[n];
  } else {
    best_bare()[n] = std::max(best_bare()[n], gflops);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (mf::comm::world_size() != 1) {  // initializes MPI
    if (mf::comm::world_rank() == 0) std::fprintf(stderr, "matmul_bench: run it on one rank\n");
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  for (int64_t n : {256, 1024}) {
    for (Impl impl : {Impl::kOpenBlas, Impl::kOneDnn, Impl::kMeshflow}) {
      const std::string name = std::string("sgemm/") + std::to_string(n) + "/" + impl_name(impl);
      benchmark::RegisterBenchmark(name.c_str(), BM_matmul, impl, n)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
  for (const char* variable : {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"}) {
    const char* value = std::getenv(variable);
    benchmark::AddCustomContext(variable, value ? value : "unset");
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
