// Copyright 2026 The meshflow Authors.
// The per-element math of the optimizer updates (ops/optimizer_ops.cc), written once for the
// CPU's kernels and the GPU's (ops/cuda/optimizer.cu): each update is a functor holding what
// every element shares (computed on the host in double, then rounded to T) whose apply()
// takes one element of each input and gives one of each output, host and device code alike
// (MF_HOST_DEVICE). Each update is torch.optim's single-tensor step (its CPU default) written
// out operation by operation in torch's order, each operation rounding as torch's CPU kernel
// does: x.add(y, alpha=a), x.addcmul(t1, t2, value=v) and x.lerp(y, w) are fused
// multiply-adds (fmadd: y * a + x, (v * t1) * t2 + x, w * (y - x) + x), rounded once as
// torch's vectorized kernels compute them; x.addcdiv(t1, t2, value=v) is x + (v * t1) / t2,
// each step rounded. So 20 steps give torch's float32 values bit for bit. Nothing else
// fuses: the CPU's build turns off floating-point contraction, and on the GPU each operation
// goes through a round-to-nearest intrinsic (which nvcc never contracts), so the devices give
// the same bits step after step. The CPU's loops of apply() vectorize (no branch depends on
// an element).
// Header-only; the functors are values and apply() is pure: thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/core/host_device.h"
#include "meshflow/ops/attrs.h"
#include "meshflow/ops/fused_multiply_add.h"

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

using scalar::fmadd;  // a * b + c rounded once

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

// torch's lerp(a, b, weight) as its vectorized CPU kernel computes it: weight * (b - a) + a
// where |weight| < 0.5, else (weight - 1) * (b - a) + b, each one fused multiply-add. The
// form is the weight's, one per call: a select on `small` (a float, 1 or 0) keeps the CPU's
// loop free of branches, where one on a bool flag made NAdam's loop run scalar (20x slower).
template <typename T>
struct Lerp {
  T coefficient, small;

  static Lerp make(double weight) {
    const T w = static_cast<T>(weight);
    const bool is_small = (w < 0 ? -w : w) < static_cast<T>(0.5);
    return {is_small ? w : w - 1, static_cast<T>(is_small ? 1 : 0)};
  }
  MF_HOST_DEVICE T of(T a, T b) const { return fmadd(coefficient, sub(b, a), small > 0 ? a : b); }
};

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
// the moments (exp_avg by lerp, exp_avg_sq by mul and addcmul), then the bias-corrected
// update (addcdiv), its denominator from the running maximum of exp_avg_sq under amsgrad.
// Adam's instead adds weight_decay * param to the gradient first (torch's grad.add(param,
// alpha=wd)). kL2 and kAmsgrad are template arguments, so that the CPU's loop has no branch
// and vectorizes (a run-time choice inside it made AdamW's step on the GPT bench 3x slower).
template <typename T>
struct AdamWStep {
  Lerp<T> avg;
  T decay, l2, sign, beta2, one_minus_beta2, eps, neg_step_size, correction2_sqrt;

  static AdamWStep make(const AdamWHyper& h) {
    AdamWStep c;
    c.avg = Lerp<T>::make(1 - h.beta1);
    c.decay = static_cast<T>(h.decoupled ? 1 - h.lr * h.weight_decay : 1);
    c.l2 = static_cast<T>(h.weight_decay);
    c.sign = static_cast<T>(h.maximize ? -1 : 1);
    c.beta2 = static_cast<T>(h.beta2);
    c.one_minus_beta2 = static_cast<T>(1 - h.beta2);
    c.eps = static_cast<T>(h.eps);
    const double step = static_cast<double>(h.step);
    c.neg_step_size = static_cast<T>(-(h.lr / (1 - std::pow(h.beta1, step))));
    c.correction2_sqrt = static_cast<T>(std::pow(1 - std::pow(h.beta2, step), 0.5));  // Python's ** 0.5
    return c;
  }

