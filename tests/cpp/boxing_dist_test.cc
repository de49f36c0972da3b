// Copyright 2026 The meshflow Authors.
// The product's promise, checked under mpirun (CONCEPTS sections 1-3 and 5): a global tensor
// converted to any placement and N-d SBP still has the original logical value on every rank,
// and every rank's local tensor has the shape of the balanced nested split (local_box).
// Tests adapt to the world size and skip meshes that need more ranks than exist.
//
// Sources are built by hand from the logical value, with partial values that are not
// trivial (no rank simply holds the value while the others hold zeros), so a conversion
// that reduces the wrong ranks or forgets one shows. Values are small integers, so sums are
// exact in every dtype and results are compared bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "meshflow/boxing/execute.h"
#include "meshflow/boxing/plan.h"
#include "meshflow/comm/comm.h"
#include "meshflow/core/allocator.h"
#include "meshflow/global/global_tensor.h"
#include "meshflow/vm/vm.h"
#include "tests/cpp/dist_util.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

// ---------------------------------------------------------------------------------------------
// SBP lists.

// Every 1-d SBP for a tensor of `ndim` dims: S(0)..S(ndim-1), B, P, P(max), P(min).
std::vector<Sbp> all_sbps(size_t ndim) {
  std::vector<Sbp> sbps;
  for (size_t d = 0; d < ndim; ++d) sbps.push_back(Sbp::split(static_cast<int>(d)));
  for (Sbp s : {Sbp::broadcast(), Sbp::partial_sum(), Sbp::partial_max(), Sbp::partial_min()}) sbps.push_back(s);
  return sbps;
}

// Every N-d SBP with `axes` axes, each axis one of `one_d`.
std::vector<NdSbp> nd_products(const std::vector<Sbp>& one_d, int axes) {
  std::vector<NdSbp> result{NdSbp{}};
  for (int a = 0; a < axes; ++a) {
    std::vector<NdSbp> longer;
    for (const NdSbp& prefix : result) {
      for (const Sbp& s : one_d) {
        longer.push_back(prefix);
        longer.back().push_back(s);
      }
    }
    result = std::move(longer);
  }
  return result;
}

std::vector<NdSbp> all_nd_sbps(size_t tensor_ndim, int axes) { return nd_products(all_sbps(tensor_ndim), axes); }

// ---------------------------------------------------------------------------------------------
// Checks.

std::string describe(const Shape& shape, DType dtype, const boxing::Layout& from, const boxing::Layout& to) {
  return "logical " + to_string(shape) + " " + dtype_name(dtype) + ": " + from.str() + " -> " + to.str() +
         "; plan: " + boxing::plan_boxing(shape, dtype, from, to).str();
}

// The first values of `t`, for failure messages.
std::string values(const Tensor& t) {
  std::string s = to_string(t.shape()) + " {";
  visit_numbers(t.dtype(), [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < std::min<int64_t>(t.numel(), 48); ++i) {
      s += (i ? ", " : "") + std::to_string(t.data_as<T>()[i]);
    }
  });
  return s + (t.numel() > 48 ? ", ...}" : "}");
}

