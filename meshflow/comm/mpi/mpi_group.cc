// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/mpi/mpi_group.h"

#include "meshflow/comm/mpi/cross_memory.h"
#include "meshflow/comm/mpi/mpi_check.h"
#include "meshflow/core/allocator.h"

#include <time.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace mf::comm {
namespace {

MPI_Datatype mpi_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return MPI_FLOAT;
    case DType::kFloat64: return MPI_DOUBLE;
    case DType::kInt32: return MPI_INT32_T;
    case DType::kInt64: break;
    case DType::kBFloat16: return MPI_UINT16_T;  // moved as bits; reductions are widened first (group.cc)
    case DType::kFloat16: return MPI_UINT16_T;  // as bfloat16
    case DType::kBool: return MPI_UINT8_T;  // 0 or 1: max and min are or and and (sums become max: group.cc)
    case DType::kUInt8: return MPI_UINT8_T;
    case DType::kInt8: return MPI_INT8_T;
    case DType::kInt16: return MPI_INT16_T;
    case DType::kComplex64: return MPI_C_FLOAT_COMPLEX;  // sums only: no op of complex passes P(max) or P(min)
    case DType::kComplex128: return MPI_C_DOUBLE_COMPLEX;
  }
  return MPI_INT64_T;
}

// Small integers' sums wrap, as combine()'s do. Open MPI's MPI_SUM does not always: its
// vectorized op (the op/avx component) saturates uint8 sums of 16 elements or more.
void wrapping_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  const DType dtype = *type == MPI_UINT8_T ? DType::kUInt8 : *type == MPI_INT8_T ? DType::kInt8 : DType::kInt16;
  visit_numbers(dtype, [&](auto v) {
    using T = decltype(v);
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (int i = 0; i < *len; ++i) b[i] = wrapping(a[i], b[i], std::plus<>());
  });
}

MPI_Op mpi_op(ReduceOp op, DType dtype) {
  if (op == ReduceOp::kSum && is_small_int(dtype)) {
    static const MPI_Op sum = [] {
      MPI_Op created;
      check_mpi(MPI_Op_create(&wrapping_sum, /*commute=*/1, &created), "MPI_Op_create");
      return created;
    }();
    return sum;
  }
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

// The longest pause between two tests of a collective's completion: 50 us, or
// MESHFLOW_COMM_POLL_US. Shared memory moves bytes only while a rank's thread is in MPI,
// so tests must come often; where a progress thread moves them (OpenMPI's TCP transport
// with btl_tcp_progress_thread, as meshflow.launch --net-rate sets it), tests only notice
// that a step of the collective has finished, and rarer ones leave more of the cores to
// compute (each wake costs several microseconds).
long max_pause_ns() {
  static const long ns = [] {
    const char* v = std::getenv("MESHFLOW_COMM_POLL_US");
    const long us = v && *v ? std::atol(v) : 50;
    if (us < 1 || us > 100'000) {
      throw std::invalid_argument("MESHFLOW_COMM_POLL_US=" + std::string(v) + ": expected 1 to 100000 microseconds");
    }
    return us * 1'000;
  }();
  return ns;
}

// Tests `done` until it holds the way a thread that shares its cores should: in a loop, hot
// for a short while (most collectives complete fast), then sleeping between tests with a
// growing pause (up to max_pause_ns). A blocking MPI call would poll the whole time, taking a
// core from the compute stream's kernels while it waits on a slow peer or link.
template <typename Done>
void poll_politely(const Done& done) {
  constexpr int kHotTests = 200;
  const long max_pause = max_pause_ns();
  long pause_ns = 1'000;
  for (int tests = 0; !done(); ++tests) {
    if (tests < kHotTests) continue;
    timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    pause_ns = std::min(pause_ns * 2, max_pause);
  }
}

void wait_politely(std::vector<MPI_Request>& requests, const char* what) {
  poll_politely([&] {
    int done = 0;
    check_mpi(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), what);
    return done != 0;
  });
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
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_dup(comm_, &agree_comm_), "MPI_Comm_dup");  // inherits the error handler
}

