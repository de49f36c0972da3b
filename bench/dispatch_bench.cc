// Copyright 2026 The meshflow Authors.
// Dispatch overhead per op: add on 1-element float32 tensors, so the kernel's arithmetic is
// nothing and the time is what a call costs around it. Run on one rank, e.g.
//   OMP_NUM_THREADS=1 build/dispatch_bench
// Rows:
//   local            apply_local(add) with the OpDef looked up once
//   local_by_name    apply_local(find_op("add")): the lookup by name on every call
//   global           apply_global(add) on placement [0], B + B: a plan cache hit, no boxing
//   global_by_name   the same through find_op("add")
//   plan_hit         plan_op alone, a cache hit: the planning share of `global`
//   kernel_only      add's kernel on prepared local tensors and context: the floor
#include <benchmark/benchmark.h>

#include <cstdio>

#include "meshflow/comm/comm.h"
#include "meshflow/ops/dispatch.h"

namespace {

using mf::GlobalTensor;
using mf::Tensor;

Tensor one_element(float value) {
  Tensor t = Tensor::empty({1}, mf::DType::kFloat32);
  t.data_as<float>()[0] = value;
  return t;
}

const mf::Placement& rank0() {
  static const mf::Placement p("cpu", std::vector<int>{0});
  return p;
}

GlobalTensor global_one(float value) {
  return mf::make_global(one_element(value), rank0(), {mf::Sbp::broadcast()}, /*check_consistency=*/false);
}

void BM_local(benchmark::State& state) {
  const mf::OpDef& add = mf::find_op("add");
  const Tensor a = one_element(1), b = one_element(2);
  for (auto _ : state) benchmark::DoNotOptimize(mf::apply_local(add, {a, b}, {}));
}

void BM_local_by_name(benchmark::State& state) {
  const Tensor a = one_element(1), b = one_element(2);
  for (auto _ : state) benchmark::DoNotOptimize(mf::apply_local(mf::find_op("add"), {a, b}, {}));
}

void BM_global(benchmark::State& state) {
  const mf::OpDef& add = mf::find_op("add");
  const GlobalTensor a = global_one(1), b = global_one(2);
  for (auto _ : state) benchmark::DoNotOptimize(mf::apply_global(add, {a, b}, {}));
}

void BM_global_by_name(benchmark::State& state) {
  const GlobalTensor a = global_one(1), b = global_one(2);
  for (auto _ : state) benchmark::DoNotOptimize(mf::apply_global(mf::find_op("add"), {a, b}, {}));
}

void BM_plan_hit(benchmark::State& state) {
  const mf::OpDef& add = mf::find_op("add");
  const std::vector<mf::TensorMeta> metas(2, {{1}, mf::DType::kFloat32});
  const std::vector<mf::NdSbp> sbps(2, {mf::Sbp::broadcast()});
  for (auto _ : state) benchmark::DoNotOptimize(mf::plan_op(add, metas, sbps, rank0(), {}, {}));
}

void BM_kernel_only(benchmark::State& state) {
  const mf::OpDef& add = mf::find_op("add");
  const std::vector<Tensor> in = {one_element(1), one_element(2)};
  const std::vector<mf::TensorMeta> metas(2, {{1}, mf::DType::kFloat32}), outs(1, {{1}, mf::DType::kFloat32});
  const std::vector<mf::Box> in_boxes(2, mf::Box::whole({1})), out_boxes(1, mf::Box::whole({1}));
  const mf::Attrs attrs;
  const mf::KernelContext ctx{attrs, metas, in_boxes, outs, out_boxes};
  for (auto _ : state) benchmark::DoNotOptimize(add.kernel(in, ctx));
}

}  // namespace

BENCHMARK(BM_local)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_local_by_name)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_global)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_global_by_name)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_plan_hit)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_kernel_only)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  if (mf::comm::world_size() != 1) {  // initializes MPI
    if (mf::comm::world_rank() == 0) std::fprintf(stderr, "dispatch_bench: run it on one rank\n");
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
