"""Channels-last tensors (C++ core/tensor.h's memory formats): torch's spellings
(`to(memory_format=)`, `contiguous(memory_format=)`, `is_contiguous(memory_format=)`,
`Module.to(memory_format=)`) with torch's strides, and every op on channels-last inputs
giving the values and gradients of the same op on row-major ones (which the other suites
check against torch and NumPy): the ops that keep the layout (convolutions, batch and group
norm, max and avg pooling, elementwise ops) keep it, as torch's do, and the others read a converted copy. A ResNet
block's training step, eager and in graph mode, agrees with the row-major one."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from graph_step import CrossEntropyStep

RNG = np.random.default_rng(38)
CL = mf.channels_last


def randn(*shape, dtype=mf.float32):
    return mf.tensor(RNG.standard_normal(shape), dtype=dtype)


def close(a, b, tol=1e-5):
    a, b = np.asarray(a.detach().float().numpy() if isinstance(a, mf.Tensor) else a), np.asarray(
        b.detach().float().numpy() if isinstance(b, mf.Tensor) else b)
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_to_channels_last_has_torchs_strides_and_values():
    x = randn(2, 3, 4, 5)
    y = x.to(memory_format=CL)
    assert y.stride() == (60, 1, 15, 3)  # torch's for [2, 3, 4, 5] channels_last
    assert y.is_contiguous(memory_format=CL) and not y.is_contiguous()
    assert x.is_contiguous() and not x.is_contiguous(memory_format=CL)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    back = y.contiguous()
    assert back.stride() == (60, 20, 5, 1) and back.is_contiguous()
    np.testing.assert_array_equal(back.numpy(), x.numpy())
    assert y.to(memory_format=CL) is y and x.contiguous() is x
    assert x.contiguous(memory_format=CL).stride() == (60, 1, 15, 3)
    assert y.float() is y and y.to(mf.float64).dtype == mf.float64
    np.testing.assert_array_equal(y.to(mf.float64).numpy(), x.numpy().astype(np.float64))
    z = randn(2, 3, 2, 4, 5).to(memory_format=mf.channels_last_3d)
    assert z.stride() == (120, 1, 60, 15, 3) and z.is_contiguous(memory_format=mf.channels_last_3d)
    with pytest.raises(RuntimeError, match="rank 4"):
        randn(3, 4, 5).to(memory_format=CL)
    with pytest.raises(RuntimeError, match="rank 5"):
        x.contiguous(memory_format=mf.channels_last_3d)


def test_views_of_channels_last_follow_torchs_strides():
    y = randn(2, 3, 4, 5).to(memory_format=CL)
    assert y.permute(0, 2, 3, 1).is_contiguous()  # NHWC's own order: torch's view is contiguous
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        y.view(2, -1)
    flat = y.reshape(2, -1)  # a copy, as torch's
    np.testing.assert_array_equal(flat.numpy(), y.numpy().reshape(2, -1))
    np.testing.assert_array_equal(y[:, 1].numpy(), y.numpy()[:, 1])
    np.testing.assert_array_equal(y.sum(dim=(0, 2)).numpy(), y.numpy().sum(axis=(0, 2)))


def test_module_to_moves_four_dim_parameters():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Linear(5, 5))
    model.to(memory_format=CL)
    assert model[0].weight.is_contiguous(memory_format=CL) and not model[0].weight.is_contiguous()
    assert model[1].weight.is_contiguous() and model[2].weight.is_contiguous()
    assert model[0].weight.is_leaf and model[0].weight.requires_grad


def test_a_channels_last_leaf_s_gradient_is_channels_last_as_torchs():
    # torch's AccumulateGrad gives a leaf's .grad the leaf's memory format (and sums keep it).
    mf.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
    row_major = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
    row_major.load_state_dict(model.state_dict())
    model.to(memory_format=CL)
    x = mf.tensor(np.random.default_rng(3).standard_normal((2, 3, 6, 6)).astype(np.float32))
    leaf = x.to(memory_format=CL).requires_grad_(True)
    for _ in range(2):  # the second backward adds into the first's .grad
        model(leaf).sum().backward()
        row_major(x).sum().backward()
    weight = model[0].weight
    assert weight.grad.is_contiguous(memory_format=CL) and weight.grad.stride() == weight.stride()
    assert leaf.grad.is_contiguous(memory_format=CL) and not leaf.grad.is_contiguous()
    assert model[2].weight.grad.is_contiguous()  # a row-major leaf's stays row-major
    for got, expected in zip(model.parameters(), row_major.parameters()):
        close(got.grad, expected.grad, 1e-5)


def run(fn, *inputs):
    """fn's output and the inputs' gradients (of the output's sum weighted by a fixed tensor)."""
    leaves = [t.detach().requires_grad_(True) for t in inputs]
    out = fn(*leaves)
    weight = mf.tensor(np.random.default_rng(5).standard_normal(tuple(out.shape)), dtype=out.dtype)
    (out * weight).sum().backward()
    return out, [t.grad for t in leaves]


def check_same(fn, inputs, cl_inputs, keeps, tol=1e-5):
    """fn on channels-last inputs as on row-major ones, gradients included; its output
    channels-last where `keeps`."""
    out, grads = run(fn, *inputs)
    out_cl, grads_cl = run(fn, *cl_inputs)
    assert out_cl.is_contiguous(memory_format=CL) == keeps, out_cl.stride()
    close(out_cl, out, tol)
    for g, g_cl in zip(grads, grads_cl):
        close(g_cl, g, tol)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64])
