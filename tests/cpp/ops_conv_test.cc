// Copyright 2026 The meshflow Authors.
// Convolution, pooling, padding, resizing (conv.cc, pool.cc) and group norm, 2-d and 3-d, under mpirun: every valid signature of every op
// on every mesh against the single-device result (op_check.h), for even and uneven batches
// and channel counts, grouped and not; the 1-d signature lists; values against small
// hand-computed cases; and bad input, which fails with a clear error on every rank.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "meshflow/ops/conv_util.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

using Dims = std::vector<int64_t>;

Tensor value(const Shape& shape, DType dtype = DType::kFloat32) { return logical_value(shape, dtype); }

std::vector<Tensor> local(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  return apply_local(find_op(op), inputs, attrs);
}

Attrs conv_attrs(int64_t groups, Dims stride = {1, 1}, Dims pad_begin = {0, 0}, Dims pad_end = {0, 0},
                 Dims dilation = {1, 1}) {
  return {{"groups", groups}, {"stride", stride}, {"pad_begin", pad_begin}, {"pad_end", pad_end},
          {"dilation", dilation}};
}

struct ConvCase {
  Shape x, w;
  Attrs attrs;
};

// Even and uneven batches (5 over 2 and 4 ranks) and channels (5 and 3), strided, padded
// unevenly ('same' with an even kernel), dilated, grouped, and float64.
std::vector<ConvCase> conv_cases() {
  return {{{4, 4, 6, 5}, {6, 4, 3, 3}, conv_attrs(1, {1, 1}, {1, 1}, {1, 1})},
          {{5, 3, 7, 6}, {5, 3, 2, 3}, conv_attrs(1, {2, 1}, {0, 1}, {1, 1}, {2, 1})},
          {{4, 4, 5, 5}, {4, 2, 2, 2}, conv_attrs(2, {1, 1}, {0, 0}, {1, 1})},
          {{2, 6, 4, 4}, {6, 1, 3, 3}, conv_attrs(6, {2, 2}, {1, 1}, {1, 1})}};
}

TEST(Conv2d, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const ConvCase& c : conv_cases()) {
      check("conv2d", {value(c.x), value(c.w)}, c.attrs, p);
      const Tensor y = local("conv2d", {value(c.x), value(c.w)}, c.attrs)[0];
      Attrs data = c.attrs, weight = c.attrs;
      data.set("input_size", Dims{c.x[2], c.x[3]});
      weight.set("kernel_size", Dims{c.w[2], c.w[3]});
      check("conv2d_backward_data", {value(y.shape()), value(c.w)}, data, p);
      check("conv2d_backward_weight", {value(c.x), value(y.shape())}, weight, p);
    }
    check("conv2d", {value({3, 2, 4, 4}, DType::kFloat64), value({3, 2, 3, 3}, DType::kFloat64)}, conv_attrs(1), p);
  }
}

TEST(Conv2d, Signatures) {
  const std::vector<TensorMeta> in{{{4, 4, 6, 6}, DType::kFloat32}, {{6, 4, 3, 3}, DType::kFloat32}};
  EXPECT_EQ(one_axis("conv2d", in, conv_attrs(1)),
            (std::vector<std::string>{"(S(0)), (B) -> (S(0))", "(P), (B) -> (P)", "(B), (P) -> (P)",
                                      "(B), (S(0)) -> (S(1))", "(S(1)), (S(1)) -> (P)", "(B), (B) -> (B)"}));
  const std::vector<TensorMeta> grouped{{{4, 4, 6, 6}, DType::kFloat32}, {{6, 2, 3, 3}, DType::kFloat32}};
  EXPECT_EQ(one_axis("conv2d", grouped, conv_attrs(2)),
            (std::vector<std::string>{"(S(0)), (B) -> (S(0))", "(P), (B) -> (P)", "(B), (P) -> (P)",
                                      "(B), (B) -> (B)"}));
  Attrs weight = conv_attrs(1);
  weight.set("kernel_size", Dims{3, 3});
  EXPECT_EQ(one_axis("conv2d_backward_weight", {in[0], {{4, 6, 4, 4}, DType::kFloat32}}, weight),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (P)", "(P), (B) -> (P)", "(B), (P) -> (P)",
                                      "(B), (S(1)) -> (S(0))", "(S(1)), (B) -> (S(1))", "(B), (B) -> (B)"}));
}

