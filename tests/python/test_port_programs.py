"""What ported programs met (issue 37, programs round), against NumPy: module hooks (forward,
pre-forward with kwargs, full backward and backward pre-hooks), torch's default_collate and
default_convert, set_default_dtype reaching ops that turn integers into floats, F.interpolate's
'area', 'nearest-exact' and antialias, spectral_norm, and torch's small names (fill_diagonal_,
diag_embed, mode, cov, xlogy, windows, testing.assert_close, ...)."""
import collections
import itertools
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.utils.data import DataLoader, Dataset, default_collate, default_convert


def _linear(w, b):
    m = nn.Linear(w.shape[1], w.shape[0])
    with mf.no_grad():
        m.weight.copy_(mf.tensor(w))
        m.bias.copy_(mf.tensor(b))
    return m


# ---- Module hooks

def test_forward_hooks_see_and_replace_inputs_and_outputs():
    rng = np.random.default_rng(0)
    w, b, x = rng.standard_normal((3, 4)), rng.standard_normal(3), rng.standard_normal((2, 4))
    m = _linear(w, b)
    seen = []
    pre = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
    post = m.register_forward_hook(lambda mod, args, out: seen.append((args[0].numpy(), out.numpy())))
    y = m(mf.tensor(x, dtype=mf.float32))
    np.testing.assert_allclose(y.numpy(), 2 * x @ w.T + b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(seen[0][0], 2 * x, rtol=1e-6)  # the forward hook sees the replaced args
    pre.remove()
    replace = m.register_forward_hook(lambda mod, args, out: out + 1, prepend=True)
    y = m(mf.tensor(x, dtype=mf.float32))
    np.testing.assert_allclose(y.numpy(), x @ w.T + b + 1, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(seen[1][1], x @ w.T + b + 1, rtol=1e-5, atol=1e-5)  # prepended: runs first
    replace.remove()
    post.remove()
    with m.register_forward_hook(lambda mod, args, out: out * 0):
        assert float(m(mf.tensor(x, dtype=mf.float32)).abs().sum()) == 0
    np.testing.assert_allclose(m(mf.tensor(x, dtype=mf.float32)).numpy(), x @ w.T + b, rtol=1e-5, atol=1e-5)


def test_forward_hooks_with_kwargs_and_always_call():
    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            if factor < 0:
                raise ValueError("negative factor")
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs, "factor": kwargs["factor"] * 3}),
                                with_kwargs=True)
    calls = []
    m.register_forward_hook(lambda mod, args, kwargs, out: calls.append(kwargs["factor"]) or out + kwargs["factor"],
                            with_kwargs=True, always_call=True)
    np.testing.assert_allclose(m(mf.tensor([1.0, 2.0]), factor=2.0).numpy(), [12.0, 18.0])
    assert calls == [6.0]
    with pytest.raises(ValueError, match="negative factor"), pytest.warns(UserWarning, match="always_call"):
        m(mf.tensor([1.0]), factor=-1.0)  # the hook sees output None, and its own error is silenced, as torch's
    assert calls == [6.0, -3.0]  # always_call: also when forward raised
    m2 = Scale()
    m2.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match="tuple of \\(new_args, new_kwargs\\)"):
        m2(mf.tensor([1.0]))


