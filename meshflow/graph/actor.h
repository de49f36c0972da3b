// Copyright 2026 The meshflow Authors.
// Actors and registers (CONCEPTS section 7; seed article 001): how a compiled graph runs
// on one rank, with no central scheduler.
//
// Each task of the rank's plan is an actor; each output of a task is a register with
// `regst_num` slots. An actor acts on piece p (a step, or a micro-batch) when every register
// it reads holds piece p and every register it writes has a free slot; it runs its work on
// its stream of the device layer, then tells its consumers that piece p is there and its
// producers that it is done reading. A slot is free again once every consumer has read it,
// so `regst_num` bounds how far a producer runs ahead of its slowest consumer: that is the
// back pressure, and with regst_num >= 2 consecutive actors work on consecutive pieces at
// once (pipelining).
//
// Collectives must be issued in the same order on every rank, or MPI deadlocks (rank 0
// waits in one all-reduce while rank 1 waits in another). Actors of order group 0 (those
// that communicate) therefore act in one order fixed at compile time, the same on every
// rank of a communicator: piece by piece, and within a piece in the order of the plan,
// which is a topological order. A group may be cut in parts, the second trailing the first
// by `lead` pieces (part 0 of piece k + lead acts before part 1 of piece k) and the third
// following the second piece by piece: a pipeline stage's forward pass runs that many
// micro-batches ahead of its backward pass, as one-forward-one-backward does, instead of
// waiting behind it, and its weight gradients come after the rest of each backward pass.
// The compiler orders a pipeline stage's compute so too, for its memory plan (passes.h:
// memory). An actor of an order group waits for its turn even when its inputs are there;
// its inputs never depend on a later turn (no part reads a later part, and the lead fits
// the registers' slots), so every turn comes.
//
// Each stream gets one act at a time from the system, the lowest piece first, so a stream
// finishes what an earlier piece needs before it starts a later one. Messages between
// actors are counter updates under one mutex per system; acts run on the device's stream
// workers (or an actor's own stream), never under it.
//
// Thread-safety: run() from one thread at a time; acts run on stream workers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <queue>
#include <utility>
#include <mutex>
#include <string>
#include <vector>

#include "meshflow/device/device.h"

namespace mf::graph {

struct ActorSpec {
  std::string name;
  device::StreamKind stream = device::StreamKind::kCompute;
  std::vector<int> inputs;   // registers read
  std::vector<int> outputs;  // registers written
  // Actors of one order group (>= 0) act in one fixed order, piece by piece: group 0 for
  // those that communicate (above); the compiler puts compute actors in another, so that
  // they run in the plan's order and its memory plan can reuse more. -1: no order.
  int order_group = -1;
  // The work for one piece; it reads its inputs' slot piece % regst_num and writes its
  // outputs' slot piece % regst_num. An exception is kept and rethrown by run().
  std::function<void(int64_t piece)> act;
  device::Stream* own_stream = nullptr;  // if set, acts run there instead of on `stream` (a pipeline lane)
  // Its part of its order group (0, 1 or 2): part 1 trails part 0 by set_order_lead's
  // pieces, part 2 follows part 1 of the same piece.
  int order_part = 0;
  // Control inputs (OneFlow's ctrl registers): actors that must have acted on a piece before
  // this one acts on it, beyond those whose registers it reads. Each must come earlier in
  // every order group's order than this one (else it could wait for a turn behind itself).
  std::vector<int> after{};
};

class ActorSystem {
 public:
  // `regst_nums[r]`: register r's slot count (>= 1). Every register is written by exactly
  // one actor.
  ActorSystem(device::Device& device, std::vector<ActorSpec> actors, std::vector<int> regst_nums);

  // Part 1 of order group `group` trails its part 0 by `pieces` (>= 0; 0 by default), from
  // the next run() on; not while one runs.
  void set_order_lead(int group, int pieces);
  // How many order groups there are (the highest group of an actor, plus one).
  int order_groups() const { return static_cast<int>(groups_.size()); }

  // Runs every actor on pieces 0 .. pieces-1; returns when all have acted. Every act runs
  // even after one failed (a collective must still be issued on every rank); then the
  // first error is rethrown.
  void run(int64_t pieces);

  // The most slots of each register that held unread data at once, during the last run.
  const std::vector<int>& peak_in_use() const { return peak_; }
  size_t size() const { return actors_.size(); }

 private:
  struct RegisterState {
    int producer = -1;
    std::vector<int> consumers;
    int regst_num = 1;
    int64_t written = 0;
    std::vector<int64_t> read;  // per consumer
  };
  struct ActorState {
    int64_t acted = 0;  // pieces started
    int64_t done = 0;   // pieces completed
    bool running = false;
  };

  // The acts that may run, per stream: one at a time is launched, the lowest piece first,
  // then the lowest actor (plan order). A stream thus finishes what an earlier piece needs
  // before it starts on a later one: a pipeline stage hands each micro-batch on as soon as
  // it can, instead of taking every micro-batch through its first layer first.
  struct StreamQueue {
    device::Stream* stream;
    // (piece, actor): the smallest first.
    using Ready = std::pair<int64_t, int>;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;  // GUARDED_BY(mu_)
    bool busy = false;  // GUARDED_BY(mu_): an act of it is launched and not completed
  };
  void pump(StreamQueue& q);  // launches q's next ready act unless one runs. Requires mu_.
  void pump_all();            // Requires mu_.
  int64_t min_read(const RegisterState& r) const;
  // Makes actor a's next piece ready if it may act now. Requires mu_.
  void try_act(int a);
  void completed(int a);  // on a's stream worker, after its act

  device::Device& device_;
  std::vector<ActorSpec> actors_;
  struct OrderGroup {
    std::vector<int> parts[3];  // each part's actors, in plan order
    int lead = 0;
    std::vector<std::pair<int64_t, int>> turns;  // (piece, actor) in order, made by run()
    size_t next_turn = 0;                        // GUARDED_BY(mu_): the act whose turn it is
  };
  void order_turns(OrderGroup& g) const;  // g.turns for pieces_
  std::vector<OrderGroup> groups_;
  std::mutex mu_;
  std::condition_variable done_cv_;
  std::vector<RegisterState> registers_;  // GUARDED_BY(mu_)
  std::vector<ActorState> state_;         // GUARDED_BY(mu_)
  std::vector<int> peak_;                 // GUARDED_BY(mu_)
  std::vector<StreamQueue> queues_;  // one per stream the actors use
  std::vector<int> queue_of_;        // per actor
  std::vector<std::vector<int>> waiters_;  // per actor: those whose `after` names it
  int64_t pieces_ = 0;
  int64_t remaining_ = 0;   // GUARDED_BY(mu_): acts not yet completed
  std::exception_ptr error_;  // GUARDED_BY(mu_)
};

}  // namespace mf::graph
