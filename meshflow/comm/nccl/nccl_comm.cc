// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/nccl/nccl_comm.h"

#include <cuda_runtime.h>
#include <nccl.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/comm/nccl/selection.h"
#include "meshflow/device/cuda/cuda_device.h"

namespace mf::comm::nccl {
namespace {

namespace cuda = device::cuda;

// "nccl: ncclAllReduce failed: <NCCL's words for the result> (<its last message>)".
std::string failure(const std::string& what, ncclResult_t result, ncclComm_t comm) {
  std::string message = "nccl: " + what + " failed: " + ncclGetErrorString(result);
  const char* last = ncclGetLastError(comm);
  if (last && *last) message += std::string(" (") + last + ")";
  return message;
}

ncclDataType_t nccl_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return ncclFloat32;
    case DType::kFloat64: return ncclFloat64;
    case DType::kInt32: return ncclInt32;
    case DType::kInt64: return ncclInt64;
    case DType::kBFloat16: return ncclBfloat16;  // reduced in bfloat16 by NCCL (staged: widened to float32)
    case DType::kFloat16: return ncclFloat16;
    case DType::kBool: break;  // 0 or 1: max and min are or and and (sums become max: group.cc)
    case DType::kUInt8: break;
    case DType::kInt8: return ncclInt8;
    case DType::kInt16:
      throw std::invalid_argument("nccl: NCCL has no int16 type; cast int16 tensors on GPUs to int32 first");
    case DType::kComplex64:
    case DType::kComplex128:
      throw std::invalid_argument("nccl: NCCL has no complex types; complex tensors are not supported on GPUs");
  }
  return ncclUint8;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return ncclSum;
    case ReduceOp::kMax: return ncclMax;
    case ReduceOp::kMin: break;
  }
  return ncclMin;
}

size_t bytes(int64_t count, DType dtype) { return static_cast<size_t>(count) * dtype_size(dtype); }

// Whether member i's chunk is chunks.counts[0] elements at i * that: ncclAllGather's layout.
bool gather_layout(const Chunks& chunks) {
  for (size_t i = 0; i < chunks.counts.size(); ++i) {
    if (chunks.counts[i] != chunks.counts[0] || chunks.offsets[i] != static_cast<int64_t>(i) * chunks.counts[0]) {
      return false;
    }
  }
  return true;
}

// Runs `calls` (NCCL calls; gives the first failure, issuing none after it) between
// ncclGroupStart and ncclGroupEnd, so that they make one launch. The group is ended whatever
// failed inside it: the thread must not stay inside one.
template <typename Calls>
ncclResult_t grouped(Calls calls) {
  const ncclResult_t start = ncclGroupStart();
  if (start != ncclSuccess) return start;
  const ncclResult_t inside = calls();
  const ncclResult_t end = ncclGroupEnd();
  return inside != ncclSuccess ? inside : end;
}

// Polls a collective's stream hot for this many tests (most complete fast), then sleeps
// between tests, longer each time up to kMaxPauseNs, as the MPI backend waits: a blocking
// wait would hold a core the compute stream's worker needs.
constexpr int kHotPolls = 200;
constexpr long kMaxPauseNs = 50'000;

// One NCCL communicator of a group on this rank's GPU, with its own stream. Comm thread only.
class NcclComm final : public DeviceComm {
 public:
  NcclComm(ncclComm_t comm, cudaStream_t stream, const Memory& memory, int rank, int size,
           std::vector<int> world_ranks)
      : comm_(comm), stream_(stream), memory_(memory), rank_(rank), size_(size), world_ranks_(std::move(world_ranks)) {}

  // At exit (comm.cc's finalize, once every rank is exiting, groups in one order on every
  // rank): nothing is in flight, every collective having been waited for. Destroying may wait
  // for the other members; the watch ends the job rather than let it hang.
  ~NcclComm() override {
    cudaSetDevice(memory_.device_index());
    if (comm_) {
      CollectiveWatch watch("ncclCommDestroy", world_ranks_);
      ncclCommDestroy(comm_);
    }
    cudaStreamDestroy(stream_);
  }

  const char* name() const override { return "nccl"; }