MpiGroup::~MpiGroup() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  MPI_Comm_free(&agree_comm_);
  if (comm_ != MPI_COMM_WORLD) MPI_Comm_free(&comm_);
}

std::unique_ptr<MpiGroup> MpiGroup::create(const MpiGroup& world, const std::vector<int>& world_ranks) {
  MPI_Group world_group, group;
  check_mpi(MPI_Comm_group(world.comm_, &world_group), "MPI_Comm_group");
  check_mpi(MPI_Group_incl(world_group, static_cast<int>(world_ranks.size()), world_ranks.data(), &group),
            "MPI_Group_incl");
  MPI_Comm comm;
  check_mpi(MPI_Comm_create_group(world.comm_, group, /*tag=*/7, &comm), "MPI_Comm_create_group");
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  return std::make_unique<MpiGroup>(comm, world_ranks);
}

void MpiGroup::do_all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) {
  MPI_Request r;
  check_mpi(MPI_Iallreduce(send == recv ? MPI_IN_PLACE : send, recv, to_int(count), mpi_type(dtype),
                           mpi_op(op, dtype), comm_, &r),
            "MPI_Iallreduce");
  wait_politely(r, "MPI_Iallreduce");
}

void MpiGroup::do_all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype) {
  std::vector<int> c = ints(recv_chunks.counts), d = ints(recv_chunks.offsets);
  MPI_Request r;
  check_mpi(MPI_Iallgatherv(send, c[rank_], mpi_type(dtype), recv, c.data(), d.data(), mpi_type(dtype), comm_, &r),
        "MPI_Iallgatherv");
  wait_politely(r, "MPI_Iallgatherv");
}

namespace {

// out = parts[0] op parts[1] op ... in that order: count elements of dtype each. Integer
// sums wrap (as MPI_SUM's do); max and min are MPI_MAX's and MPI_MIN's (and the all-reduce's).
void combine(const std::vector<const void*>& parts, void* out, int64_t count, DType dtype, ReduceOp op) {
  if (is_complex(dtype)) {  // sums only (no op passes complex P(max) or P(min)): part by part
    if (op != ReduceOp::kSum) throw std::invalid_argument("mpi: complex values have no max or min");
    combine(parts, out, 2 * count, real_of(dtype), op);
    return;
  }
  visit_with_bool(dtype, [&](auto v) {
    using T = decltype(v);
    T* o = static_cast<T*>(out);
    auto apply = [&](const T* a, const T* b) {
      switch (op) {
        case ReduceOp::kSum:
          for (int64_t i = 0; i < count; ++i) o[i] = wrapping(a[i], b[i], std::plus<>());
          break;
        case ReduceOp::kMax:
          for (int64_t i = 0; i < count; ++i) o[i] = a[i] > b[i] ? a[i] : b[i];
          break;
        case ReduceOp::kMin:
          for (int64_t i = 0; i < count; ++i) o[i] = a[i] < b[i] ? a[i] : b[i];
          break;
      }
    };
    if (parts.size() == 1) {
      std::copy_n(static_cast<const T*>(parts[0]), count, o);
      return;
    }
    apply(static_cast<const T*>(parts[0]), static_cast<const T*>(parts[1]));
    for (size_t k = 2; k < parts.size(); ++k) apply(o, static_cast<const T*>(parts[k]));
  });
}

}  // namespace

