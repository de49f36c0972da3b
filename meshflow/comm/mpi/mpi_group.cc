// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/mpi/mpi_group.h"

#include "meshflow/comm/mpi/cross_memory.h"

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

std::unique_ptr<MpiGroup> MpiGroup::create(const MpiGroup& world, const std::vector<int>& world_ranks) {
  MPI_Group world_group, group;
  MPI_Comm_group(world.comm_, &world_group);
  MPI_Group_incl(world_group, static_cast<int>(world_ranks.size()), world_ranks.data(), &group);
  MPI_Comm comm;
  check(MPI_Comm_create_group(world.comm_, group, /*tag=*/7, &comm), "MPI_Comm_create_group");
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

// Each piece is copied by one side: the one holding it in more runs, so that the other
// side's runs, whose addresses travel, are the few (cross_memory.h). Three small collectives
// carry the run counts, the addresses and, at the end, every rank's verdict, which also
// tells each rank that its pieces have arrived and that its own may be reused.
bool MpiGroup::do_all_to_all_direct(const std::vector<Runs>& send, const std::vector<Runs>& recv) {
  if (!cross_memory_) cross_memory_ = cross_memory::usable(comm_, &pids_);
  if (!*cross_memory_) return false;
  const int n = size();
  std::vector<int64_t> mine(2 * n), theirs(2 * n);  // per member: runs it sends me, runs it receives from me
  for (int p = 0; p < n; ++p) {
    mine[2 * p] = static_cast<int64_t>(send[p].size());
    mine[2 * p + 1] = static_cast<int64_t>(recv[p].size());
  }
  check(MPI_Alltoall(mine.data(), 2, MPI_INT64_T, theirs.data(), 2, MPI_INT64_T, comm_), "MPI_Alltoall");
  // Whether the sender copies the piece from member `from` to member `to` (else the receiver).
  auto sender_copies = [&](int from, int to) {
    return from == rank_ ? mine[2 * to] >= theirs[2 * to + 1] : theirs[2 * from] >= mine[2 * from + 1];
  };
  // To member p: my runs for p -> me when p copies them, then my runs for me -> p when p
  // copies those; as (address, bytes) pairs.
  std::vector<uint64_t> out_runs, in_runs;
  std::vector<int> out_counts(n), out_offsets(n), in_counts(n), in_offsets(n);
  for (int p = 0; p < n; ++p) {
    out_offsets[p] = static_cast<int>(out_runs.size());
    auto publish = [&](const Runs& runs) {
      for (const Run& r : runs) {
        out_runs.push_back(reinterpret_cast<uint64_t>(r.data));
        out_runs.push_back(static_cast<uint64_t>(r.bytes));
      }
    };
    if (p != rank_ && sender_copies(p, rank_)) publish(recv[p]);
    if (p != rank_ && !sender_copies(rank_, p)) publish(send[p]);
    out_counts[p] = static_cast<int>(out_runs.size()) - out_offsets[p];
    in_offsets[p] = p == 0 ? 0 : in_offsets[p - 1] + in_counts[p - 1];
    in_counts[p] = p == rank_ ? 0
                              : 2 * static_cast<int>((sender_copies(rank_, p) ? theirs[2 * p + 1] : 0) +
                                                     (sender_copies(p, rank_) ? 0 : theirs[2 * p]));
  }
  in_runs.resize(static_cast<size_t>(in_offsets[n - 1] + in_counts[n - 1]));
  check(MPI_Alltoallv(out_runs.data(), out_counts.data(), out_offsets.data(), MPI_UINT64_T, in_runs.data(),
                      in_counts.data(), in_offsets.data(), MPI_UINT64_T, comm_),
        "MPI_Alltoallv");
  std::string error;
  try {
    for (int p = 0; p < n; ++p) {
      if (p == rank_) continue;
      const uint64_t* at = in_runs.data() + in_offsets[p];
      auto take = [&](int64_t count) {
        Runs runs;
        for (int64_t i = 0; i < count; ++i, at += 2) {
          runs.push_back({reinterpret_cast<void*>(at[0]), static_cast<int64_t>(at[1])});
        }
        return runs;
      };
      if (sender_copies(rank_, p)) cross_memory::copy(pids_[p], send[p], take(theirs[2 * p + 1]), /*write=*/true);
      if (!sender_copies(p, rank_)) cross_memory::copy(pids_[p], recv[p], take(theirs[2 * p]), /*write=*/false);
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  int ok = error.empty(), all_ok = 0;
  MPI_Request r;
  check(MPI_Iallreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_, &r), "MPI_Iallreduce");
  wait_politely(r, "MPI_Iallreduce");
  if (!all_ok) {
    throw std::runtime_error("all_to_all: a direct copy between ranks failed" +
                             (error.empty() ? std::string(" on another rank") : ": " + error));
  }
  return true;
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
