// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/comm.h"

#include <mpi.h>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "meshflow/comm/among.h"
#include "meshflow/comm/mpi/mpi_check.h"
#include "meshflow/comm/mpi/mpi_group.h"
#include "meshflow/core/error.h"

namespace mf::comm {
namespace {

struct Context {
  std::unique_ptr<MpiGroup> world;
  std::map<std::vector<int>, std::unique_ptr<Group>> groups;
  // The exit barrier's own communicator: on MPI_COMM_WORLD, a rank's exit barrier would be
  // matched with another rank's non-blocking collective still in flight there.
  MPI_Comm exit_comm = MPI_COMM_NULL;
  int local_rank = 0;  // this process's index among the ranks of its host
  int local_size = 1;
};

Context* context = nullptr;
// Whether MPI started a world of several ranks; read by any thread (several_ranks).
std::atomic<bool> started_several{false};

// The VM's hooks (comm.h); set once, before any worker exists.
std::function<void(const std::function<void()>&)> funnel;
std::function<void()> drain;
thread_local bool is_comm_thread = false;
thread_local std::string current_op;
// The ranks of the innermost Among scope on this thread; empty outside one (the world).
thread_local std::vector<int> among_ranks;
// The thread that issued the first collective (check_collective_thread).
std::atomic<std::thread::id> first_collective_thread;
// The calls on global tensors of that thread (note_global_call). Atomic: before the first
// collective names the thread, several may make calls (which no agreement compares yet).
struct GlobalCalls {
  std::atomic<int64_t> count{0};
  std::atomic<const char*> last{"none"};
  std::atomic<uint64_t> hash{0};
  std::atomic<bool> grad{true};
  // Every rank raises together (agree_as), without making the call: they count on alike.
  void restart() {
    count.store(0, std::memory_order_relaxed);
    hash.store(0, std::memory_order_relaxed);
  }
};
GlobalCalls global_calls;

// The collectives in flight on this rank, for the watchdog: one on the comm thread, one
// agreement on an issuing thread, and one per pipeline lane (graph mode's point-to-point
// transfers between stages run on threads of their own).
struct Running {
  struct Call {
    std::string what;
    std::vector<int> ranks;  // the group's world ranks
    std::chrono::steady_clock::time_point since;
    int channel;  // comm.h: kCollectivesChannel, kAgreementsChannel or a lane
    uint64_t number;  // its place among the calls of its group's channel, from 1
  };
  std::mutex mu;
  std::condition_variable changed;
  uint64_t serial = 0;
  std::map<uint64_t, Call> active;  // by serial: the oldest first
  std::map<std::pair<std::vector<int>, int>, uint64_t> issued;  // calls made, by (group, channel)
  // When a call began or ended last: with nothing computing since, a rank still waiting in
  // its calls waits for the others (no progress of its own will change them).
  std::chrono::steady_clock::time_point last_change = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_round;  // of the watchdogs' statuses
  bool exiting = false;  // the program has ended: finalize is draining the queued work
  // Set by finalize before exit_comm is freed: the watchdog probes it no more.
  bool finalizing = false;
};

// Work other than communication in flight (comm.h, Computing), and when the last ended, in
// steady-clock nanoseconds.
std::atomic<int> computing{0};
std::atomic<int64_t> last_computed_ns{0};

// The tags of the messages watchdogs send each other on exit_comm: the notice an exiting rank
// sends every other rank (finalize), a waiting rank's status and the verdict that the ranks
// are in different calls (look_for_ranks_in_different_calls).
constexpr int kExitingTag = 1;
constexpr int kStatusTag = 2;
constexpr int kVerdictTag = 3;

// What every rank must do, for the messages that find ranks in different calls.
const char* const kSameCallsRule =
    "Every rank must make the same calls on global tensors, in the same order: code that only some ranks run (if "
    "rank == 0:) may read, print, save to a .pt or .safetensors file and compute on values every rank holds whole "
    "(broadcast over every rank, as a data-parallel model's weights, and a loss or metric every rank made), but "
    "must not compute on, read (item(), numpy(), tolist(), printing) or save (mf.save) split or partial global "
    "tensors, nor run a model on them; make the call on every rank (mf.save writes each tensor once), or convert "
    "the tensor with to_global(sbp=broadcast) on every rank first.";

int64_t steady_ns(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

Running& running() {
  static auto* r = new Running;
  return *r;
}

// "3" for 3.0, "0.5" for 0.5: as a user would write the setting.
std::string seconds_str(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

// A collective of `call` whose group holds a rank that has exited can never complete: code
// that some ranks run and others skip (`if rank == 0:` around a read, a save or an op on
// global tensors) left it behind. Ends the job at once, naming it, instead of after the
// exiting rank's MESHFLOW_EXIT_TIMEOUT. Called with Running::mu held, which finalize takes
// before it frees exit_comm. Only for a call some seconds old: a peer's last collective may
// have completed on its side (and it exited) while this rank still receives the data.
void end_if_a_peer_exited(const Running::Call& call) {
  constexpr double kGraceSeconds = 3;
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - call.since).count() < kGraceSeconds) return;
  const int me = world_rank();
  for (int peer : call.ranks) {
    int arrived = 0;
    if (peer == me || MPI_Iprobe(peer, kExitingTag, context->exit_comm, &arrived, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        !arrived) {
      continue;
    }
    abort_job("meshflow: rank " + std::to_string(me) + ": " + call.what + " cannot complete: rank " +
              std::to_string(peer) + " of its group has exited without making it. " + kSameCallsRule +
              " Ending the job");
  }
}

std::string ranks_str(const std::vector<int>& ranks) {
  std::string s = "[";
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s + "]";
}

// Ranks in different calls. A rank that waits in a call for the others of its group, with
// nothing of its own computing, can only be freed by them. When every rank of the groups
// involved waits so, no call among them has all its group's members in it, and this has
// stayed so for kGraceSeconds, no call can ever complete: code that only some ranks ran (an
// `if rank == 0:` around a read, a save or a forward) left them in different calls, where MPI
// would wait until MESHFLOW_COMM_TIMEOUT. So a rank that has waited so for kGraceSeconds
// tells the ranks of its groups, once a second, what it waits in (a Status on exit_comm);
// a rank that finds from the statuses that no call can complete ends the job, each rank
// naming every rank's call. Statuses are sent only while waiting that long, so a job that
// never stalls sends none. A program whose ranks make the same calls never meets this: every
// rank reaches each call of a channel, in order, so the call some rank waits in longest has
// all its members in it once the others' computing is done.
constexpr double kGraceSeconds = 3;
constexpr int kMaxWaits = 4;
constexpr int kMaxGroup = 32;

struct Status {
  struct Wait {
    int32_t channel;
    int32_t group_size;  // ranks' entries used; -1: the group has more than kMaxGroup
    uint64_t number;
    int32_t ranks[kMaxGroup];
    char what[240];
  };
  int32_t exiting;
  // Entries used; -1: waits that cannot be told (more than kMaxWaits, a group of more than
  // kMaxGroup ranks, or a lane's transfer).
  int32_t waits;
  Wait wait[kMaxWaits];
};

struct Heard {
  Status status;
  std::chrono::steady_clock::time_point when;
};
std::map<int, Heard>& heard() {  // the latest status from each rank; watchdog thread only
  static auto* h = new std::map<int, Heard>;
  return *h;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// This rank's status, with r.mu held: the calls it waits in, none on a pipeline lane (their
// transfers follow a compiled plan of their own, not a program order the ranks share).
Status status_of(const Running& r) {
  Status s{};
  s.exiting = r.exiting;
  for (const auto& [serial, call] : r.active) {
    if (s.waits == kMaxWaits || call.channel > 0 || call.ranks.size() > kMaxGroup) {
      s.waits = -1;
      return s;
    }
    Status::Wait& w = s.wait[s.waits++];
    w.channel = call.channel;
    w.number = call.number;
    w.group_size = static_cast<int32_t>(call.ranks.size());
    std::copy(call.ranks.begin(), call.ranks.end(), w.ranks);
    call.what.copy(w.what, sizeof(w.what) - 1);
  }
  return s;
}

// Whether this rank has waited kGraceSeconds with nothing computing and its calls unchanged.
bool only_waiting(const Running& r) {
  if (r.active.empty() || computing.load() > 0) return false;
  const auto now = std::chrono::steady_clock::now();
  const double computed = static_cast<double>(steady_ns(now) - last_computed_ns.load()) * 1e-9;
  return seconds_since(r.last_change) >= kGraceSeconds && computed >= kGraceSeconds;
}

std::vector<int> group_of_wait(const Status::Wait& w) { return {w.ranks, w.ranks + w.group_size}; }

std::string call_str(int rank, const Status& s) {
  std::string text = "rank " + std::to_string(rank) + (s.exiting ? " (its program has ended)" : "") + " waits in ";
  for (int i = 0; i < s.waits; ++i) text += (i ? " and in " : "") + std::string(s.wait[i].what);
  return text;
}

// Every rank's call, as far as statuses were heard, for the message that ends the job.
std::string calls_str(int me, const Status& mine) {
  std::string text = call_str(me, mine);
  for (const auto& [rank, h] : heard()) {
    if (rank != me && h.status.waits > 0) text += "; " + call_str(rank, h.status);
  }
  return text;
}

// Whether the ranks of `mine`'s groups (closed over theirs) all wait, by fresh statuses,
// with no call among them that has all its group's members in it.
bool no_call_can_complete(int me, const Status& mine) {
  std::map<int, const Status*> ranks{{me, &mine}};
  std::vector<int> todo = {me};
  while (!todo.empty()) {
    const Status& s = *ranks.at(todo.back());
    todo.pop_back();
    if (s.waits <= 0) return false;
    for (int i = 0; i < s.waits; ++i) {
      for (int peer : group_of_wait(s.wait[i])) {
        if (ranks.count(peer)) continue;
        auto it = heard().find(peer);
        // Fresh: sent within the last kGraceSeconds, so the peer waited so at a moment when
        // this rank did too.
        if (it == heard().end() || seconds_since(it->second.when) > kGraceSeconds - 0.5) return false;
        ranks[peer] = &it->second.status;
        todo.push_back(peer);
      }
    }
  }
  // One call: the same place in the same channel of the same ranks, and the same collective
  // (a rank's k-th call there an all-reduce and another's a point-to-point exchange are ranks in
  // different calls: a pair's transfers count in the channel of the world's ranks on 2 ranks).
  auto collective = [](const Status::Wait& w) {
    const std::string what(w.what);
    return what.substr(0, what.find(" on group "));
  };
  auto in = [&collective](const Status& s, const Status::Wait& w) {
    for (int i = 0; i < s.waits; ++i) {
      if (s.wait[i].channel == w.channel && s.wait[i].number == w.number &&
          group_of_wait(s.wait[i]) == group_of_wait(w) && collective(s.wait[i]) == collective(w)) {
        return true;
      }
    }
    return false;
  };
  for (const auto& [rank, s] : ranks) {
    for (int i = 0; i < s->waits; ++i) {
      const std::vector<int> group = group_of_wait(s->wait[i]);
      if (std::all_of(group.begin(), group.end(), [&](int p) { return in(*ranks.at(p), s->wait[i]); })) return false;
    }
  }
  return true;
}

// Takes the statuses and verdicts other ranks sent. Returns whether one sent a verdict.
bool receive_statuses() {
  bool verdict = false;
  for (int tag : {kStatusTag, kVerdictTag}) {
    while (true) {
      int arrived = 0;
      MPI_Status st;
      if (MPI_Iprobe(MPI_ANY_SOURCE, tag, context->exit_comm, &arrived, &st) != MPI_SUCCESS || !arrived) break;
      Status s{};
      MPI_Recv(&s, sizeof(Status), MPI_BYTE, st.MPI_SOURCE, tag, context->exit_comm, MPI_STATUS_IGNORE);
      if (tag == kVerdictTag) {
        verdict = true;
      } else {
        heard()[st.MPI_SOURCE] = {s, std::chrono::steady_clock::now()};
      }
    }
  }
  return verdict;
}

// The statuses and verdicts this rank sent, kept until their sends complete (small messages,
// which complete on their own).
std::vector<std::pair<std::unique_ptr<Status>, MPI_Request>>* sending =
    new std::vector<std::pair<std::unique_ptr<Status>, MPI_Request>>;

// Sends `s` with `tag` to the ranks of its calls' groups.
void send_to_groups(const Status& s, int tag) {
  sending->erase(std::remove_if(sending->begin(), sending->end(),
                                [](auto& m) {
                                  int done = 0;
                                  MPI_Test(&m.second, &done, MPI_STATUS_IGNORE);
                                  return done != 0;
                                }),
                 sending->end());
  std::set<int> peers;
  for (int i = 0; i < s.waits; ++i) {
    for (int p : group_of_wait(s.wait[i])) peers.insert(p);
  }
  peers.erase(world_rank());
  for (int p : peers) {
    sending->emplace_back(std::make_unique<Status>(s), MPI_REQUEST_NULL);
    MPI_Isend(sending->back().first.get(), sizeof(Status), MPI_BYTE, p, tag, context->exit_comm,
              &sending->back().second);
  }
}

// Once a second, with r.mu held: exchanges statuses and ends the job when the ranks are in
// different calls (above).
void look_for_ranks_in_different_calls(Running& r) {
  if (seconds_since(r.last_round) < 1) return;
  r.last_round = std::chrono::steady_clock::now();
  const int me = world_rank();
  const bool told = receive_statuses();  // another rank found it: this one says what it waits in
  if (!told && !only_waiting(r)) return;
  const Status mine = status_of(r);
  if (mine.waits <= 0) return;
  const std::string message = "meshflow: rank " + std::to_string(me) + ": " + std::string(mine.wait[0].what) +
                              " cannot complete: the ranks wait in different calls, which none can leave: " +
                              calls_str(me, mine) + ". " + kSameCallsRule + " Ending the job";
  if (told) abort_job(message);
  send_to_groups(mine, kStatusTag);
  if (!no_call_can_complete(me, mine)) return;
  send_to_groups(mine, kVerdictTag);  // the others end at once, each saying what it waits in
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::seconds(1));  // for them to say it before MPI_Abort ends them
  abort_job("meshflow: rank " + std::to_string(me) + ": ending the job");
}

void watchdog_loop(double timeout) {
  Running& r = running();
  std::unique_lock<std::mutex> lock(r.mu);
  while (true) {
    r.changed.wait_for(lock, std::chrono::seconds(1));
    if (!r.finalizing) look_for_ranks_in_different_calls(r);
    if (r.active.empty()) continue;
    const Running::Call& oldest = r.active.begin()->second;
    if (!r.finalizing) end_if_a_peer_exited(oldest);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - oldest.since).count();
    if (elapsed > timeout) {
      abort_job("meshflow: rank " + std::to_string(world_rank()) + ": " + oldest.what + " has not completed after " +
                std::to_string(static_cast<int>(elapsed)) +
                " s; another rank of its group is stuck or gone. Ending the job (MESHFLOW_COMM_TIMEOUT=" +
                seconds_str(timeout) + " s)");
    }
  }
}

// Seconds a rank that is exiting waits for the others to exit too (MESHFLOW_EXIT_TIMEOUT).
double exit_timeout() {
  const char* v = std::getenv("MESHFLOW_EXIT_TIMEOUT");
  return v && *v ? std::atof(v) : 30.0;
}

// Runs once, at exit (finalize_first_at_exit may have registered it twice).
void finalize() {
  static std::atomic<bool> ran{false};
  if (!context || ran.exchange(true)) return;
  mark_exiting();
  if (drain) drain();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // MPI_Finalize would block forever if another rank is still waiting for this one in a
  // collective (it exited early, e.g. sys.exit on one rank): wait for every rank to be
  // exiting, and end the job if they are not within the timeout.
  // Tell every other rank first, so that one waiting in a collective with this one ends the
  // job at once (end_if_a_peer_exited) instead of after the timeout below.
  int world_size = 1, me = 0;
  MPI_Comm_size(context->exit_comm, &world_size);
  MPI_Comm_rank(context->exit_comm, &me);
  const int notice = 0;
  std::vector<MPI_Request> notices;
  for (int peer = 0; peer < world_size; ++peer) {
    if (peer == me) continue;
    notices.emplace_back();
    MPI_Isend(&notice, 1, MPI_INT, peer, kExitingTag, context->exit_comm, &notices.back());
  }
  MPI_Request all_exiting;
  MPI_Ibarrier(context->exit_comm, &all_exiting);
  const double deadline = MPI_Wtime() + exit_timeout();
  for (int done = 0; !done;) {
    MPI_Test(&all_exiting, &done, MPI_STATUS_IGNORE);
    if (!done && MPI_Wtime() > deadline) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      abort_job("meshflow: rank " + std::to_string(rank) +
                " exited while other ranks had not; ending the job (MESHFLOW_EXIT_TIMEOUT=" +
                seconds_str(exit_timeout()) + " s). Another rank may be waiting in a collective this one never "
                "made: reading a global tensor (item(), numpy(), tolist(), printing it) is one, which every rank "
                "must make, not only rank 0");
    }
    if (!done) usleep(1000);
  }
  // Every rank sent its notices before the barrier: take them, so none is left pending.
  for (int peer = 0; peer < world_size; ++peer) {
    int received = 0;
    if (peer != me) MPI_Recv(&received, 1, MPI_INT, peer, kExitingTag, context->exit_comm, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(notices.size()), notices.data(), MPI_STATUSES_IGNORE);
  {
    std::lock_guard<std::mutex> lock(running().mu);
    running().finalizing = true;
    for (auto& [status, request] : *sending) {
      if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);  // they complete on their own
    }
    sending->clear();
  }
  // Communicators must be freed before MPI_Finalize (and NCCL's with their groups: every rank
  // is exiting, so none waits for a peer's collective).
  context->groups.clear();
  context->world.reset();
  MPI_Comm_free(&context->exit_comm);
  MPI_Finalize();
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
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
    // A rank waiting in a collective polls; with the VM it shares its cores with its own
    // compute worker (and, oversubscribed, with other ranks): yield while idle, unless the
    // user chose otherwise. Measured on 2 ranks on 2 cores: the GPT at 2x1x1 runs 1.6x
    // faster with it.
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", /*overwrite=*/0);
    int provided = 0;
    check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    std::atexit(finalize);
  }
  // MPI errors return (as exceptions, see check_mpi) instead of aborting every rank; the
  // communicators below are duplicates, which inherit it.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  // Graph mode's pipeline transfers call MPI from their own threads, beside the comm thread.
  int level = 0;
  check_mpi(MPI_Query_thread(&level), "MPI_Query_thread");
  if (level < MPI_THREAD_MULTIPLE) {
    throw std::runtime_error(
        "comm: this MPI library provides thread level " + std::string(thread_level_name(level)) +
        ", but meshflow calls MPI from several threads and needs MPI_THREAD_MULTIPLE; use an MPI built with "
        "thread support (Debian's OpenMPI is)");
  }
  context = new Context;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &context->exit_comm), "MPI_Comm_dup");
  int size = 0;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  started_several.store(size > 1, std::memory_order_release);
  std::vector<int> all(size);
  std::iota(all.begin(), all.end(), 0);
  // Every group's collectives run on communicators of meshflow's own (a duplicate of
  // MPI_COMM_WORLD and groups made from it), so that MPI calls the program makes itself on
  // MPI_COMM_WORLD, from another thread while the comm thread works, can never be matched
  // with meshflow's.
  MPI_Comm world_comm = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &world_comm), "MPI_Comm_dup");
  context->world = std::make_unique<MpiGroup>(world_comm, all);
  // The ranks that share this one's memory are those of its host (as the launcher placed
  // them, simulated hosts included).
  MPI_Comm host = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  check_mpi(MPI_Comm_rank(host, &context->local_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(host, &context->local_size), "MPI_Comm_size");
  check_mpi(MPI_Comm_free(&host), "MPI_Comm_free");
  return *context;
}