TEST(Conv2d, Values) {
  // x = 1..9 in a 3x3 plane, w = [[1, 0], [0, -1]]: y[i, j] = x[i, j] - x[i + 1, j + 1] = -4.
  Tensor x = Tensor::empty({1, 1, 3, 3}, DType::kFloat64), w = Tensor::empty({1, 1, 2, 2}, DType::kFloat64);
  for (int i = 0; i < 9; ++i) x.data_as<double>()[i] = i + 1;
  const double wv[] = {1, 0, 0, -1};
  std::copy(wv, wv + 4, w.data_as<double>());
  const Tensor y = local("conv2d", {x, w}, conv_attrs(1))[0];
  EXPECT_EQ(y.shape(), (Shape{1, 1, 2, 2}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y.data_as<double>()[i], -4);
  // Padded by one on each side, stride 2: windows at even positions of the padded plane.
  const Tensor z = local("conv2d", {x, w}, conv_attrs(1, {2, 2}, {1, 1}, {1, 1}))[0];
  EXPECT_EQ(z.shape(), (Shape{1, 1, 2, 2}));
  const double expected[] = {-1, -3, -7, -4};  // 0 - x[0,0]; 0 - x[0,2]; 0 - x[2,0]; x[1,1] - x[2,2]
  for (int i = 0; i < 4; ++i) EXPECT_EQ(z.data_as<double>()[i], expected[i]) << i;
}

TEST(Conv2d, BadInput) {
  const Tensor x = value({2, 4, 5, 5});
  expect_error([&] { local("conv2d", {x, value({3, 3, 3, 3})}, conv_attrs(1)); },
               "[conv2d] the input has shape [2, 4, 5, 5] and the weight [3, 3, 3, 3] with 1 groups; expected C_in");
  expect_error([&] { local("conv2d", {x, value({3, 2, 3, 3})}, conv_attrs(2)); },
               "expected C_in and C_out divisible by groups");
  expect_error([&] { local("conv2d", {x, value({3, 4, 7, 3})}, conv_attrs(1)); },
               "[conv2d] the input's size 5 padded by 0 and 0 is smaller than the kernel's 7");
  expect_error([&] { local("conv2d", {x, value({3, 4, 3, 3})}, conv_attrs(1, {0, 1})); },
               "[conv2d] stride is [0, 1]; expected values >= 1");
  expect_error([&] { local("conv2d", {value({4, 5, 5}), value({3, 4, 3, 3})}, conv_attrs(1)); },
               "[conv2d] the input has shape [4, 5, 5]; expected 4 dims [N, C_in, H, W]");
  expect_error([&] { local("conv2d", {x, value({3, 4, 3, 3}, DType::kFloat64)}, conv_attrs(1)); }, "[conv2d]");
  expect_error([&] { local("conv2d", {value({2, 4, 5, 5}, DType::kInt64), value({3, 4, 3, 3}, DType::kInt64)},
                           conv_attrs(1)); },
               "[conv2d] the dtype of the input is int64; expected float32 or float64");
}

Attrs max_attrs(Dims kernel, Dims stride, Dims padding, Dims dilation, bool ceil_mode) {
  return {{"kernel_size", kernel}, {"stride", stride}, {"padding", padding}, {"dilation", dilation},
          {"ceil_mode", ceil_mode}};
}

Attrs avg_attrs(Dims kernel, Dims stride, Dims padding, bool ceil_mode, bool count_include_pad,
                int64_t divisor_override = 0) {
  return {{"kernel_size", kernel}, {"stride", stride}, {"padding", padding}, {"ceil_mode", ceil_mode},
          {"count_include_pad", count_include_pad}, {"divisor_override", divisor_override}};
}

TEST(Pooling, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const Shape& shape : {Shape{4, 4, 7, 6}, Shape{5, 3, 5, 5}}) {
      const Tensor x = value(shape);
      const Attrs attrs[] = {max_attrs({2, 2}, {2, 2}, {0, 0}, {1, 1}, false),
                             max_attrs({3, 2}, {2, 1}, {1, 1}, {1, 2}, true)};
      for (const Attrs& a : attrs) {
        check("max_pool2d", {x}, a, p);
        const std::vector<Tensor> out = local("max_pool2d", {x}, a);
        check("max_pool2d_backward", {value(out[0].shape()), out[1]}, {{"input_size", Dims{shape[2], shape[3]}}}, p);
      }
      const std::vector<Tensor> adaptive = local("adaptive_max_pool2d", {x}, {{"output_size", Dims{3, 4}}});
      check("adaptive_max_pool2d", {x}, {{"output_size", Dims{3, 4}}}, p);
      for (Attrs a : {avg_attrs({3, 3}, {2, 2}, {1, 1}, true, false), avg_attrs({2, 3}, {1, 2}, {1, 1}, false, true),
                      avg_attrs({2, 2}, {2, 2}, {0, 0}, false, true, 3)}) {
        check("avg_pool2d", {x}, a, p);
        const Tensor y = local("avg_pool2d", {x}, a)[0];
        a.set("input_size", Dims{shape[2], shape[3]});
        check("avg_pool2d_backward", {value(y.shape())}, a, p);
      }
      check("adaptive_avg_pool2d", {x}, {{"output_size", Dims{4, 3}}}, p);
      check("adaptive_avg_pool2d_backward", {value({shape[0], shape[1], 4, 3})},
            {{"output_size", Dims{4, 3}}, {"input_size", Dims{shape[2], shape[3]}}}, p);
    }
  }
}

