"""Issue 37's third round of nn: embedding_bag / EmbeddingBag, rrelu, alpha dropout, lp and
unpooling, circular padding, gumbel_softmax, pdist and nn.utils.vector_to_parameters, against
NumPy references of torch's documented meaning (random ones by their moments); gradients
against finite differences; the test device equal to the CPU."""
import itertools

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

rng = np.random.default_rng(4)


def randn(*shape):
    return rng.standard_normal(shape)


def bag_reference(indices, weight, bounds, mode, padding_idx=None, per_sample=None):
    out = []
    for b in range(len(bounds) - 1):
        rows = [weight[i] * (1 if per_sample is None else per_sample[k])
                for k, i in enumerate(indices) if bounds[b] <= k < bounds[b + 1] and i != padding_idx]
        if not rows:
            out.append(np.zeros(weight.shape[1]))
        elif mode == "sum":
            out.append(np.sum(rows, 0))
        elif mode == "mean":
            out.append(np.mean(rows, 0))
        else:
            out.append(np.max(rows, 0))
    return np.array(out)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 4])
def test_embedding_bag(mode, padding_idx):
    weight = randn(10, 4)
    indices = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0, 0])
    offsets = np.array([0, 4, 4, 7])
    got = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor(offsets), mode=mode, padding_idx=padding_idx)
    expected = bag_reference(indices, weight, [0, 4, 4, 7, 10], mode, padding_idx)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    last = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0, 3, 8, 10]), mode=mode,
                           include_last_offset=True, padding_idx=padding_idx)
    np.testing.assert_allclose(last.numpy(), bag_reference(indices, weight, [0, 3, 8, 10], mode, padding_idx))
    rows = F.embedding_bag(mf.tensor(indices.reshape(2, 5)), mf.tensor(weight), mode=mode, padding_idx=padding_idx)
    np.testing.assert_allclose(rows.numpy(), bag_reference(indices, weight, [0, 5, 10], mode, padding_idx))
    on_testdev = F.embedding_bag(mf.tensor(indices).to("testdev"), mf.tensor(weight).to("testdev"),
                                 mf.tensor(offsets).to("testdev"), mode=mode, padding_idx=padding_idx)
    np.testing.assert_allclose(on_testdev.cpu().numpy(), expected, rtol=1e-12)
    check_gradients(lambda w: F.embedding_bag(mf.tensor(indices), w, mf.tensor(offsets), mode=mode,
                                              padding_idx=padding_idx), [weight])


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_of_bags_of_one_length(mode):
    """Bags of one length in order (a DLRM's) are input's rows; with include_last_offset the
    last bag ends with the indices (torch's, whatever the last offset says)."""
    weight, indices = randn(10, 4), np.array([1, 2, 4, 5, 4, 3, 2, 9, 0, 0])
    got = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0, 5]), mode=mode)
    np.testing.assert_allclose(got.numpy(), bag_reference(indices, weight, [0, 5, 10], mode), rtol=1e-12)
    last = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0, 3, 6]), mode=mode,
                           include_last_offset=True)
    np.testing.assert_allclose(last.numpy(), bag_reference(indices, weight, [0, 3, 10], mode), rtol=1e-12)
    per_sample = rng.random(10)
    weighted = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0, 3, 6]), mode="sum",
                               per_sample_weights=mf.tensor(per_sample), include_last_offset=True)
    np.testing.assert_allclose(weighted.numpy(),
                               bag_reference(indices, weight, [0, 3, 10], "sum", per_sample=per_sample))
    check_gradients(lambda w, s: F.embedding_bag(mf.tensor(indices), w, mf.tensor([0, 5]), mode="sum",
                                                 per_sample_weights=s), [weight, per_sample])


