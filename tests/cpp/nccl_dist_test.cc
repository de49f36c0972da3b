// Copyright 2026 The meshflow Authors.
// Collectives of GPU buffers (comm/group.h): through NCCL where every rank of the group has a
// GPU of its own (a one-rank world on the lent machine, which has one GPU), staged through the
// host where ranks share one (several ranks there); either way equal to the same collective
// on host buffers, counted alike, and ordered after the GPU work that made their inputs.
// Without a GPU every case skips, saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/core/tensor.h"
#include "meshflow/device/device.h"
#include "tests/cpp/dist_util.h"
#ifdef MESHFLOW_CUDA
#include "meshflow/device/cuda/cuda_device.h"
#endif

namespace mf::test {
namespace {

#define REQUIRE_GPU()                                                                                          \
  if (!gpu_here()) {                                                                                           \
    GTEST_SKIP() << "no GPU here (the CUDA device is not built, or no GPU is visible): GPU collectives are "  \
                    "checked on a machine with one (scripts/test-gpu)";                                        \
  }

Memory& gpu() { return device::for_placement("cuda").memory(); }

// The path this job's world should take for GPU buffers: NCCL where it is built and allowed
// and every rank has a GPU of its own (one rank; or no host with more ranks than GPUs).
std::string expected_path() {
#if defined(MESHFLOW_NCCL) && defined(MESHFLOW_CUDA)
  const char* allowed = std::getenv("MESHFLOW_NCCL");
  if (allowed && std::string(allowed) == "0") return "staged";
  int crowded = comm::local_size() > device::cuda::device_count();
  comm::world().all_reduce(&crowded, &crowded, 1, DType::kInt32, ReduceOp::kMax);
  return crowded ? "staged" : "nccl";
#else
  return "staged";
#endif
}

// n small integers (exact in every dtype, and their sums too) that differ by element, rank
// and `salt`.
Tensor values(int64_t n, DType dtype, int salt) {
  Tensor t = Tensor::empty({n}, dtype);
  auto x = [&](int64_t i) { return static_cast<int>((i * 37 + me() * 11 + salt * 5) % 41) - 20; };
  if (is_half(dtype)) {
    visit_half(dtype, [&](auto h) {
      using H = decltype(h);
      for (int64_t i = 0; i < n; ++i) t.data_as<H>()[i] = from_float<H>(static_cast<float>(x(i)));
    });
  } else {
    visit_with_bool(dtype, [&](auto v) {
      using T = decltype(v);
      for (int64_t i = 0; i < n; ++i) t.data_as<T>()[i] = std::is_same_v<T, bool> ? x(i) > 0 : static_cast<T>(x(i));
    });
  }
  return t;
}

::testing::AssertionResult same_bytes(const Tensor& gpu_result, const Tensor& host_result) {
  const Tensor got = gpu_result.copy_to(host_memory());
  if (got.numel() == host_result.numel() &&
      std::memcmp(got.data(), host_result.data(), static_cast<size_t>(got.numel()) * dtype_size(got.dtype())) == 0) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "the GPU's " << dtype_name(got.dtype())
                                       << " result differs from the host's";
}

const std::vector<DType> kDtypes = {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64,
                                    DType::kBFloat16, DType::kFloat16, DType::kBool};

TEST(NcclCollectives, TheWorldTakesTheExpectedPathAndReportsIt) {
  REQUIRE_GPU();
  comm::Group& world = comm::world();
  const std::string path = world.path_for(gpu());
  EXPECT_EQ(path, expected_path()) << "world of " << comm::world_size() << " ranks, " << comm::local_size()
                                   << " on this host";
  EXPECT_EQ(world.path_for(host_memory()), "own");
  const std::string backend = comm::backend_name();
  EXPECT_EQ(backend.find("+nccl") != std::string::npos, path == "nccl") << backend;
}

TEST(NcclCollectives, AllReduceEqualsTheHostsInEveryDtypeAndOp) {
  REQUIRE_GPU();
  for (DType dtype : kDtypes) {
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
      const Tensor in = values(1000, dtype, static_cast<int>(op));
      Tensor want = Tensor::empty({1000}, dtype);
      comm::world().all_reduce(in.data(), want.data(), in.numel(), dtype, op);
      const Tensor in_gpu = in.copy_to(gpu());
      Tensor out = Tensor::empty({1000}, dtype, gpu());
      comm::world().all_reduce(in_gpu.data(), out.data(), in.numel(), dtype, op, gpu());
      EXPECT_TRUE(same_bytes(out, want)) << reduce_op_name(op);
      comm::world().all_reduce(in_gpu.data(), in_gpu.data(), in.numel(), dtype, op, gpu());  // in place
      EXPECT_TRUE(same_bytes(in_gpu, want)) << reduce_op_name(op) << " in place";
    }
  }
}

TEST(NcclCollectives, AllGatherEqualsTheHostsForEvenAndUnevenChunks) {
  REQUIRE_GPU();
  const int n = comm::world_size();
  // Even and consecutive (NCCL's own layout); uneven, with an empty one and gaps between.
  std::vector<comm::Chunks> layouts = {comm::Chunks::consecutive(std::vector<int64_t>(n, 300)), {{}, {}}};
  for (int i = 0, offset = 5; i < n; ++i) {
    const int64_t count = i == 1 ? 0 : 100 + 17 * i;
    layouts[1].counts.push_back(count);
    layouts[1].offsets.push_back(offset);
    offset += static_cast<int>(count) + 3;
  }
  for (const comm::Chunks& chunks : layouts) {
    int64_t extent = 0;
    for (int i = 0; i < n; ++i) extent = std::max(extent, chunks.offsets[i] + chunks.counts[i]);
    for (DType dtype : kDtypes) {
      const Tensor in = values(chunks.counts[me()], dtype, 1);
      Tensor want = values(extent, dtype, 2);  // what lies between the chunks stays
      const Tensor out = want.copy_to(gpu());
      comm::world().all_gather(in.data(), want.data(), chunks, dtype);
      comm::world().all_gather(in.copy_to(gpu()).data(), out.data(), chunks, dtype, gpu());
      EXPECT_TRUE(same_bytes(out, want));
    }
  }
}

TEST(NcclCollectives, ReduceScatterEqualsTheHostsForEvenAndUnevenChunks) {
  REQUIRE_GPU();
  const int n = comm::world_size();
  std::vector<int64_t> uneven;
  for (int i = 0; i < n; ++i) uneven.push_back(i == 1 ? 0 : 50 + 13 * i);
  for (const std::vector<int64_t>& counts : {std::vector<int64_t>(n, 256), uneven}) {
    int64_t total = 0;
    for (int64_t c : counts) total += c;
    for (DType dtype : kDtypes) {
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
        const Tensor in = values(total, dtype, 3 + static_cast<int>(op));
        Tensor want = Tensor::empty({counts[me()]}, dtype);
        const Tensor out = Tensor::empty({counts[me()]}, dtype, gpu());
        comm::world().reduce_scatter(in.data(), want.data(), counts, dtype, op);
        comm::world().reduce_scatter(in.copy_to(gpu()).data(), out.data(), counts, dtype, op, gpu());
        EXPECT_TRUE(same_bytes(out, want)) << reduce_op_name(op);
      }
    }
  }
}