@pytest.mark.parametrize("kernel,stride,groups,cin", [(3, 1, 1, 8), (3, 2, 1, 24), (1, 1, 1, 24), (1, 2, 1, 8),
                                                      (3, 1, 4, 8), (3, 1, 8, 8)])
def test_conv2d_keeps_channels_last(dtype, kernel, stride, groups, cin):
    x, w = randn(2, cin, 9, 7, dtype=dtype), randn(16, cin // groups, kernel, kernel, dtype=dtype)

    def conv(x, w):
        return F.conv2d(x, w, stride=stride, padding=kernel // 2, groups=groups)

    tol = 1e-4 if dtype == mf.float32 else 1e-10
    check_same(conv, (x, w), (x.to(memory_format=CL), w), keeps=True, tol=tol)
    check_same(conv, (x, w), (x, w.to(memory_format=CL)), keeps=True, tol=tol)  # torch's rule: x's or w's


def test_conv2d_bfloat16_and_bias_and_conv3d():
    x, w, b = randn(2, 8, 6, 6), randn(8, 8, 3, 3), randn(8)
    check_same(lambda x, w, b: F.conv2d(x, w, b, padding=1), (x, w, b), (x.to(memory_format=CL), w, b), keeps=True,
               tol=1e-4)  # the bias added per channel, by rows
    xb, wb = x.to(mf.bfloat16), w.to(mf.bfloat16)
    out, out_cl = F.conv2d(xb, wb, padding=1), F.conv2d(xb.to(memory_format=CL), wb, padding=1)
    assert out_cl.is_contiguous(memory_format=CL)
    close(out_cl, out, 2e-2)
    x3, w3 = randn(2, 4, 5, 6, 7), randn(8, 4, 3, 3, 3)
    check_same(lambda x, w: F.conv3d(x, w, padding=1), (x3, w3), (x3.to(memory_format=mf.channels_last_3d), w3),
               keeps=False, tol=1e-4)  # is_contiguous(channels_last) is False for 5 dims: torch's answer
    assert F.conv3d(x3.to(memory_format=mf.channels_last_3d), w3).is_contiguous(memory_format=mf.channels_last_3d)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64, mf.bfloat16])
