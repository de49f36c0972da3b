"""The losses of torch.nn.functional that meshflow composes from its ops (mse_loss, l1_loss,
smooth_l1_loss, binary_cross_entropy(_with_logits), nll_loss) and their modules, against
NumPy transcriptions of torch's definitions; gradients against finite differences; on
global tensors equal to one device."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import nn
from gradcheck import check_gradients

RNG = np.random.default_rng(3)
X = RNG.standard_normal((6, 4))
Y = RNG.standard_normal((6, 4))
P = RNG.uniform(0.05, 0.95, (6, 4))
T01 = RNG.integers(0, 2, (6, 4)).astype(np.float64)
W = RNG.uniform(0.5, 2.0, (6, 4))


def reduce(v, reduction):
    return {"mean": v.mean(), "sum": v.sum(), "none": v}[reduction]


def smooth_l1(d, beta):
    a = np.abs(d)
    return np.where(a < beta, 0.5 * a * a / beta, a - 0.5 * beta)


def bce_logits(x, y, w=1.0, pw=1.0):
    log_sig, log_1m_sig = -np.logaddexp(0, -x), -np.logaddexp(0, x)
    return -w * (pw * y * log_sig + (1 - y) * log_1m_sig)


CASES = {
    "mse_loss": (lambda x, y, r: F.mse_loss(x, y, reduction=r), lambda x, y: (x - y) ** 2, (X, Y)),
    "l1_loss": (lambda x, y, r: F.l1_loss(x, y, reduction=r), lambda x, y: np.abs(x - y), (X, Y)),
    "smooth_l1_loss": (lambda x, y, r: F.smooth_l1_loss(x, y, reduction=r, beta=0.7),
                       lambda x, y: smooth_l1(x - y, 0.7), (X, Y)),
    "binary_cross_entropy": (lambda p, t, r: F.binary_cross_entropy(p, t, reduction=r),
                             lambda p, t: -(t * np.log(p) + (1 - t) * np.log(1 - p)), (P, T01)),
    "binary_cross_entropy_with_logits": (lambda x, t, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
                                         bce_logits, (X * 5, T01)),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_loss_matches_torchs_definition(name, reduction):
    f, reference, (a, b) = CASES[name]
    for dtype in (np.float32, np.float64):
        got = f(mf.tensor(a.astype(dtype)), mf.tensor(b.astype(dtype)), reduction)
        assert got.dtype == (mf.float32 if dtype == np.float32 else mf.float64)
        np.testing.assert_allclose(got.numpy(), reduce(reference(a, b), reduction),
                                   rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-6)


@pytest.mark.parametrize("name", CASES)
def test_loss_gradients(name):
    f, _, (a, b) = CASES[name]
    check_gradients(lambda x, y: f(x, y, "none"), [a, b])


def test_weights_pos_weight_and_clamped_logs():
    got = F.binary_cross_entropy_with_logits(mf.tensor(X), mf.tensor(T01), weight=mf.tensor(W),
                                             pos_weight=mf.tensor(np.full(4, 3.0)), reduction="sum")
    np.testing.assert_allclose(got.numpy(), bce_logits(X, T01, W, 3.0).sum(), rtol=1e-12)
    # Large logits stay finite (computed without exp overflowing).
    big = F.binary_cross_entropy_with_logits(mf.tensor([800.0, -800.0]), mf.tensor([0.0, 1.0]), reduction="none")
    np.testing.assert_allclose(big.numpy(), [800.0, 800.0])
    # torch clamps each log at -100: a probability of exactly 0 or 1 costs 100, not inf.
    edge = F.binary_cross_entropy(mf.tensor([0.0, 1.0]), mf.tensor([1.0, 0.0]), reduction="none")
    np.testing.assert_allclose(edge.numpy(), [100.0, 100.0])


def test_nll_loss_with_weights_and_ignore_index():
    logp = np.log(RNG.dirichlet(np.ones(5), 7))
    target = np.array([0, 4, -100, 2, 2, 1, -100])
    weight = np.array([1.0, 2.0, 0.5, 1.5, 3.0])
    kept = target != -100
    picked = -logp[np.arange(7)[kept], target[kept]]
    w = weight[target[kept]]
    x, t = mf.tensor(logp), mf.tensor(target)
    np.testing.assert_allclose(F.nll_loss(x, t).numpy(), picked.mean(), rtol=1e-12)
    np.testing.assert_allclose(F.nll_loss(x, t, weight=mf.tensor(weight)).numpy(), (picked * w).sum() / w.sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(F.nll_loss(x, t, reduction="sum").numpy(), picked.sum(), rtol=1e-12)
    none = F.nll_loss(x, t, reduction="none").numpy()
    np.testing.assert_allclose(none[kept], picked, rtol=1e-12)
    assert np.all(none[~kept] == 0)
    # With log_softmax first it is cross-entropy.
    logits = RNG.standard_normal((7, 5))
    np.testing.assert_allclose(F.nll_loss(F.log_softmax(mf.tensor(logits), -1), mf.tensor(np.arange(7) % 5)).numpy(),
                               F.cross_entropy(mf.tensor(logits), mf.tensor(np.arange(7) % 5)).numpy(), rtol=1e-12)
    check_gradients(lambda a: F.nll_loss(a, t, reduction="none"), [logp])


@pytest.mark.parametrize("call, message", [
    (lambda: F.mse_loss(mf.tensor(X), mf.tensor(Y[:3])), r"shapes \[\[6, 4\], \[3, 4\]\] cannot be broadcast"),
    (lambda: F.l1_loss(mf.tensor(X), mf.tensor(Y), reduction="avg"), r"\[l1_loss\] reduction 'avg'"),
    (lambda: F.smooth_l1_loss(mf.tensor(X), mf.tensor(Y), beta=-1.0), r"\[smooth_l1_loss\] beta -1.0"),
    (lambda: F.nll_loss(mf.tensor(X), mf.tensor([0, 1])), r"\[nll_loss\] input of shape \(6, 4\) and target of "
                                                           r"shape \(2,\)"),
])
@pytest.mark.filterwarnings("ignore:Using a target size")
def test_loss_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_loss_modules_and_layers():
    x, y = mf.tensor(X), mf.tensor(Y)
    assert nn.MSELoss()(x, y).item() == pytest.approx(((X - Y) ** 2).mean())
    assert nn.L1Loss(reduction="sum")(x, y).item() == pytest.approx(np.abs(X - Y).sum())
    assert nn.SmoothL1Loss(beta=0.5)(x, y).item() == pytest.approx(smooth_l1(X - Y, 0.5).mean())
    assert nn.BCEWithLogitsLoss(pos_weight=mf.tensor(np.full(4, 2.0)))(x, mf.tensor(T01)).item() == \
        pytest.approx(bce_logits(X, T01, 1.0, 2.0).mean())
    assert nn.BCELoss()(mf.tensor(P), mf.tensor(T01)).item() == pytest.approx(
        -(T01 * np.log(P) + (1 - T01) * np.log(1 - P)).mean())
    assert nn.CrossEntropyLoss()(x, mf.tensor([0, 1, 2, 3, 0, 1])).item() == pytest.approx(
        F.cross_entropy(x, mf.tensor([0, 1, 2, 3, 0, 1])).item())
    assert nn.NLLLoss(ignore_index=1)(F.log_softmax(x, -1), mf.tensor([0, 1, 2, 3, 0, 1])).item() == pytest.approx(
        F.nll_loss(F.log_softmax(x, -1), mf.tensor([0, 1, 2, 3, 0, 1]), ignore_index=1).item())
    images = mf.tensor(RNG.standard_normal((2, 3, 4, 5)))
    assert nn.Flatten()(images).shape == (2, 60) and nn.Flatten(0, 1)(images).shape == (6, 4, 5)
    assert nn.Identity(54, unused=True)(images) is images
    model = nn.Sequential(nn.Flatten(), nn.Linear(60, 3), nn.Identity())
    loss = nn.MSELoss()(model(mf.tensor(RNG.standard_normal((2, 3, 4, 5)).astype(np.float32))),
                        mf.zeros(2, 3))
    loss.backward()
    assert model[1].weight.grad.shape == (3, 60)


def torch_cross_entropy(logits, target, weight=None, ignore_index=-100, reduction="mean", smoothing=0.0):
    """torch's cross_entropy for class indices (its label-smoothing code transcribed)."""
    if logits.ndim > 2:
        logits = np.moveaxis(logits, 1, -1).reshape(-1, logits.shape[1])
        target = target.reshape(-1)
    c = logits.shape[1]
    logp = logits - logits.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    w = np.ones(c) if weight is None else weight
    kept = target != ignore_index
    safe = np.where(kept, target, 0)
    nll = -logp[np.arange(len(target)), safe] * w[safe] * kept
    smooth = -(logp * w).sum(1) * kept
    if reduction == "mean":
        denominator = (w[safe] * kept).sum()
        nll, smooth = nll.sum() / denominator, smooth.sum() / (denominator if weight is not None else kept.sum())
    elif reduction == "sum":
        nll, smooth = nll.sum(), smooth.sum()
    return (1 - smoothing) * nll + smoothing / c * smooth