// The message of the error the last failed agreement over the whole world raised.
std::mutex raised_mutex;
std::string raised_everywhere;  // GUARDED_BY(raised_mutex)

void note_raised_on_every_rank(const std::string& message) {
  std::lock_guard<std::mutex> lock(raised_mutex);
  raised_everywhere = message;
}

}  // namespace

int world_rank() {
  Group& w = world();
  return w.rank();
}
int world_size() { return world().size(); }
int local_rank() { return ctx().local_rank; }
int local_size() { return ctx().local_size; }
Group& world() { return *ctx().world; }
bool initialized() { return context != nullptr; }
bool several_ranks() {
  static const bool launched_several = [] {
    const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
    return size && std::atoi(size) > 1;
  }();
  return launched_several || started_several.load(std::memory_order_acquire);
}
std::string backend_name() {
  std::string name = "mpi";
  if (!context) return name;
  std::set<std::string> device;  // each device backend once, whichever groups use it
  on_comm_thread([&] {
    for (const std::string& b : context->world->device_backends()) device.insert(b);
    for (const auto& [ranks, group] : context->groups) {
      for (const std::string& b : group->device_backends()) device.insert(b);
    }
  });
  for (const std::string& b : device) name += "+" + b;
  return name;
}

Group& group_of(const std::vector<int>& ranks) {
  Context& c = ctx();
  if (funnel && !is_comm_thread) {
    // Creating a communicator is collective: in program order, on the comm thread.
    Group* g = nullptr;
    on_comm_thread([&] { g = &group_of(ranks); });
    return *g;
  }
  if (ranks.size() == static_cast<size_t>(c.world->size()) && ranks == c.world->world_ranks()) return *c.world;
  auto it = c.groups.find(ranks);
  if (it == c.groups.end()) {
    if (std::find(ranks.begin(), ranks.end(), c.world->rank()) == ranks.end()) {
      throw std::logic_error("comm: rank " + std::to_string(c.world->rank()) + " asked for a group it is not in");
    }
    // Collective over the members, which wait in it for any that never gets here (code only
    // some ranks ran: rank 0's send to rank 1 while rank 1 entered a barrier of 3): watched,
    // as the group's first call, so that the watchdogs see them wait.
    std::unique_ptr<Group> created;
    {
      CollectiveWatch watch("creation of the group's communicator", ranks);
      created = MpiGroup::create(*c.world, ranks);
    }
    it = c.groups.emplace(ranks, std::move(created)).first;
  }
  return *it->second;
}