def test_full_backward_hooks_see_and_replace_gradients():
    rng = np.random.default_rng(1)
    w, b, x = rng.standard_normal((3, 4)), rng.standard_normal(3), rng.standard_normal((2, 4))
    m = _linear(w, b)
    record = {}

    def pre(mod, grad_output):
        record["pre"] = grad_output[0].numpy()
        return (grad_output[0] * 2,)

    def hook(mod, grad_input, grad_output):
        record["in"], record["out"] = grad_input[0].numpy(), grad_output[0].numpy()
        return (grad_input[0] * 10,)

    m.register_full_backward_pre_hook(pre)
    m.register_full_backward_hook(hook)
    xt = mf.tensor(x, dtype=mf.float32, requires_grad=True)
    g = rng.standard_normal((2, 3))
    (m(xt) * mf.tensor(g, dtype=mf.float32)).sum().backward()
    np.testing.assert_allclose(record["pre"], g, rtol=1e-6)
    np.testing.assert_allclose(record["out"], 2 * g, rtol=1e-6)  # the pre-hook's replacement
    np.testing.assert_allclose(record["in"], 2 * g @ w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(xt.grad.numpy(), 20 * g @ w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(m.weight.grad.numpy(), 2 * g.T @ x, rtol=1e-5, atol=1e-5)


def test_full_backward_hook_without_input_gradients():
    m = _linear(np.ones((2, 3)), np.zeros(2))
    record = []
    m.register_full_backward_hook(lambda mod, gi, go: record.append((gi, go[0].numpy())))
    m(mf.ones(1, 3)).sum().backward()
    assert record[0][0] == (None,)
    np.testing.assert_allclose(record[0][1], [[1.0, 1.0]])
    np.testing.assert_allclose(m.weight.grad.numpy(), np.ones((2, 3)))


def test_hooks_are_not_called_without_grad_and_handles_remove():
    m = _linear(np.ones((2, 3)), np.zeros(2))
    calls = []
    handle = m.register_full_backward_hook(lambda *a: calls.append(1))
    with mf.no_grad():
        m(mf.ones(1, 3))
    handle.remove()
    handle.remove()  # twice is harmless, as torch's
    m(mf.ones(1, 3, requires_grad=True)).sum().backward()
    assert calls == []
    with pytest.raises(TypeError, match="callable"):
        m.register_forward_hook(3)


# ---- DataLoader's collation

Point = collections.namedtuple("Point", "x y")


def test_default_collate_is_torchs():
    batch = [{"t": (np.float32(i), True, 2.5, "s%d" % i), "p": Point(i, [i, i + 1]), "a": np.full(2, i, np.int16)}
             for i in range(3)]
    out = default_collate(batch)
    t = out["t"]
    assert isinstance(t, list) and t[0].dtype == mf.float32 and t[1].dtype == mf.bool and t[2].dtype == mf.float64
    assert t[3] == ("s0", "s1", "s2")  # strings: the samples' tuple, as torch's
    assert isinstance(out["p"], Point) and out["p"].x.tolist() == [0, 1, 2]
    assert [v.tolist() for v in out["p"].y] == [[0, 1, 2], [1, 2, 3]]
    assert out["a"].dtype == mf.int16 and out["a"].tolist() == [[0, 0], [1, 1], [2, 2]]
    assert default_collate(["a", "b"]) == ["a", "b"]
    with pytest.raises(RuntimeError, match="equal size"):
        default_collate([[1, 2], [3]])


def test_default_convert_without_batching():
    class D(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return {"x": np.arange(3) * i, "n": i, "s": "a"}

    samples = list(DataLoader(D(), batch_size=None))
    assert isinstance(samples[1]["x"], mf.Tensor) and samples[1]["x"].tolist() == [0, 1, 2]
    assert samples[1]["n"] == 1 and samples[1]["s"] == "a"
    assert default_convert((np.float64(2.0), [np.ones(2)]))[1][0].dtype == mf.float64
    assert isinstance(default_convert((1, 2)), list)  # a plain tuple becomes a list, as torch's
    assert mf.utils.data.get_worker_info() is None


# ---- set_default_dtype reaches integer -> float ops

def test_default_dtype_reaches_integer_to_float_ops():
    previous = mf.get_default_dtype()
    try:
        mf.set_default_dtype(mf.float64)
        a = mf.arange(4)
        cases = {"div": (a / 3, np.arange(4) / 3), "mul": (a * 0.1, np.arange(4) * 0.1),
                 "add": (0.1 + a, np.arange(4) + 0.1), "sub": (a - 0.1, np.arange(4) - 0.1),
                 "pow": (a ** 0.5, np.arange(4) ** 0.5), "exp": (mf.exp(a), np.exp(np.arange(4))),
                 "sin": (a.sin(), np.sin(np.arange(4))), "sigmoid": (a.sigmoid(), 1 / (1 + np.exp(-np.arange(4)))),
                 "true_divide": (mf.true_divide(a, a + 1), np.arange(4) / np.arange(1, 5))}
        for name, (got, want) in cases.items():
            assert got.dtype == mf.float64, name
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-15, err_msg=name)
        assert (a * 2).dtype == mf.int64 and (a.float() * 0.5).dtype == mf.float32  # no float involved / kept
    finally:
        mf.set_default_dtype(previous)
    assert (mf.arange(4) / 2).dtype == mf.float32


# ---- interpolate: area, nearest-exact, antialias

def _np_area(x, out):
    """Adaptive average pooling of the last len(out) dims, by its definition."""
    for d, m in enumerate(out):
        axis = x.ndim - len(out) + d
        n = x.shape[axis]
        parts = [x.take(range((o * n) // m, -((-(o + 1) * n) // m)), axis=axis).mean(axis=axis, keepdims=True)
                 for o in range(m)]
        x = np.concatenate(parts, axis=axis)
    return x


def _np_nearest_exact(x, out, scales):
    for d, m in enumerate(out):
        axis = x.ndim - len(out) + d
        n = x.shape[axis]
        step = np.float32(n / m if scales[d] is None else 1.0 / scales[d])
        idx = np.minimum(np.floor((np.arange(m, dtype=np.float32) + np.float32(0.5)) * step).astype(int), n - 1)
        x = x.take(idx, axis=axis)
    return x


@pytest.mark.parametrize("shape, kw, out, scales", [
    ((2, 3, 9), dict(size=4), (4,), (None,)),
    ((1, 2, 5, 7), dict(size=(3, 4)), (3, 4), (None, None)),
    ((1, 2, 5, 7), dict(size=(8, 11)), (8, 11), (None, None)),
    ((1, 1, 4, 5, 6), dict(size=(2, 3, 4)), (2, 3, 4), (None,) * 3),
    ((1, 2, 6, 4), dict(scale_factor=1.5), (9, 6), (1.5, 1.5)),
])
def test_interpolate_area_and_nearest_exact(shape, kw, out, scales):
    from gradcheck import check_gradients
    x = np.random.default_rng(2).standard_normal(shape)
    np.testing.assert_allclose(F.interpolate(mf.tensor(x), mode="area", **kw).numpy(), _np_area(x, out),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(F.interpolate(mf.tensor(x), mode="nearest-exact", **kw).numpy(),
                                  _np_nearest_exact(x, out, scales))
    check_gradients(lambda t: F.interpolate(t, mode="area", **kw), [x])
    check_gradients(lambda t: F.interpolate(t, mode="nearest-exact", **kw), [x])
    images = (np.abs(x) * 50).astype(np.uint8)  # nearest-exact keeps integer images as they are
    y = F.interpolate(mf.tensor(images), mode="nearest-exact", **kw)
    assert y.dtype == mf.uint8
    np.testing.assert_array_equal(y.numpy(), _np_nearest_exact(images, out, scales))
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(mf.tensor(x), mode="area", align_corners=False, **kw)


def _np_antialias_1d(x, m, cubic):
    """PIL's resampling filter along the last axis, written from its definition: output o
    averages inputs j with weights filter((j + 0.5 - center) / scale), center (o + 0.5) * scale."""
    n = x.shape[-1]
    scale = n / m
    support = (2.0 if cubic else 1.0) * max(scale, 1.0)

    def filt(t):
        t = abs(t)
        if cubic:
            a = -0.5
            return ((a + 2) * t - (a + 3)) * t * t + 1 if t < 1 else (((t - 5) * t + 8) * t - 4) * a if t < 2 else 0.0
        return max(1.0 - t, 0.0)

    out = np.zeros(x.shape[:-1] + (m,))
    for o in range(m):
        center = (o + 0.5) * scale
        js = range(max(int(center - support + 0.5), 0), min(int(center + support + 0.5), n))
        w = np.array([filt((j - center + 0.5) / max(scale, 1.0)) for j in js])
        out[..., o] = x[..., list(js)] @ (w / w.sum())
    return out


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("size", [(3, 2), (5, 9), (12, 4)])
def test_interpolate_antialias(mode, size):
    x = np.random.default_rng(3).standard_normal((2, 2, 7, 6))
    want = _np_antialias_1d(_np_antialias_1d(x, size[1], mode == "bicubic").swapaxes(-1, -2), size[0],
                            mode == "bicubic").swapaxes(-1, -2)
    got = F.interpolate(mf.tensor(x), size=size, mode=mode, antialias=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    with pytest.raises(NotImplementedError, match="restricted to bilinear and bicubic"):
        F.interpolate(mf.tensor(x), size=size, mode="nearest-exact", antialias=True)


# ---- spectral_norm

def test_spectral_norm_divides_by_the_largest_singular_value():
    rng = np.random.default_rng(4)
    w = rng.standard_normal((4, 6))
    m = nn.utils.spectral_norm(_linear(w, np.zeros(4)), n_power_iterations=50)
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight_orig"]
    assert sorted(m.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    x = rng.standard_normal((3, 6))
    y = m(mf.tensor(x, dtype=mf.float32))
    sigma = np.linalg.svd(w, compute_uv=False)[0]
    np.testing.assert_allclose(m.weight.numpy(), w / sigma, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y.numpy(), x @ (w / sigma).T, rtol=1e-4, atol=1e-4)
    u = m.weight_u.numpy()
    np.testing.assert_allclose(np.abs(u), np.abs(np.linalg.svd(w)[0][:, 0]), rtol=1e-3, atol=1e-4)
    y.sum().backward()
    assert m.weight_orig.grad is not None and m.weight_orig.grad.shape == (4, 6)
    m.eval()
    before = m.weight_u.numpy().copy()
    m(mf.tensor(x, dtype=mf.float32))
    np.testing.assert_array_equal(m.weight_u.numpy(), before)  # no power iteration in eval
    nn.utils.remove_spectral_norm(m)
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight"]
    np.testing.assert_allclose(m.weight.numpy(), w / sigma, rtol=1e-4, atol=1e-5)
    conv = nn.utils.spectral_norm(nn.Conv2d(2, 3, 3))
    assert tuple(conv.weight_u.shape) == (3,) and tuple(conv.weight_v.shape) == (18,)
    with pytest.raises(RuntimeError, match="two spectral_norm hooks"):
        nn.utils.spectral_norm(conv)


# ---- torch's small names

def test_fill_diagonal_and_diag_embed():
    x = np.arange(20.0).reshape(5, 4)
    t = mf.tensor(x)
    t.fill_diagonal_(-1)
    want = x.copy()
    np.fill_diagonal(want, -1)
    np.testing.assert_array_equal(t.numpy(), want)
    t = mf.tensor(x)
    t.fill_diagonal_(7, wrap=True)
    want = x.copy()
    np.fill_diagonal(want, 7, wrap=True)
    np.testing.assert_array_equal(t.numpy(), want)
    cube = mf.zeros(3, 3, 3).fill_diagonal_(1)
    assert cube.sum().item() == 3 and cube[1, 1, 1].item() == 1
    v = np.random.default_rng(5).standard_normal((2, 3))
    for offset in (0, 1, -2):
        want = np.stack([np.diag(r, offset) for r in v])
        np.testing.assert_array_equal(mf.diag_embed(mf.tensor(v), offset).numpy(), want)
    np.testing.assert_array_equal(mf.diag_embed(mf.tensor(v), 0, 0, 2).numpy(),
                                  np.stack([np.diag(r) for r in v]).transpose(1, 0, 2))
    np.testing.assert_array_equal(mf.diagflat(mf.tensor(v), 1).numpy(), np.diagflat(v, 1))


def test_statistics_and_small_math():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 7))
    np.testing.assert_allclose(mf.cov(mf.tensor(x)).numpy(), np.cov(x), rtol=1e-12)
    np.testing.assert_allclose(mf.cov(mf.tensor(x), correction=0).numpy(), np.cov(x, bias=True), rtol=1e-12)
    fw, aw = rng.integers(1, 4, 7), rng.random(7)
    np.testing.assert_allclose(mf.cov(mf.tensor(x), fweights=mf.tensor(fw), aweights=mf.tensor(aw)).numpy(),
                               np.cov(x, fweights=fw, aweights=aw), rtol=1e-10)
    np.testing.assert_allclose(mf.corrcoef(mf.tensor(x)).numpy(), np.corrcoef(x), rtol=1e-12)
    ints = np.array([[3, 1, 3, 2, 1, 1], [5, 5, 4, 4, 0, 9]])
    values, indices = mf.tensor(ints).mode(1)
    assert values.tolist() == [1, 4] and indices.tolist() == [5, 3]  # smallest of ties, its last position
    a, b = np.array([0.0, 0.0, 2.0, 3.0]), np.array([0.0, np.nan, 5.0, 0.5])
    got = mf.xlogy(mf.tensor(a), mf.tensor(b)).numpy()
    np.testing.assert_allclose(got, [0.0, np.nan, 2 * np.log(5.0), 3 * np.log(0.5)])
    np.testing.assert_array_equal(mf.vander(mf.tensor([1, 2, 3]), 3).numpy(), np.vander([1, 2, 3], 3))
    np.testing.assert_array_equal(mf.vander(mf.tensor([1.0, 2.0]), 3, increasing=True).numpy(),
                                  np.vander([1.0, 2.0], 3, increasing=True))
    np.testing.assert_allclose(mf.inner(mf.tensor(x), mf.tensor(x[:2])).numpy(), np.inner(x, x[:2]), rtol=1e-12)
    np.testing.assert_allclose(mf.logaddexp2(mf.tensor(x), mf.tensor(x * 3)).numpy(), np.logaddexp2(x, x * 3),
                               rtol=1e-12)
    c = mf.combinations(mf.tensor([4, 5, 6, 7]), 3).tolist()
    assert c == [list(t) for t in itertools.combinations([4, 5, 6, 7], 3)]
    assert mf.combinations(mf.tensor([1, 2]), with_replacement=True).tolist() == [[1, 1], [1, 2], [2, 2]]
    rows, cols = mf.unravel_index(mf.tensor([0, 5, 11]), (3, 4))
    assert (rows.tolist(), cols.tolist()) == tuple(a.tolist() for a in np.unravel_index([0, 5, 11], (3, 4)))
    np.testing.assert_array_equal(mf.msort(mf.tensor(x)).numpy(), np.sort(x, 0))


def test_windows_are_numpys():
    for n in (1, 2, 7, 10):
        np.testing.assert_allclose(mf.hann_window(n, periodic=False).numpy(), np.hanning(n), atol=1e-7)
        np.testing.assert_allclose(mf.hamming_window(n, periodic=False).numpy(), np.hamming(n), atol=1e-7)
        np.testing.assert_allclose(mf.blackman_window(n, periodic=False, dtype=mf.float64).numpy(), np.blackman(n),
                                   atol=1e-12)
        np.testing.assert_allclose(mf.bartlett_window(n, periodic=False).numpy(), np.bartlett(n), atol=1e-7)
        np.testing.assert_allclose(mf.hann_window(n).numpy(), np.hanning(n + 1)[:-1] if n > 1 else [1.0], atol=1e-7)


def test_settings_constants_and_tensor_properties():
    assert mf.pi == math.pi and mf.inf == math.inf and math.isnan(mf.nan)
    mf.backends.cudnn.benchmark = True
    mf.backends.cuda.matmul.allow_tf32 = True
    mf.set_float32_matmul_precision("high")
    assert mf.get_float32_matmul_precision() == "high"
    mf.set_float32_matmul_precision("highest")
    m = nn.Linear(2, 2)
    assert mf.compile(m)._orig_mod is m and mf.compile()(m)._orig_mod is m  # torch's OptimizedModule
    t = mf.ones(2, 3)
    assert t.ndimension() == 2 and t.nbytes == 24 and t.itemsize == 4 and not t.is_sparse
    assert t.conj() is t and t.pin_memory() is t and not t.is_complex() and t.is_signed()
    assert not mf.ones(1, dtype=mf.uint8).is_signed() and mf.is_nonzero(mf.tensor([2]))
    y = mf.ones(2, requires_grad=True) * 2
    y.detach_()
    assert not y.requires_grad and y.grad_fn is None
    z = mf.ones(3)
    z.multiply_(2).subtract_(1).divide_(4)
    np.testing.assert_allclose(z.numpy(), [0.25] * 3)
    assert mf.special.expit(mf.tensor([0.0])).item() == 0.5
    with mf.autocast("cpu", dtype=mf.bfloat16):
        assert mf.is_autocast_enabled("cpu") and mf.get_autocast_dtype("cpu") == mf.bfloat16
    assert not mf.is_autocast_enabled()


def test_assert_close():
    mf.testing.assert_close(mf.tensor([1.0, 2.0]), mf.tensor([1.0, 2.0 + 1e-7]))
    mf.testing.assert_close({"a": [mf.tensor([1])]}, {"a": [mf.tensor([1])]})
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 2"):
        mf.testing.assert_close(mf.tensor([1.0, 2.0]), mf.tensor([1.0, 2.1]))
    with pytest.raises(AssertionError, match="dtype"):
        mf.testing.assert_close(mf.tensor([1.0]), mf.tensor([1.0], dtype=mf.float64))
    mf.testing.assert_close(mf.tensor([1.0]), mf.tensor([1.1]), rtol=0.2, atol=0)


def test_bool_item_assignment_and_index():
    m = mf.tensor([True, False, True, False])
    m[1:] = m[:-1].clone()  # a top-p mask shifted right, as generation loops write it
    m[0] = False
    assert m.dtype == mf.bool and m.tolist() == [False, True, False, True]
    grid = mf.zeros(2, 3, dtype=mf.bool)
    grid[mf.tensor([0, 1]), mf.tensor([2, 0])] = True
    grid[1] |= mf.tensor([False, True, False])
    assert grid.tolist() == [[False, False, True], [True, True, False]]
    acc = mf.zeros(3, dtype=mf.bool).index_put((mf.tensor([1, 1]),), mf.tensor([True, False]), accumulate=True)
    assert acc.tolist() == [False, True, False]  # accumulated bools are or-ed
    x = mf.arange(10)
    assert x[mf.tensor(2):mf.tensor(5)].tolist() == [2, 3, 4] and list(range(mf.tensor(3))) == [0, 1, 2]
    with pytest.raises(TypeError, match="only integer tensors of a single element"):
        [1, 2][mf.tensor(0.0)]


def test_tensor_keeps_numpy_scalars_dtypes():
    assert mf.tensor(np.int32(2)).dtype == mf.int32 and mf.tensor(np.float64(1.5)).dtype == mf.float64
    assert mf.tensor([np.float64(1.0), 2.0]).dtype == mf.float64
    assert mf.tensor([np.float32(1.0), 2]).dtype == mf.float32
    assert mf.tensor([np.int32(1), 2]).dtype == mf.int64  # promoted with Python's int64
    assert mf.tensor([np.int16(1), np.int8(2)]).dtype == mf.int16
    assert mf.tensor([mf.tensor(1.5, dtype=mf.float64), 2.0]).dtype == mf.float64
    assert mf.tensor([1.0, 2]).dtype == mf.float32 and mf.tensor([True, False]).dtype == mf.bool
    assert repr(nn.Parameter(mf.ones(1))).startswith("Parameter containing:\ntensor(")


def test_quantiles_and_medians_with_nans():
    x = np.array([[1.0, np.nan, 3.0, 2.0, 7.0], [4.0, 5.0, 6.0, 0.5, 9.0], [np.nan] * 5])
    for q in (0.0, 0.3, 0.5, 1.0):
        for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
            got = mf.nanquantile(mf.tensor(x), q, dim=1, interpolation=mode).numpy()
            with pytest.warns(RuntimeWarning, match="All-NaN slice"):  # NumPy's, on the last row
                want = np.nanquantile(x, q, axis=1, method=mode)
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=mode)
            got = mf.quantile(mf.tensor(x), q, dim=1, interpolation=mode).numpy()
            np.testing.assert_allclose(got, np.quantile(x, q, axis=1, method=mode), rtol=1e-12, err_msg=mode)
    np.testing.assert_allclose(mf.tensor(x[:2]).nanquantile(mf.tensor([0.25, 0.75])).numpy(),
                               np.nanquantile(x[:2], [0.25, 0.75]), rtol=1e-12)
    values, indices = mf.tensor(x).nanmedian(1)
    np.testing.assert_array_equal(values.numpy()[:2], [2.0, 5.0])
    assert np.isnan(values.numpy()[2]) and indices.tolist()[:2] == [3, 1]
    assert mf.tensor([1.0, np.nan, 3.0, 2.0]).nanmedian().item() == 2.0


def test_unique_along_a_dim_and_consecutive():
    a = np.array([[1, 2], [3, 4], [1, 2], [0, 9]])
    values, inverse, counts = mf.unique(mf.tensor(a), dim=0, return_inverse=True, return_counts=True)
    want = np.unique(a, axis=0, return_inverse=True, return_counts=True)
    assert values.tolist() == want[0].tolist() and inverse.tolist() == want[1].ravel().tolist()
    assert counts.tolist() == want[2].tolist()
    values, inverse, counts = mf.tensor([1, 1, 2, 2, 3, 1, 1]).unique_consecutive(return_inverse=True,
                                                                                     return_counts=True)
    assert values.tolist() == [1, 2, 3, 1] and counts.tolist() == [2, 2, 1, 2]
    assert inverse.tolist() == [0, 0, 1, 1, 2, 3, 3]
    rows = mf.unique_consecutive(mf.tensor([[1, 1, 2], [1, 1, 2]]), dim=1)
    assert rows.tolist() == [[1, 2], [1, 2]]


def test_linalg_composites():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 3))
    np.testing.assert_allclose(mf.linalg.pinv(mf.tensor(a)).numpy(), np.linalg.pinv(a), rtol=1e-10, atol=1e-12)
    low_rank = a @ rng.standard_normal((3, 5))[:, :2] @ rng.standard_normal((2, 5))
    assert mf.linalg.matrix_rank(mf.tensor(low_rank)).item() == np.linalg.matrix_rank(low_rank) == 2
    sq = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    np.testing.assert_allclose(mf.linalg.cond(mf.tensor(sq)).numpy(), np.linalg.cond(sq), rtol=1e-10)
    np.testing.assert_allclose(mf.linalg.cond(mf.tensor(sq), "fro").numpy(), np.linalg.cond(sq, "fro"), rtol=1e-10)
    mats = [rng.standard_normal(s) for s in ((2, 3), (3, 4), (4, 2))]
    np.testing.assert_allclose(mf.linalg.multi_dot([mf.tensor(m) for m in mats]).numpy(),
                               np.linalg.multi_dot(mats), rtol=1e-12)
    b = rng.standard_normal((3, 2))
    for upper in (True, False):
        t = np.triu(sq[0]) if upper else np.tril(sq[0])
        got = mf.linalg.solve_triangular(mf.tensor(sq[0]), mf.tensor(b), upper=upper).numpy()
        np.testing.assert_allclose(got, np.linalg.solve(t, b), rtol=1e-10)
    np.testing.assert_allclose(mf.linalg.vecdot(mf.tensor(a), mf.tensor(a)).numpy(), (a * a).sum(-1), rtol=1e-12)
    np.testing.assert_allclose(mf.linalg.norm(mf.tensor(sq), ord="nuc").numpy(), np.linalg.norm(sq, "nuc", (-2, -1)),
                               rtol=1e-12)
    np.testing.assert_allclose(mf.linalg.matrix_norm(mf.tensor(sq), ord=-2, keepdim=True).numpy(),
                               np.linalg.norm(sq, -2, (-2, -1), keepdims=True), rtol=1e-12)
    result, info = mf.linalg.inv_ex(mf.tensor(sq))
    np.testing.assert_allclose(result.numpy(), np.linalg.inv(sq), rtol=1e-10)
    assert info.tolist() == [0, 0] and info.dtype == mf.int32
    np.testing.assert_allclose(mf.renorm(mf.tensor(a), 2, 0, 1.0).numpy(),
                               a * np.minimum(1.0, 1.0 / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-7)),
                               rtol=1e-12)


def test_initializers_write_through_data_and_views():
    m = nn.BatchNorm2d(3)
    nn.init.normal_(m.weight.data, 1.0, 0.0)  # DCGAN's weights_init
    nn.init.constant_(m.bias.data, 0.5)
    assert m.weight.tolist() == [1.0] * 3 and m.bias.tolist() == [0.5] * 3
    w = nn.Parameter(mf.zeros(2, 3))
    nn.init.eye_(w.data)
    nn.init.ones_(w.detach()[1])
    np.testing.assert_array_equal(w.numpy(), [[1, 0, 0], [1, 1, 1]])
    assert w.requires_grad and w.is_leaf


def test_augmented_item_assignment_keeps_gradients():
    w = mf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    f = mf.stack([w, w * 2])
    f[:, 0] += 10  # the view's in-place write, then Python's store back of that view
    f[1, 1:] *= 3
    f.pow(2).sum().backward()
    # d/dw of (w0 + 10)^2 + w1^2 + w2^2 + (2 w0 + 10)^2 + (6 w1)^2 + (6 w2)^2
    want = [2 * 11 + 4 * 12, 2 * 2 + 72 * 2, 2 * 3 + 72 * 3]
    np.testing.assert_allclose(w.grad.numpy(), want)
    np.testing.assert_allclose(f.detach().numpy(), [[11, 2, 3], [12, 12, 18]])


def test_trapezoid():
    y = np.array([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]])
    x = np.array([0.0, 1.0, 3.0])
    np.testing.assert_allclose(mf.trapezoid(mf.tensor(y)).numpy(), np.trapz(y, axis=-1))
    np.testing.assert_allclose(mf.trapz(mf.tensor(y), mf.tensor(x)).numpy(), np.trapz(y, x, axis=-1))
    np.testing.assert_allclose(mf.trapezoid(mf.tensor(y), dx=0.5, dim=0).numpy(), np.trapz(y, dx=0.5, axis=0))
    np.testing.assert_allclose(mf.cumulative_trapezoid(mf.tensor(y), dx=2.0).numpy(),
                               np.cumsum((y[:, 1:] + y[:, :-1]), axis=-1))


