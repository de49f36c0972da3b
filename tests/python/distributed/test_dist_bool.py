"""bool and type promotion on meshes of several ranks ([2], [4], [2, 2]; uneven shapes):
boxing moves bool between every pair of layouts (partial sums and maxima of bools are ors,
minima ands), and comparisons, logical and bitwise ops, where, masked_fill, any/all and sum
of global tensors equal one device (NumPy). Checkpoints of bool: test_dist_checkpoint.py."""
import itertools

import numpy as np
import pytest

import meshflow as mf
from conftest import check_global as check
from conftest import mesh_ranks as mesh
from sbp_reference import B, P, PMAX, PMIN, S, global_from_parts

def bools(shape, seed=0):
    return np.random.default_rng(seed).integers(0, 2, shape).astype(bool)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_boxing_moves_bool_between_every_layout(name, world):
    ranks = mesh(name, world)
    value = bools((5, 7))  # uneven on every mesh
    nd = np.array(ranks).ndim
    layouts = list(itertools.product([S(0), S(1), B, P, PMAX, PMIN], repeat=nd))
    destinations = list(itertools.product([S(0), S(1), B], repeat=nd))
    for src in layouts:
        x = global_from_parts(value, ranks, src, seed=3)
        assert x.dtype == mf.bool
        for dst in destinations:
            check(x.to_global(sbp=dst), value, dst)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_ops_on_bool_and_mixed_global_tensors_equal_one_device(name, world):
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (7, 5)).astype(np.float32)
    c = rng.integers(-3, 4, (7, 5)).astype(np.int32)
    m = bools((7, 5), seed=2)
    for sa, sc in [(S(0), S(0)), (S(1), B), (B, S(0)), (P, B), (PMAX, S(1))]:
        x = global_from_parts(a, ranks, (sa,) * nd)
        y = global_from_parts(c, ranks, (sc,) * nd)
        mask = global_from_parts(m, ranks, (sc if sc != P else B,) * nd)
        check(x > y, a > c)
        check(x == 1, a == 1)
        check(y <= 0, c <= 0)
        check((x > 0) & mask, (a > 0) & m)
        check(mf.logical_or(x, y), np.logical_or(a, c))
        check(~mask ^ (y > 1), ~m ^ (c > 1))
        check(mf.logical_not(y), c == 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            check(mf.isfinite(x / y), np.isfinite(a / c))
        check(mf.where(mask, x, y), np.where(m, a, c).astype(np.float32))
        check(mf.where(mask, y, 2.5), np.where(m, c, 2.5).astype(np.float32))
        check(x.masked_fill(mask, -1), np.where(m, np.float32(-1), a))
        check(x + y, (a + c).astype(np.float32))  # float32 + int32 -> float32, as torch
        for dim in (None, 0, 1):
            check(mf.any(mask, dim), np.any(m, axis=dim))
            check(mask.all(dim, keepdim=True), np.all(m, axis=dim, keepdims=True))
            check(y.any(dim), np.any(c != 0, axis=dim))
            check(mask.sum(dim), np.sum(m, axis=dim).astype(np.int64))
            check(y.prod(dim), np.prod(c, axis=dim).astype(np.int64))
            np.testing.assert_allclose(x.prod(dim).numpy(), np.prod(a, axis=dim), rtol=1e-5)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_partial_bools_pass_through_what_keeps_their_order(name, world):
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    m, n = bools((6, 3), seed=4), bools((6, 3), seed=5)
    x = global_from_parts(m, ranks, (PMAX,) * nd)
    y = global_from_parts(n, ranks, (B,) * nd)
    check(x | y, m | n)
    check(mf.logical_and(x, y), m & n)
    check(~x, ~m)
    check(x.int(), m.astype(np.int32))
    assert (x | y).sbp == (PMAX,) * nd and (~x).sbp == (PMIN,) * nd  # no communication needed
    check(mf.any(x, 1), np.any(m, axis=1))
    check(mf.all(global_from_parts(m, ranks, (PMIN,) * nd), 0), np.all(m, axis=0))


@pytest.mark.parametrize("name", ["2", "2x2"])
def test_dtypes_of_global_tensors_are_torchs(name, world):
    """A global bool triangle stays a bool mask (it came out int64 and indexed as integers),
    and full, linspace and sum(dtype=) give torch's dtypes on a placement as on one device."""
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    value = np.arange(12, dtype=np.int64).reshape(3, 4)
    upper = ~np.tril(np.ones((3, 4), bool))
    for sbp in [(S(0),) * nd, (S(1),) * nd, (B,) * nd]:
        ones = global_from_parts(np.ones((3, 4), bool), ranks, sbp)
        x = global_from_parts(value, ranks, sbp)
        mask = ~ones.tril()
        check(mask, upper)
        check(x[mask], value[upper])
        check(mf.flip(mask, [1]), upper[:, ::-1])
        check(x.sum(0, dtype=mf.int32), value.sum(0).astype(np.int32))
    placement = mf.placement("cpu", ranks=ranks)
    sbp = [B] * nd
    check(mf.full((3,), True, placement=placement, sbp=sbp), np.ones(3, bool))
    check(mf.linspace(0, 10, 4, dtype=mf.int64, placement=placement, sbp=sbp), np.array([0, 3, 6, 10]))