def test_batch_norm_keeps_channels_last(dtype):
    x = randn(4, 24, 5, 3, dtype=dtype) * 3 + 2
    w, b = randn(24, dtype=dtype), randn(24, dtype=dtype)

    def bn(x, w, b):
        return F.batch_norm(x, None, None, w, b, training=True)

    check_same(bn, (x, w, b), (x.to(memory_format=CL), w, b), keeps=True,
               tol=2e-2 if dtype == mf.bfloat16 else 1e-4)
    bn2 = nn.BatchNorm2d(24).to(dtype)
    bn3 = nn.BatchNorm2d(24).to(dtype)
    bn2(x)
    bn3(x.to(memory_format=CL))
    close(bn3.running_mean, bn2.running_mean, 1e-2 if dtype == mf.bfloat16 else 1e-5)
    close(bn3.running_var, bn2.running_var, 1e-2 if dtype == mf.bfloat16 else 1e-5)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64, mf.bfloat16])
@pytest.mark.parametrize("shape,groups", [((4, 24, 5, 3), 6), ((2, 8, 300, 3), 8), ((3, 6, 2, 3), 1)])
def test_group_norm_keeps_channels_last(dtype, shape, groups):
    """As torch's: a keyword-spotting CNN's conv -> GroupNorm -> ReLU -> conv chain keeps the
    layout, so its dy and dx too (each was reordered before)."""
    x = randn(*shape, dtype=dtype) * 3 + 2
    w, b = randn(shape[1], dtype=dtype), randn(shape[1], dtype=dtype)
    check_same(lambda x, w, b: F.group_norm(x, groups, w, b), (x, w, b), (x.to(memory_format=CL), w, b), keeps=True,
               tol=2e-2 if dtype == mf.bfloat16 else 1e-4)
    check_same(lambda x: F.group_norm(x, groups), (x,), (x.to(memory_format=CL),), keeps=True,
               tol=2e-2 if dtype == mf.bfloat16 else 1e-4)
    x3 = randn(2, 4, 3, 5, 2, dtype=dtype)
    y3 = F.group_norm(x3.to(memory_format=mf.channels_last_3d), 2)
    assert y3.is_contiguous(memory_format=mf.channels_last_3d)
    close(y3, F.group_norm(x3, 2), 2e-2 if dtype == mf.bfloat16 else 1e-5)


def test_elementwise_ops_keep_the_first_inputs_format():
    x, y = randn(2, 8, 5, 5), randn(2, 8, 5, 5)
    xc, yc = x.to(memory_format=CL), y.to(memory_format=CL)
    check_same(lambda a, b: F.relu(a) * b + a, (x, y), (xc, yc), keeps=True)
    check_same(lambda a, b: a + b, (x, y), (xc, y), keeps=True)  # the first input's format, as torch's
    check_same(lambda a, b: a + b, (x, y), (x, yc), keeps=False)
    check_same(lambda a: F.gelu(a) * 2.0 - 1, (x,), (xc,), keeps=True)
    bias = randn(8, 1, 1)
    check_same(lambda a, b: a * b - b, (x, bias), (xc, bias), keeps=True)  # per channel: by rows
    check_same(lambda a, b: b / (a * a + 1), (x, bias), (xc, bias), keeps=True)  # the largest input's format
    plane, rows = randn(5, 5), randn(8, 5, 1)
    check_same(lambda a, b: a + b, (x, plane), (xc, plane), keeps=True)  # one channel: in place too
    check_same(lambda a, b: a + b, (x, rows), (xc, rows), keeps=False)  # channels and rows: row-major
    z = xc.clone()
    z.add_(yc)
    close(z, x + y)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64, mf.bfloat16])
