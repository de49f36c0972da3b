"""Optimizer update ops (adamw_update, adam_update, sgd_update, rmsprop_update, adagrad_update)
on local tensors against NumPy transcriptions of torch.optim.AdamW, Adam, SGD, RMSprop and
Adagrad's single-tensor steps (amsgrad and
maximize too), over several
steps that feed each op its own previous outputs; and bad input."""
import numpy as np
import pytest

import meshflow as mf
from meshflow._tensor import apply

STEPS = 5


def gradients(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(dtype) for _ in range(STEPS)]


def adamw_reference(param, exp_avg, exp_avg_sq, grad, lr, beta1, beta2, eps, weight_decay, step, decoupled=True,
                    max_exp_avg_sq=None, maximize=False):
    """torch.optim.adamw._single_tensor_adamw, without capturable (with amsgrad where
    max_exp_avg_sq is given: then it is returned fourth); not decoupled: torch.optim.adam's,
    whose weight decay is added to the gradient."""
    if maximize:
        grad = -grad
    if decoupled:
        param = param * (1 - lr * weight_decay)
    elif weight_decay != 0:
        grad = grad + weight_decay * param
    weight = 1 - beta1  # exp_avg.lerp_(grad, 1 - beta1)
    exp_avg = exp_avg + weight * (grad - exp_avg) if weight < 0.5 else grad - (grad - exp_avg) * (1 - weight)
    exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * grad * grad
    step_size = lr / (1 - beta1 ** step)
    if max_exp_avg_sq is None:
        denom = np.sqrt(exp_avg_sq) / np.sqrt(1 - beta2 ** step) + eps
        return param - step_size * (exp_avg / denom), exp_avg, exp_avg_sq
    max_exp_avg_sq = np.maximum(max_exp_avg_sq, exp_avg_sq)
    denom = np.sqrt(max_exp_avg_sq) / np.sqrt(1 - beta2 ** step) + eps
    return param - step_size * (exp_avg / denom), exp_avg, exp_avg_sq, max_exp_avg_sq


def sgd_reference(param, buf, grad, lr, momentum, dampening, weight_decay, nesterov, maximize=False):
    """torch.optim.sgd._single_tensor_sgd; buf None before the first step."""
    grad = -grad if maximize else grad
    d_p = grad + weight_decay * param if weight_decay != 0 else grad
    if momentum != 0:
        buf = d_p.copy() if buf is None else buf * momentum + (1 - dampening) * d_p
        d_p = d_p + momentum * buf if nesterov else buf
    return param - lr * d_p, buf


def assert_close(actual, expected):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(4, 3), (7,), (), (0, 2)], ids=str)
@pytest.mark.parametrize("hyper", [dict(lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01),
                                   dict(lr=0.1, beta1=0.6, beta2=0.95, eps=1e-6, weight_decay=0.0),
                                   dict(lr=0.05, beta1=0.0, beta2=0.5, eps=1e-3, weight_decay=0.5)], ids=str)
@pytest.mark.parametrize("op", ["adamw_update", "adam_update"])
def test_adamw_matches_torch_formulas_over_steps(dtype, shape, hyper, op):
    param = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    state = (param, np.zeros(shape, dtype), np.zeros(shape, dtype))
    expected = state
    for step, grad in enumerate(gradients(shape, dtype, 1), start=1):
        outs = apply(op, [mf.tensor(a) for a in (state[0], grad, state[1], state[2])], dict(hyper, step=step))
        state = tuple(o.numpy() for o in outs)
        expected = adamw_reference(*expected, grad, step=step, decoupled=op == "adamw_update", **hyper)
        for actual, reference in zip(state, expected):
            assert_close(actual, np.asarray(reference, dtype))
        expected = state  # each step from the op's own state, so errors do not compound


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(4, 3), (7,), (), (0, 2)], ids=str)
@pytest.mark.parametrize("flags", [dict(amsgrad=True), dict(maximize=True), dict(amsgrad=True, maximize=True)],
                         ids=str)