def test_embedding_bag_per_sample_weights_module_and_errors():
    weight, indices, per_sample = randn(10, 4), np.array([1, 2, 4, 5, 4, 3]), rng.random(6)
    got = F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0, 2]), mode="sum",
                          per_sample_weights=mf.tensor(per_sample))
    np.testing.assert_allclose(got.numpy(), bag_reference(indices, weight, [0, 2, 6], "sum", per_sample=per_sample))
    check_gradients(lambda w, s: F.embedding_bag(mf.tensor(indices), w, mf.tensor([0, 2]), mode="sum",
                                                 per_sample_weights=s), [weight, per_sample])
    bag = nn.EmbeddingBag(10, 4, mode="max", padding_idx=2)
    assert np.all(bag.weight.numpy()[2] == 0) and bag.weight.dtype == mf.float32
    np.testing.assert_allclose(bag(mf.tensor(indices), mf.tensor([0, 3])).detach().numpy(),
                               bag_reference(indices, bag.weight.detach().numpy(), [0, 3, 6], "max", 2), rtol=1e-6)
    frozen = nn.EmbeddingBag.from_pretrained(mf.tensor(weight), mode="sum")
    assert not frozen.weight.requires_grad
    with pytest.raises(NotImplementedError, match="per_sample_weights"):
        F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([0]), per_sample_weights=mf.ones(6))
    with pytest.raises(ValueError, match="offsets has to be None"):
        F.embedding_bag(mf.tensor(indices.reshape(2, 3)), mf.tensor(weight), mf.tensor([0]))
    with pytest.raises(RuntimeError, match="offsets start at 1; expected 0"):
        F.embedding_bag(mf.tensor(indices), mf.tensor(weight), mf.tensor([1, 3])).numpy()


def test_rrelu_and_alpha_dropout():
    x = randn(200, 300)
    np.testing.assert_allclose(F.rrelu(mf.tensor(x), 0.1, 0.3).numpy(), np.where(x >= 0, x, 0.2 * x))
    y = F.rrelu(mf.tensor(x), 0.1, 0.3, training=True).numpy()
    slope = y[x < 0] / x[x < 0]
    assert np.all(y[x >= 0] == x[x >= 0]) and slope.min() >= 0.1 and slope.max() <= 0.3
    assert abs(slope.mean() - 0.2) < 0.005
    module = nn.RReLU(0.1, 0.3).eval()
    np.testing.assert_allclose(module(mf.tensor(x)).numpy(), np.where(x >= 0, x, 0.2 * x))
    for p in (0.2, 0.5):
        out = F.alpha_dropout(mf.tensor(x), p, training=True).numpy()
        assert abs(out.mean()) < 0.02 and abs(out.std() - 1) < 0.02  # selu's fixed point kept
        a = ((1.7580993408473766 ** 2 * p + 1) * (1 - p)) ** -0.5
        dropped = np.isclose(out, 1.7580993408473766 * a * (p - 1))  # where -selu's alpha * scale went
        assert abs(dropped.mean() - p) < 0.01
        channels = F.feature_alpha_dropout(mf.tensor(randn(50, 40, 30)), p, training=True).numpy()
        per_channel = np.ptp(channels, axis=2)
        assert abs((per_channel == 0).mean() - p) < 0.05  # a dropped channel is one constant
    np.testing.assert_array_equal(nn.AlphaDropout(0.5).eval()(mf.tensor(x)).numpy(), x)
    np.testing.assert_array_equal(F.alpha_dropout(mf.tensor(x), 1.0, training=True).numpy(), np.zeros_like(x))