@pytest.mark.parametrize("kwargs", [
    dict(ignore_index=-100), dict(ignore_index=2, reduction="sum"), dict(reduction="none"),
    dict(weight=np.array([1.0, 2.0, 0.5, 3.0])), dict(label_smoothing=0.1),
    dict(label_smoothing=0.2, weight=np.array([1.0, 2.0, 0.5, 3.0]), ignore_index=-100),
    dict(label_smoothing=0.3, reduction="sum", ignore_index=1),
], ids=lambda k: ",".join(f"{a}={'w' if a == 'weight' else b}" for a, b in k.items()))
def test_cross_entropy_takes_torchs_arguments(kwargs):
    logits = RNG.standard_normal((6, 4))
    target = np.array([0, 3, -100, 1, 2, 1])
    if kwargs.get("ignore_index", -100) != -100 or "ignore_index" not in kwargs:
        target = np.where(target == -100, 2, target)
    ours = dict(kwargs)
    if "weight" in ours:
        ours["weight"] = mf.tensor(ours["weight"])
    got = F.cross_entropy(mf.tensor(logits), mf.tensor(target), **ours)
    expected = torch_cross_entropy(logits, target, kwargs.get("weight"), kwargs.get("ignore_index", -100),
                                   kwargs.get("reduction", "mean"), kwargs.get("label_smoothing", 0.0))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    if kwargs.get("reduction", "mean") == "none":
        check_gradients(lambda x: F.cross_entropy(x, mf.tensor(target), **ours), [logits])


