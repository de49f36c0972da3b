"""The paths that run on oneDNN (meshflow/ops/onednn.h) against NumPy references in float64:
the convolutions in float32 and bfloat16 with every option their ops take (stride, padding
on either side, dilation, groups, depthwise, 1-d, transposed), forward and both gradients;
the batch_norm op (training statistics, weight and bias, running statistics, gradients, a
second-order gradient); bfloat16 within its rounding; the test device equal to the CPU.
scripts/test runs this file again with oneDNN capped at AVX512_CORE (bfloat16 emulated) and
AVX2 (no bfloat16 primitives: widened to float32). The float64 kernels (im2col, composed
batch norm) are test_conv.py's."""
import itertools

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

RNG = np.random.default_rng(23)


def randn(*shape):
    return RNG.standard_normal(shape)


def taps(x_shape, w_shape, stride, pad, dilation, groups):
    """For each tap (co, i, j): the group's channel slice and the padded input's window slices,
    and the output size: torch's cross-correlation, as test_conv.py's np_conv2d."""
    n, cin, h, wd = x_shape
    cout, cg, kh, kw = w_shape
    oh = (h + sum(pad[0]) - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + sum(pad[1]) - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = []
    for co in range(cout):
        g = co // (cout // groups)
        for i, j in itertools.product(range(kh), range(kw)):
            rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (oh - 1) + 1, stride[0])
            cols = slice(j * dilation[1], j * dilation[1] + stride[1] * (ow - 1) + 1, stride[1])
            out.append((co, i, j, slice(g * cg, (g + 1) * cg), rows, cols))
    return out, (n, cout, oh, ow)


def np_conv2d(x, w, stride, pad, dilation, groups):
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pad))
    tap_list, shape = taps(x.shape, w.shape, stride, pad, dilation, groups)
    y = np.zeros(shape)
    for co, i, j, ch, rows, cols in tap_list:
        y[:, co] += np.einsum("nchw,c->nhw", xp[:, ch, rows, cols], w[co, :, i, j])
    return y


def np_conv2d_grads(x, w, dy, stride, pad, dilation, groups):
    """dx and dw of sum(conv2d(x, w) * dy)."""
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pad))
    dxp, dw = np.zeros_like(xp), np.zeros_like(w)
    for co, i, j, ch, rows, cols in taps(x.shape, w.shape, stride, pad, dilation, groups)[0]:
        dw[co, :, i, j] = np.einsum("nchw,nhw->c", xp[:, ch, rows, cols], dy[:, co])
        dxp[:, ch, rows, cols] += np.einsum("nhw,c->nchw", dy[:, co], w[co, :, i, j])
    h, wd = x.shape[2:]
    return dxp[:, :, pad[0][0]:pad[0][0] + h, pad[1][0]:pad[1][0] + wd], dw


