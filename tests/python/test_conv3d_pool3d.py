"""3-d convolutions (conv3d, conv_transpose3d and their modules) and pooling of 2 and 3
spatial dims against NumPy references written from torch's definitions: values and both
gradients in float64 (the direct kernels), float32 and bfloat16 (oneDNN's primitives where
they give torch's values, the direct kernels elsewhere: NaN and -inf inputs, ceil_mode windows
past the padding with count_include_pad, divisor_override, adaptive windows of uneven size);
max pooling's indices exactly, ties to the first maximum; the test device equal to the CPU;
a 3-d network in graph mode equal to eager."""
import itertools

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(37)


def randn(*shape):
    return RNG.standard_normal(shape)


def rounded(a, dtype):
    """a as the kernel sees it: rounded to float32, then to dtype."""
    return mf.tensor(a.astype(np.float32)).to(dtype).float().numpy().astype(np.float64)


def assert_close(got, want, rel):
    np.testing.assert_allclose(got, want, rtol=rel, atol=rel * max(1.0, np.abs(want).max()))


# ---- NumPy references

def conv_taps(x_shape, w_shape, stride, pad, dilation):
    """The output's spatial size, and for each tap of the kernel the slices of the padded input
    it reads for every output (torch's cross-correlation over the last k dims)."""
    k = len(w_shape) - 2
    out = [(x_shape[2 + a] + sum(pad[a]) - dilation[a] * (w_shape[2 + a] - 1) - 1) // stride[a] + 1 for a in range(k)]
    taps = []
    for tap in itertools.product(*(range(n) for n in w_shape[2:])):
        taps.append((tap, tuple(slice(t * d, t * d + s * (o - 1) + 1, s)
                                for t, d, s, o in zip(tap, dilation, stride, out))))
    return out, taps


def np_conv(x, w, stride, pad, dilation, groups):
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pad))
    out, taps = conv_taps(x.shape, w.shape, stride, pad, dilation)
    cout, cg = w.shape[:2]
    y = np.zeros((x.shape[0], cout) + tuple(out))
    for co in range(cout):
        g = co // (cout // groups)
        for tap, window in taps:
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + window]
            y[:, co] += np.tensordot(patch, w[(co, slice(None)) + tap], axes=([1], [0]))
    return y


def np_conv_grads(x, w, dy, stride, pad, dilation, groups):
    """dx and dw of sum(conv(x, w) * dy)."""
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pad))
    dxp, dw = np.zeros_like(xp), np.zeros_like(w)
    cout, cg = w.shape[:2]
    for co in range(cout):
        g = co // (cout // groups)
        ch = slice(g * cg, (g + 1) * cg)
        for tap, window in conv_taps(x.shape, w.shape, stride, pad, dilation)[1]:
            patch = xp[(slice(None), ch) + window]
            spatial = tuple(range(2, x.ndim))
            dw[(co, slice(None)) + tap] = np.tensordot(patch, dy[:, co], axes=((0,) + spatial, (0,) + tuple(
                range(1, x.ndim - 1))))
            dxp[(slice(None), ch) + window] += dy[:, co][:, None] * w[(co, slice(None)) + tap].reshape(
                (1, cg) + (1,) * (x.ndim - 2))
    inner = tuple(slice(p[0], p[0] + n) for p, n in zip(pad, x.shape[2:]))
    return dxp[(slice(None), slice(None)) + inner], dw


def windows(size, kernel, stride, pad, dilation, ceil_mode):
    """torch's pooling windows along one axis: (start, input positions) (padding dropped)."""
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return [(s, [s + i * dilation for i in range(kernel) if 0 <= s + i * dilation < size])
            for s in (o * stride - pad for o in range(out))]


