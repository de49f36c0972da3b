"""Shape ops on local tensors against NumPy: transpose, permute, x.T, reshape / view,
contiguous, indexing, narrow, cat, stack, expand / broadcast_to, slice_backward (the
gradient of indexing); and bad input."""
import numpy as np
import pytest

import meshflow as mf
from meshflow._tensor import apply

DTYPES = [np.float32, np.float64, np.int32, np.int64]


def value(shape, dtype=np.float32):
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n) * 7 % 23 - 11).astype(dtype).reshape(shape)


def check(result, expected):
    assert result.is_local
    out = result.numpy()
    expected = np.asarray(expected)
    assert out.dtype == expected.dtype
    assert out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, dim0, dim1", [((3, 4), 0, 1), ((3, 4), -1, 0), ((2, 3, 5), 0, 2), ((2, 3, 5), 1, -1),
                                               ((2, 0, 5), 0, 1), ((4, 3), 1, 1)])
def test_transpose(dtype, shape, dim0, dim1):
    a = value(shape, dtype)
    x = mf.tensor(a)
    check(mf.transpose(x, dim0, dim1), np.swapaxes(a, dim0, dim1))
    check(x.transpose(dim0, dim1), np.swapaxes(a, dim0, dim1))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_permute_forms(dtype):
    a = value((2, 3, 4, 5), dtype)
    x = mf.tensor(a)
    expected = np.transpose(a, (2, 0, 3, 1))
    check(mf.permute(x, (2, 0, 3, 1)), expected)
    check(x.permute(2, 0, 3, 1), expected)
    check(x.permute([2, 0, 3, 1]), expected)
    check(x.permute((-2, 0, -1, 1)), expected)
    check(mf.permute(mf.tensor(value((0, 3))), [1, 0]), np.zeros((3, 0), np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, dims", [
    ((8, 64, 4, 32), (0, 2, 1, 3)),  # attention heads split: rows of 32 in blocks, carrying over two dims
    ((3, 5, 37, 7), (2, 0, 3, 1)),  # rows of one element, odd sizes, blocks ending inside a dim
    ((5, 37, 21), (0, 2, 1)),  # transposes: bands of 16 rows and a partial one, tiles cut at 21 columns
    ((2, 3, 33, 50), (0, 1, 3, 2)),  # a batch of transposes over two dims
    ((70, 100, 16), (1, 2, 0)),  # the source's rows (70 apart) transposed into rows of 70
    ((3, 1, 200000), (2, 1, 0)),  # few rows, long: bands across the team
    ((4, 70000), (0, 1)),  # a copy: long rows cut into pieces
])
def test_permute_copies_every_layout(dtype, shape, dims):
    """permute's strided copy (ops/shape.cc: blocks of rows stepped by strides, transposes by
    tiles) against NumPy at 1 and 2 threads."""
    a = np.arange(np.prod(shape)).astype(dtype).reshape(shape)  # each value once: a misplaced one shows
    previous = mf.get_num_threads()
    try:
        for threads in (1, 2):
            mf.set_num_threads(threads)
            check(mf.tensor(a).permute(dims), np.transpose(a, dims))
    finally:
        mf.set_num_threads(previous)


def test_T():
    a = value((3, 5), np.int64)
    check(mf.tensor(a).T, a.T)
    check(mf.tensor(value((2, 3, 4))).T, value((2, 3, 4)).T)
    check(mf.tensor(value((4,))).T, value((4,)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, new", [((4, 6), (24,)), ((4, 6), (2, 2, 6)), ((4, 6), (3, -1)), ((2, 3, 4), (-1,)),
                                        ((2, 3, 4), (6, 1, 4)), ((5,), (5, 1)), ((1,), ()), ((), (1, 1)),
                                        ((0, 3), (3, 0)), ((2, 0), (-1, 4))])
def test_reshape_and_view(dtype, shape, new):
    a = value(shape, dtype)
    x = mf.tensor(a)
    expected = a.reshape(new)
    check(mf.reshape(x, new), expected)
    check(x.reshape(new), expected)
    check(x.reshape(*new), expected)
    check(x.view(new), expected)
    check(x.view(*new), expected)


def test_view_and_contiguous_is_identity():
    x = mf.tensor(value((2, 6)))
    np.testing.assert_array_equal(x.view(3, 4).numpy(), value((2, 6)).reshape(3, 4))
    assert x.contiguous() is x


