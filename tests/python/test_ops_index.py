"""Indexing with tensors (python/meshflow/_ops_index.py) against NumPy: advanced indexing in
x[...] (torch's rules: ints next to advanced items select first), the functional index_put
for every index form, index_select, gather, take_along_dim, scatter, scatter_add, index_add,
index_copy, masked_select, nonzero, where(condition), one_hot; gradients against finite
differences; out-of-range indices with torch's message."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(11)
A = RNG.standard_normal((4, 5, 6))


def t(index):
    """An index with NumPy arrays of ints in it made meshflow int64 tensors."""
    if isinstance(index, tuple):
        return tuple(t(i) for i in index)
    if isinstance(index, np.ndarray) and index.dtype.kind in "iu":
        return mf.tensor(index)
    return index


def as_numpy(index):
    """NumPy's equivalent of an index of ints, slices, lists and int arrays."""
    return tuple(np.asarray(i) if isinstance(i, list) else i for i in index) if isinstance(index, tuple) else index


# Index forms on which NumPy's and torch's rules agree.
CASES = [
    ([1, 3],),
    (np.array([[0, 3], [2, 2]]),),
    (slice(None), [4, 0, 4]),
    (Ellipsis, [5, -1]),
    ([-1, 0], slice(1, 4), [0, 5]),             # separated: the broadcast dims first
    (slice(None), [0, 1], [1, 2]),              # adjacent: in place
    (slice(None), None, np.array([[0], [4]]), np.array([1, 2, 3])),
    (np.array([[1], [2]]), slice(None, None, 2), np.array([0, 5])),
    (1, [0, 2]),
    (slice(1, 3), 2, [3, 3, 1]),
    ([0, 2], Ellipsis),
    (np.zeros((0,), np.int64),),
    (np.array([2, 0]), np.array([[1], [4]]), np.array([5, 0])),
]


@pytest.mark.parametrize("index", CASES, ids=str)
def test_advanced_getitem_matches_numpy(index):
    x = mf.tensor(A)
    np.testing.assert_array_equal(x[t(index)].numpy(), A[as_numpy(index)])


def test_int_beside_advanced_selects_first_as_torch():
    # torch: x[:, 0, :, [1, 2]] selects dim 1 first, then one advanced index stays in place
    # (NumPy would move the broadcast dim first).
    a = RNG.standard_normal((2, 3, 4, 5))
    x = mf.tensor(a)
    np.testing.assert_array_equal(x[:, 0, :, [1, 2]].numpy(), a[:, 0][:, :, [1, 2]])
    np.testing.assert_array_equal(x[mf.tensor(1), [0, 2]].numpy(), a[1, [0, 2]])  # a 0-d tensor is an int


def test_masks_in_getitem():
    x = mf.tensor(A)
    # 0-d masks (torch's shapes: an int beside them selects first)
    assert x[True].shape == (1, 4, 5, 6) and x[False].shape == (0, 4, 5, 6)
    assert x[1, ..., False].shape == (5, 6, 0) and x[:, True, [1, 2]].shape == (4, 2, 6)
    assert x[mf.tensor(True)].shape == (1, 4, 5, 6) and x[mf.tensor(A[0, 0, 0] > 9)].shape == (0, 4, 5, 6)
    np.testing.assert_array_equal(x[:, True, [1, 2]].numpy(), A[:, [1, 2]])
    mask = A[:, :, 0] > 0
    np.testing.assert_array_equal(x[mask].numpy(), A[mask])
    keep = [True, False, True, False, True]
    np.testing.assert_array_equal(x[:, keep].numpy(), A[:, keep])
    np.testing.assert_array_equal(x[1:, A[0, :, 0] > 0, 2].numpy(), A[1:, A[0, :, 0] > 0, 2])
    with pytest.raises(IndexError, match="does not match the shape of the indexed tensor"):
        x[np.ones((3,), bool)]