def lp_reference(x, p, kernel, stride, ceil_mode=False):
    h, w = x.shape[-2:]
    kh, kw = kernel
    sh, sw = stride
    rounding = np.ceil if ceil_mode else np.floor
    oh, ow = int(rounding((h - kh) / sh)) + 1, int(rounding((w - kw) / sw)) + 1
    out = np.zeros(x.shape[:-2] + (oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        window = x[..., i * sh:i * sh + kh, j * sw:j * sw + kw]
        out[..., i, j] = (window ** p).sum((-2, -1)) ** (1 / p)
    return out


def test_lp_pool():
    x = np.abs(randn(2, 3, 5, 6)) + 0.1
    np.testing.assert_allclose(F.lp_pool2d(mf.tensor(x), 3, (2, 3)).numpy(), lp_reference(x, 3, (2, 3), (2, 3)))
    np.testing.assert_allclose(nn.LPPool2d(2, 2, stride=1)(mf.tensor(x)).numpy(), lp_reference(x, 2, (2, 2), (1, 1)))
    one_d = F.lp_pool1d(mf.tensor(x[0]), 2, 3, 2).numpy()
    np.testing.assert_allclose(one_d, lp_reference(x[0][:, None], 2, (1, 3), (1, 2))[:, 0])
    np.testing.assert_allclose(nn.LPPool1d(2, 3, 2)(mf.tensor(x[0]).to("testdev")).cpu().numpy(), one_d)
    check_gradients(lambda a: F.lp_pool2d(a, 2, 2), [x])


@pytest.mark.parametrize("output_size", [None, (5, 7)])
def test_max_unpool(output_size):
    x = randn(2, 3, *(output_size or (4, 6)))
    pooled, indices = F.max_pool2d(mf.tensor(x), 2, return_indices=True)
    got = F.max_unpool2d(pooled, indices, 2, output_size=output_size).numpy()
    size = output_size or (4, 6)
    expected = np.zeros((2, 3) + size)
    flat = expected.reshape(2, 3, -1)
    np.put_along_axis(flat, indices.numpy().reshape(2, 3, -1), pooled.numpy().reshape(2, 3, -1), 2)
    np.testing.assert_array_equal(got, flat.reshape(expected.shape))
    one, one_indices = F.max_pool1d(mf.tensor(x[0, 0]), 2, return_indices=True)
    unpooled = nn.MaxUnpool1d(2)(one, one_indices).numpy()
    expected = np.zeros((x.shape[2], one.shape[1] * 2))
    np.put_along_axis(expected, one_indices.numpy(), one.numpy(), 1)
    np.testing.assert_array_equal(unpooled, expected)
    np.testing.assert_array_equal(nn.MaxUnpool2d(2)(pooled.to("testdev"), indices.to("testdev"),
                                                    output_size).cpu().numpy(), got)
    check_gradients(lambda a: F.max_unpool2d(a, indices, 2, output_size=output_size), [pooled.numpy()])


@pytest.mark.parametrize("pad", [(2, 1), (1, 2, 3, 0), (-1, 2, 1, -2), (1, 1, 1, 1, 1, 0)])
def test_circular_pad(pad):
    dims = len(pad) // 2
    x = randn(2, 3, 4, 5, 3)[(slice(None),) * (dims + 2) + (0,) * (3 - dims)]
    expected = x
    for i in range(dims):  # a negative pad crops first; the wrapped values come from what is left
        before, after = pad[2 * i], pad[2 * i + 1]
        axis = x.ndim - 1 - i
        n = expected.shape[axis]
        expected = np.take(expected, range(max(-before, 0), n - max(-after, 0)), axis)
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(before, 0), max(after, 0))
        expected = np.pad(expected, widths, mode="wrap")
    np.testing.assert_array_equal(F.pad(mf.tensor(x), pad, mode="circular").numpy(), expected)
    module = {1: nn.CircularPad1d, 2: nn.CircularPad2d, 3: nn.CircularPad3d}[dims](pad)
    np.testing.assert_array_equal(module(mf.tensor(x).to("testdev")).cpu().numpy(), expected)
    check_gradients(lambda a: F.pad(a, pad, mode="circular"), [x])
    with pytest.raises(ValueError, match="wraps around at most once"):
        F.pad(mf.tensor(x), (6, 0) * dims, mode="circular")


def test_pdist_and_gumbel_softmax():
    x = randn(6, 4)
    for p in (2.0, 1.0, 3.0):
        expected = [np.sum(np.abs(x[i] - x[j]) ** p) ** (1 / p) for i in range(6) for j in range(i + 1, 6)]
        np.testing.assert_allclose(F.pdist(mf.tensor(x), p).numpy(), expected, rtol=1e-12)
    check_gradients(lambda a: F.pdist(a), [x])
    assert tuple(F.pdist(mf.tensor(randn(1, 3))).shape) == (0,)
    logits = np.log(np.array([0.1, 0.2, 0.7]))
    soft = F.gumbel_softmax(mf.tensor(np.tile(logits, (20000, 1))), tau=1.0).numpy()
    np.testing.assert_allclose(soft.sum(1), 1, rtol=1e-12)
    hard = F.gumbel_softmax(mf.tensor(np.tile(logits, (20000, 1))), hard=True).numpy()
    assert set(np.unique(hard)) == {0.0, 1.0} and np.all(hard.sum(1) == 1)
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.2, 0.7], atol=0.015)  # argmax of gumbel noise: softmax's odds
    a = mf.tensor(randn(4, 3), requires_grad=True)
    (F.gumbel_softmax(a, hard=True) * mf.tensor(randn(4, 3))).sum().backward()
    assert a.grad is not None and np.all(np.isfinite(a.grad.numpy()))


