// Copyright 2026 The meshflow Authors.
// A communication group: an ordered set of world ranks that run collectives together.
// Backends (MPI now; NCCL or an in-process one later) implement the protected do_* hooks;
// the public methods check that per-member vectors have one entry per member and count what
// this rank issued, so every backend is counted the same way. Buffers are raw memory of
// `count` elements of `dtype`, in `memory` (the host's by default; a message says its own).
// A backend takes the memories it can read (takes()); the buffers of any other memory are
// staged by the public methods, for every backend alike: copied into host buffers from the
// memory's staging allocator (Memory::allocate_staging: pinned, for an accelerator), the
// collective run on those, and the results copied back, in order on the calling thread.
// Except where the group has a device backend for that memory (DeviceComm below: NCCL for a
// GPU's, where every member has a GPU of its own): its collectives then read and write the
// buffers there, with nothing staged.
// Thread-safety: the public methods may be called from any thread; they run on the comm
// thread (comm.h), one at a time, in the order they were issued.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/core/dtype.h"
#include "meshflow/core/memory.h"

namespace mf::comm {

// What this process issued, cumulative. bytes_sent counts the payload bytes this rank
// handed to the library (its whole send buffer for collectives, all of it for the root of
// a broadcast). Internal metadata exchanges (shapes, hashes, the agreements of comm::agree)
// count in `metadata` alone.
struct CommStats {
  int64_t all_reduce = 0;
  int64_t all_gather = 0;
  int64_t reduce_scatter = 0;
  int64_t all_to_all = 0;
  int64_t broadcast = 0;
  int64_t send = 0;
  int64_t recv = 0;
  int64_t bytes_sent = 0;
  int64_t direct_all_to_all = 0;  // of all_to_all: those copied straight between processes
  int64_t mapped_all_to_all = 0;  // of direct_all_to_all: those written into peers' mapped memory
  int64_t metadata = 0;           // gather_metadata and agree_bytes calls
};

// This process's figures, after the collectives already issued have run (it waits for the
// VM's comm stream). Copy them to compare before and after.
CommStats stats();

// Where each member's chunk lies in a buffer: counts[i] elements at element offset offsets[i].
// Chunks must not overlap in a receive buffer.
struct Chunks {
  std::vector<int64_t> counts;
  std::vector<int64_t> offsets;
  // Chunks of these sizes one after another.
  static Chunks consecutive(std::vector<int64_t> counts);
};

// One message of a batched point-to-point exchange; `peer` is a rank of the group; `memory`
// holds `data` (null: the host's).
struct Message {
  void* data;
  int64_t count;
  int peer;
  const Memory* memory = nullptr;
};

// A piece of this process's memory as contiguous runs of bytes, in the piece's order.
struct Run {
  void* data;
  int64_t bytes;
};
using Runs = std::vector<Run>;

// A backend that reads and writes the buffers of one device's memory itself (NCCL for a
// GPU's, comm/nccl), beside the group's own. A group makes one (or none: staged) per memory
// it does not take, at that memory's first collective, with every member choosing alike.
// Its methods are the group's collectives on buffers in that memory, with the arguments
// already checked; the group counts and watches each call as it does its own. A call runs on
// the comm thread, ordered after the work that produced its inputs as the staged path's
// copies are, and returns once its results are in place and its buffers may be reused.
// Point-to-point exchanges are always staged: a message's two ends are on two ranks, whose
// calls cannot tell that the other end took the same path.
class DeviceComm {
 public:
  virtual ~DeviceComm() = default;
  virtual const char* name() const = 0;  // "nccl"
  virtual void all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) = 0;
  virtual void all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype) = 0;
  virtual void reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                              ReduceOp op) = 0;
  virtual void all_to_all(const void* send, const Chunks& send_chunks, void* recv,
                          const Chunks& recv_chunks, DType dtype) = 0;
  virtual void broadcast(void* data, int64_t count, DType dtype, int root) = 0;
};

class Group {
 public:
  virtual ~Group() = default;
  virtual int rank() const = 0;  // this process's index in the group
  virtual int size() const = 0;
  virtual const std::vector<int>& world_ranks() const = 0;

