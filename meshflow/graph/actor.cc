// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/actor.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "meshflow/comm/comm.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {

ActorSystem::ActorSystem(device::Device& device, std::vector<ActorSpec> actors, std::vector<int> regst_nums)
    : device_(device), actors_(std::move(actors)), registers_(regst_nums.size()), state_(actors_.size()),
      peak_(regst_nums.size(), 0) {
  for (size_t r = 0; r < regst_nums.size(); ++r) {
    if (regst_nums[r] < 1) throw std::invalid_argument("actor system: regst_num must be >= 1");
    registers_[r].regst_num = regst_nums[r];
  }
  for (size_t a = 0; a < actors_.size(); ++a) {
    for (int r : actors_[a].outputs) {
      if (r < 0 || r >= static_cast<int>(registers_.size()) || registers_[r].producer >= 0) {
        throw std::invalid_argument("actor system: register " + std::to_string(r) + " has no single producer");
      }
      registers_[r].producer = static_cast<int>(a);
    }
    for (int r : actors_[a].inputs) {
      if (r < 0 || r >= static_cast<int>(registers_.size())) {
        throw std::invalid_argument("actor system: actor '" + actors_[a].name + "' reads an unknown register");
      }
      registers_[r].consumers.push_back(static_cast<int>(a));
    }
    for (int b : actors_[a].after) {
      if (b < 0 || b >= static_cast<int>(actors_.size()) || b == static_cast<int>(a)) {
        throw std::invalid_argument("actor system: actor '" + actors_[a].name + "' waits for an unknown actor");
      }
    }
    if (const int g = actors_[a].order_group; g >= 0) {
      if (g >= static_cast<int>(groups_.size())) groups_.resize(g + 1);
      if (actors_[a].order_part < 0 || actors_[a].order_part > 2) {
        throw std::invalid_argument("actor system: actor '" + actors_[a].name + "' has order part " +
                                    std::to_string(actors_[a].order_part) + "; expected 0, 1 or 2");
      }
      groups_[g].parts[actors_[a].order_part].push_back(static_cast<int>(a));
    }
  }
  waiters_.resize(actors_.size());
  for (size_t a = 0; a < actors_.size(); ++a) {
    for (int b : actors_[a].after) waiters_[b].push_back(static_cast<int>(a));
  }
  for (size_t r = 0; r < registers_.size(); ++r) {
    if (registers_[r].producer < 0) throw std::invalid_argument("actor system: register " + std::to_string(r) + " has no producer");
  }
  for (const ActorSpec& spec : actors_) {
    device::Stream* stream = spec.own_stream ? spec.own_stream : &device_.stream(spec.stream);
    auto it = std::find_if(queues_.begin(), queues_.end(), [&](const StreamQueue& q) { return q.stream == stream; });
    if (it == queues_.end()) it = queues_.insert(queues_.end(), StreamQueue{stream, {}, false});
    queue_of_.push_back(static_cast<int>(it - queues_.begin()));
  }
}

void ActorSystem::set_order_lead(int group, int pieces) {
  if (group < 0 || group >= static_cast<int>(groups_.size()) || pieces < 0) {
    throw std::invalid_argument("actor system: no order group " + std::to_string(group) + " for a lead of " +
                                std::to_string(pieces) + " pieces");
  }
  groups_[group].lead = pieces;
}

void ActorSystem::order_turns(OrderGroup& g) const {
  g.turns.clear();
  auto add = [&](int part, int64_t piece) {
    for (int a : g.parts[part]) g.turns.emplace_back(piece, a);
  };
  for (int64_t k = 0; k < std::min<int64_t>(g.lead, pieces_); ++k) add(0, k);
  for (int64_t k = 0; k < pieces_; ++k) {
    if (k + g.lead < pieces_) add(0, k + g.lead);
    add(1, k);
    add(2, k);
  }
  g.next_turn = 0;
}

int64_t ActorSystem::min_read(const RegisterState& r) const {
  if (r.consumers.empty()) return r.written;
  return *std::min_element(r.read.begin(), r.read.end());
}