// Checks that `actual` equals `expected` exactly, showing both when not.
::testing::AssertionResult same_values(const Tensor& actual, const Tensor& expected) {
  if (equal(actual, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << values(actual) << " " << dtype_name(actual.dtype())
                                       << "\nexpected " << values(expected) << " " << dtype_name(expected.dtype());
}

bool has_partial(const NdSbp& nd_sbp) {
  for (const Sbp& s : nd_sbp) {
    if (s.is_partial()) return true;
  }
  return false;
}

// This rank's local of `g` has the balanced split's shape; where no axis is partial it is
// exactly that slice of `full`; outside the placement it is empty.
void expect_local_is_balanced_part(const GlobalTensor& g, const Tensor& full,
                                   const std::function<std::string()>& what) {
  const Tensor local = g.local().copy_to(host_memory());  // read here, wherever it lives
  EXPECT_EQ(local.dtype(), full.dtype()) << what();
  const int id = g.placement().parallel_id(me());
  if (id < 0) {
    EXPECT_EQ(local.shape(), boxing::empty_local(full.shape(), full.dtype()).shape())
        << "rank outside the placement; " << what();
    return;
  }
  const Box box = local_box(full.shape(), g.placement().hierarchy(), g.nd_sbp(), g.placement().coordinate(id));
  ASSERT_EQ(local.shape(), box.extent) << what();
  EXPECT_EQ(&g.local().memory(), &g.placement().memory()) << "the part is not on its placement's device; " << what();
  if (!has_partial(g.nd_sbp())) {
    EXPECT_TRUE(same_values(local, slice(full, box))) << "local values differ; " << what();
  }
}

// The conversion run with memory given for its result (graph mode's registers) that holds
// garbage: the same local part, written there (a step that zeros or fills with a partial
// identity must do so in the given memory too). Every rank runs it: its collectives.
void expect_converts_into_given_memory(const GlobalTensor& src, const GlobalTensor& out,
                                       const std::function<std::string()>& what) {
  const Tensor expected = out.local().copy_to(host_memory());
  Tensor given = Tensor::empty(expected.shape(), expected.dtype());
  std::memset(given.data(), 0x7b, given.nbytes());
  const std::shared_ptr<const boxing::Plan> plan = boxing::cached_plan(src.shape(), src.dtype(), src.layout(), out.layout());
  const Tensor got = vm::launch("into given memory", device::StreamKind::kComm, {src.local()},
                                {{expected.shape(), expected.dtype()}}, [&](const std::vector<Tensor>& in) {
                                  return std::vector<Tensor>{boxing::execute(*plan, src.shape(), in[0], 0, &given)};
                                })[0];
  EXPECT_TRUE(same_values(got, expected)) << "with memory given for the result; " << what();
}

void expect_converts(const GlobalTensor& src, const Tensor& full, const Placement& placement, const NdSbp& nd_sbp) {
  auto what = [&] { return describe(full.shape(), full.dtype(), src.layout(), {placement, nd_sbp}); };
  GlobalTensor out = to_global(src, placement, nd_sbp);
  EXPECT_EQ(out.shape(), full.shape()) << what();
  expect_local_is_balanced_part(out, full, what);
  EXPECT_TRUE(same_values(gather_full(out).copy_to(host_memory()), full)) << "logical value differs; " << what();
  if (placement.memory().host_accessible() && src.placement().memory().host_accessible()) {
    expect_converts_into_given_memory(src, out, what);
  }
}

// Converts every source in `from` to every target in `to` and checks each result.
void sweep(const Tensor& full, const Placement& src_placement, const std::vector<NdSbp>& from,
           const Placement& dst_placement, const std::vector<NdSbp>& to) {
  for (const NdSbp& src_sbp : from) {
    GlobalTensor src = make_source(full, src_placement, src_sbp);
    auto what = [&] { return "source " + src_placement.str() + " " + to_string(src_sbp); };
    expect_local_is_balanced_part(src, full, what);
    ASSERT_TRUE(same_values(gather_full(src).copy_to(host_memory()), full)) << "the source itself is wrong; " << what();
    for (const NdSbp& dst_sbp : to) expect_converts(src, full, dst_placement, dst_sbp);
  }
}

// The same ranks on another device type: the test device, whose memory host code cannot
// touch (device/testdev), and a GPU where there is one.
Placement on(const std::string& type, const Placement& p) { return Placement(type, p.hierarchy(), p.ranks()); }
std::vector<std::string> accelerators() {
  std::vector<std::string> out{"testdev"};
  if (gpu_here()) out.push_back("cuda");
  return out;
}

// Every pair of N-d SBPs on one placement, on the CPU and on every other device.
void sweep_all_pairs(const Placement& placement, const Shape& shape, DType dtype) {
  const std::vector<NdSbp> sbps = all_nd_sbps(shape.size(), placement.ndim());
  sweep(logical_value(shape, dtype), placement, sbps, placement, sbps);
  for (const std::string& type : accelerators()) {
    if (type == "cuda" && is_small_int(dtype)) continue;  // GPUs refuse them (ops/cuda/kernels.cc)
    sweep(logical_value(shape, dtype), on(type, placement), sbps, on(type, placement), sbps);
  }
}

Placement flat(int n) {
  std::vector<int> ranks(n);
  for (int i = 0; i < n; ++i) ranks[i] = i;
  return Placement("cpu", ranks);
}

// ---------------------------------------------------------------------------------------------
// Every SBP pair on one placement.

TEST(BoxingSamePlacement, Mesh1) {
  SWEEP_RANKS(1);
  const Placement p = flat(1);
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}, Shape{0, 3}, Shape{3, 1}, Shape{7}, Shape{}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  sweep_all_pairs(p, {2, 3, 2}, DType::kInt64);
}

TEST(BoxingSamePlacement, Mesh2) {
  SWEEP_RANKS(2);
  const Placement p = flat(2);
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}, Shape{0, 3}, Shape{3, 1}, Shape{1}, Shape{}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  sweep_all_pairs(p, {5, 3}, DType::kInt64);
  sweep_all_pairs(p, {3, 2, 5}, DType::kFloat64);
  // 1- and 2-byte elements; partial sums wrap around.
  sweep_all_pairs(p, {5, 3}, DType::kUInt8);
  sweep_all_pairs(p, {3, 5}, DType::kInt16);
}

TEST(BoxingSamePlacement, Mesh3) {
  SWEEP_RANKS(3);
  const Placement p = flat(3);
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}, Shape{0, 3}, Shape{3, 1}, Shape{7}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  sweep_all_pairs(p, {5, 3}, DType::kFloat64);
  sweep_all_pairs(p, {2, 3, 4}, DType::kInt32);
  sweep_all_pairs(p, {5, 3}, DType::kInt8);
}

TEST(BoxingSamePlacement, Mesh4) {
  SWEEP_RANKS(4);
  const Placement p = flat(4);
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}, Shape{0, 3}, Shape{3, 1}, Shape{6}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  sweep_all_pairs(p, {3, 5}, DType::kInt64);
  sweep_all_pairs(p, {5, 2, 3}, DType::kFloat32);
  sweep_all_pairs(p, {5, 3}, DType::kUInt8);
  sweep_all_pairs(p, {3, 5}, DType::kInt16);
}

TEST(BoxingSamePlacement, Mesh2x2) {
  SWEEP_RANKS(4);
  const Placement p("cpu", {2, 2}, {0, 1, 2, 3});
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}, Shape{0, 3}, Shape{3, 1}, Shape{7}, Shape{}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  // Integers: an identity of max or min summed over an inner partial axis would overflow.
  sweep_all_pairs(p, {3, 1}, DType::kInt64);
  sweep_all_pairs(p, {2, 3, 3}, DType::kInt32);
  sweep_all_pairs(p, {3, 1}, DType::kUInt8);
  sweep_all_pairs(p, {5, 3}, DType::kInt16);
}

// Axis groups of ranks that are neither consecutive nor ordered ({3, 0}, {3, 2}, ...).
TEST(BoxingSamePlacement, Mesh2x2Permuted) {
  SWEEP_RANKS(4);
  sweep_all_pairs(Placement("cpu", {2, 2}, {3, 0, 2, 1}), {5, 3}, DType::kFloat32);
}