def test_bool_tensor_masks():
    x = mf.tensor(A)
    m = x > 0
    assert m.dtype == mf.bool
    np.testing.assert_array_equal(x[m].numpy(), A[A > 0])
    np.testing.assert_array_equal(x[m[:, :, 0]].numpy(), A[A[:, :, 0] > 0])
    np.testing.assert_array_equal(x[1, m[1, :, 2], ::2].numpy(), A[1, A[1, :, 2] > 0, ::2])
    np.testing.assert_array_equal(mf.index_put(x, m, 0.0).numpy(), np.where(A > 0, 0, A))
    np.testing.assert_array_equal(mf.index_put(x, x < -1, mf.tensor(-1.0)).numpy(), np.maximum(A, -1))
    np.testing.assert_array_equal(mf.index_put(x, m[:, 0, 0], 7.0).numpy(),
                                  np.where((A[:, 0, 0] > 0)[:, None, None], 7, A))
    np.testing.assert_array_equal(mf.masked_select(x, m).numpy(), A[A > 0])
    for g, w in zip(mf.where(m), np.nonzero(A > 0)):
        np.testing.assert_array_equal(g.numpy(), w)
    check_gradients(lambda x: x[x > 0.5] * 3, [A])
    check_gradients(lambda x: mf.index_put(x, x > 0.5, 0.0), [A])


def test_bool_tensors_indexed_and_written():
    m = mf.tensor(A > 0)
    got = m[[0, 3], 1:]
    assert got.dtype == mf.bool
    np.testing.assert_array_equal(got.numpy(), (A > 0)[[0, 3], 1:])
    want = A > 0
    want[0] = True
    put = mf.index_put(m, (0,), True)
    assert put.dtype == mf.bool
    np.testing.assert_array_equal(put.numpy(), want)
    np.testing.assert_array_equal(mf.index_put(m, m, False).numpy(), np.zeros(A.shape, bool))
    np.testing.assert_array_equal(mf.index_put(m, [1], mf.tensor(np.full((5, 6), 0.5))).numpy()[1], True)


def test_bfloat16_tensors_indexed_and_written():
    a = np.array([[1.5, -2.0, 3.25], [0.5, 8.0, -0.75]], np.float32)  # exact in bfloat16
    x = mf.tensor(a).to("bfloat16")
    got = x[[1, 0, 1], 1:]
    assert got.dtype == mf.bfloat16
    np.testing.assert_array_equal(got.float().numpy(), a[[1, 0, 1], 1:])
    put = mf.index_put(x, (slice(None), [2]), 4.0)
    assert put.dtype == mf.bfloat16
    np.testing.assert_array_equal(put.float().numpy(), np.where(np.arange(3) == 2, 4.0, a))


def test_getitem_int32_indices_and_dtypes():
    a = np.arange(20, dtype=np.int32).reshape(4, 5)
    x = mf.tensor(a)
    got = x[mf.tensor(np.array([3, 0], np.int32)), 1:]
    assert got.dtype == mf.int32
    np.testing.assert_array_equal(got.numpy(), a[[3, 0], 1:])


def test_getitem_out_of_range():
    x = mf.tensor(A)
    with pytest.raises(ValueError, match="index 4 is out of bounds for dimension 0 with size 4"):
        x[[0, 4]].numpy()
    with pytest.raises(ValueError, match="index -7 is out of bounds for dimension 2 with size 6"):
        x[:, 1, [-7]].numpy()
    with pytest.raises(IndexError, match="too many indices"):
        x[[0], [0], [0], [0]]


@pytest.mark.parametrize("index", [([3, 1, 3],), (slice(None), [0, 2], [1, 5]), ([0, 2], slice(1, 4), [5, 0]),
                                   (Ellipsis, [-1, 2, 2])], ids=str)
def test_getitem_gradients(index):
    check_gradients(lambda x: x[index], [A])


@pytest.mark.parametrize("index", [(slice(None), np.array([0, 2, 0]), np.array([1, 5, 1])),
                                   (np.array([[1], [2]]), 0, np.array([5, 0])),
                                   (None, slice(1, 3), np.array([[4, 0]]), Ellipsis)], ids=str)