def adaptive_windows(size, out):
    return [(o * size // out, list(range(o * size // out, -(-(o + 1) * size // out)))) for o in range(out)]


def axes_of(xs, kw, dims):
    """Per spatial axis: its windows and, for avg pooling with padding counted, each window's
    divisor factor min(start + kernel, size + pad) - start (torch's)."""
    t = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,) * dims  # noqa: E731
    k, p, d = t(kw["kernel_size"]), t(kw.get("padding", 0)), t(kw.get("dilation", 1))
    s = t(kw.get("stride") or kw["kernel_size"])
    axes = []
    for a in range(dims):
        size = xs[2 + a]
        wins = windows(size, k[a], s[a], p[a], d[a], kw.get("ceil_mode", False))
        axes.append([(pos, min(start + k[a], size + p[a]) - start) for start, pos in wins])
    return axes


def np_pool(x, axes, kind, count_include_pad=True, divisor_override=None):
    """max (values and flat indices: the first maximum, or the last NaN) or avg over the
    windows of `axes` (per axis: (input positions, padded extent))."""
    spatial = x.shape[2:]
    flat_x = x.reshape(x.shape[:2] + (-1,))
    out_shape = x.shape[:2] + tuple(len(a) for a in axes)
    y, idx = np.zeros(out_shape), np.zeros(out_shape, np.int64)
    for o in itertools.product(*(range(len(a)) for a in axes)):
        parts = [axes[a][o[a]] for a in range(len(axes))]
        flat = [np.ravel_multi_index(p, spatial) for p in itertools.product(*(part[0] for part in parts))]
        vals = flat_x[:, :, flat]
        at = (slice(None), slice(None)) + o
        if kind == "max":
            nan = np.isnan(vals)
            last_nan = vals.shape[2] - 1 - np.argmax(nan[:, :, ::-1], axis=2)
            pick = np.where(nan.any(axis=2), last_nan, np.argmax(np.where(nan, -np.inf, vals), axis=2))
            y[at] = np.take_along_axis(vals, pick[:, :, None], 2)[:, :, 0]
            idx[at] = np.array(flat)[pick]
        else:
            divisor = divisor_override or (np.prod([part[1] for part in parts]) if count_include_pad else len(flat))
            y[at] = vals.sum(axis=2) / divisor
    return y, idx


def np_pool_backward(dy, idx, x_shape):
    """max pooling's dx: dy added at each output's index."""
    dx = np.zeros(x_shape[:2] + (int(np.prod(x_shape[2:])),))
    for n, c in itertools.product(range(x_shape[0]), range(x_shape[1])):
        np.add.at(dx[n, c], idx[n, c].ravel(), dy[n, c].ravel())
    return dx.reshape(x_shape)


# ---- conv3d

# (x shape, w shape, F.conv3d's arguments, the reference's stride, pads, dilation, groups)
CONV3D_CASES = [
    ((2, 3, 5, 6, 4), (4, 3, 3, 3, 2), dict(padding=1), ((1, 1, 1), ((1, 1),) * 3, (1, 1, 1), 1)),
    ((2, 4, 6, 5, 5), (6, 2, 2, 3, 2), dict(stride=(2, 1, 2), padding=(1, 0, 1), dilation=(1, 2, 1), groups=2),
     ((2, 1, 2), ((1, 1), (0, 0), (1, 1)), (1, 2, 1), 2)),
    # 'same' with an even kernel: one more element of padding at the end.
    ((1, 2, 4, 5, 6), (3, 2, 2, 3, 2), dict(padding="same"), ((1, 1, 1), ((0, 1), (1, 1), (0, 1)), (1, 1, 1), 1)),
    ((2, 3, 4, 4, 4), (3, 1, 3, 3, 3), dict(groups=3, stride=2, padding="valid"), ((2, 2, 2), ((0, 0),) * 3,
                                                                               (1, 1, 1), 3)),
    ((3, 4, 2, 3, 5), (5, 4, 1, 1, 1), dict(), ((1, 1, 1), ((0, 0),) * 3, (1, 1, 1), 1)),  # pointwise
]


def conv3d_and_grads(device, dtype, x, w, dy, kw):
    put = lambda a: mf.tensor(a.astype(np.float32), device=device).to(dtype).requires_grad_()  # noqa: E731
    tx, tw = put(x), put(w)
    y = F.conv3d(tx, tw, **kw)
    assert y.dtype == dtype and y.device.type == device
    y.backward(put(dy).detach())
    return [t.float().numpy().astype(np.float64) for t in (y, tx.grad, tw.grad)]


@pytest.mark.parametrize("dtype,rel", [(mf.float32, 1e-5), (mf.bfloat16, 3e-2)])
@pytest.mark.parametrize("xs,ws,kw,ref", CONV3D_CASES)
def test_conv3d_and_its_gradients_match_numpy(dtype, rel, xs, ws, kw, ref):
    x, w = randn(*xs), randn(*ws)
    stride, pad, dilation, groups = ref
    out = conv_taps(xs, ws, stride, pad, dilation)[0]
    dy = randn(xs[0], ws[0], *out)
    xr, wr, dyr = rounded(x, dtype), rounded(w, dtype), rounded(dy, dtype)
    y, dx, dw = conv3d_and_grads("cpu", dtype, x, w, dy, kw)
    assert_close(y, np_conv(xr, wr, stride, pad, dilation, groups), rel)
    want_dx, want_dw = np_conv_grads(xr, wr, dyr, stride, pad, dilation, groups)
    assert_close(dx, want_dx, rel)
    assert_close(dw, want_dw, rel)
    # The test device runs the CPU's kernels on its own memory: the same bits.
    for cpu, dev in zip((y, dx, dw), conv3d_and_grads("testdev", dtype, x, w, dy, kw)):
        np.testing.assert_array_equal(dev, cpu)


@pytest.mark.parametrize("xs,ws,kw,ref", CONV3D_CASES[:2])
def test_conv3d_float64_and_finite_differences(xs, ws, kw, ref):
    x, w, b = randn(*xs), randn(*ws), randn(ws[0])
    got = F.conv3d(mf.tensor(x), mf.tensor(w), mf.tensor(b), **kw)
    want = np_conv(x, w, *ref) + b.reshape(1, -1, 1, 1, 1)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # Unbatched input: [C, D, H, W].
    np.testing.assert_allclose(F.conv3d(mf.tensor(x[0]), mf.tensor(w), **kw).numpy(), np_conv(x[:1], w, *ref)[0],
                               rtol=1e-12, atol=1e-12)
    check_gradients(lambda x, w, b: F.conv3d(x, w, b, **kw), [x[:1], w, b])


def test_conv_transpose3d_is_the_adjoint_of_conv3d():
    """conv_transpose3d(x, w) is conv3d's input gradient at dy = x, its gradients conv3d's and
    its weight gradient; ConvTranspose3d's output_size picks output_padding."""
    x, w = randn(2, 4, 3, 4, 3), randn(4, 3, 3, 2, 2)  # w: [C_in, C_out / groups, kd, kh, kw], 2 groups
    args = ((2, 2, 1), ((1, 1), (1, 1), (0, 0)), (1, 2, 1), 2)
    for dtype, rel in ((mf.float64, 1e-12), (mf.float32, 1e-5)):
        tx = mf.tensor(x, dtype=dtype, requires_grad=True)
        tw = mf.tensor(w, dtype=dtype, requires_grad=True)
        y = F.conv_transpose3d(tx, tw, stride=(2, 2, 1), padding=(1, 1, 0), output_padding=(1, 0, 0), groups=2,
                               dilation=(1, 2, 1))
        assert tuple(y.shape) == (2, 6, 6, 7, 4)
        dy = randn(*y.shape)
        y.backward(mf.tensor(dy, dtype=dtype))
        want_y, _ = np_conv_grads(np.zeros(y.shape), w, x, *args)
        assert_close(y.numpy().astype(np.float64), want_y, rel)
        assert_close(tx.grad.numpy().astype(np.float64), np_conv(dy, w, *args), rel)
        assert_close(tw.grad.numpy().astype(np.float64), np_conv_grads(dy, w, x, *args)[1], rel)
    m = nn.ConvTranspose3d(4, 6, (3, 2, 2), stride=2, padding=1, groups=2)
    assert tuple(m.weight.shape) == (4, 3, 3, 2, 2)
    assert tuple(m(mf.tensor(x, dtype=mf.float32)).shape) == (2, 6, 5, 6, 4)
    assert tuple(m(mf.tensor(x, dtype=mf.float32), output_size=(6, 7, 5)).shape) == (2, 6, 6, 7, 5)
    with pytest.raises(ValueError, match="valid sizes range from 5 to 6"):
        m(mf.tensor(x, dtype=mf.float32), output_size=(7, 7, 5))


def test_conv3d_module_and_errors():
    mf.manual_seed(3)
    m = nn.Conv3d(2, 4, (3, 1, 2), padding="same", bias=True)
    assert tuple(m.weight.shape) == (4, 2, 3, 1, 2)
    bound = 1 / np.sqrt(2 * 3 * 1 * 2)
    assert np.abs(m.weight.numpy()).max() <= bound and np.abs(m.bias.numpy()).max() <= bound
    x = randn(2, 2, 4, 3, 5)
    np.testing.assert_allclose(m(mf.tensor(x, dtype=mf.float32)).numpy(),
                               np_conv(x, m.weight.numpy().astype(np.float64), (1, 1, 1), ((1, 1), (0, 0), (0, 1)),
                                       (1, 1, 1), 1) + m.bias.numpy().reshape(1, -1, 1, 1, 1), rtol=1e-5, atol=1e-5)
    assert "Conv3d(2, 4, kernel_size=(3, 1, 2)" in repr(m)
    with pytest.raises(ValueError, match=r"\[conv3d\] the input has shape \(2, 4, 4\); expected 5 dims"):
        F.conv3d(mf.tensor(randn(2, 4, 4)), mf.tensor(randn(3, 4, 1, 1, 1)))
    with pytest.raises(ValueError, match=r"\[conv3d\] the weight has shape \(3, 4, 1, 1\); expected 5 dims"):
        F.conv3d(mf.tensor(randn(1, 4, 2, 2, 2)), mf.tensor(randn(3, 4, 1, 1)))
    with pytest.raises(ValueError, match=r"\[conv3d\] .*expected C_in and C_out divisible by groups"):
        F.conv3d(mf.tensor(randn(1, 4, 2, 2, 2)), mf.tensor(randn(3, 3, 1, 1, 1)))
    with pytest.raises(TypeError, match=r"\[conv3d\] stride is \(1, 2\); expected an int or a tuple of three ints"):
        F.conv3d(mf.tensor(randn(1, 4, 2, 2, 2)), mf.tensor(randn(3, 4, 1, 1, 1)), stride=(1, 2))


# ---- Pooling, 3-d and 2-d

POOL3D_CASES = [
    ((2, 3, 4, 5, 6), dict(kernel_size=2)),
    ((1, 2, 5, 7, 6), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ((2, 2, 6, 5, 7), dict(kernel_size=(3, 2, 3), stride=(2, 1, 3), padding=(1, 1, 0))),
    ((1, 3, 5, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True)),
]
POOL2D_CASES = [
    ((2, 3, 7, 6), dict(kernel_size=2)),
    ((2, 3, 7, 6), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ((1, 4, 9, 8), dict(kernel_size=(3, 2), stride=(2, 3), padding=(1, 1))),
    ((3, 2, 5, 5), dict(kernel_size=2, stride=2, ceil_mode=True)),
]
FUNCTIONS = {2: (F.max_pool2d, F.avg_pool2d, F.adaptive_max_pool2d, F.adaptive_avg_pool2d),
             3: (F.max_pool3d, F.avg_pool3d, F.adaptive_max_pool3d, F.adaptive_avg_pool3d)}


def pooled(device, dtype, f, x, dy=None, **kw):
    """f's outputs (a tuple) and, with dy, the input's gradient, as float64 arrays."""
    tx = mf.tensor(x.astype(np.float32) if dtype != mf.float64 else x, device=device).to(dtype).requires_grad_()
    out = f(tx, **kw)
    out = out if isinstance(out, tuple) else (out,)
    result = [t.numpy().astype(np.float64) if t.dtype in (mf.int64, mf.float64) else t.float().numpy().astype(
        np.float64) for t in out]
    if dy is not None:
        out[0].backward(mf.tensor(dy, dtype=mf.float64).to(dtype).to(device))
        result.append(tx.grad.to(mf.float64).numpy())
    return result


@pytest.mark.parametrize("dtype", [mf.float64, mf.float32])
@pytest.mark.parametrize("dims,xs,kw", [(3, *c) for c in POOL3D_CASES] + [(2, *c) for c in POOL2D_CASES] +
                         [(3, (1, 2, 7, 6, 8), dict(kernel_size=(2, 3, 2), padding=1, dilation=(3, 1, 2))),
                          (2, (1, 2, 9, 8), dict(kernel_size=(3, 2), padding=1, dilation=(2, 3), ceil_mode=True))])
def test_max_pool_values_indices_and_gradient(dtype, dims, xs, kw):
    # Small integers: many ties, which go to the first maximum in the window's row-major order.
    x = RNG.integers(-3, 4, xs).astype(np.float64)
    want, idx = np_pool(x, axes_of(xs, kw, dims), "max")
    dy = randn(*want.shape)
    y, got_idx, dx = pooled("cpu", dtype, FUNCTIONS[dims][0], x, dy, return_indices=True, **kw)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(got_idx, idx)
    np.testing.assert_allclose(dx, np_pool_backward(dy, idx, xs), rtol=1e-6, atol=1e-6)
    for cpu, dev in zip((y, got_idx, dx), pooled("testdev", dtype, FUNCTIONS[dims][0], x, dy, return_indices=True,
                                                 **kw)):
        np.testing.assert_array_equal(dev, cpu)


@pytest.mark.parametrize("dims", [2, 3])
def test_max_pool_nan_and_minus_infinity_are_torchs(dims):
    """A window holding NaN gives NaN at its last NaN; an all -inf window gives -inf at its
    first position (oneDNN's pooling does neither: those inputs take the direct kernel)."""
    xs = (2, 3) + (4,) * dims
    for special in (np.nan, -np.inf):
        x = randn(*xs)
        flat = x.reshape(-1)
        flat[RNG.choice(flat.size, flat.size // 5, replace=False)] = special
        if special == -np.inf:
            x[0, 0] = -np.inf
        want, idx = np_pool(x, axes_of(xs, dict(kernel_size=2), dims), "max")
        for dtype in (mf.float32, mf.float64):
            y, got_idx = pooled("cpu", dtype, FUNCTIONS[dims][0], x, kernel_size=2, return_indices=True)
            np.testing.assert_array_equal(y, want.astype(np.float32) if dtype == mf.float32 else want)
            np.testing.assert_array_equal(got_idx, idx)


AVG_OPTIONS = [dict(), dict(count_include_pad=False), dict(divisor_override=3)]


@pytest.mark.parametrize("dtype,rel", [(mf.float64, 1e-12), (mf.float32, 1e-6)])
@pytest.mark.parametrize("options", AVG_OPTIONS, ids=["include_pad", "exclude_pad", "divisor"])
@pytest.mark.parametrize("dims,xs,kw", [(3, *c) for c in POOL3D_CASES] + [(2, *c) for c in POOL2D_CASES])
def test_avg_pool_values_and_gradient(dtype, rel, options, dims, xs, kw):
    x = randn(*xs)
    axes = axes_of(xs, kw, dims)
    want = np_pool(x, axes, "avg", options.get("count_include_pad", True), options.get("divisor_override"))[0]
    dy = randn(*want.shape)
    y, dx = pooled("cpu", dtype, FUNCTIONS[dims][1], x, dy, **kw, **options)
    assert_close(y, want, rel)
    # The backward pass is the forward's adjoint: <dx, x> = <dy, y> for every x.
    probe = randn(*xs)
    assert_close(np.vdot(dx, probe),
                 np.vdot(dy, np_pool(probe, axes, "avg", options.get("count_include_pad", True),
                                     options.get("divisor_override"))[0]), rel * 10)
    for cpu, dev in zip((y, dx), pooled("testdev", dtype, FUNCTIONS[dims][1], x, dy, **kw, **options)):
        np.testing.assert_array_equal(dev, cpu)


@pytest.mark.parametrize("dtype,rel", [(mf.float64, 1e-12), (mf.float32, 1e-6)])
@pytest.mark.parametrize("dims,xs,out", [(3, (2, 3, 6, 4, 8), (3, 2, 4)), (3, (1, 2, 5, 7, 3), (2, 3, 2)),
                                         (3, (2, 3, 4, 4, 4), 1), (2, (2, 3, 8, 6), (4, 3)), (2, (2, 3, 7, 5), (3, 2)),
                                         (2, (4, 5, 7, 7), 1)])
def test_adaptive_pools(dtype, rel, dims, xs, out):
    """Windows of in / out where the sizes divide (oneDNN's), torch's uneven ones elsewhere."""
    sizes = (out,) * dims if isinstance(out, int) else out
    axes = [[(pos, len(pos)) for _, pos in adaptive_windows(xs[2 + a], sizes[a])] for a in range(dims)]
    x = randn(*xs)
    want_avg = np_pool(x, axes, "avg")[0]
    want_max, idx = np_pool(x, axes, "max")
    dy = randn(*want_avg.shape)
    y, dx = pooled("cpu", dtype, FUNCTIONS[dims][3], x, dy, output_size=out)
    assert_close(y, want_avg, rel)
    probe = randn(*xs)
    assert_close(np.vdot(dx, probe), np.vdot(dy, np_pool(probe, axes, "avg")[0]), rel * 10)
    y, got_idx, dx = pooled("cpu", dtype, FUNCTIONS[dims][2], x, dy, output_size=out, return_indices=True)
    np.testing.assert_array_equal(y, want_max.astype(np.float32) if dtype == mf.float32 else want_max)
    np.testing.assert_array_equal(got_idx, idx)
    np.testing.assert_allclose(dx, np_pool_backward(dy, idx, xs), rtol=rel, atol=rel)


@pytest.mark.parametrize("dims,xs", [(2, (2, 3, 17, 16)), (3, (1, 2, 7, 6, 7))])
def test_max_pool_windows_of_more_than_255_positions(dims, xs):
    """oneDNN's workspace holds int32 offsets past 255 positions (uint8 below): the indices
    are torch's either way."""
    x = randn(*xs)
    kw = dict(kernel_size=xs[2:], stride=1, padding=1, ceil_mode=True)
    want, idx = np_pool(x, axes_of(xs, kw, dims), "max")
    for f, args in ((FUNCTIONS[dims][0], kw), (FUNCTIONS[dims][2], dict(output_size=1))):
        y, got_idx = pooled("cpu", mf.float32, f, x, return_indices=True, **args)
        if f is FUNCTIONS[dims][2]:
            flat = x.reshape(xs[:2] + (-1,))
            want, idx = flat.max(axis=2), flat.argmax(axis=2)
            y, got_idx = y.reshape(want.shape), got_idx.reshape(idx.shape)
        np.testing.assert_array_equal(y, want.astype(np.float32))
        np.testing.assert_array_equal(got_idx, idx)


def test_pool3d_gradients_by_finite_differences():
    x = randn(1, 2, 4, 5, 4)
    check_gradients(lambda t: F.max_pool3d(t, 2, stride=(1, 2, 1), padding=1, ceil_mode=True), [x])
    check_gradients(lambda t: F.avg_pool3d(t, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), [x])
    check_gradients(lambda t: F.adaptive_avg_pool3d(t, (3, 2, 3)), [x])
    check_gradients(lambda t: F.adaptive_max_pool3d(t, (2, 3, 2)), [x])


def test_pool3d_modules_unbatched_and_errors():
    x = mf.tensor(randn(2, 4, 6, 5, 4), dtype=mf.float32)
    assert tuple(nn.MaxPool3d(2)(x).shape) == (2, 4, 3, 2, 2)
    y, idx = nn.MaxPool3d(3, stride=2, padding=1, return_indices=True)(x)
    assert tuple(y.shape) == tuple(idx.shape) == (2, 4, 3, 3, 2) and idx.dtype == mf.int64
    assert tuple(nn.AvgPool3d((2, 3, 2), ceil_mode=True)(x).shape) == (2, 4, 3, 2, 2)
    assert tuple(nn.AdaptiveAvgPool3d((1, None, 2))(x).shape) == (2, 4, 1, 5, 2)
    assert tuple(nn.AdaptiveMaxPool3d(1)(x[0]).shape) == (4, 1, 1, 1)
    assert tuple(F.max_pool3d(x[0], 2).shape) == (4, 3, 2, 2)
    with pytest.raises(ValueError, match=r"\[max_pool3d\] padding 2 is more than half the kernel's size 2"):
        F.max_pool3d(x, 2, padding=2)
    with pytest.raises(ValueError, match=r"\[avg_pool3d\] the input has shape \(4, 4\); expected 5 dims"):
        F.avg_pool3d(mf.tensor(randn(4, 4)), 2)
    with pytest.raises(TypeError, match=r"\[max_pool3d\] kernel_size is \(2, 2\); expected an int or a tuple of three"):
        F.max_pool3d(x, (2, 2))


# ---- A 3-d network: graph mode equal to eager, the test device equal to the CPU

def make_net():
    mf.manual_seed(5)
    return nn.Sequential(nn.Conv3d(2, 4, 3, padding=1), nn.BatchNorm3d(4), nn.ReLU(), nn.MaxPool3d(2),
                         nn.Conv3d(4, 4, (1, 2, 2), groups=2, bias=False), nn.AvgPool3d(1), nn.ReLU(),
                         nn.ConvTranspose3d(4, 3, 2, stride=2), nn.AdaptiveAvgPool3d(1), nn.Flatten(),
                         nn.Linear(3, 3))


def train(model, x, y, steps, graph=False):
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    class Step(mf.nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)

        def build(self, x, y):
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            return loss

    def eager(x, y):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    step = Step() if graph else eager
    return [step(x, y).item() for _ in range(steps)]


def test_3d_network_graph_equals_eager_and_testdev_equals_cpu():
    x_np = RNG.standard_normal((4, 2, 4, 6, 6)).astype(np.float32)
    y = mf.tensor(np.arange(4) % 3)
    eager_model, graph_model = make_net(), make_net()
    eager = train(eager_model, mf.tensor(x_np), y, 3)
    graph = train(graph_model, mf.tensor(x_np), y, 3, graph=True)
    np.testing.assert_allclose(graph, eager, rtol=1e-5)
    for (name, a), (_, b) in zip(eager_model.named_parameters(), graph_model.named_parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)
    dev_model = make_net().to("testdev")
    cpu_model = make_net()
    on_dev = train(dev_model, mf.tensor(x_np, device="testdev"), y.to("testdev"), 2)
    np.testing.assert_array_equal(on_dev, train(cpu_model, mf.tensor(x_np), y, 2))
