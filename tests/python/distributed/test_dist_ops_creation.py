"""Creation ops making global tensors (every rank calls them): for every valid SBP on every
mesh the world allows, the logical value equals NumPy's (zeros, ones, full, arange) or the
local call (arange, linspace, logspace; rand and randn after the same manual_seed), and each
rank holds its balanced part."""
import itertools

import numpy as np
import pytest

import meshflow as mf
from sbp_reference import B, P, S, coordinate_of, hierarchy_of, local_shape, local_slices

MESHES = {"1": [0], "2": [0, 1], "4": [0, 1, 2, 3], "2x2": [[0, 1], [2, 3]]}
SHAPES = [(5, 3), (4, 6), (0, 3), (7,)]


def mesh(name):
    ranks = MESHES[name]
    if int(np.max(ranks)) >= mf.env.get_world_size():
        pytest.skip(f"needs {int(np.max(ranks)) + 1} ranks")
    return ranks


def layouts(ranks, ndim, partial=False):
    """Every N-d SBP of a creation op's output: S(d) for each dim and B (and P for zeros)."""
    one_axis = [S(d) for d in range(ndim)] + [B] + ([P] if partial else [])
    return list(itertools.product(one_axis, repeat=len(hierarchy_of(ranks))))


def check(g, expected, ranks, nd_sbp):
    """g is `expected` with `nd_sbp` on `ranks`; numpy() is collective, so it comes first."""
    full = g.numpy()
    what = f"{nd_sbp} on {ranks}"
    assert g.sbp == tuple(nd_sbp), what
    assert full.dtype == expected.dtype, what
    np.testing.assert_array_equal(full, expected, err_msg=what)
    coord = coordinate_of(ranks, mf.env.get_rank())
    local = g.to_local().numpy()
    if coord is None:
        assert local.size == 0, what
        return
    assert local.shape == local_shape(expected.shape, hierarchy_of(ranks), nd_sbp, coord), what
    if P not in nd_sbp:
        np.testing.assert_array_equal(local, expected[local_slices(expected.shape, hierarchy_of(ranks), nd_sbp, coord)],
                                      err_msg=what)


@pytest.mark.parametrize("name", MESHES)
def test_constants_every_sbp(name):
    ranks = mesh(name)
    p = mf.placement("cpu", ranks=ranks)
    for shape in SHAPES:
        for sbp in layouts(ranks, len(shape), partial=True):
            check(mf.zeros(shape, placement=p, sbp=sbp), np.zeros(shape, np.float32), ranks, sbp)
        for sbp in layouts(ranks, len(shape)):
            check(mf.ones(*shape, dtype=mf.int32, placement=p, sbp=sbp), np.ones(shape, np.int32), ranks, sbp)
            check(mf.full(shape, -2.5, dtype=mf.float64, placement=p, sbp=sbp), np.full(shape, -2.5), ranks, sbp)


@pytest.mark.parametrize("name", MESHES)
def test_arange_every_sbp(name):
    ranks = mesh(name)
    p = mf.placement("cpu", ranks=ranks)
    for args, expected in [((7,), np.arange(7)), ((2, 11, 3), np.arange(2, 11, 3)), ((1,), np.arange(1)),
                           ((1.0, -2.0, -0.5), np.arange(1.0, -2.0, -0.5, dtype=np.float32))]:
        for sbp in layouts(ranks, 1):
            check(mf.arange(*args, placement=p, sbp=sbp), expected, ranks, sbp)


@pytest.mark.parametrize("name", MESHES)
def test_spaced_values_global_equal_local(name):
    """arange, linspace and logspace count from positions in the whole tensor (vector pairs,
    halves: ops/range_math.h): each part holds the local call's values, uneven parts too."""
    ranks = mesh(name)
    p = mf.placement("cpu", ranks=ranks)
    calls = [(mf.arange, (0, 1000.0, 0.37), mf.float32), (mf.arange, (3, 500, 1.1), mf.float64),
             (mf.linspace, (-3.3, 7.1, 37), mf.int64), (mf.linspace, (2, -5, 101), mf.float32),
             (mf.logspace, (-2.5, 1.1, 99, 3.7), mf.float64), (mf.logspace, (-3.5, 3.3, 45), mf.float32)]
    for op, args, dtype in calls:
        expected = op(*args, dtype=dtype).numpy()
        for sbp in layouts(ranks, 1):
            check(op(*args, dtype=dtype, placement=p, sbp=sbp), expected, ranks, sbp)


@pytest.mark.parametrize("name", MESHES)
@pytest.mark.parametrize("op", [mf.rand, mf.randn])
def test_random_global_equals_local(name, op):
    ranks = mesh(name)
    p = mf.placement("cpu", ranks=ranks)
    for shape in [(5, 3), (4, 6), (0, 2)]:
        for sbp in layouts(ranks, len(shape)):
            mf.manual_seed(77)
            first, second = op(*shape).numpy(), op(*shape).numpy()
            mf.manual_seed(77)
            check(op(*shape, placement=p, sbp=sbp), first, ranks, sbp)
            check(op(*shape, placement=p, sbp=sbp), second, ranks, sbp)