@pytest.mark.parametrize("op", ["adamw_update", "adam_update"])
def test_amsgrad_and_maximize_match_torch_formulas_over_steps(dtype, shape, flags, op):
    # The gradients' scale falls over the steps, so that amsgrad's maximum of exp_avg_sq
    # differs from exp_avg_sq (the denominator keeps an earlier, larger second moment).
    hyper = dict(lr=0.05, beta1=0.8, beta2=0.9, eps=1e-6, weight_decay=0.1)
    amsgrad = flags.get("amsgrad", False)
    param = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    state = [param, np.zeros(shape, dtype), np.zeros(shape, dtype)] + ([np.zeros(shape, dtype)] if amsgrad else [])
    for step, grad in enumerate(gradients(shape, dtype, 3), start=1):
        grad = (grad * 4.0 ** -step).astype(dtype)
        inputs = state[:1] + [grad] + state[1:]
        outs = apply(op, [mf.tensor(a) for a in inputs], dict(hyper, step=step, **flags))
        assert len(outs) == (4 if amsgrad else 3)
        expected = adamw_reference(*state[:3], grad, step=step, decoupled=op == "adamw_update",
                                   max_exp_avg_sq=state[3] if amsgrad else None,
                                   maximize=flags.get("maximize", False), **hyper)
        state = [o.numpy() for o in outs]
        for actual, reference in zip(state, expected):
            assert_close(actual, np.asarray(reference, dtype))
    if amsgrad and state[0].size:
        assert (state[3] > state[2]).any()  # the maximum was kept


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(4, 3), (), (0, 2)], ids=str)
@pytest.mark.parametrize("hyper", [dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False),
                                   dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.01, nesterov=False),
                                   dict(lr=0.05, momentum=0.9, dampening=0.0, weight_decay=0.0, nesterov=False),
                                   dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.1, nesterov=False),
                                   dict(lr=0.01, momentum=0.8, dampening=0.0, weight_decay=0.01, nesterov=True),
                                   dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                                        maximize=True),
                                   dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.1, nesterov=False,
                                        maximize=True)],
                         ids=str)
def test_sgd_matches_torch_formulas_over_steps(dtype, shape, hyper):
    param = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    buf = None
    for grad in gradients(shape, dtype, 2):
        inputs = [param, grad] + ([] if buf is None else [buf])
        outs = apply("sgd_update", [mf.tensor(a) for a in inputs], dict(hyper, has_buf=buf is not None))
        assert len(outs) == (2 if hyper["momentum"] else 1)
        expected_param, expected_buf = sgd_reference(param, buf, grad, **hyper)
        assert_close(outs[0].numpy(), np.asarray(expected_param, dtype))
        param = outs[0].numpy()
        if hyper["momentum"]:
            assert_close(outs[1].numpy(), np.asarray(expected_buf, dtype))
            buf = outs[1].numpy()


def rmsprop_reference(param, grad, square_avg, grad_avg, buf, lr, alpha, eps, weight_decay, momentum, centered=False,
                      maximize=False):
    """torch.optim.rmsprop._single_tensor_rmsprop: (param, square_avg, grad_avg, buf)."""
    grad = -grad if maximize else grad
    if weight_decay:
        grad = grad + weight_decay * param
    square_avg = square_avg * alpha + (1 - alpha) * grad * grad
    if centered:
        weight = 1 - alpha  # grad_avg.lerp_(grad, 1 - alpha)
        grad_avg = grad_avg + weight * (grad - grad_avg) if weight < 0.5 else grad - (grad - grad_avg) * (1 - weight)
        avg = np.sqrt(square_avg - grad_avg * grad_avg) + eps
    else:
        avg = np.sqrt(square_avg) + eps
    if momentum:
        buf = buf * momentum + grad / avg
        return param - lr * buf, square_avg, grad_avg, buf
    return param - lr * grad / avg, square_avg, grad_avg, buf


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(4, 3), (), (0, 2)], ids=str)
@pytest.mark.parametrize("hyper", [dict(lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0),
                                   dict(lr=0.02, alpha=0.9, eps=1e-6, weight_decay=0.1, momentum=0.5, centered=True),
                                   dict(lr=0.01, alpha=0.3, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=True,
                                        maximize=True)],
                         ids=str)
