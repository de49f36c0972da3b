// Copyright 2026 The meshflow Authors.
// Actor overhead: a chain of actors whose acts do nothing, each reading its predecessor's
// register and writing its own, so the time is what the actor runtime costs per act (the
// counter updates, the messages to consumers and producers, the hand-off to a stream
// worker). Run on one rank:
//   OMP_NUM_THREADS=1 build/actor_bench
// Rows (us_per_act is the figure; the goal is under 2 us):
//   chain/N/pieces/regst_num   N actors on the compute stream, `pieces` pieces per run
//   two_streams/N/pieces       the chain alternating between the compute and comm streams,
//                              so every act crosses threads (the comm-task case)
#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "meshflow/graph/actor.h"
#include "meshflow/vm/vm.h"

namespace {

using mf::device::StreamKind;
using mf::graph::ActorSpec;
using mf::graph::ActorSystem;

ActorSystem chain(int n, int regst_num, bool alternate) {
  std::vector<ActorSpec> actors;
  for (int a = 0; a < n; ++a) {
    ActorSpec spec;
    spec.name = "empty";
    spec.stream = alternate && a % 2 ? StreamKind::kComm : StreamKind::kCompute;
    if (a > 0) spec.inputs = {a - 1};
    spec.outputs = {a};
    spec.act = [](int64_t) {};
    actors.push_back(std::move(spec));
  }
  return ActorSystem(mf::vm::device(), std::move(actors), std::vector<int>(n, regst_num));
}

void run_chain(benchmark::State& state, bool alternate) {
  const int n = static_cast<int>(state.range(0));
  const int64_t pieces = state.range(1);
  ActorSystem system = chain(n, alternate ? 2 : static_cast<int>(state.range(2)), alternate);
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) system.run(pieces);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  state.counters["us_per_act"] = us / (static_cast<double>(state.iterations()) * n * pieces);
}

void BM_chain(benchmark::State& state) { run_chain(state, false); }
void BM_two_streams(benchmark::State& state) { run_chain(state, true); }

BENCHMARK(BM_chain)->Args({1000, 1, 1})->Args({1000, 1, 2})->Args({1000, 10, 2})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_two_streams)->Args({1000, 1})->Args({1000, 10})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
