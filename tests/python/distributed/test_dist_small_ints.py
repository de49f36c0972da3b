"""uint8, int8 and int16 global tensors on meshes of several ranks ([2], [4], [2, 2]; uneven
shapes): boxing moves their 1- and 2-byte elements between every pair of layouts, partial
sums wrap around as the logical sum does, and arithmetic, comparisons, where, indexing and
sums of global tensors equal one device (NumPy)."""
import itertools

import numpy as np
import pytest

import meshflow as mf
from conftest import check_global as check
from conftest import mesh_ranks as mesh
from sbp_reference import B, P, PMAX, PMIN, S, global_from_parts

DTYPES = [np.uint8, np.int8, np.int16]


def values(shape, dtype, seed=0):
    # Away from the ends of the range: the reference's partial max and min parts (the value
    # moved by up to 4) must not wrap; partial sums do wrap (their noise is -3..3).
    info = np.iinfo(dtype)
    return np.random.default_rng(seed).integers(int(info.min) + 8, int(info.max) - 8, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_boxing_moves_small_ints_between_every_layout(name, dtype, world):
    ranks = mesh(name, world)
    value = values((5, 7), dtype)  # uneven on every mesh
    nd = np.array(ranks).ndim
    layouts = list(itertools.product([S(0), S(1), B, P, PMAX, PMIN], repeat=nd))
    destinations = list(itertools.product([S(0), S(1), B], repeat=nd))
    for src in layouts:
        if dtype == np.uint8 and P in src and src.index(P) < max(src.index(s) if s in src else -1 for s in (PMAX, PMIN)):
            continue  # the reference's sum parts near 0 would wrap when the inner axis moves them down
        x = global_from_parts(value, ranks, src, seed=3)
        assert x.dtype.name == np.dtype(dtype).name
        for dst in destinations:
            check(x.to_global(sbp=dst), value, dst)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_partial_sums_wrap_around(name, world, rank):
    ranks = mesh(name, world)
    n = np.array(ranks).size
    placement = mf.placement("cpu", ranks=ranks)
    nd = np.array(ranks).ndim
    # Every rank holds 200 (uint8) and 30000 (int16): the sums wrap modulo 2^bits.
    for local, dtype in ((200, np.uint8), (30000, np.int16)):
        part = mf.tensor(np.full((3,), local, dtype))
        x = part.to_global(placement=placement, sbp=(P,) * nd)
        expected = np.full((3,), local * n, np.int64).astype(dtype)
        check(x.to_global(sbp=(B,) * nd), expected)
        check(x.sum(), np.int64(expected.sum(dtype=np.int64)))  # sum of the wrapped value, in int64


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_ops_on_global_small_ints_equal_one_device(name, world):
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    a = np.random.default_rng(1).integers(0, 256, (7, 5)).astype(np.uint8)
    b = np.random.default_rng(2).integers(-128, 128, (7, 5)).astype(np.int8)
    for sa, sb in [(S(0), S(0)), (S(1), B), (B, S(0)), (P, B), (PMAX, S(1))]:
        x = global_from_parts(a, ranks, (sa,) * nd)
        y = global_from_parts(b, ranks, (sb,) * nd)
        check(x + x, a + a)  # wraps
        check(x * 3, a * np.uint8(3))
        check(x - 1, a - np.uint8(1))
        check(x + y, a.astype(np.int16) + b.astype(np.int16))  # uint8 + int8 -> int16, as torch
        check(x > y, a.astype(np.int16) > b)
        check(mf.where(x > 100, x, mf.zeros_like(x)), np.where(a > 100, a, 0).astype(np.uint8))
        check(x.masked_fill(y < 0, 7), np.where(b < 0, 7, a).astype(np.uint8))
        check(x.float(), a.astype(np.float32))
        check((y.float() * 2.5).to(mf.int8), (b.astype(np.float32) * 2.5).astype(np.int64).astype(np.int8))
        for dim in (None, 0, 1):
            check(x.sum(dim), np.sum(a.astype(np.int64), axis=dim))
            check(y.amax(dim), np.max(b, axis=dim))
        check(x[mf.tensor([6, 0, 2])], a[[6, 0, 2]])
        check(x.reshape(5, 7).t(), a.reshape(5, 7).T)
