// Copyright 2026 The meshflow Authors.
// Optimizer updates as ops, with PyTorch's formulas (torch.optim.AdamW, Adam, SGD, RMSprop,
// Adagrad, Adamax, NAdam, RAdam, Adadelta, ASGD, Rprop): one elementwise pass reads a
// parameter, its gradient and its state and writes the new parameter and state where the
// caller gives memory for them: eager optimizers give the old ones' (fn::update_in_place), so
// each element is read before it is written at its index.
//   adamw_update(param, grad, exp_avg, exp_avg_sq[, max_exp_avg_sq];
//                lr, beta1, beta2, eps, weight_decay, step[, amsgrad, maximize])
//       -> (param, exp_avg, exp_avg_sq[, max_exp_avg_sq])   the fifth input and fourth output
//                                     with amsgrad: the running maximum of exp_avg_sq, whose
//                                     square root is the denominator (torch's amsgrad=True)
//   adam_update(the same)   torch.optim.Adam: weight decay is L2, added to the gradient
//   sgd_update(param, grad[, momentum_buf]; lr, momentum, dampening, weight_decay, nesterov, has_buf
//              [, maximize])
//       -> (param[, momentum_buf])   a buffer comes out when momentum != 0; without has_buf
//                                     (the first step) it starts as the gradient
//   rmsprop_update(param, grad, square_avg[, grad_avg][, momentum_buf];
//                  lr, alpha, eps, weight_decay, momentum[, centered, maximize])
//       -> (param, square_avg[, grad_avg][, momentum_buf])   torch.optim.RMSprop: grad_avg
//                                     when centered, the buffer when momentum != 0
//   adagrad_update(param, grad, sum; lr, lr_decay, eps, weight_decay, step[, maximize])
//       -> (param, sum)              torch.optim.Adagrad: sum accumulates the squared gradients
//   adamax_update(param, grad, exp_avg, exp_inf), nadam_update(param, grad, exp_avg,
//   exp_avg_sq), radam_update(the same), adadelta_update(param, grad, square_avg, acc_delta),
//   asgd_update(param, grad, ax), rprop_update(param, grad, prev, step_size)
//       -> (param, then the state)   torch.optim's Adamax, NAdam, RAdam, Adadelta, ASGD and
//                                     Rprop; attributes as optimizer_math.h's rules say
// maximize (torch's maximize=True) steps up the gradient: it is negated first. amsgrad,
// centered and maximize are false when absent.
// Multi-tensor (torch's foreach/fused steps): with the attribute tensors = K (1 when absent),
// one call updates K parameters alike (the same hyperparameters and step): each input and
// output above becomes K of them in a row, role by role (K params, then K grads, ...; K new
// params, then K exp_avgs, ...), tensor k's all of param k's shape and dtype, every param of
// one dtype. The CPU's kernel steps the tensors in turn; CUDA's updates them all in one launch.
// Every input has its param's shape and dtype (float32 or float64). Signatures: everything
// S(k), for each k every param has, or everything B (implied); never partial, since the update
// is not linear. lr and step change every step, so only the kernel reads them (one cached
// plan per parameter, not per step); infer checks them when it runs, that is on local calls
// and on a global call's first plan.
#include <algorithm>
#include <type_traits>

#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/optimizer_math.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

// Throws unless there are as many inputs as `names` and all share param's shape and a
// floating dtype.
void expect_like_param(const std::string& op, const std::vector<TensorMeta>& in,
                       const std::vector<std::string>& names) {
  if (in.size() != names.size()) {
    std::string listed;
    for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + n;
    op_error(op,
             "takes " + std::to_string(names.size()) + " inputs (" + listed + "), got " + std::to_string(in.size()));
  }
  if (!is_floating(in[0].dtype)) {
    op_error(op, std::string("param has dtype ") + dtype_name(in[0].dtype) + "; expected float32 or float64");
  }
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].shape != in[0].shape || in[i].dtype != in[0].dtype) {
      op_error(op, names[i] + " is " + dtype_name(in[i].dtype) + " " + to_string(in[i].shape) + " and param " +
                       dtype_name(in[0].dtype) + " " + to_string(in[0].shape) + "; expected param's shape and dtype");
    }
  }
}

