// Copyright 2026 The meshflow Authors.
// Ops on global tensors under mpirun: every valid signature of every op against the
// single-device result (op_check.h), SBP inference as CONCEPTS section 4 describes it, the
// inference cache, and bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "meshflow/core/error.h"
#include "meshflow/global/point_to_point.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/vm/vm.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

const Sbp S0 = Sbp::split(0), S1 = Sbp::split(1), B = Sbp::broadcast(), P = Sbp::partial_sum();

// Values that are exact in float32 sums and products of a few terms.
Tensor value(const Shape& shape, DType dtype = DType::kFloat32) { return logical_value(shape, dtype); }

// Signatures on a mesh of `ndim` axes, `per_axis` on each: every product is valid here (the
// shapes split evenly enough on 2 and 4 ranks), so exactly per_axis^ndim.
int64_t products(int64_t per_axis, int ndim) {
  int64_t n = 1;
  for (int i = 0; i < ndim; ++i) n *= per_axis;
  return n;
}

TEST(Elementwise, EverySignatureMatchesOneDevice) {
  // Per axis: a split of each output dim, all-broadcast, and the partial rules
  // (ops_elementwise_test's ElementwiseSignatures lists them): add and sub 5, mul 2.
  const std::map<std::string, int64_t> partial_rules = {{"add", 5}, {"sub", 5}, {"mul", 2}};
  for (const Placement& p : op_meshes()) {
    for (const char* op : {"add", "sub", "mul"}) {
      for (const auto& [a, b] : std::vector<std::pair<Shape, Shape>>{
               {{4, 6}, {4, 6}}, {{5, 3}, {5, 3}}, {{5, 3}, {3}}, {{1, 3}, {5, 1}}, {{2, 5, 3}, {5, 1}}}) {
        const int64_t per_axis = static_cast<int64_t>(std::max(a.size(), b.size())) + 1 + partial_rules.at(op);
        EXPECT_EQ(check_every_signature(op, {value(a), value(b)}, {}, p), products(per_axis, p.ndim()))
            << op << " " << to_string(a) << " " << to_string(b) << " on " << p.str();
      }
    }
    check_every_signature("add", {value({7}, DType::kInt64), value({7}, DType::kInt64)}, {}, p);
    Tensor divisor = value({5, 3});
    for (int64_t i = 0; i < divisor.numel(); ++i) divisor.data_as<float>()[i] = static_cast<float>(1 + i % 4);
    check_every_signature("div", {value({5, 3}), divisor}, {}, p);
    check_every_signature("add_scalar", {value({5, 3})}, {{"value", 2.5}}, p);
    check_every_signature("mul_scalar", {value({5, 3})}, {{"value", -3.0}}, p);
  }
}

