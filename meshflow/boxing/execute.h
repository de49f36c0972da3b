// Copyright 2026 The meshflow Authors.
// Runs boxing plans (plan.h) over the communication layer. Every rank of the world calls
// with the same arguments but its own local tensor; a rank outside a step's placements
// skips it. Ranks outside the target placement end with an empty local tensor.
// Devices: local tensors live in their placement's memory, whatever its device: the pieces
// are sliced, packed and reduced there (core/tensor.h's copy_box and reduce_into, which go
// through the memory), the collectives are handed those buffers (comm/group.h stages them
// where the backend does not take that memory), and the result lives in the target
// placement's memory.
// Call from one thread at a time (it drives the communicators).
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/boxing/plan.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/tensor.h"

namespace mf::boxing {

// What an eager conversion's collectives (a gradient bucket's too) tell each rank of the others'
// parts (global_tensor.h, launch_boxing). Each all-reduce and all-gather step carries one status
// word per member in its payload (a large payload: in an all-reduce of their own after it,
// execute.cc), set where that member's part failed: its input's error (`own`), a buffer of the
// conversion that passed the memory limit (core/allocator.h, LimitOverdraft: an out of memory
// on that rank alone), or a failure an earlier step told it of. So every member learns from the
// collective itself whether any failed (a small payload: with no collective of its own); only
// then do they exchange their messages (comm::agree over the step's group: on the failing path
// alone), and each member whose part did not fail takes the first failed member's error
// (`learned`), so that the result fails alike on every rank whose value depends on the failed
// part (a broadcast value is then read alone, global_tensor.h's whole_here, and still raises on
// every rank). Other steps carry nothing: their results (split, partial) are read through a
// collective read. Runs on the comm thread, as the steps do.
// A good part's word is not the reduction's identity but a fingerprint of the conversion and
// of `trail` (comm::CallTrail, taken when it was issued), as a number the dtype holds exactly:
// ranks whose words differ without a failure are in different calls whose collectives paired
// up, and end the job at once, each naming every rank's call (comm::end_for_different_trails).
struct PartStatus {
  std::string call;            // the conversion's name: its errors' prefix
  std::exception_ptr own;      // this rank's input's error
  std::exception_ptr learned;  // another rank's, learned by a step (set by execute)
  comm::CallTrail trail;
};

// `lane` > 0: the plan's steps are all point-to-point transfers, made on the calling thread
// with the lane's own message tag (comm/group.h, Group::exchange). The result is written
// into `*into` where that is a tensor of its local shape and dtype in the target's memory
// (graph mode's register; not memory the plan reads), else into new memory; a last step
// that keeps its input as it is (a broadcast kept) returns that input.
// With `status` (eager conversions, lane 0, no `into`), the steps carry it as above; a buffer
// refused by a limit is passed on to the caller's LimitOverdraft (the comm instruction's) once
// every step has run.
Tensor execute(const Plan& plan, const Shape& logical, const Tensor& local, int lane = 0, const Tensor* into = nullptr,
               PartStatus* status = nullptr);
// Whether every step of `plan` is a point-to-point transfer (it may then run on a lane).
bool transfers_only(const Plan& plan);
// cached_plan + execute.
Tensor box(const Tensor& local, const Shape& logical, const Layout& from, const Layout& to);
// Fusing conversions (gradient buckets): a plan whose every step is an all-reduce works
// elementwise on the local buffer, so several tensors' conversions can run as one
// collective per step on their concatenation. Plans with equal keys (and tensors of one
// dtype) issue the same collectives on the same groups; nullopt: the plan cannot be fused.
std::optional<std::string> fusion_key(const Plan& plan);
// Runs a fusable `plan` on every tensor of `locals` (one dtype) with one collective per
// step over a buffer holding them all; returns the results, as views of that buffer.
// With `status`, each all-reduce carries it as execute's do.
std::vector<Tensor> execute_fused(const Plan& plan, const std::vector<Tensor>& locals, PartStatus* status = nullptr);
// Moves local parts that hold `held_boxes` (by parallel id; e.g. uneven parts a user gave)
// to the balanced split of `layout`.
Tensor rebalance(const Tensor& local, const Shape& logical, const Layout& layout, const std::vector<Box>& held_boxes);
// The local tensor a rank outside a placement holds: every dim 0 (a 1-d empty for scalars),
// in the placement's memory.
Tensor empty_local(const Shape& logical, DType dtype, Memory& memory = host_memory());

}  // namespace mf::boxing