@pytest.mark.parametrize("norm_type", [1.0, 3.0, float("inf"), 2.0])
def test_clip_grad_norm_of_every_norm_type(norm_type):
    rng = np.random.default_rng(8)
    grads = [rng.standard_normal((3, 4)), rng.standard_normal(5)]
    params = [nn.Parameter(mf.zeros(*g.shape, dtype=mf.float64)) for g in grads]
    for p, g in zip(params, grads):
        p.grad = mf.tensor(g)
    flat = np.concatenate([g.ravel() for g in grads])
    want = np.abs(flat).max() if norm_type == float("inf") else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    total = nn.utils.clip_grad_norm_(params, 0.5, norm_type=norm_type)
    assert total.dtype == mf.float64 and total.item() == pytest.approx(want, rel=1e-12)
    for p, g in zip(params, grads):
        np.testing.assert_allclose(p.grad.numpy(), g * min(0.5 / (want + 1e-6), 1.0), rtol=1e-12)
    assert nn.utils.get_total_norm([p.grad for p in params], norm_type).item() == pytest.approx(
        min(want, 0.5 / (want + 1e-6) * want), rel=1e-9)
    params[0].grad = mf.tensor(np.full((3, 4), np.nan))
    with pytest.raises(RuntimeError, match="non-finite"):
        nn.utils.clip_grad_norm_(params, 1.0, norm_type=norm_type, error_if_nonfinite=True)