// Casts between every pair of dtypes, on values at and beyond the target's range (where an
// integer narrowing wraps and a float saturates): each signature offered must hold, and a
// partial max or min must survive the cast exactly when the conversion keeps order (all but
// integer narrowing). Values
// stay a few units inside the source's own range, where the suite's partial values go.
TEST(Cast, EverySignatureMatchesOneDeviceBeyondTheTargetsRange) {
  const int64_t i32_max = std::numeric_limits<int32_t>::max(), i32_min = std::numeric_limits<int32_t>::min();
  const std::map<DType, std::vector<double>> reals = {
      {DType::kFloat64, {1e300, -1e300, 3e38, -3e9, 2147483648.0, 2147483647.0, 16777217.0, -2.5}},
      {DType::kFloat32, {3e38, -3e38, 3e9, -3e9, 2147483648.0, 2147483520.0, 16777216.0, -2.5}}};
  const std::map<DType, std::vector<int64_t>> ints = {
      {DType::kInt64, {i32_max + 1, i32_max, i32_min - 1, int64_t{1} << 40, (int64_t{1} << 53) + 1, -3, 5, i32_min}},
      {DType::kInt32, {i32_max - 8, i32_min + 8, (1 << 24) + 1, -7, 0, 3, 1 << 30, -(1 << 30)}}};
  for (const Placement& p : op_meshes()) {
    for (DType from : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64}) {
      Tensor x = Tensor::empty({8}, from);
      visit_dtype(from, [&](auto v) {
        using T = decltype(v);
        for (int64_t i = 0; i < 8; ++i) {
          x.data_as<T>()[i] = is_floating(from) ? static_cast<T>(reals.at(from)[i]) : static_cast<T>(ints.at(from)[i]);
        }
      });
      for (DType to : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64}) {
        const Attrs attrs{{"dtype", to}};
        const bool keeps_order = is_floating(to) || is_floating(from) || dtype_size(from) <= dtype_size(to);
        bool offers_max_or_min = false;
        for (const NdSignature& sig :
             valid_nd_signatures(find_op("cast"), {{x.shape(), from}}, attrs, p.hierarchy())) {
          for (const Sbp& s : sig.inputs[0]) offers_max_or_min |= s.is_partial() && s.reduce_op() != ReduceOp::kSum;
        }
        EXPECT_EQ(offers_max_or_min, keeps_order) << dtype_name(from) << " -> " << dtype_name(to);
        // Partial sums of floats round differently once widened; integers must be exact.
        check_every_signature("cast", {x}, attrs, p, is_floating(to) ? 1e-6 : 0);
      }
    }
  }
}

TEST(Matmul, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [a, b] : std::vector<std::pair<Shape, Shape>>{
             {{4, 6}, {6, 8}}, {{5, 3}, {3, 7}}, {{3, 5, 4}, {4, 2}}, {{2, 3, 4}, {2, 4, 5}}, {{1, 3, 4}, {2, 4, 3}}}) {
      // Per axis: rows of a, columns of b, the contracted dim (partial), P with B either
      // way, all-broadcast, and a split of each batch dim of the output.
      const int64_t per_axis = 6 + static_cast<int64_t>(std::max(a.size(), b.size())) - 2;
      EXPECT_EQ(check_every_signature("matmul", {value(a), value(b)}, {}, p, 1e-5), products(per_axis, p.ndim()))
          << to_string(a) << " @ " << to_string(b) << " on " << p.str();
    }
    check_every_signature("matmul", {value({5, 3}, DType::kFloat64), value({3, 4}, DType::kFloat64)}, {}, p);
    check_every_signature("matmul", {value({5, 3}, DType::kInt32), value({3, 4}, DType::kInt32)}, {}, p);
  }
}

// With a bias: the same signatures, the bias following the result's columns (S(0) beside
// S(n), P beside P, else B), and the one-device result equal to the product plus the bias.
TEST(Matmul, BiasFollowsTheResultsColumnsOnEverySignature) {
  const OpDef& matmul = find_op("matmul");
  const OpDef& add = find_op("add");
  for (const Placement& p : op_meshes()) {
    // a, b, the result's width n, attributes.
    for (const auto& [a, b, n, attrs] : std::vector<std::tuple<Shape, Shape, int64_t, Attrs>>{
             {{4, 6}, {6, 8}, 8, {}},
             {{3, 5, 4}, {6, 4}, 6, {{"transpose_b", true}}},
             {{2, 3, 4}, {2, 4, 5}, 5, {}},
             {{5, 3}, {3, 4}, 4, {}}}) {  // k = 3 split 4 ways: a rank's product is empty, its bias share not
      for (DType dtype : {DType::kFloat32, DType::kFloat64, DType::kInt64}) {
        const Tensor x = value(a, dtype), w = value(b, dtype), bias = value({n}, dtype);
        const int64_t per_axis = 6 + static_cast<int64_t>(std::max(a.size(), b.size())) - 2;
        EXPECT_EQ(check_every_signature("matmul", {x, w, bias}, attrs, p, 1e-5), products(per_axis, p.ndim()))
            << to_string(a) << " @ " << to_string(b) << " + bias on " << p.str();
        const Tensor fused = apply_local(matmul, {x, w, bias}, attrs)[0];
        const Tensor plain = apply_local(add, {apply_local(matmul, {x, w}, attrs)[0], bias}, {})[0];
        EXPECT_TRUE(close(fused, plain, 1e-6)) << to_string(a) << " " << dtype_name(dtype);
      }
    }
  }
  // bfloat16 operands with a float32 result: the bias is float32, added before any rounding.
  const OpDef& cast = find_op("cast");
  const Attrs low{{"dtype", DType::kBFloat16}};
  const Tensor x = apply_local(cast, {value({4, 6})}, low)[0], w = apply_local(cast, {value({8, 6})}, low)[0];
  const Attrs wide{{"transpose_b", true}, {"float32_out", true}};
  for (const Placement& p : op_meshes()) check_every_signature("matmul", {x, w, value({8})}, wide, p, 1e-5);
}

