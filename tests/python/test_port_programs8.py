"""What ported programs met (issue 37, eighth programs round: the official tutorials and the
docs' examples), against NumPy formulas of torch's kernels: the spatial transformer's grids and
samples (linspace's bits, affine_grid's rounding, bicubic grid_sample), ctc_loss's gradient of
its log_probs, torch's out= keyword and torch.func.stack_module_state."""
import math
import warnings

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

f32 = np.float32


def _torch_linspace32(start, end, n):
    """torch's float32 linspace kernel: the step in float32, each value a fused multiply-add
    from the nearer end (the float64 product of two float32 values is exact, and its sum rounds
    to float32 as the fused one does)."""
    start, end = f32(start), f32(end)
    step = np.float64(f32(f32(end - start) / f32(n - 1)))
    i = np.arange(n, dtype=np.float64)
    return np.where(i < n // 2, i * step + start, (i - (n - 1)) * step + end).astype(f32)


# ---- linspace and the spatial transformer tutorial's grids

def test_float32_linspace_has_torch_s_bits():
    for start, end in [(-1, 1), (0, 1), (-3.3, 7.1), (5, -2)]:
        for n in range(2, 90):
            np.testing.assert_array_equal(mf.linspace(start, end, n).numpy(), _torch_linspace32(start, end, n))
    # the middle of linspace(-1, 1, 7) counted back from 1 by a fused 1 - 3 * fl(1/3): torch's value
    assert mf.linspace(-1, 1, 7).numpy()[3] == f32(-2.9802322e-08)
    assert mf.linspace(2.5, 9, 1).numpy().tolist() == [2.5]


def _affine_grid_reference(theta, h, w, align_corners):
    """torch's affine_grid in float32: base coordinates linspace(-1, 1) (times (n - 1) / n
    without align_corners), then (x t0 + y t1) + t2 rounded in turn."""
    def base(n):
        values = _torch_linspace32(-1, 1, n)
        return values if align_corners else f32(f32(values * f32(n - 1)) / f32(n))
    x, y = base(w)[None, :, None], base(h)[:, None, None]
    t = theta.astype(f32)[:, None, None]
    return (x * t[..., 0] + y * t[..., 1]) + t[..., 2]


def _unnormalized(g, size, align_corners):
    """torch's CPU grid sampler's pixel coordinates: a precomputed scale, then the offset."""
    return (g + f32(1)) * f32((size - 1) / 2) if align_corners else (g + f32(1)) * f32(size / 2) - f32(0.5)


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_has_torch_s_bits(align_corners):
    theta = np.array([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]], [[1, 0, 0], [0, 1, 0]]], dtype=f32)
    grid = F.affine_grid(mf.tensor(theta), [2, 1, 28, 19], align_corners=align_corners).numpy()
    np.testing.assert_array_equal(grid, _affine_grid_reference(theta, 28, 19, align_corners))


@pytest.mark.parametrize("align_corners", [False, True])
def test_nearest_sampling_picks_torch_s_pixel_at_ties(align_corners):
    """theta's round entries put many grid points at exact half-pixel ties: the pixel taken is
    the one torch's rounding of the same float32 coordinate takes (half to even)."""
    rng = np.random.default_rng(0)
    img = rng.random((1, 1, 28, 28)).astype(f32)
    theta = np.array([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]]], dtype=f32)
    grid = _affine_grid_reference(theta, 28, 28, align_corners)
    x = np.rint(_unnormalized(grid[..., 0], 28, align_corners)).astype(int)
    y = np.rint(_unnormalized(grid[..., 1], 28, align_corners)).astype(int)
    inside = (x >= 0) & (x < 28) & (y >= 0) & (y < 28)
    expected = np.where(inside, img[0, 0][y.clip(0, 27), x.clip(0, 27)], 0)
    out = F.grid_sample(mf.tensor(img), F.affine_grid(mf.tensor(theta), [1, 1, 28, 28], align_corners=align_corners),
                        mode="nearest", align_corners=align_corners)
    np.testing.assert_array_equal(out.numpy()[0, 0], expected[0])


