"""Issue 37's remaining names, against NumPy references of torch's documented formulas:
integer shifts (<< >>, torch's rule for negative and oversized shifts), nn.Bilinear, pixel
and channel shuffles, unfold / fold, Tensor.unfold, hardshrink / softshrink, the padding
layers, interpolate's linear modes and the margin, Poisson, Gaussian and CTC losses;
gradients against finite differences; the test device equal to the CPU. (The optimizers
are in test_optim_more.py.)"""
import itertools
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape)


# ---------------------------------------------------------------------------------------------
# Shifts

def shift_reference(x, y, left):
    """torch's x86 CPU rule, element by element in Python integers."""
    bits = x.dtype.itemsize * 8
    signed = np.issubdtype(x.dtype, np.signedinteger)
    out = []
    for a, b in zip(x.tolist(), y.astype(x.dtype).tolist()):
        if left:
            r = 0 if b < 0 or b >= bits else (a << b) % (1 << bits)
        else:
            widest = bits - 1 if signed else bits
            r = a >> (widest if b < 0 or b >= widest else b)
        if signed and r >= 1 << (bits - 1):
            r -= 1 << bits
        out.append(r)
    return np.array(out, dtype=x.dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.int8, np.uint8])
def test_shifts_follow_torchs_rule(dtype):
    low = 0 if dtype == np.uint8 else -100
    x = np.concatenate([rng.integers(low, 100, 30), [np.iinfo(dtype).min, np.iinfo(dtype).max]]).astype(dtype)
    y = np.concatenate([rng.integers(0 if dtype == np.uint8 else -3, 70, 30), [1, 1]]).astype(dtype)
    a, b = mf.tensor(x), mf.tensor(y)
    for left, op in ((True, lambda p, q: p << q), (False, lambda p, q: p >> q)):
        expected = shift_reference(x, y, left)
        got = op(a, b)
        assert got.dtype == a.dtype
        np.testing.assert_array_equal(got.numpy(), expected)
        np.testing.assert_array_equal(op(a, 3).numpy(), shift_reference(x, np.full_like(y, 3), left))
        name = "bitwise_left_shift" if left else "bitwise_right_shift"
        np.testing.assert_array_equal(getattr(mf, name)(a, b).numpy(), expected)
        np.testing.assert_array_equal(op(a.to("testdev"), b.to("testdev")).cpu().numpy(), expected)


def test_shift_values_torch_documents():
    x = mf.tensor([5, -5, 1, -1, 100, -7])
    s = mf.tensor([1, 1, -1, -1, 70, 64])
    assert (x << s).tolist() == [10, -10, 0, 0, 0, 0]
    assert (x >> s).tolist() == [2, -3, 0, -1, 0, -1]
    assert (2 << mf.tensor([1, 2], dtype=mf.int8)).tolist() == [4, 8]
    assert (mf.tensor([1, 2], dtype=mf.int8) << mf.tensor([1, 2])).dtype == mf.int64  # promoted


def test_shifts_in_place_and_refusals():
    x = mf.tensor([1, 2, 3])
    same = x
    x <<= 2
    assert x is same and x.tolist() == [4, 8, 12]
    x >>= mf.tensor([1, 2, 3])
    assert x.tolist() == [2, 2, 1]
    assert x.bitwise_left_shift_(1) is x and x.tolist() == [4, 4, 2]
    assert x.bitwise_right_shift(1).tolist() == [2, 2, 1]
    with pytest.raises((ValueError, NotImplementedError)):
        mf.tensor([True]) << mf.tensor([True])
    with pytest.raises((ValueError, TypeError)):
        mf.tensor([1.0]) << 1


def test_tensor_clip_is_clamp():
    x = mf.tensor([-2.0, 0.5, 3.0])
    assert x.clip(-1, 1).tolist() == [-1.0, 0.5, 1.0]
    assert x.clip_(max=2) is x and x.tolist() == [-2.0, 0.5, 2.0]


# ---------------------------------------------------------------------------------------------
# Layers made of reshapes and index ops