def test_getitem_of_index_tensors_and_its_gradient(index):
    # index tensors beside basic items, picked in one C++ call (getitem's fast path), with
    # repeated picks' gradients added
    x = mf.tensor(A, requires_grad=True)
    y = x[t(index)]
    np.testing.assert_array_equal(y.numpy(), A[as_numpy(index)])
    assert y.grad_fn.name() == "IndexBackward0"
    check_gradients(lambda x: x[t(index)], [A])


# ---------------------------------------------------------------------------------------------
# index_put

PUT_CASES = [
    (slice(1, 3), slice(None, None, 2)),
    (0,),
    (Ellipsis, -1),
    (slice(None), None, 2),
    ([2, 0],),
    (np.array([[1], [3]]), slice(None), np.array([0, 5])),
    (slice(None), [4, 0], [1, 2]),
    (1, [0, 2], slice(2, 6, 3)),
    (slice(None, None, 3), 1, [5, 5, 0]),
]


def put_numpy(a, index, v, accumulate):
    out = a.copy()
    index = as_numpy(index)
    if accumulate:
        # Positions of the indexed elements, added one by one (repeats add up).
        pos = np.arange(a.size).reshape(a.shape)[index]
        np.add.at(out.reshape(-1), pos.reshape(-1), np.broadcast_to(v, pos.shape).reshape(-1))
    else:
        out[index] = v
    return out


@pytest.mark.parametrize("index", PUT_CASES, ids=str)
def test_index_put_every_index_form(index):
    x = mf.tensor(A)
    shape = A[as_numpy(index)].shape
    v = RNG.standard_normal(shape)
    np.testing.assert_array_equal(mf.index_put(x, t(index), mf.tensor(v)).numpy(), put_numpy(A, index, v, False))
    np.testing.assert_array_equal(mf.index_put(x, t(index), 2.5).numpy(), put_numpy(A, index, 2.5, False))
    np.testing.assert_allclose(mf.index_put(x, t(index), mf.tensor(v), accumulate=True).numpy(),
                               put_numpy(A, index, v, True), rtol=1e-15)
    # values broadcast: the last dim's values only
    row = RNG.standard_normal(shape[-1:]) if shape else RNG.standard_normal(())
    np.testing.assert_array_equal(x.index_put(t(index), mf.tensor(row)).numpy(), put_numpy(A, index, row, False))
    assert A[0, 0, 0] == x.numpy()[0, 0, 0]  # out of place


def test_index_put_masks_casts_and_repeats():
    x = mf.tensor(A)
    mask = A > 0.5
    np.testing.assert_array_equal(mf.index_put(x, mask, 0.0).numpy(), np.where(mask, 0, A))  # (a where())
    np.testing.assert_array_equal(mf.index_put(x, mask, mf.tensor([[-1.0]]), accumulate=True).numpy(),
                                  np.where(mask, A - 1, A))
    np.testing.assert_array_equal(mf.index_put(x, (mask,), mf.tensor(3.0)).numpy(), np.where(mask, 3, A))
    part = mask[:, :, 0]  # a mask of the leading dims: positions
    rows = RNG.standard_normal((int(part.sum()), 6))
    want = A.copy()
    want[part] = rows
    np.testing.assert_array_equal(mf.index_put(x, part, mf.tensor(rows)).numpy(), want)
    want[part] += rows
    np.testing.assert_array_equal(mf.index_put(mf.tensor(want - 0), part, 1.5).numpy()[part], 1.5)
    check_gradients(lambda x, v: mf.index_put(x, mask, v), [A, np.array(2.0)])
    check_gradients(lambda x, v: mf.index_put(x, mask, v, True), [A, np.array([2.0])])
    ints = mf.tensor(np.arange(6, dtype=np.int64))
    np.testing.assert_array_equal(mf.index_put(ints, [1, 4], mf.tensor([7.9, -2.2])).numpy(), [0, 7, 2, 3, -2, 5])
    # repeated positions: the last value stays; with accumulate all add up
    np.testing.assert_array_equal(mf.index_put(ints, [[1, 1, 3, 1]], mf.tensor([10, 20, 30, 40])).numpy(),
                                  [0, 40, 2, 30, 4, 5])
    np.testing.assert_array_equal(mf.index_put(ints, [[1, 1, 3, 1]], mf.tensor([10, 20, 30, 40]),
                                               accumulate=True).numpy(), [0, 71, 2, 33, 4, 5])
    with pytest.raises(RuntimeError, match="shape mismatch"):
        mf.index_put(x, (0,), mf.tensor(np.ones((2, 6))))
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[2, 5, 6\] cannot be broadcast"):
        mf.index_put(x, 0, mf.tensor(np.ones((2, 5, 6))))
    np.testing.assert_array_equal(mf.index_put(x, 0, mf.tensor(np.ones((1, 1, 5, 1)))).numpy()[0], 1)


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("index", [(slice(1, 3), slice(None, None, 2)), ([2, 0, 2], slice(None), [1, 3, 4]),
                                   (Ellipsis, [0, 2]), (0, [3], slice(None))], ids=str)
