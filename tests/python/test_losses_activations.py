"""kl_div (every reduction, log_target), cosine_similarity, normalize, huber_loss, softmin,
leaky_relu, elu, gelu(approximate='tanh') and their modules (KLDivLoss, HuberLoss, Softmax,
LogSoftmax, Softmin, LeakyReLU, ELU, GELU, CosineSimilarity) against NumPy versions of
torch's formulas, gradients against finite differences. Global tensors:
distributed/test_dist_optim_autograd.py."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import nn
from gradcheck import check_gradients

RNG = np.random.default_rng(11)
X = RNG.standard_normal((4, 5))
Y = RNG.standard_normal((4, 5))


def log_softmax(a, axis=1):
    m = a.max(axis, keepdims=True)
    return a - m - np.log(np.exp(a - m).sum(axis, keepdims=True))


def softmax(a, axis=1):
    return np.exp(log_softmax(a, axis))


def reduce(loss, reduction, batch=None):
    return {"mean": loss.mean(), "sum": loss.sum(), "none": loss, "batchmean": loss.sum() / (batch or 1)}[reduction]


@pytest.mark.parametrize("reduction", ["mean", "sum", "batchmean", "none"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    inp = log_softmax(X)
    target = softmax(Y)
    target[0, 0] = 0.0  # xlogy: contributes 0, not NaN
    if log_target:
        target = log_softmax(Y)
        pointwise = np.exp(target) * (target - inp)
    else:
        with np.errstate(divide="ignore"):
            pointwise = np.where(target > 0, target * np.log(np.where(target > 0, target, 1)), 0) - target * inp
    expected = reduce(pointwise, reduction, batch=4)
    got = F.kl_div(mf.tensor(inp), mf.tensor(target), reduction=reduction, log_target=log_target)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-15)
    module = nn.KLDivLoss(reduction=reduction, log_target=log_target)
    np.testing.assert_allclose(module(mf.tensor(inp), mf.tensor(target)).numpy(), expected, rtol=1e-12, atol=1e-15)
    # Gradients where the target is positive (0 is the edge of target log target's domain).
    smooth_target = log_softmax(Y) if log_target else softmax(Y)
    check_gradients(lambda a, t: F.kl_div(a, t, reduction=reduction, log_target=log_target), [inp, smooth_target])


def test_kl_div_checks():
    with pytest.raises(ValueError, match="reduction 'avg'"):
        F.kl_div(mf.tensor(X), mf.tensor(Y), reduction="avg")
    with pytest.warns(UserWarning, match="reduction='sum'"):  # torch's legacy reading, with its warning
        got = F.kl_div(mf.tensor(X), mf.tensor(Y), size_average=False)
    np.testing.assert_allclose(got.numpy(), F.kl_div(mf.tensor(X), mf.tensor(Y), reduction="sum").numpy())


def test_cosine_similarity_and_normalize():
    def cosine(a, b, axis, eps=1e-8):
        a, b = np.broadcast_arrays(a, b)
        na = np.maximum(np.linalg.norm(a, axis=axis, keepdims=True), eps)
        nb = np.maximum(np.linalg.norm(b, axis=axis, keepdims=True), eps)
        return ((a / na) * (b / nb)).sum(axis)
    np.testing.assert_allclose(F.cosine_similarity(mf.tensor(X), mf.tensor(Y)).numpy(), cosine(X, Y, 1), rtol=1e-12)
    np.testing.assert_allclose(F.cosine_similarity(mf.tensor(X), mf.tensor(Y[:1]), dim=-1).numpy(),
                               cosine(X, Y[:1], -1), rtol=1e-12)
    np.testing.assert_allclose(nn.CosineSimilarity(dim=0)(mf.tensor(X), mf.tensor(Y)).numpy(), cosine(X, Y, 0),
                               rtol=1e-12)
    zeros = np.zeros((2, 3))
    np.testing.assert_array_equal(F.cosine_similarity(mf.tensor(zeros), mf.tensor(zeros)).numpy(), [0.0, 0.0])
    check_gradients(lambda a, b: F.cosine_similarity(a, b), [X, Y])

    def normalized(a, p, axis, eps=1e-12):
        return a / np.maximum((np.abs(a) ** p).sum(axis, keepdims=True) ** (1 / p), eps)
    np.testing.assert_allclose(F.normalize(mf.tensor(X)).numpy(), normalized(X, 2, 1), rtol=1e-12)
    np.testing.assert_allclose(F.normalize(mf.tensor(X), p=3, dim=0).numpy(), normalized(X, 3, 0), rtol=1e-12)
    np.testing.assert_array_equal(F.normalize(mf.tensor(zeros)).numpy(), zeros)
    check_gradients(lambda a: F.normalize(a, dim=1), [X])


@pytest.mark.parametrize("delta", [1.0, 0.4])
def test_huber_loss(delta):
    d = np.abs(X - Y)
    pointwise = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    for reduction in ("mean", "sum", "none"):
        got = F.huber_loss(mf.tensor(X), mf.tensor(Y), reduction=reduction, delta=delta)
        np.testing.assert_allclose(got.numpy(), reduce(pointwise, reduction), rtol=1e-12)
    np.testing.assert_allclose(nn.HuberLoss(delta=delta)(mf.tensor(X), mf.tensor(Y)).numpy(), pointwise.mean(),
                               rtol=1e-12)
    # Huber is delta * smooth_l1 with beta = delta.
    np.testing.assert_allclose(F.huber_loss(mf.tensor(X), mf.tensor(Y), delta=delta).numpy(),
                               delta * F.smooth_l1_loss(mf.tensor(X), mf.tensor(Y), beta=delta).numpy(), rtol=1e-12)
    check_gradients(lambda a, b: F.huber_loss(a, b, delta=delta, reduction="sum"), [X, Y])
    with pytest.raises(ValueError, match="delta 0; expected delta > 0"):
        F.huber_loss(mf.tensor(X), mf.tensor(Y), delta=0)


def test_activations():
    x = mf.tensor(X)
    np.testing.assert_allclose(F.leaky_relu(x, 0.2).numpy(), np.where(X > 0, X, 0.2 * X))
    np.testing.assert_allclose(nn.LeakyReLU()(x).numpy(), np.where(X > 0, X, 0.01 * X))
    np.testing.assert_allclose(F.elu(x, 1.5).numpy(), np.where(X > 0, X, 1.5 * np.expm1(X)), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(nn.ELU()(x).numpy(), np.where(X > 0, X, np.expm1(X)), rtol=1e-12, atol=1e-15)
    tanh_gelu = 0.5 * X * (1 + np.tanh(math.sqrt(2 / math.pi) * (X + 0.044715 * X ** 3)))
    np.testing.assert_allclose(F.gelu(x, approximate="tanh").numpy(), tanh_gelu, rtol=1e-12)
    np.testing.assert_allclose(nn.GELU(approximate="tanh")(x).numpy(), tanh_gelu, rtol=1e-12)
    np.testing.assert_allclose(nn.GELU()(x).numpy(), F.gelu(x).numpy())
    np.testing.assert_allclose(F.softmin(x, dim=1).numpy(), softmax(-X, 1), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmin(dim=0)(x).numpy(), softmax(-X, 0), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmax(dim=1)(x).numpy(), softmax(X, 1), rtol=1e-12)
    np.testing.assert_allclose(nn.LogSoftmax(dim=-1)(x).numpy(), log_softmax(X, -1), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmax()(x).numpy(), softmax(X, 1), rtol=1e-12)  # torch's implicit dim: 1 in 2-d
    # A large input makes no NaN in elu's gradient.
    big = mf.tensor(np.array([1000.0, -2.0]), requires_grad=True)
    F.elu(big).sum().backward()
    np.testing.assert_allclose(big.grad.numpy(), [1.0, math.exp(-2.0)])
    away = np.where(np.abs(X) < 0.1, 0.5, X)  # the kink of leaky_relu and elu
    for f in (lambda a: F.leaky_relu(a, 0.2), lambda a: F.elu(a, 1.5), lambda a: F.gelu(a, approximate="tanh"),
              lambda a: F.softmin(a, 1)):
        check_gradients(f, [away])
    assert repr(nn.GELU(approximate="tanh")) == "GELU(approximate='tanh')"
    assert repr(nn.LeakyReLU(0.2)) == "LeakyReLU(negative_slope=0.2)" and repr(nn.Softmax(1)) == "Softmax(dim=1)"
    with pytest.raises(ValueError, match="approximate='fast'"):
        nn.GELU(approximate="fast")


# torch 2.15's F.gelu(x, approximate="tanh") in float32 on X32, and x.grad for the output
# gradient DY32 (torch is not a test dependency: its values are stored).
X32 = [-6.0, -5.25, -4.5, -3.75, -3.0, -2.25, -1.5, -0.75, 0.0, 0.75, 1.5, 2.25, 3.0, 3.75, 4.5, 5.25, 6.0, -3.5,
       -0.30000001192092896, 0.0010000000474974513, 0.699999988079071, 2.5, 9.0]
TORCH_GELU_TANH = [
    -0.0, -0.0, -5.0961971282958984e-06, -0.00021927058696746826, -0.0036374330520629883, -0.027201354503631592,
    -0.10042843222618103, -0.17003947496414185, 0.0, 0.5799605846405029, 1.3995715379714966, 2.2227985858917236,
    2.9963626861572266, 3.7497806549072266, 4.49999475479126, 5.25, 6.0, -0.0006161481142044067,
    -0.11462908238172531, 0.0005003989790566266, 0.5305701494216919, 2.4849157333374023, 9.0]
DY32 = np.linspace(-1, 1.5, len(X32), dtype=np.float32)
TORCH_GELU_TANH_GRAD = [
    -0.0, -0.0, 2.2479296603705734e-05, 0.0006270855665206909, 0.0063187070190906525, 0.025872204452753067,
    0.04063526168465614, -0.00021717356867156923, -0.04545453190803528, 0.022703174501657486, 0.1537787914276123,
    0.2649786174297333, 0.36784878373146057, 0.4777267575263977, 0.5909262299537659, 0.7045454382896423,
    0.8181818127632141, -0.0022572819143533707, 0.27987292408943176, 0.5804702639579773, 1.2426364421844482,
    1.4389784336090088, 1.5]


def test_gelu_tanh_in_float32_is_torchs():
    """One op each way (gelu_tanh, gelu_tanh_backward), torch's formula in its order: within
    float32's rounding of torch's values (an ulp of 1 where 1 + tanh cancels, below 0)."""
    x = mf.tensor(np.array(X32, np.float32), requires_grad=True)
    y = F.gelu(x, approximate="tanh")
    assert y.dtype == mf.float32 and y.grad_fn.name() == "GeluBackward0"
    y.backward(mf.tensor(DY32))
    # An ulp of tanh near -1 (6e-8) times |x| <= 4 where it matters.
    np.testing.assert_allclose(y.numpy(), TORCH_GELU_TANH, rtol=5e-7, atol=2.4e-7)
    np.testing.assert_allclose(x.grad.numpy(), TORCH_GELU_TANH_GRAD, rtol=5e-7, atol=2.4e-7)


def test_softmax_along_an_int_dim_is_one_c_call():
    from meshflow import _C
    from meshflow._tensor import Tensor
    x = mf.tensor(X)
    for name in ("softmax", "log_softmax"):
        along = _C.op(name).along  # what F.softmax(x, dim) runs for an int dim
        want = (softmax if name == "softmax" else log_softmax)(X, 1)
        np.testing.assert_allclose(Tensor(along(x._impl, -1)).numpy(), want, rtol=1e-12)
        np.testing.assert_allclose(getattr(F, name)(x, np.int64(1)).numpy(), want, rtol=1e-12)  # the general path
        with pytest.raises(TypeError, match="dim must be an int"):
            along(x._impl, 1.5)


def test_loss_modules_hold_their_arguments_as_torch():
    """Class weights are buffers (state_dict, to()), the other arguments attributes."""
    ce = mf.nn.CrossEntropyLoss(weight=mf.tensor([1.0, 2.0]), ignore_index=3, label_smoothing=0.1)
    assert list(ce.state_dict()) == ["weight"] and [n for n, _ in ce.named_buffers()] == ["weight"]
    assert (ce.ignore_index, ce.label_smoothing, ce.reduction) == (3, 0.1, "mean")
    bce = mf.nn.BCEWithLogitsLoss(pos_weight=mf.tensor([2.0]))
    assert list(bce.state_dict()) == ["pos_weight"]
    assert list(mf.nn.NLLLoss().state_dict()) == [] and mf.nn.NLLLoss().weight is None
    assert (mf.nn.SmoothL1Loss(beta=0.5).beta, mf.nn.TripletMarginLoss(margin=2.0).margin) == (0.5, 2.0)
    ce.weight = mf.tensor([1.0, 0.0])  # as torch's: a later weight is the one used
    loss = ce(mf.tensor([[0.0, 1.0], [1.0, 0.0]]), mf.tensor([1, 0]))
    np.testing.assert_allclose(loss.item(), 0.36326164, rtol=1e-6)  # torch 2's
    assert isinstance(mf.nn.CTCLoss(), mf.nn.modules.loss._Loss)