// One exchange: each member sends every other its chunk, then combines the chunks it got
// with its own in member order (the same on every member, whatever arrives first). Open
// MPI's MPI_Ireduce_scatter (libnbc) took 2.5x the blocking MPI_Reduce_scatter here, and a
// blocking call would hold the core that the compute worker needs.
void MpiGroup::do_reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                                 ReduceOp op) {
  constexpr int kTag = 3;  // apart from exchange's lanes (11 + lane)
  const int n = size();
  const size_t elem = dtype_size(dtype);
  const std::vector<int> c = ints(counts);  // every count checked before any request is posted
  const int64_t mine = counts[rank_];
  const char* in = static_cast<const char*>(send);
  std::vector<int64_t> offsets(n, 0);
  for (int p = 1; p < n; ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
  const std::shared_ptr<void> scratch = allocate_host(static_cast<size_t>(mine) * elem * static_cast<size_t>(n - 1));
  char* next = static_cast<char*>(scratch.get());
  std::vector<const void*> parts(n);  // each member's chunk for this one
  std::vector<MPI_Request> requests;
  requests.reserve(2 * static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    if (p == rank_) {
      parts[p] = in + offsets[p] * elem;
      continue;
    }
    parts[p] = next;
    requests.emplace_back();
    check_mpi(MPI_Irecv(next, c[rank_], mpi_type(dtype), p, kTag, comm_, &requests.back()), "MPI_Irecv");
    next += mine * elem;
  }
  for (int p = 0; p < n; ++p) {
    if (p == rank_) continue;
    requests.emplace_back();
    check_mpi(MPI_Isend(in + offsets[p] * elem, c[p], mpi_type(dtype), p, kTag, comm_, &requests.back()), "MPI_Isend");
  }
  wait_politely(requests, "reduce_scatter (MPI_Isend/MPI_Irecv)");
  combine(parts, recv, mine, dtype, op);
}

void MpiGroup::do_all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                             DType dtype) {
  std::vector<int> sc = ints(send_chunks.counts), sd = ints(send_chunks.offsets);
  std::vector<int> rc = ints(recv_chunks.counts), rd = ints(recv_chunks.offsets);
  MPI_Request r;
  check_mpi(MPI_Ialltoallv(send, sc.data(), sd.data(), mpi_type(dtype), recv, rc.data(), rd.data(), mpi_type(dtype),
                       comm_, &r),
        "MPI_Ialltoallv");
  wait_politely(r, "MPI_Ialltoallv");
}

namespace {

// Where the runs of `recv` lie: the shared block holding all of them (peers then write in
// through a mapping), kNothing when there are none, else fd -1.
constexpr int64_t kNothing = -2;
cross_memory::PeerBlock receiving_block(const std::vector<Runs>& recv) {
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (const Runs& runs : recv) {
    for (const Run& r : runs) {
      lo = std::min(lo, reinterpret_cast<uintptr_t>(r.data));
      hi = std::max(hi, reinterpret_cast<uintptr_t>(r.data) + static_cast<uintptr_t>(r.bytes));
    }
  }
  if (hi == 0) return {kNothing, 0, 0, 0};
  const std::optional<SharedBlock> b = shared_block_of(reinterpret_cast<const void*>(lo), hi - lo);
  if (!b) return {};
  return {b->fd, b->serial, reinterpret_cast<uint64_t>(b->base), b->bytes};
}

}  // namespace