def test_max_pool_keeps_channels_last(dtype):
    """As torch's: values, indices (flat within each plane) and gradients of a channels-last
    max pool are the row-major one's, in that layout, padded, dilated, ceil_mode, adaptive,
    3-d, ties and NaN included (the first maximum, the last NaN, as the row-major kernel)."""
    x = randn(2, 8, 9, 7, dtype=dtype)
    x[0, 1, 2:4, 2:4] = 1.5  # a tie inside one window
    x[1, 3, 4, 4] = float("nan")
    x[1, 3, 5, 4] = float("nan")
    pools = [lambda a: F.max_pool2d(a, 2), lambda a: F.max_pool2d(a, 3, 2, 1, ceil_mode=True),
             lambda a: F.max_pool2d(a, 2, 1, dilation=2), lambda a: F.adaptive_max_pool2d(a, (4, 3))]
    for pool in pools:
        check_same(pool, (x,), (x.to(memory_format=CL),), keeps=True, tol=1e-6)
        rows = F.max_pool2d(x, 3, 2, 1, return_indices=True)[1]
        cl = F.max_pool2d(x.to(memory_format=CL), 3, 2, 1, return_indices=True)[1]
        assert cl.is_contiguous(memory_format=CL)
        np.testing.assert_array_equal(cl.numpy(), rows.numpy())
    x3 = randn(2, 4, 4, 5, 6, dtype=dtype)
    y3 = F.max_pool3d(x3.to(memory_format=mf.channels_last_3d), 2)
    assert y3.is_contiguous(memory_format=mf.channels_last_3d)
    close(y3, F.max_pool3d(x3, 2), 1e-6)
    leaf = x.to(memory_format=CL).requires_grad_(True)
    (g,) = mf.autograd.grad(F.max_pool2d(leaf, 2).sum(), leaf, create_graph=True)  # a row-major dy
    close(g, mf.autograd.grad(F.max_pool2d(x.requires_grad_(True), 2).sum(), x)[0], 1e-6)
    dy = randn(2, 8, 4, 3, dtype=dtype).to(memory_format=CL).requires_grad_(True)
    (g,) = mf.autograd.grad(F.max_pool2d(leaf, 2), leaf, dy, create_graph=True)
    assert g.is_contiguous(memory_format=CL)
    (gg,) = mf.autograd.grad((g * g).sum(), dy)  # max_pool2d_backward's gradient reads CL indices
    close(gg, 2 * dy, 1e-6)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64])
def test_avg_pool_keeps_channels_last(dtype):
    """As torch's: a channels-last avg pool (oneDNN's primitive on that layout, or the direct
    kernels where torch's divisors are not oneDNN's) gives the row-major values and gradients
    in that layout, 2-d and 3-d, adaptive too; a second backward (the backward op's own
    gradient) as well."""
    x = randn(2, 8, 9, 7, dtype=dtype)
    pools = [lambda a: F.avg_pool2d(a, 2), lambda a: F.avg_pool2d(a, 3, 2, 1),
             lambda a: F.avg_pool2d(a, 3, 2, 1, ceil_mode=True), lambda a: F.avg_pool2d(a, 3, 2, 1, divisor_override=4),
             lambda a: F.avg_pool2d(a, 3, 2, 1, count_include_pad=False), lambda a: F.adaptive_avg_pool2d(a, 1),
             lambda a: F.adaptive_avg_pool2d(a, (3, 7)), lambda a: F.adaptive_avg_pool2d(a, (4, 3))]
    for pool in pools:
        check_same(pool, (x,), (x.to(memory_format=CL),), keeps=True, tol=1e-6)
    x3 = randn(2, 4, 4, 6, 6, dtype=dtype)
    for pool in (lambda a: F.avg_pool3d(a, 2), lambda a: F.adaptive_avg_pool3d(a, 1)):
        out, grads = run(pool, x3)
        out_cl, grads_cl = run(pool, x3.to(memory_format=mf.channels_last_3d))
        assert out_cl.is_contiguous(memory_format=mf.channels_last_3d)
        close(out_cl, out, 1e-6)
        close(grads_cl[0], grads[0], 1e-6)
    leaf = x.to(memory_format=CL).requires_grad_(True)
    dy = randn(2, 8, 4, 3, dtype=dtype).to(memory_format=CL).requires_grad_(True)
    (g,) = mf.autograd.grad(F.avg_pool2d(leaf, 2), leaf, dy, create_graph=True)
    assert g.is_contiguous(memory_format=CL)
    (gg,) = mf.autograd.grad((g * g).sum(), dy)
    rows = dy.detach().contiguous().requires_grad_(True)
    (g_rows,) = mf.autograd.grad(F.avg_pool2d(x.requires_grad_(True), 2), x, rows, create_graph=True)
    close(gg, mf.autograd.grad((g_rows * g_rows).sum(), rows)[0], 1e-6)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64, mf.int64])