def test_distributions_log_probs_entropies_and_kl():
    from meshflow.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence
    rng = np.random.default_rng(9)
    logits = rng.standard_normal((3, 4))
    log_p = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    d = Categorical(logits=mf.tensor(logits))
    a = np.array([0, 3, 1])
    np.testing.assert_allclose(d.log_prob(mf.tensor(a)).numpy(), log_p[np.arange(3), a], rtol=1e-12)
    np.testing.assert_allclose(d.entropy().numpy(), -(np.exp(log_p) * log_p).sum(-1), rtol=1e-12)
    assert d.batch_shape == (3,) and d.event_shape == () and tuple(d.sample((5,)).shape) == (5, 3)
    samples = d.sample((2000,)).numpy()
    assert samples.min() >= 0 and samples.max() <= 3
    np.testing.assert_allclose(np.bincount(samples[:, 0], minlength=4) / 2000, np.exp(log_p[0]), atol=0.05)
    loc, scale, x = np.array([0.0, 1.0]), np.array([1.0, 0.5]), np.array([0.3, 0.2])
    n = Normal(mf.tensor(loc), mf.tensor(scale))
    np.testing.assert_allclose(n.log_prob(mf.tensor(x)).numpy(),
                               -((x - loc) ** 2) / (2 * scale ** 2) - np.log(scale) - 0.5 * np.log(2 * np.pi),
                               rtol=1e-12)
    np.testing.assert_allclose(n.entropy().numpy(), 0.5 + 0.5 * np.log(2 * np.pi) + np.log(scale), rtol=1e-12)
    q_loc, q_scale = np.array([0.5, 0.5]), np.array([2.0, 1.0])
    np.testing.assert_allclose(kl_divergence(n, Normal(mf.tensor(q_loc), mf.tensor(q_scale))).numpy(),
                               np.log(q_scale / scale) + (scale ** 2 + (loc - q_loc) ** 2) / (2 * q_scale ** 2) - 0.5,
                               rtol=1e-12)
    p = np.array([0.3, 0.9])
    b = Bernoulli(probs=mf.tensor(p))
    np.testing.assert_allclose(b.log_prob(mf.tensor([1.0, 0.0])).numpy(), [np.log(0.3), np.log(0.1)], rtol=1e-6)
    np.testing.assert_allclose(b.entropy().numpy(), -(p * np.log(p) + (1 - p) * np.log(1 - p)), rtol=1e-6)
    u = Uniform(mf.tensor(0.0), mf.tensor(2.0))
    assert u.log_prob(mf.tensor(0.5)).item() == pytest.approx(-np.log(2.0))
    with pytest.raises(ValueError, match="within the support"):  # torch validates the value by default
        u.log_prob(mf.tensor(3.0))
    assert Uniform(mf.tensor(0.0), mf.tensor(2.0), validate_args=False).log_prob(mf.tensor(3.0)).item() == -np.inf
    logits_t = mf.tensor(logits, requires_grad=True)
    Categorical(logits=logits_t).log_prob(mf.tensor(a)).sum().backward()
    np.testing.assert_allclose(logits_t.grad.numpy(), np.eye(4)[a] - np.exp(log_p), rtol=1e-10, atol=1e-12)


