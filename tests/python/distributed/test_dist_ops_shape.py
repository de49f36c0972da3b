"""Shape ops on global tensors: the logical result equals NumPy's, and a split the op carries
through stays a split, with no communication (CONCEPTS.md 3, 4). Every rank runs every test."""
import numpy as np
import pytest

import meshflow as mf
from conftest import collectives, logical_value
from sbp_reference import B, P, S, global_from_parts


def line():
    return list(range(mf.env.get_world_size()))


def grid():
    if mf.env.get_world_size() < 4:
        pytest.skip("needs 4 ranks")
    return [[0, 1], [2, 3]]


def check(result, expected, sbp=None):
    assert result.is_global
    if sbp is not None:
        assert result.sbp == tuple(sbp)
    np.testing.assert_array_equal(result.numpy(), expected)


# The uneven first dim gives some ranks smaller (or empty) parts.
@pytest.mark.parametrize("name, op, reference, src, out", [
    ("transpose", lambda x: x.transpose(0, 2), lambda a: a.swapaxes(0, 2), S(0), S(2)),
    ("permute", lambda x: x.permute(1, 2, 0), lambda a: a.transpose(1, 2, 0), S(1), S(0)),
    ("reshape keeps dim 0", lambda x: x.reshape(-1, 12), lambda a: a.reshape(-1, 12), S(0), S(0)),
    ("view splits dim 2", lambda x: x.view(x.shape[0], 3, 2, 2), lambda a: a.reshape(a.shape[0], 3, 2, 2), S(1), S(1)),
    ("slice of other dims", lambda x: x[:, 1:, ::3], lambda a: a[:, 1:, ::3], S(0), S(0)),
    ("int index", lambda x: x[..., -1], lambda a: a[..., -1], S(1), S(1)),
    ("new dims", lambda x: x[:, None, ..., None], lambda a: a[:, None, ..., None], S(0), S(0)),
    ("new dim first", lambda x: x[None, :, 1], lambda a: a[None, :, 1], S(2), S(2)),
    ("narrow", lambda x: x.narrow(2, 1, 2), lambda a: a[:, :, 1:3], S(0), S(0)),
    ("cat", lambda x: mf.cat([x, x[:, :1]], dim=1), lambda a: np.concatenate([a, a[:, :1]], axis=1), S(2), S(2)),
    ("stack", lambda x: mf.stack([x, x], dim=1), lambda a: np.stack([a, a], axis=1), S(2), S(3)),
    ("partial", lambda x: x.T.reshape(4, -1)[1:3], lambda a: a.T.reshape(4, -1)[1:3], P, P),
    ("flatten", lambda x: x.flatten(1), lambda a: a.reshape(a.shape[0], -1), S(0), S(0)),
    ("unsqueeze", lambda x: x.unsqueeze(1), lambda a: a[:, None], S(2), S(3)),
    ("squeeze", lambda x: x[:, :1].squeeze(1), lambda a: a[:, 0], S(0), S(0)),
    ("split", lambda x: x.split([1, 3], dim=2)[1], lambda a: a[:, :, 1:], S(0), S(0)),
    ("chunk", lambda x: x.chunk(2, dim=1)[1], lambda a: a[:, 2:], S(2), S(2)),
    ("unbind", lambda x: x.unbind(2)[3], lambda a: a[:, :, 3], S(1), S(1)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_split_carried_without_communication(name, op, reference, src, out):
    value = logical_value((2 * mf.env.get_world_size() + 1, 3, 4), np.float32)
    x = global_from_parts(value, line(), (src,))
    result, issued = collectives(lambda: op(x))
    assert issued == 0, name
    check(result, reference(value), (out,))


@pytest.mark.parametrize("src", [(S(0),), (S(1),), (B,), (P,)], ids=repr)
def test_reshape_slice_cat_match_numpy_from_any_layout(src):
    value = logical_value((5, 6), np.int64)
    x = global_from_parts(value, line(), src)
    check(x.reshape(3, 10), value.reshape(3, 10))
    check(x.view(2, 3, 5), value.reshape(2, 3, 5))
    check(x[1:4, ::2], value[1:4, ::2])
    check(x[-1], value[-1])
    check(mf.cat([x, x[::2]], dim=0), np.concatenate([value, value[::2]], axis=0))
    check(mf.cat([x, x[:, 4:]], dim=1), np.concatenate([value, value[:, 4:]], axis=1))
    check(mf.stack([x[0], x[2]]), np.stack([value[0], value[2]]))


def test_two_dims_of_splits_move_with_transpose():
    value = logical_value((5, 3, 7), np.float64)
    x = global_from_parts(value, grid(), (S(0), S(2)))
    result, issued = collectives(lambda: x.permute(2, 0, 1))
    assert issued == 0
    check(result, np.transpose(value, (2, 0, 1)), (S(1), S(0)))
    check(x.reshape(5, 21), value.reshape(5, 21))
    check(x[1:, 2], value[1:, 2])


# Attention heads: [B, T, H * D] -> [B, T, H, D] and back carry the split of the heads when
# the ranks that cut them divide H, with no communication; otherwise the result is still
# NumPy's. B and T are uneven.
@pytest.mark.parametrize("heads", [2, 3, 4, 6, 8])
def test_head_split_is_carried_when_the_ranks_divide_the_heads(heads):
    n = mf.env.get_world_size()
    value = logical_value((3, 5, heads * 2), np.float32)
    x = global_from_parts(value, line(), (S(2),))
    split_heads, issued = collectives(lambda: x.view(3, 5, heads, 2))
    merged, issued_back = collectives(lambda: split_heads.reshape(3, 5, heads * 2))
    check(split_heads, value.reshape(3, 5, heads, 2))
    check(merged, value)
    if heads % n == 0:
        assert issued == 0 and issued_back == 0
        assert split_heads.sbp == (S(2),) and merged.sbp == (S(2),)
    else:
        assert split_heads.sbp != (S(2),)


@pytest.mark.parametrize("heads, carried", [(2, False), (4, True), (6, False), (8, True)])
def test_head_split_on_a_grid(heads, carried):
    value = logical_value((3, 5, heads * 2), np.float64)
    x = global_from_parts(value, grid(), (S(0), S(2)))
    check(x.view(3, 5, heads, 2), value.reshape(3, 5, heads, 2), (S(0), S(2)))
    nested = global_from_parts(value, grid(), (S(2), S(2)))
    split_heads, issued = collectives(lambda: nested.view(3, 5, heads, 2))
    check(split_heads, value.reshape(3, 5, heads, 2))
    assert (issued == 0 and split_heads.sbp == (S(2), S(2))) == carried


@pytest.mark.parametrize("src, out", [((S(0),), (S(1),)), ((S(2),), (S(3),)), ((P,), (P,)), ((B,), (B,))], ids=repr)
def test_expand_keeps_splits_of_kept_dims(src, out):
    value = logical_value((2 * mf.env.get_world_size() + 1, 1, 3), np.float32)
    x = global_from_parts(value, line(), src)
    result, issued = collectives(lambda: x.expand(4, -1, 5, 3))
    assert issued == 0
    check(result, np.broadcast_to(value, (4, value.shape[0], 5, 3)), out)


def test_expand_on_a_grid():
    value = logical_value((5, 1, 7), np.int64)
    x = global_from_parts(value, grid(), (S(2), S(0)))
    result, issued = collectives(lambda: x.expand(5, 3, 7))
    assert issued == 0
    check(result, np.broadcast_to(value, (5, 3, 7)), (S(2), S(0)))