def test_cross_entropy_over_nd_inputs_and_the_module():
    logits = RNG.standard_normal((2, 5, 3, 4))  # [N, C, H, W]
    target = RNG.integers(0, 5, (2, 3, 4))
    got = F.cross_entropy(mf.tensor(logits), mf.tensor(target))
    np.testing.assert_allclose(got.numpy(), torch_cross_entropy(logits, target), rtol=1e-12)
    loss = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=0.1)
    np.testing.assert_allclose(loss(mf.tensor(logits), mf.tensor(target)).numpy(),
                               torch_cross_entropy(logits, target, ignore_index=0, smoothing=0.1), rtol=1e-12)
    with pytest.raises(ValueError, match=r"\[cross_entropy\] label_smoothing 1.5"):
        F.cross_entropy(mf.tensor(logits), mf.tensor(target), label_smoothing=1.5)


@pytest.mark.parametrize("smoothing, reduction", [(0.0, "mean"), (0.1, "sum"), (0.2, "none")])
def test_cross_entropy_with_class_probabilities(smoothing, reduction):
    x = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], np.float32)
    p = np.array([[0.2, 0.7, 0.1], [0.0, 0.5, 0.5]], np.float32)
    w = np.array([1.0, 2.0, 0.5], np.float32)
    logp = x - np.log(np.exp(x).sum(1, keepdims=True))
    q = p * (1 - smoothing) + smoothing / 3
    rows = -(logp * q * w).sum(1)
    expected = {"mean": rows.mean(), "sum": rows.sum(), "none": rows}[reduction]
    got = F.cross_entropy(mf.tensor(x), mf.tensor(p), weight=mf.tensor(w), reduction=reduction,
                          label_smoothing=smoothing)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("size_average, reduce, expected", [(None, None, "mean"), (False, None, "sum"),
                                                            (True, False, "none"), (None, False, "none"),
                                                            (True, True, "mean")])
def test_legacy_size_average_and_reduce_read_as_torch(size_average, reduce, expected):
    """torch's deprecated arguments still pick the reduction (with its warning), in every loss,
    functional and module, at torch's positions."""
    x, y = mf.tensor(X), mf.tensor(Y)
    classes = mf.tensor(np.arange(6) % 4)
    legacy = {} if size_average is None and reduce is None else {"size_average": size_average, "reduce": reduce}
    cases = [(F.mse_loss, nn.MSELoss, (x, y)), (F.l1_loss, nn.L1Loss, (x, y)),
             (F.smooth_l1_loss, nn.SmoothL1Loss, (x, y)), (F.cross_entropy, nn.CrossEntropyLoss, (x, classes)),
             (F.nll_loss, nn.NLLLoss, (x, classes)), (F.soft_margin_loss, nn.SoftMarginLoss, (x, y.sign()))]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for function, module, args in cases:
            want = function(*args, reduction=expected).numpy()
            np.testing.assert_allclose(function(*args, **legacy).numpy(), want, rtol=1e-6)
            np.testing.assert_allclose(module(**legacy)(*args).numpy(), want, rtol=1e-6)
    if legacy:
        with pytest.warns(UserWarning, match=f"reduction='{expected}'"):
            nn.MSELoss(**legacy)
    loss = nn.CrossEntropyLoss(None, None, 1)  # torch's positions: weight, size_average, ignore_index
    assert loss.ignore_index == 1 and loss.weight is None


