// Copyright 2026 The meshflow Authors.
#include "meshflow/global/point_to_point.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

// What one end moves with one peer, in order: numel and dtype of each send, then of each receive.
struct Plan {
  std::vector<int64_t> sends, receives;  // numel, dtype pairs
};

std::string moves_str(const std::vector<int64_t>& moves) {
  std::string out;
  for (size_t i = 0; i < moves.size(); i += 2) {
    out += (i ? ", " : "") + std::to_string(moves[i]) + " " + dtype_name(static_cast<DType>(moves[i + 1]));
  }
  return out;
}

std::string plan_str(int rank, const Plan& p) {
  const bool one = p.sends.size() + p.receives.size() == 2;
  if (one) {
    const std::vector<int64_t>& m = p.sends.empty() ? p.receives : p.sends;
    return "rank " + std::to_string(rank) + (p.sends.empty() ? " receives " : " sends ") + std::to_string(m[0]) +
           " " + dtype_name(static_cast<DType>(m[1])) + " elements";
  }
  return "rank " + std::to_string(rank) + " sends [" + moves_str(p.sends) + "] and receives [" +
         moves_str(p.receives) + "]";
}

void check_peer(const char* call, int peer) {
  if (peer < 0 || peer >= comm::world_size() || peer == comm::world_rank()) {
    throw std::invalid_argument(std::string("[") + call + "] peer rank " + std::to_string(peer) +
                                "; expected another rank of the job's " + std::to_string(comm::world_size()));
  }
}

// Whether sends notify their peers and receives take notices (point_to_point.h): in a world
// of two, the one candidate of a receive from any source is its sender.
bool notices() { return comm::world_size() > 2; }

std::vector<int64_t> moves_of(const std::vector<const Tensor*>& tensors) {
  std::vector<int64_t> out;
  for (const Tensor* t : tensors) {
    out.push_back(t->numel());
    out.push_back(static_cast<int64_t>(t->dtype()));
  }
  return out;
}

// Exchanges what each end has left to move with the other (counts first, then the moves).
Plan exchange_plans(comm::Group& pair, int other, const Plan& mine) {
  int64_t my_counts[2] = {static_cast<int64_t>(mine.sends.size()), static_cast<int64_t>(mine.receives.size())};
  int64_t their_counts[2] = {0, 0};
  pair.exchange({{my_counts, 2, other}}, {{their_counts, 2, other}}, DType::kInt64);
  std::vector<int64_t> my_moves = mine.sends, their_moves(static_cast<size_t>(their_counts[0] + their_counts[1]));
  my_moves.insert(my_moves.end(), mine.receives.begin(), mine.receives.end());
  std::vector<comm::Message> out, in;
  if (!my_moves.empty()) out.push_back({my_moves.data(), static_cast<int64_t>(my_moves.size()), other});
  if (!their_moves.empty()) in.push_back({their_moves.data(), static_cast<int64_t>(their_moves.size()), other});
  if (!out.empty() || !in.empty()) pair.exchange(out, in, DType::kInt64);
  const auto split = their_moves.begin() + static_cast<std::ptrdiff_t>(their_counts[0]);
  return Plan{std::vector<int64_t>(their_moves.begin(), split), std::vector<int64_t>(split, their_moves.end())};
}

// Whether `a` and `b` agree on their first `n` moves (numel, dtype pairs).
bool same_prefix(const std::vector<int64_t>& a, const std::vector<int64_t>& b, size_t n) {
  return std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(2 * n), b.begin());
}