def test_the_identity_transformer_s_theta_gradient_is_torch_s():
    """The tutorial starts its localization head at the identity: every sample sits on a pixel
    center, where bilinear's slope jumps, so the gradient that trains theta depends on which
    side of the center the float32 coordinate fell; with torch's rounding it is torch's."""
    rng = np.random.default_rng(1)
    h, w = 6, 7
    img = rng.random((1, 1, h, w)).astype(f32)
    theta = mf.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
    F.grid_sample(mf.tensor(img), F.affine_grid(theta, [1, 1, h, w]), align_corners=False).sum().backward()
    base = _affine_grid_reference(np.array([[[1, 0, 0], [0, 1, 0]]], dtype=f32), h, w, False)[0]
    x, y = _unnormalized(base[..., 0], w, False), _unnormalized(base[..., 1], h, False)
    padded = np.pad(img[0, 0].astype(np.float64), 1)  # zeros outside, indices shifted by one

    def value(yy, xx):
        return padded[yy + 1, xx + 1]
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    # d out / d x and d out / d y of the bilinear blend, times d pixel / d normalized coordinate
    dx = ((value(y0, x0 + 1) - value(y0, x0)) * (1 - fy) + (value(y0 + 1, x0 + 1) - value(y0 + 1, x0)) * fy) * (w / 2)
    dy = ((value(y0 + 1, x0) - value(y0, x0)) * (1 - fx) + (value(y0 + 1, x0 + 1) - value(y0, x0 + 1)) * fx) * (h / 2)
    bx, by = base[..., 0].astype(np.float64), base[..., 1].astype(np.float64)
    expected = np.array([[(dx * bx).sum(), (dx * by).sum(), dx.sum()], [(dy * bx).sum(), (dy * by).sum(), dy.sum()]])
    np.testing.assert_allclose(theta.grad.numpy()[0], expected, rtol=1e-4, atol=1e-4)


def _cubic(t):
    a = -0.75
    near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1  # noqa: E731
    far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # noqa: E731
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _reflect(x, twice_low, twice_high):
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    d = np.abs(x - low)
    flips, extra = np.floor(d / span), np.fmod(d, span)
    return np.where(flips % 2 == 0, extra + low, span - extra + low)


def _bicubic_reference(img, grid, padding_mode, align_corners):
    """torch's bicubic grid_sample in float64: the 4x4 taps around the unpadded coordinate, each
    tap's index padded (clamped, reflected, or a zero outside), weighted by the cubic
    convolution with A = -0.75."""
    _, _, h, w = img.shape
    def unnormalize(g, n):
        return (g + 1) / 2 * (n - 1) if align_corners else ((g + 1) * n - 1) / 2

    def pad(i, n):
        if padding_mode == "border":
            return np.clip(i, 0, n - 1)
        if padding_mode == "reflection":
            r = _reflect(i, 0, 2 * (n - 1)) if align_corners else _reflect(i, -1, 2 * n - 1)
            return np.clip(r, 0, n - 1)
        return i
    x, y = unnormalize(grid[..., 0], w), unnormalize(grid[..., 1], h)
    x0, y0 = np.floor(x), np.floor(y)
    wx, wy = _cubic(x - x0), _cubic(y - y0)
    out = np.zeros(img.shape[:2] + grid.shape[1:3])
    for j in range(4):
        for i in range(4):
            xi, yi = pad(x0 + i - 1, w), pad(y0 + j - 1, h)
            inside = (xi >= 0) & (xi <= w - 1) & (yi >= 0) & (yi <= h - 1)
            xc, yc = np.clip(xi, 0, w - 1).astype(int), np.clip(yi, 0, h - 1).astype(int)
            for b in range(img.shape[0]):
                taps = img[b][:, yc[b], xc[b]] * inside[b]
                out[b] += taps * (wx[i] * wy[j])[b]
    return out


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bicubic_grid_sample_is_torch_s_cubic_convolution(padding_mode, align_corners):
    rng = np.random.default_rng(2)
    img = rng.standard_normal((2, 3, 5, 6))
    grid = rng.uniform(-1.3, 1.3, (2, 4, 3, 2))
    out = F.grid_sample(mf.tensor(img, dtype=mf.float32), mf.tensor(grid, dtype=mf.float32), mode="bicubic",
                        padding_mode=padding_mode, align_corners=align_corners)
    np.testing.assert_allclose(out.numpy(), _bicubic_reference(img, grid, padding_mode, align_corners),
                               rtol=1e-4, atol=1e-5)


