// Copyright 2026 The meshflow Authors.
// How a group chooses between NCCL and the staged path for its GPU buffers
// (comm/nccl/selection.h): a pure function of the members' votes, tested without a GPU.
#include <gtest/gtest.h>

#include <vector>

#include "meshflow/comm/nccl/selection.h"

namespace mf::comm::nccl {
namespace {

// A vote for the GPU whose UUID is all `gpu`, able or not.
Vote vote(uint8_t gpu, bool able = true) {
  Vote v{};
  for (uint8_t& b : v.gpu) b = gpu;
  v.able = able;
  return v;
}

TEST(NcclSelection, EveryMemberOnAGpuOfItsOwnChoosesNccl) {
  EXPECT_TRUE(choose({vote(1)}).nccl);
  const Choice c = choose({vote(1), vote(2), vote(3), vote(4)});
  EXPECT_TRUE(c.nccl);
  EXPECT_EQ(c.why, "");
}

TEST(NcclSelection, MembersSharingAGpuAreStaged) {
  const Choice c = choose({vote(1), vote(2), vote(1), vote(3)});
  EXPECT_FALSE(c.nccl);
  EXPECT_EQ(c.why, "members 0 and 2 share a GPU");
  EXPECT_FALSE(choose({vote(7), vote(7)}).nccl);  // four ranks on the lent machine's one GPU alike
}

TEST(NcclSelection, GpusDifferingInOneByteAreDistinct) {
  Vote a = vote(5), b = vote(5);
  b.gpu[15] = 6;  // equal local indices on two hosts are two GPUs: only the UUID tells
  EXPECT_TRUE(choose({a, b}).nccl);
}

TEST(NcclSelection, OneMemberThatCannotStagesTheWholeGroup) {
  const Choice c = choose({vote(1), vote(2, /*able=*/false), vote(3)});
  EXPECT_FALSE(c.nccl);
  EXPECT_NE(c.why.find("member 1 cannot use NCCL"), std::string::npos) << c.why;
  EXPECT_FALSE(choose({vote(1, false)}).nccl);
  EXPECT_FALSE(choose({}).nccl);
}

TEST(NcclSelection, OnlyZeroInTheEnvironmentTurnsItOff) {
  EXPECT_TRUE(allowed_by(nullptr));
  EXPECT_TRUE(allowed_by("1"));
  EXPECT_TRUE(allowed_by(""));
  EXPECT_FALSE(allowed_by("0"));
}

}  // namespace
}  // namespace mf::comm::nccl