def test_reductions_of_channels_last_tensors_read_them_as_they_lie(dtype):
    """A conv bias's gradient (a sum over N, H and W of a channels-last dy) and the other
    reductions whose kept dims lie in the row-major output's order give the row-major values."""
    x = (randn(3, 8, 5, 6, dtype=mf.float64) * 10).to(dtype)
    xc = x.to(memory_format=CL)
    for fn in (lambda a: a.sum((0, 2, 3)), lambda a: a.sum((0, 2, 3), keepdim=True), lambda a: a.amax((2, 3)),
               lambda a: a.sum(1), lambda a: a.amin((1, 2), keepdim=True), lambda a: a.sum((0, 3))):
        close(fn(xc), fn(x), 1e-5 if dtype == mf.float32 else 1e-12)
    if dtype != mf.int64:
        close(xc.mean((0, 2, 3)), x.mean((0, 2, 3)), 1e-5)
        x5 = randn(2, 4, 3, 5, 2, dtype=dtype)
        close(x5.to(memory_format=mf.channels_last_3d).sum((0, 2, 3, 4)), x5.sum((0, 2, 3, 4)), 1e-5)


def test_ops_without_channels_last_kernels_read_a_converted_copy():
    x = randn(2, 8, 6, 6)
    xc, m = x.to(memory_format=CL), randn(288, 3)
    for fn in (lambda a: a.sum(dim=1), lambda a: a.flatten(1) @ m, lambda a: F.softmax(a, dim=1),
               lambda a: a.transpose(1, 3)):
        check_same(fn, (x,), (xc,), keeps=False)
    mf.manual_seed(0)
    dropped = F.dropout(xc, 0.5)
    mf.manual_seed(0)
    close(dropped, F.dropout(x, 0.5))  # the same draws: random ops run row-major


def test_nearest_interpolate_keeps_channels_last():
    """As torch's: a channels-last input resized nearest gives a channels-last output, its
    values and gradient exactly the row-major ones (up, down, by scale or size; 3-d too)."""
    x = randn(2, 8, 6, 6)
    for fn in (lambda a: F.interpolate(a, scale_factor=2), lambda a: F.interpolate(a, size=(4, 9)),
               lambda a: F.interpolate(a, scale_factor=(1.5, 0.7))):
        check_same(fn, (x,), (x.to(memory_format=CL),), keeps=True, tol=0)
    v = randn(2, 4, 3, 4, 5)
    out, grads = run(lambda a: F.interpolate(a, size=(6, 2, 7)), v)
    out_cl, grads_cl = run(lambda a: F.interpolate(a, size=(6, 2, 7)), v.to(memory_format=mf.channels_last_3d))
    assert out_cl.is_contiguous(memory_format=mf.channels_last_3d)
    close(out_cl, out, 0)
    close(grads_cl[0], grads[0], 0)