namespace {

// Raises on every rank of `g` (the world), whose ranks made different calls on global tensors
// before `call` (their trails differ, in count or in what the calls were), naming each rank's
// trail. Collective.
[[noreturn]] void raise_global_calls(Group& g, const std::string& call, const std::vector<int64_t>& counts) {
  struct Trail {
    char text[200];
  };
  Trail mine{};
  call_trail().str().copy(mine.text, sizeof(mine.text) - 1);
  std::vector<Trail> trails(g.size());
  g.agree_bytes(&mine, trails.data(), sizeof(Trail));
  std::string made;
  for (int r = 0; r < g.size(); ++r) {
    made += (r ? "; rank " : "rank ") + std::to_string(g.world_ranks()[r]) + " made " + trails[r].text;
  }
  const bool numbers = std::count(counts.begin(), counts.end(), counts[0]) != g.size();
  const std::string message = call + ": the ranks made different " + (numbers ? "numbers of calls" : "calls") +
                              " on global tensors before this one (" + made +
                              "): some ran alone, under code that only some ranks run, and their values may "
                              "now differ between ranks. " + kSameCallsRule;
  note_raised_on_every_rank(message);
  throw CollectiveMismatchError(message);
}

void agree_as(const std::string& error, ErrorClass error_class, uint64_t call_hash, const std::string& call,
              const std::vector<int>& ranks, const CallTrail* trail) {
  struct Record {
    uint64_t call_hash;
    int64_t has_error;
    int64_t global_calls;
    uint64_t trail;
  };
  struct Message {
    char text[500];
    ErrorClass error_class;
  };
  Group& g = ranks.empty() ? among() : group_of(ranks);
  // From an issuing thread, at once (Group::agree_bytes): not behind the collectives queued
  // on the comm stream, which may wait for the device. From the comm thread (an agreement
  // on data errors, made in the stream's order), on its channel, with the trail taken when
  // its call was issued.
  const bool comm_thread = is_comm_thread;
  const CallTrail now = comm_thread ? CallTrail{} : call_trail();
  const CallTrail& compared = comm_thread && trail ? *trail : now;
  Record mine{call_hash, !error.empty(), compared.count, compared.hash};
  std::vector<Record> all(g.size());
  std::vector<Message> messages;
  if (!comm_thread) check_collective_thread(call);
  auto gather = [&](const void* send, void* recv, int64_t bytes) {
    comm_thread ? g.gather_metadata(send, recv, bytes) : g.agree_bytes(send, recv, bytes);
  };
  set_current_op("the argument check of " + call);
  gather(&mine, all.data(), sizeof(Record));
  if (std::any_of(all.begin(), all.end(), [](const Record& r) { return r.has_error; })) {
    Message text{};
    error.copy(text.text, sizeof(text.text) - 1);
    text.error_class = error_class;
    messages.resize(g.size());
    gather(&text, messages.data(), sizeof(Message));
  }
  set_current_op("");
  const bool everyone = g.size() == world_size();
  // From the issuing thread the agreement has a place in the program's order, where every
  // rank of the world has made as many calls on global tensors.
  const bool counted = everyone && !comm_thread;
  std::vector<int64_t> counts;
  bool hashes_differ = false, any_error = false, numbers_differ = false, trail_hashes_differ = false;
  for (const Record& r : all) {
    counts.push_back(r.global_calls);
    hashes_differ = hashes_differ || r.call_hash != all[0].call_hash;
    any_error = any_error || r.has_error;
    numbers_differ = numbers_differ || r.global_calls != all[0].global_calls;
    trail_hashes_differ = trail_hashes_differ || r.trail != all[0].trail;
  }
  // A trail holds the call being agreed on (a to_global's target): where that differs, the
  // call is named below, not the calls before it.
  const bool trails_differ = numbers_differ || (trail_hashes_differ && !hashes_differ);
  // Out of step on the comm thread: no rank can raise where the others will see it.
  if (comm_thread && trail && trails_differ && !any_error) end_for_different_trails(g, call, *trail);
  const bool counts_differ = counted && trails_differ;
  // Every rank raises below together, without making the call: they count on from here alike.
  if (counted && (counts_differ || hashes_differ || any_error)) global_calls.restart();
  for (int r = 0; r < g.size(); ++r) {
    if (!all[r].has_error) continue;
    std::string message(messages[r].text);
    if (everyone) note_raised_on_every_rank(message);
    if (r != g.rank()) message += " (raised on rank " + std::to_string(g.world_ranks()[r]) + ")";
    throw_as(messages[r].error_class, message);
  }
  std::string differ;
  for (int r = 1; r < g.size(); ++r) {
    if (all[r].call_hash != all[0].call_hash) {
      differ += (differ.empty() ? "" : ", ") + std::to_string(g.world_ranks()[r]);
    }
  }
  if (differ.empty()) {
    if (counts_differ) raise_global_calls(g, call, counts);
    return;
  }
  // Every rank saw the difference: they say which calls they made, to tell calls made by
  // some ranks only (code under `if rank == 0:`) from one call with different arguments.
  Message mine_text{};
  call.copy(mine_text.text, sizeof(mine_text.text) - 1);
  messages.resize(g.size());
  gather(&mine_text, messages.data(), sizeof(Message));
  std::string calls;
  bool same_names = true;
  for (int r = 0; r < g.size(); ++r) {
    same_names = same_names && std::string(messages[r].text) == call;
    calls += (r ? "; rank " : "rank ") + std::to_string(g.world_ranks()[r]) + " in " + messages[r].text;
  }
  // The same call with different arguments, after different numbers of earlier calls: those
  // earlier calls, made by some ranks alone, are the cause.
  if (same_names && counts_differ) raise_global_calls(g, call, counts);
  const std::string message =
      same_names ? call + ": rank(s) " + differ + " made a different call than rank " +
                       std::to_string(g.world_ranks()[0]) +
                       " (placement, sbp, shape, dtype or attributes); every rank must make the same call"
                 : call + ": the ranks are in different calls (" + calls + "). " + kSameCallsRule;
  if (everyone) note_raised_on_every_rank(message);
  throw CollectiveMismatchError(message);
}

}  // namespace

