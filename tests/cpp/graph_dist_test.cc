// Copyright 2026 The meshflow Authors.
// Graph mode on several ranks: a traced step compiled and run by actors equals the same
// step run eagerly, on every mesh of the suite.
#include <gtest/gtest.h>

#include <cmath>

#include "op_check.h"
#include "meshflow/graph/compile.h"
#include "meshflow/ops/functional.h"

namespace mf {
namespace {

Var matmul_relu_sum(const Var& x, const Var& w) { return fn::sum(fn::relu(fn::matmul(x, w)), {1}); }

TEST(GraphDist, MatmulStepEqualsEager) {
  for (const Placement& p : test::op_meshes()) {
    Tensor xs = Tensor::empty({6, 5}, DType::kFloat64), ws = Tensor::empty({5, 7}, DType::kFloat64);
    for (int64_t i = 0; i < xs.numel(); ++i) xs.data_as<double>()[i] = std::sin(1.0 + i);
    for (int64_t i = 0; i < ws.numel(); ++i) ws.data_as<double>()[i] = std::cos(2.0 + i);
    NdSbp split0(p.ndim(), Sbp::broadcast()), bcast(p.ndim(), Sbp::broadcast());
    split0[0] = Sbp::split(0);
    const Var x(global_from_full(xs, p, split0)), w(global_from_full(ws, p, bcast));
    const Tensor eager = gather_full(matmul_relu_sum(x, w).global());

    graph::Tracer tracer;
    Var lx = tracer.argument(x), lw = tracer.argument(w);
    Var out;
    {
      graph::Tracer::Scope scope(tracer);
      out = matmul_relu_sum(lx, lw);
    }
    graph::CompiledGraph compiled(tracer.finish({out}));
    for (int run = 0; run < 2; ++run) {
      const std::vector<Var> got = compiled.run({x, w});
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0].global().layout(), out.global().layout());
      EXPECT_TRUE(equal(gather_full(got[0].global()), eager)) << p.str();
    }
    EXPECT_LE(compiled.stats().graph_boxing_bytes, compiled.stats().eager_boxing_bytes);
    EXPECT_LE(compiled.memory().arena_bytes, compiled.memory().no_reuse_bytes);
    EXPECT_GE(compiled.memory().arena_bytes, compiled.memory().max_live_bytes);
  }
}

}  // namespace
}  // namespace mf
