"""float16 on meshes of several ranks: boxing moves it between every pair of layouts, its
partial sums reduced in float32 and rounded once (as bfloat16's)."""
import itertools

import numpy as np
import pytest

import meshflow as mf
from conftest import mesh

S, B, P = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum
@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_boxing_moves_float16_between_every_layout(name, world):
    p = mesh(name, world)
    value = np.random.default_rng(1).standard_normal((5, 7)).astype(np.float16)  # uneven on every mesh
    layouts = list(itertools.product([S(0), S(1), B, P], repeat=len(p.hierarchy)))
    for src, dst in itertools.product(layouts, repeat=2):
        y = mf.tensor(value, placement=p, sbp=src).to_global(sbp=dst)
        assert y.dtype == mf.float16 and y.sbp == dst
        np.testing.assert_array_equal(y.numpy(), value, err_msg=f"{src} -> {dst}")


@pytest.mark.parametrize("name", ["2", "4"])
def test_partial_float16_sums_in_float32_and_rounds_once(name, world, rank):
    p = mesh(name, world)
    n = len(p.ranks)
    parts = [np.full(6, 1.0 + k * 2.0 ** -10, np.float16) for k in range(n)]
    mine = parts[rank] if rank < n else np.zeros(6, np.float16)
    x = mf.tensor(mine).to_global(placement=p, sbp=P)
    expected = np.sum(np.array(parts, np.float32), axis=0).astype(np.float16)
    np.testing.assert_array_equal(x.to_global(sbp=B).numpy(), expected)
    np.testing.assert_array_equal(x.to_global(sbp=S(0)).numpy(), expected)