GlobalTensor global(const Tensor& full, const Placement& p, const NdSbp& sbp) { return make_source(full, p, sbp); }

// The differences in what this rank issued while running f.
template <typename F>
comm::CommStats issued_by(F f) {
  const comm::CommStats before = comm::stats();
  f();
  const comm::CommStats after = comm::stats();
  return {after.all_reduce - before.all_reduce, after.all_gather - before.all_gather,
          after.reduce_scatter - before.reduce_scatter, after.all_to_all - before.all_to_all,
          after.broadcast - before.broadcast, after.send - before.send, after.recv - before.recv,
          after.bytes_sent - before.bytes_sent, after.direct_all_to_all - before.direct_all_to_all,
          after.mapped_all_to_all - before.mapped_all_to_all};
}

TEST(Inference, SplitPlusSplitGivesSplit0) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({2});
  const Tensor x = value({4, 4});
  GlobalTensor out = apply_global(find_op("add"), {global(x, p, {S0}), global(x, p, {S1})}, {})[0];
  EXPECT_EQ(out.nd_sbp(), (NdSbp{S0}));
  EXPECT_TRUE(close(gather_full(out), apply_local(find_op("add"), {x, x}, {})[0], 0));
}

TEST(Inference, SplitPlusBroadcastCommunicatesNothing) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({2});
  const Tensor x = value({4, 4});
  GlobalTensor a = global(x, p, {S0}), b = global(x, p, {B});
  std::optional<GlobalTensor> out;
  comm::CommStats c = issued_by([&] { out = apply_global(find_op("add"), {a, b}, {})[0]; });
  EXPECT_EQ(out->nd_sbp(), (NdSbp{S0}));
  EXPECT_EQ(c.all_gather + c.all_reduce + c.all_to_all + c.reduce_scatter + c.send + c.recv + c.broadcast, 0);
}

TEST(Inference, MatmulOnTwoByTwoMesh) {
  REQUIRE_RANKS(4);
  const Placement mesh = first_ranks({2, 2});
  const Tensor x = value({4, 4});
  const OpDef& matmul = find_op("matmul");
  const Tensor expected = apply_local(matmul, {x, x}, {})[0];
  std::optional<GlobalTensor> out;
  comm::CommStats c = issued_by(
      [&] { out = apply_global(matmul, {global(x, mesh, {B, S0}), global(x, mesh, {S1, B})}, {})[0]; });
  EXPECT_EQ(out->nd_sbp(), (NdSbp{S1, S0}));
  EXPECT_EQ(c.bytes_sent, 0);
  EXPECT_TRUE(close(gather_full(*out), expected, 0));

  // Without a read twin (global_tensor.h, with_read_twin), which a partial value this small
  // would get: the conversion counted below is then the one to_global makes.
  NoReadTwins untwinned;
  out = apply_global(matmul, {global(x, mesh, {S0, S1}), global(x, mesh, {B, S0})}, {})[0];
  EXPECT_EQ(out->nd_sbp(), (NdSbp{S0, P}));
  std::optional<GlobalTensor> reduced;
  c = issued_by([&] { reduced = to_global(*out, mesh, {S0, B}); });
  EXPECT_EQ(c.all_reduce, mesh.contains(me()) ? 1 : 0);  // ranks outside the mesh take no part
  EXPECT_EQ(c.all_gather + c.all_to_all + c.reduce_scatter + c.send + c.recv, 0);
  // Inside the mesh rows only: the plan is one all-reduce on axis 1.
  boxing::Plan plan = boxing::plan_boxing({4, 4}, DType::kFloat32, {mesh, {S0, P}}, {mesh, {S0, B}});
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].axis, 1);
  EXPECT_TRUE(close(gather_full(*reduced), expected, 0));
}

