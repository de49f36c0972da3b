"""Indexing, index_put, the index ops, random sampling and einsum on global tensors: on [0], a
line of every rank, and a 2 x 2 mesh, from split (uneven), broadcast and partial layouts, the
logical result equals NumPy's (or the local call after the same manual_seed), and gradients
equal the single-device ones in their inputs' layouts."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from conftest import meshes
from sbp_reference import B, P, S, global_from_parts

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gradcheck.py
from gradcheck import check_gradients, check_global_gradients  # noqa: E402

A = np.random.default_rng(4).integers(-20, 20, (5, 7, 3)).astype(np.float64)  # exact sums of parts


def layouts(ranks):
    one = [S(0), S(1), S(2), B, P]
    if np.ndim(ranks) == 1:
        return [(s,) for s in one]
    return [(s, t) for s, t in zip(one, one[1:] + one[:1])]


def every_global(value):
    for ranks in meshes():
        for trial, sbp in enumerate(layouts(ranks)):
            yield ranks, sbp, global_from_parts(value, ranks, sbp, seed=trial)


def idx(a):
    return mf.tensor(np.asarray(a, np.int64))


GETITEM = [
    ([4, 0, 4],),
    (slice(None), [6, 0], [2, 1]),
    ([[1], [3]], slice(1, 6, 2), [0, 2]),
    (Ellipsis, [-1, 0]),
    (slice(None), None, [3, 3]),
]


def as_numpy(index):
    return tuple(np.asarray(i) if isinstance(i, list) else i for i in index)


@pytest.mark.parametrize("index", GETITEM, ids=str)
def test_advanced_getitem(index):
    for ranks, sbp, x in every_global(A):
        np.testing.assert_array_equal(x[index].numpy(), A[as_numpy(index)], err_msg=f"{sbp} on {ranks}")
    # index tensors global too
    for ranks, sbp, x in every_global(A):
        i = global_from_parts(np.array([2, 0, 4, 4]), ranks, (S(0),) * len(sbp))
        np.testing.assert_array_equal(x[i, 1:3].numpy(), A[[2, 0, 4, 4], 1:3], err_msg=f"{sbp} on {ranks}")
        break


def test_masks_nonzero_masked_select_on_global_tensors():
    mask = A[:, :, 0] > 0
    for ranks, sbp, x in every_global(A):
        m = global_from_parts(mask.astype(np.float32), ranks, tuple(S(0) if s == S(2) else s for s in sbp))
        np.testing.assert_array_equal(x[mask].numpy(), A[mask])
        np.testing.assert_array_equal(mf.nonzero(m).numpy(), np.argwhere(mask))
        np.testing.assert_array_equal(mf.masked_select(x[:, :, 0], m).numpy(), A[:, :, 0][mask])
        np.testing.assert_array_equal(mf.index_put(x, mask, 0.5).numpy(), np.where(mask[:, :, None], 0.5, A))
        np.testing.assert_array_equal(x[x > 0].numpy(), A[A > 0])
        np.testing.assert_array_equal(x[x[:, :, 0] > 0].numpy(), A[mask])
        np.testing.assert_array_equal(mf.index_put(x, x > 0, -2.0).numpy(), np.where(A > 0, -2, A))
        np.testing.assert_array_equal(mf.index_put(x, x[:, :, 0] > 0, 1.0).numpy(), np.where(mask[:, :, None], 1, A))
        whole = A > 0
        np.testing.assert_array_equal(mf.index_put(x, whole, -1.0).numpy(), np.where(whole, -1, A))
        np.testing.assert_array_equal(mf.index_put(x, whole, -1.0, accumulate=True).numpy(), np.where(whole, A - 1, A))


PUT = [
    (slice(1, 4), slice(None, None, 3)),
    (0,),
    (Ellipsis, -1),
    ([3, 1, 3], slice(None), [0, 2, 2]),
    (slice(None), [6, 2], 1),
]


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("index", PUT, ids=str)
def test_index_put(index, accumulate):
    shape = A[as_numpy(index)].shape
    v = np.random.default_rng(1).integers(-9, 9, shape).astype(np.float64)
    want = A.copy()
    pos = np.arange(A.size).reshape(A.shape)[as_numpy(index)].reshape(-1)
    if accumulate:
        np.add.at(want.reshape(-1), pos, v.reshape(-1))
    else:
        want.reshape(-1)[pos] = v.reshape(-1)
    for ranks, sbp, x in every_global(A):
        vb = global_from_parts(v, ranks, (B,) * len(sbp))
        got = mf.index_put(x, index, vb, accumulate)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-15, err_msg=f"{sbp} on {ranks}")
        np.testing.assert_allclose(mf.index_put(x, index, mf.tensor(v), accumulate).numpy(), want, rtol=1e-15)


def test_index_ops_on_global_tensors():
    index = np.random.default_rng(2).integers(0, 7, (5, 4, 3))
    src = np.random.default_rng(3).integers(-9, 9, (5, 4, 3)).astype(np.float64)
    sa = A.copy()
    for i in np.ndindex(index.shape):
        sa[i[0], index[i], i[2]] += src[i]
    for ranks, sbp, x in every_global(A):
        what = f"{sbp} on {ranks}"
        np.testing.assert_array_equal(mf.index_select(x, 1, idx([6, 0, 6])).numpy(), A[:, [6, 0, 6]], err_msg=what)
        np.testing.assert_array_equal(mf.gather(x, 1, idx(index)).numpy(), np.take_along_axis(A, index, 1),
                                      err_msg=what)
        np.testing.assert_allclose(mf.scatter_add(x, 1, idx(index), mf.tensor(src)).numpy(), sa, rtol=1e-15,
                                   err_msg=what)
        want = A.copy()
        want[:, [1, 5]] += 2 * A[:, :2]
        np.testing.assert_allclose(mf.index_add(x, 1, idx([1, 5]), x[:, :2], alpha=2).numpy(), want, rtol=1e-15)
        labels = global_from_parts(np.array([[0, 2], [3, 1]]), ranks, (S(0),) * len(sbp))
        np.testing.assert_array_equal(F.one_hot(labels, 4).numpy(), np.eye(4, dtype=np.int64)[[[0, 2], [3, 1]]])


GRADS = {
    "getitem": (lambda x: x[[3, 1, 3], 1:, [0, 2, 2]] * 2, [A]),
    "index_put": (lambda x, v: mf.index_put(x, (slice(None), [6, 2], 1), v), [A, np.ones((5, 2))]),
    "index_put_add": (lambda x, v: mf.index_put(x, ([1, 1], 2), v, True), [A, np.ones((3,))]),
    "scatter_add": (lambda x: mf.scatter_add(x * 1, 0, idx([[[4]], [[4]]]), x[:2, :1, :1] * 3), [A]),
    "einsum": (lambda x: mf.einsum("ijk,ik->j", x, x[:, 0, :]), [A]),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_global_gradients(name):
    f, arrays = GRADS[name]
    expected = check_gradients(f, arrays)
    for ranks in meshes():
        for trial, sbp in enumerate(layouts(ranks)):
            tensors = [global_from_parts(a, ranks, sbp if a.ndim == 3 else (B,) * len(sbp), seed=trial)
                       for a in arrays]
            check_global_gradients(f, tensors, expected)


def test_random_global_equals_local():
    for ranks in meshes():
        p = mf.placement("cpu", ranks=ranks)
        for sbp in [(S(0),), (B,), (S(1),)]:
            sbp = sbp * np.ndim(ranks)
            mf.manual_seed(9)
            want_int = mf.randint(-3, 11, (7, 4)).numpy()
            want_normal = mf.normal(1.0, 2.0, (7, 4)).numpy()
            mf.manual_seed(9)
            np.testing.assert_array_equal(mf.randint(-3, 11, (7, 4), placement=p, sbp=sbp).numpy(), want_int)
            np.testing.assert_array_equal(mf.normal(1.0, 2.0, (7, 4), placement=p, sbp=sbp).numpy(), want_normal)
        for sbp in [(S(0),), (B,)]:
            sbp = sbp * np.ndim(ranks)
            mf.manual_seed(4)
            want = mf.randperm(11).numpy()
            mf.manual_seed(4)
            got = mf.randperm(11, placement=p, sbp=sbp)
            assert got.sbp == sbp
            np.testing.assert_array_equal(got.numpy(), want)
        probs = global_from_parts(np.array([[0.2, 0.0, 0.8], [1.0, 0.0, 0.0]]), ranks, (B,) * np.ndim(ranks))
        draws = mf.multinomial(probs, 50, replacement=True).numpy()
        assert set(draws[0]) <= {0, 2} and set(draws[1]) == {0}
        b = mf.bernoulli(global_from_parts(np.array([0.0, 1.0, 1.0, 0.0]), ranks, (S(0),) * np.ndim(ranks)))
        np.testing.assert_array_equal(b.numpy(), [0, 1, 1, 0])


@pytest.mark.parametrize("equation", ["ijk,jl->ikl", "ijk->kj", "iji->j", "...k,...k->..."])
def test_einsum(equation):
    other = {"ijk,jl->ikl": [np.arange(14.0).reshape(7, 2)], "...k,...k->...": [A[0]]}.get(equation, [])
    if equation == "iji->j":
        value = A[:3, :, :3]
    else:
        value = A
    for ranks, sbp, x in every_global(value):
        ops = [x] + [global_from_parts(o, ranks, (B,) * len(sbp)) for o in other]
        np.testing.assert_allclose(mf.einsum(equation, *ops).numpy(), np.einsum(equation, value, *other),
                                   rtol=1e-12, atol=1e-12, err_msg=f"{sbp} on {ranks}")
