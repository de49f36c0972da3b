// Copyright 2026 The meshflow Authors.
// Creation ops under mpirun: every valid signature on every mesh against the single-device
// result (op_check.h), the single-device values themselves, the random generator (seeding,
// global equals local, known answer, moments), randperm, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "meshflow/ops/creation.h"
#include "meshflow/ops/dispatch.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

const Sbp S0 = Sbp::split(0), S1 = Sbp::split(1), B = Sbp::broadcast(), P = Sbp::partial_sum();
const DType kDTypes[] = {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64};
// Even and uneven splits on 2 and 4 ranks, zero-size dims, a scalar.
const Shape kShapes[] = {{4, 6}, {5, 3}, {2, 3, 5}, {0, 3}, {3, 0}, {7}, {}};

int power(size_t base, int exponent) { return static_cast<int>(std::pow(base, exponent)); }

Tensor local(const std::string& op, const Attrs& attrs) { return apply_local(find_op(op), {}, attrs)[0]; }

Attrs shaped(const Shape& shape, DType dtype) { return {{"shape", shape}, {"dtype", dtype}}; }

Attrs random_attrs(const Shape& shape, DType dtype) {
  const RandomCall call = next_random_call(numel(shape));
  return shaped(shape, dtype).set("seed", call.seed).set("offset", call.offset);
}

// A tensor of `shape` with value_at(i) at row-major index i.
template <typename T, typename F>
Tensor filled(const Shape& shape, DType dtype, F value_at) {
  Tensor t = Tensor::empty(shape, dtype);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] = value_at(i);
  return t;
}

TEST(Creation, ConstantsEverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const Shape& shape : kShapes) {
      for (DType dtype : kDTypes) {
        const Attrs attrs = shaped(shape, dtype);
        const int splits = power(shape.size() + 1, p.ndim());
        // P: every rank holds zeros, whose sum is zero.
        EXPECT_EQ(check_every_signature("zeros", {}, attrs, p, 0), power(shape.size() + 2, p.ndim()));
        EXPECT_EQ(check_every_signature("ones", {}, attrs, p, 0), splits);
        EXPECT_EQ(check_every_signature("full", {}, Attrs(attrs).set("value", -7.0), p, 0), splits);
      }
    }
    check_every_signature("full", {}, shaped({5, 3}, DType::kInt64).set("value", int64_t{1} << 60), p, 0);
  }
}

TEST(Creation, ConstantsHaveTheirValues) {
  for (DType dtype : kDTypes) {
    visit_dtype(dtype, [&](auto v) {
      using T = decltype(v);
      EXPECT_TRUE(close(local("zeros", shaped({3, 4}, dtype)), filled<T>({3, 4}, dtype, [](int64_t) { return 0; }), 0));
      EXPECT_TRUE(close(local("ones", shaped({3, 4}, dtype)), filled<T>({3, 4}, dtype, [](int64_t) { return 1; }), 0));
      EXPECT_TRUE(close(local("full", shaped({2, 0}, dtype).set("value", 2.0)), Tensor::empty({2, 0}, dtype), 0));
      EXPECT_TRUE(close(local("full", shaped({}, dtype).set("value", -3.0)),
                        filled<T>({}, dtype, [](int64_t) { return -3; }), 0));
    });
  }
  EXPECT_EQ(local("zeros", {{"shape", Shape{2}}}).dtype(), DType::kFloat32);  // float32 by default
  const int64_t big = (int64_t{1} << 60) + 1;  // not a double: the int attribute stays exact
  EXPECT_EQ(local("full", shaped({2}, DType::kInt64).set("value", big)).data_as<int64_t>()[1], big);
  EXPECT_EQ(local("full", shaped({2}, DType::kFloat32).set("value", 2.5)).data_as<float>()[0], 2.5f);
}

Attrs arange(AttrValue start, AttrValue end, AttrValue step, DType dtype) {
  return {{"start", start}, {"end", end}, {"step", step}, {"dtype", dtype}};
}

