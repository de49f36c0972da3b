"""Ops at the edges of their shapes (scalars, empty dims, 0 x 0 matrices) and of their
domains, as torch 2's results are (written out by hand; no torch here). Each case was found
by running a table of ops over shapes and dtypes beside torch: an empty batch or a 0-d
tensor reaches these in real programs (a last batch with nothing left, a loss's scalar)."""
import math

import numpy as np
import pytest

import meshflow as mf


def test_zero_by_zero_matrices_factor_as_torch():
    empty = mf.zeros(0, 0)
    assert mf.linalg.det(empty).item() == 1.0  # the empty product
    assert mf.logdet(empty).item() == 0.0
    sign, logabs = mf.linalg.slogdet(empty)
    assert (sign.item(), logabs.item()) == (1.0, 0.0)
    assert mf.linalg.inv(empty).shape == (0, 0)
    assert mf.linalg.solve(empty, mf.zeros(0, 2)).shape == (0, 2)
    assert mf.linalg.cholesky(empty).shape == (0, 0)
    q, r = mf.linalg.qr(mf.zeros(0, 3))
    assert (q.shape, r.shape) == ((0, 0), (0, 3))
    assert mf.linalg.eigh(empty)[0].shape == (0,)
    assert mf.linalg.svd(mf.zeros(0, 3), full_matrices=False)[1].shape == (0,)
    batch = mf.zeros(2, 0, 0, dtype=mf.float64)
    np.testing.assert_array_equal(mf.linalg.det(batch).numpy(), [1.0, 1.0])


def test_xlogy_and_xlog1py_are_zero_where_x_is_zero():
    x = mf.tensor([0.0, 0.0, 0.0, 2.0, 0.0], requires_grad=True)
    y = mf.tensor([-3.0, 0.0, 2.0, 3.0, float("nan")], requires_grad=True)
    out = mf.xlogy(x, y)
    np.testing.assert_allclose(out.detach().numpy(), [0.0, 0.0, 0.0, 2 * math.log(3), float("nan")])
    out[:4].sum().backward()
    np.testing.assert_allclose(x.grad.numpy()[:4], [0.0, 0.0, math.log(2), math.log(3)], rtol=1e-6)
    x = mf.tensor([0.0, 0.0, 2.0], requires_grad=True)
    out = mf.special.xlog1py(x, mf.tensor([-2.0, 1.0, 3.0]))
    np.testing.assert_allclose(out.detach().numpy(), [0.0, 0.0, 2 * math.log(4)], rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, math.log(2), math.log(4)], rtol=1e-6)
    flags = mf.tensor([True, False])
    np.testing.assert_array_equal(mf.xlogy(flags, mf.tensor([-3, -2], dtype=mf.int8)).numpy(), [float("nan"), 0.0])


def test_logit_and_logaddexp_take_integers_and_bools_as_floats():
    out = mf.logit(mf.tensor([0, 1, 2], dtype=mf.uint8))  # 1 - 2 must not wrap to 255
    assert out.dtype == mf.float32
    np.testing.assert_array_equal(out.numpy(), [-np.inf, np.inf, np.nan])
    both = mf.logaddexp(mf.tensor([True, False]), mf.tensor([0.0, 0.0]))
    assert both.dtype == mf.float32
    np.testing.assert_allclose(both.numpy(), [math.log(1 + math.e), math.log(2)], rtol=1e-6)


def test_empty_dims_stay_empty():
    assert mf.zeros(0).diff().shape == (0,)
    assert mf.zeros(3, 0).diff(dim=0).shape == (2, 0)
    assert mf.nn.functional.glu(mf.zeros(3, 0)).shape == (3, 0)
    values, indices = mf.zeros(0, 3).cummax(0)
    assert (values.shape, indices.shape, indices.dtype) == ((0, 3), (0, 3), mf.int64)
    assert [p.shape for p in mf.zeros(0).chunk(2)] == [(0,), (0,)]
    assert mf.zeros(3, 0).unflatten(0, (1, -1)).shape == (1, 3, 0)
    with pytest.raises(RuntimeError, match="don't multiply up"):
        mf.zeros(3, 2).unflatten(0, (2, -1))


def test_scalars_take_dims_0_and_minus_1():
    s = mf.tensor(2.5)
    for out in (s.transpose(0, -1), mf.movedim(s, 0, -1), s.swapaxes(0, -1), s.index_select(0, mf.tensor([0]))):
        assert out.shape == () and out.item() == 2.5
    values, indices = s.cummax(0)
    assert (values.item(), indices.item()) == (2.5, 0)
    assert mf.kron(s, s).shape == ()


def test_gradient_of_two_samples_and_kron_of_any_dims():
    x = mf.arange(6.0).reshape(2, 3) / 2
    np.testing.assert_array_equal(mf.gradient(x)[0].numpy(), np.full((2, 3), 1.5))
    a = mf.arange(6.0).reshape(2, 1, 3)
    out = mf.kron(a, mf.ones(2, 1, 3))
    assert out.shape == (4, 1, 9)
    np.testing.assert_array_equal(out.numpy(), np.kron(a.numpy(), np.ones((2, 1, 3))))
    np.testing.assert_array_equal(mf.kron(mf.ones(2), mf.eye(2)).numpy(), np.kron(np.ones(2), np.eye(2)))
    with pytest.raises(RuntimeError, match="expected a matrix"):
        mf.ones(2, 1, 3).trace()