void ActorSystem::try_act(int a) {
  ActorState& s = state_[a];
  if (s.running || s.acted == pieces_) return;
  const int64_t piece = s.acted;
  const ActorSpec& spec = actors_[a];
  for (int r : spec.inputs) {
    if (registers_[r].written <= piece) return;  // piece not there yet
  }
  for (int b : spec.after) {
    if (state_[b].done <= piece) return;
  }
  for (int r : spec.outputs) {
    const RegisterState& reg = registers_[r];
    if (reg.written - min_read(reg) >= reg.regst_num) return;  // no free slot: back pressure
  }
  if (spec.order_group >= 0) {
    const OrderGroup& g = groups_[spec.order_group];
    if (g.next_turn == g.turns.size() || g.turns[g.next_turn] != std::make_pair(piece, a)) return;
  }
  s.running = true;
  ++s.acted;
  queues_[queue_of_[a]].ready.push({piece, a});  // launched by pump_all
}

void ActorSystem::pump_all() {
  for (StreamQueue& q : queues_) pump(q);
}

void ActorSystem::pump(StreamQueue& q) {
  if (q.busy || q.ready.empty()) return;
  const auto [piece, a] = q.ready.top();
  q.ready.pop();
  q.busy = true;
  q.stream->launch([this, a = a, piece = piece] {
    const ActorSpec& spec = actors_[a];
    const bool trace = vm::tracing();
    const int64_t start = trace ? vm::now_us() : 0;
    try {
      const comm::Computing computing(spec.stream != device::StreamKind::kComm);  // the watchdog's view (comm.h)
      spec.act(piece);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
    if (trace) {
      // With several pieces in flight (micro-batches), the span says which one it was.
      vm::record_span(pieces_ > 1 ? spec.name + " #" + std::to_string(piece) : spec.name, spec.stream, start,
                      vm::now_us());
    }
    completed(a);
  });
}

void ActorSystem::completed(int a) {
  std::lock_guard<std::mutex> lock(mu_);
  ActorState& s = state_[a];
  const ActorSpec& spec = actors_[a];
  s.running = false;
  ++s.done;
  for (int r : spec.outputs) {
    RegisterState& reg = registers_[r];
    ++reg.written;
    peak_[r] = std::max<int>(peak_[r], static_cast<int>(reg.written - min_read(reg)));
  }
  for (int r : spec.inputs) {
    RegisterState& reg = registers_[r];
    for (size_t c = 0; c < reg.consumers.size(); ++c) {
      if (reg.consumers[c] == a) ++reg.read[c];
    }
  }
  if (spec.order_group >= 0) ++groups_[spec.order_group].next_turn;
  --remaining_;
  queues_[queue_of_[a]].busy = false;
  // Messages: whoever may act now that this act is done.
  try_act(a);
  for (int r : spec.outputs) {
    for (int c : registers_[r].consumers) try_act(c);
  }
  for (int r : spec.inputs) try_act(registers_[r].producer);
  for (int w : waiters_[a]) try_act(w);
  if (spec.order_group >= 0) {
    const OrderGroup& g = groups_[spec.order_group];
    if (g.next_turn < g.turns.size()) try_act(g.turns[g.next_turn].second);
  }
  pump_all();
  if (remaining_ == 0) done_cv_.notify_all();
}

void ActorSystem::run(int64_t pieces) {
  if (pieces < 1) throw std::invalid_argument("actor system: pieces must be >= 1");
  std::unique_lock<std::mutex> lock(mu_);
  pieces_ = pieces;
  for (OrderGroup& g : groups_) order_turns(g);
  error_ = nullptr;
  remaining_ = pieces * static_cast<int64_t>(actors_.size());
  for (RegisterState& r : registers_) {
    r.written = 0;
    r.read.assign(r.consumers.size(), 0);
  }
  std::fill(peak_.begin(), peak_.end(), 0);
  for (ActorState& s : state_) {
    s.acted = 0;
    s.done = 0;
    s.running = false;
  }
  for (size_t a = 0; a < actors_.size(); ++a) try_act(static_cast<int>(a));
  pump_all();
  done_cv_.wait(lock, [&] { return remaining_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

}  // namespace mf::graph