void agree(const std::string& error, uint64_t call_hash, const std::string& call, const std::vector<int>& ranks,
           const CallTrail* trail) {
  agree_as(error, ErrorClass::kInvalidArgument, call_hash, call, ranks, trail);
}

void agree(std::exception_ptr error, uint64_t call_hash, const std::string& call, const std::vector<int>& ranks,
           const CallTrail* trail) {
  if (!error) return agree_as("", ErrorClass::kInvalidArgument, call_hash, call, ranks, trail);
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    agree_as(e.what(), class_of(e), call_hash, call, ranks, trail);
  } catch (...) {
    agree_as("unknown error", ErrorClass::kInvalidArgument, call_hash, call, ranks, trail);
  }
}

void end_for_different_trails(Group& g, const std::string& call, const CallTrail& trail) {
  struct Text {
    char text[400];
  };
  Text mine{};
  (call + " after " + trail.str()).copy(mine.text, sizeof(mine.text) - 1);
  std::vector<Text> texts(g.size());
  g.gather_metadata(&mine, texts.data(), sizeof(Text));
  std::string calls;
  for (int r = 0; r < g.size(); ++r) {
    calls += (r ? "; rank " : "rank ") + std::to_string(g.world_ranks()[r]) + " in " + texts[r].text;
  }
  // Every rank of the group found it at once: each says it before the first abort ends them.
  std::fprintf(stderr, "meshflow: rank %d: %s: the ranks are in different calls (%s). %s Ending the job\n",
               world_rank(), call.c_str(), calls.c_str(), kSameCallsRule);
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  abort_job("meshflow: rank " + std::to_string(world_rank()) + ": ending the job");
}