TEST(Inference, RepeatedCallHitsTheCacheAndAnyKeyChangeMisses) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({2});
  const OpDef& add = find_op("add");
  const Tensor x = value({6, 4});
  GlobalTensor a = global(x, p, {S0}), b = global(x, p, {B});
  apply_global(add, {a, b}, {});
  InferCacheStats before = infer_cache_stats();
  apply_global(add, {a, b}, {});
  InferCacheStats after = infer_cache_stats();
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.misses, before.misses);

  auto misses = [&](const std::function<void()>& call) {
    const InferCacheStats s0 = infer_cache_stats();
    call();
    const InferCacheStats s1 = infer_cache_stats();
    return s1.misses - s0.misses;
  };
  EXPECT_EQ(misses([&] { apply_global(find_op("sub"), {a, b}, {}); }), 1);                       // op
  EXPECT_EQ(misses([&] { apply_global(add, {global(value({5, 4}), p, {S0}), global(value({5, 4}), p, {B})}, {}); }), 1);  // shape
  EXPECT_EQ(misses([&] { apply_global(add, {global(x, p, {S1}), b}, {}); }), 1);                // sbp
  EXPECT_EQ(misses([&] {
              apply_global(add, {global(value({6, 4}, DType::kFloat64), p, {S0}),
                                 global(value({6, 4}, DType::kFloat64), p, {B})}, {});
            }), 1);                                                                            // dtype
  EXPECT_EQ(misses([&] { apply_global(find_op("add_scalar"), {a}, {{"value", 1.0}}); }), 1);
  EXPECT_EQ(misses([&] { apply_global(find_op("add_scalar"), {a}, {{"value", 2.0}}); }), 1);  // attribute
  Constraints want_b;
  want_b.outputs.push_back(NdSbp{B});
  EXPECT_EQ(misses([&] { apply_global(add, {a, b}, {}, want_b); }), 1);                         // constraint
  if (comm::world_size() >= 3) {
    const Placement q("cpu", std::vector<int>{1, 2});
    EXPECT_EQ(misses([&] { apply_global(add, {global(x, q, {S0}), global(x, q, {B})}, {}); }), 1);  // placement
  }
}

TEST(Inference, RandomCallsShareOnePlan) {
  const Placement p = first_ranks({comm::world_size()});
  Constraints c;
  c.placement = p;
  c.outputs.push_back(NdSbp{S0});
  auto rand = [&](int64_t offset) {
    apply_global(find_op("rand"), {}, {{"shape", Shape{8, 3}}, {"seed", int64_t{5}}, {"offset", offset}}, c);
  };
  rand(0);
  const InferCacheStats before = infer_cache_stats();
  rand(24);
  rand(48);
  const InferCacheStats after = infer_cache_stats();
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.hits, before.hits + 2);
}

TEST(Inference, RequestedOutputSbpIsHonoured) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({2});
  const Tensor x = value({6, 4});
  Constraints c;
  c.outputs.push_back(NdSbp{S1});
  GlobalTensor out = apply_global(find_op("add"), {global(x, p, {S0}), global(x, p, {B})}, {}, c)[0];
  EXPECT_EQ(out.nd_sbp(), (NdSbp{S1}));
  EXPECT_TRUE(close(gather_full(out), apply_local(find_op("add"), {x, x}, {})[0], 0));
}

// Every rank throws the same clear error, and the job stays usable.
template <typename F>
void expect_error_then_usable(F f, const std::string& text) {
  expect_error(f, text);
  const Placement all = first_ranks({comm::world_size()});
  EXPECT_TRUE(close(gather_full(global(value({3, 2}), all, {S0})), value({3, 2}), 0));
}