void expect_in_unit_interval(const std::string& op, const std::string& name, double value) {
  if (!(value >= 0 && value < 1)) {
    op_error(op, name + " is " + std::to_string(value) + "; expected 0 <= " + name + " < 1");
  }
}


// Checks a multi-tensor call's inputs (the op's contract above): `names` per tensor, in a
// row role by role; returns K.
int64_t expect_tensors(const std::string& op, const std::vector<TensorMeta>& in, const std::vector<std::string>& names,
                       const Attrs& attrs) {
  const int64_t k = optim::tensors_of(attrs);
  if (k == 1) {
    expect_like_param(op, in, names);
    return 1;
  }
  if (k < 1 || in.size() != names.size() * static_cast<size_t>(k)) {
    op_error(op, "takes " + std::to_string(names.size()) + " inputs per tensor, tensors = " + std::to_string(k) +
                     " (at least 1) of them in a row role by role, got " + std::to_string(in.size()));
  }
  for (int64_t t = 0; t < k; ++t) {
    std::vector<TensorMeta> one;
    for (size_t r = 0; r < names.size(); ++r) one.push_back(in[r * k + t]);
    expect_like_param(op, one, names);
    if (in[t].dtype != in[0].dtype) {
      op_error(op, "param " + std::to_string(t) + " is " + dtype_name(in[t].dtype) + " and param 0 " +
                       dtype_name(in[0].dtype) + "; expected one dtype");
    }
  }
  return k;
}

// The outputs' metas: `roles` of them per tensor, each tensor's its param's.
std::vector<TensorMeta> outputs_of(const std::vector<TensorMeta>& in, int64_t k, size_t roles) {
  std::vector<TensorMeta> out;
  for (size_t r = 0; r < roles; ++r) out.insert(out.end(), in.begin(), in.begin() + k);
  return out;
}

// Everything S(d) for each d every param has, or everything B.
std::vector<Signature> update_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out) {
  size_t dims = in[0].shape.size();
  for (const TensorMeta& m : out) dims = std::min(dims, m.shape.size());
  return kernel::split_alike_signatures(dims, in.size(), out.size());
}

// The kernel's outputs (those of outputs_of), each of its param's local shape.
std::vector<Tensor> outputs_like(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  std::vector<Tensor> out;
  for (size_t i = 0; i < ctx.outputs.size(); ++i) out.push_back(ctx.output(i, in[i % k].shape(), in[i % k].dtype()));
  return out;
}

// ---------------------------------------------------------------------------------------
// adamw_update

// optim::AdamWStep over the elements (optimizer_math.h, the GPU's too).
template <bool kL2, bool kAmsgrad, typename T>
void adamw(const optim::AdamWData<T>& d, int64_t n, const optim::AdamWStep<T>& c) {
  kernel::simd_for(n, [&](int64_t i) {
    const optim::AdamWResult<T> r = c.template apply<kL2, kAmsgrad>(
        d.param[i], d.grad[i], d.exp_avg[i], d.exp_avg_sq[i], kAmsgrad ? d.max_exp_avg_sq[i] : T{0});
    if constexpr (kAmsgrad) d.max_exp_avg_sq_out[i] = r.max_exp_avg_sq;
    d.param_out[i] = r.param;
    d.exp_avg_out[i] = r.exp_avg;
    d.exp_avg_sq_out[i] = r.exp_avg_sq;
  });
}

// adamw<kL2, kAmsgrad> for h's choices.
template <typename T>
void adamw_step(const optim::AdamWData<T>& d, int64_t n, const optim::AdamWHyper& h) {
  const auto step = h.l2() ? (h.amsgrad ? adamw<true, true, T> : adamw<true, false, T>)
                       : (h.amsgrad ? adamw<false, true, T> : adamw<false, false, T>);
  step(d, n, optim::AdamWStep<T>::make(h));
}

