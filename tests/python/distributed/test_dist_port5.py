"""Issue 37's fifth programs round on global tensors, equal to one device: a global leaf's
.grad is its own tensor, accumulated in place; the special functions of that round (erfcx,
bessel_j0, bessel_j1, zeta, gammainc, gammaincc) with their inputs split."""
import numpy as np
import pytest

import meshflow as mf

from global_check import MESHES, _placement, _same_as_local, _sbp  # noqa: F401


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_global_grads_are_their_own_and_accumulate_in_place(name, ranks, world):
    p = _placement(ranks, world)
    w = np.array([1.0, 2.0, 3.0, 4.0])
    a = mf.tensor(np.zeros(4), placement=p, sbp=_sbp(p, 0), requires_grad=True)
    b = mf.tensor(np.zeros(4), placement=p, sbp=_sbp(p, None), requires_grad=True)
    weights = mf.tensor(w, placement=p, sbp=_sbp(p, None))
    ((a + b) * weights).sum().backward()
    g = a.grad
    a.grad.mul_(2)
    assert np.allclose(a.grad.numpy(), 2 * w) and np.allclose(b.grad.numpy(), w)
    ((a + b) * weights).sum().backward()
    assert np.allclose(g.numpy(), 3 * w) and np.allclose(b.grad.numpy(), 2 * w)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_special_functions_of_the_fifth_round_split_equal_one_device(name, ranks, world):
    p = _placement(ranks, world)
    x = np.linspace(0.3, 6.0, 12).reshape(4, 3)
    for f in (mf.special.erfcx, mf.special.bessel_j0, mf.special.bessel_j1):
        _same_as_local(lambda t: f(t), [x], p, [0])
    orders = np.linspace(1.5, 4.0, 12).reshape(4, 3)
    # the first argument has no gradient: it goes in as a constant
    for f in (mf.special.zeta, mf.special.gammainc, mf.special.gammaincc):
        want = f(mf.tensor(orders), mf.tensor(x)).numpy()
        got = f(mf.tensor(orders, placement=p, sbp=_sbp(p, 1)), mf.tensor(x, placement=p, sbp=_sbp(p, 1)))
        assert np.allclose(got.numpy(), want, rtol=1e-12)