  // max_exp_avg_sq is read under kAmsgrad only.
  template <bool kL2, bool kAmsgrad>
  MF_HOST_DEVICE AdamWResult<T> apply(T param, T grad, T exp_avg, T exp_avg_sq, T max_exp_avg_sq) const {
    T g = mul(sign, grad);
    if constexpr (kL2) g = fmadd(param, l2, g);
    const T m = avg.of(exp_avg, g);
    const T v = fmadd(mul(one_minus_beta2, g), g, mul(exp_avg_sq, beta2));
    T top = v;
    if constexpr (kAmsgrad) top = max_exp_avg_sq < v ? v : max_exp_avg_sq;
    const T denom = add(div(root(top), correction2_sqrt), eps);
    return {add(mul(param, decay), div(mul(neg_step_size, m), denom)), m, v, top};
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
  T neg_lr, momentum, weight_decay, keep, sign;
  bool decay, with_momentum, has_buf, nesterov;

  static SgdStep make(const SgdHyper& h) {
    return {static_cast<T>(-h.lr),           static_cast<T>(h.momentum),  static_cast<T>(h.weight_decay),
            static_cast<T>(1 - h.dampening), static_cast<T>(h.maximize ? -1 : 1), h.weight_decay != 0,
            h.momentum != 0,                 h.has_buf,                   h.nesterov};
  }

  // momentum_buf is read with has_buf only.
  MF_HOST_DEVICE SgdResult<T> apply(T param, T grad, T momentum_buf) const {
    const T g = mul(sign, grad);
    T d = decay ? fmadd(param, weight_decay, g) : g;
    T b = d;
    if (with_momentum) {
      if (has_buf) b = fmadd(d, keep, mul(momentum_buf, momentum));
      d = nesterov ? fmadd(b, momentum, d) : b;
    }
    return {fmadd(d, neg_lr, param), b};
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
// added to it, the running mean of its square (and, centered, of itself, by lerp), the
// denominator sqrt(square_avg [- grad_avg^2]) + eps, then the step along g / denominator
// or, with momentum, along a buffer of them (torch's buffers start at zero).
template <typename T>
struct RmspropStep {
  Lerp<T> mean;
  T neg_lr, alpha, one_minus_alpha, eps, weight_decay, momentum, sign;
  bool decay, centered, with_momentum;

  static RmspropStep make(const RmspropHyper& h) {
    return {Lerp<T>::make(1 - h.alpha),
            static_cast<T>(-h.lr),
            static_cast<T>(h.alpha),
            static_cast<T>(1 - h.alpha),
            static_cast<T>(h.eps),
            static_cast<T>(h.weight_decay),
            static_cast<T>(h.momentum),
            static_cast<T>(h.maximize ? -1 : 1),
            h.weight_decay != 0,
            h.centered,
            h.with_momentum()};
  }

  // grad_avg is read when centered, momentum_buf with momentum.
  MF_HOST_DEVICE RmspropResult<T> apply(T param, T grad, T square_avg, T grad_avg, T momentum_buf) const {
    T g = mul(sign, grad);
    if (decay) g = fmadd(param, weight_decay, g);
    const T sq = fmadd(mul(one_minus_alpha, g), g, mul(square_avg, alpha));
    T ga = grad_avg, var = sq;
    if (centered) {
      ga = mean.of(grad_avg, g);
      var = fmadd(-ga, ga, sq);  // square_avg.addcmul(grad_avg, grad_avg, value=-1)
    }
    const T avg = add(root(var), eps);
    T b = momentum_buf, p;
    if (with_momentum) {
      b = add(mul(momentum_buf, momentum), div(g, avg));
      p = fmadd(b, neg_lr, param);
    } else {
      p = add(param, div(mul(neg_lr, g), avg));
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
// lr_decay) along g / (sqrt(sum) + eps) (addcdiv's (value * g) / std).
template <typename T>
struct AdagradStep {
  T neg_clr, eps, weight_decay, sign;
  bool decay;

  static AdagradStep make(const AdagradHyper& h) {
    return {static_cast<T>(-(h.lr / (1 + static_cast<double>(h.step - 1) * h.lr_decay))), static_cast<T>(h.eps),
            static_cast<T>(h.weight_decay), static_cast<T>(h.maximize ? -1 : 1), h.weight_decay != 0};
  }

  MF_HOST_DEVICE AdagradResult<T> apply(T param, T grad, T sum) const {
    T g = mul(sign, grad);
    if (decay) g = fmadd(param, weight_decay, g);
    const T s = fmadd(g, g, sum);
    return {add(param, div(mul(neg_clr, g), add(root(s), eps))), s};
  }
};


// ---------------------------------------------------------------------------------------
// Elementwise rules: Adamax, NAdam, RAdam, Adadelta, ASGD and Rprop (torch.optim's
// single-tensor steps), each one op of optimizer_ops.cc defined once over its rule (and one
// CUDA kernel, ops/cuda/optimizer.cu). A rule names its op (kOp) and the state tensors its op
// reads and writes after param and grad (state_names(), torch's state keys, kState of them),
// checks its attributes (check(), for infer), makes its per-call constants from them (make(),
// on the host), and apply(param, grad, state...) gives one element's new param and state (an
// Updated: scalars in and a struct out, which the CPU's loops vectorize, where arrays of
// them did not). Where a step's options choose between values, both are computed and one
// taken (Lerp says why). Every attribute is a float (options as the optimizer holds them, true as
// 1) but "step", the parameter's step count (int). Each operation rounds as torch's does (above).

// One element's new param and kState state values.
template <typename T, int kState>
struct Updated {
  T param;
  T state[kState];
};

// A float attribute read as a flag (an optimizer option: 0 or 1).
inline bool option_flag(const Attrs& attrs, const char* key) { return attrs.get_float(key) != 0; }

// The gradient an update steps along: negated under maximize (a factor of -1 or 1: exact),
// with weight_decay * param added (torch's L2 term) where `l2` (a float, 1 or 0: a select on
// it vectorizes, where one on a bool made the CPU's loop branch and run scalar, 2.5x slower).
template <typename T>
struct GradTerm {
  T sign, weight_decay, l2;

  static GradTerm make(const Attrs& attrs, bool l2) {
    return {static_cast<T>(option_flag(attrs, "maximize") ? -1 : 1), static_cast<T>(attrs.get_float("weight_decay")),
            static_cast<T>(l2 && attrs.get_float("weight_decay") != 0 ? 1 : 0)};
  }
  MF_HOST_DEVICE T of(T param, T grad) const {
    const T g = mul(sign, grad), decayed = fmadd(param, weight_decay, g);
    return l2 > 0 ? decayed : g;
  }
};

// Adam's moments: exp_avg by lerp towards g, exp_avg_sq as beta2 * it + (1 - beta2) * g * g.
template <typename T>
struct Moments {
  Lerp<T> avg;
  T beta2, one_minus_beta2;

  static Moments make(const Attrs& attrs) {
    const double beta2 = attrs.get_float("beta2");
    return {Lerp<T>::make(1 - attrs.get_float("beta1")), static_cast<T>(beta2), static_cast<T>(1 - beta2)};
  }
  MF_HOST_DEVICE T exp_avg(T m, T g) const { return avg.of(m, g); }
  MF_HOST_DEVICE T exp_avg_sq(T v, T g) const { return fmadd(mul(one_minus_beta2, g), g, mul(v, beta2)); }
};

// The checks of infer (defined in optimizer_ops.cc), throwing as every op's errors do
// (op_error) with what was expected: the attribute in [lo, hi) (hi included where `closed`),
// "step" at least 1, and any other.
void expect_attr_range(const char* op, const Attrs& attrs, const char* key, double lo, double hi, bool closed = false);
void expect_step(const char* op, const Attrs& attrs);
[[noreturn]] void attr_error(const char* op, const std::string& message);

// What the rules of Adam's family (Adamax, NAdam, RAdam) check: the betas in [0, 1), step.
inline void expect_adam_attrs(const char* op, const Attrs& attrs) {
  expect_attr_range(op, attrs, "beta1", 0, 1);
  expect_attr_range(op, attrs, "beta2", 0, 1);
  expect_step(op, attrs);
}

// torch.optim.Adamax: attributes lr, beta1, beta2, eps, weight_decay (L2), maximize, step.
template <typename T>
struct AdamaxStep {
  static constexpr const char* kOp = "adamax_update";
  static constexpr int kState = 2;
  static std::vector<std::string> state_names() { return {"exp_avg", "exp_inf"}; }
  static void check(const Attrs& attrs) { expect_adam_attrs(kOp, attrs); }

  GradTerm<T> grad;
  Lerp<T> avg;
  T beta2, eps, neg_clr;

  static AdamaxStep make(const Attrs& attrs) {
    const double beta1 = attrs.get_float("beta1");
    const double clr = attrs.get_float("lr") / (1 - std::pow(beta1, static_cast<double>(attrs.get_int("step"))));
    return {GradTerm<T>::make(attrs, true), Lerp<T>::make(1 - beta1), static_cast<T>(attrs.get_float("beta2")),
            static_cast<T>(attrs.get_float("eps")), static_cast<T>(-clr)};
  }
  MF_HOST_DEVICE Updated<T, 2> apply(T param, T grad_in, T exp_avg, T exp_inf) const {
    const T g = grad.of(param, grad_in);
    const T m = avg.of(exp_avg, g);
    const T decayed = mul(exp_inf, beta2), fresh = add(g < 0 ? -g : g, eps);
    const T u = decayed < fresh ? fresh : decayed;
    return {add(param, div(mul(neg_clr, m), u)), {m, u}};
  }
};

// torch.optim.NAdam: attributes lr, beta1, beta2, eps, weight_decay, momentum_decay,
// decoupled_weight_decay, maximize, step, and mu_product: the product of the momentum
// coefficients mu of steps 1 to step (torch's float32 state "mu_product", after this step's).
template <typename T>
struct NadamStep {
  static constexpr const char* kOp = "nadam_update";
  static constexpr int kState = 2;
  static std::vector<std::string> state_names() { return {"exp_avg", "exp_avg_sq"}; }
  static void check(const Attrs& attrs) { expect_adam_attrs(kOp, attrs); }
  // The momentum coefficient of step `step` (torch's mu).
  static double mu(double beta1, double momentum_decay, double step) {
    return beta1 * (1.0 - 0.5 * std::pow(0.96, step * momentum_decay));
  }

  GradTerm<T> grad;
  Moments<T> moments;
  T decay, bias_correction2, eps, grad_scale, avg_scale;

  static NadamStep make(const Attrs& attrs) {
    const bool decoupled = option_flag(attrs, "decoupled_weight_decay");
    const double lr = attrs.get_float("lr"), step = static_cast<double>(attrs.get_int("step"));
    const double beta1 = attrs.get_float("beta1"), decay = attrs.get_float("momentum_decay");
    const double mu_now = mu(beta1, decay, step), mu_next = mu(beta1, decay, step + 1);
    const double product = attrs.get_float("mu_product"), product_next = product * mu_next;
    return {GradTerm<T>::make(attrs, !decoupled),
            Moments<T>::make(attrs),
            static_cast<T>(decoupled ? 1 - lr * attrs.get_float("weight_decay") : 1),
            static_cast<T>(1 - std::pow(attrs.get_float("beta2"), step)),
            static_cast<T>(attrs.get_float("eps")),
            static_cast<T>(-lr * (1.0 - mu_now) / (1.0 - product)),
            static_cast<T>((-lr * mu_next) / (1.0 - product_next))};
  }
  MF_HOST_DEVICE Updated<T, 2> apply(T param, T grad_in, T exp_avg, T exp_avg_sq) const {
    const T p = mul(param, decay);
    const T g = grad.of(p, grad_in);
    const T m = moments.exp_avg(exp_avg, g), v = moments.exp_avg_sq(exp_avg_sq, g);
    const T denom = add(root(div(v, bias_correction2)), eps);
    return {add(add(p, div(mul(grad_scale, g), denom)), div(mul(avg_scale, m), denom)), {m, v}};
  }
};

// torch.optim.RAdam: attributes lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay,
// maximize, step. The rectified step where the variance's length rho_t exceeds 5, else the
// momentum's alone.
template <typename T>
struct RadamStep {
  static constexpr const char* kOp = "radam_update";
  static constexpr int kState = 2;
  static std::vector<std::string> state_names() { return {"exp_avg", "exp_avg_sq"}; }
  static void check(const Attrs& attrs) { expect_adam_attrs(kOp, attrs); }

  GradTerm<T> grad;
  Moments<T> moments;
  T decay, bias_correction1, lr, eps, correction2_sqrt, rect;
  bool rectified;

  static RadamStep make(const Attrs& attrs) {
    const bool decoupled = option_flag(attrs, "decoupled_weight_decay");
    const double lr = attrs.get_float("lr"), beta2 = attrs.get_float("beta2");
    const double step = static_cast<double>(attrs.get_int("step"));
    const double bc2 = 1 - std::pow(beta2, step), rho_inf = 2 / (1 - beta2) - 1;
    const double rho_t = rho_inf - 2 * step * std::pow(beta2, step) / bc2;
    const bool rectified = rho_t > 5.0;
    const double rect =
        rectified ? std::pow((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t), 0.5) : 1;
    return {GradTerm<T>::make(attrs, !decoupled),
            Moments<T>::make(attrs),
            static_cast<T>(decoupled ? 1 - lr * attrs.get_float("weight_decay") : 1),
            static_cast<T>(1 - std::pow(attrs.get_float("beta1"), step)),
            static_cast<T>(lr),
            static_cast<T>(attrs.get_float("eps")),
            static_cast<T>(std::pow(bc2, 0.5)),  // Python's ** 0.5
            static_cast<T>(rect),
            rectified};
  }
  MF_HOST_DEVICE Updated<T, 2> apply(T param, T grad_in, T exp_avg, T exp_avg_sq) const {
    const T p = mul(param, decay);
    const T g = grad.of(p, grad_in);
    const T m = moments.exp_avg(exp_avg, g), v = moments.exp_avg_sq(exp_avg_sq, g);
    const T plain = mul(div(m, bias_correction1), lr);
    const T adaptive = mul(div(T{1}, add(root(v), eps)), correction2_sqrt);  // torch's __rtruediv__: reciprocal * it
    const T adapted = mul(mul(plain, adaptive), rect);
    return {sub(p, rectified ? adapted : plain), {m, v}};
  }
};

// torch.optim.Adadelta: attributes lr, rho, eps, weight_decay (L2), maximize.
template <typename T>
struct AdadeltaStep {
  static constexpr const char* kOp = "adadelta_update";
  static constexpr int kState = 2;
  static std::vector<std::string> state_names() { return {"square_avg", "acc_delta"}; }
  static void check(const Attrs& attrs) { expect_attr_range(kOp, attrs, "rho", 0, 1, true); }

  GradTerm<T> grad;
  T rho, one_minus_rho, eps, neg_lr;

  static AdadeltaStep make(const Attrs& attrs) {
    const double rho = attrs.get_float("rho");
    return {GradTerm<T>::make(attrs, true), static_cast<T>(rho), static_cast<T>(1 - rho),
            static_cast<T>(attrs.get_float("eps")), static_cast<T>(-attrs.get_float("lr"))};
  }
  MF_HOST_DEVICE Updated<T, 2> apply(T param, T grad_in, T square_avg, T acc_delta) const {
    const T g = grad.of(param, grad_in);
    const T sq = fmadd(mul(one_minus_rho, g), g, mul(square_avg, rho));
    const T delta = mul(div(root(add(acc_delta, eps)), root(add(sq, eps))), g);
    return {fmadd(delta, neg_lr, param), {sq, fmadd(mul(one_minus_rho, delta), delta, mul(acc_delta, rho))}};
  }
};

// torch.optim.ASGD: attributes lambd, weight_decay (L2), maximize, and eta and mu: the step
// size and the averaging weight this step reads (torch's float32 states "eta" and "mu", as
// the step before left them; the optimizer advances them). ax is the running average of the
// parameter (a copy of it while mu is 1).
template <typename T>
struct AsgdStep {
  static constexpr const char* kOp = "asgd_update";
  static constexpr int kState = 1;
  static std::vector<std::string> state_names() { return {"ax"}; }
  static void check(const Attrs& attrs) {
    expect_attr_range(kOp, attrs, "mu", 0, 1, true);
  }

  GradTerm<T> grad;
  T keep, neg_eta, mu;
  bool averaging;

  static AsgdStep make(const Attrs& attrs) {
    const double eta = attrs.get_float("eta"), mu = attrs.get_float("mu");
    return {GradTerm<T>::make(attrs, true), static_cast<T>(1 - attrs.get_float("lambd") * eta),
            static_cast<T>(-eta), static_cast<T>(mu), mu != 1};
  }
  MF_HOST_DEVICE Updated<T, 1> apply(T param, T grad_in, T ax) const {
    const T g = grad.of(param, grad_in);
    const T p = fmadd(g, neg_eta, mul(param, keep));
    const T averaged = add(ax, mul(sub(p, ax), mu));
    return {p, {averaging ? averaged : p}};
  }
};

// torch.optim.Rprop: attributes etaminus, etaplus, step_size_min, step_size_max, maximize.
// Each element's step size grows by etaplus while its gradient keeps its sign and shrinks by
// etaminus where it flips (that gradient then counts as 0: no step, and no flip next time).
template <typename T>
struct RpropStep {
  static constexpr const char* kOp = "rprop_update";
  static constexpr int kState = 2;
  static std::vector<std::string> state_names() { return {"prev", "step_size"}; }
  static void check(const Attrs& attrs) {
    expect_attr_range(kOp, attrs, "etaminus", 0, 1);
    if (!(attrs.get_float("etaplus") > 1)) {
      attr_error(kOp, "etaplus is " + std::to_string(attrs.get_float("etaplus")) + "; expected etaplus > 1");
    }
  }

  T sign, etaminus, etaplus, lo, hi;

  static RpropStep make(const Attrs& attrs) {
    return {static_cast<T>(option_flag(attrs, "maximize") ? -1 : 1), static_cast<T>(attrs.get_float("etaminus")),
            static_cast<T>(attrs.get_float("etaplus")), static_cast<T>(attrs.get_float("step_size_min")),
            static_cast<T>(attrs.get_float("step_size_max"))};
  }
  MF_HOST_DEVICE Updated<T, 2> apply(T param, T grad, T prev, T step_size) const {
    const T g = mul(sign, grad);
    const T agree = mul(g, prev);
    const T other = agree < 0 ? etaminus : T{1};
    const T factor = agree > 0 ? etaplus : other;
    const T scaled = mul(step_size, factor);
    const T floored = scaled < lo ? lo : scaled;
    const T size = floored > hi ? hi : floored;
    const T kept = factor == etaminus ? T{0} : g;
    const T direction = static_cast<T>(kept > 0) - static_cast<T>(kept < 0);  // sign(kept)
    return {add(param, mul(-direction, size)), {kept, size}};
  }
};

}  // namespace mf::optim
