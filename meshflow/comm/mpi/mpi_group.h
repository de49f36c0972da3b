// Copyright 2026 The meshflow Authors.
// The OpenMPI backend: a Group over an MPI communicator.
#pragma once

#include <mpi.h>

#include <sys/types.h>

#include <memory>
#include <optional>
#include <vector>

#include "meshflow/comm/group.h"
#include "meshflow/comm/mpi/cross_memory.h"

namespace mf::comm {

class MpiGroup final : public Group {
 public:
  // Takes ownership of `comm` unless it is MPI_COMM_WORLD.
  MpiGroup(MPI_Comm comm, std::vector<int> world_ranks);
  ~MpiGroup() override;
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(world_ranks_.size()); }
  const std::vector<int>& world_ranks() const override { return world_ranks_; }

  // Collective over the members of `world_ranks` only (MPI_Comm_create_group on `world`'s
  // communicator, whose ranks are the world ranks).
  static std::unique_ptr<MpiGroup> create(const MpiGroup& world, const std::vector<int>& world_ranks);
  void notify(int peer) override;
  int take_notice(const std::vector<int>& peers) override;

 protected:
  void do_all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op) override;
  void do_all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype) override;
  void do_reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                         ReduceOp op) override;
  void do_all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                     DType dtype) override;
  Direct do_all_to_all_direct(const std::vector<Runs>& send, const std::vector<Runs>& recv) override;
  void do_broadcast(void* data, int64_t count, DType dtype, int root) override;
  void do_exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype,
                   int lane) override;
  void do_gather_bytes(const void* send, void* recv, int64_t bytes) override;
  void do_agree_bytes(const void* send, void* recv, int64_t bytes) override;

 private:
  MPI_Comm comm_;
  MPI_Comm agree_comm_;  // a duplicate of comm_ for agree_bytes alone
  std::vector<int> world_ranks_;
  int rank_;
  // What the members may do with each other's memory (cross_memory.h), probed by the first
  // all_to_all_direct; the members' process ids. Comm thread only.
  std::optional<cross_memory::Access> access_;
  std::vector<pid_t> pids_;
};

}  // namespace mf::comm