// Each piece is copied by one side. Where every receiver's tensor lies in a shared block
// and the members may map each other's, the sender copies each piece, its own among them,
// into the receiver's mapped tensor with plain stores, in one pass over its tensor
// (cross_memory::copy_interleaved: strided pieces at the speed of contiguous ones). Otherwise, by
// cross-memory attach, the side holding the piece in more runs copies it, so that the
// other side's runs, whose addresses travel, are the few (cross_memory.h). Three small
// collectives carry the run counts and blocks, the addresses and, at the end, every rank's
// verdict, which also tells each rank that its pieces have arrived and that its own may
// be reused.
MpiGroup::Direct MpiGroup::do_all_to_all_direct(const std::vector<Runs>& send, const std::vector<Runs>& recv) {
  if (!access_) access_ = cross_memory::probe(comm_, &pids_);
  if (!access_->attach && !access_->map) return Direct::kNo;
  const int n = size();
  // Per member: runs I send it, runs I receive from it, then the block my runs lie in (the
  // same to all).
  constexpr int kFields = 6;
  const cross_memory::PeerBlock my_block = receiving_block(recv);
  std::vector<int64_t> mine(kFields * n), theirs(kFields * n);
  for (int p = 0; p < n; ++p) {
    int64_t* at = &mine[kFields * p];
    at[0] = static_cast<int64_t>(send[p].size());
    at[1] = static_cast<int64_t>(recv[p].size());
    at[2] = my_block.fd;
    at[3] = static_cast<int64_t>(my_block.serial);
    at[4] = static_cast<int64_t>(my_block.base);
    at[5] = static_cast<int64_t>(my_block.bytes);
  }
  MPI_Request r;
  check_mpi(MPI_Ialltoall(mine.data(), kFields, MPI_INT64_T, theirs.data(), kFields, MPI_INT64_T, comm_, &r),
        "MPI_Ialltoall");
  wait_politely(r, "MPI_Ialltoall");
  auto block_of = [&](int p) {
    const int64_t* at = &theirs[kFields * p];
    return cross_memory::PeerBlock{at[2], static_cast<uint64_t>(at[3]), static_cast<uint64_t>(at[4]),
                                   static_cast<uint64_t>(at[5])};
  };
  bool push = access_->map;
  for (int p = 0; p < n; ++p) push = push && (p == rank_ ? my_block : block_of(p)).fd != -1;
  if (!push && !access_->attach) return Direct::kNo;  // every member decides alike
  auto sends = [&](int p) { return theirs[kFields * p]; };     // runs p sends me
  auto receives = [&](int p) { return theirs[kFields * p + 1]; };  // runs p receives from me
  // Whether the sender copies the piece from member `from` to member `to` (else the receiver).
  auto sender_copies = [&](int from, int to) {
    if (push) return true;
    return from == rank_ ? mine[kFields * to] >= receives(to) : sends(from) >= mine[kFields * from + 1];
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
                              : 2 * static_cast<int>((sender_copies(rank_, p) ? receives(p) : 0) +
                                                     (sender_copies(p, rank_) ? 0 : sends(p)));
  }
  in_runs.resize(static_cast<size_t>(in_offsets[n - 1] + in_counts[n - 1]));
  check_mpi(MPI_Ialltoallv(out_runs.data(), out_counts.data(), out_offsets.data(), MPI_UINT64_T, in_runs.data(),
                       in_counts.data(), in_offsets.data(), MPI_UINT64_T, comm_, &r),
        "MPI_Ialltoallv");
  wait_politely(r, "MPI_Ialltoallv");
  std::string error;
  try {
    std::vector<cross_memory::Piece> here{{&send[rank_], recv[rank_]}};  // copied in this address space
    std::vector<std::shared_ptr<char>> mapped;                            // alive while copying
    for (int p = 0; p < n; ++p) {
      if (p == rank_) continue;
      const uint64_t* at = in_runs.data() + in_offsets[p];
      // p's runs, as addresses in p (`mapping` null) or in `mapping` of p's `block`.
      auto take = [&](int64_t count, const char* mapping, const cross_memory::PeerBlock& block) {
        Runs runs;
        for (int64_t i = 0; i < count; ++i, at += 2) {
          uint64_t address = at[0];
          if (mapping) {
            if (address < block.base || address + at[1] > block.base + block.bytes) {
              throw std::runtime_error("rank " + std::to_string(p) + " published a run outside its shared block");
            }
            address = reinterpret_cast<uint64_t>(mapping) + (address - block.base);
          }
          runs.push_back({reinterpret_cast<void*>(address), static_cast<int64_t>(at[1])});
        }
        return runs;
      };
      if (push) {
        // Mapped only where p receives from this rank (block.fd >= 0 then).
        const cross_memory::PeerBlock block = block_of(p);
        if (receives(p) > 0) mapped.push_back(cross_memory::map(pids_[p], block));
        here.push_back({&send[p], take(receives(p), receives(p) > 0 ? mapped.back().get() : nullptr, block)});
        continue;
      }
      if (sender_copies(rank_, p)) cross_memory::copy(pids_[p], send[p], take(receives(p), nullptr, {}), true);
      if (!sender_copies(p, rank_)) cross_memory::copy(pids_[p], recv[p], take(sends(p), nullptr, {}), false);
    }
    cross_memory::copy_interleaved(here);
  } catch (const std::exception& e) {
    error = e.what();
  }
  int ok = error.empty(), all_ok = 0;
  check_mpi(MPI_Iallreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_, &r), "MPI_Iallreduce");
  wait_politely(r, "MPI_Iallreduce");
  if (!all_ok) {
    throw std::runtime_error("all_to_all: a direct copy between ranks failed" +
                             (error.empty() ? std::string(" on another rank") : ": " + error));
  }
  return push ? Direct::kMapped : Direct::kAttached;
}

