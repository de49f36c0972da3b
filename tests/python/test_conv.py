"""Convolutional networks' layers against NumPy references written from torch's definitions:
conv1d/conv2d (stride, padding ints / 'same' / 'valid', dilation, groups, bias), max/avg
pooling (1-d, 2-d, ceil_mode, count_include_pad, divisor_override, indices), adaptive
pooling, pad, batch_norm (training, eval, running statistics), group_norm, rms_norm; their
gradients against finite differences; the modules' initialization, buffers and errors."""
import itertools
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(11)


def randn(*shape):
    return RNG.standard_normal(shape)


# ---- NumPy references

def np_conv2d(x, w, b=None, stride=(1, 1), pad=((0, 0), (0, 0)), dilation=(1, 1), groups=1):
    """Cross-correlation as torch defines it, by loops over the kernel's taps."""
    n, cin, h, wd = x.shape
    cout, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pad))
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.zeros((n, cout, oh, ow))
    og = cout // groups
    for co in range(cout):
        g = co // og
        for i, j in itertools.product(range(kh), range(kw)):
            patch = xp[:, g * cg:(g + 1) * cg, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                       j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
            y[:, co] += np.einsum("nchw,c->nhw", patch, w[co, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def windows(size, kernel, stride, pad, dilation, ceil_mode):
    """torch's pooling windows along one axis: lists of input positions (padding dropped)."""
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return [[s + i * dilation for i in range(kernel) if 0 <= s + i * dilation < size]
            for s in (o * stride - pad for o in range(out))]


def adaptive_windows(size, out):
    return [list(range(o * size // out, -(-(o + 1) * size // out))) for o in range(out)]


def np_pool(x, wh, ww, reduce):
    n, c = x.shape[:2]
    y = np.zeros((n, c, len(wh), len(ww)))
    for a, rows in enumerate(wh):
        for b, cols in enumerate(ww):
            y[:, :, a, b] = reduce(x[:, :, rows][:, :, :, cols], a, b)
    return y


# ---- Convolution

CONV2D_CASES = [
    ((2, 3, 7, 6), (4, 3, 3, 2), dict(stride=(2, 1), padding=1, dilation=(1, 2))),
    ((2, 4, 5, 5), (6, 2, 3, 3), dict(groups=2, padding="same")),
    ((1, 2, 6, 6), (2, 2, 2, 2), dict(padding="same", dilation=2)),
    ((3, 2, 5, 4), (3, 2, 1, 1), dict(stride=2)),
    ((2, 3, 8, 8), (5, 3, 3, 3), dict(stride=3, padding=(2, 0), dilation=2)),
    ((2, 4, 6, 6), (4, 1, 3, 3), dict(groups=4, padding="valid")),
]


def np_conv_args(ws, kw):
    """The reference's stride, padding pairs and dilation for F.conv2d's arguments."""
    pair = lambda v: tuple(v) if isinstance(v, tuple) else (v, v)  # noqa: E731
    stride, dilation = pair(kw.get("stride", 1)), pair(kw.get("dilation", 1))
    padding = kw.get("padding", 0)
    if padding == "same":
        total = [d * (k - 1) for d, k in zip(dilation, ws[2:])]
        pad = tuple((t // 2, t - t // 2) for t in total)
    elif padding == "valid":
        pad = ((0, 0), (0, 0))
    else:
        pad = tuple((p, p) for p in pair(padding))
    return dict(stride=stride, pad=pad, dilation=dilation, groups=kw.get("groups", 1))


@pytest.mark.parametrize("xs,ws,kw", CONV2D_CASES)
def test_conv2d_matches_numpy(xs, ws, kw):
    x, w, b = randn(*xs), randn(*ws), randn(ws[0])
    want = np_conv2d(x, w, b, **np_conv_args(ws, kw))
    got = F.conv2d(mf.tensor(x), mf.tensor(w), mf.tensor(b), **kw)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    got32 = F.conv2d(mf.tensor(x.astype(np.float32)), mf.tensor(w.astype(np.float32)), **kw)
    assert got32.dtype == mf.float32
    np.testing.assert_allclose(got32.numpy(), want - b.reshape(1, -1, 1, 1), rtol=1e-4, atol=1e-4)
    # Unbatched input: [C, H, W].
    np.testing.assert_allclose(F.conv2d(mf.tensor(x[0]), mf.tensor(w), **kw).numpy(),
                               np_conv2d(x[:1], w, **np_conv_args(ws, kw))[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("xs,ws,kw", CONV2D_CASES[:3])
def test_conv2d_gradients(xs, ws, kw):
    check_gradients(lambda x, w, b: F.conv2d(x, w, b, **kw), [randn(*xs), randn(*ws), randn(ws[0])])


def test_conv1d():
    x, w, b = randn(2, 4, 9), randn(6, 2, 3), randn(6)
    got = F.conv1d(mf.tensor(x), mf.tensor(w), mf.tensor(b), stride=2, padding=1, dilation=2, groups=2)
    want = np_conv2d(x[:, :, None], w[:, :, None], b, stride=(1, 2), pad=((0, 0), (1, 1)), dilation=(1, 2),
                     groups=2)[:, :, 0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    same = F.conv1d(mf.tensor(x), mf.tensor(w[:, :, :2]), padding="same", groups=2)
    assert same.shape == (2, 6, 9)
    check_gradients(lambda x, w: F.conv1d(x, w, padding="same", groups=2), [x, w[:, :, :2]])


def test_conv_errors():
    x = mf.tensor(randn(2, 4, 5, 5))
    with pytest.raises(ValueError, match=r"\[conv2d\] .*expected C_in and C_out divisible by groups"):
        F.conv2d(x, mf.tensor(randn(3, 3, 3, 3)))
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        F.conv2d(x, mf.tensor(randn(3, 4, 3, 3)), stride=2, padding="same")
    with pytest.raises(ValueError, match="expected 'valid', 'same'"):
        F.conv2d(x, mf.tensor(randn(3, 4, 3, 3)), padding="full")
    with pytest.raises(ValueError, match=r"\[conv2d\] the input has shape \(5,\); expected 4 dims"):
        F.conv2d(mf.tensor(randn(5)), mf.tensor(randn(3, 4, 3, 3)))
    with pytest.raises(ValueError, match=r"smaller than the kernel"):
        F.conv2d(x, mf.tensor(randn(3, 4, 6, 1)))
    with pytest.raises(TypeError, match=r"\[conv2d\] stride is 1.5"):
        F.conv2d(x, mf.tensor(randn(3, 4, 3, 3)), stride=1.5)


# ---- Pooling

POOL_CASES = [
    ((2, 3, 7, 6), dict(kernel_size=2)),
    ((2, 3, 7, 6), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ((1, 2, 9, 8), dict(kernel_size=(3, 2), stride=(2, 3), padding=(1, 1))),
    ((1, 2, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True)),
]


def pool_windows(xs, kw, dilation=(1, 1)):
    pair = lambda v: tuple(v) if isinstance(v, tuple) else (v, v)  # noqa: E731
    k = pair(kw["kernel_size"])
    s = pair(kw.get("stride") or kw["kernel_size"])
    p = pair(kw.get("padding", 0))
    return [windows(xs[2 + a], k[a], s[a], p[a], dilation[a], kw.get("ceil_mode", False)) for a in range(2)]


@pytest.mark.parametrize("xs,kw", POOL_CASES + [((1, 2, 9, 8), dict(kernel_size=(3, 2), padding=1, dilation=(2, 1),
                                                                   stride=1))])
def test_max_pool2d(xs, kw):
    x = randn(*xs)
    dilation = kw.get("dilation", (1, 1))
    wh, ww = pool_windows(xs, kw, dilation)
    want = np_pool(x, wh, ww, lambda block, a, b: block.max(axis=(2, 3)))
    y, idx = F.max_pool2d(mf.tensor(x), **kw, return_indices=True)
    np.testing.assert_array_equal(y.numpy(), want)
    assert idx.dtype == mf.int64
    flat = x.reshape(xs[0], xs[1], -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.numpy().reshape(xs[0], xs[1], -1), 2),
                                  want.reshape(xs[0], xs[1], -1))
    check_gradients(lambda t: F.max_pool2d(t, **kw), [x])


@pytest.mark.parametrize("xs,kw", POOL_CASES + [((2, 3, 7, 6), dict(kernel_size=3, stride=2, padding=1,
                                                                   ceil_mode=True, count_include_pad=False)),
                                               ((1, 2, 5, 5), dict(kernel_size=(2, 3), stride=(2, 1),
                                                                   padding=(1, 1), divisor_override=3))])
def test_avg_pool2d(xs, kw):
    x = randn(*xs)
    wh, ww = pool_windows(xs, kw)
    pair = lambda v: tuple(v) if isinstance(v, tuple) else (v, v)  # noqa: E731
    k, s, p = pair(kw["kernel_size"]), pair(kw.get("stride") or kw["kernel_size"]), pair(kw.get("padding", 0))

    def average(block, a, b):
        if kw.get("divisor_override"):
            return block.sum(axis=(2, 3)) / kw["divisor_override"]
        if not kw.get("count_include_pad", True):
            return block.mean(axis=(2, 3))
        # The window with its padding, clipped at the padded input's end (torch's rule).
        size = [min(o * s[d] - p[d] + k[d], xs[2 + d] + p[d]) - (o * s[d] - p[d]) for d, o in ((0, a), (1, b))]
        return block.sum(axis=(2, 3)) / (size[0] * size[1])

    want = np_pool(x, wh, ww, average)
    np.testing.assert_allclose(F.avg_pool2d(mf.tensor(x), **kw).numpy(), want, rtol=1e-12, atol=1e-12)
    check_gradients(lambda t: F.avg_pool2d(t, **kw), [x])


@pytest.mark.parametrize("xs,out", [((2, 3, 7, 6), (3, 4)), ((1, 2, 5, 5), (5, 5)), ((1, 2, 10, 7), (4, 3)),
                                    ((1, 2, 3, 3), (5, 4))])
def test_adaptive_pooling(xs, out):
    x = randn(*xs)
    wh, ww = adaptive_windows(xs[2], out[0]), adaptive_windows(xs[3], out[1])
    np.testing.assert_allclose(F.adaptive_avg_pool2d(mf.tensor(x), out).numpy(),
                               np_pool(x, wh, ww, lambda block, a, b: block.mean(axis=(2, 3))), rtol=1e-12)
    np.testing.assert_array_equal(F.adaptive_max_pool2d(mf.tensor(x), out).numpy(),
                                  np_pool(x, wh, ww, lambda block, a, b: block.max(axis=(2, 3))))
    check_gradients(lambda t: F.adaptive_avg_pool2d(t, out), [x])
    check_gradients(lambda t: F.adaptive_max_pool2d(t, out), [x])
    # None keeps the input's size; an int is both sizes; unbatched input.
    assert F.adaptive_avg_pool2d(mf.tensor(x), (None, 2)).shape == (xs[0], xs[1], xs[2], 2)
    assert F.adaptive_avg_pool2d(mf.tensor(x[0]), 1).shape == (xs[1], 1, 1)


def test_pool1d():
    x = randn(2, 3, 9)
    wl = windows(9, 3, 2, 1, 1, False)
    y, idx = F.max_pool1d(mf.tensor(x), 3, 2, 1, return_indices=True)
    want = np.stack([x[:, :, cols].max(axis=2) for cols in wl], axis=2)
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(np.take_along_axis(x, idx.numpy(), 2), want)
    avg = F.avg_pool1d(mf.tensor(x), 3, 2, 1, count_include_pad=False)
    np.testing.assert_allclose(avg.numpy(), np.stack([x[:, :, cols].mean(axis=2) for cols in wl], axis=2), rtol=1e-12)


@pytest.mark.parametrize("kw", [dict(kernel_size=4), dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=3, stride=2, dilation=2, ceil_mode=True),
                                dict(kernel_size=2, stride=3, padding=1, ceil_mode=True)])
def test_max_pool1d_float32_nan_and_ties(kw):
    """float32 1-d pooling (max_pool1d's [N, C, 1, L] planes, the direct kernel's taps): a NaN
    wins, the last one; of tied maxima the first; -inf windows give their first position."""
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 3, (2, 3, 23)).astype(np.float32)  # many ties
    x[0, 0, 5], x[0, 1, 7], x[0, 1, 8], x[1, 2, :6] = np.nan, np.nan, np.nan, -np.inf
    s, p, d = kw.get("stride", kw["kernel_size"]), kw.get("padding", 0), kw.get("dilation", 1)
    cols = windows(23, kw["kernel_size"], s, p, d, kw.get("ceil_mode", False))
    y, idx = F.max_pool1d(mf.tensor(x), **kw, return_indices=True)
    for n in range(2):
        for c in range(3):
            for o, w in enumerate(cols):
                w = list(w)
                values = x[n, c, w]
                nans = [i for i, v in zip(w, values) if np.isnan(v)]
                at = nans[-1] if nans else w[int(np.argmax(values))]
                assert idx.numpy()[n, c, o] == at, (n, c, o)
                np.testing.assert_array_equal(y.numpy()[n, c, o], x[n, c, at])


def test_pool_errors():
    x = mf.tensor(randn(2, 3, 4, 4))
    with pytest.raises(ValueError, match=r"\[max_pool2d\] padding 2 is more than half the kernel's size 2"):
        F.max_pool2d(x, 2, padding=2)
    with pytest.raises(ValueError, match=r"\[avg_pool2d\] the input has shape \(5,\)"):
        F.avg_pool2d(mf.tensor(randn(5)), 2)
    with pytest.raises(ValueError, match="divisor_override is 0; expected a positive int"):
        F.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(ValueError, match=r"\[max_pool2d\] the input has shape \[2, 3, 4, 4\]: the output's size"):
        F.max_pool2d(x, 5)


# ---- pad

def test_pad():
    x = randn(2, 3, 4)
    np.testing.assert_array_equal(F.pad(mf.tensor(x), (1, 2)).numpy(), np.pad(x, ((0, 0), (0, 0), (1, 2))))
    np.testing.assert_array_equal(F.pad(mf.tensor(x), (0, 1, 2, 0), value=2.5).numpy(),
                                  np.pad(x, ((0, 0), (2, 0), (0, 1)), constant_values=2.5))
    np.testing.assert_array_equal(F.pad(mf.tensor(x), (-1, 1, 1, -2)).numpy(),
                                  np.pad(x[:, :1, 1:], ((0, 0), (1, 0), (0, 1))))
    i = np.arange(6).reshape(2, 3)
    got = F.pad(mf.tensor(i), (1, 1), value=-1)
    assert got.dtype == mf.int64
    np.testing.assert_array_equal(got.numpy(), np.pad(i, ((0, 0), (1, 1)), constant_values=-1))
    check_gradients(lambda t: F.pad(t, (1, -1, 0, 2), value=3.0), [x])
    np.testing.assert_array_equal(F.pad(mf.tensor(x), (1, 1), mode="circular").numpy(),
                                  np.pad(x, [(0, 0)] * (x.ndim - 1) + [(1, 1)], mode="wrap"))
    with pytest.raises(ValueError, match="doesn't take in value"):
        F.pad(mf.tensor(x), (1, 1), mode="reflect", value=1.0)
    with pytest.raises(ValueError, match=r"\[pad\] pads \[4, 1\] on dim 2 .* expected reflect pads >= 0 and smaller"):
        F.pad(mf.tensor(x), (4, 1), mode="reflect")
    with pytest.raises(ValueError, match=r"\[pad\] pads \[1, 2, 3\]"):
        F.pad(mf.tensor(x), (1, 2, 3))


PAD_CASES = [((2, 5), (2, 3)), ((2, 3, 4), (1, 3, 2, 0)), ((1, 2, 3, 4, 5), (1, 2, 0, 1, 2, 2))]


@pytest.mark.parametrize("mode,shape,pads", [(m, s, p) for m in ("reflect", "replicate") for s, p in PAD_CASES] +
                         [("replicate", (3, 1), (0, 2))])  # a dim of one element: reflect has nothing to mirror
def test_pad_reflect_and_replicate(mode, shape, pads):
    x = randn(*shape)
    widths = [(0, 0)] * (len(shape) - len(pads) // 2) + [(pads[2 * i], pads[2 * i + 1])
                                                           for i in reversed(range(len(pads) // 2))]
    want = np.pad(x, widths, mode="reflect" if mode == "reflect" else "edge")
    np.testing.assert_array_equal(F.pad(mf.tensor(x), pads, mode=mode).numpy(), want)
    check_gradients(lambda t: F.pad(t, pads, mode=mode), [x])


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize("shape,pads", [((4, 8, 20, 30), (3, 2, 1, 4)), ((2, 3, 4, 5, 6), (1, 2, 0, 3, 2, 1)),
                                        ((3, 40), (5, 7))])
def test_pad_backward_is_the_scatter_add_of_dy(mode, shape, pads):
    """dx sums dy over the elements that read each input element, in ascending order of dy's
    index (np.add.at's), so the bits match; the first case is large enough to run on the team."""
    x = randn(*shape)
    widths = [(0, 0)] * (len(shape) - len(pads) // 2) + [(pads[2 * i], pads[2 * i + 1])
                                                           for i in reversed(range(len(pads) // 2))]
    source = np.pad(np.arange(x.size).reshape(shape), widths, mode="reflect" if mode == "reflect" else "edge")
    dy = randn(*source.shape)
    want = np.zeros(x.size)
    np.add.at(want, source.ravel(), dy.ravel())
    t = mf.tensor(x, requires_grad=True)
    F.pad(t, pads, mode=mode).backward(mf.tensor(dy))
    np.testing.assert_array_equal(t.grad.numpy(), want.reshape(shape))
    np.testing.assert_array_equal(F.pad(mf.tensor(x), pads, mode=mode).numpy(), x.ravel()[source])


def np_nearest(x, out, scales):
    """torch's nearest source index per dim: floor(o * scale) in float32, clamped."""
    for d, (n_out, s) in enumerate(zip(out, scales)):
        n_in = x.shape[2 + d]
        scale = np.float32(1 / s) if s else np.float32(n_in) / np.float32(n_out)
        src = np.minimum(np.floor(np.arange(n_out, dtype=np.float32) * scale).astype(np.int64), n_in - 1)
        if n_out == n_in:
            src = np.arange(n_out)
        elif n_out == 2 * n_in:
            src = np.arange(n_out) // 2
        x = np.take(x, src, axis=2 + d)
    return x


@pytest.mark.parametrize("shape,kw,out,scales", [
    ((2, 3, 5), dict(size=7), (7,), (None,)),
    ((2, 3, 5), dict(scale_factor=1.5), (7,), (1.5,)),
    ((1, 2, 4, 5), dict(size=(8, 3)), (8, 3), (None, None)),
    ((1, 2, 4, 5), dict(scale_factor=(2, 0.7)), (8, 3), (2, 0.7)),
    ((1, 1, 3, 4, 5), dict(size=(6, 4, 2)), (6, 4, 2), (None,) * 3),
    ((1, 2, 7, 6), dict(scale_factor=1.7, recompute_scale_factor=True), (11, 10), (None, None)),
])
def test_interpolate_nearest(shape, kw, out, scales):
    x = randn(*shape)
    y = F.interpolate(mf.tensor(x), **kw)
    np.testing.assert_array_equal(y.numpy(), np_nearest(x, out, scales))
    check_gradients(lambda t: F.interpolate(t, **kw), [x])
    assert nn.Upsample(**kw)(mf.tensor(x)).shape == y.shape
    with pytest.raises(NotImplementedError, match="mode 'lanczos'"):
        F.interpolate(mf.tensor(x), scale_factor=2, mode="lanczos")
    with pytest.raises(ValueError, match="exactly one of size and scale_factor"):
        F.interpolate(mf.tensor(x))


# ---- Normalization

def np_batch_norm(x, w, b, eps):
    dims = (0,) + tuple(range(2, x.ndim))
    view = (1, -1) + (1,) * (x.ndim - 2)
    mean, var = x.mean(dims, keepdims=True), x.var(dims, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w.reshape(view) + b.reshape(view)


def test_batch_norm_functional():
    x, w, b = randn(4, 3, 5, 2), randn(3), randn(3)
    got = F.batch_norm(mf.tensor(x), None, None, mf.tensor(w), mf.tensor(b), training=True, eps=1e-3)
    np.testing.assert_allclose(got.numpy(), np_batch_norm(x, w, b, 1e-3), rtol=1e-10, atol=1e-12)
    rm, rv = mf.tensor(randn(3)), mf.tensor(np.abs(randn(3)) + 0.5)
    rm0, rv0 = rm.numpy().copy(), rv.numpy().copy()
    F.batch_norm(mf.tensor(x), rm, rv, training=True, momentum=0.25)
    dims = (0, 2, 3)
    np.testing.assert_allclose(rm.numpy(), 0.75 * rm0 + 0.25 * x.mean(dims), rtol=1e-12)
    np.testing.assert_allclose(rv.numpy(), 0.75 * rv0 + 0.25 * x.var(dims, ddof=1), rtol=1e-12)
    # Eval: the running statistics.
    ev = F.batch_norm(mf.tensor(x), rm, rv, mf.tensor(w), mf.tensor(b))
    np.testing.assert_allclose(ev.numpy(), (x - rm.numpy().reshape(1, 3, 1, 1)) /
                               np.sqrt(rv.numpy().reshape(1, 3, 1, 1) + 1e-5) * w.reshape(1, 3, 1, 1) +
                               b.reshape(1, 3, 1, 1), rtol=1e-12)
    check_gradients(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), [x, w, b])
    check_gradients(lambda x: F.batch_norm(x, None, None, training=True), [randn(5, 3)])
    with pytest.raises(ValueError, match="expected more than 1 value per channel when training"):
        F.batch_norm(mf.tensor(randn(1, 3)), None, None, training=True)


def test_batch_norm_local_stats_on_a_local_tensor_is_the_batch():
    x = randn(4, 3, 2, 2)
    a = F.batch_norm(mf.tensor(x), None, None, training=True, local_stats=True)
    np.testing.assert_allclose(a.numpy(), np_batch_norm(x, np.ones(3), np.zeros(3), 1e-5), rtol=1e-10)


@pytest.mark.parametrize("cls,shape,kw", [(nn.BatchNorm2d, (4, 3, 5, 2), {}),
                                          (nn.BatchNorm1d, (6, 3), dict(momentum=None)),
                                          (nn.BatchNorm1d, (4, 3, 5), dict(affine=False, momentum=0.3)),
                                          (nn.BatchNorm2d, (4, 3, 2, 2), dict(track_running_stats=False)),
                                          (nn.SyncBatchNorm, (4, 3, 2), {})])
def test_batch_norm_modules(cls, shape, kw):
    m = cls(3, eps=1e-4, **kw)
    dims = (0,) + tuple(range(2, len(shape)))
    view = (1, -1) + (1,) * (len(shape) - 2)
    rm, rv = np.zeros(3), np.ones(3)
    for step in range(1, 4):
        x = randn(*shape).astype(np.float32)
        y = m(mf.tensor(x))
        assert y.dtype == mf.float32
        np.testing.assert_allclose(y.numpy(), np_batch_norm(x.astype(np.float64), np.ones(3), np.zeros(3), 1e-4),
                                   rtol=1e-4, atol=1e-5)
        momentum = 1 / step if kw.get("momentum", 0.1) is None else kw.get("momentum", 0.1)
        rm = (1 - momentum) * rm + momentum * x.mean(dims)
        rv = (1 - momentum) * rv + momentum * x.var(dims, ddof=1)
        if m.track_running_stats:
            np.testing.assert_allclose(m.running_mean.numpy(), rm, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(m.running_var.numpy(), rv, rtol=1e-5, atol=1e-6)
            assert int(m.num_batches_tracked.item()) == step
    m.eval()
    x = randn(*shape).astype(np.float32)
    if m.track_running_stats:
        want = (x - rm.reshape(view)) / np.sqrt(rv.reshape(view) + 1e-4)
    else:
        want = np_batch_norm(x.astype(np.float64), np.ones(3), np.zeros(3), 1e-4)
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), want, rtol=1e-4, atol=1e-5)
    assert (m.weight is None) == (kw.get("affine") is False)


def test_batch_norm_module_errors():
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(mf.tensor(randn(2, 3, 4)))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(mf.tensor(randn(2, 3, 4, 1)))


def test_group_norm():
    x, w, b = randn(2, 6, 3, 2), randn(6), randn(6)
    g = x.reshape(2, 3, -1)
    want = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    want = want * w.reshape(1, 6, 1, 1) + b.reshape(1, 6, 1, 1)
    np.testing.assert_allclose(F.group_norm(mf.tensor(x), 3, mf.tensor(w), mf.tensor(b)).numpy(), want, rtol=1e-10,
                               atol=1e-12)
    check_gradients(lambda x, w, b: F.group_norm(x, 3, w, b), [x, w, b])
    m = nn.GroupNorm(2, 6)
    np.testing.assert_allclose(m.weight.numpy(), np.ones(6))
    assert m(mf.tensor(x.astype(np.float32))).shape == x.shape
    with pytest.raises(ValueError, match="divisible by num_groups"):
        nn.GroupNorm(4, 6)
    with pytest.raises(ValueError, match=r"\[group_norm\]"):
        F.group_norm(mf.tensor(x), 4)


@pytest.mark.parametrize("shape, groups", [((3, 6, 5), 3), ((2, 4, 3, 5), 1), ((2, 8, 2, 3, 2), 8), ((4, 6), 2)])
def test_group_norm_float32_far_from_zero_matches_float64(shape, groups):
    # The group's values 1e4 apart from 0 with a spread of 1: sums shifted by a value of the
    # group keep float32 from cancelling.
    rng = np.random.default_rng(3)
    x, w, b, dy = rng.standard_normal(shape) + 1e4, rng.standard_normal(shape[1]), rng.standard_normal(shape[1]), \
        rng.standard_normal(shape)
    results = {}
    for dtype in ("float64", "float32"):
        t, tw, tb = (mf.tensor(a.astype(dtype), requires_grad=True) for a in (x, w, b))
        y = F.group_norm(t, groups, tw, tb)
        y.backward(mf.tensor(dy.astype(dtype)))
        results[dtype] = [y.numpy(), t.grad.numpy(), tw.grad.numpy(), tb.grad.numpy()]
    for got, want in zip(results["float32"], results["float64"]):
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3 * np.abs(want).max())
    # The test device runs the CPU's kernels on its own memory: the same bits.
    t = mf.tensor(x.astype(np.float32))
    np.testing.assert_array_equal(F.group_norm(t.to("testdev"), groups).cpu().numpy(), F.group_norm(t, groups).numpy())


def test_rms_norm():
    x, w = randn(2, 3, 4), randn(3, 4)
    got = F.rms_norm(mf.tensor(x), (3, 4), mf.tensor(w), eps=1e-3)
    want = x / np.sqrt((x * x).mean((1, 2), keepdims=True) + 1e-3) * w
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    # eps=None: the dtype's machine epsilon, as torch 2.4.
    x32 = x.astype(np.float32)
    got32 = F.rms_norm(mf.tensor(x32), 4)
    want32 = x32 / np.sqrt((x32 * x32).mean(2, keepdims=True) + np.finfo(np.float32).eps)
    np.testing.assert_allclose(got32.numpy(), want32, rtol=1e-6)
    check_gradients(lambda x, w: F.rms_norm(x, [4], w), [x, w[0]])
    m = nn.RMSNorm([4])
    assert m.weight.shape == (4,) and m.eps is None
    assert nn.RMSNorm(4, elementwise_affine=False).weight is None
    with pytest.raises(ValueError, match=r"\[rms_norm\] normalized_shape \[3\]"):
        F.rms_norm(mf.tensor(x), 3)


# ---- Modules

def test_conv_modules():
    mf.manual_seed(3)
    m = nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2)
    assert m.weight.shape == (6, 2, 3, 3) and m.bias.shape == (6,)
    bound = 1 / math.sqrt(2 * 9)  # torch's kaiming_uniform_(a=sqrt(5)): 1 / sqrt(fan_in)
    for p in (m.weight, m.bias):
        v = p.numpy()
        assert np.abs(v).max() <= bound and np.abs(v).max() > 0.5 * bound
    x = randn(2, 4, 7, 7).astype(np.float32)
    want = np_conv2d(x, m.weight.numpy(), m.bias.numpy(), stride=(2, 2), pad=((1, 1), (1, 1)), groups=2)
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), want, rtol=1e-4, atol=1e-5)
    assert repr(m) == "Conv2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), groups=2)"
    c1 = nn.Conv1d(3, 5, 2, padding="same", bias=False)
    assert c1.weight.shape == (5, 3, 2) and c1.bias is None
    assert c1(mf.tensor(randn(2, 3, 8).astype(np.float32))).shape == (2, 5, 8)
    assert [n for n, _ in nn.Conv2d(1, 2, 3).named_parameters()] == ["weight", "bias"]
    with pytest.raises(ValueError, match="padding_mode 'mirror'; expected 'zeros', 'reflect'"):
        nn.Conv2d(1, 2, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)


def test_pool_modules():
    x = mf.tensor(randn(2, 3, 8, 8))
    assert nn.MaxPool2d(2)(x).shape == (2, 3, 4, 4)
    y, idx = nn.MaxPool2d(3, 2, 1, return_indices=True)(x)
    assert y.shape == idx.shape == (2, 3, 4, 4)
    assert nn.AvgPool2d(3, stride=1, padding=1)(x).shape == (2, 3, 8, 8)
    assert nn.AdaptiveAvgPool2d((1, 1))(x).shape == (2, 3, 1, 1)
    assert nn.AdaptiveMaxPool2d(2)(x).shape == (2, 3, 2, 2)
    assert nn.MaxPool1d(2)(mf.tensor(randn(2, 3, 8))).shape == (2, 3, 4)
    assert nn.AvgPool1d(4)(mf.tensor(randn(2, 3, 8))).shape == (2, 3, 2)


def _train(model, opt, x, y, steps):
    """Eager steps of cross-entropy training; the losses, one a step."""
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def test_small_cnn_trains():
    mf.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(4, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(8, 3))
    x = mf.tensor(np.random.default_rng(0).standard_normal((12, 1, 8, 8)).astype(np.float32))
    y = mf.tensor(np.arange(12) % 3)
    losses = _train(model, mf.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.0), x, y, 10)
    assert losses[-1] < 0.5 * losses[0], losses


def test_graph_mode_runs_the_layers_as_eager():
    x = mf.tensor(RNG.standard_normal((4, 1, 6, 6)).astype(np.float32))
    y = mf.tensor(np.arange(4) % 3)

    def make(track):
        mf.manual_seed(1)
        model = nn.Sequential(nn.Conv2d(1, 3, 3, padding="same"), nn.BatchNorm2d(3, track_running_stats=track),
                              nn.ReLU(), nn.AvgPool2d(2), nn.Conv2d(3, 4, 2, stride=2, bias=False), nn.MaxPool2d(1),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
        return model, mf.optim.SGD(model.parameters(), lr=0.1)

    class Step(mf.nn.Graph):
        def __init__(self, model, opt):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)

        def build(self, x, y):
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            return loss

    for track in (False, True):
        eager_model, eager_opt = make(track)
        eager = _train(eager_model, eager_opt, x, y, 3)
        model, opt = make(track)
        step = Step(model, opt)
        np.testing.assert_allclose([step(x, y).item() for _ in range(3)], eager, rtol=1e-5)
        for name, buffer in eager_model.named_buffers():  # the running statistics, updated at every call
            np.testing.assert_allclose(dict(model.named_buffers())[name].numpy(), buffer.numpy(), rtol=1e-5)


@pytest.mark.parametrize("case", ["conv2d", "pointwise", "grouped", "transposed", "conv3d"])
@pytest.mark.parametrize("channels_last", [False, True])
def test_bias_inside_the_op_is_the_added_bias(case, channels_last):
    """A local convolution's bias is its op's own input (conv2d/3d: oneDNN's primitive bias;
    conv_transpose: one pass over the data gradient op's output), its gradient dy's sum: values
    and every gradient as the convolution without a bias plus an add, in float64."""
    rng = np.random.default_rng(7)
    x_shape, w_shape, call = {
        "conv2d": ((3, 8, 9, 7), (16, 8, 3, 3), lambda x, w, b: F.conv2d(x, w, b, padding=1)),
        "pointwise": ((3, 8, 9, 7), (16, 8, 1, 1), lambda x, w, b: F.conv2d(x, w, b)),
        "grouped": ((3, 8, 9, 7), (16, 2, 3, 3), lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, groups=4)),
        "transposed": ((3, 8, 9, 7), (8, 6, 4, 4), lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1)),
        "conv3d": ((2, 4, 5, 6, 7), (6, 4, 3, 3, 3), lambda x, w, b: F.conv3d(x, w, b, padding=1)),
    }[case]
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = (rng.standard_normal(w_shape) * 0.2).astype(np.float32)
    b = rng.standard_normal(w_shape[1] if case == "transposed" else w_shape[0]).astype(np.float32)
    leaves = [mf.tensor(a, requires_grad=True) for a in (x, w, b)]
    xin = leaves[0].to(memory_format=mf.channels_last if len(x_shape) == 4 else mf.channels_last_3d) \
        if channels_last else leaves[0]
    y = call(xin, leaves[1], leaves[2])
    assert y.grad_fn.name() == "ConvolutionBackward0"
    g = rng.standard_normal(tuple(y.shape))
    (y * mf.tensor(g.astype(np.float32))).sum().backward()
    wide = [mf.tensor(a.astype(np.float64), requires_grad=True) for a in (x, w, b)]
    expected = call(wide[0], wide[1], None) + wide[2].reshape([1, -1] + [1] * (len(x_shape) - 2))
    (expected * mf.tensor(g)).sum().backward()
    np.testing.assert_allclose(y.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-4)
    for got, want in zip(leaves, wide):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_bias_inside_the_op_in_bfloat16_and_a_second_backward():
    rng = np.random.default_rng(8)
    x, w, b = (mf.tensor(rng.standard_normal(s)) for s in ((2, 4, 6, 6), (8, 4, 3, 3), (8,)))
    got = F.conv2d(x.bfloat16(), w.bfloat16(), b.bfloat16(), padding=1)
    want = (F.conv2d(x.bfloat16().double(), w.bfloat16().double(), padding=1)
            + b.bfloat16().double().reshape(1, -1, 1, 1))
    assert got.dtype == mf.bfloat16
    np.testing.assert_allclose(got.double().numpy(), want.numpy(), rtol=2e-2, atol=5e-2)
    wt = w.transpose(0, 1).contiguous()  # [C_in 4, C_out 8, 3, 3]
    got = F.conv_transpose2d(x.bfloat16(), wt.bfloat16(), b.bfloat16(), stride=2)
    want = F.conv_transpose2d(x.bfloat16().double(), wt.bfloat16().double(), stride=2)
    np.testing.assert_allclose(got.double().numpy(), (want + b.bfloat16().double().reshape(1, -1, 1, 1)).numpy(),
                               rtol=2e-2, atol=5e-2)
    xs, bs = x.clone().requires_grad_(True), b.clone().requires_grad_(True)
    (gx,) = mf.autograd.grad(F.conv2d(xs, w, bs, padding=1).square().sum(), [xs], create_graph=True)
    (gb,) = mf.autograd.grad(gx.sum(), [bs])  # through dy = 2 y, which reads the bias
    xr, br = x.clone().requires_grad_(True), b.clone().requires_grad_(True)
    (gxr,) = mf.autograd.grad((F.conv2d(xr, w, padding=1) + br.reshape(1, -1, 1, 1)).square().sum(), [xr],
                              create_graph=True)
    np.testing.assert_allclose(gb.numpy(), mf.autograd.grad(gxr.sum(), [br])[0].numpy(), rtol=1e-10)