@pytest.mark.parametrize("bad, message", [((5, 5), r"\[reshape\] shape \[5, 5\] \(25 elements\) is invalid"),
                                          ((-1, 5), r"\[reshape\] cannot infer the -1"),
                                          ((-1, -1), r"\[reshape\] .*at most one -1"),
                                          ((2, -3), r"\[reshape\] .*sizes >= 0")])
def test_reshape_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        mf.tensor(value((4, 6))).reshape(bad)


INDICES = {
    "int": lambda a: a[1],
    "negative int": lambda a: a[-1],
    "slice": lambda a: a[1:3],
    "step": lambda a: a[::2],
    "uneven step": lambda a: a[1::3],
    "column": lambda a: a[:, 1],
    "ellipsis last": lambda a: a[..., -1],
    "ellipsis middle": lambda a: a[1, ..., 2:],
    "negative bounds": lambda a: a[-3:-1, ::3],
    "empty": lambda a: a[5:2],
    "clamped": lambda a: a[100:],
    "clamped negative": lambda a: a[:, -100:2],
    "ellipsis only": lambda a: a[...],
    "empty tuple": lambda a: a[()],
    "every dim int": lambda a: a[2, 1, 3],
    "numpy int": lambda a: a[np.int64(3), :, np.int32(-2)],
    "mixed": lambda a: a[-2, 1:, ::2],
    # None inserts a dim of size 1 where it stands, as NumPy's and torch's.
    "new dim": lambda a: a[:, None],
    "new dims only": lambda a: a[None, None],
    "new dims around ints and ellipsis": lambda a: a[None, 1, ..., None, ::2],
    "new dim last": lambda a: a[..., None],
    "new dim between ints": lambda a: a[0, None, 2],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", INDICES)
def test_getitem(dtype, name):
    a = value((5, 3, 4), dtype)
    check(INDICES[name](mf.tensor(a)), INDICES[name](a))


def test_getitem_of_chained_and_empty_tensors():
    a = value((6, 5))
    check(mf.tensor(a)[1:][::2][:, 3], a[1:][::2][:, 3])
    check(mf.tensor(value((0, 4)))[:, 1::2], value((0, 4))[:, 1::2])
    assert [row.tolist() for row in mf.tensor(a[:2])] == a[:2].tolist()  # iteration stops at IndexError


@pytest.mark.parametrize("index, error, message", [
    (10, IndexError, "index 10 is out of range for dim 0 of size 5"),
    ((0, -4), IndexError, "index -4 is out of range for dim 1 of size 3"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
    ((Ellipsis, 0, Ellipsis), IndexError, "single ellipsis"),
    (slice(None, None, -1), ValueError, "step must be greater than zero"),
    ((None, 0, 0, 0, 0), IndexError, "too many indices for a tensor of 3 dims: 4"),
    (1.5, TypeError, "indexed by ints, slices"),
])
def test_getitem_errors(index, error, message):
    with pytest.raises(error, match=message):
        mf.tensor(value((5, 3, 4)))[index]


def test_getitem_with_new_dims_of_a_scalar_and_its_gradient():
    check(mf.tensor(np.float32(2))[None, ..., None], np.full((1, 1), 2, np.float32))
    x = mf.tensor(value((2, 3)), requires_grad=True)
    (x[:, None, 1:] * mf.tensor(value((2, 1, 2)))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.pad(value((2, 2)), ((0, 0), (1, 0))))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_narrow(dtype):
    a = value((4, 6), dtype)
    x = mf.tensor(a)
    check(mf.narrow(x, 1, 1, 3), a[:, 1:4])
    check(x.narrow(0, 2, 2), a[2:4])
    check(x.narrow(-1, -3, 2), a[:, 3:5])
    check(x.narrow(0, 4, 0), a[4:4])


@pytest.mark.parametrize("args, error, message", [
    ((1, 4, 3), ValueError, r"\[narrow\] start 4 and length 3 are out of range for dim 1 of size 6"),
    ((0, 0, -1), ValueError, r"\[narrow\] start 0 and length -1"),
    ((2, 0, 1), ValueError, r"\[narrow\] dim 2 is out of range"),
])
def test_narrow_errors(args, error, message):
    with pytest.raises(error, match=message):
        mf.tensor(value((4, 6))).narrow(*args)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes, dim", [([(3, 4), (2, 4)], 0), ([(3, 4), (3, 1), (3, 0)], -1),
                                         ([(2, 3, 5), (2, 1, 5)], 1), ([(7,)], 0), ([(0, 3), (4, 3)], 0)])