// adamw_update, or adam_update when not `decoupled`.
OpDef adamw_op(bool decoupled) {
  const std::string name = decoupled ? "adamw_update" : "adam_update";
  OpDef op;
  op.name = name;
  op.infer = [name, decoupled](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const optim::AdamWHyper h = optim::AdamWHyper::of(attrs, decoupled);
    std::vector<std::string> names{"param", "grad", "exp_avg", "exp_avg_sq"};
    if (h.amsgrad) names.push_back("max_exp_avg_sq");
    const int64_t k = expect_tensors(name, in, names, attrs);
    expect_in_unit_interval(name, "beta1", h.beta1);
    expect_in_unit_interval(name, "beta2", h.beta2);
    if (h.step < 1) op_error(name, "step is " + std::to_string(h.step) + "; expected the step count, from 1");
    return outputs_of(in, k, h.amsgrad ? 4 : 3);
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return update_signatures(in, out);
  };
  op.kernel = [decoupled](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const optim::AdamWHyper h = optim::AdamWHyper::of(ctx.attrs, decoupled);
    std::vector<Tensor> out = outputs_like(in, ctx);
    const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        for (size_t t = 0; t < k; ++t) {
          const optim::AdamWData<T> d{in[t].data_as<T>(),
                                      in[k + t].data_as<T>(),
                                      in[2 * k + t].data_as<T>(),
                                      in[3 * k + t].data_as<T>(),
                                      h.amsgrad ? in[4 * k + t].data_as<T>() : nullptr,
                                      out[t].data_as<T>(),
                                      out[k + t].data_as<T>(),
                                      out[2 * k + t].data_as<T>(),
                                      h.amsgrad ? out[3 * k + t].data_as<T>() : nullptr};
          adamw_step(d, in[t].numel(), h);
        }
      }
    });
    return out;
  };
  op.kernel_only_attrs = {"lr", "step"};
  return op;
}

// ---------------------------------------------------------------------------------------
// sgd_update

constexpr const char* kSgd = "sgd_update";

// f(std::bool_constant<flag>...) for the run-time flags, in their order: a loop that f writes
// has them as constants. Read in an update's loop (and its optional pointers tested there),
// they kept GCC's vectorizer out and the loop scalar (SGD with momentum: a fifth of an MLP's
// step at 1 thread).
template <typename F>
void with_constant_flags(F&& f) {
  f();
}
template <typename F, typename... Flags>
void with_constant_flags(F&& f, bool flag, Flags... rest) {
  with_constant_flags([&](auto... fixed) { flag ? f(std::true_type{}, fixed...) : f(std::false_type{}, fixed...); },
                      rest...);
}

// optim::SgdStep over the elements (optimizer_math.h, the GPU's too). buf is null without a
// buffer; buf_out is null without momentum.
template <typename T>
void sgd(const T* param, const T* grad, const T* buf, T* param_out, T* buf_out, int64_t n, const optim::SgdHyper& h) {
  const optim::SgdStep<T> c = optim::SgdStep<T>::make(h);
  with_constant_flags(
      [&](auto decay, auto with_momentum, auto has_buf, auto nesterov) {
        kernel::simd_for(n, [=](int64_t i) {
          optim::SgdStep<T> step = c;
          step.decay = decay, step.with_momentum = with_momentum, step.has_buf = has_buf, step.nesterov = nesterov;
          const optim::SgdResult<T> r = step.apply(param[i], grad[i], has_buf ? buf[i] : T{0});
          if constexpr (decltype(with_momentum)::value) buf_out[i] = r.momentum_buf;
          param_out[i] = r.param;
        });
      },
      c.decay, c.with_momentum, c.has_buf, c.nesterov);
}

OpDef sgd_op() {
  OpDef op;
  op.name = kSgd;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const optim::SgdHyper h = optim::SgdHyper::of(attrs);
    if (h.has_buf && h.momentum == 0) op_error(kSgd, "has_buf is set without momentum; expected momentum != 0");
    if (h.nesterov && (h.momentum <= 0 || h.dampening != 0)) {
      op_error(kSgd, "nesterov with momentum " + std::to_string(h.momentum) + " and dampening " +
                         std::to_string(h.dampening) + "; expected momentum > 0 and dampening 0");
    }
    const int64_t k = expect_tensors(kSgd, in,
                                     h.has_buf ? std::vector<std::string>{"param", "grad", "momentum_buf"}
                                               : std::vector<std::string>{"param", "grad"},
                                     attrs);
    return outputs_of(in, k, h.momentum != 0 ? 2 : 1);
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return update_signatures(in, out);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const optim::SgdHyper h = optim::SgdHyper::of(ctx.attrs);
    std::vector<Tensor> out = outputs_like(in, ctx);
    const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
    const bool with_buf = out.size() > k;
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        for (size_t t = 0; t < k; ++t) {
          sgd(in[t].data_as<T>(), in[k + t].data_as<T>(), h.has_buf ? in[2 * k + t].data_as<T>() : nullptr,
              out[t].data_as<T>(), with_buf ? out[k + t].data_as<T>() : nullptr, in[t].numel(), h);
        }
      }
    });
    return out;
  };
  op.kernel_only_attrs = {"lr"};
  return op;
}

