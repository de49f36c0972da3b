"""bfloat16 on meshes of several ranks: boxing moves it between every pair of SBPs (its
partial sums reduced in float32 and rounded once), and its matmul under every signature
equals one device."""
import itertools
import os
import sys

import numpy as np
import pytest

import meshflow as mf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from bfloat16_reference import rounded  # noqa: E402
from conftest import mesh  # noqa: E402

S, B, P = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum
BF16 = mf.bfloat16
def layouts(ndim):
    return list(itertools.product([S(0), S(1), B, P], repeat=ndim))


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_boxing_moves_bfloat16_between_every_layout(name, world):
    p = mesh(name, world)
    value = rounded(np.random.default_rng(1).standard_normal((5, 7)))  # uneven on every mesh
    for src, dst in itertools.product(layouts(len(p.hierarchy)), repeat=2):
        x = mf.tensor(value, dtype=BF16, placement=p, sbp=src)
        y = x.to_global(sbp=dst)
        assert y.dtype == BF16 and y.sbp == dst
        np.testing.assert_array_equal(y.numpy(), value, err_msg=f"{src} -> {dst}")


@pytest.mark.parametrize("name", ["2", "4"])
def test_partial_bfloat16_sums_in_float32_and_rounds_once(name, world, rank):
    p = mesh(name, world)
    n = len(p.ranks)
    parts = [rounded(np.full(6, 1.0 + k * 2.0 ** -7)) for k in range(n)]  # each part exact in bfloat16
    mine = parts[rank] if rank < n else np.zeros(6, np.float32)
    x = mf.tensor(mine, dtype=BF16).to_global(placement=p, sbp=P)
    expected = rounded(np.sum(parts, axis=0, dtype=np.float32))
    np.testing.assert_array_equal(x.to_global(sbp=B).numpy(), expected)
    np.testing.assert_array_equal(x.to_global(sbp=S(0)).numpy(), expected)


@pytest.mark.parametrize("name", ["2", "2x2"])
def test_matmul_signatures_equal_one_device(name, world):
    p = mesh(name, world)
    rng = np.random.default_rng(2)
    a, b = rounded(rng.standard_normal((6, 8))), rounded(rng.standard_normal((8, 5)))
    one = mf.matmul(mf.tensor(a, dtype=BF16), mf.tensor(b, dtype=BF16)).numpy()
    for sa, sb in [((S(0),), (B,)), ((B,), (S(1),)), ((S(1),), (S(0),)), ((B,), (B,))]:
        nd = len(p.hierarchy)
        ga = mf.tensor(a, dtype=BF16, placement=p, sbp=sa * nd)
        gb = mf.tensor(b, dtype=BF16, placement=p, sbp=sb * nd)
        got = mf.matmul(ga, gb)
        if sa[0] == S(1):  # a split k: partial products, each rounded, summed in float32 and rounded
            np.testing.assert_allclose(got.numpy(), one, rtol=2 ** -6, atol=2 ** -6)
        else:
            np.testing.assert_array_equal(got.numpy(), one)


@pytest.mark.parametrize("dtype", [mf.bfloat16, mf.float16], ids=str)
@pytest.mark.parametrize("name", ["2", "2x2"])
def test_half_layers_split_equal_one_device(name, dtype, world):
    """A half model's layers (linear, GELU, layer norm, softmax: every op computing in float32
    and rounding once) on data- and column-parallel layouts equal one device bitwise; a
    row-parallel layer's partial products are each rounded once more before their float32 sum."""
    import meshflow.nn.functional as F
    p = mesh(name, world)
    nd = len(p.hierarchy)
    rng = np.random.default_rng(3)
    x, w1, b1, w2 = (rng.standard_normal(s).astype(np.float32) for s in ((6, 8), (12, 8), (12,), (5, 12)))

    def forward(x, w1, b1, w2):
        return F.softmax(F.linear(F.layer_norm(F.gelu(F.linear(x, w1, b1)), (12,)), w2), dim=-1)

    def placed(v, sbp):
        return mf.tensor(v, placement=p, sbp=(sbp,) * nd).to(dtype)

    one = forward(*(mf.tensor(v).to(dtype) for v in (x, w1, b1, w2)))
    data = forward(placed(x, S(0)), placed(w1, B), placed(b1, B), placed(w2, B))
    assert data.dtype == dtype
    np.testing.assert_array_equal(data.numpy(), one.numpy())
    h_one = F.gelu(F.linear(*(mf.tensor(v).to(dtype) for v in (x, w1, b1))))
    column = F.gelu(F.linear(placed(x, B), placed(w1, S(0)), placed(b1, S(0))))
    assert column.sbp == (S(1),) * nd
    np.testing.assert_array_equal(column.numpy(), h_one.numpy())
    row = F.linear(column, placed(w2, S(1)))
    tol = 2.0 ** -6 if dtype == mf.bfloat16 else 2.0 ** -9
    np.testing.assert_allclose(row.numpy().astype(np.float32), F.linear(h_one, mf.tensor(w2).to(dtype)).numpy()
                               .astype(np.float32), rtol=tol, atol=tol)