TEST(BadInput, ClearErrorsOnEveryRank) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({2});
  const Placement q("cpu", std::vector<int>{1, 0});
  GlobalTensor a = global(value({4, 3}), p, {S0});
  expect_error_then_usable([&] { apply_global(find_op("add"), {a, global(value({4, 5}), p, {S0})}, {}); },
               "[add] shapes [4, 3] and [4, 5] cannot be broadcast");
  expect_error_then_usable([&] { apply_global(find_op("add"), {a, global(value({4, 3}, DType::kInt64), p, {S0})}, {}); },
               "[add] dtypes differ: float32 and int64");
  expect_error_then_usable([&] { apply_global(find_op("add"), {a, global(value({4, 3}), q, {S0})}, {}); },
               "[add] inputs are on different placements: placement(type=\"cpu\", ranks=[0, 1]) and "
               "placement(type=\"cpu\", ranks=[1, 0])");
  expect_error_then_usable([&] { apply_global(find_op("matmul"), {a, a}, {}); }, "[matmul] inner dims differ");
  expect_error_then_usable([&] { find_op("no_such_op"); }, "unknown op 'no_such_op'");
}

}  // namespace
}  // namespace mf

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

// Arguments that differ between ranks, or data that only one rank's part holds, make
// every rank raise together; none is left waiting in a collective.
TEST(RanksAgree, DifferentTargetLayoutsRaiseOnEveryRank) {
  REQUIRE_RANKS(2);
  const Placement all = first_ranks({comm::world_size()});
  GlobalTensor g = make_source(logical_value({4, 6}, DType::kFloat32), all, {Sbp::split(0)});
  const bool odd_one = me() == 1;
  expect_error([&] { to_global(g, all, {odd_one ? Sbp::broadcast() : Sbp::split(1)}); },
               "to_global: rank(s) 1 made a different call than rank 0");
  // Of its own class (Python's RuntimeError), still a std::invalid_argument as before.
  EXPECT_THROW(to_global(g, all, {odd_one ? Sbp::broadcast() : Sbp::split(1)}), CollectiveMismatchError);
  expect_error([&] { make_global(logical_value({2, 3}, DType::kFloat32), all, odd_one ? NdSbp{} : NdSbp{Sbp::split(0)}, false); },
               "has 0 entries but the placement's hierarchy");
  EXPECT_TRUE(close(gather_full(g), logical_value({4, 6}, DType::kFloat32), 0));
}

// MESHFLOW_CHECK_CONSISTENCY=1 for the scope of a test.
class ConsistencyCheck {
 public:
  ConsistencyCheck() { setenv("MESHFLOW_CHECK_CONSISTENCY", "1", 1); }
  ~ConsistencyCheck() { unsetenv("MESHFLOW_CHECK_CONSISTENCY"); }
};