def test_index_put_gradients(index, accumulate):
    shape = A[as_numpy(index)].shape
    v = RNG.standard_normal(shape)
    check_gradients(lambda x, v: mf.index_put(x, index, v, accumulate), [A, v])
    row = RNG.standard_normal(shape[-1:])
    if accumulate:  # (broadcast values without accumulate overwrite each other: see below)
        check_gradients(lambda x, v: mf.index_put(x, index, v, accumulate), [A, row])


def test_index_put_gradient_of_repeated_positions_as_torch():
    # Every value gets dy at its element, even one a later value overwrites (torch's rule);
    # x's gradient is zero at every written element.
    x = mf.tensor(A).requires_grad_()
    v = mf.tensor(np.array([1.0, 2.0])).requires_grad_()
    mf.index_put(x, (0, 0, [3, 3]), v).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [1, 1])
    want = np.ones_like(A)
    want[0, 0, 3] = 0
    np.testing.assert_array_equal(x.grad.numpy(), want)


# ---------------------------------------------------------------------------------------------
# index_select, gather, take_along_dim

def test_index_select():
    x = mf.tensor(A)
    for dim in (0, 1, -1):
        idx = np.array([2, 0, 2, 3])
        np.testing.assert_array_equal(mf.index_select(x, dim, mf.tensor(idx)).numpy(), np.take(A, idx, axis=dim))
    np.testing.assert_array_equal(x.index_select(1, mf.tensor(np.array(4, np.int32))).numpy(), A[:, [4]])
    scalar = mf.index_select(mf.tensor(2.5), 0, mf.tensor([0]))  # a scalar's pick is a scalar, as torch's
    assert scalar.shape == () and scalar.item() == 2.5
    with pytest.raises(IndexError, match="only 1 value"):
        mf.index_select(mf.tensor(2.5), 0, mf.tensor([0, 0]))
    check_gradients(lambda x: mf.index_select(x, 1, mf.tensor([4, 4, 1])), [A])
    with pytest.raises(ValueError, match="index 5 is out of bounds for dimension 1 with size 5"):
        mf.index_select(x, 1, mf.tensor([5])).numpy()
    with pytest.raises(ValueError, match="index -1 is out of bounds"):  # torch takes no negative ones here
        mf.index_select(x, 1, mf.tensor([-1])).numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool", "bfloat16", "float16"])
def test_index_select_of_every_dim_and_dtype(dtype):
    """Every dim of a 3-d tensor (the first one's rows picked in place, the others moved
    first), with repeats, int32 and int64 indices; bool and bfloat16 through their carriers."""
    x = mf.tensor(A * 4).to(dtype)
    want = x.numpy()
    for dim in (0, 1, 2, -2):
        for idx in ([3, 0, 3, 1, 2], [1], []):
            for index_dtype in (np.int64, np.int32):
                index = np.array(idx, index_dtype)
                got = x.index_select(dim, mf.tensor(index))
                assert got.dtype == x.dtype
                np.testing.assert_array_equal(got.numpy(), np.take(want, index, axis=dim), err_msg=f"dim {dim} {idx}")