// ---------------------------------------------------------------------------------------
// rmsprop_update

constexpr const char* kRmsprop = "rmsprop_update";

// optim::RmspropStep over the elements (optimizer_math.h, the GPU's too). grad_avg is null
// unless centered, buf (and their outputs) without momentum.
template <typename T>
struct RmspropData {
  const T *param, *grad, *square_avg, *grad_avg, *buf;
  T *param_out, *square_avg_out, *grad_avg_out, *buf_out;
};

template <typename T>
void rmsprop(const RmspropData<T>& d, int64_t n, const optim::RmspropHyper& h) {
  const optim::RmspropStep<T> c = optim::RmspropStep<T>::make(h);
  with_constant_flags(
      [&](auto decay, auto centered, auto with_momentum) {
        kernel::simd_for(n, [=](int64_t i) {
          optim::RmspropStep<T> step = c;
          step.decay = decay, step.centered = centered, step.with_momentum = with_momentum;
          const optim::RmspropResult<T> r = step.apply(d.param[i], d.grad[i], d.square_avg[i],
                                                       centered ? d.grad_avg[i] : T{0}, with_momentum ? d.buf[i] : T{0});
          if constexpr (decltype(centered)::value) d.grad_avg_out[i] = r.grad_avg;
          if constexpr (decltype(with_momentum)::value) d.buf_out[i] = r.momentum_buf;
          d.param_out[i] = r.param;
          d.square_avg_out[i] = r.square_avg;
        });
      },
      c.decay, c.centered, c.with_momentum);
}

OpDef rmsprop_op() {
  OpDef op;
  op.name = kRmsprop;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const optim::RmspropHyper h = optim::RmspropHyper::of(attrs);
    std::vector<std::string> names{"param", "grad", "square_avg"};
    if (h.centered) names.push_back("grad_avg");
    if (h.with_momentum()) names.push_back("momentum_buf");
    const int64_t k = expect_tensors(kRmsprop, in, names, attrs);
    if (!(h.alpha >= 0) || !(h.eps >= 0) || !(h.momentum >= 0) || !(h.weight_decay >= 0)) {
      op_error(kRmsprop, "alpha, eps, momentum and weight_decay are " + std::to_string(h.alpha) + ", " +
                             std::to_string(h.eps) + ", " + std::to_string(h.momentum) + ", " +
                             std::to_string(h.weight_decay) + "; expected each >= 0");
    }
    return outputs_of(in, k, names.size() - 1);
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return update_signatures(in, out);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const optim::RmspropHyper h = optim::RmspropHyper::of(ctx.attrs);
    std::vector<Tensor> out = outputs_like(in, ctx);
    const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
    // Roles after square_avg: grad_avg (centered), then the buffer (momentum).
    const size_t avg_role = 3, buf_role = h.centered ? 4 : 3;
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        for (size_t t = 0; t < k; ++t) {
          const RmspropData<T> d{in[t].data_as<T>(),
                                 in[k + t].data_as<T>(),
                                 in[2 * k + t].data_as<T>(),
                                 h.centered ? in[avg_role * k + t].data_as<T>() : nullptr,
                                 h.with_momentum() ? in[buf_role * k + t].data_as<T>() : nullptr,
                                 out[t].data_as<T>(),
                                 out[k + t].data_as<T>(),
                                 h.centered ? out[(avg_role - 1) * k + t].data_as<T>() : nullptr,
                                 h.with_momentum() ? out[(buf_role - 1) * k + t].data_as<T>() : nullptr};
          rmsprop(d, in[t].numel(), h);
        }
      }
    });
    return out;
  };
  op.kernel_only_attrs = {"lr"};
  return op;
}

// ---------------------------------------------------------------------------------------
// adagrad_update