def test_bicubic_grid_sample_is_differentiable_in_input_and_grid():
    rng = np.random.default_rng(3)
    img = mf.tensor(rng.standard_normal((1, 2, 4, 5)), dtype=mf.float64, requires_grad=True)
    grid = mf.tensor(rng.uniform(-0.9, 0.9, (1, 3, 2, 2)), dtype=mf.float64, requires_grad=True)
    assert mf.autograd.gradcheck(lambda i, g: F.grid_sample(i, g, mode="bicubic", padding_mode="border",
                                                            align_corners=False), (img, grid))
    with pytest.raises(ValueError, match="'bilinear', 'nearest' or 'bicubic'"):
        F.grid_sample(img, grid, mode="area")


# ---- ctc_loss: the gradient its log_probs get

def _ctc_reference(lp, target):
    """-log p(target) over every alignment of one sequence (brute force) and its exact
    gradient in each log-probability, float64."""
    import itertools
    steps, classes = lp.shape
    total, grad = 0.0, np.zeros_like(lp)
    for path in itertools.product(range(classes), repeat=steps):
        collapsed = [c for i, c in enumerate(path) if c != 0 and (i == 0 or c != path[i - 1])]
        if collapsed == list(target):
            p = math.exp(sum(lp[t, c] for t, c in enumerate(path)))
            total += p
            for t, c in enumerate(path):
                grad[t, c] -= p
    return -math.log(total), grad / total


def test_ctc_loss_gives_log_probs_torch_s_gradient_and_logits_the_exact_one():
    """torch's backward returns exp(log_probs) minus the alignments' posteriors (the gradient
    in the logits of a log_softmax); through the log_softmax that makes log_probs the added
    softmax cancels, leaving the exact gradient in the logits."""
    rng = np.random.default_rng(4)
    logits = rng.standard_normal((4, 1, 3))
    lp64 = logits - np.log(np.exp(logits).sum(2, keepdims=True))
    target = [1, 2]
    loss_ref, grad_ref = _ctc_reference(lp64[:, 0], target)
    lp = mf.tensor(lp64, dtype=mf.float32, requires_grad=True)
    loss = F.ctc_loss(lp, mf.tensor([target]), [4], [2], reduction="sum")
    loss.backward()
    np.testing.assert_allclose(loss.item(), loss_ref, rtol=1e-5)
    np.testing.assert_allclose(lp.grad.numpy()[:, 0], np.exp(lp64[:, 0]) + grad_ref, rtol=1e-4, atol=1e-6)
    z = mf.tensor(logits, dtype=mf.float32, requires_grad=True)
    F.ctc_loss(F.log_softmax(z, 2), mf.tensor([target]), [4], [2], reduction="sum").backward()
    softmax = np.exp(lp64[:, 0])
    exact = grad_ref - softmax * grad_ref.sum(1, keepdims=True)  # through log_softmax
    np.testing.assert_allclose(z.grad.numpy()[:, 0], exact, rtol=1e-4, atol=1e-6)


def test_ctc_gradient_term_stops_at_each_input_length_and_at_zeroed_infinities():
    rng = np.random.default_rng(5)
    lp64 = rng.standard_normal((5, 2, 3))
    lp64 -= np.log(np.exp(lp64).sum(2, keepdims=True))
    lp = mf.tensor(lp64, dtype=mf.float32, requires_grad=True)
    # the second sequence (length 1) cannot emit two labels: its loss is infinite, zeroed
    F.ctc_loss(lp, mf.tensor([[1, 2], [1, 2]]), [5, 1], [2, 2], reduction="sum", zero_infinity=True).backward()
    g = lp.grad.numpy()
    assert np.all(g[:, 1] == 0)
    _, grad_ref = _ctc_reference(lp64[:, 0], [1, 2])
    np.testing.assert_allclose(g[:, 0], np.exp(lp64[:, 0]) + grad_ref, rtol=1e-4, atol=1e-6)
    lp.grad = None
    F.ctc_loss(lp, mf.tensor([[1], [2]]), [5, 3], [1, 1], reduction="sum").backward()
    assert np.all(lp.grad.numpy()[3:, 1] == 0)