def test_bilinear_matches_its_formula_and_gradients():
    x1, x2, w, b = randn(4, 3), randn(4, 5), randn(2, 3, 5), randn(2)
    expected = np.einsum("ni,kij,nj->nk", x1, w, x2) + b
    np.testing.assert_allclose(F.bilinear(mf.tensor(x1), mf.tensor(x2), mf.tensor(w), mf.tensor(b)).numpy(),
                               expected, rtol=1e-12)
    check_gradients(lambda p, q, r, s: F.bilinear(p, q, r, s), [randn(2, 2, 3), randn(2, 2, 5), w, b])
    layer = nn.Bilinear(3, 5, 2)
    assert tuple(layer.weight.shape) == (2, 3, 5) and float(layer.weight.abs().max().item()) <= 1 / math.sqrt(3)
    assert tuple(layer(mf.tensor(x1, dtype=mf.float32), mf.tensor(x2, dtype=mf.float32)).shape) == (4, 2)


def test_pixel_and_channel_shuffles():
    x = randn(2, 12, 3, 4)
    out = F.pixel_shuffle(mf.tensor(x), 2).numpy()
    for c, h, w, i, j in itertools.product(range(3), range(3), range(4), range(2), range(2)):
        assert out[1, c, 2 * h + i, 2 * w + j] == x[1, c * 4 + i * 2 + j, h, w]
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(mf.tensor(out)).numpy(), x)
    shuffled = nn.ChannelShuffle(3)(mf.tensor(x)).numpy()
    for i, j in itertools.product(range(3), range(4)):
        np.testing.assert_array_equal(shuffled[:, j * 3 + i], x[:, i * 4 + j])
    check_gradients(lambda t: F.pixel_shuffle(t, 2), [randn(1, 8, 2, 3)])
    with pytest.raises(ValueError, match="pixel_shuffle"):
        F.pixel_shuffle(mf.tensor(x), 5)


def unfold_reference(x, k, d, p, s):
    n, c, h, w = x.shape
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, k[0], k[1], oh, ow))
    for i, j, a, b in itertools.product(range(k[0]), range(k[1]), range(oh), range(ow)):
        out[:, :, i, j, a, b] = x[:, :, a * s[0] + i * d[0], b * s[1] + j * d[1]]
    return out.reshape(n, c * k[0] * k[1], oh * ow)


@pytest.mark.parametrize("k, d, p, s", [((2, 2), (1, 1), (0, 0), (1, 1)), ((2, 3), (2, 1), (1, 1), (1, 2)),
                                        ((3, 3), (1, 1), (1, 1), (2, 2))])
def test_unfold_and_fold(k, d, p, s):
    x = randn(2, 3, 6, 7)
    cols = F.unfold(mf.tensor(x), k, d, p, s)
    np.testing.assert_array_equal(cols.numpy(), unfold_reference(x, k, d, p, s))
    # fold is unfold's adjoint: <unfold(x), y> = <x, fold(y)>.
    y = randn(*cols.shape)
    folded = nn.Fold((6, 7), k, d, p, s)(mf.tensor(y)).numpy()
    assert folded.shape == x.shape
    assert np.sum(unfold_reference(x, k, d, p, s) * y) == pytest.approx(np.sum(x * folded), rel=1e-12)
    check_gradients(lambda t: F.unfold(t, k, d, p, s), [randn(1, 2, 5, 5)])
    check_gradients(lambda t: F.fold(t, (5, 5), k, d, p, s), [randn(*F.unfold(mf.zeros(1, 2, 5, 5), k, d, p, s).shape)])
    np.testing.assert_array_equal(nn.Unfold(k, d, p, s)(mf.tensor(x).to("testdev")).cpu().numpy(), cols.numpy())


@pytest.mark.parametrize("k, d, p, s", [((3, 2), (2, 1), (2, 1), (1, 2)), ((3, 3), (1, 1), (1, 1), (1, 1))])
def test_fold_sums_in_tap_order_and_unfold_copies_on_the_team(k, d, p, s):
    """Large enough for the OpenMP team: unfold's copy is exact, and fold adds each element's
    entries in (channel, tap, block) order, np.add.at's over the flat input, so the bits match."""
    x = randn(4, 5, 20, 23).astype(np.float32)
    cols = F.unfold(mf.tensor(x), k, d, p, s)
    np.testing.assert_array_equal(cols.numpy(), unfold_reference(x, k, d, p, s).astype(np.float32))
    source = unfold_reference(np.arange(x.size, dtype=np.float64).reshape(x.shape) + 1, k, d, p, s).astype(np.int64) - 1
    y = randn(*cols.shape).astype(np.float32)
    want = np.zeros(x.size + 1, np.float32)  # the last slot takes the padding's entries
    np.add.at(want, np.where(source < 0, x.size, source).ravel(), y.ravel())
    np.testing.assert_array_equal(F.fold(mf.tensor(y), (20, 23), k, d, p, s).numpy(), want[:-1].reshape(x.shape))
    with pytest.raises(ValueError, match=r"\[fold\] the input has shape \[4, 5, 7\]; expected dim 1 divisible"):
        F.fold(mf.zeros(4, 5, 7), (20, 23), k, d, p, s)
    with pytest.raises(ValueError, match=r"\[unfold\] a spatial size \[2, 2\] .* gives no blocks"):
        F.unfold(mf.zeros(1, 1, 2, 2), 3)


