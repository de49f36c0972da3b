// Copyright 2026 The meshflow Authors.
// The per-element math of the optimizer updates (ops/optimizer_ops.cc), written once for the
// CPU's kernels and the GPU's (ops/cuda/optimizer.cu): each update is a functor holding what
// every element shares (computed on the host in double, then rounded to T) whose apply()
// takes one element of each input and gives one of each output, host and device code alike
// (MF_HOST_DEVICE). Every operation rounds once, in the order written: the CPU's build turns
// off floating-point contraction, and on the GPU each goes through a round-to-nearest
// intrinsic (which nvcc never fuses into a multiply-add), so the devices give the same bits
// step after step instead of drifting apart. The CPU's loops of apply() vectorize (no
// branch depends on an element).
// Header-only; the functors are values and apply() is pure: thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "meshflow/core/host_device.h"
#include "meshflow/ops/attrs.h"

namespace mf::optim {

// a + b, a - b, a * b, a / b and sqrt(a), each rounded to nearest: on the GPU through the
// intrinsics of float32 (f32) and float64 (f64).
#ifdef __CUDA_ARCH__
#define MF_ROUNDED(name, op, f32, f64)                                 \
  template <typename T>                                               \
  MF_HOST_DEVICE T name(T a, T b) {                                   \
    if constexpr (std::is_same_v<T, float>) {                         \
      return f32(a, b);                                               \
    } else {                                                          \
      return f64(a, b);                                               \
    }                                                                 \
  }
#else
#define MF_ROUNDED(name, op, f32, f64) \
  template <typename T>               \
  MF_HOST_DEVICE T name(T a, T b) {   \
    return a op b;                    \
  }
#endif
MF_ROUNDED(add, +, __fadd_rn, __dadd_rn)
MF_ROUNDED(sub, -, __fsub_rn, __dsub_rn)
MF_ROUNDED(mul, *, __fmul_rn, __dmul_rn)
MF_ROUNDED(div, /, __fdiv_rn, __ddiv_rn)
#undef MF_ROUNDED

template <typename T>
MF_HOST_DEVICE T root(T a) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, float>) {
    return __fsqrt_rn(a);
  } else {
    return __dsqrt_rn(a);
  }
#else
  return std::sqrt(a);
#endif
}

// An optional boolean attribute: false when absent (amsgrad, maximize).
inline bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }
// How many tensors one update call steps (optimizer_ops.cc's "tensors"; 1 when absent).
inline int64_t tensors_of(const Attrs& attrs) { return attrs.has("tensors") ? attrs.get_int("tensors") : 1; }

// The hyperparameters of adamw_update and adam_update (torch.optim.AdamW's and Adam's).
struct AdamWHyper {
  double lr, beta1, beta2, eps, weight_decay;
  int64_t step;
  bool decoupled;  // AdamW's decay of the parameter; else Adam's L2 term in the gradient
  bool amsgrad, maximize;

  static AdamWHyper of(const Attrs& attrs, bool decoupled) {
    return {attrs.get_float("lr"),  attrs.get_float("beta1"),        attrs.get_float("beta2"),
            attrs.get_float("eps"), attrs.get_float("weight_decay"), attrs.get_int("step"),
            decoupled,              flag(attrs, "amsgrad"),          flag(attrs, "maximize")};
  }
  // Adam's L2 term (AdamWStep::apply's kL2).
  bool l2() const { return !decoupled && weight_decay != 0; }
};

// The pointers of one adam or adamw step: max_exp_avg_sq (and its output) null without
// amsgrad. Each output may be its input's memory (an in-place step: vm.h's Flags::overwrite);
// apply() reads an element's inputs before its outputs are written.
template <typename T>
struct AdamWData {
  const T *param, *grad, *exp_avg, *exp_avg_sq, *max_exp_avg_sq;
  T *param_out, *exp_avg_out, *exp_avg_sq_out, *max_exp_avg_sq_out;
};

// One element's new values.
template <typename T>
struct AdamWResult {
  T param, exp_avg, exp_avg_sq, max_exp_avg_sq;  // max_exp_avg_sq: under amsgrad
};

// torch.optim.AdamW's single-tensor step: the gradient negated under maximize (a factor of -1
// or 1: exact, and no branch), decoupled weight decay (a factor of 1 under Adam: exact), then
// the moments (exp_avg by lerp, as torch does: its two forms by the weight's size), then the
// bias-corrected update, its denominator from the running maximum of exp_avg_sq under
// amsgrad. Adam's instead adds weight_decay * param to the gradient first (torch's
// grad.add(param, alpha=wd)). kL2 and kAmsgrad are template arguments, so that the CPU's loop
// has no branch and vectorizes (a run-time choice inside it made AdamW's step on the GPT
// bench 3x slower).
template <typename T>
struct AdamWStep {
  T decay, l2, sign, weight, one_minus_weight, beta2, one_minus_beta2, eps, step_size, correction2_sqrt;
  bool small_weight;