TEST(Pooling, ValuesAndSignatures) {
  // A 2x3 plane 1..6: 2x2 windows of stride 1 give the maxima 5, 6 at indices 4, 5; adaptive
  // [1, 2] windows cover columns [0, 2) and [1, 3).
  Tensor x = Tensor::empty({1, 1, 2, 3}, DType::kFloat64);
  for (int i = 0; i < 6; ++i) x.data_as<double>()[i] = i + 1;
  const std::vector<Tensor> m = local("max_pool2d", {x}, max_attrs({2, 2}, {1, 1}, {0, 0}, {1, 1}, false));
  EXPECT_EQ(m[0].data_as<double>()[1], 6);
  EXPECT_EQ(m[1].data_as<int64_t>()[0], 4);
  const Tensor a = local("adaptive_avg_pool2d", {x}, {{"output_size", Dims{1, 2}}})[0];
  EXPECT_EQ(a.data_as<double>()[0], (1 + 2 + 4 + 5) / 4.0);
  EXPECT_EQ(a.data_as<double>()[1], (2 + 3 + 5 + 6) / 4.0);
  // Padding counted or not: the corner window of a 3x3 kernel padded by 1 holds 4 elements.
  const Tensor with = local("avg_pool2d", {x}, avg_attrs({3, 3}, {3, 3}, {1, 1}, false, true))[0];
  const Tensor without = local("avg_pool2d", {x}, avg_attrs({3, 3}, {3, 3}, {1, 1}, false, false))[0];
  EXPECT_DOUBLE_EQ(with.data_as<double>()[0], (1 + 2 + 4 + 5) / 9.0);
  EXPECT_DOUBLE_EQ(without.data_as<double>()[0], (1 + 2 + 4 + 5) / 4.0);
  EXPECT_EQ(one_axis("max_pool2d", {{{4, 4, 6, 6}, DType::kFloat32}}, max_attrs({2, 2}, {2, 2}, {0, 0}, {1, 1}, false)),
            (std::vector<std::string>{"(S(0)) -> (S(0)), (S(0))", "(S(1)) -> (S(1)), (S(1))", "(B) -> (B), (B)"}));
  EXPECT_EQ(one_axis("avg_pool2d", {{{4, 4, 6, 6}, DType::kFloat32}}, avg_attrs({2, 2}, {2, 2}, {0, 0}, false, true)),
            (std::vector<std::string>{"(S(0)) -> (S(0))", "(S(1)) -> (S(1))", "(P) -> (P)", "(B) -> (B)"}));
}