@pytest.mark.parametrize("dtype, tol", [(mf.float32, 1e-5), (mf.float64, 1e-12)])
def test_linear_interpolate_keeps_channels_last(dtype, tol):
    """As torch's: bilinear, bicubic and trilinear resizing of a channels-last input give a
    channels-last output, values and gradient the row-major ones (up, down, odd sizes,
    align_corners)."""
    x = randn(2, 5, 7, 6, dtype=dtype)
    for fn in (lambda a: F.interpolate(a, scale_factor=2, mode="bilinear"),
               lambda a: F.interpolate(a, size=(4, 9), mode="bilinear", align_corners=True),
               lambda a: F.interpolate(a, scale_factor=(1.5, 0.7), mode="bilinear"),
               lambda a: F.interpolate(a, size=(9, 5), mode="bicubic")):
        check_same(fn, (x,), (x.to(memory_format=CL),), keeps=True, tol=tol)
    v = randn(2, 3, 3, 4, 5, dtype=dtype)
    out, grads = run(lambda a: F.interpolate(a, size=(6, 2, 7), mode="trilinear"), v)
    out_cl, grads_cl = run(lambda a: F.interpolate(a, size=(6, 2, 7), mode="trilinear"),
                           v.to(memory_format=mf.channels_last_3d))
    assert out_cl.is_contiguous(memory_format=mf.channels_last_3d)
    close(out_cl, out, tol)
    close(grads_cl[0], grads[0], tol)


def test_cat_keeps_a_shared_channels_last_format():
    """As torch's: inputs all channels-last concatenate channels-last, along any dim (a skip
    connection's channels, 3-d too); a mix concatenates row-major; values and gradients
    exactly the row-major ones."""
    a, b = randn(2, 3, 5, 4), randn(2, 6, 5, 4)
    check_same(lambda x, y: mf.cat([x, y, x], dim=1), (a, b), (a.to(memory_format=CL), b.to(memory_format=CL)),
               keeps=True, tol=0)
    for dim, other in ((0, randn(1, 3, 5, 4)), (2, randn(2, 3, 2, 4)), (3, randn(2, 3, 5, 7))):
        check_same(lambda x, y: mf.cat([x, y], dim=dim), (a, other),
                   (a.to(memory_format=CL), other.to(memory_format=CL)), keeps=True, tol=0)
    check_same(lambda x, y: mf.cat([x, y], dim=1), (a, b), (a.to(memory_format=CL), b), keeps=False, tol=0)
    labels = mf.tensor(RNG.integers(0, 9, (2, 3, 5, 4)))
    mixed = mf.cat([labels.to(memory_format=CL), labels.to(memory_format=CL)], dim=1)
    assert mixed.is_contiguous(memory_format=CL)
    np.testing.assert_array_equal(mixed.numpy(), np.concatenate([labels.numpy()] * 2, axis=1))
    v, w = randn(2, 3, 3, 4, 5), randn(2, 2, 3, 4, 5)
    out = mf.cat([v.to(memory_format=mf.channels_last_3d), w.to(memory_format=mf.channels_last_3d)], dim=1)
    assert out.is_contiguous(memory_format=mf.channels_last_3d)
    close(out, mf.cat([v, w], dim=1), 0)


def test_slices_of_a_convolutions_channels_last_output():
    """Slices of a convolution's output (channels-last inside: a U-Net's cat backward slices
    its gradient so) read it as it lies: every dim's slices and steps, 3-d too, and a dropped
    dim, values exactly the row-major ones, and of torch's channels_last; the gradients of a
    cat of convolutions' outputs."""
    x, w = randn(2, 8, 6, 5), randn(12, 8, 3, 3)
    y = F.conv2d(x, w, padding=1)
    expected = y.numpy()
    for index in ((slice(None), slice(2, 7)), (slice(None), slice(1, None, 3)), (slice(1, 2), slice(None), slice(1, 5)),
                  (Ellipsis, slice(0, 4, 2)), (slice(None), 3), (slice(None), slice(4, 8), slice(None, None, 2))):
        part = y[index]
        np.testing.assert_array_equal(part.contiguous().numpy(), expected[index])
        np.testing.assert_array_equal((part * 2).numpy(), expected[index] * 2)
    v = F.conv3d(randn(2, 3, 4, 5, 6), randn(6, 3, 3, 3, 3), padding=1)
    np.testing.assert_array_equal(v[:, 1:5].numpy(), v.numpy()[:, 1:5])
    user = x.to(memory_format=CL)
    np.testing.assert_array_equal(user[:, 2:6].contiguous().numpy(), x.numpy()[:, 2:6])
    w_a, w_b = randn(4, 8, 3, 3), randn(6, 8, 1, 1)

    def skips(a):  # float64 convolutions run row-major: the reference
        return mf.cat([F.conv2d(a, w_a.to(a.dtype), padding=1), F.conv2d(a, w_b.to(a.dtype))], dim=1).relu()
    check_same(skips, (x,), (x.to(memory_format=CL),), keeps=True)
    out, grads = run(skips, x)
    reference, reference_grads = run(skips, x.double())
    close(out, reference, 1e-4)
    close(grads[0], reference_grads[0], 1e-4)


