"""meshflow.linalg's solvers and decompositions on global tensors of 2 ranks: a batch split
S(0) (each rank its own matrices) or broadcast gives the one-device result, and gradients
equal the local ones with the inputs' layouts; a split matrix dim is gathered by boxing."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
from sbp_reference import B, S, global_from_parts

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gradcheck.py
from gradcheck import check_gradients, check_global_gradients  # noqa: E402

RNG = np.random.default_rng(37)
RANKS = [0, 1]
VALUE = RNG.standard_normal((3, 4, 4)) + 4 * np.eye(4)  # 3 matrices: an uneven batch split

OPS = [
    ("solve", lambda a: mf.linalg.solve(a, a[..., :2] * 2 + 1)),
    ("inv", lambda a: mf.linalg.inv(a)),
    ("det", lambda a: mf.linalg.det(a)),
    ("cholesky", lambda a: mf.linalg.cholesky(a @ a.transpose(-2, -1))),
    ("eigvalsh", lambda a: mf.linalg.eigvalsh(a + a.transpose(-2, -1))),
    ("svdvals", lambda a: mf.linalg.svdvals(a)),
    ("qr R abs", lambda a: abs(mf.linalg.qr(a).R)),
    ("lstsq", lambda a: mf.linalg.lstsq(a, a[..., :1]).solution),
]

pytestmark = pytest.mark.skipif(mf.env.get_world_size() < 2, reason="needs 2 ranks")


@pytest.mark.parametrize("name, f", OPS, ids=[o[0] for o in OPS])
@pytest.mark.parametrize("sbp", [(S(0),), (B,), (S(1),)], ids=str)
def test_equals_one_device(name, f, sbp):
    with mf.no_grad():
        expected = f(mf.tensor(VALUE)).numpy()
        got = f(global_from_parts(VALUE, RANKS, sbp))
    assert got.is_global
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name, f", OPS[:6], ids=[o[0] for o in OPS[:6]])
def test_gradients_equal_local(name, f):
    expected = check_gradients(f, [VALUE])
    for sbp in [(S(0),), (B,)]:
        check_global_gradients(f, [global_from_parts(VALUE, RANKS, sbp)], expected)


def test_singular_matrix_raises_on_every_rank():
    value = VALUE.copy()
    value[2] = 0  # on rank 1's part of the batch split
    with pytest.raises(ValueError, match=r"\[linalg_inv\] batch element .*singular"):
        mf.linalg.inv(global_from_parts(value, RANKS, (S(0),))).numpy()
