// Copyright 2026 The meshflow Authors.
// Boxing against the bare MPI collective it should reduce to (CONCEPTS section 5), on a 1-d
// placement of every rank: S(0) -> B (MPI_Allgather), P -> B (MPI_Allreduce), P -> S(0)
// (MPI_Reduce_scatter_block), S(0) -> S(1) and S(1) -> S(0) (MPI_Alltoall; the strided pieces
// are the sender's in the first, the receiver's in the second), float32, at 1 MiB and 16 MiB of
// local input per rank. Run under mpirun, e.g.
//   OMP_NUM_THREADS=1 mpirun -n 4 build/boxing_bench
// Every rank runs the same benchmarks with fixed iteration counts, so their collectives
// stay in lockstep; only rank 0 prints.
//
// Timing: each iteration is MPI_Barrier, then the op between two MPI_Wtime calls; the
// iteration's time is the slowest rank's (MPI_Allreduce MAX), reported as manual time.
// Counters follow nccl-tests (PERFORMANCE.md there): `bytes` is the size S that nccl-tests
// reports: all-gather, the gathered (logical) tensor; all-reduce, the (logical) buffer;
// reduce-scatter and all-to-all, each rank's send buffer. algbw = S / time;
// busbw = algbw * (n-1)/n (all-gather, reduce-scatter, all-to-all) or * 2(n-1)/n
// (all-reduce), in GB/s (1e9 bytes). `vs_mpi` on a boxing row is its mean time over the
// mean time of the bare collective on the same bytes (the row above it). P -> S(0) has one
// more row, MPI_Reduce_scatter with equal counts (boxing's reduce-scatter is an exchange of
// chunks and a local sum, comm/mpi/mpi_group.cc; scripts/guard-reduce-scatter keeps it
// within MPI's time).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/core/tensor.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace {

using mf::GlobalTensor;
using mf::NdSbp;
using mf::Placement;
using mf::Sbp;
using mf::Shape;
using mf::Tensor;

constexpr int64_t kCols = 1024;  // every logical tensor is [rows, 1024] float32

enum class Op { kS0ToB, kPToB, kPToS0, kS0ToS1, kS1ToS0 };

const char* op_name(Op op) {
  switch (op) {
    case Op::kS0ToB: return "S0_to_B";
    case Op::kPToB: return "P_to_B";
    case Op::kPToS0: return "P_to_S0";
    case Op::kS0ToS1: return "S0_to_S1";
    case Op::kS1ToS0: break;
  }
  return "S1_to_S0";
}

int world_size() { return mf::comm::world_size(); }
int world_rank() { return mf::comm::world_rank(); }

// The logical shape whose local input part is `local_bytes` on each of n ranks.
Shape logical_shape(Op op, int64_t local_bytes, int n) {
  const int64_t local_rows = local_bytes / 4 / kCols;
  // S(0) sources: n parts of local_rows; P sources: every rank holds the whole tensor.
  // S(1) sources: n parts of kCols columns.
  if (op == Op::kS1ToS0) return {local_rows, kCols * n};
  return {op == Op::kS0ToB || op == Op::kS0ToS1 ? local_rows * n : local_rows, kCols};
}

NdSbp source_sbp(Op op) {
  if (op == Op::kS1ToS0) return {Sbp::split(1)};
  return {op == Op::kS0ToB || op == Op::kS0ToS1 ? Sbp::split(0) : Sbp::partial_sum()};
}
NdSbp target_sbp(Op op) {
  switch (op) {
    case Op::kS0ToB:
    case Op::kPToB: return {Sbp::broadcast()};
    case Op::kPToS0:
    case Op::kS1ToS0: return {Sbp::split(0)};
    case Op::kS0ToS1: break;
  }
  return {Sbp::split(1)};
}

// nccl-tests' size S, from the local input bytes per rank.
double nccl_bytes(Op op, int64_t local_bytes, int n) {
  return op == Op::kS0ToB ? static_cast<double>(local_bytes) * n : static_cast<double>(local_bytes);
}
double bus_factor(Op op, int n) {
  return op == Op::kPToB ? 2.0 * (n - 1) / n : static_cast<double>(n - 1) / n;
}

