// Copyright 2026 The meshflow Authors.
// Placement (CONCEPTS section 1), SBP and N-d SBP, and the nested balanced split that gives
// each rank its region (section 2).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <unordered_set>

#include "meshflow/device/device.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace mf {
namespace {

// Runs `f`, expects std::invalid_argument, and checks that the message contains every one
// of `fragments`.
template <typename F>
void expect_invalid(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    for (const char* frag : fragments) EXPECT_NE(msg.find(frag), std::string::npos) << "'" << frag << "' not in: " << msg;
  }
}

TEST(Placement, TwoByTwo) {
  Placement p("cpu", {2, 2}, {0, 1, 2, 3});
  EXPECT_EQ(p.device_type(), "cpu");
  EXPECT_EQ(p.hierarchy(), (Shape{2, 2}));
  EXPECT_EQ(p.ndim(), 2);
  EXPECT_EQ(p.size(), 4);
  EXPECT_EQ(p.coordinate(0), (Shape{0, 0}));
  EXPECT_EQ(p.coordinate(1), (Shape{0, 1}));
  EXPECT_EQ(p.coordinate(2), (Shape{1, 0}));
  EXPECT_EQ(p.coordinate(3), (Shape{1, 1}));
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(p.parallel_id(r), r);
    EXPECT_EQ(p.rank_at(p.coordinate(r)), r);
    EXPECT_TRUE(p.contains(r));
  }
  EXPECT_EQ(p.parallel_id(4), -1);
  EXPECT_FALSE(p.contains(4));
  // Axis 0 groups are the columns, axis 1 groups the rows.
  EXPECT_EQ(p.axis_group(0, 0), (std::vector<int>{0, 2}));
  EXPECT_EQ(p.axis_group(3, 0), (std::vector<int>{1, 3}));
  EXPECT_EQ(p.axis_group(0, 1), (std::vector<int>{0, 1}));
  EXPECT_EQ(p.axis_group(3, 1), (std::vector<int>{2, 3}));
  EXPECT_EQ(p.str(), "placement(type=\"cpu\", ranks=[[0, 1], [2, 3]])");
}