// Three hierarchy axes, the middle one of size 1. P(min) is left out to keep the pairs
// affordable (125 x 125 rather than 216 x 216); Mesh2x2 pairs it with everything else.
TEST(BoxingSamePlacement, Mesh2x1x2) {
  SWEEP_RANKS(4);
  const Placement p("cpu", {2, 1, 2}, {0, 1, 2, 3});
  const std::vector<NdSbp> sbps =
      nd_products({Sbp::split(0), Sbp::split(1), Sbp::broadcast(), Sbp::partial_sum(), Sbp::partial_max()}, 3);
  sweep(logical_value({5, 3}, DType::kFloat32), p, sbps, p, sbps);
}

TEST(BoxingSamePlacement, Mesh2x3) {
  REQUIRE_RANKS(6);
  const Placement p("cpu", {2, 3}, {0, 1, 2, 3, 4, 5});
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 7}, Shape{0, 3}, Shape{3, 1}}) {
    sweep_all_pairs(p, shape, DType::kFloat32);
  }
  sweep_all_pairs(p, {5, 2}, DType::kInt64);
}

// ---------------------------------------------------------------------------------------------
// Changing the placement.

struct PlacementPair {
  Placement from, to;
};

// Every pair of N-d SBPs between each pair of placements, on ranks inside and outside them;
// then from the CPU to the test device and back, and between two test-device placements
// (boxing across placements of different device types is the same planner's transfer, each
// piece moved with the copy between the two memories).
void sweep_placements(const std::vector<PlacementPair>& pairs, const Shape& shape, DType dtype) {
  const Tensor full = logical_value(shape, dtype);
  for (const PlacementPair& pp : pairs) {
    const std::vector<NdSbp> from = all_nd_sbps(shape.size(), pp.from.ndim()), to = all_nd_sbps(shape.size(), pp.to.ndim());
    sweep(full, pp.from, from, pp.to, to);
    for (const std::string& type : accelerators()) {
      sweep(full, pp.from, from, on(type, pp.to), to);
      sweep(full, on(type, pp.from), from, pp.to, to);
      sweep(full, on(type, pp.from), from, on(type, pp.to), to);
    }
  }
}

TEST(BoxingAcrossPlacements, TwoRanks) {
  REQUIRE_RANKS(2);
  const std::vector<PlacementPair> pairs = {
      {Placement("cpu", {0}), Placement("cpu", {1})},
      {Placement("cpu", {1}), Placement("cpu", {0, 1})},
      {Placement("cpu", {0, 1}), Placement("cpu", {1, 0})},
      {Placement("cpu", {0, 1}), Placement("cpu", {1})},
  };
  sweep_placements(pairs, {5, 3}, DType::kFloat32);
  sweep_placements(pairs, {0, 3}, DType::kInt32);
  sweep_placements(pairs, {}, DType::kFloat64);
}

TEST(BoxingAcrossPlacements, ThreeRanks) {
  REQUIRE_RANKS(3);
  const std::vector<PlacementPair> pairs = {
      {Placement("cpu", {0, 1}), Placement("cpu", {1, 2})},
      {Placement("cpu", {0, 1, 2}), Placement("cpu", {2, 0})},
      {Placement("cpu", {2}), Placement("cpu", {0, 1, 2})},
  };
  sweep_placements(pairs, {5, 3}, DType::kFloat32);
  sweep_placements(pairs, {3, 1}, DType::kFloat64);
}

TEST(BoxingAcrossPlacements, FourRanks) {
  REQUIRE_RANKS(4);
  const Placement mesh("cpu", {2, 2}, {0, 1, 2, 3});
  const std::vector<PlacementPair> pairs = {
      {Placement("cpu", {0, 1}), Placement("cpu", {2, 3})},
      {Placement("cpu", {0, 1, 2, 3}), mesh},
      {mesh, Placement("cpu", {0, 1, 2, 3})},
      {Placement("cpu", {0}), Placement("cpu", {0, 1, 2, 3})},
      {Placement("cpu", {0, 1, 2, 3}), Placement("cpu", {1})},
      {mesh, Placement("cpu", {3, 1})},
      {Placement("cpu", {2, 0}), mesh},
      {mesh, Placement("cpu", {2, 2}, {3, 2, 1, 0})},
      {Placement("cpu", {1, 2}, {3, 1}), mesh},
  };
  sweep_placements(pairs, {5, 3}, DType::kFloat32);
}

TEST(BoxingAcrossPlacements, FourRanksOtherShapesAndDtypes) {
  REQUIRE_RANKS(4);
  const Placement mesh("cpu", {2, 2}, {0, 1, 2, 3});
  const std::vector<PlacementPair> pairs = {
      {Placement("cpu", {0, 1}), Placement("cpu", {2, 3})},
      {mesh, Placement("cpu", {3, 1})},
  };
  sweep_placements(pairs, {0, 3}, DType::kFloat32);
  sweep_placements(pairs, {3, 1}, DType::kInt64);
  sweep_placements(pairs, {3, 2, 5}, DType::kFloat32);
  sweep_placements(pairs, {}, DType::kFloat32);
}

TEST(BoxingAcrossPlacements, OneDimTensor) {
  REQUIRE_RANKS(4);
  const Tensor full = logical_value({7}, DType::kFloat32);
  const std::vector<NdSbp> sbps = all_nd_sbps(1, 1);
  sweep(full, Placement("cpu", {0, 1, 2}), sbps, Placement("cpu", {3, 1}), sbps);
  sweep(full, Placement("cpu", {0}), sbps, Placement("cpu", {1, 2, 3}), sbps);
}