Placement all_ranks() {
  std::vector<int> ranks(world_size());
  for (int r = 0; r < world_size(); ++r) ranks[r] = r;
  return Placement("cpu", ranks);
}

// Small integers, exact under float32 sums, different on each rank.
Tensor local_input(int64_t local_bytes) {
  Tensor t = Tensor::empty({local_bytes / 4 / kCols, kCols}, mf::DType::kFloat32);
  float* p = t.data_as<float>();
  const int rank = world_rank();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>((i + 3 * rank) % 13);
  return t;
}

// The bare collective on preallocated buffers: `in` is the local input, `out` sized for
// the result.
void bare(Op op, const Tensor& in, const Tensor& out) {
  const int n = world_size();
  const int count = static_cast<int>(in.numel());
  switch (op) {
    case Op::kS0ToB:
      MPI_Allgather(in.data(), count, MPI_FLOAT, out.data(), count, MPI_FLOAT, MPI_COMM_WORLD);
      return;
    case Op::kPToB:
      MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      return;
    case Op::kPToS0:
      MPI_Reduce_scatter_block(in.data(), out.data(), count / n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      return;
    case Op::kS0ToS1:
    case Op::kS1ToS0:
      MPI_Alltoall(in.data(), count / n, MPI_FLOAT, out.data(), count / n, MPI_FLOAT, MPI_COMM_WORLD);
      return;
  }
}

int64_t output_elems(Op op, int64_t local_elems, int n) {
  switch (op) {
    case Op::kS0ToB: return local_elems * n;
    case Op::kPToS0: return local_elems / n;
    default: return local_elems;
  }
}

// Runs before timing, for connections and pages: on these virtual machines a buffer's
// first copies stay slow for a few rounds even after its pages are touched (16 MiB copies
// take about 4x, 2x, 1.5x their steady time), so three are not enough.
constexpr int kWarmUps = 8;

// Mean iteration time of the bare collective, by "op/size", for the boxing rows' ratio.
std::map<std::string, double>& bare_means() {
  static std::map<std::string, double> m;
  return m;
}

// Runs `once` per iteration between a barrier and the slowest rank's clock; returns the
// mean iteration time.
double timed_loop(benchmark::State& state, const std::function<void()>& once) {
  double total = 0;
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    once();
    const double mine = MPI_Wtime() - t0;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(slowest);
    total += slowest;
  }
  return total / static_cast<double>(state.iterations());
}

void set_counters(benchmark::State& state, Op op, int64_t local_bytes, double mean) {
  const int n = world_size();
  const double bytes = nccl_bytes(op, local_bytes, n);
  const double algbw = bytes / mean / 1e9;
  state.counters["bytes"] = bytes;
  state.counters["algbw_GBps"] = algbw;
  state.counters["busbw_GBps"] = algbw * bus_factor(op, n);
}

std::string key(Op op, int64_t local_bytes) { return std::string(op_name(op)) + "/" + std::to_string(local_bytes); }

void BM_mpi(benchmark::State& state, Op op, int64_t local_bytes) {
  const int n = world_size();
  Tensor in = local_input(local_bytes);
  Tensor out = Tensor::empty({output_elems(op, in.numel(), n)}, mf::DType::kFloat32);
  for (int i = 0; i < kWarmUps; ++i) bare(op, in, out);
  const double mean = timed_loop(state, [&] { bare(op, in, out); });
  bare_means()[key(op, local_bytes)] = mean;
  set_counters(state, op, local_bytes, mean);
}