TEST(Creation, ArangeEverySignatureMatchesOneDevice) {
  const Attrs cases[] = {
      arange(int64_t{0}, int64_t{10}, int64_t{1}, DType::kInt64),   // even on 2 ranks
      arange(int64_t{2}, int64_t{11}, int64_t{3}, DType::kInt32),   // 3 elements: uneven
      arange(1.0, -2.0, -0.5, DType::kFloat64),                     // negative step
      arange(0.5, 7.25, 1.0, DType::kFloat32),                      // 7 elements
      arange(int64_t{5}, int64_t{5}, int64_t{1}, DType::kFloat32),  // empty
      arange(int64_t{0}, int64_t{1}, int64_t{1}, DType::kInt64),    // one element: empty shards
  };
  for (const Placement& p : op_meshes()) {
    for (const Attrs& attrs : cases) EXPECT_EQ(check_every_signature("arange", {}, attrs, p, 0), power(2, p.ndim()));
  }
}

TEST(Creation, ArangeHasItsValues) {
  EXPECT_TRUE(close(local("arange", arange(int64_t{2}, int64_t{11}, int64_t{3}, DType::kInt32)),
                    filled<int32_t>({3}, DType::kInt32, [](int64_t i) { return 2 + 3 * i; }), 0));
  EXPECT_TRUE(close(local("arange", arange(1.0, -2.0, -0.5, DType::kFloat64)),
                    filled<double>({6}, DType::kFloat64, [](int64_t i) { return 1 - 0.5 * i; }), 0));
  EXPECT_TRUE(close(local("arange", arange(0.0, 1.0, 0.1, DType::kFloat32)),
                    filled<float>({10}, DType::kFloat32, [](int64_t i) { return 0.1 * i; }), 1e-7));
  const int64_t big = (int64_t{1} << 60) + 1;
  EXPECT_EQ(local("arange", arange(big, big + 4, int64_t{3}, DType::kInt64)).data_as<int64_t>()[1], big + 3);
  EXPECT_EQ(local("arange", arange(int64_t{0}, int64_t{-1}, int64_t{-1}, DType::kInt64)).shape(), Shape{1});
}

TEST(Creation, RandomEverySignatureIsTheOneDeviceValue) {
  for (const Placement& p : op_meshes()) {
    for (const char* op : {"rand", "randn"}) {
      for (const Shape& shape : kShapes) {
        for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
          const Attrs attrs = shaped(shape, dtype).set("seed", int64_t{-5}).set("offset", int64_t{1000});
          EXPECT_EQ(check_every_signature(op, {}, attrs, p, 0), power(shape.size() + 1, p.ndim()));
        }
      }
    }
  }
}

// What rand/randn users do: seed, then call; the global tensor equals the local call's.
TEST(Creation, GlobalRandomEqualsLocalAfterSeeding) {
  for (const Placement& p : op_meshes()) {
    const std::vector<NdSbp> layouts = p.ndim() == 1 ? std::vector<NdSbp>{{S0}, {S1}, {B}}
                                                     : std::vector<NdSbp>{{S0, S0}, {S0, S1}, {S1, B}, {B, B}};
    for (const char* op : {"rand", "randn"}) {
      for (const NdSbp& sbp : layouts) {
        for (const Shape& shape : {Shape{5, 3}, Shape{4, 6}}) {
          manual_seed(42);
          const Tensor first = local(op, random_attrs(shape, DType::kFloat32));
          const Tensor second = local(op, random_attrs(shape, DType::kFloat32));
          manual_seed(42);
          Constraints c;
          c.placement = p;
          c.outputs.push_back(sbp);
          auto global_call = [&] { return apply_global(find_op(op), {}, random_attrs(shape, DType::kFloat32), c)[0]; };
          const Tensor global_first = gather_full(global_call());
          const GlobalTensor g = global_call();
          EXPECT_EQ(g.nd_sbp(), sbp);
          EXPECT_TRUE(close(global_first, first, 0)) << op << " " << to_string(sbp) << " on " << p.str();
          EXPECT_TRUE(close(gather_full(g), second, 0)) << op << " " << to_string(sbp) << " on " << p.str();
          EXPECT_FALSE(equal(first, second)) << "successive calls must differ";
        }
      }
    }
  }
}