# ---- torch's out= keyword (the tensor tutorial's torch.matmul(t, t.T, out=y3))

def test_out_keyword_writes_the_given_tensor_and_returns_it():
    t = mf.arange(16, dtype=mf.float32).reshape(4, 4)
    y3 = mf.zeros(4, 4)
    returned = mf.matmul(t, t.T, out=y3)
    assert returned is y3
    np.testing.assert_allclose(y3.numpy(), t.numpy() @ t.numpy().T)
    z = mf.zeros(4, 4)
    view = z[1]
    mf.mul(t[1], t[1], out=view)  # a view written in place reaches its base
    np.testing.assert_allclose(z.numpy()[1], t.numpy()[1] ** 2)
    ints = mf.zeros(3, dtype=mf.int64)
    mf.add(mf.tensor([1, 2, 3]), 1, out=ints)
    assert ints.tolist() == [2, 3, 4] and ints.dtype == mf.int64
    wide = mf.zeros(3, dtype=mf.float64)
    mf.exp(mf.zeros(3), out=wide)
    assert wide.dtype == mf.float64 and wide.tolist() == [1.0, 1.0, 1.0]
    assert mf.sum(t, 1, out=None).shape == (4,)


def test_out_keyword_resizes_as_torch_and_takes_a_tuple_for_several_results():
    empty = mf.tensor([])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mf.cat([mf.ones(2), mf.zeros(1)], out=empty)  # an empty out is resized without a warning
    assert empty.tolist() == [1.0, 1.0, 0.0]
    small = mf.zeros(2)
    with pytest.warns(UserWarning, match="was resized"):
        mf.sum(mf.ones(3, 4), 0, out=small)
    assert small.tolist() == [3.0] * 4
    values, indices = mf.zeros(2), mf.zeros(2, dtype=mf.int64)
    result = mf.max(mf.tensor([[1.0, 3.0], [4.0, 2.0]]), 1, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert values.tolist() == [3.0, 4.0] and indices.tolist() == [1, 0]


def test_out_keyword_refuses_what_torch_refuses():
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        mf.div(mf.ones(2), 3, out=mf.zeros(2, dtype=mf.int64))
    w = mf.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        mf.mul(w, 2, out=mf.zeros(2))
    with mf.no_grad():
        mf.mul(w, 2, out=mf.zeros(2))
    with pytest.raises(TypeError, match="must be Tensor"):
        mf.add(mf.ones(2), 1, out=2.0)


# ---- torch.func.stack_module_state: the model ensembling tutorial

class _MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.bn, self.fc2 = nn.Linear(6, 8), nn.BatchNorm1d(8), nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def test_stack_module_state_runs_an_ensemble_under_vmap_as_a_loop():
    from meshflow.func import functional_call, stack_module_state, vmap
    models = [_MLP().eval() for _ in range(3)]
    with mf.no_grad():
        for i, m in enumerate(models):
            m.bn.running_mean.fill_(0.1 * i)
    params, buffers = stack_module_state(models)
    assert params["fc1.weight"].shape == (3, 8, 6) and params["fc1.weight"].is_leaf
    assert params["fc1.weight"].requires_grad and not buffers["bn.running_mean"].requires_grad
    np.testing.assert_array_equal(buffers["bn.running_mean"].numpy()[:, 0], np.float32([0, 0.1, 0.2]))
    x = mf.tensor(np.random.default_rng(6).standard_normal((5, 6)), dtype=mf.float32)
    out = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
    np.testing.assert_allclose(out.numpy(), np.stack([m(x).detach().numpy() for m in models]), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    assert params["fc2.bias"].grad.tolist() == [[5.0] * 3] * 3


def test_stack_module_state_refuses_mixed_models():
    from meshflow.func import stack_module_state
    a, b = _MLP(), _MLP()
    b.train(False)
    with pytest.raises(RuntimeError, match="training/eval mode"):
        stack_module_state([a, b])
    b.train()
    b.fc1.weight.requires_grad_(False)
    with pytest.raises(RuntimeError, match="requires grad in some models"):
        stack_module_state([a, b])
    with pytest.raises(RuntimeError, match="at least one model"):
        stack_module_state([])


# ---- torch.nn.utils.prune: the pruning tutorial

def _linear(weights, bias=None):
    layer = nn.Linear(weights.shape[1], weights.shape[0], bias=bias is not None)
    with mf.no_grad():
        layer.weight.copy_(mf.tensor(weights, dtype=mf.float32))
        if bias is not None:
            layer.bias.copy_(mf.tensor(bias, dtype=mf.float32))
    return layer


def test_l1_unstructured_masks_the_smallest_magnitudes_through_a_forward_pre_hook():
    import meshflow.nn.utils.prune as prune
    rng = np.random.default_rng(7)
    w = rng.permutation(np.arange(1, 13)).reshape(3, 4) * rng.choice([-1.0, 1.0], (3, 4))
    layer = _linear(w, np.zeros(3))
    prune.l1_unstructured(layer, name="weight", amount=0.3)  # round(0.3 * 12) = 4 elements
    expected_mask = (np.abs(w) > 4).astype(np.float32)
    assert [n for n, _ in layer.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in layer.named_buffers()] == ["weight_mask"] and prune.is_pruned(layer)
    np.testing.assert_array_equal(layer.weight_mask.numpy(), expected_mask)
    np.testing.assert_array_equal(layer.weight.numpy(), w * expected_mask)
    x = np.ones((2, 4), dtype=np.float32)
    out = layer(mf.tensor(x))
    out.sum().backward()
    np.testing.assert_allclose(out.numpy(), x @ (w * expected_mask).T)
    np.testing.assert_array_equal(layer.weight_orig.grad.numpy(), np.broadcast_to(2 * expected_mask, w.shape))
    with mf.no_grad():
        layer.weight_orig.mul_(2)  # the pre-hook recomputes the pruned weight before each forward
    np.testing.assert_allclose(layer(mf.tensor(x)).numpy(), x @ (2 * w * expected_mask).T)
    assert sorted(layer.state_dict()) == ["bias", "weight_mask", "weight_orig"]


def test_pruning_again_prunes_among_the_kept_elements_and_remove_makes_it_permanent():
    import meshflow.nn.utils.prune as prune
    w = np.arange(1.0, 13.0).reshape(3, 4)
    layer = _linear(w)
    prune.l1_unstructured(layer, "weight", amount=3)
    prune.l1_unstructured(layer, "weight", amount=0.5)  # half of the 9 kept: round(4.5) = 4 more
    np.testing.assert_array_equal(layer.weight_mask.numpy().reshape(-1), (np.arange(1, 13) > 7).astype(np.float32))
    hooks = list(layer._forward_pre_hooks.values())  # the hooks themselves, as torch's
    assert len(hooks) == 1 and isinstance(hooks[0], prune.PruningContainer) and len(hooks[0]) == 2
    prune.remove(layer, "weight")
    assert [n for n, _ in layer.named_parameters()] == ["weight"] and not prune.is_pruned(layer)
    assert isinstance(layer.weight, nn.Parameter)
    np.testing.assert_array_equal(layer.weight.numpy(), w * (w > 7))
    with pytest.raises(ValueError, match="has to be pruned before"):
        prune.remove(layer, "weight")
    with pytest.raises(ValueError, match="should be smaller than"):
        prune.l1_unstructured(layer, "weight", amount=13)


def test_ln_structured_prunes_the_slices_of_smallest_norm():
    import meshflow.nn.utils.prune as prune
    rng = np.random.default_rng(8)
    w = rng.standard_normal((5, 3))
    layer = _linear(w)
    prune.ln_structured(layer, "weight", amount=0.4, n=2, dim=0)  # 2 of 5 rows
    norms = np.linalg.norm(w, axis=1)
    kept_rows = np.argsort(norms)[2:]
    expected = np.zeros_like(w)
    expected[kept_rows] = w[kept_rows]
    np.testing.assert_allclose(layer.weight.numpy(), expected, rtol=1e-6)
    prune.ln_structured(layer, "weight", amount=1, n=1, dim=0)  # among the 3 rows kept
    l1 = np.where(np.isin(np.arange(5), kept_rows), np.abs(w).sum(1), np.inf)
    expected[np.argmin(l1)] = 0
    np.testing.assert_allclose(layer.weight.numpy(), expected, rtol=1e-6)


def test_global_unstructured_ranks_every_parameter_s_elements_together():
    import meshflow.nn.utils.prune as prune
    rng = np.random.default_rng(9)
    w1, w2 = rng.standard_normal((4, 3)), rng.standard_normal((2, 4)) * 3
    a, b = _linear(w1), _linear(w2)
    prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=0.25)
    everything = np.abs(np.concatenate([w1.ravel(), w2.ravel()]))
    cut = np.sort(everything)[5]  # the 5 smallest of 20 (0.25) pruned
    np.testing.assert_array_equal(a.weight_mask.numpy(), (np.abs(w1) >= cut).astype(np.float32))
    np.testing.assert_array_equal(b.weight_mask.numpy(), (np.abs(w2) >= cut).astype(np.float32))
    prune.random_unstructured(a, "weight", amount=2)
    assert int((a.weight_mask.numpy() == 0).sum()) == int((np.abs(w1) < cut).sum()) + 2
    with pytest.raises(TypeError, match="unstructured"):
        prune.global_unstructured([(b, "weight")], pruning_method=prune.LnStructured, amount=1, n=2, dim=0)


# ---- as_strided on a tensor's own elements (sliding windows)

def test_as_strided_reads_the_row_major_elements_as_numpy_s_strides_do():
    base = np.arange(12.0, dtype=np.float32)
    item = base.itemsize
    for size, stride, offset in [((2, 2), (1, 2), 0), ((2, 2), (1, 2), 1), ((5, 4), (2, 1), 0), ((3, 3, 2), (3, 1, 2), 1)]:
        expected = np.lib.stride_tricks.as_strided(base[offset:], size, [s * item for s in stride])
        got = mf.as_strided(mf.tensor(base), size, stride, offset)
        np.testing.assert_array_equal(got.numpy(), expected)
    x = mf.arange(12.0).view(3, 4)  # a whole reshape reads the same storage
    np.testing.assert_array_equal(x.as_strided((3, 2), (4, 2)).numpy(), base.reshape(3, 4)[:, ::2])
    w = mf.tensor(base, requires_grad=True)
    mf.as_strided(w, (4, 3), (2, 1)).sum().backward()  # overlapping windows count each element they hold
    np.testing.assert_array_equal(w.grad.numpy()[:10], np.float32([1, 1, 2, 1, 2, 1, 2, 1, 1, 0]))


def test_as_strided_refuses_views_of_part_of_a_tensor_and_out_of_range_windows():
    x = mf.arange(12.0).view(3, 4)
    for view in (x[1:], x.t()):
        with pytest.raises(NotImplementedError, match="storage torch would read"):
            view.as_strided((2,), (1,))
    with pytest.raises(RuntimeError, match="out of bounds"):
        mf.as_strided(mf.zeros(4), (3,), (2,))
    with pytest.raises(RuntimeError, match="mismatch in length"):
        mf.as_strided(mf.zeros(4), (2, 2), (1,))


def test_parameter_containers_print_their_entries_as_torch_s():
    """torch's ParameterDict names each entry's tensor type, its ParameterList the dtype."""
    d = nn.ParameterDict({"w": nn.Parameter(mf.zeros(2, 3)), "b": nn.Parameter(mf.zeros(1, dtype=mf.float64))})
    assert repr(d) == ("ParameterDict(\n    (w): Parameter containing: [meshflow.FloatTensor of size 2x3]\n"
                       "    (b): Parameter containing: [meshflow.DoubleTensor of size 1]\n)")
    assert "(0): Parameter containing: [meshflow.float32 of size 2]" in repr(nn.ParameterList([nn.Parameter(mf.zeros(2))]))


# ---- torch.profiler (the profiling tutorial's spellings)

def test_profiler_records_labelled_regions_and_scheduled_steps(tmp_path):
    import json
    from meshflow.profiler import ProfilerActivity, profile, record_function, schedule
    model = nn.Linear(8, 4)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(3):
            with record_function("model_inference"):
                model(mf.ones(2, 8))
    averages = prof.key_averages()
    assert [(key, calls) for key, calls, _ in averages] == [("model_inference", 3)]
    table = averages.table(sort_by="cpu_time_total", row_limit=10)
    assert "model_inference" in table and table.splitlines()[0].startswith("Name")
    traces = []
    with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=lambda q: traces.append(q.events_list())) as p:
        for _ in range(6):
            with record_function("step_body"):
                model(mf.ones(2, 8))
            p.step()
    assert len(traces) == 1  # saved once, at the last active step of the one cycle
    assert sorted(e.key for e in traces[0]) == ["ProfilerStep#2", "ProfilerStep#3", "step_body", "step_body"]
    prof.export_chrome_trace(str(tmp_path / "trace.json"))
    events = json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    assert len(events) == 3 and events[0]["name"] == "model_inference" and events[0]["dur"] >= 0
    from meshflow.autograd.profiler import profile as autograd_profile
    assert autograd_profile is profile and mf.autograd.profiler.record_function is record_function

    @record_function("decorated")
    def f():
        return model(mf.ones(1, 8))
    with profile() as prof:
        f()
    assert [key for key, _, _ in prof.key_averages()] == ["decorated"]


