// Copyright 2026 The meshflow Authors.
// torch.distributed's send and recv: local tensors moved between ranks, a call that the ranks
// of each transfer make and no other (unlike global tensors' collectives, which every rank of
// the world makes). They run on the VM's comm stream in program order, over each pair's own
// group (comm::group_of), after the work that makes what is sent. A batch (torch's
// batch_isend_irecv, or isend / irecv calls made before a wait) moves all of its transfers at
// once, so two ranks that each send to the other and then receive (a ring) do not wait on
// each other; a lone send or recv is a batch of one. With each peer, both ends first exchange
// what they move (the counts and dtypes of every send and receive, in order) and move the part
// that matches; an end with moves left goes on with the peer's next batches (torch matches
// each message alone), so an `isend` then `recv` meets an `irecv().wait()` then `send`. A
// mismatch, or moves left on both ends, raises on both, naming both ends, instead of moving
// bytes that do not fit or waiting forever. Peers are visited in rank order, which every rank
// follows, so batches of several peers cannot wait in a cycle. A receive from any source
// (torch's recv without src) learns its sender from a notice: in a world of more than two
// ranks, every send notifies its peer (comm::Group::notify) as its batch starts, and every
// receive takes one notice of its peer, after its move (named peer) or before it (any
// source: the first candidate whose notice is there, whose next send it then takes). A
// batch's receives from any source are matched after its transfers with named peers (so a
// batch that sends to a rank and receives its reply from any source completes); a ring in
// which every rank sends and receives from any source in one batch waits forever (name src).
// Thread-safety: the issuing thread (comm::check_collective_thread).
#pragma once

#include <vector>

#include "meshflow/core/tensor.h"

namespace mf {

// A receive of a batch: a tensor of `shape` and `dtype` (in the host's memory) from world rank
// `peer`, or, where `peer` is kAnySource, from whichever of the world ranks `any_of` sends first.
struct Receive {
  static constexpr int kAnySource = -1;
  Shape shape;
  DType dtype;
  int peer;
  std::vector<int> any_of = {};
};

// Issues the batch: `sends[i]`'s value (as at this call) to world rank `send_peers[i]`, and
// each receive. Returns a 0-d tensor that is ready, or carries the error, once every transfer
// is done, then each received tensor, pending, then for each receive from any source (in
// order) its sender's world rank (an int64 0-d tensor, pending). Its k-th receive from a peer
// takes the peer's k-th send to this rank not taken before (in this batch or the peer's later ones).
std::vector<Tensor> transfer_batch(const std::vector<Tensor>& sends, const std::vector<int>& send_peers,
                                   const std::vector<Receive>& receives);

// A batch of one send; returns its ready-or-error tensor.
Tensor send_to(const Tensor& t, int peer);
// A batch of one receive; returns the tensor, pending.
Tensor receive_from(const Shape& shape, DType dtype, int peer);

}  // namespace mf
