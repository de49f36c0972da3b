"""Elementwise ops on global tensors: the logical result equals NumPy's, and partial values
pass through exactly the ops that allow it, with no communication (CONCEPTS.md 3, 4).
Every rank runs every test."""
import math

import numpy as np
import pytest

import meshflow as mf
from conftest import collectives, logical_value
from sbp_reference import B, P, PMAX, PMIN, S, global_from_parts


def line():
    return list(range(mf.env.get_world_size()))


def check(result, expected, sbp=None):
    assert result.is_global
    if sbp is not None:
        assert result.sbp == tuple(sbp)
    assert result.dtype == mf.dtype(np.asarray(expected).dtype.name)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)


# One uneven dim, so some ranks hold smaller (or empty) parts.
def value(dtype=np.float32):
    return logical_value((2 * mf.env.get_world_size() + 1, 3), dtype)


@pytest.mark.parametrize("name, op, reference, src, out", [
    ("neg keeps sum", lambda x: -x, np.negative, P, P),
    ("neg turns max into min", lambda x: x.neg(), np.negative, PMAX, PMIN),
    ("relu keeps max", lambda x: x.relu(), lambda a: np.maximum(a, 0), PMAX, PMAX),
    ("exp keeps split", lambda x: x.exp(), np.exp, S(0), S(0)),
    ("scaling keeps sum", lambda x: x * 3 / 2, lambda a: a * 3 / 2, P, P),
    ("negative scaling turns min into max", lambda x: x * -2, lambda a: a * -2, PMIN, PMAX),
    ("shift keeps max", lambda x: x + 1.5, lambda a: a + 1.5, PMAX, PMAX),
    ("comparison keeps min", lambda x: x >= 2, lambda a: a >= 2, PMIN, PMIN),
    ("widening cast keeps sum", lambda x: x.double(), lambda a: a.astype(np.float64), P, P),
    ("maximum with itself keeps max", lambda x: mf.maximum(x, x), lambda a: a, PMAX, PMAX),
    ("where on a split", lambda x: mf.where(x > 0, x, 0.5), lambda a: np.where(a > 0, a, 0.5), S(1), S(1)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_layout_carried_without_communication(name, op, reference, src, out):
    # Above with_read_twin's bound: a small partial result would get a twin (an all-reduce).
    data = logical_value((2 * mf.env.get_world_size() + 1, 6), np.float32)
    x = global_from_parts(data, line(), (src,))
    result, issued = collectives(lambda: op(x))
    assert issued == 0, name
    check(result, reference(data), (out,))


@pytest.mark.parametrize("src", [P, PMAX, S(0), B], ids=repr)
def test_every_op_matches_numpy_from_any_layout(src):
    data, other = value(), value()[::-1].copy()
    x, y = global_from_parts(data, line(), (src,)), global_from_parts(other, line(), (B,))
    positive = np.abs(data) + 1
    with np.errstate(over="ignore"):
        cases = [
            (x.abs(), np.abs(data)), (x.sigmoid(), 1 / (1 + np.exp(-data))), (x.tanh(), np.tanh(data)),
            (mf.nn.functional.gelu(x), data * 0.5 * (1 + np.vectorize(math.erf)(data / math.sqrt(2)))),
            (mf.maximum(x, y), np.maximum(data, other)),
            (mf.minimum(y, x), np.minimum(other, data)), (x != y, data != other),
            (x < y, data < other), (x ** 2, data ** 2), (2 ** x, 2.0 ** data),
            (x.int(), data.astype(np.int32)), (mf.where(y != 0, x, y), np.where(other != 0, data, other)),
            ((abs(x) + 1).sqrt(), np.sqrt(positive)), ((abs(x) + 1).log(), np.log(positive)),
            ((abs(x) + 1).rsqrt(), 1 / np.sqrt(positive)),
        ]
    for result, expected in cases:
        check(result, expected.astype(result.dtype.numpy))


def test_broadcasting_across_layouts():
    world = mf.env.get_world_size()
    a, b = logical_value((world + 2, 1, 3)), logical_value((4, 1))
    x, y = global_from_parts(a, line(), (S(0),)), global_from_parts(b, line(), (S(0),))
    check(x * y, a * b)
    check(mf.where(x > 0, y, x), np.where(a > 0, b, a))
    check(x / y.abs().add(1), a / (np.abs(b) + 1))


def test_integer_tensor_meets_python_float():
    data = value(np.int64)
    x = global_from_parts(data, line(), (S(0),))
    check(x + 0.5, data.astype(np.float32) + 0.5, (S(0),))
    check(x // 3, data // 3, (S(0),))
    check(x / 4, data.astype(np.float32) / 4, (S(0),))


def test_integer_division_by_zero_raises_on_every_rank():
    x = global_from_parts(value(np.int64), line(), (S(0),))
    with pytest.raises(ValueError, match=r"\[floor_divide\] integer division by zero"):
        (x // 0).numpy()
    check(x // 1, value(np.int64))  # the job goes on