def test_softmax_takes_torch_s_dtype_and_implicit_dim():
    x = mf.tensor(X.astype(np.float32))
    ref = np.exp(X) / np.exp(X).sum(-1, keepdims=True)
    for got in (F.softmax(x, -1, dtype=mf.float64), mf.softmax(x, -1, mf.float64), x.softmax(-1, mf.float64),
                F.softmax(x.double())):  # torch's implicit dim: 1 for a 2-d input
        assert got.dtype == mf.float64
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(F.log_softmax(x, dim=0, dtype=mf.float64).numpy(),
                               X - np.log(np.exp(X).sum(0, keepdims=True)), rtol=1e-6)


# torch 2.x's cross_entropy(x, T, weight=CE_W, ignore_index=2, label_smoothing=0.15) per row of
# CE_X (reduction 'none'), and the gradient of its sum; 'mean' divides both by the weights of
# the targets counted, sum(CE_W[[3, 0, 6, 4]]) = 3.75.
CE_X = (np.arange(35, dtype=np.float32).reshape(5, 7) * 0.37 % 2.1 - 1.0).astype(np.float32)
CE_T = np.array([3, 0, 6, 2, 4])
CE_W = np.array([1.0, 0.5, 2.0, 1.5, 0.25, 3.0, 1.0], np.float32)
CE_TORCH_ROWS = [2.7568669, 2.6912825, 2.2593989, 0.0, 0.8514618]
CE_TORCH_GRAD = [[0.0542828, 0.0988957, 0.1158290, -1.0774075, 0.3272389, 0.4172251, 0.0639358],
                 [-0.7958940, 0.0986398, 0.1154585, 0.1970562, 0.3264623, -0.0054593, 0.0637365],
                 [0.0831599, 0.1407021, 0.1763536, 0.2852161, 0.0509056, 0.0171679, -0.7535054],
                 [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                 [0.0752155, 0.0064192, -0.0180524, 0.0037678, -0.1658680, 0.0109807, 0.0875372]]


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_with_weights_ignore_index_and_smoothing_is_torchs(reduction):
    """float32, as one op each way (softmax_cross_entropy with the weight and smoothing)."""
    x = mf.tensor(CE_X, requires_grad=True)
    loss = F.cross_entropy(x, mf.tensor(CE_T), weight=mf.tensor(CE_W), ignore_index=2, reduction=reduction,
                           label_smoothing=0.15)
    scale = 3.75 if reduction == "mean" else 1.0
    rows = np.array(CE_TORCH_ROWS, np.float32)
    expected = {"none": rows, "mean": rows.sum() / scale, "sum": rows.sum()}[reduction]
    np.testing.assert_allclose(loss.numpy(), expected, rtol=2e-6, atol=1e-6)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.array(CE_TORCH_GRAD) / scale, rtol=1e-5, atol=1e-6)
    assert loss.grad_fn.name() == "AddBackward0"


@pytest.mark.parametrize("kwargs", [dict(label_smoothing=0.2), dict(weight=True, ignore_index=1),
                                    dict(weight=True, ignore_index=0, label_smoothing=0.3, reduction="sum")])
def test_cross_entropy_op_gradients_and_second_order(kwargs):
    """The op's backward against finite differences (float64), and a create_graph backward
    (the gradient in differentiable ops) against the first one's finite differences."""
    kwargs = dict(kwargs)
    if kwargs.pop("weight", False):
        kwargs["weight"] = mf.tensor(np.array([1.0, 2.0, 0.5, 3.0]))
    logits = RNG.standard_normal((6, 4))
    target = mf.tensor(np.array([0, 3, 1, 1, 2, 0]))
    check_gradients(lambda x: F.cross_entropy(x, target, **kwargs), [logits])
    x = mf.tensor(logits, requires_grad=True)
    (g,) = mf.autograd.grad(F.cross_entropy(x, target, **kwargs), [x], create_graph=True)
    direction = RNG.standard_normal((6, 4))
    (gg,) = mf.autograd.grad((g * mf.tensor(direction)).sum(), [x])
    eps = 1e-6

    def first(v):
        y = mf.tensor(v, requires_grad=True)
        (d,) = mf.autograd.grad(F.cross_entropy(y, target, **kwargs), [y])
        return (d.numpy() * direction).sum()

    numeric = np.zeros_like(logits)
    for i in np.ndindex(logits.shape):
        step = np.zeros_like(logits)
        step[i] = eps
        numeric[i] = (first(logits + step) - first(logits - step)) / (2 * eps)
    np.testing.assert_allclose(gg.numpy(), numeric, rtol=1e-5, atol=1e-7)
