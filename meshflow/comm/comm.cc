// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/comm.h"

#include <mpi.h>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>

#include "meshflow/comm/mpi/mpi_group.h"

namespace mf::comm {
namespace {

struct Context {
  std::unique_ptr<Group> world;
  std::map<std::vector<int>, std::unique_ptr<Group>> groups;
};

Context* context = nullptr;

void finalize() {
  if (!context) return;
  // Communicators must be freed before MPI_Finalize.
  context->groups.clear();
  context->world.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
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
  if (it == c.groups.end()) it = c.groups.emplace(ranks, MpiGroup::create(ranks)).first;
  return *it->second;
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