# (x shape, w shape, F.conv2d's arguments, the reference's stride, pads, dilation, groups)
CONV_CASES = [
    ((2, 3, 8, 8), (4, 3, 3, 3), dict(padding=1), ((1, 1), ((1, 1), (1, 1)), (1, 1), 1)),
    ((2, 3, 7, 6), (4, 3, 3, 2), dict(stride=(2, 1), padding=1, dilation=(1, 2)),
     ((2, 1), ((1, 1), (1, 1)), (1, 2), 1)),
    # 'same' with an even kernel: one more row and column of padding at the end.
    ((1, 2, 6, 6), (2, 2, 2, 2), dict(padding="same", dilation=1), ((1, 1), ((0, 1), (0, 1)), (1, 1), 1)),
    ((2, 4, 5, 5), (6, 2, 3, 3), dict(groups=2, padding="same"), ((1, 1), ((1, 1), (1, 1)), (1, 1), 2)),
    ((2, 4, 6, 6), (4, 1, 3, 3), dict(groups=4, padding=1), ((1, 1), ((1, 1), (1, 1)), (1, 1), 4)),
    # Strided past the input's end: the last rows are never read.
    ((2, 3, 8, 8), (5, 3, 3, 3), dict(stride=3, padding=(2, 0), dilation=2), ((3, 3), ((2, 2), (0, 0)), (2, 2), 1)),
    ((3, 2, 5, 4), (3, 2, 1, 1), dict(stride=2), ((2, 2), ((0, 0), (0, 0)), (1, 1), 1)),
    # Up to 16 channels in and out oneDNN runs channels-last (the cases above), past them in its
    # blocked layout.
    ((2, 16, 6, 5), (16, 16, 3, 3), dict(padding=1), ((1, 1), ((1, 1), (1, 1)), (1, 1), 1)),
    ((2, 20, 6, 5), (24, 20, 3, 3), dict(stride=2, padding=1), ((2, 2), ((1, 1), (1, 1)), (1, 1), 1)),
    # A depthwise 7x7 kernel (ConvNeXt's), past 16 channels: its weight gradient, which
    # oneDNN's pick would run on im2col and gemm, runs on its direct kernel channels-last.
    ((2, 24, 9, 8), (24, 1, 7, 7), dict(groups=24, padding=3), ((1, 1), ((3, 3), (3, 3)), (1, 1), 24)),
    # Pointwise (1x1, stride 1, no padding, one group): float32 runs products, not oneDNN's
    # convolution; a batch of one runs its product on the team.
    ((3, 4, 5, 4), (6, 4, 1, 1), dict(), ((1, 1), ((0, 0), (0, 0)), (1, 1), 1)),
    ((1, 5, 6, 3), (2, 5, 1, 1), dict(dilation=2), ((1, 1), ((0, 0), (0, 0)), (2, 2), 1)),
]


def conv_and_grads(device, dtype, xs, ws, kw, x, w, dy):
    """F.conv2d's output and the gradients of sum(y * dy), as float64 NumPy arrays."""
    def put(a):
        return mf.tensor(a.astype(np.float32), device=device).to(dtype)
    tx, tw = put(x).requires_grad_(), put(w).requires_grad_()
    y = F.conv2d(tx, tw, **kw)
    assert y.dtype == dtype
    y.backward(put(dy))
    return [t.float().numpy().astype(np.float64) for t in (y, tx.grad, tw.grad)]


def rounded(a, dtype):
    """a as the kernel sees it: rounded to float32, then to dtype."""
    return mf.tensor(a.astype(np.float32)).to(dtype).float().numpy().astype(np.float64)


