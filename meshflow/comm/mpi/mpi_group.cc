// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/mpi/mpi_group.h"

#include <time.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace mf::comm {
namespace {

MPI_Datatype mpi_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return MPI_FLOAT;
    case DType::kFloat64: return MPI_DOUBLE;
    case DType::kInt32: return MPI_INT32_T;
    case DType::kInt64: break;
    case DType::kBFloat16: return MPI_UINT16_T;  // moved as bits; reductions are widened first (group.cc)
  }
  return MPI_INT64_T;
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return MPI_SUM;
    case ReduceOp::kMax: return MPI_MAX;
    case ReduceOp::kMin: break;
  }
  return MPI_MIN;
}

// MPI counts are int; larger messages would need derived datatypes, not supported yet.
int to_int(int64_t count) {
  if (count < 0 || count > INT_MAX) {
    throw std::length_error("mpi: message of " + std::to_string(count) +
                            " elements exceeds MPI's int count limit; split the tensor further");
  }
  return static_cast<int>(count);
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw std::runtime_error(std::string("mpi: ") + what + " failed: " + std::string(msg, len));
  }
}

// Waits for `requests` the way a thread that shares its cores should: MPI_Testall in a
// loop, hot for a short while (most collectives complete fast), then sleeping between
// tests with a growing pause (up to 50 us). A blocking MPI call would poll the whole time,
// taking a core from the compute stream's kernels while it waits on a slow peer or link.
void wait_politely(std::vector<MPI_Request>& requests, const char* what) {
  constexpr int kHotTests = 200;
  constexpr long kMaxPauseNs = 50'000;
  long pause_ns = 1'000;
  for (int tests = 0;; ++tests) {
    int done = 0;
    check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), what);
    if (done) return;
    if (tests < kHotTests) continue;
    timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    pause_ns = std::min(pause_ns * 2, kMaxPauseNs);
  }
}

void wait_politely(MPI_Request request, const char* what) {
  std::vector<MPI_Request> one{request};
  wait_politely(one, what);
}

std::vector<int> ints(const std::vector<int64_t>& values) {
  std::vector<int> r;
  for (int64_t v : values) r.push_back(to_int(v));
  return r;
}

}  // namespace

MpiGroup::MpiGroup(MPI_Comm comm, std::vector<int> world_ranks) : comm_(comm), world_ranks_(std::move(world_ranks)) {
  MPI_Comm_rank(comm_, &rank_);
}

MpiGroup::~MpiGroup() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_WORLD && !finalized) MPI_Comm_free(&comm_);
}

std::unique_ptr<MpiGroup> MpiGroup::create(const std::vector<int>& world_ranks) {
  MPI_Group world_group, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, static_cast<int>(world_ranks.size()), world_ranks.data(), &group);
  MPI_Comm comm;
  check(MPI_Comm_create_group(MPI_COMM_WORLD, group, /*tag=*/7, &comm), "MPI_Comm_create_group");
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  return std::make_unique<MpiGroup>(comm, world_ranks);
}

void MpiGroup::do_all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) {
  MPI_Request r;
  check(MPI_Iallreduce(send == recv ? MPI_IN_PLACE : send, recv, to_int(count), mpi_type(dtype), mpi_op(op), comm_,
                       &r),
        "MPI_Iallreduce");
  wait_politely(r, "MPI_Iallreduce");
}

void MpiGroup::do_all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype) {
  std::vector<int> c = ints(recv_chunks.counts), d = ints(recv_chunks.offsets);
  MPI_Request r;
  check(MPI_Iallgatherv(send, c[rank_], mpi_type(dtype), recv, c.data(), d.data(), mpi_type(dtype), comm_, &r),
        "MPI_Iallgatherv");
  wait_politely(r, "MPI_Iallgatherv");
}

void MpiGroup::do_reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                                 ReduceOp op) {
  std::vector<int> c = ints(counts);
  MPI_Request r;
  check(MPI_Ireduce_scatter(send, recv, c.data(), mpi_type(dtype), mpi_op(op), comm_, &r), "MPI_Ireduce_scatter");
  wait_politely(r, "MPI_Ireduce_scatter");
}

void MpiGroup::do_all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                             DType dtype) {
  std::vector<int> sc = ints(send_chunks.counts), sd = ints(send_chunks.offsets);
  std::vector<int> rc = ints(recv_chunks.counts), rd = ints(recv_chunks.offsets);
  MPI_Request r;
  check(MPI_Ialltoallv(send, sc.data(), sd.data(), mpi_type(dtype), recv, rc.data(), rd.data(), mpi_type(dtype),
                       comm_, &r),
        "MPI_Ialltoallv");
  wait_politely(r, "MPI_Ialltoallv");
}

void MpiGroup::do_broadcast(void* data, int64_t count, DType dtype, int root) {
  MPI_Request r;
  check(MPI_Ibcast(data, to_int(count), mpi_type(dtype), root, comm_, &r), "MPI_Ibcast");
  wait_politely(r, "MPI_Ibcast");
}

void MpiGroup::do_exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype,
                           int lane) {
  const int kTag = 11 + lane;
  std::vector<MPI_Request> requests(sends.size() + recvs.size());
  size_t i = 0;
  for (const Message& m : recvs) {
    check(MPI_Irecv(m.data, to_int(m.count), mpi_type(dtype), m.peer, kTag, comm_, &requests[i++]), "MPI_Irecv");
  }
  for (const Message& m : sends) {
    check(MPI_Isend(m.data, to_int(m.count), mpi_type(dtype), m.peer, kTag, comm_, &requests[i++]), "MPI_Isend");
  }
  wait_politely(requests, "MPI_Isend/MPI_Irecv");
}

void MpiGroup::do_gather_bytes(const void* send, void* recv, int64_t bytes) {
  MPI_Request r;
  check(MPI_Iallgather(send, to_int(bytes), MPI_BYTE, recv, to_int(bytes), MPI_BYTE, comm_, &r), "MPI_Iallgather");
  wait_politely(r, "MPI_Iallgather");
}

}  // namespace mf::comm