def test_rmsprop_matches_torch_formulas_over_steps(dtype, shape, hyper):
    param = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    square_avg, grad_avg, buf = (np.zeros(shape, dtype) for _ in range(3))
    centered, momentum = hyper.get("centered", False), hyper["momentum"] != 0
    for grad in gradients(shape, dtype, 3):
        inputs = [param, grad, square_avg] + ([grad_avg] if centered else []) + ([buf] if momentum else [])
        outs = [o.numpy() for o in apply("rmsprop_update", [mf.tensor(a) for a in inputs], hyper)]
        assert len(outs) == 2 + centered + momentum
        expected = rmsprop_reference(param, grad, square_avg, grad_avg, buf, **hyper)
        param, square_avg = outs[0], outs[1]
        grad_avg = outs[2] if centered else grad_avg
        buf = outs[-1] if momentum else buf
        for got, want in zip((param, square_avg, grad_avg, buf), expected):
            assert_close(got, np.asarray(want, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("hyper", [dict(lr=0.1, lr_decay=0.0, eps=1e-10, weight_decay=0.0),
                                   dict(lr=0.05, lr_decay=0.2, eps=1e-6, weight_decay=0.1, maximize=True)], ids=str)
def test_adagrad_matches_torch_formulas_over_steps(dtype, hyper):
    """torch.optim.adagrad._single_tensor_adagrad, its state sum starting at 0.1."""
    param = np.random.default_rng(0).standard_normal((4, 3)).astype(dtype)
    acc = np.full((4, 3), 0.1, dtype)
    for step, grad in enumerate(gradients((4, 3), dtype, 4), start=1):
        outs = [o.numpy() for o in apply("adagrad_update", [mf.tensor(a) for a in (param, grad, acc)],
                                         dict(hyper, step=step))]
        g = -grad if hyper.get("maximize") else grad
        g = g + hyper["weight_decay"] * param
        want_acc = acc + g * g
        clr = hyper["lr"] / (1 + (step - 1) * hyper["lr_decay"])
        want = param - clr * g / (np.sqrt(want_acc) + hyper["eps"])
        assert_close(outs[1], want_acc.astype(dtype))
        assert_close(outs[0], want.astype(dtype))
        param, acc = outs


ADAMW = dict(lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.01, step=1)
SGD = dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, has_buf=False)
RMSPROP = dict(lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.9, centered=True)


NADAM = dict(lr=0.1, beta1=0.9, beta2=0.99, eps=1e-8, weight_decay=0.0, momentum_decay=4e-3,
             decoupled_weight_decay=0.0, maximize=0.0, step=1, mu_product=0.9)


@pytest.mark.parametrize("op, shapes, dtype, attrs, message", [
    ("adamw_update", [(3,)] * 3, np.float32, ADAMW, r"\[adamw_update\] takes 4 inputs \(param, grad, exp_avg"),
    ("adamw_update", [(3,), (3,), (3,), (2,)], np.float32, ADAMW, r"exp_avg_sq is float32 \[2\] and param"),
    ("adamw_update", [(3,)] * 4, np.int64, ADAMW, r"param has dtype int64; expected float32 or float64"),
    ("adamw_update", [(3,)] * 4, np.float32, dict(ADAMW, step=0), r"step is 0; expected the step count, from 1"),
    ("adamw_update", [(3,)] * 4, np.float32, dict(ADAMW, beta2=1.0), r"expected 0 <= beta2 < 1"),
    ("adam_update", [(3,)] * 3, np.float32, ADAMW, r"\[adam_update\] takes 4 inputs \(param, grad, exp_avg"),
    ("adam_update", [(3,)] * 4, np.float32, dict(ADAMW, step=0), r"\[adam_update\] step is 0"),
    ("adam_update", [(3,)] * 4, np.float32, dict(ADAMW, amsgrad=True),
     r"\[adam_update\] takes 5 inputs \(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq\), got 4"),
    ("adamw_update", [(3,)] * 4 + [(2,)], np.float32, dict(ADAMW, amsgrad=True), r"max_exp_avg_sq is float32 \[2\]"),
    ("sgd_update", [(3,)] * 3, np.float32, dict(SGD, has_buf=True), r"has_buf is set without momentum"),
    ("sgd_update", [(3,)] * 2, np.float32, dict(SGD, momentum=0.9, nesterov=True, dampening=0.1),
     r"expected momentum > 0 and dampening 0"),
    ("sgd_update", [(3,), (4,)], np.float64, SGD, r"grad is float64 \[4\] and param float64 \[3\]"),
    ("rmsprop_update", [(3,)] * 4, np.float32, RMSPROP,
     r"\[rmsprop_update\] takes 5 inputs \(param, grad, square_avg, grad_avg, momentum_buf\), got 4"),
    ("rmsprop_update", [(3,)] * 3, np.float32, dict(RMSPROP, alpha=-0.5, momentum=0.0, centered=False),
     r"expected each >= 0"),
    ("adagrad_update", [(3,)] * 3, np.float32, dict(lr=0.1, lr_decay=0.0, eps=1e-10, weight_decay=0.0, step=0),
     r"\[adagrad_update\] step is 0; expected the step count, from 1"),
    ("adagrad_update", [(3,)] * 2, np.float32, dict(lr=0.1, lr_decay=0.0, eps=1e-10, weight_decay=0.0, step=1),
     r"\[adagrad_update\] takes 3 inputs \(param, grad, sum\), got 2"),
    ("nadam_update", [(3,)] * 3, np.float32, NADAM,
     r"\[nadam_update\] takes 4 inputs \(param, grad, exp_avg, exp_avg_sq\)"),
    ("nadam_update", [(3,)] * 4, np.float32, dict(NADAM, beta2=1.0),
     r"\[nadam_update\] beta2 is 1.0+; expected 0.0+ <= beta2 < 1"),
    ("radam_update", [(3,)] * 4, np.float32, dict(NADAM, step=0), r"\[radam_update\] step is 0"),
    ("adadelta_update", [(3,)] * 4, np.float32, dict(NADAM, rho=1.5), r"\[adadelta_update\] rho is 1.5"),
    ("asgd_update", [(3,), (3,), (4,)], np.float32, dict(NADAM, lambd=0.0, eta=0.1, mu=1.0), r"ax is float32 \[4\]"),
    ("rprop_update", [(3,)] * 4, np.float32, dict(etaminus=0.5, etaplus=0.9, step_size_min=0.0, step_size_max=1.0,
                                                  maximize=0.0),
     r"\[rprop_update\] etaplus is 0.90+; expected etaplus > 1"),
])
def test_bad_input(op, shapes, dtype, attrs, message):
    with pytest.raises(ValueError, match=message):
        apply(op, [mf.tensor(np.zeros(s, dtype)) for s in shapes], attrs)