def test_scheduler_state_dict_holds_torch_s_keys():
    """A resumed run's scheduler state, as torch's LambdaLR writes it (nothing of this run's)."""
    opt = mf.optim.SGD([nn.Parameter(mf.zeros(2))], lr=0.1)
    sched = mf.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
    opt.step()
    sched.step()
    assert sorted(sched.state_dict()) == ["_get_lr_called_within_step", "_is_initial", "_last_lr", "_step_count",
                                          "base_lrs", "last_epoch", "lr_lambdas"]
    fresh = mf.optim.lr_scheduler.LambdaLR(mf.optim.SGD([nn.Parameter(mf.zeros(2))], lr=0.1), lambda e: 0.9 ** e)
    fresh.load_state_dict(sched.state_dict())
    assert fresh.last_epoch == 1 and fresh.get_last_lr() == sched.get_last_lr()


def test_losses_print_torch_s_grad_fn():
    """`print(loss)` shows torch's node for the loss (the loss's own, not its last inner op's);
    an in-place write after it shows the write's."""
    x = mf.tensor(np.random.default_rng(10).standard_normal((4, 3)), dtype=mf.float32, requires_grad=True)
    y, labels = mf.rand(4, 3), mf.tensor([0, 2, 1, 1])
    for loss, name in [(F.mse_loss(x, y), "MseLossBackward0"), (F.cross_entropy(x, labels), "NllLossBackward0"),
                       (nn.CrossEntropyLoss(weight=mf.ones(3))(x, labels), "NllLossBackward0"),
                       (F.nll_loss(F.log_softmax(x, 1), labels), "NllLossBackward0"),
                       (F.binary_cross_entropy(mf.sigmoid(x), y), "BinaryCrossEntropyBackward0"),
                       (nn.BCEWithLogitsLoss()(x, y), "BinaryCrossEntropyWithLogitsBackward0"),
                       (F.smooth_l1_loss(x, y), "SmoothL1LossBackward0"), (F.huber_loss(x, y), "HuberLossBackward0")]:
        assert type(loss.grad_fn).__name__ == name and loss.grad_fn.name() == name
        assert f"grad_fn=<{name}>" in repr(loss)
        assert loss.grad_fn is loss.grad_fn and loss.grad_fn.next_functions
    loss = F.mse_loss(x, y)
    loss.mul_(2)
    assert loss.grad_fn.name() == "MulBackward0"
    with mf.no_grad():
        assert F.mse_loss(x, y).grad_fn is None


