// Copyright 2026 The meshflow Authors.
// torch.distributed's send and recv: a local tensor moved from one rank to another, a call
// that those two ranks make and no other (unlike global tensors' collectives, which every
// rank of the world makes). They run on the VM's comm stream in program order, over the
// pair's own group (comm::group_of), after the work that makes what is sent. Both ends first
// exchange what they hold (one sends, the other receives, the same shape and dtype), so a
// mismatch raises on both, naming both ends, instead of moving bytes that do not fit.
// Thread-safety: the issuing thread (comm::check_collective_thread).
#pragma once

#include "meshflow/core/tensor.h"

namespace mf {

// Issues the sending of `t`'s value (as at this call) to world rank `peer`; returns a 0-d
// tensor that is ready, or carries the error, once the peer has received it.
Tensor send_to(const Tensor& t, int peer);
// Issues the receiving from world rank `peer` of a tensor of `shape` and `dtype` (in the
// host's memory); returns it, pending.
Tensor receive_from(const Shape& shape, DType dtype, int peer);

}  // namespace mf