def test_return_types_print_and_pickle_as_torchs():
    import pickle
    result = mf.tensor([[1, 5], [7, 2]]).max(0)
    assert repr(result) == "meshflow.return_types.max(\nvalues=tensor([7, 5]),\nindices=tensor([1, 0]))"
    values, indices = result
    assert values.tolist() == [7, 5] and result.indices.tolist() == [1, 0]
    for name, r in (("sort", mf.tensor([2, 1]).sort()), ("topk", mf.tensor([2, 1]).topk(1)),
                    ("kthvalue", mf.tensor([2.0, 1.0]).kthvalue(1)), ("median", mf.tensor([[2.0, 1.0]]).median(1)),
                    ("mode", mf.tensor([2, 2, 1]).mode()), ("cummax", mf.tensor([1, 3, 2]).cummax(0)),
                    ("linalg_slogdet", mf.linalg.slogdet(mf.eye(2)))):
        assert type(r).__name__ == name and repr(r).startswith(f"meshflow.return_types.{name}(\n")
    again = pickle.loads(pickle.dumps(mf.tensor([3, 1]).sort()))
    assert type(again).__name__ == "sort" and again.values.tolist() == [1, 3]


def test_embedding_scale_grad_by_freq_and_sparse():
    rng = np.random.default_rng(10)
    w = rng.standard_normal((5, 3))
    idx = np.array([[1, 1, 3], [1, 4, 3]])
    g = rng.standard_normal((2, 3, 3))
    e = nn.Embedding(5, 3, scale_grad_by_freq=True, sparse=True)
    with mf.no_grad():
        e.weight.copy_(mf.tensor(w, dtype=mf.float32))
    out = e(mf.tensor(idx))
    np.testing.assert_allclose(out.numpy(), w[idx], rtol=1e-6)
    (out * mf.tensor(g, dtype=mf.float32)).sum().backward()
    want = np.zeros((5, 3))
    counts = np.bincount(idx.ravel(), minlength=5)
    for (i, j), row in np.ndenumerate(idx):
        want[row] += g[i, j] / counts[row]
    np.testing.assert_allclose(e.weight.grad.numpy(), want, rtol=1e-5, atol=1e-6)