TEST(BoxingAcrossPlacements, SixRanks) {
  REQUIRE_RANKS(6);
  const Placement mesh("cpu", {2, 3}, {0, 1, 2, 3, 4, 5});
  const std::vector<PlacementPair> pairs = {
      {mesh, Placement("cpu", {3, 2}, {5, 4, 3, 2, 1, 0})},
      {Placement("cpu", {0, 1, 2, 3, 4, 5}), mesh},
      {mesh, Placement("cpu", {4, 1})},
      {mesh, Placement("cpu", {2, 2}, {1, 3, 5, 0})},
  };
  sweep_placements(pairs, {5, 7}, DType::kFloat32);
  sweep_placements(pairs, {3, 1}, DType::kInt64);
}

TEST(GlobalFromFull, EveryNdSbpKeepsTheRightPart) {
  std::vector<Placement> placements = {flat(1)};
  if (comm::world_size() >= 3) placements.push_back(Placement("cpu", {2, 0, 1}));
  if (comm::world_size() >= 4) placements.push_back(Placement("cpu", {2, 2}, {3, 1, 0, 2}));
  for (const Placement& p : placements) {
    for (const Shape& shape : {Shape{5, 3}, Shape{0, 2}}) {
      const Tensor full = logical_value(shape, DType::kFloat64);
      for (const NdSbp& nd_sbp : all_nd_sbps(shape.size(), p.ndim())) {
        GlobalTensor g = global_from_full(full, p, nd_sbp);
        auto what = [&] { return "global_from_full to " + g.layout().str(); };
        expect_local_is_balanced_part(g, full, what);
        EXPECT_TRUE(same_values(gather_full(g), full)) << what();
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Which collectives a conversion issues.

comm::CommStats issued_by(const std::function<void()>& f) {
  const comm::CommStats before = comm::stats();
  f();
  const comm::CommStats& after = comm::stats();
  comm::CommStats d;
  d.all_reduce = after.all_reduce - before.all_reduce;
  d.all_gather = after.all_gather - before.all_gather;
  d.reduce_scatter = after.reduce_scatter - before.reduce_scatter;
  d.all_to_all = after.all_to_all - before.all_to_all;
  d.direct_all_to_all = after.direct_all_to_all - before.direct_all_to_all;
  d.mapped_all_to_all = after.mapped_all_to_all - before.mapped_all_to_all;
  d.broadcast = after.broadcast - before.broadcast;
  d.send = after.send - before.send;
  d.recv = after.recv - before.recv;
  d.bytes_sent = after.bytes_sent - before.bytes_sent;
  return d;
}

std::string str(const comm::CommStats& s) {
  return "all_reduce=" + std::to_string(s.all_reduce) + " all_gather=" + std::to_string(s.all_gather) +
         " reduce_scatter=" + std::to_string(s.reduce_scatter) + " all_to_all=" + std::to_string(s.all_to_all) +
         " direct_all_to_all=" + std::to_string(s.direct_all_to_all) +
         " mapped_all_to_all=" + std::to_string(s.mapped_all_to_all) +
         " broadcast=" + std::to_string(s.broadcast) + " send=" + std::to_string(s.send) +
         " recv=" + std::to_string(s.recv) + " bytes_sent=" + std::to_string(s.bytes_sent);
}

bool same(const comm::CommStats& a, const comm::CommStats& b) { return str(a) == str(b); }

// Converts a source built from `full` and checks the value and what this rank issued.
void expect_issues(const Tensor& full, const Placement& p, const NdSbp& from, const NdSbp& to,
                   const comm::CommStats& expected) {
  auto what = [&] { return describe(full.shape(), full.dtype(), {p, from}, {p, to}); };
  GlobalTensor src = make_source(full, p, from);
  std::optional<GlobalTensor> out;
  const comm::CommStats issued = issued_by([&] { out = to_global(src, p, to); });
  EXPECT_TRUE(same(issued, expected)) << "issued " << str(issued) << "\nexpected " << str(expected) << "\n" << what();
  expect_local_is_balanced_part(*out, full, what);
  EXPECT_TRUE(same_values(gather_full(*out), full)) << what();
}

// The bytes of the status words a float32 all-reduce over `members` ranks carries (one each;
// an all-gather's member sends its own alone) beside the data (boxing/execute.h, PartStatus).
int64_t status_words(int members) { return members * static_cast<int64_t>(sizeof(float)); }

// The bytes of this rank's part under (p, nd_sbp); 0 outside p.
int64_t part_bytes(const Tensor& full, const Placement& p, const NdSbp& nd_sbp) {
  const int id = p.parallel_id(me());
  if (id < 0) return 0;
  return local_box(full.shape(), p.hierarchy(), nd_sbp, p.coordinate(id)).numel() *
         static_cast<int64_t>(dtype_size(full.dtype()));
}

// MPI returns its errors (MPI_ERRORS_RETURN) and meshflow raises them with the call named;
// the job goes on: a collective afterwards still works on every rank.
TEST(BoxingCollectives, MpiErrorsBecomeExceptionsNotAborts) {
  float x = 1;
  const int bad_peer = comm::world_size() + 3;
  try {
    comm::world().exchange({comm::Message{&x, 1, bad_peer}}, {}, DType::kFloat32, 0);
    ADD_FAILURE() << "a send to rank " << bad_peer << " did not raise";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("MPI_Isend failed"), std::string::npos) << e.what();
  }
  GlobalTensor g = make_source(logical_value({6, 2}, DType::kFloat32), flat(comm::world_size()), {Sbp::split(0)});
  EXPECT_TRUE(same_values(gather_full(g), logical_value({6, 2}, DType::kFloat32)));
}

TEST(BoxingCollectives, OneAxisConversionsOnFourRanks) {
  REQUIRE_RANKS(4);
  const Placement p = flat(4);
  const bool inside = p.contains(me());
  const Sbp s0 = Sbp::split(0), s1 = Sbp::split(1), b = Sbp::broadcast(), sum = Sbp::partial_sum();
  for (const Shape& shape : {Shape{4, 6}, Shape{5, 3}}) {
    const Tensor full = logical_value(shape, DType::kFloat32);
    const int64_t whole = inside ? static_cast<int64_t>(full.nbytes()) : 0;
    comm::CommStats gather, none, reduce, scatter, to_all;
    gather.all_gather = inside;
    gather.bytes_sent = part_bytes(full, p, {s0}) + (inside ? status_words(1) : 0);
    expect_issues(full, p, {s0}, {b}, gather);
    expect_issues(full, p, {b}, {s1}, none);
    reduce.all_reduce = inside;
    reduce.bytes_sent = whole + (inside ? status_words(4) : 0);
    expect_issues(full, p, {sum}, {b}, reduce);
    expect_issues(full, p, {Sbp::partial_max()}, {b}, reduce);
    scatter.reduce_scatter = inside;
    scatter.bytes_sent = whole;
    expect_issues(full, p, {sum}, {s0}, scatter);
    to_all.all_to_all = inside;
    // Everything but the piece this rank keeps, which it copies itself.
    const int64_t kept = inside ? intersect(local_box(shape, p.hierarchy(), {s0}, p.coordinate(p.parallel_id(me()))),
                                            local_box(shape, p.hierarchy(), {s1}, p.coordinate(p.parallel_id(me()))))
                                          .numel() * 4
                                : 0;
    to_all.bytes_sent = part_bytes(full, p, {s0}) - kept;
    expect_issues(full, p, {s0}, {s1}, to_all);
  }
}

// Whether this machine lets a process read and write its peers' memory (Yama's ptrace
// scope 0, or no Yama): then large all-to-alls must take the direct path.
bool cross_memory_allowed() {
  std::FILE* f = std::fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
  if (!f) return true;
  int scope = 1;
  if (std::fscanf(f, "%d", &scope) != 1) scope = 1;
  std::fclose(f);
  return scope == 0;
}

// Split-to-split conversions of tensors of over 1 MiB copy straight between the ranks'
// memory (no packing): pieces strided on the sending side, on the receiving side, on both
// (3-d), uneven on every dim, on 1-d and 2-d meshes, float64 and float32.
TEST(BoxingCollectives, LargeSplitToSplitCopiesDirectly) {
  const std::vector<Placement> meshes = {flat(2), flat(3), flat(4), Placement("cpu", {2, 2}, {0, 1, 2, 3})};
  for (const Placement& p : meshes) {
    if (p.size() > comm::world_size()) continue;
    const bool inside = p.contains(me());
    for (const auto& [shape, dtype] : {std::pair{Shape{7, 203, 97}, DType::kFloat64},
                                       std::pair{Shape{5, 409, 263}, DType::kFloat32}}) {
      const Tensor full = logical_value(shape, dtype);
      std::vector<NdSbp> splits;
      for (const NdSbp& s : all_nd_sbps(shape.size(), p.ndim())) {
        if (std::all_of(s.begin(), s.end(), [](const Sbp& x) { return x.is_split(); })) splits.push_back(s);
      }
      for (const NdSbp& from : splits) {
        GlobalTensor src = make_source(full, p, from);
        for (const NdSbp& to : splits) {
          if (from == to) continue;
          auto what = [&] { return describe(shape, dtype, {p, from}, {p, to}); };
          std::optional<GlobalTensor> out;
          const comm::CommStats issued = issued_by([&] { out = to_global(src, p, to); });
          EXPECT_TRUE(same_values(gather_full(*out), full)) << what();
          expect_local_is_balanced_part(*out, full, what);
          if (inside) {
            // A 1-d mesh's split-to-split is one all-to-all; a 2-d mesh's may be a transfer.
            // Its output is a shared block, so the pieces are written through mappings.
            if (p.ndim() == 1) {
              EXPECT_EQ(issued.all_to_all, 1) << str(issued) << "\n" << what();
            }
            EXPECT_EQ(issued.direct_all_to_all, issued.all_to_all) << str(issued) << "\n" << what();
            EXPECT_EQ(issued.mapped_all_to_all, issued.all_to_all) << str(issued) << "\n" << what();
          }
        }
      }
    }
  }
}

// Group::all_to_all_direct picks its way per call: through mappings where every receiver's
// buffer is a shared block, else by cross-memory attach (where Yama allows it), else not
// at all; every member alike. Each rank sends every member a column block of its rows
// (strided runs) and receives row blocks (one run each), with its own piece among them;
// rows and columns uneven.
TEST(BoxingCollectives, DirectAllToAllMapsSharedReceiversAndAttachesOtherwise) {
  const int n = comm::world_size();
  std::vector<int> everyone(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) everyone[static_cast<size_t>(r)] = r;
  comm::Group& group = comm::group_of(everyone);
  auto rows_of = [](int r) { return int64_t{3} + r; };
  // Rows of 40 bytes and more are copied whole; of 296 and more (37 doubles) with
  // non-temporal stores between an unaligned head and tail.
  for (const int64_t narrowest : {int64_t{5}, int64_t{37}}) {
    auto cols_of = [narrowest](int r) { return narrowest + 2 * r; };
    int64_t all_rows = 0, all_cols = 0;
    for (int r = 0; r < n; ++r) all_rows += rows_of(r), all_cols += cols_of(r);
    auto value = [](int rank, int64_t i, int64_t j) { return static_cast<double>(rank * 100000 + i * 1000 + j); };
    // Rank r's input: its rows_of(r) rows of all columns; its output: every rank's rows of
    // its own columns, rank by rank.
    Tensor in = Tensor::empty({rows_of(me()), all_cols}, DType::kFloat64);
    for (int64_t i = 0; i < rows_of(me()); ++i) {
      for (int64_t j = 0; j < all_cols; ++j) in.data_as<double>()[i * all_cols + j] = value(me(), i, j);
    }
    struct Case {
      const char* name;
      bool (*shared)(int rank);
    };
    const Case cases[] = {{"every receiver shared", [](int) { return true; }},
                          {"no receiver shared", [](int) { return false; }},
                          {"rank 0's receiver private", [](int r) { return r != 0; }}};
    for (const Case& c : cases) {
      const size_t out_bytes = static_cast<size_t>(all_rows * cols_of(me())) * sizeof(double);
      std::shared_ptr<void> memory = c.shared(me()) ? allocate_host_shared(out_bytes) : allocate_host(out_bytes);
      EXPECT_EQ(shared_block_of(memory.get(), out_bytes).has_value(), c.shared(me())) << c.name;
      auto* out = static_cast<double*>(memory.get());
      std::fill(out, out + all_rows * cols_of(me()), -1.0);
      std::vector<comm::Runs> send(static_cast<size_t>(n)), recv(static_cast<size_t>(n));
      int64_t col = 0, row = 0;
      for (int m = 0; m < n; ++m) {
        for (int64_t i = 0; i < rows_of(me()); ++i) {
          send[static_cast<size_t>(m)].push_back(
              {in.data_as<double>() + i * all_cols + col, cols_of(m) * static_cast<int64_t>(sizeof(double))});
        }
        recv[static_cast<size_t>(m)].push_back(
            {out + row * cols_of(me()), rows_of(m) * cols_of(me()) * static_cast<int64_t>(sizeof(double))});
        col += cols_of(m);
        row += rows_of(m);
      }
      bool all_shared = true;
      for (int r = 0; r < n; ++r) all_shared = all_shared && c.shared(r);
      const comm::CommStats before = comm::stats();
      const bool done = group.all_to_all_direct(send, recv);
      const comm::CommStats after = comm::stats();
      ASSERT_EQ(done, all_shared || cross_memory_allowed()) << c.name;
      if (!done) continue;
      EXPECT_EQ(after.mapped_all_to_all - before.mapped_all_to_all, all_shared ? 1 : 0) << c.name;
      int64_t my_col = 0;
      for (int r = 0; r < me(); ++r) my_col += cols_of(r);
      int64_t wrong = 0;
      row = 0;
      for (int m = 0; m < n; ++m) {
        for (int64_t i = 0; i < rows_of(m); ++i, ++row) {
          for (int64_t j = 0; j < cols_of(me()); ++j) wrong += out[row * cols_of(me()) + j] != value(m, i, my_col + j);
        }
      }
      EXPECT_EQ(wrong, 0) << c.name << ", rows of " << narrowest << " columns and more";
    }
  }
}

TEST(BoxingCollectives, PartialInsideRowsReducesInsideRows) {
  REQUIRE_RANKS(4);
  const Placement mesh("cpu", {2, 2}, {0, 1, 2, 3});
  const Tensor full = logical_value({4, 6}, DType::kFloat32);
  const NdSbp from{Sbp::split(0), Sbp::partial_sum()}, to{Sbp::split(0), Sbp::broadcast()};
  const boxing::Plan plan = boxing::plan_boxing(full.shape(), full.dtype(), {mesh, from}, {mesh, to});
  ASSERT_EQ(plan.steps.size(), 1u) << plan.str();
  EXPECT_EQ(plan.steps[0].kind, boxing::StepKind::kAllReduce) << plan.str();
  EXPECT_EQ(plan.steps[0].axis, 1) << plan.str();  // inside the groups {0, 1} and {2, 3}
  comm::CommStats reduce;
  reduce.all_reduce = mesh.contains(me());
  reduce.bytes_sent = part_bytes(full, mesh, from) + (mesh.contains(me()) ? status_words(2) : 0);
  expect_issues(full, mesh, from, to, reduce);
}

// ---------------------------------------------------------------------------------------------
// Local -> global from parts of arbitrary sizes.

// Elements [start, start + size) of `full` along `dim`, as a tensor of its own.
Tensor part_along(const Tensor& full, int dim, int64_t start, int64_t size) {
  Box b = Box::whole(full.shape());
  b.start[dim] = start;
  b.extent[dim] = size;
  return slice(full, b).clone();
}

TEST(MakeGlobal, UnevenSplitPartsAreRebalanced) {
  const int n = comm::world_size();
  const Placement p = flat(n);
  int64_t rows = 0, my_start = 0;
  for (int r = 0; r < n; ++r) {
    if (r == me()) my_start = rows;
    rows += r + 1;
  }
  for (DType dtype : {DType::kFloat32, DType::kInt64}) {
    const Tensor full = logical_value({rows, 3}, dtype);
    GlobalTensor g = make_global(part_along(full, 0, my_start, me() + 1), p, {Sbp::split(0)}, false);
    auto what = [&] { return "rank r contributes r + 1 rows; " + g.layout().str(); };
    ASSERT_EQ(g.shape(), full.shape()) << what();
    expect_local_is_balanced_part(g, full, what);
    EXPECT_TRUE(same_values(gather_full(g), full)) << what();
    expect_converts(g, full, p, {Sbp::split(1)});
  }
}

TEST(MakeGlobal, UnevenColumnsOnPermutedRanks) {
  REQUIRE_RANKS(2);
  const Placement p("cpu", {1, 0});  // parallel id 0 is rank 1
  const Tensor full = logical_value({2, 5}, DType::kFloat32);
  Tensor mine = boxing::empty_local(full.shape(), full.dtype());
  if (me() == 1) mine = part_along(full, 1, 0, 4);
  if (me() == 0) mine = part_along(full, 1, 4, 1);
  GlobalTensor g = make_global(mine, p, {Sbp::split(1)}, false);
  auto what = [&] { return g.layout().str(); };
  ASSERT_EQ(g.shape(), full.shape()) << what();
  expect_local_is_balanced_part(g, full, what);
  EXPECT_TRUE(same_values(gather_full(g), full)) << what();
}

// Parts on [[0, 1], [2, 3]] given by hand: the region of the logical tensor each rank holds.
struct GivenParts {
  NdSbp nd_sbp;
  Shape logical;
  std::vector<Box> regions;  // by parallel id
};

// Builds each rank's part, makes the global tensor and checks it. Partial axes spread the
// whole value before the regions are cut, so the partial values of an element are the same
// whichever part holds it.
void expect_given_parts_form(const GivenParts& c, DType dtype) {
  const Placement mesh("cpu", {2, 2}, {0, 1, 2, 3});
  const Tensor full = logical_value(c.logical, dtype);
  Tensor mine = boxing::empty_local(c.logical, dtype);
  const int id = mesh.parallel_id(me());
  if (id >= 0) {
    Tensor v = full;
    for (int axis = 0; axis < mesh.ndim(); ++axis) {
      const Sbp& s = c.nd_sbp[axis];
      if (s.is_partial()) v = partial_local(v, s.reduce_op(), axis, 2, mesh.coordinate(id)[axis]);
    }
    mine = slice(v, c.regions[id]).clone();
  }
  GlobalTensor g = make_global(mine, mesh, c.nd_sbp, false);
  auto what = [&] { return "parts of uneven sizes, " + g.layout().str(); };
  ASSERT_EQ(g.shape(), full.shape()) << what();
  expect_local_is_balanced_part(g, full, what);
  EXPECT_TRUE(same_values(gather_full(g), full)) << what();
}

TEST(MakeGlobal, UnevenNestedParts) {
  REQUIRE_RANKS(4);
  const Sbp s0 = Sbp::split(0), s1 = Sbp::split(1);
  const std::vector<GivenParts> cases = {
      // Rows split across mesh rows (3 then 1), columns inside each row (1 + 3, then 4 + 0).
      {{s0, s1}, {4, 4}, {{{0, 0}, {3, 1}}, {{0, 1}, {3, 3}}, {{3, 0}, {1, 4}}, {{3, 4}, {1, 0}}}},
      // Columns 2 + 1 across mesh rows; rows 1 + 2 in the first, 3 + 0 in the second.
      {{s1, s0}, {3, 3}, {{{0, 0}, {1, 2}}, {{1, 0}, {2, 2}}, {{0, 2}, {3, 1}}, {{3, 2}, {0, 1}}}},
      // Rows nested twice: 2 + 0 in the first mesh row, 1 + 4 in the second.
      {{s0, s0}, {7, 2}, {{{0, 0}, {2, 2}}, {{2, 0}, {0, 2}}, {{2, 0}, {1, 2}}, {{3, 0}, {4, 2}}}},
      // Partial values inside rows of different heights.
      {{s0, Sbp::partial_sum()}, {5, 3}, {{{0, 0}, {4, 3}}, {{0, 0}, {4, 3}}, {{4, 0}, {1, 3}}, {{4, 0}, {1, 3}}}},
      {{s0, Sbp::partial_max()}, {5, 3}, {{{0, 0}, {1, 3}}, {{0, 0}, {1, 3}}, {{1, 0}, {4, 3}}, {{1, 0}, {4, 3}}}},
      // Columns cut 2 + 1 under one partial-min row and 0 + 3 under the other.
      {{Sbp::partial_min(), s1}, {2, 3}, {{{0, 0}, {2, 2}}, {{0, 2}, {2, 1}}, {{0, 0}, {2, 0}}, {{0, 0}, {2, 3}}}},
  };
  for (const GivenParts& c : cases) expect_given_parts_form(c, DType::kFloat32);
  expect_given_parts_form(cases[0], DType::kInt64);
}

// ---------------------------------------------------------------------------------------------
// Bad input: every rank throws the same std::invalid_argument and stays usable.

template <typename F>
void expect_invalid(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << needle << "', nothing was thrown";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "the message '" << e.what() << "' does not mention '" << needle << "'";
  }
}

// A valid conversion after an error: no rank is left waiting in a collective.
void expect_still_usable() {
  const Placement p = flat(comm::world_size());
  const Tensor full = logical_value({5, 3}, DType::kFloat32);
  expect_converts(make_source(full, p, {Sbp::split(0)}), full, p, {Sbp::partial_max()});
}

TEST(BadInput, SplitDimOutOfRange) {
  const Placement p = flat(comm::world_size());
  const Tensor full = logical_value({4, 3}, DType::kFloat32);
  expect_invalid([&] { make_global(full, p, {Sbp::split(2)}, false); }, "splits dim 2");
  expect_still_usable();
  GlobalTensor g = make_source(full, p, {Sbp::split(0)});
  expect_invalid([&] { to_global(g, p, {Sbp::split(5)}); }, "splits dim 5");
  expect_still_usable();
  expect_invalid([] { Sbp::split(-1); }, "negative");
}

TEST(BadInput, NdSbpLengthDiffersFromHierarchy) {
  const int n = comm::world_size();
  std::vector<int> ranks(n);
  for (int i = 0; i < n; ++i) ranks[i] = i;
  const Placement mesh("cpu", {1, n}, ranks);
  const Tensor full = logical_value({4, 3}, DType::kFloat32);
  expect_invalid([&] { make_global(full, mesh, {Sbp::broadcast()}, false); }, "expected one sbp per axis");
  expect_still_usable();
  GlobalTensor g = make_source(full, mesh, {Sbp::broadcast(), Sbp::split(0)});
  expect_invalid([&] { to_global(g, flat(n), {Sbp::broadcast(), Sbp::broadcast()}); }, "expected one sbp per axis");
  expect_still_usable();
}

TEST(BadInput, PlacementOutsideTheWorld) {
  const int n = comm::world_size();
  const Placement too_big("cpu", {0, n});
  const Tensor full = logical_value({4, 3}, DType::kFloat32);
  expect_invalid([&] { make_global(full, too_big, {Sbp::broadcast()}, false); }, "outside the world");
  expect_still_usable();
  GlobalTensor g = make_source(full, flat(n), {Sbp::split(0)});
  expect_invalid([&] { to_global(g, too_big, {Sbp::split(1)}); }, "outside the world");
  expect_still_usable();
}

TEST(BadInput, PlacementWithRepeatedRanks) {
  expect_invalid([] { Placement("cpu", {0, 0}); }, "repeated");
  expect_invalid([] { Placement("cpu", {2, 2}, {0, 1, 1, 2}); }, "repeated");
  expect_still_usable();
}

TEST(BadInput, PartsThatCannotFormOneTensor) {
  REQUIRE_RANKS(2);
  const Placement p = flat(comm::world_size());
  const bool odd_one = me() == 1;
  expect_invalid(
      [&] {
        make_global(Tensor::zeros({2, odd_one ? 4 : 3}, DType::kFloat32), p, {Sbp::split(0)}, false);
      },
      "cannot form one tensor");
  expect_still_usable();
  expect_invalid(
      [&] {
        make_global(Tensor::zeros({odd_one ? 3 : 2, 3}, DType::kFloat32), p, {Sbp::broadcast()}, false);
      },
      "cannot form one tensor");
  expect_still_usable();
  expect_invalid(
      [&] {
        make_global(Tensor::zeros(odd_one ? Shape{2, 3, 1} : Shape{2, 3}, DType::kFloat32), p, {Sbp::split(0)}, false);
      },
      "has 3 dims but");
  expect_still_usable();
  expect_invalid(
      [&] {
        make_global(Tensor::zeros({2, 3}, odd_one ? DType::kInt64 : DType::kFloat32), p, {Sbp::split(0)}, false);
      },
      "int64 but rank 0's is float32");
  expect_still_usable();
  expect_invalid(
      [&] {
        make_global(Tensor::zeros({2, 3}, DType::kFloat32), p, {odd_one ? Sbp::split(1) : Sbp::split(0)}, false);
      },
      "rank(s) 1 made a different call than rank 0");
  expect_still_usable();
}

TEST(BadInput, ReplicasThatDifferWithConsistencyCheck) {
  REQUIRE_RANKS(2);
  const Placement p = flat(comm::world_size());
  Tensor mine = logical_value({2, 3}, DType::kFloat32);
  if (me() == 1) mine.data_as<float>()[0] += 1;
  expect_invalid([&] { make_global(mine, p, {Sbp::broadcast()}, true); }, "values differ");
  expect_still_usable();
  const Tensor full = logical_value({2, 3}, DType::kFloat32);
  GlobalTensor g = make_global(full, p, {Sbp::broadcast()}, true);
  EXPECT_TRUE(same_values(gather_full(g), full));
}

// (B, S(0)) with each mesh row holding the whole tensor, cut 3 + 1 in the first row and
// 1 + 3 in the second: every region must be sent by a replica that holds it.
TEST(MakeGlobal, UnevenPartsCutDifferentlyInEachReplica) {
  REQUIRE_RANKS(4);
  expect_given_parts_form({{Sbp::broadcast(), Sbp::split(0)},
                           {4, 2},
                           {{{0, 0}, {3, 2}}, {{3, 0}, {1, 2}}, {{0, 0}, {1, 2}}, {{1, 0}, {3, 2}}}},
                          DType::kFloat32);
}

// The VM's queue depth (vm.cc's back pressure) across ranks: rank 0's compute stream is held
// while every rank issues 1,500 conversions, more than the 1,024 instructions an issuing
// thread may run ahead. Rank 0's issuing thread then waits for its own queue, the others
// for collectives that rank 0 has issued but not run; once it is released, every
// collective must still meet its match and the value come back whole (a deadlock would end
// in the suite's time limit).
TEST(BoxingCollectives, ConversionsBeyondTheQueueDepthWithOneRankHeldKeepTheValue) {
  REQUIRE_RANKS(2);
  const Placement p = flat(comm::world_size());
  const Tensor full = logical_value({12, 10}, DType::kFloat32);
  const NdSbp start{Sbp::split(0)};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  const Tensor mine = local_part(full, p, start, me());
  // The source's local part, made on the compute stream: on rank 0 only after the release.
  const Tensor held = vm::launch("held", device::StreamKind::kCompute, {mine}, {{mine.shape(), mine.dtype()}},
                                 [&](const std::vector<Tensor>& in) {
                                   if (me() == 0) released.wait();
                                   return std::vector<Tensor>{in[0].clone()};
                                 })[0];
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    release.set_value();
  });
  GlobalTensor x(full.shape(), p, start, held);
  const NdSbp layouts[] = {{Sbp::split(1)}, {Sbp::broadcast()}, {Sbp::split(0)}};
  for (int i = 0; i < 1500; ++i) x = to_global(x, p, layouts[i % 3]);
  EXPECT_TRUE(same_values(gather_full(x), full));
  opener.join();
}

}  // namespace
}  // namespace mf