TEST(Pooling, BadInput) {
  const Tensor x = value({2, 3, 4, 4});
  expect_error([&] { local("max_pool2d", {x}, max_attrs({2, 2}, {2, 2}, {2, 0}, {1, 1}, false)); },
               "[max_pool2d] padding 2 is more than half the kernel's size 2");
  expect_error([&] { local("max_pool2d", {x}, max_attrs({6, 2}, {1, 1}, {0, 0}, {1, 1}, false)); },
               "[max_pool2d] the input has shape [2, 3, 4, 4]: the output's size would be 0");
  expect_error([&] { local("avg_pool2d", {value({3, 4, 4})}, avg_attrs({2, 2}, {2, 2}, {0, 0}, false, true)); },
               "[avg_pool2d] the input has shape [3, 4, 4]; expected 4 dims [N, C, H, W]");
  expect_error([&] { local("adaptive_avg_pool2d", {x}, {{"output_size", Dims{0, 2}}}); },
               "[adaptive_avg_pool2d] output_size is [0, 2]; expected values >= 1");
  expect_error([&] { local("avg_pool2d", {x}, avg_attrs({2, 2}, {0, 2}, {0, 0}, false, true)); },
               "[avg_pool2d] stride is [0, 2]; expected values >= 1");
}

// conv3d and the 3-d pooling ops: the 2-d ops' signatures over a depth axis; even and uneven
// batches and channels, strided, padded, dilated, grouped.
TEST(Conv3d, EverySignatureMatchesOneDevice) {
  const std::vector<ConvCase> cases{
      {{4, 4, 3, 4, 3}, {6, 4, 2, 3, 2}, conv_attrs(1, {1, 2, 1}, {1, 1, 0}, {0, 1, 1}, {1, 1, 2})},
      {{5, 3, 4, 3, 3}, {5, 3, 2, 2, 2}, conv_attrs(1, {2, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1})},
      {{4, 4, 3, 3, 4}, {4, 2, 2, 2, 2}, conv_attrs(2, {1, 1, 2}, {1, 0, 1}, {0, 0, 0}, {1, 1, 1})}};
  for (const Placement& p : op_meshes()) {
    for (const ConvCase& c : cases) {
      check("conv3d", {value(c.x), value(c.w)}, c.attrs, p);
      const Tensor y = local("conv3d", {value(c.x), value(c.w)}, c.attrs)[0];
      Attrs data = c.attrs, weight = c.attrs;
      data.set("input_size", Dims{c.x[2], c.x[3], c.x[4]});
      weight.set("kernel_size", Dims{c.w[2], c.w[3], c.w[4]});
      check("conv3d_backward_data", {value(y.shape()), value(c.w)}, data, p);
      check("conv3d_backward_weight", {value(c.x), value(y.shape())}, weight, p);
    }
  }
}

TEST(Pooling3d, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const Shape& shape : {Shape{4, 4, 4, 5, 4}, Shape{5, 3, 3, 4, 5}}) {
      const Tensor x = value(shape);
      const Dims size{shape[2], shape[3], shape[4]};
      const Attrs max = max_attrs({2, 3, 2}, {2, 1, 2}, {1, 1, 0}, {1, 1, 1}, true);
      check("max_pool3d", {x}, max, p);
      const std::vector<Tensor> out = local("max_pool3d", {x}, max);
      check("max_pool3d_backward", {value(out[0].shape()), out[1]}, {{"input_size", size}}, p);
      check("adaptive_max_pool3d", {x}, {{"output_size", Dims{2, 3, 2}}}, p);
      Attrs avg = avg_attrs({2, 2, 3}, {2, 2, 1}, {1, 1, 1}, true, false);
      check("avg_pool3d", {x}, avg, p);
      const Tensor y = local("avg_pool3d", {x}, avg)[0];
      check("avg_pool3d_backward", {value(y.shape())}, avg.set("input_size", size), p);
      check("adaptive_avg_pool3d", {x}, {{"output_size", Dims{2, 2, 3}}}, p);
      check("adaptive_avg_pool3d_backward", {value({shape[0], shape[1], 2, 2, 3})},
            {{"output_size", Dims{2, 2, 3}}, {"input_size", size}}, p);
    }
  }
}

