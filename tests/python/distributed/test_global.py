"""Global tensors on 1, 2 and 4 ranks: local -> global, boxing, global -> full (CONCEPTS.md 2, 3, 5).

Every rank runs every test in the same order (a test that needs more ranks than the world
has is skipped on all of them), since conversions are collective.
"""
import re

import numpy as np
import pytest

import meshflow as mf
from conftest import logical_value
from sbp_reference import (B, P, PMAX, PMIN, S, coordinate_of, global_from_parts, hierarchy_of, local_shape,
                           local_slices, nd_sbps)

MESHES = {"1": [0], "2": [0, 1], "4": [0, 1, 2, 3], "2x2": [[0, 1], [2, 3]]}
SHAPES = [((4, 6), np.float32), ((5, 3), np.int64), ((0, 3), np.float64), ((7,), np.int32)]
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")


def world_size():
    return mf.env.get_world_size()


def need_ranks(ranks):
    """Skip (on every rank alike) a test whose placement needs more ranks than the world has."""
    highest = int(np.max(ranks))
    if highest >= world_size():
        pytest.skip(f"needs {highest + 1} ranks, the world has {world_size()}")


def sbp_str(nd_sbp):
    return "(" + ",".join(repr(s) for s in nd_sbp) + ")"


def check_global(g, value, ranks, nd_sbp, what=""):
    """g is `value` on placement `ranks` with `nd_sbp`, and this rank holds the balanced part."""
    what = what or f"{sbp_str(nd_sbp)} on {ranks}"
    assert g.is_global
    assert g.shape == value.shape, what
    assert g.dtype == getattr(mf, value.dtype.name), what
    assert g.sbp == tuple(nd_sbp), what
    assert g.placement == mf.placement("cpu", ranks=ranks), what
    full = g.numpy()
    assert full.dtype == value.dtype, what
    np.testing.assert_array_equal(full, value, err_msg=what)
    local = g.to_local().numpy()
    coord = coordinate_of(ranks, mf.env.get_rank())
    if coord is None:
        assert local.size == 0, f"{what}: a rank outside the placement holds {local.shape}"
        return
    assert local.shape == local_shape(value.shape, hierarchy_of(ranks), nd_sbp, coord), what
    if not any(s.is_partial for s in nd_sbp):
        np.testing.assert_array_equal(local, value[local_slices(value.shape, hierarchy_of(ranks), nd_sbp, coord)],
                                      err_msg=what)


def collectives_of(convert):
    """(result, {collective: calls}) for the collectives this rank issued inside convert()."""
    before = mf.comm_stats()
    result = convert()
    after = mf.comm_stats()
    return result, {name: after[name] - before[name] for name in COLLECTIVES + ("bytes_sent",)}


def assert_job_usable():
    """A collective after an error: every rank must still be in step."""
    world = world_size()
    rows = logical_value((world * 2, 3))
    mine = rows[2 * mf.env.get_rank():2 * mf.env.get_rank() + 2]
    g = mf.tensor(mine).to_global(placement=mf.placement("cpu", ranks=list(range(world))), sbp=S(0))
    np.testing.assert_array_equal(g.to_global(sbp=B).numpy(), rows)


# ---------------------------------------------------------------------------------------------
# Every pair of N-d SBPs on one placement.

def signed_value(shape, dtype):
    """logical_value with alternating signs: a wrong fill value for P(max) or P(min) shows."""
    value = logical_value(shape, dtype)
    value.reshape(-1)[1::2] *= -1
    return value


def _matrix_cases():
    for mesh, ranks in MESHES.items():
        axes = len(hierarchy_of(ranks))
        for shape, dtype in SHAPES:
            for src in nd_sbps(len(shape), axes):
                yield pytest.param(ranks, shape, dtype, src,
                                   id=f"{mesh}-{shape}-{np.dtype(dtype).name}-{sbp_str(src)}")