  void all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) override {
    if (count == 0) return;  // the same count on every member
    run("ncclAllReduce", [&] {
      return ncclAllReduce(send, recv, static_cast<size_t>(count), nccl_type(dtype), nccl_op(op), comm_, stream_);
    });
  }

  // Moves bytes: any dtype.
  void all_gather(const void* send, void* recv, const Chunks& chunks, DType dtype) override {
    char* out = static_cast<char*>(recv);
    if (gather_layout(chunks)) {
      if (chunks.counts[0] == 0) return;
      return run("ncclAllGather", [&] {
        return ncclAllGather(send, out, bytes(chunks.counts[0], dtype), ncclUint8, comm_, stream_);
      });
    }
    // Uneven or scattered chunks: each member broadcasts its chunk into its place, in one launch.
    run("all_gather (ncclBroadcast from each member)", [&] {
      return grouped([&] {
        ncclResult_t r = ncclSuccess;
        for (int i = 0; i < size_ && r == ncclSuccess; ++i) {
          if (chunks.counts[i] == 0) continue;
          char* chunk = out + bytes(chunks.offsets[i], dtype);
          r = ncclBroadcast(i == rank_ ? send : chunk, chunk, bytes(chunks.counts[i], dtype), ncclUint8, i, comm_,
                            stream_);
        }
        return r;
      });
    });
  }

  void reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                      ReduceOp op) override {
    if (std::all_of(counts.begin(), counts.end(), [&](int64_t c) { return c == counts[0]; })) {
      if (counts[0] == 0) return;
      return run("ncclReduceScatter", [&] {
        return ncclReduceScatter(send, recv, static_cast<size_t>(counts[0]), nccl_type(dtype), nccl_op(op), comm_,
                                 stream_);
      });
    }
    // Uneven chunks: chunk i reduced to member i, for every i, in one launch (recv is read
    // only where this member is the root).
    const char* in = static_cast<const char*>(send);
    run("reduce_scatter (ncclReduce to each member)", [&] {
      return grouped([&] {
        ncclResult_t r = ncclSuccess;
        int64_t offset = 0;
        for (int i = 0; i < size_ && r == ncclSuccess; offset += counts[i], ++i) {
          if (counts[i] == 0) continue;
          r = ncclReduce(in + bytes(offset, dtype), recv, static_cast<size_t>(counts[i]), nccl_type(dtype), nccl_op(op),
                         i, comm_, stream_);
        }
        return r;
      });
    });
  }

  // Moves bytes: any dtype. A chunk's count is the same at its two ends (group.h), so both
  // skip the empty ones alike.
  void all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                  DType dtype) override {
    const char* in = static_cast<const char*>(send);
    char* out = static_cast<char*>(recv);
    run("all_to_all (ncclSend/ncclRecv)", [&] {
      return grouped([&] {
        ncclResult_t r = ncclSuccess;
        for (int p = 0; p < size_ && r == ncclSuccess; ++p) {
          if (recv_chunks.counts[p] > 0) {
            r = ncclRecv(out + bytes(recv_chunks.offsets[p], dtype), bytes(recv_chunks.counts[p], dtype), ncclUint8, p,
                         comm_, stream_);
          }
          if (r == ncclSuccess && send_chunks.counts[p] > 0) {
            r = ncclSend(in + bytes(send_chunks.offsets[p], dtype), bytes(send_chunks.counts[p], dtype), ncclUint8, p,
                         comm_, stream_);
          }
        }
        return r;
      });
    });
  }

  void broadcast(void* data, int64_t count, DType dtype, int root) override {
    if (count == 0) return;
    run("ncclBroadcast",
        [&] { return ncclBroadcast(data, data, bytes(count, dtype), ncclUint8, root, comm_, stream_); });
  }

 private:
  // Issues `call` (NCCL calls, giving NCCL's result) on the stream, after the work that made
  // its inputs, and waits for it.
  template <typename Call>
  void run(const char* what, Call call) {
    if (!comm_) {
      throw std::runtime_error(std::string("nccl: ") + what + ": this group's communicator failed earlier (" +
                               failed_ + "); MESHFLOW_NCCL=0 stages GPU collectives through the host instead");
    }
    cuda::order_as_copies(memory_, stream_);
    const ncclResult_t result = call();
    if (result != ncclSuccess) throw std::runtime_error(failure(what, result, comm_));
    wait(what);
  }

  // Until the stream has run the collective. A failure NCCL reports meanwhile (a peer's
  // network error) aborts the communicator, as NCCL asks: its kernels would otherwise hold
  // the GPU. A peer that never comes is the watchdog's (comm.h).
  void wait(const char* what) {
    long pause_ns = 1'000;
    for (int polls = 0; !cuda::stream_done(stream_, what); ++polls) {
      ncclResult_t async = ncclSuccess;
      const ncclResult_t asked = ncclCommGetAsyncError(comm_, &async);
      const ncclResult_t error = asked != ncclSuccess ? asked : async;
      if (error != ncclSuccess && error != ncclInProgress) {
        failed_ = failure(std::string(what) + " (while waiting)", error, comm_);
        ncclCommAbort(comm_);
        comm_ = nullptr;
        throw std::runtime_error(failed_);
      }
      if (polls < kHotPolls) continue;
      timespec pause{0, pause_ns};
      nanosleep(&pause, nullptr);
      pause_ns = std::min(pause_ns * 2, kMaxPauseNs);
    }
  }

  ncclComm_t comm_;  // null once aborted
  const cudaStream_t stream_;
  const Memory& memory_;
  const int rank_;
  const int size_;
  const std::vector<int> world_ranks_;
  std::string failed_;  // why comm_ was aborted
};

}  // namespace