# ---- fractional max pooling (torch's windows for given samples)

def _fractional_reference(x, samples, kernel, out):
    """torch's FractionalMaxPool2d kernel in NumPy: window starts int((i + u) a) - int(u a)
    in float32 with a = (in - k) / (out - 1), the last at in - k; the first maximum's flat
    index within its plane."""
    n, c, h, w = x.shape
    f32 = np.float32

    def starts(u, size, o, k):
        a = f32(size - k) / f32(o - 1)
        return [int(f32(f32(i + u) * a)) - int(f32(u * a)) for i in range(o - 1)] + [size - k]
    values, indices = np.zeros((n, c) + out, np.float32), np.zeros((n, c) + out, np.int64)
    for b in range(n):
        for ch in range(c):
            rows = starts(f32(samples[b, ch, 1]), h, out[0], kernel[0])
            cols = starts(f32(samples[b, ch, 0]), w, out[1], kernel[1])
            for i, r in enumerate(rows):
                for j, q in enumerate(cols):
                    window = x[b, ch, r:r + kernel[0], q:q + kernel[1]]
                    dy, dx = np.unravel_index(np.argmax(window), window.shape)
                    values[b, ch, i, j] = window[dy, dx]
                    indices[b, ch, i, j] = (r + dy) * w + q + dx
    return values, indices