  static AdamWStep make(const AdamWHyper& h) {
    AdamWStep c;
    c.decay = static_cast<T>(h.decoupled ? 1 - h.lr * h.weight_decay : 1);
    c.l2 = static_cast<T>(h.weight_decay);
    c.sign = static_cast<T>(h.maximize ? -1 : 1);
    c.weight = static_cast<T>(1 - h.beta1);
    c.one_minus_weight = 1 - c.weight;
    c.beta2 = static_cast<T>(h.beta2);
    c.one_minus_beta2 = static_cast<T>(1 - h.beta2);
    c.eps = static_cast<T>(h.eps);
    c.step_size = static_cast<T>(h.lr / (1 - std::pow(h.beta1, static_cast<double>(h.step))));
    c.correction2_sqrt = static_cast<T>(std::sqrt(1 - std::pow(h.beta2, static_cast<double>(h.step))));
    c.small_weight = c.weight < static_cast<T>(0.5);
    return c;
  }

  // max_exp_avg_sq is read under kAmsgrad only.
  template <bool kL2, bool kAmsgrad>
  MF_HOST_DEVICE AdamWResult<T> apply(T param, T grad, T exp_avg, T exp_avg_sq, T max_exp_avg_sq) const {
    T g = mul(sign, grad);
    if constexpr (kL2) g = add(g, mul(l2, param));
    const T m = small_weight ? add(exp_avg, mul(weight, sub(g, exp_avg)))
                             : sub(g, mul(sub(g, exp_avg), one_minus_weight));
    const T v = add(mul(exp_avg_sq, beta2), mul(one_minus_beta2, mul(g, g)));
    T top = v;
    if constexpr (kAmsgrad) top = max_exp_avg_sq < v ? v : max_exp_avg_sq;
    const T denom = add(div(root(top), correction2_sqrt), eps);
    return {sub(mul(param, decay), mul(step_size, div(m, denom))), m, v, top};
  }
};

// The hyperparameters of sgd_update (torch.optim.SGD's).
struct SgdHyper {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, has_buf, maximize;

  static SgdHyper of(const Attrs& attrs) {
    return {attrs.get_float("lr"),           attrs.get_float("momentum"), attrs.get_float("dampening"),
            attrs.get_float("weight_decay"), attrs.get_bool("nesterov"),  attrs.get_bool("has_buf"),
            flag(attrs, "maximize")};
  }
};

// One element's new values.
template <typename T>
struct SgdResult {
  T param, momentum_buf;  // momentum_buf: with momentum
};

// torch.optim.SGD's single-tensor step (maximize: on the negated gradient, a factor of -1 or
// 1): weight decay added to the gradient, then the momentum buffer (which starts as the
// gradient at the first step, without has_buf), then the step along it (nesterov: along the
// gradient plus momentum times the buffer).
template <typename T>
struct SgdStep {
  T lr, momentum, weight_decay, keep, sign;
  bool decay, with_momentum, has_buf, nesterov;

  static SgdStep make(const SgdHyper& h) {
    return {static_cast<T>(h.lr),           static_cast<T>(h.momentum),  static_cast<T>(h.weight_decay),
            static_cast<T>(1 - h.dampening), static_cast<T>(h.maximize ? -1 : 1), h.weight_decay != 0,
            h.momentum != 0,                 h.has_buf,                   h.nesterov};
  }

  // momentum_buf is read with has_buf only.
  MF_HOST_DEVICE SgdResult<T> apply(T param, T grad, T momentum_buf) const {
    const T g = mul(sign, grad);
    T d = decay ? add(g, mul(weight_decay, param)) : g;
    T b = d;
    if (with_momentum) {
      if (has_buf) b = add(mul(momentum_buf, momentum), mul(keep, d));
      d = nesterov ? add(d, mul(momentum, b)) : b;
    }
    return {sub(param, mul(lr, d)), b};
  }
};

// The hyperparameters of rmsprop_update (torch.optim.RMSprop's).
struct RmspropHyper {
  double lr, alpha, eps, weight_decay, momentum;
  bool centered, maximize;