def test_vector_to_parameters():
    model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    vector = nn.utils.parameters_to_vector(model.parameters())
    values = randn(vector.numel())
    nn.utils.vector_to_parameters(mf.tensor(values, dtype=mf.float32), model.parameters())
    np.testing.assert_allclose(nn.utils.parameters_to_vector(model.parameters()).detach().numpy(), values, rtol=1e-6)
    np.testing.assert_allclose(model[0].bias.detach().numpy(), values[12:16], rtol=1e-6)
    with pytest.raises(RuntimeError, match="elements"):
        nn.utils.vector_to_parameters(mf.zeros(3), model.parameters())


def reflect_reference(v, twice_low, twice_high):
    if twice_low == twice_high:
        return 0.0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    d = abs(v - low)
    extra, flips = np.fmod(d, span), np.floor(d / span)
    return extra + low if flips % 2 == 0 else span - extra + low


def grid_sample_reference(x, grid, mode, padding_mode, align_corners):
    """torch's grid_sampler_2d, pixel by pixel."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def source(g, size):
        v = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
        if padding_mode == "border":
            v = min(max(v, 0), size - 1)
        elif padding_mode == "reflection":
            v = reflect_reference(v, 0, 2 * (size - 1)) if align_corners else \
                min(max(reflect_reference(v, -1, 2 * size - 1), 0), size - 1)
        return v

    def pixel(b, yi, xi):
        return x[b, :, yi, xi] if 0 <= yi < h and 0 <= xi < w else np.zeros(c)

    for b, i, j in itertools.product(range(n), range(grid.shape[1]), range(grid.shape[2])):
        sx, sy = source(grid[b, i, j, 0], w), source(grid[b, i, j, 1], h)
        if mode == "nearest":
            out[b, :, i, j] = pixel(b, int(np.round(sy)), int(np.round(sx)))
            continue
        x0, y0 = int(np.floor(sx)), int(np.floor(sy))
        fx, fy = sx - x0, sy - y0
        out[b, :, i, j] = (pixel(b, y0, x0) * (1 - fx) * (1 - fy) + pixel(b, y0, x0 + 1) * fx * (1 - fy) +
                           pixel(b, y0 + 1, x0) * (1 - fx) * fy + pixel(b, y0 + 1, x0 + 1) * fx * fy)
    return out


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_affine_grid_and_grid_sample(align_corners, padding_mode):
    x, theta = randn(2, 3, 5, 6), randn(2, 2, 3) * 0.8
    grid = F.affine_grid(mf.tensor(theta), [2, 3, 4, 7], align_corners=align_corners).numpy()

    def base(size):
        return np.linspace(-1, 1, size) if align_corners else (np.arange(size) * 2 + 1) / size - 1
    xs, ys = np.meshgrid(base(7), base(4))
    expected = np.einsum("hwk,nck->nhwc", np.stack([xs, ys, np.ones_like(xs)], -1), theta)
    np.testing.assert_allclose(grid, expected, rtol=1e-12, atol=1e-14)
    grid = rng.uniform(-1.6, 1.6, (2, 4, 7, 2))
    for mode in ("bilinear", "nearest"):
        got = F.grid_sample(mf.tensor(x), mf.tensor(grid), mode=mode, padding_mode=padding_mode,
                            align_corners=align_corners)
        np.testing.assert_allclose(got.numpy(), grid_sample_reference(x, grid, mode, padding_mode, align_corners),
                                   rtol=1e-12, atol=1e-14)
        on_testdev = F.grid_sample(mf.tensor(x).to("testdev"), mf.tensor(grid).to("testdev"), mode=mode,
                                   padding_mode=padding_mode, align_corners=align_corners)
        np.testing.assert_allclose(on_testdev.cpu().numpy(), got.numpy(), rtol=1e-12)
    check_gradients(lambda a, g: F.grid_sample(a, g, padding_mode=padding_mode, align_corners=align_corners),
                    [x[:1, :2], grid[:1, :2, :3] * 0.9])
    check_gradients(lambda t: F.affine_grid(t, [2, 3, 4, 7], align_corners=align_corners), [theta])


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm(dim):
    import copy
    layer = nn.Linear(3, 4)
    w = layer.weight.detach().numpy().astype(np.float64)
    nn.utils.weight_norm(layer, dim=dim)
    keep = () if dim is None else tuple(d for d in range(2) if d != dim)
    g = np.sqrt((w ** 2).sum(axis=keep or None, keepdims=dim is not None))
    assert set(dict(layer.named_parameters())) == {"bias", "weight_g", "weight_v"}
    np.testing.assert_allclose(layer.weight_g.detach().numpy(), g, rtol=1e-6)
    x = randn(2, 3).astype(np.float32)
    with mf.no_grad():
        layer.weight_g.mul_(2.0)
    out = layer(mf.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), x @ (2 * w).T + layer.bias.detach().numpy(), rtol=1e-5)
    out.sum().backward()
    v = w
    norm = np.sqrt((v ** 2).sum(axis=keep or None, keepdims=dim is not None))
    upstream = np.ones((2, 4)).T @ x  # dL/dweight
    np.testing.assert_allclose(layer.weight_g.grad.numpy(), (upstream * v / norm).sum(axis=keep or None,
                                                                                       keepdims=dim is not None),
                               rtol=1e-4)
    twin = copy.deepcopy(layer)
    np.testing.assert_allclose(twin(mf.tensor(x)).detach().numpy(), out.detach().numpy(), rtol=1e-6)
    nn.utils.remove_weight_norm(layer)
    assert set(dict(layer.named_parameters())) == {"bias", "weight"}
    np.testing.assert_allclose(layer(mf.tensor(x)).detach().numpy(), out.detach().numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="not found"):
        nn.utils.remove_weight_norm(layer)


def test_affine_grid_and_grid_sample_on_volumes_as_torch():
    """theta [N, 3, 4] over [N, C, D, H, W], sampled trilinearly or at the nearest voxel
    (torch 2.15's values)."""
    x = mf.arange(2 * 1 * 2 * 3 * 4, dtype=mf.float32).reshape(2, 1, 2, 3, 4) / 10
    theta = mf.tensor([[[0.9, 0.1, 0.0, 0.05], [-0.1, 1.1, 0.2, 0.0], [0.0, 0.3, 0.8, -0.1]]] * 2)
    theta = theta * mf.tensor([1.0, -1.0]).reshape(2, 1, 1)
    grid = F.affine_grid(theta, [2, 1, 2, 2, 3], align_corners=False)
    assert grid.shape == (2, 2, 2, 3, 3)
    np.testing.assert_allclose(grid[0, 1, 1].numpy(), [[-0.5, 0.71667, 0.45], [0.1, 0.65, 0.45], [0.7, 0.58333, 0.45]],
                               atol=1e-5)
    expected = {
        ("bilinear", "zeros"): [0.068, 0.136, 0.21229, 0.94, 1.02, 1.1, 0.98, 1.06, 1.14, 1.84075, 2.1, 2.18, 3.927,
                                3.859, 3.48309, 3.76, 3.68, 3.6, 3.72, 3.64, 3.56, 2.50675, 2.6, 2.52],
        ("nearest", "border"): [0.0, 0.2, 0.3, 0.8, 1.0, 1.1, 1.2, 1.4, 1.5, 2.0, 2.2, 2.3, 4.7, 4.6, 4.4, 3.8, 3.7, 3.6,
                                3.5, 3.4, 3.2, 2.6, 2.5, 2.4],
        ("bilinear", "reflection"): [0.08, 0.16, 0.27, 0.94, 1.02, 1.1, 0.98, 1.06, 1.14, 1.99, 2.1, 2.18, 4.62, 4.54,
                                     4.43, 3.76, 3.68, 3.6, 3.72, 3.64, 3.56, 2.71, 2.6, 2.52],
    }
    for (mode, padding), values in expected.items():
        out = F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=False)
        np.testing.assert_allclose(out.numpy().ravel(), values, atol=1e-5)
    x.requires_grad_()
    F.grid_sample(x, grid).sum().backward()
    assert x.grad.shape == x.shape and float(x.grad.sum()) > 0
