"""The math ops (python/meshflow/_ops_math.py) on global tensors, on meshes [2], [4] and
[2, 2] with uneven splits and partial inputs: the logical result equals the one-device
(local) result, a split off the scanned or sorted dim stays a split without communication,
and gradients equal the local ones with the inputs' layouts. Every rank runs every test;
those needing more ranks than the world has skip on all of them."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
from conftest import collectives
from sbp_reference import B, P, S, global_from_parts

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gradcheck.py
from gradcheck import check_gradients, check_global_gradients  # noqa: E402

RNG = np.random.default_rng(3)


def meshes():
    world = mf.env.get_world_size()
    out = [[0, 1]] if world >= 2 else []
    if world >= 4:
        out += [[0, 1, 2, 3], [[0, 1], [2, 3]]]
    return out


def layouts(ranks):
    """1-d or 2-d SBPs of a [rows, cols] tensor, uneven rows."""
    if isinstance(ranks[0], list):
        return [(S(0), S(1)), (S(1), B), (B, S(0)), (P, S(0))]
    return [(S(0),), (S(1),), (B,), (P,)]


def local(f, value):
    with mf.no_grad():
        return f(mf.tensor(value))


def same(got, expected):
    assert got.is_global
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12, atol=1e-12)


VALUE = np.round(RNG.uniform(-0.9, 0.9, (7, 5)), 3)  # ties in rounding and sorting too

OPS = [
    ("sin", lambda x: mf.sin(x)),
    ("erfinv", lambda x: mf.erfinv(x)),
    ("atan max partial", lambda x: mf.atan(x)),
    ("round", lambda x: mf.round(x, decimals=1)),
    ("sign", lambda x: x.sign()),
    ("atan2 broadcast", lambda x: mf.atan2(x, x[0])),
    ("hypot", lambda x: mf.hypot(x, x * 0.5)),
    ("fmod", lambda x: mf.fmod(x, 0.3)),
    ("copysign", lambda x: mf.copysign(x, -x)),
    ("cumsum 0", lambda x: mf.cumsum(x, 0)),
    ("cumsum 1", lambda x: mf.cumsum(x, 1)),
    ("cumprod 1", lambda x: mf.cumprod(x, 1)),
    ("logcumsumexp 0", lambda x: mf.logcumsumexp(x, 0)),
    ("prod", lambda x: mf.prod(x)),
    ("prod 0", lambda x: mf.prod(x, 0)),
    ("sort 1", lambda x: mf.sort(x, 1).values),
    ("sort 0 indices", lambda x: mf.sort(x, 0, descending=True).indices),
    ("topk", lambda x: mf.topk(x, 2).values),
    ("kthvalue", lambda x: mf.kthvalue(x, 3, 0).indices),
    ("median", lambda x: mf.median(x, 1).values),
    ("median all", lambda x: mf.median(x)),
    ("flip", lambda x: mf.flip(x, [0, 1])),
    ("flip 1", lambda x: x.flip(1)),
    ("roll", lambda x: mf.roll(x, (2, -1), (0, 1))),
    ("roll flat", lambda x: mf.roll(x, 3)),
]


@pytest.mark.parametrize("ranks", meshes(), ids=str)
@pytest.mark.parametrize("name, f", OPS, ids=[o[0] for o in OPS])
def test_equals_one_device(name, f, ranks):
    expected = local(f, VALUE)
    for sbp in layouts(ranks):
        with mf.no_grad():
            same(f(global_from_parts(VALUE, ranks, sbp)), expected)


@pytest.mark.parametrize("name, f, dim", [
    ("cumsum", lambda x: mf.cumsum(x, 1), 0),
    ("cumprod", lambda x: mf.cumprod(x, 0), 1),
    ("sort", lambda x: mf.sort(x, 1).values, 0),
    ("argsort", lambda x: mf.argsort(x, 0), 1),
    ("flip", lambda x: mf.flip(x, 1), 0),
    ("erf", lambda x: mf.erf(x), 1),
])
def test_split_off_the_dim_needs_no_communication(name, f, dim):
    if mf.env.get_world_size() < 2:
        pytest.skip("needs 2 ranks")
    x = global_from_parts(VALUE, [0, 1], (S(dim),))
    with mf.no_grad():
        out, issued = collectives(lambda: f(x))
    assert issued == 0, name
    assert out.sbp == (S(dim),)
    same(out, local(f, VALUE))


def test_partials_pass_where_exact():
    if mf.env.get_world_size() < 2:
        pytest.skip("needs 2 ranks")
    x = global_from_parts(VALUE, [0, 1], (P,))
    with mf.no_grad():
        out, issued = collectives(lambda: mf.cumsum(x, 1))
        assert issued == 0 and out.sbp == (P,)
        same(out, local(lambda t: mf.cumsum(t, 1), VALUE))
        flipped, issued = collectives(lambda: mf.flip(x, 0))
        assert issued == 0 and flipped.sbp == (P,)
        same(flipped, local(lambda t: mf.flip(t, 0), VALUE))


GRADS = [
    ("sin", lambda x: mf.sin(x)),
    ("atan2", lambda x: mf.atan2(x, x[1] + 2)),
    ("cumsum", lambda x: mf.cumsum(x, 1)),
    ("cumprod", lambda x: mf.cumprod(x, 0)),
    ("logcumsumexp", lambda x: mf.logcumsumexp(x, 1)),
    ("prod", lambda x: mf.prod(x, 1)),
    ("sort", lambda x: mf.sort(x, 0).values),
    ("topk", lambda x: mf.topk(x, 2, dim=1).values),
    ("median", lambda x: mf.median(x, 0).values),
    ("flip", lambda x: mf.flip(x, [0, 1])),
    ("roll", lambda x: mf.roll(x, 1, 1)),
]


@pytest.mark.parametrize("ranks", meshes(), ids=str)
@pytest.mark.parametrize("name, f", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_equal_local(name, f, ranks):
    value = VALUE + np.arange(VALUE.size).reshape(VALUE.shape) * 1e-3  # no ties: sorting is differentiable
    expected = check_gradients(f, [value])
    for sbp in layouts(ranks)[:3]:
        check_global_gradients(f, [global_from_parts(value, ranks, sbp)], expected)
