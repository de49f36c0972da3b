// Copyright 2026 The meshflow Authors.
// A communication group: an ordered set of world ranks that run collectives together.
// Backends (MPI now; NCCL or an in-process one later) implement the protected do_* hooks;
// the public methods validate sizes and count what this rank issued, so every backend is
// counted the same way. Buffers are raw memory of `count` elements of `dtype`.
// Thread-safety: a Group is used by one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meshflow/core/dtype.h"

namespace mf::comm {

// What this process issued, cumulative. bytes_sent counts the payload bytes this rank
// handed to the library (its whole send buffer for collectives, all of it for the root of
// a broadcast). Internal metadata exchanges (shapes, hashes) are not counted.
struct CommStats {
  int64_t all_reduce = 0;
  int64_t all_gather = 0;
  int64_t reduce_scatter = 0;
  int64_t all_to_all = 0;
  int64_t broadcast = 0;
  int64_t send = 0;
  int64_t recv = 0;
  int64_t bytes_sent = 0;
};

CommStats& stats();

// One message of a batched point-to-point exchange; `peer` is a rank of the group.
struct Message {
  void* data;
  int64_t count;
  int peer;
};

class Group {
 public:
  virtual ~Group() = default;
  virtual int rank() const = 0;  // this process's index in the group
  virtual int size() const = 0;
  virtual const std::vector<int>& world_ranks() const = 0;

  // send == recv is allowed (in place).
  void all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op);
  // Member i contributes counts[i] elements; recv holds them concatenated in member order.
  void all_gather(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype);
  // send holds size() consecutive chunks of counts[i] elements; member i receives the
  // reduction of everyone's chunk i.
  void reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype, ReduceOp op);
  // Chunk i of send (send_counts[i] elements) goes to member i; recv holds the chunks from
  // each member, concatenated in member order.
  void all_to_all(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                  const std::vector<int64_t>& recv_counts, DType dtype);
  void broadcast(void* data, int64_t count, DType dtype, int root);
  // Posts every send and receive at once and waits for all, so no ordering can deadlock.
  void exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype);

  // Internal metadata: not counted in stats(). recv holds size() * count bytes.
  void gather_metadata(const void* send, void* recv, int64_t bytes);

 protected:
  virtual void do_all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) = 0;
  virtual void do_all_gather(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype) = 0;
  virtual void do_reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                                 ReduceOp op) = 0;
  virtual void do_all_to_all(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                             const std::vector<int64_t>& recv_counts, DType dtype) = 0;
  virtual void do_broadcast(void* data, int64_t count, DType dtype, int root) = 0;
  virtual void do_exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype) = 0;
  virtual void do_gather_bytes(const void* send, void* recv, int64_t bytes) = 0;

 private:
  void check_counts(const char* op, const std::vector<int64_t>& counts) const;
};

}  // namespace mf::comm