def test_the_first_bad_index_in_order_is_reported():
    """Among many indices (past the threads' grain), the first bad one in row-major order is
    named, whether the index has the result's shape or is broadcast against another."""
    x = mf.tensor(np.arange(20.0).reshape(4, 5))
    idx = np.zeros(40000, np.int64)
    idx[[30000, 35000]] = [9, 7]
    with pytest.raises(ValueError, match="index 9 is out of bounds for dimension 1 with size 5"):
        x.index_select(1, mf.tensor(idx)).numpy()
    idx[30000] = -6  # from the end: -6 is still out of range
    with pytest.raises(ValueError, match="index -6 is out of bounds for dimension 0 with size 4"):
        x[mf.tensor(idx)].numpy()
    rows = mf.tensor(np.zeros((40000, 1), np.int64))
    cols = np.zeros((1, 3), np.int64)
    cols[0, 1:] = [8, 6]
    with pytest.raises(ValueError, match="index 8 is out of bounds for dimension 1 with size 5"):
        x[rows, mf.tensor(cols)].numpy()
    idx[[30000, 35000]] = [-1, 2]  # from the end where x[...] indexes, and in range
    np.testing.assert_array_equal(x[mf.tensor(idx)].numpy(), x.numpy()[idx])


def test_index_select_gradients_of_every_dim():
    for dim in (0, 1, 2):
        check_gradients(lambda x: mf.index_select(x, dim, mf.tensor([2, 0, 2, 3])), [A])


def test_gather_as_torch():
    x = mf.tensor(A)
    idx = RNG.integers(0, 5, (3, 4, 2))  # smaller than x off dim 1, as torch allows
    want = np.take_along_axis(A[:3, :, :2], idx, axis=1)
    np.testing.assert_array_equal(mf.gather(x, 1, mf.tensor(idx)).numpy(), want)
    np.testing.assert_array_equal(x.gather(1, mf.tensor(idx)).numpy(), want)
    check_gradients(lambda x: mf.gather(x, 1, mf.tensor(idx)), [A])
    with pytest.raises(RuntimeError, match="larger than input"):
        mf.gather(x, 0, mf.tensor(np.zeros((1, 6, 1), np.int64)))


def test_take():
    x = mf.tensor(A)
    idx = np.array([[-1, 0], [7, 119]])
    np.testing.assert_array_equal(mf.take(x, mf.tensor(idx)).numpy(), np.take(A, idx))
    np.testing.assert_array_equal(x.take(mf.tensor(3)).numpy(), A.reshape(-1)[3])
    with pytest.raises(ValueError, match="index 120 is out of bounds"):
        mf.take(x, mf.tensor([120])).numpy()


def test_take_along_dim():
    x = mf.tensor(A)
    idx = RNG.integers(0, 6, (4, 1, 3))
    np.testing.assert_array_equal(mf.take_along_dim(x, mf.tensor(idx), 2).numpy(),
                                  np.take_along_axis(A, np.broadcast_to(idx, (4, 5, 3)), 2))
    flat = RNG.integers(0, A.size, (7,))
    np.testing.assert_array_equal(x.take_along_dim(mf.tensor(flat)).numpy(), A.reshape(-1)[flat])
    check_gradients(lambda x: mf.take_along_dim(x, mf.tensor(idx), 2), [A])


# ---------------------------------------------------------------------------------------------
# scatter, scatter_add, index_add, index_copy