def test_cat(dtype, shapes, dim):
    arrays = [value(s, dtype) + i for i, s in enumerate(shapes)]
    expected = np.concatenate(arrays, axis=dim)
    check(mf.cat([mf.tensor(a) for a in arrays], dim), expected)
    check(mf.cat(tuple(mf.tensor(a) for a in arrays), dim=dim), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, count, dim", [((3, 4), 2, 0), ((3, 4), 3, 1), ((3, 4), 2, 2), ((3, 4), 2, -1),
                                               ((5,), 1, 0), ((), 3, 0), ((0, 2), 2, 1)])
def test_stack(dtype, shape, count, dim):
    arrays = [np.asarray(value(shape, dtype) + i, dtype) for i in range(count)]
    check(mf.stack([mf.tensor(a) for a in arrays], dim), np.stack(arrays, axis=dim))


@pytest.mark.parametrize("op, tensors, dim, error, message", [
    (mf.cat, [], 0, ValueError, r"\[cat\] needs at least one tensor"),
    (mf.cat, [(3, 4), (3, 5)], 0, ValueError, r"\[cat\] input 1 has shape \[3, 5\].*every dim but dim 0"),
    (mf.cat, [(3, 4), (3, 4, 1)], 1, ValueError, r"\[cat\] input 1 has shape \[3, 4, 1\]"),
    (mf.cat, [(3, 4), (3, 4)], 2, ValueError, r"\[cat\] dim 2 is out of range"),
    (mf.stack, [(3, 4), (4, 3)], 0, ValueError, r"\[stack\] input 1 has shape \[4, 3\].*expected equal shapes"),
    (mf.stack, [(3, 4)], -4, ValueError, r"\[stack\] dim -4 is out of range"),
    (mf.stack, [], 0, ValueError, r"\[stack\] needs at least one tensor"),
])
def test_cat_stack_errors(op, tensors, dim, error, message):
    with pytest.raises(error, match=message):
        op([mf.tensor(value(s)) for s in tensors], dim)


def test_cat_stack_promote_mixed_dtypes_and_reject_non_tensors():
    a, b = mf.tensor(value((2, 2))), mf.tensor(value((2, 2), np.int64))
    c = mf.tensor(np.array([[True, False], [False, True]]))
    for op in (mf.cat, mf.stack):
        assert op([a, b]).dtype == mf.float32 and op([b, c]).dtype == mf.int64 and op([c, c]).dtype == mf.bool
        np.testing.assert_array_equal(op([c, b]).numpy(), np.stack([c.numpy(), b.numpy()]) if op is mf.stack else
                                      np.concatenate([c.numpy(), b.numpy()]))
        with pytest.raises(TypeError, match="list or tuple of meshflow.Tensor"):
            op([a, value((2, 2))])
        with pytest.raises(TypeError, match="list or tuple of meshflow.Tensor"):
            op(a)


@pytest.mark.parametrize("call, message", [
    (lambda x: x.permute(0), r"\[permute\] dims \[0\] has 1 entries for a tensor of 2 dims"),
    (lambda x: x.permute(1, 1), r"\[permute\] .*names dim 1 twice"),
    (lambda x: x.permute(0, 5), r"\[permute\] dim 5 is out of range"),
    (lambda x: x.transpose(0, 2), r"\[transpose\] dim 2 is out of range for a tensor of 2 dims"),
])
def test_permute_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call(mf.tensor(value((4, 6))))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, new", [((3, 1), (3, 4)), ((1, 5), (2, 4, 5)), ((5,), (3, -1)), ((4, 1, 3), (-1, 6, -1)),
                                        ((), (2, 3)), ((7, 1), (7, 1)), ((0, 1), (0, 3)), ((1,), (0,)),
                                        ((2, 1, 5), (3, 2, 4, 5))])
def test_expand_and_broadcast_to(dtype, shape, new):
    a = value(shape, dtype)
    x = mf.tensor(a)
    resolved = tuple(a.shape[d - (len(new) - a.ndim)] if n == -1 else n for d, n in enumerate(new))
    expected = np.broadcast_to(a, resolved)
    check(mf.broadcast_to(x, new), expected)
    check(x.expand(*new), expected)
    check(x.expand(new), expected)
    check(x.expand_as(mf.tensor(np.zeros(resolved, np.float32))), expected)