std::string CallTrail::str() const {
  return std::to_string(count) + " calls on global tensors, the last " + last + (grad ? "" : " (under no_grad)");
}

CallTrail call_trail() {
  return {global_calls.hash.load(std::memory_order_relaxed), global_calls.count.load(std::memory_order_relaxed),
          global_calls.last.load(std::memory_order_relaxed), global_calls.grad.load(std::memory_order_relaxed)};
}

bool raised_on_every_rank(const std::string& message) {
  std::lock_guard<std::mutex> lock(raised_mutex);
  return !raised_everywhere.empty() && message.compare(0, raised_everywhere.size(), raised_everywhere) == 0;
}

void on_comm_thread(const std::function<void()>& call) {
  if (funnel && !is_comm_thread) {
    funnel(call);
  } else {
    call();
  }
}

void install_funnel(std::function<void(const std::function<void()>&)> f, std::function<void()> d) {
  funnel = std::move(f);
  drain = std::move(d);
}

void finalize_first_at_exit() {
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(finalize); });
}

void mark_comm_thread(bool on) { is_comm_thread = on; }

void mark_exiting() {
  std::lock_guard<std::mutex> lock(running().mu);
  running().exiting = true;
}

void set_current_op(std::string op) { current_op = std::move(op); }

double comm_timeout() {
  static const double seconds = [] {
    const char* v = std::getenv("MESHFLOW_COMM_TIMEOUT");
    const double t = v && *v ? std::atof(v) : 300.0;
    return t > 0 ? t : 300.0;
  }();
  return seconds;
}