def assert_close(got, want, rel):
    np.testing.assert_allclose(got, want, rtol=rel, atol=rel * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize("device", ["cpu", "testdev"])
@pytest.mark.parametrize("dtype,rel", [(mf.float32, 1e-5), (mf.bfloat16, 3e-2)])
@pytest.mark.parametrize("xs,ws,kw,ref", CONV_CASES)
def test_conv2d_and_its_gradients_match_numpy(device, dtype, rel, xs, ws, kw, ref):
    x, w = randn(*xs), randn(*ws)
    stride, pad, dilation, groups = ref
    dy = randn(*taps(xs, ws, stride, pad, dilation, groups)[1])
    xr, wr, dyr = rounded(x, dtype), rounded(w, dtype), rounded(dy, dtype)
    y, dx, dw = conv_and_grads(device, dtype, xs, ws, kw, x, w, dy)
    assert_close(y, np_conv2d(xr, wr, stride, pad, dilation, groups), rel)
    want_dx, want_dw = np_conv2d_grads(xr, wr, dyr, stride, pad, dilation, groups)
    assert_close(dx, want_dx, rel)
    assert_close(dw, want_dw, rel)


@pytest.mark.parametrize("dtype", [mf.float32, mf.bfloat16])
def test_test_device_equals_the_cpu(dtype):
    xs, ws, kw, ref = CONV_CASES[3]
    x, w = randn(*xs), randn(*ws)
    dy = randn(*taps(xs, ws, *ref)[1])
    for cpu, dev in zip(conv_and_grads("cpu", dtype, xs, ws, kw, x, w, dy),
                        conv_and_grads("testdev", dtype, xs, ws, kw, x, w, dy)):
        np.testing.assert_array_equal(dev, cpu)


@pytest.mark.parametrize("dtype,rel", [(mf.float32, 1e-5), (mf.bfloat16, 3e-2)])
def test_conv1d_matches_numpy(dtype, rel):
    x, w, dy = randn(2, 3, 11), randn(4, 3, 3), randn(2, 4, 6)
    tx = mf.tensor(x.astype(np.float32)).to(dtype).requires_grad_()
    tw = mf.tensor(w.astype(np.float32)).to(dtype).requires_grad_()
    y = F.conv1d(tx, tw, stride=2, padding=2, dilation=2)
    y.backward(mf.tensor(dy.astype(np.float32)).to(dtype))
    xr, wr, dyr = (rounded(a, dtype)[:, :, None] for a in (x, w, dy))
    args = ((1, 2), ((0, 0), (2, 2)), (1, 2), 1)
    assert_close(y.float().numpy()[:, :, None], np_conv2d(xr, wr, *args), rel)
    want_dx, want_dw = np_conv2d_grads(xr, wr, dyr, *args)
    assert_close(tx.grad.float().numpy(), want_dx[:, :, 0], rel)
    assert_close(tw.grad.float().numpy(), want_dw[:, :, 0], rel)


@pytest.mark.parametrize("dtype,rel", [(mf.float32, 1e-5), (mf.bfloat16, 3e-2)])
def test_conv_transpose2d_is_the_adjoint_of_conv2d(dtype, rel):
    """conv_transpose2d(x, w) is conv2d's input gradient at dy = x (groups, stride, padding,
    output_padding, dilation), and its gradients are conv2d's and its weight gradient."""
    x, w = randn(2, 4, 4, 5), randn(4, 3, 3, 2)  # w: [C_in, C_out / groups, kh, kw], 2 groups
    tx = mf.tensor(x.astype(np.float32)).to(dtype).requires_grad_()
    tw = mf.tensor(w.astype(np.float32)).to(dtype).requires_grad_()
    y = F.conv_transpose2d(tx, tw, stride=2, padding=1, output_padding=1, groups=2, dilation=(1, 2))
    assert tuple(y.shape) == (2, 6, 8, 10)
    dy = randn(*y.shape)
    y.backward(mf.tensor(dy.astype(np.float32)).to(dtype))
    args = ((2, 2), ((1, 1), (1, 1)), (1, 2), 2)
    xr, wr, dyr = rounded(x, dtype), rounded(w, dtype), rounded(dy, dtype)
    # As a convolution of z [2, 6, 8, 10] with w read as [C_out = 4, C_in / groups = 3, ...]:
    # y is its input gradient at dy = x, and y's own gradients are the forward and the weight
    # gradient of that convolution.
    want_y, _ = np_conv2d_grads(np.zeros(y.shape), wr, xr, *args)
    assert_close(y.float().numpy(), want_y, rel)
    assert_close(tx.grad.float().numpy(), np_conv2d(dyr, wr, *args), rel)
    assert_close(tw.grad.float().numpy(), np_conv2d_grads(dyr, wr, xr, *args)[1], rel)


# ---- batch norm

def np_batch_norm_grads(x, w, dy, eps):
    """y, dx, dweight, dbias of batch norm with the batch's statistics (biased variance)."""
    dims = (0,) + tuple(range(2, x.ndim))
    view = (1, -1) + (1,) * (x.ndim - 2)
    mean, var = x.mean(dims, keepdims=True), x.var(dims, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    xhat = (x - mean) * rstd
    g = dy * w.reshape(view)
    dx = rstd * (g - g.mean(dims, keepdims=True) - xhat * (g * xhat).mean(dims, keepdims=True))
    return xhat, dx, (dy * xhat).sum(dims), dy.sum(dims)


@pytest.mark.parametrize("device", ["cpu", "testdev"])
@pytest.mark.parametrize("dtype,rel", [(mf.float32, 1e-5), (mf.bfloat16, 3e-2)])
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (4, 3, 5, 2), (2, 3, 4, 3, 2), (3, 3, 37, 70)])
def test_batch_norm_and_its_gradients_match_numpy(device, dtype, rel, shape):
    x, w, b = randn(*shape) * 3 + 1, randn(3), randn(3)
    dy = randn(*shape)
    put = lambda a: mf.tensor(a.astype(np.float32), device=device).to(dtype)  # noqa: E731
    tx, tw, tb = put(x).requires_grad_(), put(w).requires_grad_(), put(b).requires_grad_()
    rm, rv = mf.tensor(np.zeros(3, np.float32), device=device), mf.tensor(np.ones(3, np.float32), device=device)
    y = F.batch_norm(tx, rm, rv, tw, tb, training=True, momentum=0.25, eps=1e-3)
    assert y.dtype == dtype
    y.backward(put(dy))
    xr, wr, br, dyr = (rounded(a, dtype) for a in (x, w, b, dy))
    xhat, dx, dw, db = np_batch_norm_grads(xr, wr, dyr, 1e-3)
    view = (1, -1) + (1,) * (len(shape) - 2)
    assert_close(y.float().numpy(), xhat * wr.reshape(view) + br.reshape(view), rel)
    assert_close(tx.grad.float().numpy(), dx, rel)
    assert_close(tw.grad.float().numpy(), dw, rel)
    assert_close(tb.grad.float().numpy(), db, rel)
    dims = (0,) + tuple(range(2, len(shape)))
    assert_close(rm.numpy(), 0.25 * xr.mean(dims), 1e-5)
    assert_close(rv.numpy(), 0.75 + 0.25 * xr.var(dims, ddof=1), 1e-5)