// P -> S(0) with MPI_Reduce_scatter (one count per rank), which takes uneven counts as
// boxing does: in Open MPI 4.1 its algorithm differs from MPI_Reduce_scatter_block's.
void BM_mpi_reduce_scatter(benchmark::State& state, int64_t local_bytes) {
  const int n = world_size();
  Tensor in = local_input(local_bytes);
  Tensor out = Tensor::empty({in.numel() / n}, mf::DType::kFloat32);
  std::vector<int> counts(n, static_cast<int>(in.numel() / n));
  auto once = [&] {
    MPI_Reduce_scatter(in.data(), out.data(), counts.data(), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  };
  for (int i = 0; i < kWarmUps; ++i) once();
  set_counters(state, Op::kPToS0, local_bytes, timed_loop(state, once));
}

void BM_boxing(benchmark::State& state, Op op, int64_t local_bytes) {
  const int n = world_size();
  const Placement placement = all_ranks();
  const Shape logical = logical_shape(op, local_bytes, n);
  const GlobalTensor source(logical, placement, source_sbp(op), local_input(local_bytes));
  const NdSbp target = target_sbp(op);
  // Warm up, and wait: the raw MPI calls below must not run beside queued boxing.
  for (int i = 0; i < kWarmUps; ++i) mf::to_global(source, placement, target).local().data();

  // Where the bare collective's output means the same thing, the results must agree
  // (every rank reaches the same verdict, so all skip together).
  if (op != Op::kS0ToS1 && op != Op::kS1ToS0) {
    Tensor want = Tensor::empty({output_elems(op, source.local().numel(), n)}, mf::DType::kFloat32);
    bare(op, source.local(), want);
    const Tensor got = mf::to_global(source, placement, target).local();
    int wrong = got.nbytes() != want.nbytes() || std::memcmp(got.data(), want.data(), want.nbytes()) != 0;
    int any_wrong = 0;
    MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_wrong) {
      state.SkipWithError("boxing's result differs from the bare collective's");
      return;
    }
  }

  const double mean = timed_loop(state, [&] {
    GlobalTensor out = mf::to_global(source, placement, target);
    benchmark::DoNotOptimize(out.local().data());
  });
  set_counters(state, op, local_bytes, mean);
  auto it = bare_means().find(key(op, local_bytes));
  if (it != bare_means().end()) state.counters["vs_mpi"] = mean / it->second;
}

// Ranks other than 0 run the same benchmarks and print nothing.
class NullReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

void register_all() {
  struct Size {
    int64_t bytes;
    const char* name;
    int iterations;
  };
  const Size sizes[] = {{int64_t{1} << 20, "1MiB", 100}, {int64_t{16} << 20, "16MiB", 20}};
  for (Op op : {Op::kS0ToB, Op::kPToB, Op::kPToS0, Op::kS0ToS1, Op::kS1ToS0}) {
    for (const Size& size : sizes) {
      const std::string base = std::string(op_name(op)) + "/";
      // The bare collective first, so that the boxing row can report the ratio.
      benchmark::RegisterBenchmark((base + "mpi/" + size.name).c_str(), BM_mpi, op, size.bytes)
          ->UseManualTime()
          ->Iterations(size.iterations)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark((base + "boxing/" + size.name).c_str(), BM_boxing, op, size.bytes)
          ->UseManualTime()
          ->Iterations(size.iterations)
          ->Unit(benchmark::kMicrosecond);
      if (op == Op::kPToS0) {
        benchmark::RegisterBenchmark((base + "mpi_reduce_scatter/" + size.name).c_str(), BM_mpi_reduce_scatter,
                                     size.bytes)
            ->UseManualTime()
            ->Iterations(size.iterations)
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rank = world_rank();  // initializes MPI through meshflow's communicator
  const int n = world_size();
  if (kCols % n != 0 || ((int64_t{1} << 20) / 4 / kCols) % n != 0) {
    if (rank == 0) std::fprintf(stderr, "boxing_bench: %d ranks do not divide the tensors evenly\n", n);
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("mpi_ranks", std::to_string(n));
  benchmark::AddCustomContext("layout", "1-d placement of all ranks, float32 [rows, 1024]");
  register_all();
  NullReporter quiet;
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  return 0;
}