TEST(Creation, SeedAndOffsetState) {
  manual_seed(7);
  const RandomCall a = next_random_call(12), b = next_random_call(0), c = next_random_call(5);
  EXPECT_EQ(a.seed, 7);
  EXPECT_EQ(a.offset, 0);
  EXPECT_EQ(b.offset, 12);
  EXPECT_EQ(c.offset, 12);
  manual_seed(7);
  EXPECT_EQ(next_random_call(1).offset, 0);
  EXPECT_THROW(next_random_call(-1), std::invalid_argument);
  // A saved state replays the draws that followed it.
  const GeneratorState saved = generator_state();
  EXPECT_EQ(saved.seed, 7u);
  EXPECT_EQ(saved.offset, 1u);
  const RandomCall after = next_random_call(4);
  manual_seed(99);
  set_generator_state(saved);
  const RandomCall replayed = next_random_call(4);
  EXPECT_EQ(replayed.seed, after.seed);
  EXPECT_EQ(replayed.offset, after.offset);
  // Counters are logical indices: two calls of n equal one call of 2n.
  const Attrs base = shaped({6}, DType::kFloat32).set("seed", int64_t{3});
  const Tensor both = local("rand", Attrs(base).set("shape", Shape{12}).set("offset", int64_t{0}));
  EXPECT_TRUE(close(local("rand", Attrs(base).set("offset", int64_t{6})), slice(both, {{6}, {6}}), 0));
}

// Random123's kat_vectors: philox4x32 10, counter 0, key 0 -> 6627e8d5 e169c58d ...
TEST(Creation, RandIsPhilox4x32KnownAnswer) {
  const Attrs attrs = Attrs{{"shape", Shape{1}}, {"seed", int64_t{0}}, {"offset", int64_t{0}}};
  EXPECT_EQ(local("rand", Attrs(attrs).set("dtype", DType::kFloat32)).data_as<float>()[0],
            static_cast<float>(0x6627e8d5u >> 8) * 0x1p-24f);
  EXPECT_EQ(local("rand", Attrs(attrs).set("dtype", DType::kFloat64)).data_as<double>()[0],
            static_cast<double>((uint64_t{0x6627e8d5u} << 32 | 0xe169c58du) >> 11) * 0x1p-53);
}

struct Moments {
  double mean, std, min, max;
};

Moments moments_of(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* p = t.data_as<T>();
    double sum = 0, sq = 0, lo = p[0], hi = p[0];
    for (int64_t i = 0; i < t.numel(); ++i) {
      sum += p[i];
      sq += static_cast<double>(p[i]) * p[i];
      lo = std::min<double>(lo, p[i]);
      hi = std::max<double>(hi, p[i]);
    }
    const double mean = sum / t.numel();
    return Moments{mean, std::sqrt(sq / t.numel() - mean * mean), lo, hi};
  });
}

TEST(Creation, RandomMoments) {
  manual_seed(2026);
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    // 1e5 samples: the standard error of the mean is 1/316 of the std; allow 6 of them.
    const Moments n = moments_of(local("randn", random_attrs({100, 1000}, dtype)));
    EXPECT_NEAR(n.mean, 0, 0.02);
    EXPECT_NEAR(n.std, 1, 0.01);
    const Moments u = moments_of(local("rand", random_attrs({100, 1000}, dtype)));
    EXPECT_NEAR(u.mean, 0.5, 0.006);
    EXPECT_NEAR(u.std, std::sqrt(1.0 / 12), 0.003);
    EXPECT_GE(u.min, 0);
    EXPECT_LT(u.max, 1);
  }
}

TEST(Creation, RequestedOutputSbpPicksTheSignature) {
  for (const Placement& p : op_meshes()) {
    for (const NdSbp& sbp : {NdSbp(p.ndim(), P), NdSbp(p.ndim(), S1), NdSbp(p.ndim(), B)}) {
      Constraints c;
      c.placement = p;
      c.outputs.push_back(sbp);
      const GlobalTensor z = apply_global(find_op("zeros"), {}, shaped({3, 5}, DType::kFloat32), c)[0];
      EXPECT_EQ(z.nd_sbp(), sbp);
      EXPECT_TRUE(close(gather_full(z), Tensor::zeros({3, 5}, DType::kFloat32), 0));
    }
  }
}

