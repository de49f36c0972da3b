"""Indexed and view writes that cost what they write (issue 36): x[idx] = v, index_put_,
masked_fill_, scatter_, scatter_add_, index_add_, index_copy_, index_fill_ and writes
through views (x[2:5].fill_(0), x[:, 0] = v, x.narrow(...).copy_) are one op over the
target's own memory (fn::write_in_place: slice_scatter for a box, index_put at positions
made from the indices, where for a whole mask), on every device,
equal to NumPy; recorded for autograd as torch records them (the target's gradient is zero
where it was overwritten, the value gets the written part's), with the version counter and
torch's error for a value saved for backward and written since. Memory is measured: writing
a row of a [50304, 768] table allocates about a row."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn

DEVICES = ["cpu", "testdev"]
RNG = np.random.default_rng(5)

# (index, value shape): basic boxes, advanced indices, mixed, masks; values broadcast.
CASES = [
    ((2,), ()),
    ((slice(1, 5, 2),), (1, 6)),
    ((Ellipsis, 3), (5,)),
    ((slice(None), None, slice(0, 6, 4)), (5, 1, 2)),
    ((-1, slice(2, None)), (4,)),
    ((slice(None), 0), ()),
    ((1, 2), ()),
    ((slice(3, 3),), ()),
    (([0, 3, 3],), (6,)),
    ((slice(None), [5, -1, 0]), (5, 3)),
    (([1, 4], slice(1, 4), ), (1, 3)),
    ((np.array([[0], [2]]), np.array([1, 5])), (2, 2)),
    ((2, [0, 4]), ()),
]


def _index(index, device):
    return tuple(mf.tensor(i, device=device) if isinstance(i, np.ndarray) else i for i in index)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "bfloat16"])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_setitem_equals_numpy(device, dtype, case):
    index, value_shape = case
    base = RNG.standard_normal((5, 6)) * 4
    value = RNG.standard_normal(value_shape) * 4
    np_dtype = {"float32": np.float32, "int64": np.int64, "bool": np.bool_, "bfloat16": np.float32}[dtype]
    if dtype == "bfloat16":  # values exact in bfloat16
        base, value = np.round(base), np.round(value)
    x = mf.tensor(base.astype(np_dtype), device=device).to(dtype)
    expected = base.astype(np_dtype)
    np_index = tuple(np.asarray(i) if isinstance(i, list) else i for i in index)
    expected[np_index] = value.astype(np_dtype)
    v = mf.tensor(value.astype(np_dtype), device=device).to(dtype) if value_shape else value.astype(np_dtype).item()
    x[_index(index, device)] = v
    np.testing.assert_array_equal(x.to("float32").numpy() if dtype == "bfloat16" else x.numpy(), expected)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numbers_and_values_of_fewer_dims_written_as_numpy(device, dtype):
    """x[key] = an int or a float (made x's dtype once, as NumPy's) and x[key] = values of fewer
    dims than x made by an op just issued: NumPy's result; a later write to those values
    leaves x as written."""
    x = mf.tensor(np.zeros((3, 4), dtype), device=device)
    expected = np.zeros((3, 4), dtype)
    for key, number in (((0,), 2**60 + 1), ((1, slice(1, 3)), 0.1), ((slice(None), 3), -7), ((2, 2), 1e-40)):
        x[key] = number
        expected[key] = np.float64(number).astype(dtype) if isinstance(number, float) else number
    row = mf.tensor(np.arange(3, dtype=dtype), device=device) * 2
    x[:, 0] = row
    expected[:, 0] = np.arange(3) * 2
    row.add_(100)
    np.testing.assert_array_equal(x.numpy(), expected)


@pytest.mark.parametrize("device", DEVICES)
def test_index_put_accumulate_and_masked_fill_in_place(device):
    base = RNG.standard_normal((4, 5)).astype(np.float32)
    x = mf.tensor(base, device=device)
    expected = base.copy()
    idx = np.array([0, 2, 0])
    x.index_put_((mf.tensor(idx, device=device),), mf.tensor(np.ones((3, 5), np.float32), device=device),
                 accumulate=True)
    np.add.at(expected, idx, 1)
    x.index_put_((slice(1, 3), 1), mf.tensor(np.float32(5), device=device), accumulate=True)
    expected[1:3, 1] += 5
    mask = expected > 0.5
    x.masked_fill_(mf.tensor(mask, device=device), -2.0)
    expected[mask] = -2
    x.masked_fill_(mf.tensor(mask[0], device=device), 3.0)  # broadcast over rows
    expected[:, mask[0]] = 3
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-6)
    with pytest.raises(RuntimeError, match="does not broadcast"):
        x[0].masked_fill_(mf.tensor(mask, device=device), 1.0)


@pytest.mark.parametrize("device", DEVICES)
def test_writes_through_views_reach_the_base(device):
    base = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    x = mf.tensor(base, device=device)
    expected = base.copy()
    row = x[1]
    x[2:5].fill_(0)
    expected[2:5] = 0
    x[:, 0] = mf.tensor(np.arange(8, dtype=np.float32), device=device)
    expected[:, 0] = np.arange(8)
    x.narrow(1, -2, 2).copy_(mf.tensor(np.full((8, 2), 9, np.float32), device=device))
    expected[:, -2:] = 9
    x[1:][::2][1, 1:3].mul_(10)  # a view of a view of a view
    expected[1:][::2][1, 1:3] *= 10
    x.split(3)[2].add_(1)
    expected[6:] += 1
    x.unbind(1)[3].zero_()
    expected[:, 3] = 0
    np.testing.assert_array_equal(x.numpy(), expected)
    np.testing.assert_array_equal(row.numpy(), expected[1])  # a live view follows


@pytest.mark.parametrize("device", DEVICES)
def test_gradients_of_writes_as_torch(device):
    """dx is zero where the write overwrote x; dv is dy's written part, summed where v was
    broadcast (here: the same for boxes, integer indices and views)."""
    a = RNG.standard_normal((4, 5)).astype(np.float32)
    w = RNG.standard_normal((4, 5)).astype(np.float32)
    for write, region in [(lambda y, v: y.__setitem__((slice(1, 3), slice(None, None, 2)), v), (slice(1, 3), slice(None, None, 2))),
                          (lambda y, v: y.__setitem__(([1, 2], slice(None, None, 2)), v), ([1, 2], slice(None, None, 2))),
                          (lambda y, v: y[1:3].narrow(1, 0, 5)[:, ::2].copy_(v.expand(2, 3)), (slice(1, 3), slice(None, None, 2)))]:
        x = mf.tensor(a, device=device, requires_grad=True)
        v = mf.tensor(np.ones((1, 3), np.float32), device=device, requires_grad=True)
        y = x * 1
        write(y, v * 2)
        (y * mf.tensor(w, device=device)).sum().backward()
        dx = w.copy()
        dx[region] = 0
        np.testing.assert_allclose(x.grad.numpy(), dx, rtol=1e-6)
        np.testing.assert_allclose(v.grad.numpy(), 2 * w[region].sum(0, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("device", DEVICES)
def test_version_counter_and_saved_value_error(device):
    x = mf.tensor(np.ones((3, 4), np.float32), device=device, requires_grad=True)
    y = x * 1
    z = y * y  # saves y
    version = y._version
    y[0] = 2.0
    assert y._version == version + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    e = (x * 1).exp()  # exp's gradient reads its output
    e[1:, 2] = 0.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        e.sum().backward()
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x[0] = 1.0
    with mf.no_grad():
        x[0] = 1.0  # as torch: a leaf is written under no_grad
    alias = x.detach()
    with mf.no_grad():
        x[1, 1] = 7.0
    assert alias.numpy()[1, 1] == 7  # an alias sees the write, as torch's (one memory)


@pytest.mark.parametrize("device", DEVICES)
def test_values_over_the_targets_own_memory_are_read_before_the_write(device):
    x = mf.tensor(np.arange(6, dtype=np.float32), device=device)
    order = np.array([2, 0, 1, 5, 3, 4])
    x[mf.tensor(order, device=device)] = x.detach()  # values sharing x's memory, permuted
    expected = np.zeros(6, np.float32)
    expected[order] = np.arange(6)
    np.testing.assert_array_equal(x.numpy(), expected)


def _peak_of(device, write):
    """The most bytes `write` had in use at once beyond what was in use before."""
    mf.synchronize()
    before = mf.memory_stats(device)["in_use_bytes"]
    mf.reset_peak_memory_stats(device)
    with mf.no_grad():
        write()
    mf.synchronize()
    return mf.memory_stats(device)["peak_bytes"] - before


@pytest.mark.parametrize("device", DEVICES)
def test_writing_rows_of_a_large_table_allocates_about_what_is_written(device):
    """The table is 154 MB; before, each write below made an int64 index of all of it and a
    copy (3x the table)."""
    rows, cols = 50304, 768
    row = cols * 4
    table = mf.zeros(rows, cols, device=device)
    assert _peak_of(device, lambda: table.__setitem__(0, 0.0)) <= row
    assert _peak_of(device, lambda: table.__setitem__((5, slice(3, 9)), mf.ones(6, device=device))) <= row
    # Two rows by integers: their positions (int64) and values, and a column's coordinates.
    assert _peak_of(device, lambda: table.__setitem__([7, 9], mf.ones(cols, device=device))) <= 16 * row
    # Two rows through a view: the view and its new value.
    assert _peak_of(device, lambda: table[rows - 3:rows - 1].fill_(2.0)) <= 8 * row
    # A column mask (made here: an int64 arange and bools) over the whole table: where()
    # over its memory, the mask and value read broadcast.
    assert _peak_of(device, lambda: table.masked_fill_(mf.arange(cols, device=device) == 4, 3.0)) <= 4 * row
    got = table[[0, 5, 7, 9, rows - 3, rows - 2]].numpy()
    assert (got[0, :4] == 0).all() and (got[1, 5:9] == 1).all() and (got[2:4, 5:] == 1).all()
    assert (got[4:, 5:] == 2).all() and (got[:, 4] == 3).all()


def test_embedding_padding_idx_construction_allocates_no_whole_table_index():
    rows, cols = 50304, 768
    table = rows * cols * 4
    mf.synchronize()
    before = mf.memory_stats("cpu")["in_use_bytes"]
    mf.reset_peak_memory_stats("cpu")
    emb = nn.Embedding(rows, cols, padding_idx=3)
    mf.synchronize()
    peak = mf.memory_stats("cpu")["peak_bytes"] - before
    # The table and randn's working memory; before, an int64 index of the whole table and a
    # copy came on top (4x the table at the peak).
    assert peak <= 1.01 * table, (peak, table)
    assert (emb.weight[3].detach().numpy() == 0).all()



def _indexed_writes(device, dtype):
    """(method, args, kwargs, what it does to a NumPy array) for a [6, 5] tensor."""
    idx2 = np.array([[0, 5, 2, 0, 1], [3, 3, 4, 1, 0]])
    rows = np.array([4, 1, 4])
    src = (RNG.standard_normal((2, 5)) * 4).astype(dtype)
    source = (RNG.standard_normal((6, 3)) * 4).astype(dtype)
    t = lambda a: mf.tensor(a, device=device)  # noqa: E731

    def scatter(a, add):
        for i, j in np.ndindex(*idx2.shape):
            a[idx2[i, j], j] = a[idx2[i, j], j] + src[i, j] if add else src[i, j]

    def index_add(a):
        for k, r in enumerate(rows):
            a[:, r] += 2 * source[:, k]

    def scatter_value(a):
        for i, j in np.ndindex(2, 3):
            a[i, idx2[i, j] % 5] = 7
    return [
        ("scatter_", (0, t(idx2), t(src)), {}, lambda a: scatter(a, False)),
        ("scatter_", (1, t(idx2[:, :3] % 5)), {"value": 7}, scatter_value),
        ("scatter_add_", (0, t(idx2), t(src)), {}, lambda a: scatter(a, True)),
        ("index_add_", (1, t(rows), t(source)), {"alpha": 2}, index_add),
        ("index_copy_", (0, t(np.array([5, 0])), t(src)), {}, lambda a: a.__setitem__([5, 0], src)),
        ("index_fill_", (1, t(np.array([3, 0])), -3), {}, lambda a: a.__setitem__((slice(None), [3, 0]), -3)),
    ]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_scatter_and_index_writes_in_place_equal_numpy(device, dtype):
    for name, args, kwargs, expect in _indexed_writes(device, dtype):
        a = (RNG.standard_normal((6, 5)) * 4).astype(dtype)
        x = mf.tensor(a, device=device)
        before = x._version
        assert getattr(x, name)(*args, **kwargs) is x, name
        assert x._version > before, name
        expect(a)
        np.testing.assert_array_equal(x.numpy(), a, err_msg=name)


@pytest.mark.parametrize("device", DEVICES)
def test_scatter_and_index_writes_in_place_have_the_out_of_place_gradients(device):
    for name, args, kwargs, _ in _indexed_writes(device, "float32"):
        grads = []
        for in_place in (True, False):
            base = mf.tensor(np.arange(30, dtype=np.float32).reshape(6, 5), device=device, requires_grad=True)
            values = [mf.tensor(a.numpy(), device=device, requires_grad=True) if isinstance(a, mf.Tensor) and
                      a.dtype == mf.float32 else a for a in args]
            x = base * 1.0
            y = getattr(x, name if in_place else name[:-1])(*values, **kwargs)
            (y * y).sum().backward()
            grads.append([base.grad.numpy()] + [v.grad.numpy() for v in values if isinstance(v, mf.Tensor)
                                                and v.requires_grad])
        for a, b in zip(*grads):
            np.testing.assert_array_equal(a, b, err_msg=name)


@pytest.mark.parametrize("device", DEVICES)
def test_scatter_and_index_writes_into_a_large_table_allocate_about_what_is_written(device):
    """Each wrote a whole new table before (an out-of-place result written back)."""
    rows, cols = 50304, 768
    row = cols * 4
    table = mf.zeros(rows, cols, device=device)
    two = mf.tensor([3, 9], device=device)
    ones = mf.ones(2, cols, device=device)
    # Two rows: their flat positions (int64), the values, a column's coordinates.
    assert _peak_of(device, lambda: table.index_add_(0, two, ones)) <= 16 * row
    assert _peak_of(device, lambda: table.index_copy_(0, two, ones)) <= 16 * row
    assert _peak_of(device, lambda: table.index_fill_(0, two, 5.0)) <= 16 * row
    index = mf.tensor(np.tile([[11], [12]], (1, cols)), device=device)
    assert _peak_of(device, lambda: table.scatter_(0, index, ones)) <= 16 * row
    assert _peak_of(device, lambda: table.scatter_add_(0, index, ones)) <= 16 * row
    got = table[[3, 9, 11, 12, 0]].numpy()
    assert (got[:2] == 5).all() and (got[2:4] == 2).all() and (got[4] == 0).all()