CollectiveWatch::CollectiveWatch(const char* collective, const std::vector<int>& group_ranks, int channel) {
  static std::once_flag started;
  std::call_once(started, [] { std::thread(watchdog_loop, comm_timeout()).detach(); });
  Running& r = running();
  std::lock_guard<std::mutex> lock(r.mu);
  serial_ = ++r.serial;
  r.last_change = std::chrono::steady_clock::now();
  r.active[serial_] = {std::string(collective) + " on group " + ranks_str(group_ranks) + " issued by " +
                           (current_op.empty() ? std::string("a direct call") : current_op),
                       group_ranks, r.last_change, channel, ++r.issued[{group_ranks, channel}]};
}

CollectiveWatch::~CollectiveWatch() {
  Running& r = running();
  std::lock_guard<std::mutex> lock(r.mu);
  r.active.erase(serial_);
  r.last_change = std::chrono::steady_clock::now();
}

Computing::Computing(bool counts) : counts_(counts) {
  if (counts_) computing.fetch_add(1);
}

Computing::~Computing() {
  if (!counts_) return;
  last_computed_ns.store(steady_ns(std::chrono::steady_clock::now()));
  computing.fetch_sub(1);
}

Among::Among(std::vector<int> ranks) : previous_(std::move(among_ranks)) { among_ranks = std::move(ranks); }

