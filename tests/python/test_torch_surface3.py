"""Issue 37's third round of torch names, against NumPy references of torch's documented
meaning: add/sub's alpha, nansum / nanmean, tril/triu_indices, block_diag, cartesian_prod,
scatter_reduce, masked_scatter, index_put_, the in-place comparisons, triangles and shape
changes, stride(), and the in-place random fills (by their moments); gradients against finite
differences; the test device equal to the CPU."""
import warnings

import numpy as np
import pytest

import meshflow as mf
from gradcheck import check_gradients

rng = np.random.default_rng(3)


def randn(*shape):
    return rng.standard_normal(shape)


def test_add_and_sub_take_alpha():
    x, y = randn(3, 4), randn(4)
    np.testing.assert_allclose(mf.add(mf.tensor(x), mf.tensor(y), alpha=2.5).numpy(), x + 2.5 * y)
    np.testing.assert_allclose(mf.tensor(x).add(mf.tensor(y), alpha=-1).numpy(), x - y)
    np.testing.assert_allclose(mf.sub(mf.tensor(x), mf.tensor(y), alpha=3).numpy(), x - 3 * y)
    np.testing.assert_allclose(mf.tensor(x).sub(2.0, alpha=0.5).numpy(), x - 1.0)
    np.testing.assert_allclose(mf.sub(1.5, mf.tensor(y), alpha=2).numpy(), 1.5 - 2 * y)
    ints = mf.tensor(np.arange(5))
    got = mf.add(ints, 7, alpha=3)
    assert got.dtype == mf.int64
    np.testing.assert_array_equal(got.numpy(), np.arange(5) + 21)
    with pytest.raises(RuntimeError, match="alpha must not be a floating point"):
        mf.add(ints, ints, alpha=0.5)
    with pytest.raises(TypeError, match="alpha"):
        mf.mul(ints, ints, alpha=2)
    np.testing.assert_allclose(mf.add(mf.tensor(x).to("testdev"), mf.tensor(y).to("testdev"), alpha=2).cpu().numpy(),
                               x + 2 * y)
    gx, gy = check_gradients(lambda a, b: mf.sub(a, b, alpha=1.5), [x, y])
    np.testing.assert_allclose(gy, -1.5 * np.sum(np.random.default_rng(7).uniform(-1, 1, (3, 4)), 0), rtol=1e-10)


def test_nansum_and_nanmean():
    x = randn(4, 5)
    x[0, 1] = x[2, 2] = np.nan
    x[3] = np.nan
    for dim in (None, 0, 1):
        for keepdim in (False, True):
            kw = {} if dim is None else {"axis": dim, "keepdims": keepdim}
            np.testing.assert_allclose(mf.nansum(mf.tensor(x), dim, keepdim).numpy(), np.nansum(x, **kw))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # the all-NaN row: NumPy's NaN, with a warning
                expected = np.nanmean(x, **kw)
            np.testing.assert_allclose(mf.tensor(x).nanmean(dim, keepdim).numpy(), expected)
    np.testing.assert_allclose(mf.nansum(mf.tensor(x).to("testdev"), 1).cpu().numpy(), np.nansum(x, 1))
    with pytest.raises(RuntimeError, match="floating point"):
        mf.nanmean(mf.tensor([1, 2]))
    clean = randn(3, 4)
    g, = check_gradients(lambda a: mf.nanmean(a, 1), [clean])
    np.testing.assert_allclose(g, np.repeat(np.random.default_rng(7).uniform(-1, 1, (3, 1)) / 4, 4, 1), rtol=1e-8)


@pytest.mark.parametrize("row,col,offset", [(4, 6, -1), (5, 3, 1), (3, 3, 2), (3, 3, -5), (0, 2, 0)])
def test_triangle_indices(row, col, offset):
    lower = mf.tril_indices(row, col, offset)
    upper = mf.triu_indices(row, col, offset)
    assert lower.dtype == upper.dtype == mf.int64
    np.testing.assert_array_equal(lower.numpy(), np.stack(np.tril_indices(row, offset, col)))
    np.testing.assert_array_equal(upper.numpy(), np.stack(np.triu_indices(row, offset, col)))
    assert mf.tril_indices(row, col, offset, dtype=mf.int32).dtype == mf.int32


