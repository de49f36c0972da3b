// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/signature_choice.h"

#include <tuple>

namespace mf {
namespace {

int64_t bytes_on_first_rank(const TensorMeta& m, const Shape& hierarchy, const NdSbp& nd_sbp) {
  return local_box(m.shape, hierarchy, nd_sbp, Shape(hierarchy.size(), 0)).numel() *
         static_cast<int64_t>(dtype_size(m.dtype));
}

}  // namespace

bool satisfies(const NdSignature& s, const Constraints& c) {
  if (c.signature && !(s == *c.signature)) return false;
  for (size_t i = 0; i < c.outputs.size() && i < s.outputs.size(); ++i) {
    if (c.outputs[i] && *c.outputs[i] != s.outputs[i]) return false;
  }
  return true;
}

bool boxes_into_partial(const NdSbp& have, const NdSbp& want) {
  for (size_t a = 0; a < want.size(); ++a) {
    if (want[a].is_partial() && want[a] != have[a]) return true;
  }
  return false;
}

SignatureChoice choose_signature(const std::vector<NdSignature>& candidates, const std::vector<NdSbp>& have,
                                 const std::vector<TensorMeta>& outputs, const Shape& hierarchy,
                                 const std::function<int64_t(size_t input, const NdSbp& want)>& box_cost) {
  SignatureChoice best;
  std::tuple<int64_t, int64_t, int64_t> best_key{0, 0, 0};  // cost, -kept, output bytes
  for (size_t s = 0; s < candidates.size(); ++s) {
    const NdSignature& nd = candidates[s];
    bool partial = false;
    for (size_t i = 0; i < have.size() && !partial; ++i) partial = boxes_into_partial(have[i], nd.inputs[i]);
    if (partial) continue;
    int64_t cost = 0, kept = 0, out_bytes = 0;
    for (size_t i = 0; i < have.size(); ++i) {
      cost += box_cost(i, nd.inputs[i]);
      kept += have[i] == nd.inputs[i];
    }
    for (size_t k = 0; k < outputs.size(); ++k) out_bytes += bytes_on_first_rank(outputs[k], hierarchy, nd.outputs[k]);
    const std::tuple<int64_t, int64_t, int64_t> key{cost, -kept, out_bytes};
    if (!best.valid || key < best_key) {
      best = {s, cost, true};
      best_key = key;
    }
  }
  return best;
}

}  // namespace mf
