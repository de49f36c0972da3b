// Copyright 2026 The meshflow Authors.
// The one rule that picks an op call's N-d signature among its candidates (dispatch.h says
// the rule and why), shared by eager planning (dispatch.cc) and graph mode, whose
// whole-graph search starts from it (graph/sbp_passes.cc): a fix or a new rule lands here
// once. Each caller brings its own candidates and its own boxing cost.
//
// Thread-safety: pure functions (the cost callback is called on the caller's thread).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "meshflow/ops/dispatch.h"
#include "meshflow/ops/op.h"

namespace mf {

// Whether `s` is the signature the constraints force, if any, and gives the output SBPs
// they ask for.
bool satisfies(const NdSignature& s, const Constraints& constraints);

// Whether boxing an input of N-d SBP `have` into `want` would make it partial: never done,
// as it costs no bytes here but makes every later consumer reduce (S(0) + S(1) would
// otherwise become P + P).
bool boxes_into_partial(const NdSbp& have, const NdSbp& want);

struct SignatureChoice {
  size_t index = 0;   // into the candidates
  int64_t cost = 0;   // the bytes of boxing its inputs
  bool valid = false; // false: every candidate boxes an input into partial (index 0 then)
};

// Among `candidates` (valid for the op and its constraints, in listed order), the one with
// the least bytes of boxing its inputs, then the most inputs taken as they are, then the
// fewest output bytes on one rank, then the first listed; those that box an input into
// partial are never chosen. `have[i]`: input i's N-d SBP; `box_cost(i, want)`: the bytes of
// boxing input i into `want` on the op's placement; `outputs`: the output metas for each
// candidate's output SBPs on a mesh of shape `hierarchy`.
SignatureChoice choose_signature(const std::vector<NdSignature>& candidates, const std::vector<NdSbp>& have,
                                 const std::vector<TensorMeta>& outputs, const Shape& hierarchy,
                                 const std::function<int64_t(size_t input, const NdSbp& want)>& box_cost);

}  // namespace mf
