"""Gradient checks for the Python suites (tests/cpp/grad_check.h is the C++ one).

check_gradients(f, arrays): the autograd gradients of f (a function of meshflow tensors) at
NumPy `arrays` on local tensors equal float64 central finite differences (eps 1e-6) of
L = sum(f(*arrays) * w), w fixed random weights; returns them.
check_global_gradients(f, tensors, expected): the same L on global tensors (laid out as the
caller chose): each differentiated input's .grad has the input's placement and SBP and the
value `expected` (the local gradients).
Floating inputs are differentiated (float64, for the differences to be accurate); the others
(indices, conditions) are passed as they are.
"""
import numpy as np

import meshflow as mf

EPS = 1e-6


def _differentiable(dtype):
    return dtype in (mf.float32, mf.float64)


def loss_weights(shape):
    return np.random.default_rng(7).uniform(-1, 1, shape)


def _loss(f, arrays, weights):
    with mf.no_grad():
        out = f(*[mf.tensor(a) for a in arrays]).numpy().astype(np.float64)
    return float(np.sum(out * weights))


def finite_differences(f, arrays, k, weights):
    """dL/d(arrays[k]) by central differences."""
    arrays = list(arrays)
    x = arrays[k] = arrays[k].copy()
    grad = np.empty(x.shape)
    for i in np.ndindex(x.shape):
        saved = x[i]
        x[i] = saved + EPS
        above = _loss(f, arrays, weights)
        x[i] = saved - EPS
        below = _loss(f, arrays, weights)
        x[i] = saved
        grad[i] = (above - below) / (2 * EPS)
    return grad


def check_gradients(f, arrays, tol=1e-5):
    """Checks f's local gradients against finite differences; returns them (None for the
    inputs that are not differentiated)."""
    arrays = [np.asarray(a) for a in arrays]
    inputs = [mf.tensor(a) for a in arrays]
    for t in inputs:
        assert not _differentiable(t.dtype) or t.dtype == mf.float64, "floating inputs must be float64"
        t.requires_grad = _differentiable(t.dtype)
    out = f(*inputs)
    weights = loss_weights(out.shape)
    out.backward(mf.tensor(weights, dtype=out.dtype))
    grads = []
    for k, t in enumerate(inputs):
        if not t.requires_grad:
            grads.append(None)
            continue
        assert t.grad is not None, f"no gradient reached input {k}"
        assert t.grad.dtype == t.dtype and t.grad.shape == t.shape
        np.testing.assert_allclose(t.grad.numpy(), finite_differences(f, arrays, k, weights), rtol=tol, atol=tol,
                                   err_msg=f"input {k}'s gradient against finite differences")
        grads.append(t.grad.numpy().copy())
    return grads


def check_global_gradients(f, tensors, expected, tol=1e-9):
    """Checks f's gradients on the global `tensors` against `expected` (from
    check_gradients) and their layouts against the inputs'. Collective."""
    for t, e in zip(tensors, expected):
        t.requires_grad = e is not None
    out = f(*tensors)
    broadcast = [mf.sbp.broadcast] * len(out.placement.hierarchy)
    out.backward(mf.tensor(loss_weights(out.shape), dtype=out.dtype, placement=out.placement, sbp=broadcast))
    for k, (t, e) in enumerate(zip(tensors, expected)):
        if e is None:
            continue
        assert t.grad is not None, f"no gradient reached input {k}"
        assert t.grad.placement == t.placement, f"input {k}: {t.grad.placement} vs {t.placement}"
        assert t.grad.sbp == t.sbp, f"input {k}: the gradient's sbp {t.grad.sbp}, the input's {t.sbp}"
        np.testing.assert_allclose(t.grad.numpy(), e, rtol=tol, atol=tol, err_msg=f"input {k}'s global gradient")