constexpr const char* kAdagrad = "adagrad_update";

OpDef adagrad_op() {
  OpDef op;
  op.name = kAdagrad;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    const optim::AdagradHyper h = optim::AdagradHyper::of(attrs);
    const int64_t k = expect_tensors(kAdagrad, in, {"param", "grad", "sum"}, attrs);
    if (h.step < 1) op_error(kAdagrad, "step is " + std::to_string(h.step) + "; expected the step count, from 1");
    return outputs_of(in, k, 2);
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return update_signatures(in, out);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const optim::AdagradHyper h = optim::AdagradHyper::of(ctx.attrs);
    std::vector<Tensor> out = outputs_like(in, ctx);
    const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const optim::AdagradStep<T> c = optim::AdagradStep<T>::make(h);
        for (size_t t = 0; t < k; ++t) {
          const T *param = in[t].data_as<T>(), *grad = in[k + t].data_as<T>(), *sum = in[2 * k + t].data_as<T>();
          T *param_out = out[t].data_as<T>(), *sum_out = out[k + t].data_as<T>();
          kernel::simd_for(in[t].numel(), [&](int64_t i) {
            const optim::AdagradResult<T> r = c.apply(param[i], grad[i], sum[i]);
            param_out[i] = r.param;
            sum_out[i] = r.sum;
          });
        }
      }
    });
    return out;
  };
  op.kernel_only_attrs = {"lr", "step"};
  return op;
}

// ---------------------------------------------------------------------------------------
// The elementwise rules' ops (adamax_update, nadam_update, radam_update, adadelta_update,
// asgd_update, rprop_update): one definition over a rule of optimizer_math.h.

// The CPU's loop of one tensor: in holds param, grad and the state, out param and the state.
template <typename Rule, typename T>
void rule_over(const Rule& given, const T* const* in, T* const* out, int64_t n) {
  static_assert(Rule::kState == 1 || Rule::kState == 2, "a rule keeps one or two state tensors");
  const T *param = in[0], *grad = in[1], *s0 = in[2], *s1 = Rule::kState > 1 ? in[3] : nullptr;
  T *param_out = out[0], *s0_out = out[1], *s1_out = Rule::kState > 1 ? out[2] : nullptr;
  // The rule and pointers copied into the loop's body, whose flags and constants it then keeps
  // in registers (the outputs could alias what a reference reads): read through references,
  // NAdam's loop did not vectorize.
  kernel::simd_for(n, [=, rule = given](int64_t i) {
    if constexpr (Rule::kState == 1) {
      const optim::Updated<T, 1> r = rule.apply(param[i], grad[i], s0[i]);
      param_out[i] = r.param;
      s0_out[i] = r.state[0];
    } else {
      const optim::Updated<T, 2> r = rule.apply(param[i], grad[i], s0[i], s1[i]);
      param_out[i] = r.param;
      s0_out[i] = r.state[0];
      s1_out[i] = r.state[1];
    }
  });
}

template <template <typename> class Rule>
OpDef rule_op() {
  using Float = Rule<float>;
  constexpr int kState = Float::kState;
  OpDef op;
  op.name = Float::kOp;
  op.infer = [](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    std::vector<std::string> names{"param", "grad"};
    for (const std::string& s : Float::state_names()) names.push_back(s);
    const int64_t k = expect_tensors(Float::kOp, in, names, attrs);
    Float::check(attrs);
    return outputs_of(in, k, 1 + kState);
  };
  op.signatures = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
    return update_signatures(in, out);
  };
  op.kernel = [](const std::vector<Tensor>& in, const KernelContext& ctx) {
    std::vector<Tensor> out = outputs_like(in, ctx);
    const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const Rule<T> rule = Rule<T>::make(ctx.attrs);
        for (size_t t = 0; t < k; ++t) {
          const T* ins[2 + kState];
          T* outs[1 + kState];
          for (size_t r = 0; r < 2 + kState; ++r) ins[r] = in[r * k + t].data_as<T>();
          for (size_t r = 0; r < 1 + kState; ++r) outs[r] = out[r * k + t].data_as<T>();
          rule_over(rule, ins, outs, in[t].numel());
        }
      }
    });
    return out;
  };
  // What changes from step to step (a schedule's lr, the counts and what they give).
  op.kernel_only_attrs = {"lr", "step", "mu_product", "eta", "mu"};
  return op;
}