TEST(Pooling3d, BadInput) {
  const Attrs max = max_attrs({2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {1, 1, 1}, false);
  expect_error([&] { local("max_pool3d", {value({2, 3, 4, 4})}, max); },
               "[max_pool3d] the input has shape [2, 3, 4, 4]; expected 5 dims [N, C, D, H, W]");
  expect_error([&] { local("avg_pool3d", {value({2, 3, 4, 4, 4})}, avg_attrs({2, 2}, {2, 2}, {0, 0}, false, true)); },
               "[avg_pool3d] kernel_size is [2, 2]; expected 3 ints (depth, height, width)");
  expect_error([&] { local("conv3d", {value({2, 3, 4, 4}), value({3, 3, 1, 1, 1})}, conv_attrs(1)); },
               "[conv3d] the input has shape [2, 3, 4, 4]; expected 5 dims [N, C_in, D, H, W]");
}

TEST(Pad, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    check("pad", {value({5, 3, 4})}, {{"pads", Dims{1, 2}}}, p);
    check("pad", {value({5, 3, 4})}, {{"pads", Dims{-1, 2, 0, 1}}, {"value", 2.5}}, p);
    check("pad", {value({4, 6}, DType::kInt64)}, {{"pads", Dims{0, 0, 1, 1}}, {"value", int64_t{-3}}}, p);
    for (int64_t mode : {1, 2}) {  // reflect, replicate
      const Attrs attrs{{"pads", Dims{2, 1, 1, 2}}, {"mode", mode}};
      check("pad", {value({5, 3, 4})}, attrs, p);
      Attrs backward = attrs;
      backward.set("input_shape", Dims{5, 3, 4});
      check("pad_backward", {value({5, 6, 7})}, backward, p);
    }
  }
  // Reflect: 1 2 3 -> 3 2 | 1 2 3 | 2; replicate: 1 1 | 1 2 3 | 3.
  Tensor x = Tensor::empty({3}, DType::kFloat64);
  for (int i = 0; i < 3; ++i) x.data_as<double>()[i] = i + 1;
  const Tensor reflect = local("pad", {x}, {{"pads", Dims{2, 1}}, {"mode", int64_t{1}}})[0];
  const Tensor replicate = local("pad", {x}, {{"pads", Dims{2, 1}}, {"mode", int64_t{2}}})[0];
  const double want_reflect[] = {3, 2, 1, 2, 3, 2}, want_replicate[] = {1, 1, 1, 2, 3, 3};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(reflect.data_as<double>()[i], want_reflect[i]) << i;
    EXPECT_EQ(replicate.data_as<double>()[i], want_replicate[i]) << i;
  }
  expect_error([&] { local("pad", {value({2, 3})}, {{"pads", Dims{3, 0}}, {"mode", int64_t{1}}}); },
               "[pad] pads [3, 0] on dim 1 of the input's shape [2, 3]; expected reflect pads >= 0 and smaller");
  expect_error([&] { local("pad", {value({2, 3})}, {{"pads", Dims{1, 0}}, {"mode", int64_t{3}}}); },
               "[pad] mode is 3; expected 0 (constant), 1 (reflect) or 2 (replicate)");
  EXPECT_EQ(one_axis("pad", {{{5, 3, 4}, DType::kFloat32}}, {{"pads", Dims{1, 2}}}),
            (std::vector<std::string>{"(S(0)) -> (S(0))", "(S(1)) -> (S(1))", "(P) -> (P)", "(B) -> (B)"}));
  expect_error([&] { local("pad", {value({2, 3})}, {{"pads", Dims{1, 2, 3}}}); },
               "[pad] pads [1, 2, 3] on an input of shape [2, 3]; expected an even number of pads");
  expect_error([&] { local("pad", {value({2, 3})}, {{"pads", Dims{-2, -2}}}); },
               "[pad] pads [-2, -2] make dim 1 of the input's shape [2, 3] negative");
}