@pytest.mark.parametrize("new, message", [((6,), r"\[expand\] shape \[6\] has fewer dims than the input's \[4, 6\]"),
                                          ((4, 7), r"\[expand\] dim 1 of size 6 cannot be expanded to 7"),
                                          ((-1, 4, 6), r"\[expand\] shape \[-1, 4, 6\] has size -1 in dim 0"),
                                          ((4, -3), r"\[expand\] .*size -3 in dim 1")])
def test_expand_errors(new, message):
    with pytest.raises(ValueError, match=message):
        mf.tensor(value((4, 6))).expand(new)


# Indexings of a (5, 3, 4) tensor, as the slice attributes they become and as NumPy indices.
SLICES = {
    "rows": (((1, 0, 0), (4, 3, 4), (2, 1, 1), ()), np.s_[1:4:2]),
    "steps": (((0, 1, 0), (5, 3, 4), (3, 1, 3), ()), np.s_[::3, 1:, ::3]),
    "int index": (((2, 0, 1), (3, 3, 4), (1, 1, 1), (0,)), np.s_[2, :, 1:]),
    "every dim int": (((4, 2, 3), (5, 3, 4), (1, 1, 1), (0, 1, 2)), np.s_[4, 2, 3]),
    "empty": (((3, 0, 0), (3, 3, 4), (1, 1, 1), ()), np.s_[3:3]),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", SLICES)
def test_slice_backward_writes_where_slice_read(dtype, name):
    (starts, stops, steps, drop), index = SLICES[name]
    attrs = {"starts": list(starts), "stops": list(stops), "steps": list(steps), "shape": [5, 3, 4]}
    if drop:
        attrs["drop_dims"] = list(drop)
    dy = np.asarray(value(np.zeros((5, 3, 4))[index].shape, dtype) + 30, dtype)  # nonzero everywhere
    expected = np.zeros((5, 3, 4), dtype)
    expected[index] = dy
    check(apply("slice_backward", [mf.tensor(dy)], attrs)[0], expected)


def test_slice_backward_errors():
    attrs = {"starts": [0, 0], "stops": [4, 6], "steps": [1, 1], "shape": [4, 6]}
    with pytest.raises(ValueError, match=r"\[slice_backward\] the gradient has shape \[4, 5\] but the slice of a "
                                         r"tensor of shape \[4, 6\] has shape \[4, 6\]"):
        apply("slice_backward", [mf.tensor(value((4, 5)))], attrs)
    with pytest.raises(ValueError, match=r"\[slice_backward\] .*shape"):
        apply("slice_backward", [mf.tensor(value((4, 6)))], {k: v for k, v in attrs.items() if k != "shape"})


# ---- flatten, squeeze, unsqueeze, split, chunk, unbind: reshapes and slices, as torch.

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_flatten_squeeze_unsqueeze(dtype):
    a = value((2, 1, 3, 4), dtype)
    x = mf.tensor(a)
    check(x.flatten(), a.reshape(-1))
    check(mf.flatten(x, 1), a.reshape(2, -1))
    check(x.flatten(1, 2), a.reshape(2, 3, 4))
    check(x.flatten(-2, -1), a.reshape(2, 1, 12))
    check(mf.tensor(np.array(3, dtype)).flatten(), np.array([3], dtype))
    check(x.squeeze(), a.reshape(2, 3, 4))
    check(x.squeeze(1), a.reshape(2, 3, 4))
    check(x.squeeze(0), a)  # a dim of another size stays, as in torch
    check(x.squeeze((0, 1)), a.reshape(2, 3, 4))
    check(x.unsqueeze(0), a[None])
    check(mf.unsqueeze(x, -1), a[..., None])
    check(x.unsqueeze(2), a[:, :, None])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_split_chunk_unbind(dtype):
    a = value((5, 4), dtype)
    x = mf.tensor(a)
    for got, want in zip(x.split(2), np.split(a, [2, 4])):
        check(got, want)
    assert [p.shape for p in x.split([1, 3], dim=1)] == [(5, 1), (5, 3)]
    for got, want in zip(mf.split(x, [1, 3], 1), np.split(a, [1], axis=1)):
        check(got, want)
    assert [p.shape[0] for p in x.chunk(3)] == [2, 2, 1]  # ceil(5 / 3) rows each, as torch
    assert [p.shape[1] for p in x.chunk(4, dim=1)] == [1, 1, 1, 1]
    assert len(x.chunk(10)) == 5
    for i, row in enumerate(x.unbind()):
        check(row, a[i])
    for j, col in enumerate(mf.unbind(x, 1)):
        check(col, a[:, j])


def test_unbind_backward_joins_the_slices_gradients_once():
    """A loop over a sequence's steps (x.unbind(0), as RNN code writes it): each slice's
    gradient in place along the dim, zeros for slices no gradient reached, and backward
    holds no x-sized gradient per slice (each was x's size, zeros but its own row, summed:
    quadratic in the steps)."""
    steps, width = 64, 4096
    x = mf.tensor(np.ones((steps, width), np.float32), requires_grad=True)
    rows = x.unbind(0)
    assert len(rows) == steps and rows[3].shape == (width,) and type(rows[0].grad_fn).__name__ == "UnbindBackward0"
    loss = sum(row.sum() * float(k) for k, row in enumerate(rows) if k % 3)
    mf.synchronize()
    before = mf.memory_stats("cpu")["in_use_bytes"]
    mf.reset_peak_memory_stats("cpu")
    loss.backward()
    mf.synchronize()
    assert mf.memory_stats("cpu")["peak_bytes"] - before < 2.5 * x.numel() * 4  # x.grad and the rows' grads
    k = np.arange(steps, dtype=np.float32)
    np.testing.assert_array_equal(x.grad.numpy(), np.repeat(np.where(k % 3 > 0, k, 0)[:, None], width, 1))
    assert mf.zeros(0, 3).unbind(0) == () and len(mf.zeros(2, 0).unbind(1)) == 0


def test_split_pieces_carry_gradients():
    x = mf.tensor(value((4, 6)), requires_grad=True)
    q, k, v = x.split(2, dim=1)
    (q * 1.0 + k * 2.0 + v * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.tile(np.repeat([1.0, 2.0, 3.0], 2), (4, 1)).astype(np.float32))
    y = mf.tensor(value((3,)), requires_grad=True)
    (y.unsqueeze(0).flatten() * mf.tensor([1.0, 2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("call, error, message", [
    (lambda x: x.split([1, 2]), ValueError, r"\[split\] sizes \[1, 2\] do not add up to dim 0's size 5"),
    (lambda x: x.split(0), ValueError, r"\[split\] split size 0"),
    (lambda x: x.chunk(0), ValueError, r"\[chunk\] 0 chunks"),
    (lambda x: x.flatten(1, 0), ValueError, r"\[flatten\] start_dim 1 comes after end_dim 0"),
    (lambda x: x.unsqueeze(3), ValueError, r"\[unsqueeze\] dim 3 is out of range"),
    (lambda x: x.unbind(2), ValueError, r"\[unbind\] dim 2 is out of range"),
])
def test_split_family_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(mf.tensor(value((5, 4))))


def test_python_number_conversions():
    x = mf.tensor(value((5, 4)))
    assert len(x) == 5 and float(mf.tensor([2.5])) == 2.5 and int(mf.tensor([[7]])) == 7
    assert isinstance(float(mf.tensor(3)), float) and isinstance(int(mf.tensor(2.9)), int)
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(mf.tensor(1.0))
    with pytest.raises(ValueError, match=r"float\(\) takes a tensor of one element; this one has shape \(5, 4\)"):
        float(x)


def test_cat_leaves_out_1d_empty_tensors_beside_others_and_promotes_as_torch():
    # the calls C++ refuses at once take cat's general path (promotion, the empty idiom)
    x = mf.tensor(np.ones((2, 3), np.float32))
    out = mf.tensor([])
    for _ in range(2):
        out = mf.cat([out, x])
    assert tuple(out.shape) == (4, 3)
    mixed = mf.cat((mf.tensor(np.ones(2, np.float32)), mf.tensor(np.arange(2.0))))
    assert mixed.dtype == mf.float64
    np.testing.assert_array_equal(mixed.numpy(), [1, 1, 0, 1])
    np.testing.assert_array_equal(mf.cat([mf.tensor([1.0]), mf.tensor([])]).numpy(), [1.0])
    with pytest.raises(RuntimeError, match="expected equal sizes"):
        mf.cat([x, mf.tensor(np.ones((2, 2), np.float32))])