def scatter_numpy(a, dim, index, src, add):
    out = a.copy()
    for i in np.ndindex(index.shape):
        at = list(i)
        at[dim] = index[i]
        value = src if np.isscalar(src) else src[i]
        if add:
            out[tuple(at)] += value
        else:
            out[tuple(at)] = value
    return out


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_and_scatter_add(dim):
    x = mf.tensor(A)
    shape = [3, 4, 5]
    shape[dim] = 7
    index = RNG.integers(0, A.shape[dim], shape)
    src = RNG.standard_normal((7, 7, 7))  # larger than index, as torch allows
    np.testing.assert_array_equal(mf.scatter(x, dim, mf.tensor(index), mf.tensor(src)).numpy(),
                                  scatter_numpy(A, dim % 3, index, src, False))
    np.testing.assert_array_equal(x.scatter(dim, mf.tensor(index), value=1.5).numpy(),
                                  scatter_numpy(A, dim % 3, index, 1.5, False))
    np.testing.assert_allclose(mf.scatter_add(x, dim, mf.tensor(index), mf.tensor(src)).numpy(),
                               scatter_numpy(A, dim % 3, index, src, True), rtol=1e-14)
    check_gradients(lambda x, s: mf.scatter_add(x, dim, mf.tensor(index), s), [A, src])
    unique = np.stack([RNG.permutation(A.shape[1])[:3] for _ in range(4 * 6)]).reshape(4, 6, 3).transpose(0, 2, 1)
    check_gradients(lambda x, s: mf.scatter(x, 1, mf.tensor(unique), s), [A, src[:, :3, :6]])


def test_scatter_errors():
    x = mf.tensor(A)
    with pytest.raises(ValueError, match="index 5 is out of bounds for dimension 1 with size 5"):
        mf.scatter(x, 1, mf.tensor(np.full((1, 1, 1), 5)), 0.0).numpy()
    with pytest.raises(RuntimeError, match="Expected index"):
        mf.scatter_add(x, 0, mf.tensor(np.zeros((1, 6, 1), np.int64)), mf.tensor(np.ones((1, 6, 1))))
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply, got 'sum'"):
        mf.scatter(x, 0, mf.tensor(np.zeros((1, 1, 1), np.int64)), 1.0, reduce="sum")


def test_index_add_index_copy_index_fill():
    x = mf.tensor(A)
    idx = np.array([4, 0, 4])
    src = RNG.standard_normal((4, 3, 6))
    want = A.copy()
    for k, i in enumerate(idx):
        want[:, i] += 2 * src[:, k]
    np.testing.assert_allclose(mf.index_add(x, 1, mf.tensor(idx), mf.tensor(src), alpha=2).numpy(), want,
                               rtol=1e-14)
    copied = A.copy()
    copied[:, idx] = src
    np.testing.assert_array_equal(x.index_copy(1, mf.tensor(idx), mf.tensor(src)).numpy(), copied)
    check_gradients(lambda x, s: mf.index_add(x, 1, mf.tensor(idx), s), [A, src])
    filled = A.copy()
    filled[:, :, [5, 0]] = -3.0
    np.testing.assert_array_equal(mf.index_fill(x, 2, mf.tensor([5, 0, 5]), -3.0).numpy(), filled)
    np.testing.assert_array_equal(x.index_fill(-1, mf.tensor([5, 0]), mf.tensor(-3.0)).numpy(), filled)
    check_gradients(lambda x, v: mf.index_fill(x, 0, mf.tensor([3, 1]), v), [A, np.array(1.5)])
    with pytest.raises(RuntimeError, match="source has shape"):
        mf.index_add(x, 1, mf.tensor(idx), mf.tensor(src[:, :2]))


def test_index_add_of_more_rows_than_self_has_sums_them_in_order():
    """A graph network's messages summed at their nodes (rows summed per node, then added):
    out of place and in place, with repeated and missing rows, and their gradients."""
    x, src = RNG.standard_normal((4, 3, 2)), RNG.standard_normal((9, 3, 2))
    idx = np.array([3, 0, 3, 1, 3, 0, 1, 1, 3])
    want = x.copy()
    for k, i in enumerate(idx):
        want[i] += src[k]
    np.testing.assert_allclose(mf.index_add(mf.tensor(x), 0, mf.tensor(idx), mf.tensor(src)).numpy(), want,
                               rtol=1e-14)
    t = mf.tensor(x, dtype=mf.float32)
    t.index_add_(0, mf.tensor(idx), mf.tensor(src, dtype=mf.float32), alpha=2)
    np.testing.assert_allclose(t.numpy(), x + 2 * (want - x), rtol=1e-5, atol=1e-6)
    check_gradients(lambda x, s: mf.index_add(x, 0, mf.tensor(idx), s), [x, src])
    with pytest.raises(IndexError, match="9 is out of range"):
        mf.index_add(mf.tensor(x), 0, mf.tensor(np.full(9, 9)), mf.tensor(src)).numpy()