  static RmspropHyper of(const Attrs& attrs) {
    return {attrs.get_float("lr"),           attrs.get_float("alpha"),    attrs.get_float("eps"),
            attrs.get_float("weight_decay"), attrs.get_float("momentum"), flag(attrs, "centered"),
            flag(attrs, "maximize")};
  }
  bool with_momentum() const { return momentum != 0; }
  // The state an update reads and writes besides square_avg, in the op's order.
  int extra_state() const { return (centered ? 1 : 0) + (with_momentum() ? 1 : 0); }
};

// One element's new values.
template <typename T>
struct RmspropResult {
  T param, square_avg, grad_avg, momentum_buf;  // grad_avg: centered; momentum_buf: with momentum
};

// torch.optim.RMSprop's single-tensor step: the gradient negated under maximize, weight decay
// added to it, the running mean of its square (and, centered, of itself, by lerp as torch's),
// the denominator sqrt(square_avg [- grad_avg^2]) + eps, then the step along g / denominator
// or, with momentum, along a buffer of them (torch's buffers start at zero). Each operation
// in the order of torch's scalar kernels (addcmul's (value * a) * b, addcdiv's (value * a) /
// b); torch's vectorized ones may fuse multiply-adds, so values agree to a float's last bit.
template <typename T>
struct RmspropStep {
  T lr, alpha, one_minus_alpha, eps, weight_decay, momentum, sign;
  bool decay, centered, with_momentum, small_weight;

  static RmspropStep make(const RmspropHyper& h) {
    const T weight = static_cast<T>(1 - h.alpha);
    return {static_cast<T>(h.lr),    static_cast<T>(h.alpha),        weight,
            static_cast<T>(h.eps),   static_cast<T>(h.weight_decay), static_cast<T>(h.momentum),
            static_cast<T>(h.maximize ? -1 : 1), h.weight_decay != 0, h.centered,
            h.with_momentum(),       weight < static_cast<T>(0.5)};
  }

  // grad_avg is read when centered, momentum_buf with momentum.
  MF_HOST_DEVICE RmspropResult<T> apply(T param, T grad, T square_avg, T grad_avg, T momentum_buf) const {
    T g = mul(sign, grad);
    if (decay) g = add(g, mul(weight_decay, param));
    const T sq = add(mul(square_avg, alpha), mul(mul(one_minus_alpha, g), g));
    T ga = grad_avg, var = sq;
    if (centered) {
      ga = small_weight ? add(grad_avg, mul(one_minus_alpha, sub(g, grad_avg))) : sub(g, mul(sub(g, grad_avg), alpha));
      var = sub(sq, mul(ga, ga));
    }
    const T avg = add(root(var), eps);
    T b = momentum_buf, p;
    if (with_momentum) {
      b = add(mul(momentum_buf, momentum), div(g, avg));
      p = sub(param, mul(lr, b));
    } else {
      p = sub(param, div(mul(lr, g), avg));  // torch's addcdiv: (value * g) / avg
    }
    return {p, sq, ga, b};
  }
};

// The hyperparameters of adagrad_update (torch.optim.Adagrad's).
struct AdagradHyper {
  double lr, lr_decay, eps, weight_decay;
  int64_t step;
  bool maximize;

  static AdagradHyper of(const Attrs& attrs) {
    return {attrs.get_float("lr"), attrs.get_float("lr_decay"), attrs.get_float("eps"),
            attrs.get_float("weight_decay"), attrs.get_int("step"), flag(attrs, "maximize")};
  }
};

// One element's new values.
template <typename T>
struct AdagradResult {
  T param, sum;
};

// torch.optim.Adagrad's single-tensor step: the gradient negated under maximize, weight decay
// added to it, its square added to the running sum, then the step of lr / (1 + (step - 1) *
// lr_decay) along g / (sqrt(sum) + eps), in the order of torch's scalar kernels (addcdiv's
// (value * g) / std).
template <typename T>
struct AdagradStep {
  T clr, eps, weight_decay, sign;
  bool decay;

  static AdagradStep make(const AdagradHyper& h) {
    return {static_cast<T>(h.lr / (1 + static_cast<double>(h.step - 1) * h.lr_decay)), static_cast<T>(h.eps),
            static_cast<T>(h.weight_decay), static_cast<T>(h.maximize ? -1 : 1), h.weight_decay != 0};
  }

  MF_HOST_DEVICE AdagradResult<T> apply(T param, T grad, T sum) const {
    T g = mul(sign, grad);
    if (decay) g = add(g, mul(weight_decay, param));
    const T s = add(sum, mul(g, g));
    return {sub(param, div(mul(clr, g), add(root(s), eps))), s};
  }
};

}  // namespace mf::optim