@pytest.mark.parametrize("ranks, shape, dtype, src", _matrix_cases())
def test_every_sbp_pair(ranks, shape, dtype, src):
    need_ranks(ranks)
    value = signed_value(shape, dtype)
    g = global_from_parts(value, ranks, src, seed=len(shape))
    check_global(g, value, ranks, src, f"source {sbp_str(src)} on {ranks}")
    for dst in nd_sbps(len(shape), len(src)):
        what = f"{sbp_str(src)} -> {sbp_str(dst)} on {ranks}, shape {shape}, {np.dtype(dtype).name}"
        check_global(g.to_global(sbp=dst), value, ranks, dst, what)
    # Converting must leave the source as it was.
    check_global(g, value, ranks, src, f"source {sbp_str(src)} on {ranks} after its conversions")


# ---------------------------------------------------------------------------------------------
# The fast paths of section 5 issue exactly one collective (or none).

@pytest.mark.parametrize("src, dst, expected", [
    ((S(0),), (B,), {"all_gather": 1}),
    ((B,), (S(1),), {}),
    ((P,), (B,), {"all_reduce": 1}),
    ((P,), (S(0),), {"reduce_scatter": 1}),
    ((S(0),), (S(1),), {"all_to_all": 1}),
    (((S(0), P)), (S(0), B), {"all_reduce": 1}),
], ids=lambda v: sbp_str(v) if isinstance(v, tuple) else None)
def test_collective_counts(src, dst, expected):
    ranks = [[0, 1], [2, 3]] if len(src) == 2 else list(range(world_size()))
    need_ranks(ranks)
    if world_size() == 1:
        pytest.skip("one rank needs no collectives")
    value = logical_value((4, 6))
    g = global_from_parts(value, ranks, src)
    h, calls = collectives_of(lambda: g.to_global(sbp=dst))
    issued = {name: n for name, n in calls.items() if name != "bytes_sent" and n}
    assert issued == expected, f"{sbp_str(src)} -> {sbp_str(dst)} on {ranks}"
    if not expected:
        assert calls["bytes_sent"] == 0
    check_global(h, value, ranks, dst)


# ---------------------------------------------------------------------------------------------
# Between placements: each rank ends up with its part; ranks outside hold empty tensors.

ONE_D = [(S(0),), (S(1),), (B,), (P,), (PMAX,), (PMIN,)]
TWO_D = [(S(0), S(1)), (S(1), S(1)), (B, P), (P, S(0)), (PMIN, B), (PMAX, P)]


@pytest.mark.parametrize("src_ranks, dst_ranks", [
    ([0, 1], [2, 3]),
    ([0, 1, 2, 3], [[0, 1], [2, 3]]),
    ([0], [0, 1, 2, 3]),
    ([0, 1, 2, 3], [1]),
    ([0], [1]),  # ranks 2 and 3 are outside both
    ([0, 1, 2, 3], [3, 2, 1, 0]),
    ([[0, 1], [2, 3]], [[0, 2], [1, 3]]),
    ([1, 2], [0, 1]),
], ids=str)
def test_between_placements(src_ranks, dst_ranks):
    need_ranks(src_ranks)
    need_ranks(dst_ranks)
    value = logical_value((5, 3))
    dst_placement = mf.placement("cpu", ranks=dst_ranks)
    for src in (TWO_D if np.ndim(src_ranks) == 2 else ONE_D):
        g = global_from_parts(value, src_ranks, src)
        for dst in (TWO_D if np.ndim(dst_ranks) == 2 else ONE_D):
            h = g.to_global(placement=dst_placement, sbp=dst)
            check_global(h, value, dst_ranks, dst, f"{sbp_str(src)} on {src_ranks} -> {sbp_str(dst)} on {dst_ranks}")
        check_global(g, value, src_ranks, src)


# ---------------------------------------------------------------------------------------------
# Local -> global with parts of uneven sizes along the split dimension.

@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("extra", [1, 0], ids=["r+1", "r (rank 0 empty)"])
def test_uneven_local_parts(dim, extra):
    world, rank = world_size(), mf.env.get_rank()
    sizes = [r + extra for r in range(world)]
    shape = [3, 3]
    shape[dim] = sum(sizes)
    value = logical_value(tuple(shape))
    start = sum(sizes[:rank])
    mine = value[(slice(None),) * dim + (slice(start, start + sizes[rank]),)]
    ranks = list(range(world))
    g = mf.tensor(mine).to_global(placement=mf.placement("cpu", ranks=ranks), sbp=S(dim))
    check_global(g, value, ranks, (S(dim),))  # balanced now
    check_global(g.to_global(sbp=B), value, ranks, (B,))