// On the comm thread: the two ends exchange their plans, then move the part that matches (this
// end's first sends against the peer's first receives, and the reverse; sends and receives of
// one dtype go in one exchange, in order). The end with moves left (a batch that `isend`s
// then `recv`s while the peer's first batch only receives) goes on with the peer's next
// batches, as torch matches each message alone; the peer's call ends once its own moves are
// done. Both ends with moves left, or a move whose numel or dtype does not fit, raise on both.
// Each of the peer's sends this call moves, or drops on an error, has its notice taken (a later
// receive from any source must not take it), but for the first `noticed` receives, whose
// notices were taken before (receives from any source).
void move_with(int peer, std::vector<const Tensor*> sends, std::vector<const Tensor*> receives, size_t noticed = 0) {
  const int me = comm::world_rank();
  comm::Group& pair = comm::group_of({std::min(me, peer), std::max(me, peer)});
  const int other = pair.world_ranks()[0] == peer ? 0 : 1;
  auto take_notices = [&](size_t n) {
    for (size_t k = 0; notices() && k < n; ++k) {
      if (noticed > 0) {
        --noticed;
      } else {
        comm::world().take_notice({peer});
      }
    }
  };
  while (!sends.empty() || !receives.empty()) {
    const Plan mine{moves_of(sends), moves_of(receives)};
    const Plan theirs = exchange_plans(pair, other, mine);
    const size_t n_out = std::min(sends.size(), theirs.receives.size() / 2);
    const size_t n_in = std::min(receives.size(), theirs.sends.size() / 2);
    const bool theirs_left = 2 * n_out < theirs.receives.size() || 2 * n_in < theirs.sends.size();
    const bool mine_left = n_out < sends.size() || n_in < receives.size();
    if (!same_prefix(mine.sends, theirs.receives, n_out) || !same_prefix(mine.receives, theirs.sends, n_in) ||
        (mine_left && theirs_left)) {
      take_notices(theirs.sends.size() / 2);  // the peer drops them too
      const char* call = mine.sends.empty() ? "[recv] " : mine.receives.empty() ? "[send] " : "[send/recv] ";
      throw std::invalid_argument(call + plan_str(me, mine) + " but " + plan_str(peer, theirs) +
                                  "; expected each end to receive what the other sends, in order: the same numbers "
                                  "and dtypes");
    }
    const std::vector<const Tensor*> to(sends.begin(), sends.begin() + static_cast<std::ptrdiff_t>(n_out));
    const std::vector<const Tensor*> from(receives.begin(), receives.begin() + static_cast<std::ptrdiff_t>(n_in));
    std::set<DType> dtypes;
    for (const Tensor* t : to) dtypes.insert(t->dtype());
    for (const Tensor* t : from) dtypes.insert(t->dtype());
    for (DType dtype : dtypes) {
      std::vector<comm::Message> out, in;
      for (const Tensor* t : to) {
        if (t->dtype() == dtype) out.push_back({const_cast<void*>(t->data()), t->numel(), other, &t->memory()});
      }
      for (const Tensor* t : from) {
        if (t->dtype() == dtype) in.push_back({const_cast<void*>(t->data()), t->numel(), other, &t->memory()});
      }
      pair.exchange(out, in, dtype);
    }
    take_notices(n_in);
    sends.erase(sends.begin(), sends.begin() + static_cast<std::ptrdiff_t>(n_out));
    receives.erase(receives.begin(), receives.begin() + static_cast<std::ptrdiff_t>(n_in));
  }
}

}  // namespace

std::vector<Tensor> transfer_batch(const std::vector<Tensor>& sends, const std::vector<int>& send_peers,
                                   const std::vector<Receive>& receives) {
  if (sends.size() != send_peers.size()) {
    throw std::invalid_argument("transfer_batch: " + std::to_string(sends.size()) + " tensors to send but " +
                                std::to_string(send_peers.size()) + " peers; expected one peer per tensor");
  }
  for (int peer : send_peers) check_peer("send", peer);
  for (const Receive& r : receives) {
    if (r.peer != Receive::kAnySource) {
      check_peer("recv", r.peer);
      continue;
    }
    if (r.any_of.empty()) throw std::invalid_argument("[recv] from any source of no rank; expected candidate ranks");
    for (int peer : r.any_of) check_peer("recv", peer);
    if (r.any_of.size() > 1 && !notices()) {
      throw std::logic_error("[recv] from any of " + std::to_string(r.any_of.size()) + " ranks in a world of two");
    }
  }
  std::vector<TensorMeta> outputs{{Shape{}, DType::kBool}};
  for (const Receive& r : receives) outputs.push_back({r.shape, r.dtype});
  for (const Receive& r : receives) {
    if (r.peer == Receive::kAnySource) outputs.push_back({Shape{}, DType::kInt64});
  }
  vm::Flags flags;
  flags.run_on_failed_inputs = true;  // the peers wait for this end whatever it holds
  return vm::launch(
      receives.empty() ? "send" : sends.empty() ? "recv" : "send/recv", device::StreamKind::kComm, sends, outputs,
      [send_peers, receives](const std::vector<Tensor>& in) {
        std::vector<Tensor> out{Tensor::zeros({}, DType::kBool)};
        for (const Receive& r : receives) out.push_back(Tensor::empty(r.shape, r.dtype));
        comm::Group& world = comm::world();
        if (notices()) {
          for (int peer : send_peers) world.notify(peer);
        }
        std::set<int> peers(send_peers.begin(), send_peers.end());
        for (const Receive& r : receives) {
          if (r.peer != Receive::kAnySource) peers.insert(r.peer);
        }
        for (int peer : peers) {  // in rank order on every rank: no cycle of waits
          std::vector<const Tensor*> to, from;
          for (size_t i = 0; i < in.size(); ++i) {
            if (send_peers[i] == peer) to.push_back(&in[i]);
          }
          for (size_t i = 0; i < receives.size(); ++i) {
            if (receives[i].peer == peer) from.push_back(&out[i + 1]);
          }
          move_with(peer, to, from);
        }
        for (size_t i = 0; i < receives.size(); ++i) {
          const Receive& r = receives[i];
          if (r.peer != Receive::kAnySource) continue;
          const int sender = notices() ? world.take_notice(r.any_of) : r.any_of[0];
          move_with(sender, {}, {&out[i + 1]}, /*noticed=*/1);
          out.push_back(Tensor::empty({}, DType::kInt64));
          *out.back().data_as<int64_t>() = sender;
        }
        return out;
      },
      flags);
}

Tensor send_to(const Tensor& t, int peer) { return transfer_batch({t}, {peer}, {})[0]; }

Tensor receive_from(const Shape& shape, DType dtype, int peer) {
  return transfer_batch({}, {}, {{shape, dtype, peer}})[1];
}

}  // namespace mf