# ---------------------------------------------------------------------------------------------
# nonzero, masked_select, where(condition), one_hot

def test_nonzero_and_where():
    a = np.array([[0, 1.5, 0], [2, 0, -1]])
    x = mf.tensor(a)
    got = mf.nonzero(x)
    assert got.dtype == mf.int64
    np.testing.assert_array_equal(got.numpy(), np.argwhere(a))
    for g, w in zip(x.nonzero(as_tuple=True), np.nonzero(a)):
        np.testing.assert_array_equal(g.numpy(), w)
    for g, w in zip(mf.where(x), np.nonzero(a)):
        np.testing.assert_array_equal(g.numpy(), w)
    np.testing.assert_array_equal(mf.argwhere(x).numpy(), np.argwhere(a))
    assert mf.nonzero(mf.zeros(2, 3)).shape == (0, 2)
    np.testing.assert_array_equal(mf.where(x != 0, 2 * x, x - 1).numpy(), np.where(a != 0, 2 * a, a - 1))


def test_masked_select():
    x = mf.tensor(A)
    mask = (A[0] > 0).astype(np.float64)  # broadcast against x
    np.testing.assert_array_equal(mf.masked_select(x, mf.tensor(mask)).numpy(),
                                  A[np.broadcast_to(mask, A.shape) != 0])
    check_gradients(lambda x: x.masked_select(mf.tensor(mask)), [A])


def test_one_hot():
    labels = np.array([[0, 3], [2, 2]])
    got = F.one_hot(mf.tensor(labels), 5)
    assert got.dtype == mf.int64
    np.testing.assert_array_equal(got.numpy(), np.eye(5, dtype=np.int64)[labels])
    np.testing.assert_array_equal(F.one_hot(mf.tensor(labels)).numpy(), np.eye(4, dtype=np.int64)[labels])
    with pytest.raises(ValueError, match="index 5 is out of bounds"):
        F.one_hot(mf.tensor([5]), 5).numpy()
    with pytest.raises(RuntimeError, match="index tensor of type int64"):
        F.one_hot(mf.tensor([1.0]), 5)


def test_basic_index_names_bounds_and_errors():
    """Basic keys go to C++ in one call (fn::basic_index): an all-int key records torch's
    select, a NumPy int's too; slice bounds beyond int64 clamp as Python's; an int beyond
    int64 is out of range (IndexError)."""
    x = mf.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    assert type(x[np.int64(1)].grad_fn).__name__ == "SelectBackward0"
    assert type(x[1, -2].grad_fn).__name__ == "SelectBackward0"
    assert type(x[1:].grad_fn).__name__ == "SliceBackward0"
    np.testing.assert_array_equal(x[-2**70:2**70:2**70, None].detach().numpy(), x.detach().numpy()[:1, None])
    with pytest.raises(IndexError, match="out of range"):
        x[2**70]
    with pytest.raises(IndexError, match="too many indices"):
        x[:, 1, 2]


def test_numpy_int_slice_bounds_beside_an_index_tensor():
    # x[perm, :, a:b] with NumPy ints as bounds (a cutmix box drawn by NumPy) reaches C++ as ints
    xn = np.arange(2 * 3 * 8 * 8, dtype=np.float32).reshape(2, 3, 8, 8)
    a, b = np.int64(2), np.int64(6)
    got = mf.tensor(xn)[mf.tensor([1, 0]), :, a:b, np.int32(1):5]
    np.testing.assert_array_equal(got.numpy(), xn[[1, 0], :, 2:6, 1:5])
    np.testing.assert_array_equal(mf.tensor(xn)[np.int64(1), mf.tensor([1, 0])].numpy(), xn[1, [1, 0]])