def test_uneven_local_parts_2d():
    ranks = [[0, 1], [2, 3]]
    need_ranks(ranks)
    value = logical_value((3, 3))
    i, j = coordinate_of(ranks, mf.env.get_rank())
    # Rank (i, j) gives (i + 1) rows and (j + 1) columns: rows 0 | 1:3, columns 0 | 1:3.
    rows, cols = [slice(0, 1), slice(1, 3)][i], [slice(0, 1), slice(1, 3)][j]
    g = mf.tensor(value[rows, cols]).to_global(placement=mf.placement("cpu", ranks=ranks), sbp=(S(0), S(1)))
    check_global(g, value, ranks, (S(0), S(1)))


# ---------------------------------------------------------------------------------------------
# Bad input on every rank: a ValueError naming the problem, and the job stays usable.

def test_split_dim_out_of_range():
    everyone = mf.placement("cpu", ranks=list(range(world_size())))
    value = logical_value((4, 2))
    with pytest.raises(ValueError, match=r"S\(2\).*2 dims"):
        mf.tensor(value).to_global(placement=everyone, sbp=S(2))
    with pytest.raises(ValueError, match=r"S\(2\).*2 dims"):
        mf.tensor(value, placement=everyone, sbp=S(2))
    g = mf.tensor(value, placement=everyone, sbp=B)
    with pytest.raises(ValueError, match=r"S\(2\).*2 dims"):
        g.to_global(sbp=S(2))
    assert_job_usable()


def test_wrong_sbp_tuple_length():
    everyone = mf.placement("cpu", ranks=list(range(world_size())))
    value = logical_value((4, 2))
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value).to_global(placement=everyone, sbp=(S(0), B))
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value, placement=everyone, sbp=(S(0), B)).numpy()
    g = mf.tensor(value, placement=everyone, sbp=B)
    with pytest.raises(ValueError, match="has 3 entries.*one sbp per axis"):
        g.to_global(sbp=(B, B, B))
    assert_job_usable()


def test_ranks_outside_the_world():
    world = world_size()
    with pytest.raises(ValueError, match="outside the world"):
        mf.placement("cpu", ranks=list(range(world + 1)))
    with pytest.raises(ValueError, match="outside the world"):
        mf.placement("cpu", ranks=[[0], [world]])
    assert_job_usable()


def test_repeated_ranks():
    with pytest.raises(ValueError, match="rank 0 is repeated"):
        mf.placement("cpu", ranks=[0, 0])
    if world_size() >= 4:
        with pytest.raises(ValueError, match="rank 1 is repeated"):
            mf.placement("cpu", ranks=[[0, 1], [1, 2]])
    assert_job_usable()


def _part_of(rank, bad, good):
    return bad if rank == 1 else good


@pytest.mark.parametrize("bad_part, sbp, message", [
    (np.zeros((2, 4), np.float32), S(0), r"cannot form one tensor.*rank 1 .* has shape \[2, 4\]"),
    (np.zeros((3, 3), np.float32), B, r"cannot form one tensor.*rank 1 .* has shape \[3, 3\]"),
    (np.zeros((2,), np.float32), S(0), r"rank 1's part has 1 dims but rank 0's has 2"),
    (np.zeros((2, 3), np.int64), S(0), r"rank 1's part is int64 but rank 0's is float32"),
], ids=["other non-split dim", "other shape under B", "other ndim", "other dtype"])
def test_parts_that_cannot_form_a_tensor(bad_part, sbp, message):
    if world_size() < 2:
        pytest.skip("needs 2 ranks")
    everyone = mf.placement("cpu", ranks=list(range(world_size())))
    mine = _part_of(mf.env.get_rank(), bad_part, np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=message):
        mf.tensor(mine).to_global(placement=everyone, sbp=sbp)
    assert_job_usable()


