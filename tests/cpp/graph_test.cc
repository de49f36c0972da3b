// Copyright 2026 The meshflow Authors.
// Graph mode's runtime on one process (no MPI): actors and registers (back pressure, the
// fixed order of communicating actors, errors), the memory planner, and the compiler's
// checks between passes. Also run under ThreadSanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "meshflow/graph/actor.h"
#include "meshflow/graph/compile.h"
#include "meshflow/graph/passes.h"
#include "meshflow/graph/recompute.h"
#include "meshflow/graph/zero.h"
#include "meshflow/ops/op.h"
#include "meshflow/vm/vm.h"

namespace mf::graph {
namespace {

using device::StreamKind;

// A chain source -> middle -> sink over registers 0 and 1, each with `regst_num` slots;
// the sink is slow. Counts the slots of each register in use at once from the actors' side.
TEST(Graph, BackPressureBoundsRegistersInUse) {
  for (int regst_num : {1, 2, 3}) {
    const int64_t pieces = 12;
    std::mutex mu;
    std::vector<int64_t> produced(2, 0), consumed(2, 0);
    std::vector<int64_t> most(2, 0);
    std::vector<int64_t> sink_order;
    auto write = [&](int r) {
      std::lock_guard<std::mutex> lock(mu);
      most[r] = std::max(most[r], ++produced[r] - consumed[r]);
    };
    auto read = [&](int r) {
      std::lock_guard<std::mutex> lock(mu);
      ++consumed[r];
    };
    std::vector<ActorSpec> actors(3);
    actors[0] = {"source", StreamKind::kHostToDevice, {}, {0}, -1, [&](int64_t) { write(0); }};
    actors[1] = {"middle", StreamKind::kComm, {0}, {1}, -1, [&](int64_t) {
                   read(0);
                   write(1);
                 }};
    actors[2] = {"sink", StreamKind::kCompute, {1}, {}, -1, [&](int64_t p) {
                   std::this_thread::sleep_for(std::chrono::milliseconds(1));
                   read(1);
                   std::lock_guard<std::mutex> lock(mu);
                   sink_order.push_back(p);
                 }};
    ActorSystem system(vm::device(), actors, {regst_num, regst_num});
    system.run(pieces);
    ASSERT_EQ(static_cast<int64_t>(sink_order.size()), pieces);
    for (int64_t p = 0; p < pieces; ++p) EXPECT_EQ(sink_order[p], p);
    for (int r = 0; r < 2; ++r) {
      EXPECT_LE(system.peak_in_use()[r], regst_num) << "register " << r;
      EXPECT_LE(most[r], regst_num) << "register " << r;
    }
    // The producer (on a stream of its own) runs ahead as far as the slots let it, no further.
    EXPECT_EQ(system.peak_in_use()[1], regst_num);
  }
}

// Ordered actors act in their fixed order, piece by piece, even when a later one is ready
// first (as collectives must be issued in one order on every rank).
TEST(Graph, OrderedActorsKeepTheirOrder) {
  std::mutex mu;
  std::vector<std::string> order;
  auto log = [&](const std::string& s) {
    std::lock_guard<std::mutex> lock(mu);
    order.push_back(s);
  };
  std::vector<ActorSpec> actors(3);
  // "slow" feeds the first ordered actor; the second is ready at once.
  actors[0] = {"slow", StreamKind::kCompute, {}, {0}, -1, [&](int64_t) {
                 std::this_thread::sleep_for(std::chrono::milliseconds(5));
               }};
  actors[1] = {"first", StreamKind::kComm, {0}, {}, 0, [&](int64_t p) { log("first" + std::to_string(p)); }};
  actors[2] = {"second", StreamKind::kComm, {}, {}, 0, [&](int64_t p) { log("second" + std::to_string(p)); }};
  ActorSystem system(vm::device(), actors, {2});
  system.run(2);
  EXPECT_EQ(order, (std::vector<std::string>{"first0", "second0", "first1", "second1"}));
}

// An actor with control inputs (ActorSpec::after) acts on a piece only once they have acted
// on it, though it reads nothing of theirs (ZeRO's prefetch windows, graph/zero.h): here a
// collective waits for a slow compute act, piece by piece.
TEST(Graph, ActorsWaitForTheirControlInputs) {
  std::mutex mu;
  std::vector<std::string> order;
  auto log = [&](const std::string& s) {
    std::lock_guard<std::mutex> lock(mu);
    order.push_back(s);
  };
  std::vector<ActorSpec> actors(2);
  actors[0] = {"slow", StreamKind::kCompute, {}, {}, -1, [&](int64_t p) {
                 std::this_thread::sleep_for(std::chrono::milliseconds(5));
                 log("slow" + std::to_string(p));
               }};
  actors[1] = {"waits", StreamKind::kComm, {}, {}, 0, [&](int64_t p) { log("waits" + std::to_string(p)); }};
  actors[1].after = {0};
  ActorSystem system(vm::device(), actors, {});
  system.run(2);
  ASSERT_EQ(order.size(), 4u);
  for (int p = 0; p < 2; ++p) {
    const auto at = [&](const std::string& s) { return std::find(order.begin(), order.end(), s) - order.begin(); };
    EXPECT_LT(at("slow" + std::to_string(p)), at("waits" + std::to_string(p)));
  }
  actors[1].after = {1};
  EXPECT_THROW(ActorSystem(vm::device(), actors, {}), std::invalid_argument);
}

// A group's part 1 trails its part 0 by the lead (a pipeline stage's backward pass behind
// its forward one, one forward one backward) and part 2 follows part 1 piece by piece (the
// weight gradients), still one fixed order; the later parts' actors are ready first at
// every piece and wait their turn.
TEST(Graph, OrderedActorsOfThreePartsKeepTheLead) {
  std::mutex mu;
  std::vector<std::string> order;
  auto log = [&](const std::string& s) {
    std::lock_guard<std::mutex> lock(mu);
    order.push_back(s);
  };
  std::vector<ActorSpec> actors(4);
  actors[0] = {"slow", StreamKind::kCompute, {}, {0}, -1, [&](int64_t) {
                 std::this_thread::sleep_for(std::chrono::milliseconds(2));
               }};
  actors[1] = {"forward", StreamKind::kComm, {0}, {}, 0, [&](int64_t p) { log("F" + std::to_string(p)); }};
  actors[2] = {"weights", StreamKind::kComm, {}, {}, 0, [&](int64_t p) { log("W" + std::to_string(p)); }};
  actors[3] = {"backward", StreamKind::kComm, {}, {}, 0, [&](int64_t p) { log("B" + std::to_string(p)); }};
  actors[2].order_part = 2;
  actors[3].order_part = 1;
  ActorSystem system(vm::device(), actors, {3});
  EXPECT_EQ(system.order_groups(), 1);
  system.set_order_lead(0, 2);
  system.run(4);
  EXPECT_EQ(order, (std::vector<std::string>{"F0", "F1", "F2", "B0", "W0", "F3", "B1", "W1", "B2", "W2", "B3", "W3"}));
  order.clear();
  system.set_order_lead(0, 0);  // one piece after another
  system.run(2);
  EXPECT_EQ(order, (std::vector<std::string>{"F0", "B0", "W0", "F1", "B1", "W1"}));
  EXPECT_THROW(system.set_order_lead(1, 1), std::invalid_argument);
  actors[2].order_part = 3;
  EXPECT_THROW(ActorSystem(vm::device(), actors, {3}), std::invalid_argument);
}

TEST(Graph, ActErrorsAreRaisedAfterEveryActRan) {
  std::atomic<int> ran{0};
  std::vector<ActorSpec> actors(2);
  actors[0] = {"bad", StreamKind::kCompute, {}, {0}, -1, [&](int64_t) {
                 ++ran;
                 throw std::invalid_argument("[bad] broken");
               }};
  actors[1] = {"after", StreamKind::kComm, {0}, {}, 0, [&](int64_t) { ++ran; }};
  ActorSystem system(vm::device(), actors, {1});
  EXPECT_THROW(
      {
        try {
          system.run(3);
        } catch (const std::invalid_argument& e) {
          EXPECT_STREQ(e.what(), "[bad] broken");
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_EQ(ran.load(), 6);
  EXPECT_THROW(ActorSystem(vm::device(), {{"x", StreamKind::kCompute, {}, {0}, -1, {}}}, {0}), std::invalid_argument);
}

// The memory plan on a chain t0 -> t1 -> t2 -> t3: r0 (t0 -> t1) and r2 (t2 -> t3) never
// live together, so they share; r1 overlaps both.
TEST(Graph, ArenaReusesMemoryOnlyAcrossOrderedLifetimes) {
  std::vector<RegisterUse> regs{{1000, 0, {1}}, {500, 1, {2}}, {1000, 2, {3}}};
  auto chain = [](int a, int b) { return a < b; };
  std::vector<int64_t> offsets;
  const int64_t arena = plan_arena(regs, chain, offsets);
  EXPECT_EQ(offsets[0], offsets[2]);
  EXPECT_EQ(arena, 1024 + 512);
  EXPECT_EQ(max_live_bytes(regs, 4), 1024 + 512);
  // Without an order between the tasks (two streams), nothing shares.
  auto none = [](int, int) { return false; };
  EXPECT_EQ(plan_arena(regs, none, offsets), 1024 + 512 + 1024);
  // Every pair that may overlap in time gets disjoint memory.
  for (size_t a = 0; a < regs.size(); ++a) {
    for (size_t b = a + 1; b < regs.size(); ++b) {
      const bool disjoint = offsets[a] + regs[a].bytes <= offsets[b] || offsets[b] + regs[b].bytes <= offsets[a];
      EXPECT_TRUE(disjoint);
    }
  }
}

// A graph of an argument x and one op y = relu(x), with x's layout and the op's signature
// given: check_graph's material.
LogicalGraph relu_graph(const NdSbp& x_sbp, const NdSbp& takes) {
  const Placement mesh("cpu", std::vector<int>{0, 1});
  LogicalGraph g;
  g.values.push_back({{4, 2}, DType::kFloat32, {mesh, x_sbp}, 0, 0});
  g.values.push_back({{4, 2}, DType::kFloat32, {mesh, takes}, 1, 0});
  g.nodes.emplace_back(NodeKind::kInput, "argument 0", std::vector<int>{}, std::vector<int>{0});
  g.nodes.emplace_back(NodeKind::kOp, "relu", std::vector<int>{0}, std::vector<int>{1});
  g.nodes[1].signature = NdSignature{{takes}, {takes}};
  g.outputs = {1};
  return g;
}

template <typename F>
std::string logic_error_of(F f) {
  try {
    f();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(nothing raised)";
}

// Deliberately broken graphs: each invariant passes.h states is caught, naming the pass.
TEST(Graph, ChecksBetweenPassesCatchBrokenGraphs) {
  const NdSbp S0{Sbp::split(0)}, B{Sbp::broadcast()};
  EXPECT_NO_THROW(check_graph(relu_graph(S0, S0), true, "test"));
  // A consumer whose signature takes another layout than its input's: wrong once boxing is
  // explicit, expected before.
  EXPECT_NO_THROW(check_graph(relu_graph(B, S0), false, "sbp"));
  EXPECT_NE(logic_error_of([&] { check_graph(relu_graph(B, S0), true, "fusion"); })
                .find("after the fusion pass, input 0 of relu (node 1) is %0 in"),
            std::string::npos);
  // A value nothing produces.
  LogicalGraph orphan = relu_graph(S0, S0);
  orphan.values.push_back(orphan.values[0]);
  orphan.values[2].producer = -1;
  orphan.nodes[1].inputs = {2};
  EXPECT_NE(logic_error_of([&] { check_graph(orphan, true, "boxing"); }).find("reads %2, which no node produces"),
            std::string::npos);
  // A node listing an output another node produces.
  LogicalGraph stolen = relu_graph(S0, S0);
  stolen.nodes[0].outputs = {0, 1};
  EXPECT_NE(logic_error_of([&] { check_graph(stolen, true, "cleanup"); }).find("lists output %1"), std::string::npos);
  // A cycle: relu reads its own result.
  LogicalGraph cycle = relu_graph(S0, S0);
  cycle.nodes[1].inputs = {1};
  EXPECT_NE(logic_error_of([&] { check_graph(cycle, true, "tasks"); }).find("relu (node 1) is on a cycle"),
            std::string::npos);
}

// x -> a = relu(x) -> b = relu(a) in checkpointed region 0; c = relu(b) after it (forward);
// d = mul(a, c) traced with grad mode off (a backward op reading the region's activation a).
LogicalGraph checkpointed_graph() {
  const Placement mesh("cpu", std::vector<int>{0});
  const NdSbp B{Sbp::broadcast()};
  LogicalGraph g;
  g.checkpoints = {Recompute::kFull};
  for (int v = 0; v < 5; ++v) g.values.push_back({{4, 2}, DType::kFloat32, {mesh, B}, v, 0});
  g.nodes.emplace_back(NodeKind::kInput, "argument 0", std::vector<int>{}, std::vector<int>{0});
  auto op = [&](const char* name, std::vector<int> in, int out, int region, bool no_grad) {
    g.nodes.emplace_back(NodeKind::kOp, name, in, std::vector<int>{out});
    Node& node = g.nodes.back();
    node.op = &find_op(name);
    node.signature = NdSignature{std::vector<NdSbp>(in.size(), B), {B}};
    node.checkpoint = region;
    node.no_grad = no_grad;
  };
  op("relu", {0}, 1, 0, false);
  op("relu", {1}, 2, 0, false);
  op("relu", {2}, 3, -1, false);
  op("mul", {1, 3}, 4, -1, true);
  g.outputs = {4};
  return g;
}

// The recompute pass copies what backward reads of a checkpointed region (not the region's
// output, which forward reads after it) just before that reader; its check catches a
// backward op reading the dropped activation and a copy of another op.
TEST(Graph, RecomputeCopiesTheRegionBeforeItsBackwardReader) {
  LogicalGraph g = checkpointed_graph();
  const RecomputeStats stats = recompute_activations(g);
  EXPECT_EQ(stats.regions, 1);
  EXPECT_EQ(stats.recomputed_ops, 1);
  EXPECT_EQ(stats.dropped_bytes, 4 * 2 * 4);
  ASSERT_EQ(g.nodes.size(), 6u);
  EXPECT_EQ(g.nodes[4].recomputes, 1);  // relu(x) again, just before mul
  EXPECT_EQ(g.nodes[4].inputs, std::vector<int>{0});
  EXPECT_EQ(g.nodes[5].name, "mul");
  EXPECT_EQ(g.nodes[5].inputs, (std::vector<int>{g.nodes[4].outputs[0], 3}));
  EXPECT_NO_THROW(check_graph(g, true, "recompute"));
  EXPECT_NO_THROW(check_recomputed(g, "recompute"));
  LogicalGraph kept = g;
  kept.nodes[5].inputs[0] = 1;
  EXPECT_NE(logic_error_of([&] { check_recomputed(kept, "recompute"); })
                .find("mul (node 5, backward) reads %1, an activation of checkpointed region 0"),
            std::string::npos);
  LogicalGraph other = g;
  other.nodes[4].op = &find_op("mul");
  other.nodes[4].name = "mul";
  EXPECT_NE(logic_error_of([&] { check_recomputed(other, "recompute"); }).find("which another op or signature makes"),
            std::string::npos);
  // Without a checkpointed region, nothing changes.
  LogicalGraph plain = checkpointed_graph();
  plain.checkpoints.clear();
  for (Node& node : plain.nodes) node.checkpoint = -1;
  EXPECT_EQ(recompute_activations(plain).recomputed_ops, 0);
  EXPECT_EQ(plain.nodes.size(), 5u);
}

// w (a stage-3 parameter) gathered once as %2; forward: %3 = mul(x, %2), %4 = relu(%3);
// backward (grad mode off): %5 = mul(%4, %2) reads the forward gather, %6 = relu(%4), and the
// reduction %7 of the gradient %5 comes after it, where the optimizer's order put it.
LogicalGraph zero_graph() {
  const Placement mesh("cpu", std::vector<int>{0});
  const boxing::Layout B{mesh, NdSbp{Sbp::broadcast()}};
  LogicalGraph g;
  g.zero_stage = 3;
  for (int v = 0; v < 8; ++v) g.values.push_back({{4, 2}, DType::kFloat32, B, v, 0});
  g.nodes.emplace_back(NodeKind::kInput, "w", std::vector<int>{}, std::vector<int>{0});
  g.nodes.back().input_kind = InputKind::kVariable;
  g.nodes.emplace_back(NodeKind::kInput, "x", std::vector<int>{}, std::vector<int>{1});
  auto conversion = [&](int in, int out, ZeroRole role) {
    g.nodes.emplace_back(NodeKind::kBoxing, "to_global", std::vector<int>{in}, std::vector<int>{out});
    g.nodes.back().to = B;
    g.nodes.back().zero = role;
  };
  auto op = [&](const char* name, std::vector<int> in, int out, bool no_grad) {
    g.nodes.emplace_back(NodeKind::kOp, name, in, std::vector<int>{out});
    g.nodes.back().op = &find_op(name);
    g.nodes.back().signature = NdSignature{std::vector<NdSbp>(in.size(), B.nd_sbp), {B.nd_sbp}};
    g.nodes.back().no_grad = no_grad;
  };
  conversion(0, 2, ZeroRole::kGather);
  op("mul", {1, 2}, 3, false);
  op("relu", {3}, 4, false);
  op("mul", {4, 2}, 5, true);
  op("relu", {4}, 6, true);
  conversion(5, 7, ZeroRole::kReduce);
  g.gradients = {7};
  g.outputs = {6, 7};
  for (size_t n = 0; n < g.nodes.size(); ++n) g.values[g.nodes[n].outputs[0]].producer = static_cast<int>(n);
  return g;
}

// The zero pass gives backward's reader of the forward gather a gather of its own, just
// before it, and moves the gradient's reduction to just after the op making the gradient;
// its check catches both as they were.
TEST(Graph, ZeroSchedulesBackwardGathersAndReductions) {
  LogicalGraph before = zero_graph();
  EXPECT_NO_THROW(check_graph(before, true, "boxing"));
  EXPECT_NE(logic_error_of([&] { check_zero(before, "zero"); }).find("the gather %2 is read in forward and in backward"),
            std::string::npos);
  LogicalGraph g = zero_graph();
  const ZeroStats stats = schedule_zero(g);
  EXPECT_EQ(stats.backward_gathers, 1);
  EXPECT_EQ(stats.moved_reductions, 1);
  std::vector<std::string> order;
  for (const Node& node : g.nodes) order.push_back(node.name);
  EXPECT_EQ(order, (std::vector<std::string>{"w", "x", "to_global", "mul", "relu", "to_global", "mul", "to_global",
                                              "relu"}));
  EXPECT_EQ(g.nodes[5].zero, ZeroRole::kGather);
  EXPECT_EQ(g.nodes[6].inputs, (std::vector<int>{4, g.nodes[5].outputs[0]}));
  EXPECT_EQ(g.nodes[3].inputs, (std::vector<int>{1, 2}));  // forward keeps the first gather
  EXPECT_EQ(g.nodes[7].zero, ZeroRole::kReduce);
  EXPECT_NO_THROW(check_graph(g, true, "zero"));
  EXPECT_NO_THROW(check_zero(g, "zero"));
  LogicalGraph late = g;
  std::swap(late.nodes[7], late.nodes[8]);
  late.renumber_producers();
  EXPECT_NE(logic_error_of([&] { check_zero(late, "zero"); }).find("the reduction %7 of the gradient %5 does not follow"),
            std::string::npos);
}

}  // namespace
}  // namespace mf::graph