TEST(UpsampleNearest, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [shape, attrs] : std::vector<std::pair<Shape, Attrs>>{
             {{5, 3, 4}, {{"output_size", Dims{7}}}},
             {{5, 3, 4, 5}, {{"output_size", Dims{6, 3}}, {"scale0", 1.5}, {"scale1", 0.7}}},
             {{4, 2, 2, 3, 2}, {{"output_size", Dims{4, 3, 5}}}}}) {
      check("upsample_nearest", {value(shape)}, attrs, p);
      const Tensor y = local("upsample_nearest", {value(shape)}, attrs)[0];
      Attrs backward = attrs;
      backward.set("input_size", Dims(shape.begin() + 2, shape.end()));
      check("upsample_nearest_backward", {value(y.shape())}, backward, p);
    }
  }
  expect_error([&] { local("upsample_nearest", {value({2, 3})}, {{"output_size", Dims{4}}}); },
               "[upsample_nearest] the input has shape [2, 3] and output_size is [4]; expected [N, C] and 1 to 3");
}

// A resizing op's forward on value(shape) and its backward op on value(y's shape): x, y, dy, dx.
struct Resized {
  Tensor x, y, dy, dx;
};
Resized resized(const std::string& op, const Shape& shape, const Attrs& attrs, DType dtype) {
  Resized r;
  r.x = value(shape, dtype);
  r.y = local(op, {r.x}, attrs)[0];
  Attrs backward = attrs;
  backward.set("input_size", Dims(shape.begin() + 2, shape.end()));
  r.dy = value(r.y.shape(), dtype);
  r.dx = local(op + "_backward", {r.dy}, backward)[0];
  return r;
}

// The CPU kernels gather and scatter rows through index tables; the GPU's compute each
// element at once (nearest_source, nearest_backward_at in conv_util.h): both agree bit for
// bit (the backward sums in the same order), up, down, twice, by scale factors, 1 to 3 dims.
TEST(UpsampleNearest, ElementAtATimeFormsMatchTheKernels) {
  for (const auto& [shape, attrs] : std::vector<std::pair<Shape, Attrs>>{
           {{5, 3, 4}, {{"output_size", Dims{7}}}},
           {{2, 3, 8}, {{"output_size", Dims{3}}}},
           {{5, 3, 4, 5}, {{"output_size", Dims{6, 3}}, {"scale0", 1.5}, {"scale1", 0.7}}},
           {{2, 3, 4, 5}, {{"output_size", Dims{8, 10}}}},
           {{4, 2, 2, 3, 2}, {{"output_size", Dims{4, 3, 5}}}},
           {{2, 2, 6, 3, 5}, {{"output_size", Dims{2, 6, 2}}}}}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
      const Resized r = resized("upsample_nearest", shape, attrs, dtype);
      const Tensor &x = r.x, &y = r.y, &dy = r.dy, &dx = r.dx;
      const kernel::UpsampleGeometry g = kernel::upsample_geometry("upsample_nearest", attrs, shape);
      const int64_t plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
      kernel::visit_floating(dtype, [&](auto v) {
        using T = decltype(v);
        for (int64_t e = 0; e < y.numel(); ++e) {
          int64_t rest = e % plane_out, src = 0, stride = 1;
          for (int d = g.k - 1; d >= 0; --d) {
            src += kernel::nearest_source(g, d, rest % g.out[d]) * stride;
            rest /= g.out[d];
            stride *= g.in[d];
          }
          EXPECT_EQ(y.data_as<T>()[e], x.data_as<T>()[e / plane_out * plane_in + src]) << e;
        }
        for (int64_t e = 0; e < dx.numel(); ++e) {
          EXPECT_EQ(dx.data_as<T>()[e], kernel::nearest_backward_at(g, dy.data_as<T>(), e)) << e;
        }
      });
    }
  }
}