@pytest.mark.parametrize("ranks, sbp, odd_rank, message", [
    ("all", B, "last", "values differ between rank 0 and rank {odd}"),
    ([[0, 1], [2, 3]], (S(0), B), 3, "values differ between rank 2 and rank 3"),
    ([[0, 1], [2, 3]], (B, P), 2, "values differ between rank 0 and rank 2"),
], ids=["B", "(S(0),B)", "(B,P)"])
def test_consistency_check_names_the_differing_rank(monkeypatch, ranks, sbp, odd_rank, message):
    world = world_size()
    ranks = list(range(world)) if ranks == "all" else ranks
    if world < 2:
        pytest.skip("needs 2 ranks")
    need_ranks(ranks)
    odd = world - 1 if odd_rank == "last" else odd_rank
    placement = mf.placement("cpu", ranks=ranks)
    mine = logical_value((2, 3)) + (1 if mf.env.get_rank() == odd else 0)
    monkeypatch.setenv("MESHFLOW_CHECK_CONSISTENCY", "1")
    with pytest.raises(ValueError, match=message.format(odd=odd)):
        mf.tensor(mine).to_global(placement=placement, sbp=sbp)
    # Parts that may differ (split and partial axes) pass the check.
    free = tuple(S(0) if s == B else s for s in (sbp if isinstance(sbp, tuple) else (sbp,)))
    mf.tensor(mine).to_global(placement=placement, sbp=free).numpy()
    monkeypatch.delenv("MESHFLOW_CHECK_CONSISTENCY")
    # Without the check, nothing compares the replicas.
    mf.tensor(mine).to_global(placement=placement, sbp=sbp)
    assert_job_usable()


def test_repr_is_a_collective_read_of_the_value():
    value = logical_value((2 * world_size() + 1, 2), np.float32)
    g = mf.tensor(value, placement=mf.placement("cpu", ranks=list(range(world_size()))), sbp=S(0))
    local = repr(mf.tensor(value))  # the values as a local tensor prints them
    expected = local[:-1] + f", placement={g.placement!r}, sbp=(S(0),), dtype=meshflow.float32)"
    assert " ".join(repr(g).split()) == " ".join(expected.split())  # suffixes may wrap at the line width


@pytest.mark.parametrize("read", ["item", "numpy", "tolist", "repr", "bool"])
def test_a_read_on_some_ranks_only_names_the_collective_read(read):
    # `if rank == 0: print(loss.item())` while the other ranks go on to their next collective:
    # rank 0's error names the read it made, not the conversion inside it.
    if world_size() < 2:
        pytest.skip("needs 2 ranks")
    everyone = mf.placement("cpu", ranks=list(range(world_size())))
    # A split value: a small partial one (a sum) has a twin, which rank 0 reads alone.
    loss, other = mf.ones(1, placement=everyone, sbp=S(0)) * world_size(), mf.ones(3, placement=everyone, sbp=S(0))
    calls = {"item": loss.item, "numpy": loss.numpy, "tolist": loss.tolist, "repr": lambda: repr(loss),
             "bool": lambda: bool(loss)}
    with pytest.raises(ValueError) as raised:
        calls[read]() if mf.env.get_rank() == 0 else other.to_global(sbp=B)
    name = "repr()" if read == "repr" else f"{read}()"
    # The calls' names differ: each rank is told every rank's call and the rule.
    calls_made = (rf"the ranks are in different calls \(rank 0 in {re.escape(name)} on a global tensor .*; rank 1 in "
                  r"to_global.*\)\. Every rank must make the same calls on global tensors")
    expected = (rf"^{re.escape(name)} on a global tensor \(a collective read: every rank must make it, in the same "
                rf"order\): {calls_made}" if mf.env.get_rank() == 0 else rf"^to_global: {calls_made}")
    assert re.search(expected, str(raised.value)), str(raised.value)
    assert loss.item() == world_size()  # every rank reading: the value


def test_a_read_never_pairs_with_a_conversion_of_the_same_layout():
    # Rank 0 reads while the others convert a tensor of the same shape and layout to the
    # layout the read gathers to: the collectives would pair and rank 0 would print the
    # others' value; the agreement tells a read from a conversion.
    if world_size() < 2:
        pytest.skip("needs 2 ranks")
    everyone = mf.placement("cpu", ranks=list(range(world_size())))
    # A split value (a small partial one has a twin that rank 0 reads alone).
    x = mf.ones(world_size(), placement=everyone, sbp=S(0))
    with pytest.raises(ValueError, match="the ranks are in different calls"):
        x.tolist() if mf.env.get_rank() == 0 else (x * 2).to_global(sbp=B)
    assert x.tolist() == [1.0] * world_size()