Among::~Among() { among_ranks = std::move(previous_); }

Group& among() { return among_ranks.empty() ? world() : group_of(among_ranks); }

void note_global_call(const char* name, uint64_t detail, bool grad) {
  if (!several_ranks() || !among_ranks.empty()) return;
  const std::thread::id first = first_collective_thread.load();
  if (first != std::thread::id() && first != std::this_thread::get_id()) return;
  uint64_t h = 14695981039346656037ull;  // FNV-1a of the name, then the details
  for (const char* c = name; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
  h = (h ^ detail ^ (grad ? 0 : 0x9e3779b97f4a7c15ull)) * 1099511628211ull;
  const uint64_t before = global_calls.hash.load(std::memory_order_relaxed);
  global_calls.hash.store((before ^ (before >> 29)) * 0xbf58476d1ce4e5b9ull + h, std::memory_order_relaxed);
  global_calls.count.fetch_add(1, std::memory_order_relaxed);
  global_calls.last.store(name, std::memory_order_relaxed);
  global_calls.grad.store(grad, std::memory_order_relaxed);
}

void check_collective_thread(const std::string& what) {
  if (!context || world_size() < 2) return;
  auto& first = first_collective_thread;
  std::thread::id none;
  const std::thread::id me = std::this_thread::get_id();
  if (first.compare_exchange_strong(none, me) || none == me) return;
  throw std::runtime_error(
      "[" + what + "] a collective issued from a second thread: every rank must issue its collectives in one order, "
      "which threads do not keep, so in a job of several ranks only the thread that issued the first collective may "
      "issue them (global ops, reads of global tensors, backward and optimizer steps over them, compiled graphs, "
      "mf.save and mf.load of global tensors). Issue them on that thread and hand the values read there to other "
      "threads");
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