// Linear, cubic, corners aligned, given scale factors, up and down, 1 to 3 resized dims.
std::vector<std::pair<Shape, Attrs>> resample_cases() {
  return {{{5, 3, 4}, {{"output_size", Dims{7}}}},
          {{5, 3, 6}, {{"output_size", Dims{2}}, {"cubic", true}}},
          {{5, 3, 4, 5}, {{"output_size", Dims{6, 3}}, {"scale0", 1.5}, {"scale1", 0.7}}},
          {{3, 2, 4, 5}, {{"output_size", Dims{9, 10}}, {"cubic", true}, {"align_corners", true}}},
          {{2, 3, 5, 5}, {{"output_size", Dims{5, 11}}, {"cubic", true}, {"scale1", 2.3}}},
          {{4, 2, 2, 3, 2}, {{"output_size", Dims{4, 3, 5}}, {"align_corners", true}}},
          {{2, 2, 3, 4, 5}, {{"output_size", Dims{6, 2, 5}}}}};
}

TEST(UpsampleLinear, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [shape, attrs] : resample_cases()) {
      check("upsample_linear", {value(shape)}, attrs, p);
      const Tensor y = local("upsample_linear", {value(shape)}, attrs)[0];
      Attrs backward = attrs;
      backward.set("input_size", Dims(shape.begin() + 2, shape.end()));
      check("upsample_linear_backward", {value(y.shape())}, backward, p);
    }
  }
  expect_error([&] { local("upsample_linear", {value({2, 3, 4})}, {{"output_size", Dims{0}}}); },
               "[upsample_linear] the input has shape [2, 3, 4], output_size [0]; expected sizes >= 1");
}

// group_norm (batch_norm.cc) and its backward: uneven batches, one group, a group per channel.
TEST(GroupNorm, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [shape, groups] : std::vector<std::pair<Shape, int64_t>>{
             {{5, 6, 4}, 3}, {{3, 4, 3, 2}, 1}, {{2, 4, 2, 2, 3}, 4}, {{5, 6}, 2}}) {
      const Shape channels{shape[1]};
      for (bool affine : {false, true}) {
        const Attrs attrs{{"num_groups", groups}, {"has_weight", affine}, {"has_bias", affine}};
        std::vector<Tensor> in{value(shape)};
        if (affine) in.push_back(value(channels)), in.push_back(value(channels));
        check("group_norm", in, attrs, p);
        std::vector<Tensor> backward{value(shape)};
        if (affine) backward.push_back(value(channels));
        backward.push_back(value(shape));
        check("group_norm_backward", backward, attrs, p);
      }
    }
  }
  expect_error([&] { local("group_norm", {value({2, 6, 3})}, {{"num_groups", int64_t{4}}}); },
               "[group_norm] the input has shape [2, 6, 3] and num_groups is 4; expected [N, C, ...] with C divisible");
}

// The CPU kernels run the taps one dim at a time; the GPU's compute each element at once
// (resample_at, resample_backward_at in conv_util.h): both forms agree here, on the host.
TEST(UpsampleLinear, ElementAtATimeFormsMatchTheKernels) {
  for (const auto& [shape, attrs] : resample_cases()) {
    for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
      const Resized r = resized("upsample_linear", shape, attrs, dtype);
      const Tensor &x = r.x, &y = r.y, &dy = r.dy, &dx = r.dx;
      const kernel::ResampleGeometry g = kernel::resample_geometry("upsample_linear", attrs, shape);
      kernel::visit_floating(dtype, [&](auto v) {
        using T = decltype(v);
        const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
        for (int64_t e = 0; e < y.numel(); ++e) {
          const T want = y.data_as<T>()[e];
          EXPECT_NEAR(kernel::resample_at(g, x.data_as<T>(), e), want, tolerance * (1 + std::abs(want))) << e;
        }
        for (int64_t e = 0; e < dx.numel(); ++e) {
          const T want = dx.data_as<T>()[e];
          EXPECT_NEAR(kernel::resample_backward_at(g, dy.data_as<T>(), e), want, tolerance * (1 + std::abs(want))) << e;
        }
      });
    }
  }
}

}  // namespace
}  // namespace mf