// The per-op check passes a correct program (its hash is the same in every process), and a
// call that differs on one rank raises on every rank, also where only that rank's planning
// fails (every rank agrees before any plans).
TEST(RanksAgree, ConsistencyCheckPassesEqualCallsAndRaisesOnEveryRankOtherwise) {
  REQUIRE_RANKS(2);
  ConsistencyCheck on;
  const Placement all = first_ranks({comm::world_size()});
  const Tensor x = logical_value({4, 6}, DType::kFloat32);
  GlobalTensor a = make_source(x, all, {S0}), b = make_source(x, all, {B});
  GlobalTensor sum = apply_global(find_op("add"), {a, b}, {})[0];
  GlobalTensor y = apply_global(find_op("matmul"), {sum, make_source(logical_value({6, 3}, DType::kFloat32), all, {B})}, {})[0];
  GlobalTensor scaled = apply_global(find_op("mul_scalar"), {y}, {{"value", 2.0}})[0];
  EXPECT_TRUE(close(gather_full(scaled), apply_local(find_op("mul_scalar"),
                                                      {apply_local(find_op("matmul"), {apply_local(find_op("add"), {x, x}, {})[0],
                                                                                       logical_value({6, 3}, DType::kFloat32)}, {})[0]},
                                                      {{"value", 2.0}})[0], 1e-6));
  const bool odd_one = me() == 1;
  expect_error([&] { apply_global(find_op("mul_scalar"), {y}, {{"value", odd_one ? 3.0 : 2.0}}); },
               "[mul_scalar]: rank(s) 1 made a different call than rank 0");
  // Only rank 1's shapes cannot broadcast: its planning fails, and every rank raises its error.
  const Shape odd_shape{4, odd_one ? 5 : 6};  // made directly: make_global would refuse it
  GlobalTensor c(odd_shape, all, {B}, logical_value(odd_shape, DType::kFloat32));
  expect_error([&] { apply_global(find_op("add"), {b, c}, {}); }, "[add]");
  expect_error([&] { apply_global(find_op("add"), {b, c}, {}); }, odd_one ? "[add]" : "(raised on rank 1)");
}

