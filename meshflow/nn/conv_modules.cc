// Copyright 2026 The meshflow Authors.
#include "meshflow/nn/conv_modules.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "meshflow/ops/creation.h"
#include "meshflow/ops/op.h"

namespace mf::nn {

Conv2d::Conv2d(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size, fn::Conv2dOptions options,
               bool bias, const Factory& made)
    : in_channels_(in_channels),
      out_channels_(out_channels),
      kernel_size_(std::move(kernel_size)),
      options_(std::move(options)) {
  const int64_t groups = options_.groups;
  if (groups <= 0 || in_channels % groups || out_channels % groups || kernel_size_.size() != 2) {
    op_error("Conv2d", "in_channels " + std::to_string(in_channels) + " and out_channels " +
                           std::to_string(out_channels) + " with groups " + std::to_string(groups) +
                           " and kernel_size " + to_string(kernel_size_) +
                           "; expected channels divisible by a positive groups and two kernel sizes");
  }
  const int64_t fan_in = in_channels / groups * kernel_size_[0] * kernel_size_[1];
  const double bound = fan_in > 0 ? 1 / std::sqrt(static_cast<double>(fan_in)) : 0;
  register_parameter(
      "weight",
      detail::uniform_init({out_channels, in_channels / groups, kernel_size_[0], kernel_size_[1]}, bound, made));
  if (bias) register_parameter("bias", detail::uniform_init({out_channels}, bound, made));
}

Var Conv2d::forward(const Var& x) const { return fn::conv2d(x, weight(), bias(), options_); }

std::string Conv2d::extra_repr() const {
  std::string s = std::to_string(in_channels_) + ", " + std::to_string(out_channels_) +
                  ", kernel_size=" + detail::tuple_repr(kernel_size_) +
                  ", stride=" + detail::tuple_repr(options_.stride);
  if (options_.pad_begin != options_.pad_end || options_.pad_begin != std::vector<int64_t>{0, 0}) {
    s += ", padding=" + detail::tuple_repr(options_.pad_begin);
  }
  if (options_.dilation != std::vector<int64_t>{1, 1}) s += ", dilation=" + detail::tuple_repr(options_.dilation);
  if (options_.groups != 1) s += ", groups=" + std::to_string(options_.groups);
  if (!bias().defined()) s += ", bias=False";
  return s;
}

BatchNorm2d::BatchNorm2d(int64_t num_features, double eps, std::optional<double> momentum, bool affine,
                         bool track_running_stats, const Factory& made)
    : num_features_(num_features), eps_(eps), momentum_(momentum) {
  if (affine) {
    register_parameter("weight", detail::constant_init("ones", {num_features}, made));
    register_parameter("bias", detail::constant_init("zeros", {num_features}, made));
  }
  if (track_running_stats) {
    running_mean_ = detail::constant_init("zeros", {num_features}, made);
    running_var_ = detail::constant_init("ones", {num_features}, made);
    num_batches_tracked_ = detail::on_device(Var(Tensor::zeros({}, DType::kInt64)), made);
  }
}

Var BatchNorm2d::forward(const Var& x) const {
  if (x.shape().size() != 4) {
    throw std::invalid_argument("expected 4D input (got " + std::to_string(x.shape().size()) + "D input)");
  }
  const bool use_batch = is_training() || !running_mean_.defined();
  if (is_training() && num_batches_tracked_.defined()) {
    NoGradGuard no_grad;
    Var(num_batches_tracked_).set_data(fn::add_scalar(num_batches_tracked_, 1));
    if (!momentum_) {  // a cumulative moving average: 1 / count as a tensor, which a graph reads at every run
      const Var count = fn::cast(num_batches_tracked_, running_mean_.dtype());
      const Var factor = fn::div(fn::ones_like(count), count);
      return fn::batch_norm(x, running_mean_, running_var_, weight(), bias(), use_batch, factor, eps_);
    }
  }
  return fn::batch_norm(x, running_mean_, running_var_, weight(), bias(), use_batch, momentum_.value_or(0.0), eps_);
}

std::string BatchNorm2d::extra_repr() const {
  return std::to_string(num_features_) + ", eps=" + detail::shortest_repr(eps_) +
         ", momentum=" + (momentum_ ? detail::shortest_repr(*momentum_) : "None") +
         ", affine=" + (weight().defined() ? "True" : "False") +
         ", track_running_stats=" + (running_mean_.defined() ? "True" : "False");
}

MaxPool2d::MaxPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride, std::vector<int64_t> padding)
    : kernel_size_(std::move(kernel_size)), stride_(std::move(stride)), padding_(std::move(padding)) {}

Var MaxPool2d::forward(const Var& x) const { return fn::max_pool2d(x, kernel_size_, stride_, padding_); }

AvgPool2d::AvgPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride, std::vector<int64_t> padding)
    : kernel_size_(std::move(kernel_size)), stride_(std::move(stride)), padding_(std::move(padding)) {}

Var AvgPool2d::forward(const Var& x) const { return fn::avg_pool2d(x, kernel_size_, stride_, padding_); }

AdaptiveAvgPool2d::AdaptiveAvgPool2d(std::vector<int64_t> output_size) : output_size_(std::move(output_size)) {}

Var AdaptiveAvgPool2d::forward(const Var& x) const { return fn::adaptive_avg_pool2d(x, output_size_); }

Var Flatten::forward(const Var& x) const {
  const Shape& s = x.shape();
  const int64_t nd = static_cast<int64_t>(s.size());
  const int64_t start = start_dim_ < 0 ? start_dim_ + nd : start_dim_, end = end_dim_ < 0 ? end_dim_ + nd : end_dim_;
  if (nd == 0) return fn::reshape(x, {1});
  if (start < 0 || end >= nd || start > end) {
    throw std::invalid_argument("[Flatten] dims " + std::to_string(start_dim_) + " to " + std::to_string(end_dim_) +
                                " of a tensor of shape " + to_string(s) + "; expected start_dim <= end_dim in range");
  }
  Shape out(s.begin(), s.begin() + start);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= s[d];
  out.push_back(merged);
  out.insert(out.end(), s.begin() + end + 1, s.end());
  return fn::reshape(x, out);
}

}  // namespace mf::nn