def test_fractional_max_pool2d_takes_torch_s_windows_for_given_samples():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 3, 11, 9)).astype(np.float32)
    samples = rng.random((2, 3, 2)).astype(np.float32)
    xt = mf.tensor(x, requires_grad=True)
    out, idx = nn.FractionalMaxPool2d((3, 2), output_size=(5, 4), return_indices=True,
                                      _random_samples=mf.tensor(samples))(xt)
    ref_values, ref_indices = _fractional_reference(x, samples, (3, 2), (5, 4))
    np.testing.assert_array_equal(out.numpy(), ref_values)
    np.testing.assert_array_equal(idx.numpy(), ref_indices)
    out.sum().backward()
    counts = np.zeros(2 * 3 * 11 * 9)
    np.add.at(counts, (ref_indices + (np.arange(6) * 99).reshape(2, 3, 1, 1)).ravel(), 1)
    np.testing.assert_array_equal(xt.grad.numpy().ravel(), counts)
    halved = F.fractional_max_pool2d(xt, 2, output_ratio=0.5, _random_samples=mf.tensor(samples))
    assert halved.shape == (2, 3, 5, 4)
    assert nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))(xt[0]).shape == (3, 5, 4)  # samples drawn, unbatched
    with pytest.raises(ValueError, match="output_ratio must be between 0 and 1"):
        nn.FractionalMaxPool2d(3, output_ratio=1.5)
    with pytest.raises(RuntimeError, match="too large"):
        F.fractional_max_pool2d(xt, 3, output_size=(10, 4))


