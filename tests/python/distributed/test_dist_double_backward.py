"""create_graph on global tensors: a WGAN-GP gradient penalty of an MLP over a batch split on
the ranks (weights broadcast) gives the single-device penalty and parameter gradients, each
gradient in its parameter's layout; a Hessian-vector product of a split tensor likewise."""
import numpy as np
import pytest

import meshflow as mf
from sbp_reference import B, S


def rand(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1.5, 1.5, shape)


def mlp(x, w1, b1, w2):
    return mf.tanh(x @ w1 + b1) @ w2


def penalty(x, params):
    (g,) = mf.autograd.grad(mlp(x, *params).sum(), x, create_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


def test_gradient_penalty_on_a_split_batch_equals_one_device(world):
    if world < 2:
        pytest.skip("needs 2 ranks")
    p = mf.placement("cpu", ranks=list(range(world)))
    xs, arrays = rand(2 * world + 1, 3, seed=1), [rand(3, 4, seed=2), rand(4, seed=3), rand(4, 1, seed=4)]

    local = [mf.tensor(a, requires_grad=True) for a in arrays]
    expected = penalty(mf.tensor(xs, requires_grad=True), local)
    expected.backward()

    params = [mf.tensor(a, placement=p, sbp=B, requires_grad=True) for a in arrays]
    got = penalty(mf.tensor(xs, placement=p, sbp=S(0), requires_grad=True), params)
    got.backward()
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)
    for g, one in zip(params, local):
        assert g.grad.placement == p and g.grad.sbp == (B,)
        np.testing.assert_allclose(g.grad.numpy(), one.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_hessian_vector_product_of_a_split_tensor(world):
    if world < 2:
        pytest.skip("needs 2 ranks")
    p = mf.placement("cpu", ranks=list(range(world)))
    xs, vs = rand(2 * world, seed=5), rand(2 * world, seed=6)
    x = mf.tensor(xs, placement=p, sbp=S(0), requires_grad=True)
    (g,) = mf.autograd.grad((x ** 3).sum() + (x.sum() ** 2), x, create_graph=True)
    (hv,) = mf.autograd.grad(g, x, mf.tensor(vs, placement=p, sbp=S(0)))
    assert hv.sbp == (S(0),)
    np.testing.assert_allclose(hv.numpy(), 6 * xs * vs + 2 * vs.sum(), rtol=1e-12)


def test_anomaly_detection_raises_on_every_rank_when_one_part_has_nan(world):
    if world < 2:
        pytest.skip("needs 2 ranks")
    p = mf.placement("cpu", ranks=list(range(world)))
    xs = np.arange(1.0, 2 * world + 1)
    xs[0] = -1.0  # only rank 0's part: sqrt's gradient 0.5 / NaN there
    x = mf.tensor(xs, placement=p, sbp=S(0), requires_grad=True)
    y = mf.where(x > 0, x.sqrt(), mf.zeros_like(x)).sum()
    with mf.autograd.detect_anomaly():
        with pytest.raises(RuntimeError, match="Function 'SqrtBackward0' returned nan values in its 0th output"):
            y.backward()