def test_one_channel_or_one_pixel_changes_format_without_moving_elements():
    """A one-channel convolution's output (a mask's logits) meets row-major operands, and
    tensors of one channel or one pixel change format, values and strides as torch's."""
    x, w, mask = randn(2, 8, 6, 5), randn(1, 8, 3, 3), randn(2, 1, 6, 5)
    logits = F.conv2d(x, w, padding=1)
    check_same(lambda a: F.conv2d(a, w, padding=1) * mask, (x,), (x.to(memory_format=CL),), keeps=True)
    np.testing.assert_array_equal((logits - mask).numpy(), logits.numpy() - mask.numpy())
    for t in (mask, randn(3, 4, 1, 1)):
        last = t.to(memory_format=CL)
        assert last.is_contiguous(memory_format=CL)
        np.testing.assert_array_equal(last.numpy(), t.numpy())
        back = (last + 0).contiguous()
        assert back.is_contiguous()
        np.testing.assert_array_equal(back.numpy(), t.numpy())


def resnet_block():
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(16)
            self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(32)
            self.skip = nn.Conv2d(16, 32, 1, stride=2, bias=False)
            self.head = nn.Linear(32, 10)

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            y = F.relu(self.bn2(self.conv2(y)) + self.skip(x))
            return self.head(F.adaptive_avg_pool2d(y, 1).flatten(1))

    mf.manual_seed(3)
    return Block()


def sgd_step(model, graph):
    """One cross-entropy training step of model under SGD with momentum: eager, or nn.Graph's."""
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    if graph:
        return CrossEntropyStep(model, opt)

    def step(x, labels):
        loss = F.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return step


def train(channels_last, graph=False, steps=3):
    model = resnet_block()
    x = mf.tensor(np.random.default_rng(7).standard_normal((8, 16, 8, 8)), dtype=mf.float32)
    labels = mf.tensor(np.arange(8) % 10)
    if channels_last:
        model.to(memory_format=CL)
        x = x.to(memory_format=CL)
    run_step = sgd_step(model, graph)
    losses = [float(run_step(x, labels)) for _ in range(steps)]
    return losses, [p.detach().contiguous().numpy() for p in model.parameters()]


def test_resnet_block_trains_as_row_major_eager_and_in_graph_mode():
    losses, params = train(False)
    for graph in (False, True):
        losses_cl, params_cl = train(True, graph=graph)
        np.testing.assert_allclose(losses_cl, losses, rtol=1e-4)
        for p, p_cl in zip(params, params_cl):
            np.testing.assert_allclose(p_cl, p, rtol=1e-3, atol=1e-4)


def convnext_block():
    """ConvNeXt's block: a 7x7 depthwise conv, LayerNorm over channels by permutes (which
    move no bytes on the convolution's channels-last output), an MLP, the permute back and
    the residual, then a conv reading that sum."""

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.dwconv = nn.Conv2d(16, 16, 7, padding=3, groups=16)
            self.norm = nn.LayerNorm(16)
            self.mlp = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 16))
            self.conv = nn.Conv2d(16, 8, 3, padding=1)
            self.head = nn.Linear(8, 10)

        def forward(self, x):
            y = x + self.mlp(self.norm(self.dwconv(x).permute(0, 2, 3, 1))).permute(0, 3, 1, 2)
            return self.head(self.conv(y).mean(dim=(2, 3)))

    mf.manual_seed(4)
    return Block()


