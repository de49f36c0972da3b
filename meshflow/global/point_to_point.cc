// Copyright 2026 The meshflow Authors.
#include "meshflow/global/point_to_point.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/comm/comm.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

struct End {
  int64_t numel;
  int64_t dtype;
  int64_t sending;
};

std::string end_str(int rank, const End& e) {
  return "rank " + std::to_string(rank) + (e.sending ? " sends " : " receives ") + std::to_string(e.numel) + " " +
         dtype_name(static_cast<DType>(e.dtype)) + " elements";
}

void check_peer(const char* call, int peer) {
  if (peer < 0 || peer >= comm::world_size() || peer == comm::world_rank()) {
    throw std::invalid_argument(std::string("[") + call + "] peer rank " + std::to_string(peer) +
                                "; expected another rank of the job's " + std::to_string(comm::world_size()));
  }
}

// On the comm thread: the two ends check each other, then the bytes move.
void move_with(int peer, bool sending, const Tensor& buffer) {
  const int me = comm::world_rank();
  comm::Group& pair = comm::group_of({std::min(me, peer), std::max(me, peer)});
  const int other = pair.world_ranks()[0] == peer ? 0 : 1;
  End mine{buffer.numel(), static_cast<int64_t>(buffer.dtype()), sending}, theirs{};
  pair.exchange({{&mine, 3, other}}, {{&theirs, 3, other}}, DType::kInt64);
  if (theirs.sending == mine.sending || theirs.numel != mine.numel || theirs.dtype != mine.dtype) {
    throw std::invalid_argument(std::string(sending ? "[send] " : "[recv] ") + end_str(me, mine) + " but " +
                                end_str(peer, theirs) +
                                "; expected one to send and the other to receive, the same number and dtype");
  }
  const comm::Message message{const_cast<void*>(buffer.data()), buffer.numel(), other, &buffer.memory()};
  if (sending) {
    pair.exchange({message}, {}, buffer.dtype());
  } else {
    pair.exchange({}, {message}, buffer.dtype());
  }
}

vm::Flags collective() {
  vm::Flags flags;
  flags.run_on_failed_inputs = true;  // the peer waits for this end whatever it holds
  return flags;
}

}  // namespace

Tensor send_to(const Tensor& t, int peer) {
  check_peer("send", peer);
  return vm::launch("send", device::StreamKind::kComm, {t}, {{Shape{}, DType::kBool}},
                    [peer](const std::vector<Tensor>& in) {
                      move_with(peer, true, in[0]);
                      return std::vector<Tensor>{Tensor::zeros({}, DType::kBool)};
                    },
                    collective())[0];
}

Tensor receive_from(const Shape& shape, DType dtype, int peer) {
  check_peer("recv", peer);
  return vm::launch("recv", device::StreamKind::kComm, {}, {{shape, dtype}},
                    [peer, shape, dtype](const std::vector<Tensor>&) {
                      Tensor out = Tensor::empty(shape, dtype);
                      move_with(peer, false, out);
                      return std::vector<Tensor>{out};
                    },
                    collective())[0];
}

}  // namespace mf