def test_autograd_misuse_raises_torch_s_runtime_error_still_a_value_error():
    p = nn.Parameter(mf.ones(3))
    loss = (p * 2).sum()
    loss.backward()
    cases = [(loss.backward, "a second time"), (mf.ones(2).sum().backward, "does not require grad"),
             ((p * 2).backward, "one element"),
             (lambda: mf.ones(2).register_hook(lambda g: g), "doesn't require gradient"),
             (lambda: mf.ones(2, dtype=mf.int64).requires_grad_(), "only floating")]
    for i, (call, text) in enumerate(cases):
        with pytest.raises(RuntimeError, match=text) as raised:
            call()
        if i < 3:
            assert isinstance(raised.value, ValueError)  # backward's class before


def test_tensor_of_data_it_cannot_hold_raises_torch_s_classes_still_value_errors():
    for data, cls, text in [([1, "a"], TypeError, "invalid data type 'str'"), (["x"], ValueError, "too many dimensions"),
                            ([None], RuntimeError, "Could not infer dtype of NoneType"),
                            ([object()], RuntimeError, "Could not infer dtype of object")]:
        with pytest.raises(cls, match=text) as raised:
            mf.tensor(data)
        assert isinstance(raised.value, ValueError)  # the class every one of them had before


def test_numpy_takes_torch_s_force_keyword():
    w = mf.tensor([1.5, 2.5], requires_grad=True)
    np.testing.assert_array_equal(w.numpy(force=True), np.float32([1.5, 2.5]))
    np.testing.assert_array_equal((w * 2).numpy(force=False), np.float32([3.0, 5.0]))