std::unique_ptr<DeviceComm> create(Group& group, const Memory& memory) {
  if (!cuda::is_cuda(memory)) return nullptr;
  const int index = memory.device_index();
  Vote mine{};
  mine.able = allowed_by(std::getenv("MESHFLOW_NCCL"));
  cudaDeviceProp props;
  if (cudaGetDeviceProperties(&props, index) == cudaSuccess) {
    static_assert(sizeof(props.uuid.bytes) == sizeof(mine.gpu), "a GPU's UUID is 16 bytes");
    std::memcpy(mine.gpu, props.uuid.bytes, sizeof(mine.gpu));
  } else {
    cudaGetLastError();  // not an error of anything later
    mine.able = 0;
  }
  std::vector<Vote> votes(group.size());
  group.gather_metadata(&mine, votes.data(), sizeof(Vote));
  if (!choose(votes).nccl) return nullptr;

  // The group's first member makes the id; it reaches the others over the group's MPI
  // communicator. Every member sees whether that failed, so all raise alike.
  struct Root {
    ncclUniqueId id;
    int32_t result;
    int32_t unused;
  };
  Root root{};
  if (group.rank() == 0) root.result = ncclGetUniqueId(&root.id);
  std::vector<Root> roots(group.size());
  group.gather_metadata(&root, roots.data(), sizeof(Root));
  if (roots[0].result != ncclSuccess) {
    throw std::runtime_error("nccl: ncclGetUniqueId failed on rank " + std::to_string(group.world_ranks()[0]) + ": " +
                             ncclGetErrorString(static_cast<ncclResult_t>(roots[0].result)) +
                             "; MESHFLOW_NCCL=0 stages GPU collectives through the host instead");
  }
  cuda::check(cudaSetDevice(index), "cudaSetDevice");
  cudaStream_t stream = nullptr;
  cuda::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  ncclComm_t comm = nullptr;
  ncclResult_t made;
  {
    CollectiveWatch watch("ncclCommInitRank", group.world_ranks());
    made = ncclCommInitRank(&comm, group.size(), roots[0].id, group.rank());
  }
  if (made != ncclSuccess) {
    cudaStreamDestroy(stream);
    throw std::runtime_error(failure("ncclCommInitRank", made, nullptr));
  }
  finalize_first_at_exit();  // NCCL's CUDA runtime started just now; its exit handlers run after
  return std::make_unique<NcclComm>(comm, stream, memory, group.rank(), group.size(), group.world_ranks());
}

}  // namespace mf::comm::nccl
