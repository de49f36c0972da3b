// Copyright 2026 The meshflow Authors.
// The process-wide communication context: the backend, the world group and a cache of
// sub-groups. Initialized lazily on first use (so `import meshflow` starts nothing); the
// backend is chosen there and reported by backend_name(), with the device backends that
// groups chose for their GPU buffers (group.h's DeviceComm).
//
// Threads: collectives must be issued in the same order on every rank, so they all run on
// one thread, in program order. Without the VM that is the caller's thread. The VM runs
// them on its comm stream and installs a *funnel*: a collective (or a group creation)
// issued from any other thread is run through it, on the comm stream after the work
// already queued there, and the caller waits for it (its exceptions reach the caller).
// A watchdog ends the job when one collective has run longer than MESHFLOW_COMM_TIMEOUT
// seconds (default 300), naming the collective, its group and the op that issued it; within
// seconds when the ranks wait in calls that can never complete: a rank that has exited, or
// every rank waiting, none computing, in calls the others are not in (code that only some
// ranks ran), naming each rank's call.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "meshflow/comm/group.h"

namespace mf::comm {

int world_rank();
int world_size();
// This process's index among the ranks on its host, and how many they are.
int local_rank();
int local_size();
Group& world();
// The group over `ranks` (world ranks, in this order), created on first use and cached.
// Creating one is collective over its members only; the caller must be a member.
Group& group_of(const std::vector<int>& ranks);
// "mpi", or "mpi+nccl" once a group moves GPU buffers with NCCL (after the collectives
// already issued: it waits for the comm stream).
std::string backend_name();
bool initialized();
// Whether this process is one of a job of several ranks, without starting MPI: the world's
// size once started, else the size mpirun gave the job (one when it was not launched so).
bool several_ranks();  // thread-safe
// Where the issuing thread is in the program's calls on global tensors (note_global_call): how
// many it made, the last, whether gradients were recorded for it, and a hash of them all (each
// call's name and details, in order). Ranks that make the same calls have the same trail at
// each collective; ranks in different calls (`if rank == 0:` around an evaluation whose
// collectives pair up with rank 1's next training step) differ there in the count, a name, a
// grad mode or a logical shape. The agreements and the status words of eager conversions
// carry its hash (boxing/execute.cc), so that such ranks stop at the first collective they
// pair up in, not after a value of one rank's call was read on another.
struct CallTrail {
  uint64_t hash = 0;
  int64_t count = 0;
  const char* last = "none";
  bool grad = true;
  // "12 calls on global tensors, the last linear (under no_grad)"
  std::string str() const;
};
// The trail of the thread that issues collectives, as of now. Thread-safe.
CallTrail call_trail();
// Collective over `ranks` (the world when empty; the caller must be one of them), so that
// they raise together instead of one raising while the others wait in the next collective.
// Each rank passes the error it hit (empty when none) and a hash of the call it is making;
// when any rank has an error, every rank throws the first one's message as its class
// (std::invalid_argument for a string; an exception's class in core/error.h's taxonomy, so
// that a bad index found by one rank is an IndexError on all); when the hashes differ, every rank throws one naming the ranks that made a
// different `call`; over the whole world from an issuing thread, also when the ranks' trails
// (call_trail) differ: they made different calls on global tensors before it. From the comm
// thread, `trail` (the trail of the call that issued the agreement, taken at issue) is
// compared, and ranks whose trails differ end the job, each naming every rank's call: they
// are out of step, and a raise would reach each only at its next read. Moves 32 bytes a rank,
// and the messages only when the ranks differ.
void agree(const std::string& error, uint64_t call_hash, const std::string& call, const std::vector<int>& ranks = {},
           const CallTrail* trail = nullptr);
void agree(std::exception_ptr error, uint64_t call_hash, const std::string& call, const std::vector<int>& ranks = {},
           const CallTrail* trail = nullptr);
// Ends the job on every rank of `g` whose trails differ (found alike on each, from the comm
// thread, by a collective that carried them): each rank names every rank's `call` and trail.
// Collective over `g`, on its metadata channel.
[[noreturn]] void end_for_different_trails(Group& g, const std::string& call, const CallTrail& trail);
// Whether `message` is (or begins with) that of the error the last failed agreement over
// the whole world raised: every rank raised it together, so a program that lets it end the
// process may end every rank alike, without aborting the job (the Python excepthook).
bool raised_on_every_rank(const std::string& message);

// Raises, naming `what`, unless this thread may issue a collective: in a job of one rank any
// may; in a job of several, the thread that issued the first one. Collectives must come in
// one order on every rank, which the order in which threads issue does not keep (a logging
// or checkpoint thread beside training). Called by everything that issues collectives: the
// VM's comm instructions and funneled calls, agree() from an issuing thread, a compiled
// graph's run.
void check_collective_thread(const std::string& what);
// Notes a call on global tensors (an op, a conversion) made by the thread that issues
// collectives: every rank makes each, in the same order, so at each agreement over the whole
// world (agree(), from that thread) every rank has made as many. A rank that made more or
// fewer ran some calls alone (`if rank == 0:` around a forward or a backward that needed no
// communication, whose results would then differ between ranks): the agreement raises on
// every rank, naming each rank's count and last call. Calls on a placement of one rank are
// that rank's own work (a local nn.Graph runs so): their callers do not note them. `name`
// must outlive the program (an op's name, a literal); `detail` hashes what else makes the call
// (logical shapes, layouts) and `grad` whether gradients are recorded (CallTrail). Thread-safe; once a collective has
// named the issuing thread, other threads' calls are not counted.
void note_global_call(const char* name, uint64_t detail = 0, bool grad = true);

// Runs `call` (which issues collectives) on the comm thread: directly when this is it or
// when no funnel is installed, else through the funnel.
void on_comm_thread(const std::function<void()>& call);
// The VM's hooks: `funnel` runs a call on the comm stream and waits for it; `drain` is
// called before MPI is finalized at exit (it must finish the queued collectives).
void install_funnel(std::function<void(const std::function<void()>&)> funnel, std::function<void()> drain);
// Makes the exit sequence (drain, the wait for every rank, freeing the communicators,
// MPI_Finalize) run before the exit handlers registered so far (it runs once): a library
// started after MPI whose runtime tears itself down at exit (NCCL, with the CUDA runtime
// linked into it) must still be alive when its communicators are freed.
void finalize_first_at_exit();
// Notes that the program has ended (its exit handlers wait for the queued work): the
// watchdog's report of ranks in different calls says so of this rank.
void mark_exiting();
// Marks the calling thread as the one collectives run on (the VM's comm stream worker), or,
// with false, unmarks it.
void mark_comm_thread(bool on = true);
// What the calling thread is issuing collectives for (an op's name), for the watchdog.
void set_current_op(std::string op);
// Seconds a collective may run before the watchdog ends the job (MESHFLOW_COMM_TIMEOUT).
double comm_timeout();
// The channels of a group whose calls are matched in order on every member: its collectives
// (the comm thread's), its agreements (Group::agree_bytes, from an issuing thread) and each
// pipeline lane (> 0, graph mode's transfers between stages).
constexpr int kCollectivesChannel = 0;
constexpr int kAgreementsChannel = -1;
// Watches one collective: registered while it runs (see group.cc). The calls of a channel
// are numbered in issue order, so that two ranks can tell whether they wait in the same one.
class CollectiveWatch {
 public:
  CollectiveWatch(const char* collective, const std::vector<int>& group_ranks, int channel = kCollectivesChannel);
  ~CollectiveWatch();
  CollectiveWatch(const CollectiveWatch&) = delete;
  CollectiveWatch& operator=(const CollectiveWatch&) = delete;

 private:
  uint64_t serial_;
};

// Marks the work of its scope (a kernel, a graph's act) as this rank computing, unless
// `counts` is false (communication, which the watches below follow), for the watchdog's test
// of whether every rank waits for another (comm.cc, "Ranks in different calls").
class Computing {
 public:
  explicit Computing(bool counts = true);
  ~Computing();
  Computing(const Computing&) = delete;
  Computing& operator=(const Computing&) = delete;

 private:
  bool counts_;
};

// Ends every rank of the job now, after printing `message` on this rank's stderr.
[[noreturn]] void abort_job(const std::string& message, int exit_code = 1);

}  // namespace mf::comm