def test_adaptive_pools_1d():
    x = randn(2, 3, 11)
    for out in (4, 5, 11):
        edges = [(o * 11 // out, -(-(o + 1) * 11 // out)) for o in range(out)]
        np.testing.assert_allclose(F.adaptive_avg_pool1d(mf.tensor(x), out).numpy(),
                                   np.stack([x[..., a:b].mean(-1) for a, b in edges], -1), rtol=1e-12)
        y, indices = nn.AdaptiveMaxPool1d(out, return_indices=True)(mf.tensor(x))
        np.testing.assert_array_equal(y.numpy(), np.stack([x[..., a:b].max(-1) for a, b in edges], -1))
        np.testing.assert_array_equal(indices.numpy(), np.stack([x[..., a:b].argmax(-1) + a for a, b in edges], -1))
    assert tuple(nn.AdaptiveAvgPool1d(3)(mf.tensor(x[0])).shape) == (3, 3)
    check_gradients(lambda t: F.adaptive_avg_pool1d(t, 4), [randn(1, 2, 7)])


def test_tensor_unfold_shrinks_and_pad_layers():
    x = randn(2, 3, 7)
    windows = mf.tensor(x).unfold(2, 3, 2)
    assert tuple(windows.shape) == (2, 3, 3, 3)
    for i, j in itertools.product(range(3), range(3)):
        np.testing.assert_array_equal(windows.numpy()[:, :, i, j], x[:, :, 2 * i + j])
    check_gradients(lambda t: t.unfold(1, 2, 1), [randn(2, 4)])
    np.testing.assert_array_equal(F.hardshrink(mf.tensor(x), 0.4).numpy(), np.where(np.abs(x) > 0.4, x, 0))
    np.testing.assert_allclose(nn.Softshrink(0.4)(mf.tensor(x)).numpy(),
                               np.where(x > 0.4, x - 0.4, np.where(x < -0.4, x + 0.4, 0)))
    np.testing.assert_array_equal(nn.ZeroPad2d((1, 2, 0, 1))(mf.tensor(x)).numpy(),
                                  np.pad(x, ((0, 0), (0, 1), (1, 2))))
    np.testing.assert_array_equal(nn.ConstantPad1d(2, 1.5)(mf.tensor(x)).numpy(),
                                  np.pad(x, ((0, 0), (0, 0), (2, 2)), constant_values=1.5))
    np.testing.assert_array_equal(nn.ReflectionPad1d((2, 1))(mf.tensor(x)).numpy(),
                                  np.pad(x, ((0, 0), (0, 0), (2, 1)), mode="reflect"))
    np.testing.assert_array_equal(nn.ReplicationPad2d(1)(mf.tensor(x)).numpy(),
                                  np.pad(x, ((0, 0), (1, 1), (1, 1)), mode="edge"))


# interpolate: a per-output-position NumPy version of torch's kernels (source coordinates,
# linear taps clamped at the edge, bicubic with A = -0.75 and clamped taps).

def _coords(out, size, scale, align):
    if align:
        return np.arange(out) * ((size - 1) / (out - 1) if out > 1 else 0.0)
    r = 1 / scale if scale else size / out
    return r * (np.arange(out) + 0.5) - 0.5


def _weights_1d(out, size, scale, align, cubic):
    """[out, size] interpolation matrix."""
    m = np.zeros((out, size))
    for o, src in enumerate(_coords(out, size, scale, align)):
        if cubic:
            i, t = math.floor(src), src - math.floor(src)
            a = -0.75
            ws = [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
                  ((a + 2) * t - (a + 3)) * t * t + 1, ((a + 2) * (1 - t) - (a + 3)) * (1 - t) ** 2 + 1,
                  ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]
            for k, w in enumerate(ws):
                m[o, min(max(i - 1 + k, 0), size - 1)] += w
        else:
            src = max(src, 0.0)
            i = int(src)
            hi = i + 1 if i < size - 1 else i
            m[o, i] += 1 - (src - i)
            m[o, hi] += src - i
    return m


def interpolate_reference(x, sizes, scales, align, cubic):
    for d, (out, scale) in enumerate(zip(sizes, scales)):
        m = _weights_1d(out, x.shape[2 + d], scale, align, cubic)
        x = np.moveaxis(np.tensordot(m, np.moveaxis(x, 2 + d, 0), axes=1), 0, 2 + d)
    return x


@pytest.mark.parametrize("mode, shape", [("linear", (2, 3, 7)), ("bilinear", (2, 2, 5, 6)), ("bicubic", (1, 2, 5, 6)),
                                         ("trilinear", (1, 2, 3, 4, 5))])
@pytest.mark.parametrize("align", [False, True])
def test_interpolate_linear_modes(mode, shape, align):
    x = randn(*shape)
    k = len(shape) - 2
    for kw in (dict(scale_factor=2), dict(scale_factor=1.7), dict(size=tuple(s + 3 for s in shape[2:])),
               dict(size=tuple(max(1, s - 2) for s in shape[2:])), dict(scale_factor=0.6, recompute_scale_factor=True)):
        sizes = kw.get("size") or tuple(int(math.floor(s * kw["scale_factor"])) for s in shape[2:])
        scales = [None] * k if "size" in kw or kw.get("recompute_scale_factor") else [kw["scale_factor"]] * k
        got = F.interpolate(mf.tensor(x), mode=mode, align_corners=align, **kw).numpy()
        np.testing.assert_allclose(got, interpolate_reference(x, sizes, scales, align, mode == "bicubic"), rtol=1e-12,
                                   atol=1e-12, err_msg=str(kw))
    check_gradients(lambda t: F.interpolate(t, scale_factor=1.5, mode=mode, align_corners=align), [randn(*shape)])
    up = nn.Upsample(scale_factor=2, mode=mode, align_corners=align)
    np.testing.assert_array_equal(up(mf.tensor(x).to("testdev")).cpu().numpy(), up(mf.tensor(x)).numpy())


def test_interpolate_mode_checks():
    with pytest.raises(NotImplementedError, match="bilinear"):
        F.interpolate(mf.zeros(1, 1, 4), scale_factor=2, mode="bilinear")
    m = _weights_1d(4, 2, None, True, False)
    np.testing.assert_allclose(nn.UpsamplingBilinear2d(scale_factor=2)(mf.tensor(np.eye(2)[None, None])).numpy()[0, 0],
                               m @ np.eye(2) @ m.T)


# ---------------------------------------------------------------------------------------------
# Losses, against NumPy versions of torch's formulas, every reduction.

def reduce_ref(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction](loss)


def sign(*shape):
    return np.where(rng.random(shape) < 0.5, -1.0, 1.0)


def logsig(x):
    return -np.log1p(np.exp(-x))


def _norm_p(v, p):
    return (np.abs(v) ** p).sum(-1) ** (1 / p)


def _multilabel_margin_ref(x, y):
    out = []
    for row, t in zip(x, y):
        targets = list(itertools.takewhile(lambda v: v >= 0, t))
        out.append(sum(max(0, 1 - (row[j] - row[i])) for j in targets for i in range(len(row)) if i not in targets)
                   / len(row))
    return np.array(out)


def _multi_margin_ref(x, y, p, margin, w):
    return np.array([sum(max(0, margin - row[t] + row[i]) ** p * w[t] for i in range(len(row)) if i != t) / len(row)
                     for row, t in zip(x, y)])


def _stirling(t):
    safe = np.where(t > 1, t, 1.0)
    return np.where(t > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe), 0.0)


LOSSES = [
    ("margin_ranking_loss", 2, [randn(8), randn(8), sign(8)], dict(margin=0.3),
     lambda a, b, y: np.maximum(0, -y * (a - b) + 0.3)),
    ("hinge_embedding_loss", 1, [randn(4, 5), sign(4, 5)], dict(margin=0.7),
     lambda x, y: np.where(y == 1, x, np.maximum(0, 0.7 - x))),
    ("soft_margin_loss", 1, [randn(4, 5), sign(4, 5)], {}, lambda x, y: np.log1p(np.exp(-y * x))),
    ("multilabel_soft_margin_loss", 1, [randn(4, 5), (rng.random((4, 5)) < 0.5) * 1.0], {},
     lambda x, y: -(y * logsig(x) + (1 - y) * logsig(-x)).mean(1)),
    ("cosine_embedding_loss", 2, [randn(6, 4), randn(6, 4), sign(6)], dict(margin=0.1),
     lambda a, b, y: np.where(y == 1, 1 - (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12)),
                              np.maximum(0, (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) *
                                                                     ((b * b).sum(1) + 1e-12)) - 0.1))),
    ("poisson_nll_loss", 1, [randn(4, 5), rng.integers(0, 5, (4, 5)) * 1.0], dict(full=True),
     lambda x, t: np.exp(x) - t * x + _stirling(t)),
    ("poisson_nll_loss", 1, [rng.random((4, 5)) + 0.1, rng.integers(0, 5, (4, 5)) * 1.0], dict(log_input=False),
     lambda x, t: x - t * np.log(x + 1e-8)),
    ("gaussian_nll_loss", 3, [randn(4, 5), randn(4, 5), rng.random(4) + 0.1], dict(full=True),
     lambda x, t, v: 0.5 * (np.log(v[:, None]) + (x - t) ** 2 / v[:, None]) + 0.5 * np.log(2 * np.pi)),
    ("triplet_margin_loss", 3, [randn(6, 4), randn(6, 4), randn(6, 4)], dict(margin=0.5, p=1.5, swap=True),
     lambda a, p, n: np.maximum(0, 0.5 + _norm_p(a - p + 1e-6, 1.5) -
                                np.minimum(_norm_p(a - n + 1e-6, 1.5), _norm_p(p - n + 1e-6, 1.5)))),
    ("triplet_margin_with_distance_loss", 3, [randn(6, 4), randn(6, 4), randn(6, 4)], dict(margin=2.0),
     lambda a, p, n: np.maximum(0, 2.0 + _norm_p(a - p + 1e-6, 2) - _norm_p(a - n + 1e-6, 2))),
    ("multi_margin_loss", 1, [randn(6, 5), rng.integers(0, 5, 6)], dict(p=2, margin=0.7),
     lambda x, y: _multi_margin_ref(x, y, 2, 0.7, np.ones(5))),
    ("multilabel_margin_loss", 1,
     [randn(4, 5), np.array([[3, 0, -1, 1, 2], [1, 2, 4, 0, -1], [-1, 2, 3, 4, 0], [0, 1, 2, 3, 4]])], {},
     _multilabel_margin_ref),
]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", LOSSES, ids=[f"{c[0]}-{i}" for i, c in enumerate(LOSSES)])
def test_losses_follow_torchs_formulas(case, reduction):
    name, differentiated, arrays, kw, ref = case
    f = getattr(F, name)
    got = f(*[mf.tensor(a) for a in arrays], reduction=reduction, **kw)
    np.testing.assert_allclose(got.numpy(), reduce_ref(ref(*arrays), reduction), rtol=1e-10, atol=1e-12)
    on_testdev = f(*[mf.tensor(a).to("testdev") for a in arrays], reduction=reduction, **kw)
    np.testing.assert_array_equal(on_testdev.cpu().numpy(), got.numpy())
    if reduction == "sum":
        fixed = [mf.tensor(a) for a in arrays[differentiated:]]  # labels: no gradient
        check_gradients(lambda *t: f(*t, *fixed, reduction="sum", **kw), arrays[:differentiated])