def test_batch_norm_of_a_large_mean_and_a_small_spread_keeps_its_precision():
    # Values near 1000 that differ by about 0.01 (float32's spacing there is 6e-5): the
    # statistics and the output must not cancel the mean against the spread.
    x = (1000 + 0.01 * randn(4, 2, 33, 31)).astype(np.float32).astype(np.float64)
    dy = randn(4, 2, 33, 31)
    tx = mf.tensor(x.astype(np.float32), requires_grad=True)
    y = F.batch_norm(tx, None, None, training=True)
    y.backward(mf.tensor(dy.astype(np.float32)))
    xhat, dx, _, _ = np_batch_norm_grads(x, np.ones(2), dy.astype(np.float32).astype(np.float64), 1e-5)
    assert_close(y.numpy(), xhat, 1e-5)
    assert_close(tx.grad.numpy(), dx, 2e-4)


def test_batch_norm_test_device_equals_the_cpu():
    x, dy = randn(4, 3, 5, 2), randn(4, 3, 5, 2)
    results = []
    for device in ("cpu", "testdev"):
        m = nn.BatchNorm2d(3).to(device)
        tx = mf.tensor(x.astype(np.float32), device=device, requires_grad=True)
        m(tx).backward(mf.tensor(dy.astype(np.float32), device=device))
        results.append([t.numpy() for t in (tx.grad, m.weight.grad, m.bias.grad, m.running_mean, m.running_var)])
    for cpu, dev in zip(*results):
        np.testing.assert_array_equal(dev, cpu)


def test_batch_norm_second_order_gradient_matches_the_composition():
    """A create_graph backward through the op (its gradient in differentiable ops) equals the
    float64 composition's (test_conv.py checks that one against finite differences)."""
    x, w, dy = randn(4, 3, 5), randn(3), randn(4, 3, 5)
    grads = []
    for dtype in (mf.float32, mf.float64):
        tx, tw = mf.tensor(x, dtype=dtype, requires_grad=True), mf.tensor(w, dtype=dtype, requires_grad=True)
        y = F.batch_norm(tx, None, None, tw, None, training=True)
        gx, = mf.autograd.grad([(y * mf.tensor(dy, dtype=dtype)).sum()], [tx], create_graph=True)
        (gx * gx).sum().backward()
        grads.append([t.numpy().astype(np.float64) for t in (gx, tx.grad, tw.grad)])
    for got, want in zip(*grads):
        assert_close(got, want, 1e-4)