TEST(NcclCollectives, AllToAllEqualsTheHosts) {
  REQUIRE_GPU();
  const int n = comm::world_size();
  // This rank sends member p 10 + 3 * (me + p) elements, so what p receives from it matches;
  // the pieces lie in reverse order in the send buffer, with gaps in the receive buffer.
  comm::Chunks send{std::vector<int64_t>(n), std::vector<int64_t>(n)}, recv = send;
  int64_t send_total = 0, recv_total = 0;
  for (int p = n - 1; p >= 0; --p) {
    send.counts[p] = 10 + 3 * (me() + p);
    send.offsets[p] = send_total;
    send_total += send.counts[p];
  }
  for (int p = 0; p < n; ++p) {
    recv.counts[p] = 10 + 3 * (p + me());
    recv.offsets[p] = recv_total + 2;
    recv_total += recv.counts[p] + 2;
  }
  for (DType dtype : kDtypes) {
    const Tensor in = values(send_total, dtype, 4);
    Tensor want = values(recv_total, dtype, 5);
    const Tensor out = want.copy_to(gpu());
    comm::world().all_to_all(in.data(), send, want.data(), recv, dtype);
    comm::world().all_to_all(in.copy_to(gpu()).data(), send, out.data(), recv, dtype, gpu());
    EXPECT_TRUE(same_bytes(out, want));
  }
}

