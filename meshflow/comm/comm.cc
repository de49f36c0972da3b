// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/comm.h"

#include <mpi.h>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "meshflow/comm/mpi/mpi_group.h"

namespace mf::comm {
namespace {

struct Context {
  std::unique_ptr<Group> world;
  std::map<std::vector<int>, std::unique_ptr<Group>> groups;
};

Context* context = nullptr;

// Seconds a rank that is exiting waits for the others to exit too (MESHFLOW_EXIT_TIMEOUT).
double exit_timeout() {
  const char* v = std::getenv("MESHFLOW_EXIT_TIMEOUT");
  return v && *v ? std::atof(v) : 30.0;
}

void finalize() {
  if (!context) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // MPI_Finalize would block forever if another rank is still waiting for this one in a
  // collective (it exited early, e.g. sys.exit on one rank): wait for every rank to be
  // exiting, and end the job if they are not within the timeout.
  MPI_Request all_exiting;
  MPI_Ibarrier(MPI_COMM_WORLD, &all_exiting);
  const double deadline = MPI_Wtime() + exit_timeout();
  for (int done = 0; !done;) {
    MPI_Test(&all_exiting, &done, MPI_STATUS_IGNORE);
    if (!done && MPI_Wtime() > deadline) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      abort_job("meshflow: rank " + std::to_string(rank) +
                " exited while other ranks had not; ending the job (MESHFLOW_EXIT_TIMEOUT=" +
                std::to_string(exit_timeout()) + " s)");
    }
    if (!done) usleep(1000);
  }
  // Communicators must be freed before MPI_Finalize.
  context->groups.clear();
  context->world.reset();
  MPI_Finalize();
}

Context& ctx() {
  if (context) return *context;
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    // The library allocates large temporary buffers inside collectives; glibc would map
    // each afresh and return it to the OS on free, so every call paid page faults. Keep
    // large blocks on the heap and the heap untrimmed instead.
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
    std::atexit(finalize);
  }
  context = new Context;
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> all(size);
  std::iota(all.begin(), all.end(), 0);
  context->world = std::make_unique<MpiGroup>(MPI_COMM_WORLD, all);
  return *context;
}

}  // namespace

int world_rank() {
  Group& w = world();
  return w.rank();
}
int world_size() { return world().size(); }
Group& world() { return *ctx().world; }
bool initialized() { return context != nullptr; }
std::string backend_name() { return "mpi"; }

Group& group_of(const std::vector<int>& ranks) {
  Context& c = ctx();
  if (ranks.size() == static_cast<size_t>(c.world->size()) && ranks == c.world->world_ranks()) return *c.world;
  auto it = c.groups.find(ranks);
  if (it == c.groups.end()) {
    if (std::find(ranks.begin(), ranks.end(), c.world->rank()) == ranks.end()) {
      throw std::logic_error("comm: rank " + std::to_string(c.world->rank()) + " asked for a group it is not in");
    }
    it = c.groups.emplace(ranks, MpiGroup::create(ranks)).first;
  }
  return *it->second;
}

void agree(const std::string& error, uint64_t call_hash, const std::string& call) {
  struct Record {
    uint64_t call_hash;
    int32_t has_error;
    char error[500];
  };
  Record mine{call_hash, !error.empty(), {}};
  error.copy(mine.error, sizeof(mine.error) - 1);
  Group& w = world();
  std::vector<Record> all(w.size());
  w.gather_metadata(&mine, all.data(), sizeof(Record));
  for (int r = 0; r < w.size(); ++r) {
    if (!all[r].has_error) continue;
    std::string message(all[r].error);
    if (r != w.rank()) message += " (raised on rank " + std::to_string(r) + ")";
    throw std::invalid_argument(message);
  }
  std::string differ;
  for (int r = 1; r < w.size(); ++r) {
    if (all[r].call_hash != all[0].call_hash) differ += (differ.empty() ? "" : ", ") + std::to_string(r);
  }
  if (!differ.empty()) {
    throw std::invalid_argument(call + ": rank(s) " + differ +
                                " made a different call than rank 0 (placement, sbp, shape, dtype or attributes); "
                                "every rank must make the same call");
  }
}

void abort_job(const std::string& message, int exit_code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  int init = 0, finalized = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&finalized);
  if (init && !finalized) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace mf::comm