def test_block_diag_and_cartesian_prod():
    a, b, c = randn(2, 3), np.arange(3), np.array(5.0)
    expected = np.zeros((4, 7))
    expected[:2, :3], expected[2, 3:6], expected[3, 6] = a, b, c
    got = mf.block_diag(mf.tensor(a), mf.tensor(b), mf.tensor(c), mf.zeros(0, 2))
    expected = np.concatenate([expected, np.zeros((4, 2))], 1)
    assert got.dtype == mf.float64
    np.testing.assert_array_equal(got.numpy(), expected)
    with pytest.raises(RuntimeError, match="2 or fewer dimensions"):
        mf.block_diag(mf.zeros(1, 1, 1))
    ga, gb = check_gradients(lambda p, q: mf.block_diag(p, q), [randn(2, 2), randn(1, 3)])
    w = np.random.default_rng(7).uniform(-1, 1, (3, 5))
    np.testing.assert_allclose(ga, w[:2, :2])
    np.testing.assert_allclose(gb, w[2:, 2:])
    x, y, z = np.arange(2.0), np.arange(3.0), np.arange(2.0) + 5
    expected = np.array([[p, q, r] for p in x for q in y for r in z])
    np.testing.assert_array_equal(mf.cartesian_prod(mf.tensor(x), mf.tensor(y), mf.tensor(z)).numpy(), expected)
    np.testing.assert_array_equal(mf.cartesian_prod(mf.tensor(x)).numpy(), x)
    with pytest.raises(RuntimeError, match="same dtype"):
        mf.cartesian_prod(mf.tensor(x), mf.tensor([1, 2]))


def scatter_reduce_reference(inp, dim, index, src, reduce, include_self):
    """Element by element in index's row-major order, as torch's CPU loop."""
    out = inp.astype(np.float64).copy()
    count = np.ones_like(out) if include_self else np.zeros_like(out)
    touched = np.zeros(out.shape, bool)
    for pos in np.ndindex(*index.shape):
        target = list(pos)
        target[dim] = index[pos]
        target = tuple(target)
        v = src[pos]
        if not include_self and not touched[target]:
            out[target] = v
        elif reduce in ("sum", "mean"):
            out[target] += v
        elif reduce == "prod":
            out[target] *= v
        elif reduce == "amax":
            out[target] = max(out[target], v)
        else:
            out[target] = min(out[target], v)
        touched[target] = True
        count[target] += 1
    if reduce == "mean":
        divisor = np.where(count == 0, 1, count)
        out = out / divisor if inp.dtype.kind == "f" else np.floor_divide(out, divisor)
    return out.astype(inp.dtype)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(reduce, include_self):
    inp, index, src = randn(3, 4), rng.integers(0, 3, (5, 4)), randn(6, 4)
    for dim, idx in ((0, index), (1, rng.integers(0, 4, (2, 3)))):
        got = mf.scatter_reduce(mf.tensor(inp), dim, mf.tensor(idx), mf.tensor(src), reduce,
                                include_self=include_self)
        np.testing.assert_allclose(got.numpy(), scatter_reduce_reference(inp, dim, idx, src, reduce, include_self),
                                   rtol=1e-12)
    ints = np.arange(12).reshape(3, 4)
    got = mf.tensor(ints).scatter_reduce(1, mf.tensor([[0, 1, 0]] * 3), mf.tensor(np.arange(9).reshape(3, 3) + 1),
                                         reduce, include_self=include_self)
    assert got.dtype == mf.int64
    np.testing.assert_array_equal(got.numpy(), scatter_reduce_reference(ints, 1, np.array([[0, 1, 0]] * 3),
                                                                        np.arange(9).reshape(3, 3) + 1, reduce,
                                                                        include_self))
    on_testdev = mf.scatter_reduce(mf.tensor(inp).to("testdev"), 0, mf.tensor(index).to("testdev"),
                                   mf.tensor(src).to("testdev"), reduce, include_self=include_self)
    np.testing.assert_allclose(on_testdev.cpu().numpy(),
                               scatter_reduce_reference(inp, 0, index, src, reduce, include_self), rtol=1e-12)
    x = mf.tensor(inp)
    x.scatter_reduce_(0, mf.tensor(index), mf.tensor(src), reduce, include_self=include_self)
    np.testing.assert_allclose(x.numpy(), scatter_reduce_reference(inp, 0, index, src, reduce, include_self))
    if reduce in ("sum", "prod", "mean"):  # amax/amin: ties make the finite differences one-sided
        check_gradients(lambda a, s: mf.scatter_reduce(a, 0, mf.tensor(index), s, reduce, include_self=include_self),
                        [inp, src[:5]])