TEST(Creation, BadInputGivesClearErrors) {
  expect_error([] { local("zeros", shaped({2, -1}, DType::kFloat32)); },
               "[zeros] shape [2, -1] has a negative size; expected sizes >= 0");
  expect_error([] { local("ones", {{"dtype", DType::kFloat32}}); }, "[ones] missing attribute 'shape'");
  expect_error([] { local("full", shaped({2}, DType::kFloat32)); }, "[full] missing attribute 'value'");
  expect_error([] { local("full", shaped({2}, DType::kInt32).set("value", 1e10)); },
               "[full] value 10000000000 does not fit in int32; expected a value in [-2147483648, 2147483647]");
  expect_error([] { local("full", shaped({2}, DType::kInt64).set("value", int64_t{1} << 40).set("dtype", DType::kInt32)); },
               "[full] value 1099511627776 does not fit in int32");
  // Past a float dtype's largest finite value, as torch's fill_ (float16's: 65504, checked
  // before the halves would widen).
  expect_error([] { local("full", shaped({2}, DType::kFloat16).set("value", 7e4)); },
               "[full] value 70000 cannot be converted to type float16 without overflow");
  // Sizes that overflow are refused at the call, naming the shape.
  expect_error([] { local("zeros", shaped({int64_t{1} << 40, int64_t{1} << 40}, DType::kFloat32)); },
               "[zeros] shape [1099511627776, 1099511627776] has more elements than int64 can count");
  expect_error([] { local("zeros", shaped({int64_t{1} << 62}, DType::kFloat32)); },
               "[zeros] shape [4611686018427387904] of 4-byte elements has more bytes than int64 can count");
  expect_error([] { local("arange", {{"start", int64_t{-(int64_t{1} << 62)}}, {"end", int64_t{1} << 62}, {"step", int64_t{1}},
                                     {"dtype", DType::kInt64}}); },
               "elements; expected at most 2^63 - 1");
  expect_error([] { local("rand", shaped({2}, DType::kInt64).set("seed", int64_t{0}).set("offset", int64_t{0})); },
               "[rand] dtype int64 is not supported; expected float32 or float64");
  expect_error([] { local("randn", shaped({2}, DType::kFloat32)); }, "[randn] missing attribute 'seed'");
  expect_error([] { local("arange", arange(0.0, 5.0, 0.0, DType::kFloat32)); }, "[arange] step must be nonzero");
  expect_error([] { local("arange", arange(int64_t{5}, int64_t{0}, int64_t{1}, DType::kInt64)); },
               "[arange] end 0 lies on the wrong side of start 5 for step 1");
  expect_error([] { apply_local(find_op("zeros"), {Tensor::zeros({2}, DType::kFloat32)}, shaped({2}, DType::kInt32)); },
               "[zeros] takes 0 inputs, got 1");
  expect_error([] { apply_global(find_op("ones"), {}, shaped({2}, DType::kFloat32)); },
               "[ones] an op without inputs needs a placement");
  if (comm::world_size() >= 2) {
    Constraints c;
    c.placement = first_ranks({2});
    c.outputs.push_back(NdSbp{P});
    expect_error([&] { apply_global(find_op("ones"), {}, shaped({2}, DType::kFloat32), c); },
                 "[ones] no valid signature satisfies the requested output sbp");
  }
}

// randperm: a permutation of 0 .. n-1, the same on every signature and mesh, differing with
// the offset; bad attributes are refused.
Attrs randperm_attrs(int64_t n, DType dtype, int64_t offset) {
  return {{"n", n}, {"dtype", dtype}, {"seed", int64_t{3}}, {"offset", offset}};
}

TEST(Creation, RandpermIsAPermutationOnEverySignature) {
  for (const Placement& p : op_meshes()) {
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{9}, int64_t{1000}}) {
      for (DType dtype : {DType::kInt64, DType::kInt32}) {
        EXPECT_EQ(check_every_signature("randperm", {}, randperm_attrs(n, dtype, 40), p, 0), power(2, p.ndim()));
      }
    }
  }
  const Tensor a = local("randperm", randperm_attrs(1000, DType::kInt64, 0));
  std::vector<int64_t> v(a.data_as<int64_t>(), a.data_as<int64_t>() + 1000), sorted = v;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 1000; ++i) EXPECT_EQ(sorted[i], i);
  int64_t fixed = 0;
  for (int64_t i = 0; i < 1000; ++i) fixed += v[i] == i;
  EXPECT_LT(fixed, 10);  // about one fixed point is expected
  const Tensor b = local("randperm", randperm_attrs(1000, DType::kInt64, 1000));
  EXPECT_FALSE(std::equal(v.begin(), v.end(), b.data_as<int64_t>()));
  expect_error([] { local("randperm", randperm_attrs(-1, DType::kInt64, 0)); }, "[randperm] n is -1; expected n >= 0");
  expect_error([] { local("randperm", randperm_attrs(3, DType::kFloat32, 0)); },
               "[randperm] dtype float32 is not supported; expected int64 or int32");
}

}  // namespace
}  // namespace mf
