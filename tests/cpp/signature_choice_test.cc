// Copyright 2026 The meshflow Authors.
// The signature chooser that eager planning and graph mode share (ops/signature_choice.h):
// its ranking and its partial rule, on candidates and costs given by the test.
#include <gtest/gtest.h>

#include <vector>

#include "meshflow/ops/signature_choice.h"

namespace mf {
namespace {

const Sbp S0 = Sbp::split(0), B = Sbp::broadcast(), P = Sbp::partial_sum();
const std::vector<TensorMeta> kOut{{{4, 4}, DType::kFloat32}};
const Shape kMesh{2};

// One input and one output on a [2] mesh.
NdSignature sig(const Sbp& in, const Sbp& out) { return {{{in}}, {{out}}}; }

// Boxing into B costs 100 bytes, anything else nothing.
int64_t gather_costs(size_t, const NdSbp& want) { return want[0].is_broadcast() ? 100 : 0; }
int64_t free_boxing(size_t, const NdSbp&) { return 0; }

TEST(SignatureChoice, CheapestFirst) {
  const SignatureChoice c = choose_signature({sig(B, B), sig(S0, S0)}, {{S0}}, kOut, kMesh, gather_costs);
  EXPECT_TRUE(c.valid);
  EXPECT_EQ(c.index, 1u);
  EXPECT_EQ(c.cost, 0);
}

TEST(SignatureChoice, ThenInputsKeptThenSmallerOutputsThenListedOrder) {
  // Equal costs: the candidate that takes its input as it is.
  EXPECT_EQ(choose_signature({sig(S0, S0), sig(B, B)}, {{B}}, kOut, kMesh, free_boxing).index, 1u);
  // Equal costs and kept inputs: the smaller output (S(0) holds half of B on each rank).
  EXPECT_EQ(choose_signature({sig(B, B), sig(B, S0)}, {{B}}, kOut, kMesh, free_boxing).index, 1u);
  // All equal: the first listed.
  EXPECT_EQ(choose_signature({sig(B, S0), sig(B, S0)}, {{B}}, kOut, kMesh, free_boxing).index, 0u);
}

TEST(SignatureChoice, NeverBoxesIntoPartial) {
  // Boxing B into P would cost nothing, but is never chosen...
  EXPECT_EQ(choose_signature({sig(P, P), sig(B, B)}, {{B}}, kOut, kMesh, free_boxing).index, 1u);
  EXPECT_TRUE(boxes_into_partial({B}, {P}));
  // ... and when nothing else is left, there is no valid choice.
  EXPECT_FALSE(choose_signature({sig(P, P)}, {{B}}, kOut, kMesh, free_boxing).valid);
  EXPECT_FALSE(choose_signature({}, {{B}}, kOut, kMesh, free_boxing).valid);
  // An input that is partial already may be taken as it is.
  EXPECT_FALSE(boxes_into_partial({P}, {P}));
  EXPECT_TRUE(choose_signature({sig(P, P)}, {{P}}, kOut, kMesh, free_boxing).valid);
}

}  // namespace
}  // namespace mf