# torch 2.x's values: y, x.grad, src.grad of (y * [1, 2, 3, 4]).sum(), ties of amax and amin
# (x's 4 with two 4s of src at element 1) sharing the gradient evenly.
EXTREME_GRADIENTS = {
    ("amax", True): ([5, 4, 2, 0], [0, 2 / 3, 1.5, 4], [2 / 3, 0, 2 / 3, 0, 1, 1.5]),
    ("amax", False): ([5, 4, 2, 0], [0, 0, 0, 4], [2 / 3, 0, 2 / 3, 0, 1, 1.5]),
    ("amin", True): ([1, 3, -1, 0], [1, 0, 0, 4], [0, 2, 0, 3, 0, 0]),
    ("amin", False): ([5, 3, -1, 0], [0, 0, 0, 4], [0, 2, 0, 3, 1, 0]),
}


@pytest.mark.parametrize("reduce,include_self", list(EXTREME_GRADIENTS))
@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_scatter_reduce_extremes_share_gradients_among_ties(reduce, include_self, device):
    """amax/amin (index_extreme): torch's values and gradients, ties sharing dy evenly."""
    x = mf.tensor([1., 4., 2., 0.]).to(device).requires_grad_(True)
    src = mf.tensor([4., 3., 4., -1., 5., 2.]).to(device).requires_grad_(True)
    y = x.scatter_reduce(0, mf.tensor([1, 1, 1, 2, 0, 2]).to(device), src, reduce, include_self=include_self)
    (y * mf.tensor([1., 2., 3., 4.]).to(device)).sum().backward()
    expected = EXTREME_GRADIENTS[(reduce, include_self)]
    for got, want in zip((y.detach(), x.grad, src.grad), expected):
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-6)

def test_scatter_reduce_refuses_bad_input():
    with pytest.raises(RuntimeError, match="reduce argument"):
        mf.scatter_reduce(mf.zeros(3), 0, mf.tensor([0]), mf.ones(1), "max")
    with pytest.raises(RuntimeError, match="same number of dims"):
        mf.scatter_reduce(mf.zeros(3, 2), 0, mf.tensor([0]), mf.ones(1), "prod")


def test_masked_scatter_and_index_put_():
    inp, mask = randn(3, 4), rng.random((3, 4)) > 0.5
    source = np.arange(20.0)
    expected = inp.copy()
    expected[mask] = source[:mask.sum()]
    np.testing.assert_array_equal(mf.masked_scatter(mf.tensor(inp), mf.tensor(mask), mf.tensor(source)).numpy(),
                                  expected)
    row = mask[0]
    expected = inp.copy()
    expected[np.broadcast_to(row, inp.shape)] = source[:3 * row.sum()]
    x = mf.tensor(inp)
    x.masked_scatter_(mf.tensor(row), mf.tensor(source))
    np.testing.assert_array_equal(x.numpy(), expected)
    with pytest.raises(RuntimeError, match="at least"):
        mf.masked_scatter(mf.tensor(inp), mf.tensor(mask), mf.zeros(1))
    _, g = check_gradients(lambda a, s: mf.masked_scatter(a, mf.tensor(mask), s), [inp, source])
    w = np.random.default_rng(7).uniform(-1, 1, (3, 4))
    np.testing.assert_allclose(g, np.r_[w[mask], np.zeros(20 - mask.sum())])
    x = mf.tensor(inp)
    x.index_put_((mf.tensor([0, 2, 0]), mf.tensor([1, 1, 1])), mf.tensor([7.0, 8.0, 9.0]), accumulate=True)
    expected = inp.copy()
    np.add.at(expected, ([0, 2, 0], [1, 1, 1]), [7.0, 8.0, 9.0])
    np.testing.assert_allclose(x.numpy(), expected)
    x = mf.tensor(inp)
    x.index_copy_(1, mf.tensor([3, 0]), mf.ones(3, 2))
    expected = inp.copy()
    expected[:, [3, 0]] = 1
    np.testing.assert_array_equal(x.numpy(), expected)