// `op` (an update whose tensors are all of the param's shape and dtype) taking complex params
// as torch's optimizers do (view_as_real): each tensor's real and imaginary parts as floats
// of shape (..., 2), updated as two independent real numbers, in the same memory.
OpDef on_real_parts(OpDef op) {
  op.complex = true;
  auto parts = [](std::vector<TensorMeta> metas) {
    for (TensorMeta& m : metas) {
      m.shape.push_back(2);
      m.dtype = real_of(m.dtype);
    }
    return metas;
  };
  op.infer = [infer = op.infer, parts](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    if (in.empty() || !is_complex(in[0].dtype)) return infer(in, attrs);
    std::vector<TensorMeta> out = infer(parts(in), attrs);
    for (TensorMeta& m : out) {
      m.shape.pop_back();
      m.dtype = complex_of(m.dtype);
    }
    return out;
  };
  op.kernel = [kernel = op.kernel, parts](const std::vector<Tensor>& in, const KernelContext& ctx) {
    if (in.empty() || !is_complex(in[0].dtype())) return kernel(in, ctx);
    auto real_view = [](const Tensor& t) {
      Shape shape = t.shape();
      shape.push_back(2);
      return Tensor::wrap(t.data(), shape, real_of(t.dtype()), t.storage(), t.memory());
    };
    std::vector<Tensor> real_in, given;
    for (const Tensor& t : in) real_in.push_back(real_view(t));
    for (size_t k = 0; ctx.given && k < ctx.given->size(); ++k) {
      const Tensor& g = (*ctx.given)[k];
      given.push_back(g.nbytes() > 0 && is_complex(g.dtype()) ? real_view(g) : Tensor::empty({0}, DType::kFloat32));
    }
    std::vector<Box> in_boxes, out_boxes;
    for (const Tensor& t : real_in) in_boxes.push_back(Box::whole(t.shape()));
    const std::vector<TensorMeta> inputs = parts(ctx.inputs), outputs = parts(ctx.outputs);
    for (const TensorMeta& m : outputs) out_boxes.push_back(Box::whole(m.shape));
    std::vector<Tensor> out = kernel(real_in, KernelContext{ctx.attrs, inputs, in_boxes, outputs, out_boxes, &given});
    for (size_t k = 0; k < out.size(); ++k) {
      Shape shape = out[k].shape();
      shape.pop_back();
      out[k] = Tensor::wrap(out[k].data(), shape, complex_of(out[k].dtype()), out[k].storage(), out[k].memory());
    }
    return out;
  };
  return op;
}

}  // namespace

void register_optimizer_ops(OpRegistry& r) {
  r.add(on_real_parts(adamw_op(true)));
  r.add(on_real_parts(adamw_op(false)));
  r.add(on_real_parts(sgd_op()));
  r.add(on_real_parts(rmsprop_op()));
  r.add(on_real_parts(adagrad_op()));
  r.add(on_real_parts(rule_op<optim::AdamaxStep>()));
  r.add(on_real_parts(rule_op<optim::NadamStep>()));
  r.add(on_real_parts(rule_op<optim::RadamStep>()));
  r.add(on_real_parts(rule_op<optim::AdadeltaStep>()));
  r.add(on_real_parts(rule_op<optim::AsgdStep>()));
  r.add(on_real_parts(rule_op<optim::RpropStep>()));
}

namespace optim {

void expect_attr_range(const char* op, const Attrs& attrs, const char* key, double lo, double hi, bool closed) {
  const double v = attrs.get_float(key);
  if (!(v >= lo && (v < hi || (closed && v == hi)))) {
    op_error(op, std::string(key) + " is " + std::to_string(v) + "; expected " + std::to_string(lo) + " <= " + key +
                     (closed ? " <= " : " < ") + std::to_string(hi));
  }
}

void attr_error(const char* op, const std::string& message) { op_error(op, message); }

void expect_step(const char* op, const Attrs& attrs) {
  if (attrs.get_int("step") < 1) {
    op_error(op, "step is " + std::to_string(attrs.get_int("step")) + "; expected the step count, from 1");
  }
}

}  // namespace optim

}  // namespace mf
