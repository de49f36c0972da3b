// Copyright 2026 The meshflow Authors.
// The layers of convolutional networks in C++, the same as the Python ones
// (python/meshflow/nn/_modules_conv.py; tests/python/test_module_mirror.py keeps them equal):
// Conv2d, BatchNorm2d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, Flatten. Module's contract
// (nn/module.h) holds: torch's initial values drawn in Python's order, parameters
// registered as in Python. Thread-safety: one thread at a time, like the ops.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshflow/nn/module.h"
#include "meshflow/ops/functional.h"

namespace mf::nn {

// 2-d convolution over [N, C_in, H, W]: weight [out_channels, in_channels / groups, kh, kw]
// and bias [out_channels] drawn from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in =
// in_channels / groups * kh * kw (torch's kaiming_uniform_(a=sqrt(5))), weight first.
class Conv2d : public Module {
 public:
  Conv2d(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size, fn::Conv2dOptions options = {},
         bool bias = true, const Factory& made = {});
  Var forward(const Var& x) const;
  Var weight() const { return parameter("weight"); }
  Var bias() const { return parameter("bias"); }
  std::string type_name() const override { return "Conv2d"; }
  std::string extra_repr() const override;

 private:
  int64_t in_channels_, out_channels_;
  std::vector<int64_t> kernel_size_;
  fn::Conv2dOptions options_;
};

// Batch normalization of [N, C, H, W] (fn::batch_norm): weight (ones) and bias (zeros) when
// affine; running_mean (zeros), running_var (ones) and num_batches_tracked (int64 0) when
// track_running_stats: buffers, updated in training (momentum nullopt: a cumulative average)
// and read in eval; not parameters, so state_dict() leaves them out until Module has buffers.
class BatchNorm2d : public Module {
 public:
  explicit BatchNorm2d(int64_t num_features, double eps = 1e-5, std::optional<double> momentum = 0.1,
                       bool affine = true, bool track_running_stats = true, const Factory& made = {});
  Var forward(const Var& x) const;
  Var weight() const { return parameter("weight"); }
  Var bias() const { return parameter("bias"); }
  Var running_mean() const { return running_mean_; }
  Var running_var() const { return running_var_; }
  Var num_batches_tracked() const { return num_batches_tracked_; }
  std::string type_name() const override { return "BatchNorm2d"; }
  std::string extra_repr() const override;

 private:
  int64_t num_features_;
  double eps_;
  std::optional<double> momentum_;
  Var running_mean_, running_var_, num_batches_tracked_;  // undefined without track_running_stats
};

// Maxima of windows over [N, C, H, W]; stride empty: the kernel size.
class MaxPool2d : public Module {
 public:
  explicit MaxPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0, 0});
  Var forward(const Var& x) const;
  std::string type_name() const override { return "MaxPool2d"; }

 private:
  std::vector<int64_t> kernel_size_, stride_, padding_;
};

// Means of windows over [N, C, H, W] (the window's size counting padding, as torch's default).
class AvgPool2d : public Module {
 public:
  explicit AvgPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0, 0});
  Var forward(const Var& x) const;
  std::string type_name() const override { return "AvgPool2d"; }

 private:
  std::vector<int64_t> kernel_size_, stride_, padding_;
};

class AdaptiveAvgPool2d : public Module {
 public:
  explicit AdaptiveAvgPool2d(std::vector<int64_t> output_size);
  Var forward(const Var& x) const;
  std::string type_name() const override { return "AdaptiveAvgPool2d"; }

 private:
  std::vector<int64_t> output_size_;
};

// Dims start_dim..end_dim (negative from the end) merged into one.
class Flatten : public Module {
 public:
  explicit Flatten(int64_t start_dim = 1, int64_t end_dim = -1) : start_dim_(start_dim), end_dim_(end_dim) {}
  Var forward(const Var& x) const;
  std::string type_name() const override { return "Flatten"; }

 private:
  int64_t start_dim_, end_dim_;
};

}  // namespace mf::nn