// Collectives must come in one order on every rank, which threads do not keep: in a job of
// several ranks, a global op from a thread other than the one that issued the first
// collective raises on that thread before it communicates, and the program goes on.
TEST(RanksAgree, ACollectiveFromASecondThreadRaisesBeforeItCommunicates) {
  REQUIRE_RANKS(2);
  const Placement all = first_ranks({comm::world_size()});
  const Tensor x = logical_value({4, 6}, DType::kFloat32);
  GlobalTensor a = make_source(x, all, {S0});
  EXPECT_TRUE(close(gather_full(a), x, 0));  // this thread issues collectives
  std::string error;
  std::thread other([&] {
    try {
      to_global(a, all, {B});
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  });
  other.join();
  EXPECT_NE(error.find("a collective issued from a second thread"), std::string::npos) << error;
  EXPECT_TRUE(close(gather_full(to_global(a, all, {B})), x, 0));
}

// A read agrees on its arguments with the other ranks first (comm::agree, from the issuing
// thread at once): from a second thread that agreement raises too, before it communicates.
TEST(RanksAgree, AReadFromASecondThreadRaisesBeforeItsAgreement) {
  REQUIRE_RANKS(2);
  const Placement all = first_ranks({comm::world_size()});
  const Tensor x = logical_value({4, 6}, DType::kFloat32);
  GlobalTensor a = make_source(x, all, {S0});
  EXPECT_TRUE(close(gather_full(a), x, 0));  // this thread issues collectives
  std::string error;
  std::thread other([&] {
    try {
      gather_full(a);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  });
  other.join();
  EXPECT_NE(error.find("a collective issued from a second thread"), std::string::npos) << error;
  EXPECT_TRUE(close(gather_full(a), x, 0));
}

// torch.distributed's send / recv: made by the two ranks alone (the others make no call),
// in program order with the ops that make what is sent; a pair whose ends do not fit raises
// on both, naming both.
TEST(PointToPoint, ThePairAloneMovesATensorAndMismatchesRaiseOnBothEnds) {
  REQUIRE_RANKS(2);
  const Tensor x = logical_value({3, 4}, DType::kFloat32);
  const int me = comm::world_rank();
  if (me == 0) {
    const Tensor doubled = apply_local(find_op("mul_scalar"), {x}, Attrs{{"value", 2.0}})[0];
    vm::wait(send_to(doubled, 1));
    EXPECT_TRUE(close(receive_from({3, 4}, DType::kFloat32, 1), x, 0));
    expect_error([&] { vm::wait(send_to(x, 1)); }, "[send] rank 0 sends 12 float32 elements but rank 1 receives 6");
  } else if (me == 1) {
    const Tensor got = receive_from({3, 4}, DType::kFloat32, 0);
    vm::wait(send_to(x, 0));
    const Tensor expected = apply_local(find_op("mul_scalar"), {x}, Attrs{{"value", 2.0}})[0];
    EXPECT_TRUE(close(got, expected, 0));
    expect_error([&] { vm::wait(receive_from({6}, DType::kFloat32, 0)); },
                 "[recv] rank 1 receives 6 float32 elements but rank 0 sends 12");
  }
  expect_error([&] { send_to(x, me); }, "[send] peer rank");
  comm::agree("", 0, "the pair is done");
}

// A batch moves all of its transfers at once: two ranks that each send to the other and
// receive in one batch (a ring's step) do not wait on each other, dtypes mixed; batches whose
// ends do not fit raise on both, listing both.
TEST(PointToPoint, ABatchThatSendsAndReceivesCrossesItsPeers) {
  REQUIRE_RANKS(2);
  const int me = comm::world_rank();
  if (me < 2) {
    const int peer = 1 - me;
    const Tensor mine = apply_local(find_op("mul_scalar"), {logical_value({2, 3}, DType::kFloat32)},
                                    Attrs{{"value", static_cast<double>(me + 1)}})[0];
    const Tensor index = logical_value({4}, DType::kInt64);
    const std::vector<Tensor> out = transfer_batch({mine, index}, {peer, peer},
                                                   {{{2, 3}, DType::kFloat32, peer}, {{4}, DType::kInt64, peer}});
    vm::wait(out[0]);
    const Tensor theirs = apply_local(find_op("mul_scalar"), {logical_value({2, 3}, DType::kFloat32)},
                                      Attrs{{"value", static_cast<double>(peer + 1)}})[0];
    EXPECT_TRUE(close(out[1], theirs, 0));
    EXPECT_TRUE(close(out[2], index, 0));
    // Both ends only send: neither receives what the other sends.
    expect_error([&] { vm::wait(send_to(mine, peer)); },
                 "[send] rank " + std::to_string(me) + " sends 6 float32 elements but rank " + std::to_string(peer) +
                     " sends 6 float32 elements; expected each end to receive what the other sends");
  }
  comm::agree("", 0, "the batches are done");
}

// A receive from any source takes the sender whose notice comes first, once each; a failed
// exchange before it (both ends only send) drops its notices with its moves, so the receives
// from any source after it are not misled.
TEST(PointToPoint, AReceiveFromAnySourceTakesEachSenderOnce) {
  REQUIRE_RANKS(3);
  const int me = comm::world_rank(), world = comm::world_size();
  const Tensor mine = apply_local(find_op("mul_scalar"), {logical_value({3}, DType::kFloat32)},
                                  Attrs{{"value", static_cast<double>(me + 1)}})[0];
  if (me < 2) {
    expect_error([&] { vm::wait(send_to(mine, 1 - me)); }, "sends 3 float32 elements but rank");
  }
  if (me == 0) {
    std::vector<int> others;
    for (int r = 1; r < world; ++r) others.push_back(r);
    std::set<int> senders;
    for (int k = 1; k < world; ++k) {
      const std::vector<Tensor> out = transfer_batch({}, {}, {{{3}, DType::kFloat32, Receive::kAnySource, others}});
      vm::wait(out[0]);
      const int sender = static_cast<int>(*out[2].data_as<int64_t>());
      const Tensor theirs = apply_local(find_op("mul_scalar"), {logical_value({3}, DType::kFloat32)},
                                        Attrs{{"value", static_cast<double>(sender + 1)}})[0];
      EXPECT_TRUE(close(out[1], theirs, 0));
      senders.insert(sender);
    }
    EXPECT_EQ(senders.size(), static_cast<size_t>(world - 1));
  } else {
    vm::wait(send_to(mine, 0));
  }
  comm::agree("", 0, "the receives are done");
}

// A batch's moves that the peer's batch does not take go on with the peer's next batches, in
// order: a pipeline stage that sends its activation and receives the gradient in one batch
// meets a stage that receives, then sends, in two; a rank's two sends meet two receives.
TEST(PointToPoint, MovesAPeerBatchLeavesGoOnWithItsNextBatches) {
  REQUIRE_RANKS(2);
  const int me = comm::world_rank();
  const Tensor activation = logical_value({2, 3}, DType::kFloat32);
  const Tensor gradient = apply_local(find_op("mul_scalar"), {activation}, Attrs{{"value", -1.0}})[0];
  const Tensor index = logical_value({4}, DType::kInt64);
  if (me == 0) {
    const std::vector<Tensor> out = transfer_batch({activation}, {1}, {{{2, 3}, DType::kFloat32, 1}});
    EXPECT_TRUE(close(out[1], gradient, 0));
    vm::wait(transfer_batch({activation, index}, {1, 1}, {})[0]);
  } else if (me == 1) {
    EXPECT_TRUE(close(receive_from({2, 3}, DType::kFloat32, 0), activation, 0));
    vm::wait(send_to(gradient, 0));
    EXPECT_TRUE(close(receive_from({2, 3}, DType::kFloat32, 0), activation, 0));
    EXPECT_TRUE(close(receive_from({4}, DType::kInt64, 0), index, 0));
  }
  comm::agree("", 0, "the stages are done");
}

// A data error raises on every rank of the op's placement, and on any rank the failed value
// is moved to.
TEST(RanksAgree, DataErrorOnOneRankRaisesOnEveryRankItReaches) {
  REQUIRE_RANKS(2);
  const Placement all = first_ranks({comm::world_size()});
  const Placement first_two = first_ranks({2});  // other ranks hold no part at all
  for (const Placement& p : {all, first_two}) {
    Tensor divisor = Tensor::empty({2 * comm::world_size(), 1}, DType::kInt64);
    for (int64_t i = 0; i < divisor.numel(); ++i) divisor.data_as<int64_t>()[i] = i == 2 ? 0 : 1;  // rank 1's rows
    const Tensor x = logical_value({2 * comm::world_size(), 3}, DType::kInt64);
    // The kernel runs after the call returns: its error comes at the next synchronization,
    // on every rank of the placement (they agree on it on the comm stream). Ranks outside
    // hold no part and take no part; the error reaches them with the value (a read here).
    std::vector<GlobalTensor> q;
    auto divide = [&] {
      q = apply_global(find_op("div"), {make_source(x, p, {Sbp::split(0)}), make_source(divisor, p, {Sbp::split(0)})}, {});
      vm::synchronize();
    };
    if (p.contains(me())) {
      expect_error(divide, "[div] integer division by zero");
    } else {
      divide();
    }
    expect_error([&] { gather_full(q[0]); }, "[div] integer division by zero");
  }
  // Data every rank holds whole fails alike on every rank.
  Tensor zeros = Tensor::zeros({2, 1}, DType::kInt64);
  const Tensor x = logical_value({2, 3}, DType::kInt64);
  expect_error([&] {
    apply_global(find_op("div"), {make_source(x, all, {Sbp::broadcast()}), make_source(zeros, all, {Sbp::broadcast()})}, {});
    vm::synchronize();
  }, "[div] integer division by zero");
  Tensor indices = Tensor::zeros({4}, DType::kInt64);
  indices.data_as<int64_t>()[3] = 99;
  std::vector<GlobalTensor> looked_up;
  expect_error([&] {
    looked_up = apply_global(find_op("embedding"), {make_source(indices, all, {Sbp::split(0)}),
                                                    make_source(logical_value({5, 2}, DType::kFloat32), all,
                                                                {Sbp::broadcast()})}, {});
    vm::wait(looked_up[0].local());
  }, "[embedding]");
  // Raised once; the process goes on: later ops run.
  vm::synchronize();
  const Tensor ones = Tensor::zeros({4}, DType::kInt64);
  const GlobalTensor fine = apply_global(find_op("embedding"), {make_source(ones, all, {Sbp::split(0)}),
                                                                make_source(logical_value({5, 2}, DType::kFloat32),
                                                                            all, {Sbp::broadcast()})}, {})[0];
  EXPECT_EQ(gather_full(fine).shape(), (Shape{4, 2}));
}

}  // namespace
}  // namespace mf