def test_loss_modules_take_torchs_arguments():
    x, y = mf.tensor(randn(6, 5)), mf.tensor(rng.integers(0, 5, 6))
    w = mf.tensor(rng.random(5))
    np.testing.assert_allclose(nn.MultiMarginLoss(1, 0.5, w, reduction="none")(x, y).numpy(),
                               _multi_margin_ref(x.numpy(), y.numpy(), 1, 0.5, w.numpy()), rtol=1e-12)
    assert float(nn.MarginRankingLoss(0.2)(x[:, 0], x[:, 1], mf.ones(6)).item()) == pytest.approx(
        np.maximum(0, -(x.numpy()[:, 0] - x.numpy()[:, 1]) + 0.2).mean())
    assert nn.GaussianNLLLoss(full=True)(x, x, mf.ones(6, 5)).item() == pytest.approx(0.5 * np.log(2 * np.pi))
    with pytest.raises(ValueError, match="negative"):
        F.gaussian_nll_loss(x, x, -mf.ones(6, 5))
    with pytest.raises(ValueError, match="reduction"):
        nn.SoftMarginLoss(reduction="avg")(x, x)
    for module in (nn.HingeEmbeddingLoss(), nn.CosineEmbeddingLoss(), nn.PoissonNLLLoss(), nn.TripletMarginLoss(),
                   nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: (a - b).abs().sum(-1)),
                   nn.MultiLabelMarginLoss(), nn.MultiLabelSoftMarginLoss(), nn.CTCLoss(), nn.SoftMarginLoss()):
        assert module.reduction == "mean"