TEST(NcclCollectives, BroadcastFromEveryRootEqualsTheHosts) {
  REQUIRE_GPU();
  for (int root = 0; root < comm::world_size(); ++root) {
    for (DType dtype : kDtypes) {
      Tensor want = values(777, dtype, 6);
      const Tensor out = want.copy_to(gpu());
      comm::world().broadcast(want.data(), want.numel(), dtype, root);
      comm::world().broadcast(out.data(), out.numel(), dtype, root, gpu());
      EXPECT_TRUE(same_bytes(out, want)) << "root " << root;
    }
  }
}

TEST(NcclCollectives, CountedAsTheSameCollectivesOnTheHost) {
  REQUIRE_GPU();
  const Tensor in = values(512, DType::kFloat32, 7);
  Tensor out = Tensor::empty({512}, DType::kFloat32);
  const Tensor in_gpu = in.copy_to(gpu()), out_gpu = out.copy_to(gpu());
  const std::vector<int64_t> counts(comm::world_size(), 512 / comm::world_size());
  auto calls = [&](const Tensor& a, const Tensor& b, Memory& memory) {
    const comm::CommStats before = comm::stats();
    comm::world().all_reduce(a.data(), b.data(), 512, DType::kFloat32, ReduceOp::kSum, memory);
    comm::world().reduce_scatter(a.data(), b.data(), counts, DType::kFloat32, ReduceOp::kMax, memory);
    comm::world().broadcast(b.data(), 512, DType::kFloat32, 0, memory);
    comm::CommStats after = comm::stats();
    return std::vector<int64_t>{after.all_reduce - before.all_reduce, after.reduce_scatter - before.reduce_scatter,
                                after.broadcast - before.broadcast, after.bytes_sent - before.bytes_sent};
  };
  EXPECT_EQ(calls(in_gpu, out_gpu, gpu()), calls(in, out, host_memory()));
}

#ifdef MESHFLOW_CUDA
// A collective called off the GPU's workers reads what the compute stream wrote before it
// (as the staged path's copies do), not what was there before: a chain of large copies on
// the compute stream, issued but not finished, makes the input.
TEST(NcclCollectives, ReadsWhatTheComputeStreamWroteBeforeIt) {
  REQUIRE_GPU();
  constexpr int64_t kCount = int64_t{16} << 20;  // 64 MiB of float32 per buffer
  const Tensor in = values(kCount, DType::kFloat32, 8);
  Tensor want = Tensor::empty({kCount}, DType::kFloat32);
  comm::world().all_reduce(in.data(), want.data(), kCount, DType::kFloat32, ReduceOp::kSum);
  std::vector<Tensor> chain{in.copy_to(gpu())};
  for (int i = 0; i < 8; ++i) chain.push_back(Tensor::empty({kCount}, DType::kFloat32, gpu()));
  const Tensor out = Tensor::empty({kCount}, DType::kFloat32, gpu());
  gpu().zero(chain.back().data(), kCount * sizeof(float));
  std::promise<void> issued;
  device::for_placement("cuda").stream(device::StreamKind::kCompute).launch([&] {
    for (size_t i = 1; i < chain.size(); ++i) {
      gpu().copy_within(chain[i].data(), chain[i - 1].data(), kCount * sizeof(float));  // on the worker's stream
    }
    issued.set_value();
  });
  issued.get_future().wait();
  comm::world().all_reduce(chain.back().data(), out.data(), kCount, DType::kFloat32, ReduceOp::kSum, gpu());
  EXPECT_TRUE(same_bytes(out, want));
  device::for_placement("cuda").synchronize();
}
#endif

}  // namespace
}  // namespace mf::test