TEST(Placement, TwoByThree) {
  Placement p("cpu", {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(p.coordinate(4), (Shape{1, 1}));
  EXPECT_EQ(p.coordinate(2), (Shape{0, 2}));
  EXPECT_EQ(p.rank_at({1, 2}), 5);
  EXPECT_EQ(p.axis_group(4, 0), (std::vector<int>{1, 4}));
  EXPECT_EQ(p.axis_group(4, 1), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(p.axis_group(0, 1), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(p.str(), "placement(type=\"cpu\", ranks=[[0, 1, 2], [3, 4, 5]])");
}

TEST(Placement, RanksInAnyOrder) {
  // Parallel ids follow the given order, not the rank numbers.
  Placement p("cpu", {2, 2}, {3, 1, 2, 0});
  EXPECT_EQ(p.parallel_id(3), 0);
  EXPECT_EQ(p.parallel_id(0), 3);
  EXPECT_EQ(p.coordinate(p.parallel_id(2)), (Shape{1, 0}));
  EXPECT_EQ(p.rank_at({0, 1}), 1);
  EXPECT_EQ(p.axis_group(2, 1), (std::vector<int>{2, 0}));
  EXPECT_EQ(p.axis_group(2, 0), (std::vector<int>{3, 2}));
  EXPECT_EQ(p.str(), "placement(type=\"cpu\", ranks=[[3, 1], [2, 0]])");
}

TEST(Placement, OneDimensional) {
  Placement p("cpu", {2, 5, 7});
  EXPECT_EQ(p.hierarchy(), (Shape{3}));
  EXPECT_EQ(p.ranks(), (std::vector<int>{2, 5, 7}));
  EXPECT_EQ(p.coordinate(2), (Shape{2}));
  EXPECT_EQ(p.axis_group(5, 0), (std::vector<int>{2, 5, 7}));
  EXPECT_EQ(p.str(), "placement(type=\"cpu\", ranks=[2, 5, 7])");
}

// Beyond a thousand ranks a placement prints as NumPy prints large arrays: the first and
// last three along each axis.
TEST(Placement, LargePlacementsPrintSummarized) {
  std::vector<int> ranks(64 * 32);
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int>(ranks.size() - i);
  const Placement p("cpu", {64, 32}, ranks);
  const std::string row0 = "[2048, 2047, 2046, ..., 2019, 2018, 2017]";
  const std::string last = "[32, 31, 30, ..., 3, 2, 1]";
  EXPECT_EQ(p.ranks_str().rfind("[" + row0 + ", ", 0), 0u) << p.ranks_str();
  EXPECT_NE(p.ranks_str().find("], ..., ["), std::string::npos) << p.ranks_str();
  EXPECT_EQ(p.ranks_str().substr(p.ranks_str().size() - last.size() - 1), last + "]");
  EXPECT_EQ(p.parallel_id(1), 64 * 32 - 1);
  EXPECT_EQ(p.parallel_id(2048), 0);
  EXPECT_EQ(p.parallel_id(0), -1);
  EXPECT_EQ(Placement("cpu", std::vector<int>(ranks.begin(), ranks.begin() + 1000)).ranks_str().find("..."),
            std::string::npos);
}

// A placement names any registered device type; the registry lists "cpu" first and
// refuses a type twice, and an unknown type's error lists the registered ones.
TEST(Placement, OnRegisteredDeviceTypes) {
  EXPECT_EQ(device::types().front(), "cpu");
  EXPECT_EQ(&device::get("cpu"), &device::cpu());
  expect_invalid([] { Placement("registered_later", {0}); }, {"'registered_later' is not a registered device type",
                                                                "registered: cpu"});
  device::register_type("registered_later", [](int) -> device::Device& { return device::cpu(); });
  EXPECT_TRUE(device::is_registered("registered_later"));
  EXPECT_EQ(device::types().back(), "registered_later");
  EXPECT_EQ(Placement("registered_later", {0, 1}).device_type(), "registered_later");
  EXPECT_NE(Placement("registered_later", {0, 1}), Placement("cpu", {0, 1}));
  expect_invalid([] { device::register_type("registered_later", [](int) -> device::Device& { return device::cpu(); }); },
                 {"already registered"});
  std::string registered;
  for (const std::string& t : device::types()) registered += (registered.empty() ? "" : ", ") + t;
  EXPECT_EQ(registered.rfind("cpu, testdev", 0), 0u) << registered;
  expect_invalid([] { device::get("tpu"); }, {"'tpu' is not a registered device type", registered.c_str()});
  expect_invalid([] { device::get("cpu", -1); }, {"index -1"});
}

TEST(Placement, EqualityAndHash) {
  Placement flat("cpu", {0, 1, 2, 3});
  Placement grid("cpu", {2, 2}, {0, 1, 2, 3});
  Placement grid2("cpu", {2, 2}, {0, 1, 2, 3});
  Placement other("cpu", {2, 2}, {0, 2, 1, 3});
  EXPECT_NE(flat, grid);  // same ranks, different hierarchy
  EXPECT_EQ(grid, grid2);
  EXPECT_NE(grid, other);
  EXPECT_EQ(grid.hash(), grid2.hash());
  std::unordered_set<Placement> set{flat, grid, grid2, other};
  EXPECT_EQ(set.size(), 3u);
}

TEST(Placement, Errors) {
  expect_invalid([] { Placement("cpu", {0, 1, 1}); }, {"rank 1", "repeated"});
  expect_invalid([] { Placement("cpu", {0, -2}); }, {"rank -2", "negative"});
  expect_invalid([] { Placement("cpu", {2, 3}, {0, 1, 2, 3}); }, {"hierarchy [2, 3]", "6", "4"});
  expect_invalid([] { Placement("xla", {0, 1}); }, {"'xla'", "cpu"});
  expect_invalid([] { Placement("cpu", {}); }, {"empty"});
  expect_invalid([] { Placement("cpu", {2, 0}, {}); }, {"empty"});
  expect_invalid([] { Placement("cpu", {2, 0}, {0, 1}); }, {"non-positive"});
}

TEST(Placement, CheckInWorld) {
  Placement p("cpu", {2, 2}, {0, 1, 2, 3});
  EXPECT_NO_THROW(p.check_in_world(4));
  EXPECT_NO_THROW(p.check_in_world(8));
  expect_invalid([&] { p.check_in_world(3); }, {"rank 3", "world of 3"});
}

TEST(Sbp, Str) {
  EXPECT_EQ(Sbp::split(0).str(), "S(0)");
  EXPECT_EQ(Sbp::split(2).str(), "S(2)");
  EXPECT_EQ(Sbp::broadcast().str(), "B");
  EXPECT_EQ(Sbp::partial_sum().str(), "P");
  EXPECT_EQ(Sbp::partial_max().str(), "P(max)");
  EXPECT_EQ(Sbp::partial_min().str(), "P(min)");
  EXPECT_EQ(to_string(NdSbp{Sbp::split(0), Sbp::broadcast()}), "(S(0), B)");
  EXPECT_EQ(to_string(NdSbp{Sbp::partial_max()}), "(P(max))");
  EXPECT_THROW(Sbp::split(-1), std::invalid_argument);
}

TEST(Sbp, KindsEqualityHash) {
  Sbp s = Sbp::split(1);
  EXPECT_TRUE(s.is_split());
  EXPECT_EQ(s.split_dim(), 1);
  EXPECT_TRUE(Sbp::broadcast().is_broadcast());
  EXPECT_TRUE(Sbp::partial_min().is_partial());
  EXPECT_EQ(Sbp::partial_min().reduce_op(), ReduceOp::kMin);
  EXPECT_EQ(Sbp::split(1), Sbp::split(1));
  EXPECT_NE(Sbp::split(1), Sbp::split(0));
  EXPECT_NE(Sbp::partial_sum(), Sbp::partial_max());
  EXPECT_NE(Sbp::partial_sum(), Sbp::broadcast());
  std::unordered_set<Sbp> set{Sbp::split(0), Sbp::split(1), Sbp::broadcast(), Sbp::partial_sum(),
                              Sbp::partial_max(), Sbp::partial_min(), Sbp::split(0)};
  EXPECT_EQ(set.size(), 6u);
  EXPECT_NE(hash_value({Sbp::split(0), Sbp::broadcast()}), hash_value({Sbp::broadcast(), Sbp::split(0)}));
}

TEST(Sbp, CheckNdSbp) {
  Placement p("cpu", {2, 2}, {0, 1, 2, 3});
  EXPECT_NO_THROW(check_nd_sbp({Sbp::split(1), Sbp::broadcast()}, p, 2));
  expect_invalid([&] { check_nd_sbp({Sbp::split(0)}, p, 2); }, {"(S(0))", "1 entries", "[2, 2]", "2 axes"});
  expect_invalid([&] { check_nd_sbp({Sbp::split(2), Sbp::broadcast()}, p, 2); }, {"S(2)", "2 dims"});
  expect_invalid([&] { check_nd_sbp({Sbp::broadcast(), Sbp::split(0)}, p, 0); }, {"S(0)", "0 dims"});
}

TEST(Sbp, BalancedPart) {
  EXPECT_EQ(balanced_part(5, 3, 0), (std::pair<int64_t, int64_t>{0, 2}));
  EXPECT_EQ(balanced_part(5, 3, 1), (std::pair<int64_t, int64_t>{2, 2}));
  EXPECT_EQ(balanced_part(5, 3, 2), (std::pair<int64_t, int64_t>{4, 1}));
  EXPECT_EQ(balanced_part(2, 4, 0), (std::pair<int64_t, int64_t>{0, 1}));
  EXPECT_EQ(balanced_part(2, 4, 1), (std::pair<int64_t, int64_t>{1, 1}));
  EXPECT_EQ(balanced_part(2, 4, 2), (std::pair<int64_t, int64_t>{2, 0}));
  EXPECT_EQ(balanced_part(2, 4, 3), (std::pair<int64_t, int64_t>{2, 0}));
  EXPECT_EQ(balanced_part(0, 3, 1), (std::pair<int64_t, int64_t>{0, 0}));
  // The parts tile [0, n) in order.
  for (int64_t n = 0; n < 12; ++n) {
    for (int64_t parts = 1; parts < 6; ++parts) {
      int64_t next = 0;
      for (int64_t i = 0; i < parts; ++i) {
        auto [start, size] = balanced_part(n, parts, i);
        EXPECT_EQ(start, next);
        EXPECT_EQ(size, n / parts + (i < n % parts ? 1 : 0));
        next += size;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(Sbp, LocalBoxNestedSplits) {
  const Shape h{2, 2};
  const NdSbp s00{Sbp::split(0), Sbp::split(0)};
  // 5 rows: outer parts of 3 and 2 rows, then 2 + 1 and 1 + 1.
  EXPECT_EQ(local_box({5, 4}, h, s00, {0, 0}), (Box{{0, 0}, {2, 4}}));
  EXPECT_EQ(local_box({5, 4}, h, s00, {0, 1}), (Box{{2, 0}, {1, 4}}));
  EXPECT_EQ(local_box({5, 4}, h, s00, {1, 0}), (Box{{3, 0}, {1, 4}}));
  EXPECT_EQ(local_box({5, 4}, h, s00, {1, 1}), (Box{{4, 0}, {1, 4}}));
  // Not the same as one flat split into 4 (2, 1, 1, 1 is equal here; 6 rows shows the difference:
  // nested gives 2, 1, 2, 1 where flat would give 2, 2, 1, 1).
  EXPECT_EQ(local_box({6}, h, s00, {0, 1}), (Box{{2}, {1}}));
  EXPECT_EQ(local_box({6}, h, s00, {1, 0}), (Box{{3}, {2}}));
  EXPECT_EQ(local_box({6}, h, s00, {1, 1}), (Box{{5}, {1}}));
}

TEST(Sbp, LocalBoxBroadcastAndPartialDoNotCut) {
  const Shape h{2, 2};
  const NdSbp bs0{Sbp::broadcast(), Sbp::split(0)};
  EXPECT_EQ(local_box({5, 4}, h, bs0, {0, 0}), (Box{{0, 0}, {3, 4}}));
  EXPECT_EQ(local_box({5, 4}, h, bs0, {1, 0}), (Box{{0, 0}, {3, 4}}));
  EXPECT_EQ(local_box({5, 4}, h, bs0, {1, 1}), (Box{{3, 0}, {2, 4}}));
  const NdSbp s0s1{Sbp::split(0), Sbp::split(1)};
  EXPECT_EQ(local_box({5, 3}, h, s0s1, {0, 0}), (Box{{0, 0}, {3, 2}}));
  EXPECT_EQ(local_box({5, 3}, h, s0s1, {0, 1}), (Box{{0, 2}, {3, 1}}));
  EXPECT_EQ(local_box({5, 3}, h, s0s1, {1, 0}), (Box{{3, 0}, {2, 2}}));
  EXPECT_EQ(local_box({5, 3}, h, s0s1, {1, 1}), (Box{{3, 2}, {2, 1}}));
  const NdSbp ps1{Sbp::partial_sum(), Sbp::split(1)};
  EXPECT_EQ(local_box({5, 3}, h, ps1, {1, 0}), (Box{{0, 0}, {5, 2}}));
  EXPECT_EQ(local_box({5, 3}, {3}, {Sbp::broadcast()}, {2}), Box::whole({5, 3}));
  // Scalars: nothing to cut.
  EXPECT_EQ(local_box({}, {2}, {Sbp::partial_sum()}, {1}), Box::whole({}));
  // More parts than elements: trailing ranks get empty boxes.
  EXPECT_EQ(local_box({2, 3}, {4}, {Sbp::split(0)}, {3}), (Box{{2, 0}, {0, 3}}));
}

}  // namespace
}  // namespace mf