def test_in_place_comparisons_triangles_and_shapes():
    inp = randn(3, 4)
    for name, f in (("eq_", np.equal), ("ne_", np.not_equal), ("lt_", np.less), ("le_", np.less_equal),
                    ("gt_", np.greater), ("ge_", np.greater_equal)):
        x = mf.tensor(inp)
        assert getattr(x, name)(0.1) is x
        assert x.dtype == mf.float64
        np.testing.assert_array_equal(x.numpy(), f(inp, 0.1).astype(np.float64))
    for name, f in (("tril_", np.tril), ("triu_", np.triu)):
        x = mf.tensor(inp)
        getattr(x, name)(1)
        np.testing.assert_array_equal(x.numpy(), f(inp, 1))
    x = mf.tensor(inp)
    assert x.unsqueeze_(1) is x and tuple(x.shape) == (3, 1, 4)
    x.transpose_(0, 2)
    np.testing.assert_array_equal(x.numpy(), inp.T[:, None, :])
    x.squeeze_()
    x.t_()
    np.testing.assert_array_equal(x.numpy(), inp)
    y = mf.tensor(inp, requires_grad=True)
    z = y * 2
    z.unsqueeze_(0)
    z.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), np.full((3, 4), 2.0))
    with pytest.raises(RuntimeError, match="leaf"):
        y.unsqueeze_(0)
    x = mf.tensor(inp)
    _ = x[0]
    with pytest.raises(RuntimeError, match="views"):
        x.unsqueeze_(0)
    assert mf.zeros(2, 3, 4).stride() == (12, 4, 1)
    assert mf.zeros(2, 3, 4).stride(1) == 4 and mf.zeros(5).stride(-1) == 1 and mf.tensor(1.0).stride() == ()


def test_in_place_random_fills():
    gen = mf.Generator().manual_seed(5)
    x = mf.zeros(20000, dtype=mf.float64)
    values = x.random_(3, 9, generator=gen).numpy()
    assert set(np.unique(values)) == set(range(3, 9))
    ints = mf.zeros(5000, dtype=mf.int32).random_(4).numpy()
    assert ints.dtype == np.int32 and set(np.unique(ints)) == set(range(4))
    floats = mf.zeros(5000).random_().numpy()
    assert floats.min() >= 0 and floats.max() <= 2 ** 24 and floats.max() > 2 ** 23 and np.all(floats % 1 == 0)
    bits = mf.zeros(20000).bernoulli_(0.3).numpy()
    assert set(np.unique(bits)) == {0.0, 1.0} and abs(bits.mean() - 0.3) < 0.02
    e = mf.zeros(20000, dtype=mf.float64).exponential_(2.0).numpy()
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.02 and abs(e.var() - 0.25) < 0.03
    g = mf.zeros(20000).geometric_(0.25).numpy()
    assert g.min() == 1 and np.all(g % 1 == 0) and abs(g.mean() - 4) < 0.1
    a = mf.zeros(10).exponential_(generator=mf.Generator().manual_seed(1)).numpy()
    b = mf.zeros(10).exponential_(generator=mf.Generator().manual_seed(1)).numpy()
    np.testing.assert_array_equal(a, b)
    with pytest.raises(RuntimeError, match="lambda"):
        mf.zeros(3).exponential_(0)
    with pytest.raises(RuntimeError, match="geometric_"):
        mf.zeros(3).geometric_(1.5)


@pytest.fixture
def float64_default():
    mf.set_default_dtype(mf.float64)
    yield
    mf.set_default_dtype(mf.float32)


def test_default_dtype_reaches_creation_ops_promotion_and_modules(float64_default):
    from test_module_zoo import ZOO
    assert mf.get_default_dtype() == mf.float64
    for made in (mf.zeros(2), mf.ones(2), mf.empty(2), mf.rand(2), mf.randn(2), mf.full((2,), 1.5), mf.arange(0.0, 2),
                 mf.linspace(0, 1, 3), mf.eye(2), mf.tensor([1.5, 2]), mf.tensor(2.5), mf.Tensor(2, 3),
                 mf.logspace(0, 1, 3)):
        assert made.dtype == mf.float64
    assert mf.full((2,), 1).dtype == mf.int64 and mf.arange(3).dtype == mf.int64 and mf.tensor([1]).dtype == mf.int64
    assert mf.FloatTensor([1]).dtype == mf.float32
    assert (mf.zeros(2, dtype=mf.float32) + 2.5).dtype == mf.float32
    assert mf.result_type(mf.tensor([1, 2]), 2.5) == mf.float64
    np.testing.assert_array_equal(mf.tensor([0.1]).numpy(), np.array([0.1]))  # not rounded through float32
    checked = 0
    for name, row in ZOO.items():
        module = row.make()
        for p in module.parameters():
            if p.dtype.name.startswith("float"):
                assert p.dtype == mf.float64, f"{name}: a {p.dtype.name} parameter under a float64 default"
                checked += 1
    assert checked > 20
    with pytest.raises(TypeError, match="default dtype"):
        mf.set_default_dtype(mf.int64)