void MpiGroup::do_broadcast(void* data, int64_t count, DType dtype, int root) {
  MPI_Request r;
  check_mpi(MPI_Ibcast(data, to_int(count), mpi_type(dtype), root, comm_, &r), "MPI_Ibcast");
  wait_politely(r, "MPI_Ibcast");
}

void MpiGroup::do_exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype,
                           int lane) {
  const int kTag = 11 + lane;
  std::vector<MPI_Request> requests(sends.size() + recvs.size());
  size_t i = 0;
  for (const Message& m : recvs) {
    check_mpi(MPI_Irecv(m.data, to_int(m.count), mpi_type(dtype), m.peer, kTag, comm_, &requests[i++]), "MPI_Irecv");
  }
  for (const Message& m : sends) {
    check_mpi(MPI_Isend(m.data, to_int(m.count), mpi_type(dtype), m.peer, kTag, comm_, &requests[i++]), "MPI_Isend");
  }
  wait_politely(requests, "MPI_Isend/MPI_Irecv");
}

namespace {
// Apart from all_to_all's 3, group creation's 7 and exchange's lanes (11 + lane).
constexpr int kNoticeTag = 9;
}  // namespace

void MpiGroup::notify(int peer) {
  static const int kNotice = 1;  // static: the send completes on its own, after this returns
  MPI_Request r;
  check_mpi(MPI_Isend(&kNotice, 1, MPI_INT, peer, kNoticeTag, comm_, &r), "MPI_Isend");
  check_mpi(MPI_Request_free(&r), "MPI_Request_free");
}

int MpiGroup::take_notice(const std::vector<int>& peers) {
  // Probed member by member: MPI_ANY_SOURCE would take notices of ranks outside `peers`.
  int sender = -1;
  poll_politely([&] {
    for (int peer : peers) {
      int arrived = 0;
      check_mpi(MPI_Iprobe(peer, kNoticeTag, comm_, &arrived, MPI_STATUS_IGNORE), "MPI_Iprobe");
      if (arrived) {
        sender = peer;
        return true;
      }
    }
    return false;
  });
  int notice = 0;
  check_mpi(MPI_Recv(&notice, 1, MPI_INT, sender, kNoticeTag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
  return sender;
}

void MpiGroup::do_gather_bytes(const void* send, void* recv, int64_t bytes) {
  MPI_Request r;
  check_mpi(MPI_Iallgather(send, to_int(bytes), MPI_BYTE, recv, to_int(bytes), MPI_BYTE, comm_, &r), "MPI_Iallgather");
  wait_politely(r, "MPI_Iallgather");
}

void MpiGroup::do_agree_bytes(const void* send, void* recv, int64_t bytes) {
  MPI_Request r;
  check_mpi(MPI_Iallgather(send, to_int(bytes), MPI_BYTE, recv, to_int(bytes), MPI_BYTE, agree_comm_, &r),
            "MPI_Iallgather");
  wait_politely(r, "MPI_Iallgather");
}

}  // namespace mf::comm