def ctc_reference(logp, target, length):
    """-log of the summed probability of every alignment (the alpha recursion, float64)."""
    ext = [0]
    for c in target:
        ext += [c, 0]
    alpha = np.full(len(ext), -np.inf)
    alpha[0] = logp[0, ext[0]]
    if len(ext) > 1:
        alpha[1] = logp[0, ext[1]]
    for t in range(1, length):
        new = np.full(len(ext), -np.inf)
        for s in range(len(ext)):
            terms = [alpha[s]] + ([alpha[s - 1]] if s >= 1 else []) + \
                    ([alpha[s - 2]] if s >= 2 and ext[s] != 0 and ext[s] != ext[s - 2] else [])
            new[s] = np.logaddexp.reduce(terms) + logp[t, ext[s]]
        alpha = new
    return -np.logaddexp.reduce(alpha[-2:] if len(ext) > 1 else alpha[-1:])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_ctc_loss(reduction):
    raw = randn(10, 3, 5)
    logp = raw - np.log(np.exp(raw).sum(-1, keepdims=True))
    targets = np.array([[1, 2, 2, 0], [3, 4, 1, 1], [4, 4, 4, 4]])
    in_len, tg_len = [10, 8, 3], [3, 4, 4]  # the last is impossible: 4 repeated labels need 7 steps
    per = np.array([ctc_reference(logp[:, i], targets[i, :tg_len[i]], in_len[i]) for i in range(3)])
    assert per[2] == np.inf
    for zero_infinity in (False, True):
        got = F.ctc_loss(mf.tensor(logp), mf.tensor(targets), in_len, mf.tensor(tg_len), reduction=reduction,
                         zero_infinity=zero_infinity).numpy()
        kept = np.where(np.isinf(per), 0.0, per) if zero_infinity else per
        expected = {"none": kept, "sum": kept.sum(), "mean": (kept / np.maximum(tg_len, 1)).mean()}[reduction]
        np.testing.assert_allclose(got, expected, rtol=1e-10)
        on_testdev = F.ctc_loss(mf.tensor(logp).to("testdev"), mf.tensor(targets).to("testdev"), in_len,
                                mf.tensor(tg_len), reduction=reduction, zero_infinity=zero_infinity)
        np.testing.assert_array_equal(on_testdev.cpu().numpy(), got)
    # 1-d concatenated targets give the same; the gradient of a possible case is finite differences'.
    flat = np.concatenate([targets[i, :tg_len[i]] for i in range(2)])
    got = nn.CTCLoss(reduction="none")(mf.tensor(logp[:, :2]), mf.tensor(flat), in_len[:2], tg_len[:2]).numpy()
    np.testing.assert_allclose(got, per[:2], rtol=1e-10)
    check_gradients(lambda t: F.ctc_loss(t.log_softmax(-1), mf.tensor(targets[:2]), in_len[:2], tg_len[:2],
                                         reduction=reduction), [raw[:, :2]])


def test_torchs_other_spellings():
    x = mf.arange(6).float()
    assert tuple(x.unflatten(0, (2, -1)).shape) == (2, 3) and tuple(x.ravel().shape) == (6,)
    assert tuple(x.reshape(2, 3).reshape_as(mf.zeros(3, 2)).shape) == (3, 2)
    assert tuple(mf.ones(3).broadcast_to((2, 3)).shape) == (2, 3)
    assert x.bfloat16().dtype == mf.bfloat16
    assert x.is_cpu and not x.is_cuda and x.get_device() == -1
    assert x.to("testdev").get_device() == 0 and not x.to("testdev").is_cpu
    assert mf.multiply(x, 2).tolist() == (x * 2).tolist() and x.divide(2).tolist() == (x / 2).tolist()
    assert x.subtract(1).tolist() == (x - 1).tolist() and mf.not_equal(x, 3).tolist() == (x != 3).tolist()
    for name, expected in (("greater", x > 2), ("greater_equal", x >= 2), ("less", x < 2), ("less_equal", x <= 2)):
        assert getattr(x, name)(2).tolist() == expected.tolist()