  // send == recv is allowed (in place).
  void all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op,
                  const Memory& memory = host_memory());
  // Member i contributes recv_chunks.counts[i] elements, which land at its chunk of recv.
  void all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype,
                  const Memory& memory = host_memory());
  // send holds size() consecutive chunks of counts[i] elements; member i receives the
  // reduction of everyone's chunk i.
  void reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype, ReduceOp op,
                      const Memory& memory = host_memory());
  // Send chunk i goes to member i; what member i sends this rank lands at recv chunk i.
  void all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks, DType dtype,
                  const Memory& memory = host_memory());
  // all_to_all on pieces held as runs of memory (a strided piece of a tensor is many): send[i]
  // goes to member i and lands in recv[i] of member i, byte totals equal, this rank's own
  // piece included. Where the members may reach each other's memory (one host; receivers'
  // runs in shared blocks peers map, core/allocator.h, or cross-memory attach allowed),
  // each piece is copied once, straight from the sender's runs into the receiver's, with
  // no packing or staging. Returns false, having moved nothing (not even this rank's own
  // piece), where they may not; every member gets the same answer.
  bool all_to_all_direct(const std::vector<Runs>& send, const std::vector<Runs>& recv);
  void broadcast(void* data, int64_t count, DType dtype, int root, const Memory& memory = host_memory());
  // Posts every send and receive at once and waits for all, so no ordering can deadlock.
  // `lane` > 0: a transfer between pipeline stages, made on the calling thread (a lane of
  // its own, graph/compile.h) with a tag of its own, so that lanes never match each other's
  // messages; 0: on the comm thread like the collectives.
  void exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype, int lane = 0);

  // Internal metadata: not counted in stats(). recv holds size() * count bytes.
  void gather_metadata(const void* send, void* recv, int64_t bytes);
  // gather_metadata for the checks of comm::agree: made on the calling thread at once, over a
  // channel of the group's own that the comm thread's collectives never use, so that an
  // issuing thread checking its call does not wait for the collectives it queued before
  // (which wait for the device). Calls come from one thread at a time, in the same order on
  // every member.
  void agree_bytes(const void* send, void* recv, int64_t bytes);
  // Notices of point-to-point messages (global/point_to_point.h: how a receive from any
  // source learns its sender): notify tells member `peer` that a message of this rank is on
  // its way, without waiting; take_notice takes the oldest notice of one of `peers`
  // (members; the first found), waiting for one, and returns that member. A member's notices
  // are taken in the order it sent them. Comm thread.
  virtual void notify(int peer) = 0;
  virtual int take_notice(const std::vector<int>& peers) = 0;
  // Whether the backend reads and writes buffers in `memory` itself (else they are staged).
  virtual bool takes(const Memory& memory) const { return memory.host_accessible(); }
  // How collectives of buffers in `memory` move: "own" (the backend takes them), the name of
  // the group's device backend for it ("nccl"), or "staged". For a memory the group has not
  // met yet this makes the members' choice (DeviceComm): collective, as its first collective.
  std::string path_for(const Memory& memory);
  // The names of the device backends the group uses (for comm::backend_name()). Comm thread.
  std::vector<std::string> device_backends() const;

 protected:
  virtual void do_all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) = 0;
  virtual void do_all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype) = 0;
  virtual void do_reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                                 ReduceOp op) = 0;
  virtual void do_all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                             DType dtype) = 0;
  // How do_all_to_all_direct moved the pieces (comm/mpi/cross_memory.h).
  enum class Direct { kNo, kAttached, kMapped };
  // Backends without direct copies keep the default.
  virtual Direct do_all_to_all_direct(const std::vector<Runs>& /*send*/, const std::vector<Runs>& /*recv*/) {
    return Direct::kNo;
  }
  virtual void do_broadcast(void* data, int64_t count, DType dtype, int root) = 0;
  virtual void do_exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype,
                           int lane) = 0;
  virtual void do_gather_bytes(const void* send, void* recv, int64_t bytes) = 0;
  virtual void do_agree_bytes(const void* send, void* recv, int64_t bytes) = 0;

 private:
  void check_counts(const char* op, const std::vector<int64_t>& counts) const;
  // The device backend for buffers in `memory`, chosen at the memory's first call (null:
  // staged; always null for memory the group takes). Comm thread.
  DeviceComm* device_comm(const Memory& memory);
  // Runs `call(DeviceComm&)` on the device backend for `memory`, watched as `collective` and
  // counted by `tally(CommStats&)` as the group's own calls are, where the group has one;
  // false (nothing run) where the buffers are the backend's own or staged. Used in group.cc.
  template <typename Tally, typename Call>
  bool on_device(const Memory& memory, const char* collective, const Tally& tally, const Call& call);

  // By memory (a device's memory lives as long as the process). Comm thread only.
  std::map<const Memory*, std::unique_ptr<DeviceComm>> device_comms_;
};

}  // namespace mf::comm
