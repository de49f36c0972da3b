"""Indexed and view writes on global tensors cost what they write (issue 36; x[i] = v,
index_put_, masked_fill_, scatter_, scatter_add_, index_add_, index_copy_, index_fill_,
writes through views): each rank
writes only the part of the written region its box holds, in its own memory. Results equal
NumPy on the meshes [1], [2], the world and [2, 2], for uneven shapes and every layout of
the target (S(0), S(1), B, P), keeping the layout; gradients equal one device's; writing a
row of a vocabulary-split [50304, 768] table allocates about a row on each rank."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from global_check import _same_as_local
from sbp_reference import B, P, S


def meshes():
    n = mf.env.get_world_size()
    out = [[0], list(range(n))]
    if n >= 4:
        out += [[0, 1], [[0, 1], [2, 3]]]
    return out


def _global(value, ranks, sbp):
    placement = mf.placement("cpu", ranks=ranks)
    return mf.tensor(value, placement=placement, sbp=tuple(sbp) * np.array(ranks).ndim)


def _writes(x, xp, like):
    """The same writes on x (global) and xp (NumPy); `like` makes index and value tensors
    where x is."""
    x[2] = -1.0
    xp[2] = -1
    x[:, 1:5:3] = like(np.array([[0.5, 1.5]], np.float32))
    xp[:, 1:5:3] = [[0.5, 1.5]]
    x[1:6:2, -1] = 4.0
    xp[1:6:2, -1] = 4
    x[like(np.array([6, 0, 6]))] = like(np.arange(5, dtype=np.float32))
    xp[[6, 0, 6]] = np.arange(5)
    x[[1, 3], 1:3] = 8.0
    xp[[1, 3], 1:3] = 8
    x.index_put_((like(np.array([4, 4])), like(np.array([0, 2]))), like(np.array([1.0, 2.0], np.float32)),
                 accumulate=True)
    np.add.at(xp, ([4, 4], [0, 2]), [1, 2])
    x.masked_fill_(x > 20, 20.0)
    xp[xp > 20] = 20
    x[x < 0] = 0.25
    xp[xp < 0] = 0.25
    x[3:6].fill_(3.0)
    xp[3:6] = 3
    x.narrow(1, 2, 2).copy_(like(np.full((7, 2), 6, np.float32)))
    xp[:, 2:4] = 6
    x[4:][1, 1:].mul_(2)
    xp[4:][1, 1:] *= 2
    x.index_add_(0, like(np.array([6, 1, 6])), like(np.ones((3, 5), np.float32)), alpha=2)
    np.add.at(xp, [6, 1, 6], 2)
    x.index_copy_(1, like(np.array([4])), like(np.full((7, 1), 9, np.float32)))
    xp[:, 4] = 9
    x.index_fill_(0, like(np.array([5])), -2.0)
    xp[5] = -2
    scatter_index = np.array([[0, 6, 3, 3, 1]])
    x.scatter_(0, like(scatter_index), like(np.full((1, 5), 7, np.float32)))
    xp[scatter_index[0], np.arange(5)] = 7
    x.scatter_add_(1, like(np.array([[2, 2]])), like(np.ones((1, 2), np.float32)))
    xp[0, 2] += 2


@pytest.mark.parametrize("sbp", [(S(0),), (S(1),), (B,), (P,)], ids=repr)
def test_writes_equal_numpy_and_keep_the_layout(sbp):
    for ranks in meshes():
        value = np.arange(7 * 5, dtype=np.float32).reshape(7, 5)  # 7 rows, 5 columns: uneven parts
        x = _global(value, ranks, sbp)
        layout = x.sbp
        expected = value.copy()
        _writes(x, expected, lambda a: _global(a, ranks, (B,)))
        assert x.sbp == layout
        np.testing.assert_array_equal(x.numpy(), expected)


@pytest.mark.parametrize("dims", [(0, None), (1, None), (None, None)], ids=str)
def test_gradients_of_writes_equal_one_device(dims):
    def f(x, v):
        y = x * 1
        y[1:6:2, 1:] = v * 2
        y[[0, 6], 0] = v[0, :2]
        y[2:4].narrow(1, 0, 2).mul_(3)
        return y

    a = np.random.default_rng(2).standard_normal((7, 5))
    v = np.random.default_rng(3).standard_normal((1, 4))
    for ranks in meshes():
        p = mf.placement("cpu", ranks=ranks)
        _same_as_local(f, [a, v], p, dims)


def test_writing_a_row_of_a_vocabulary_split_table_allocates_about_a_row_per_rank():
    rows, cols = 50304, 768
    placement = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    mf.manual_seed(0)
    emb = nn.Embedding(rows, cols)
    emb.to_global(placement, lambda name, p: S(0))
    mf.synchronize()
    before = mf.memory_stats("cpu")["in_use_bytes"]
    mf.reset_peak_memory_stats("cpu")
    with mf.no_grad():
        emb.weight[0] = 0
    mf.synchronize()
    extra = mf.memory_stats("cpu")["peak_bytes"] - before
    assert extra <= 2 * cols * 4, extra  # the value (a row, broadcast) and bookkeeping
    assert emb.weight.sbp == (S(0),)
    head = emb.weight[:2].numpy()
    assert (head[0] == 0).all() and (head[1] != 0).any()