def test_convnext_block_trains_as_in_float64_eager_and_in_graph_mode():
    x = np.random.default_rng(8).standard_normal((4, 16, 8, 8))
    labels = mf.tensor(np.arange(4) % 10)

    def train(dtype, graph):
        run_step = sgd_step(convnext_block().to(dtype), graph)
        return [float(run_step(mf.tensor(x, dtype=dtype), labels)) for _ in range(3)]

    want = train(mf.float64, False)
    for graph in (False, True):
        np.testing.assert_allclose(train(mf.float32, graph), want, rtol=1e-4)


def test_a_plain_models_tensors_stay_row_major_to_the_user():
    """A convolution of a row-major input keeps its result channels-last inside (the next
    ops read it without reorders), but the user sees torch's row-major tensor."""
    x, w, b = randn(2, 8, 6, 6), randn(8, 8, 3, 3), randn(8)
    y = F.relu(F.batch_norm(F.conv2d(x, w, b, padding=1), None, None, training=True))
    assert y.is_contiguous() and y.stride() == (288, 36, 6, 1) and not y.is_contiguous(memory_format=CL)
    np.testing.assert_array_equal(y.view(2, -1).numpy(), y.numpy().reshape(2, -1))
    reference = F.relu(F.batch_norm(F.conv2d(x.double(), w.double(), b.double(), padding=1), None, None, training=True))
    close(y, reference, 1e-4)
    assert y.to(memory_format=CL).stride() == (288, 1, 48, 8)


def test_broadcasts_where_the_permuted_shape_is_the_shape():
    """[4, 8, 8, 8] read as [N, H, W, C] is [4, 8, 8, 8] again: its format still changes."""
    x, bias = randn(4, 8, 8, 8), randn(8, 1, 1)
    check_same(lambda a, b: a + b, (x, bias), (x.to(memory_format=CL), bias), keeps=True)


def test_numpy_shared_memory_meets_channels_last():
    # An array's memory is row-major: a channels-last value written into a tensor sharing it
    # lands in NumPy's order, and numpy() of a channels-last tensor reads row-major values.
    rng = np.random.default_rng(5)
    a = np.zeros((2, 3, 4, 4), np.float32)
    t = mf.from_numpy(a)
    v = rng.standard_normal(a.shape).astype(np.float32)
    cl = mf.tensor(v).to(memory_format=mf.channels_last)
    t.add_(cl)
    np.testing.assert_array_equal(a, v)
    t.copy_(cl * 2)
    np.testing.assert_array_equal(a, 2 * v)
    np.testing.assert_array_equal(cl.numpy(), v)


def test_an_in_place_write_keeps_the_tensors_memory_format_as_torchs():
    # torch's in-place ops keep strides: a channels_last parameter stays so after its step, a
    # copy_ into it and load_state_dict, and a row-major tensor stays row-major taking a channels_last value.
    conv = mf.nn.Conv2d(3, 4, 3).to(memory_format=mf.channels_last)
    opt = mf.optim.SGD(conv.parameters(), lr=0.1, momentum=0.9)
    conv(mf.ones(1, 3, 5, 5)).sum().backward()
    opt.step()
    w = conv.weight
    assert w.is_contiguous(memory_format=mf.channels_last)
    with mf.no_grad():
        w.copy_(mf.ones(4, 3, 3, 3))
        w.mul_(2)
    assert w.is_contiguous(memory_format=mf.channels_last) and w.stride() == (27, 1, 9, 3)
    conv.load_state_dict({"weight": mf.zeros(4, 3, 3, 3), "bias": mf.zeros(4)})
    assert conv.weight.is_contiguous(memory_format=mf.channels_last) and conv.weight.sum().item() == 0
    plain = mf.zeros(2, 3, 4, 4)
    plain.copy_(mf.ones(2, 3, 4, 4).contiguous(memory_format=mf.channels_last))
    assert plain.is_contiguous() and plain.stride() == (48, 16, 4, 1) and plain.sum().item() == 96
