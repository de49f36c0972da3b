"""Higher-order gradients (create_graph=True): second derivatives of the common ops against
hand-written ones and finite differences (gradgradcheck), a WGAN-GP gradient penalty on a
small MLP, Hessian-vector products; gradcheck and gradgradcheck themselves, passing and
failing; anomaly detection."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def rand(*shape, seed=0, low=-1.5, high=1.5):
    return mf.tensor(np.random.default_rng(seed).uniform(low, high, shape), dtype=mf.float64, requires_grad=True)


def test_second_derivative_by_hand():
    x = mf.tensor([1.0, -2.0, 0.5], dtype=mf.float64, requires_grad=True)
    (g,) = mf.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad and g.grad_fn is not None
    np.testing.assert_allclose(g.numpy(), 3 * x.detach().numpy() ** 2)
    (h,) = mf.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), 6 * x.detach().numpy())
    # Third order: d3/dx3 x^3 = 6.
    (g,) = mf.autograd.grad((x * x * x).sum(), x, create_graph=True)
    (h,) = mf.autograd.grad(g.sum(), x, create_graph=True)
    (t,) = mf.autograd.grad(h.sum(), x)
    np.testing.assert_allclose(t.numpy(), [6.0, 6.0, 6.0])


def test_backward_create_graph_makes_grad_differentiable_and_retains_the_graph():
    x = mf.tensor([0.3, -0.7], dtype=mf.float64, requires_grad=True)
    y = (mf.exp(x) * x).sum()
    y.backward(create_graph=True)  # retain_graph defaults to create_graph
    first = x.grad
    assert first.grad_fn is not None
    np.testing.assert_allclose(first.numpy(), np.exp([0.3, -0.7]) * (1 + np.array([0.3, -0.7])))
    (h,) = mf.autograd.grad(first.sum(), x)  # through the retained graph, which it frees
    np.testing.assert_allclose(h.numpy(), np.exp([0.3, -0.7]) * (2 + np.array([0.3, -0.7])))
    with pytest.raises(ValueError, match="a second time"):
        y.backward()
    x.grad = None
    # Without create_graph the gradient is a plain value, as before.
    (mf.exp(x).sum()).backward()
    assert x.grad.grad_fn is None


UNARY = {
    "tanh": mf.tanh, "sigmoid": mf.sigmoid, "exp": mf.exp, "log": lambda x: mf.log(x.abs() + 0.5),
    "sqrt": lambda x: (x * x + 1).sqrt(), "relu": F.relu, "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu,
    "softplus": F.softplus,
    "pow": lambda x: x ** 3, "div": lambda x: 1 / (x * x + 1), "softmax": lambda x: F.softmax(x, dim=1),
    "log_softmax": lambda x: F.log_softmax(x, dim=-1), "sum_mean": lambda x: x.sum(0) * x.mean(1).sum(),
    "norm": lambda x: x.norm(2, dim=1), "layer_norm": lambda x: F.layer_norm(x, (4,)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_gradgradcheck_of_unary_ops(name):
    assert mf.autograd.gradgradcheck(UNARY[name], (rand(3, 4, seed=1),))


def test_gradgradcheck_of_binary_and_nn_ops():
    a, b, w = rand(3, 4, seed=1), rand(4, 2, seed=2), rand(2, 4, seed=3)
    bias, target = rand(2, seed=4), rand(3, 2, seed=5)
    checks = [
        (lambda a, b: (a @ b).tanh(), (a, b)),
        (lambda a, b: a * b.t().sum(0) / (b.sum() + 5), (a, b)),
        (lambda a, w, bias: F.linear(a, w, bias).sigmoid(), (a, w, bias)),
        (lambda a, w, t: F.mse_loss(F.linear(a, w).tanh(), t), (a, w, target)),
        (lambda a, w, bias: F.layer_norm(a, (4,), w[0], bias.sum() + w[1]), (a, w, bias)),
    ]
    for fn, inputs in checks:
        assert mf.autograd.gradgradcheck(fn, inputs)


def test_gradgradcheck_of_cross_entropy():
    logits = rand(4, 5, seed=6)
    target = mf.tensor([1, 0, 4, 2])
    assert mf.autograd.gradgradcheck(lambda x: F.cross_entropy(x, target), (logits,))
    ignored = mf.tensor([1, -100, 4, 2])
    assert mf.autograd.gradgradcheck(lambda x: F.cross_entropy(x * x, ignored), (logits,))


def test_gradgradcheck_of_conv2d():
    x, w, b = rand(2, 2, 5, 5, seed=7), rand(3, 2, 3, 3, seed=8), rand(3, seed=9)
    assert mf.autograd.gradgradcheck(lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1).tanh(), (x, w, b),
                                     atol=1e-4)


def test_double_backward_through_an_op_without_one_names_it():
    q, k, v = rand(1, 3, 4, seed=10), rand(1, 3, 4, seed=11), rand(1, 3, 4, seed=12)
    (g,) = mf.autograd.grad(F.scaled_dot_product_attention(q, k, v).sum(), q, create_graph=True)
    with pytest.raises(Exception, match=r"\[attention_backward\] has no gradient of its own"):
        g.sum().backward()


def penalty(model, x):
    """WGAN-GP's gradient penalty: mean over the batch of (|dD/dx| - 1)^2."""
    (g,) = mf.autograd.grad(model(x).sum(), x, create_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


def test_gradient_penalty_on_an_mlp_matches_finite_differences():
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 4), nn.GELU(), nn.Linear(4, 1)).to(mf.float64)
    x = rand(6, 3, seed=11)
    penalty(model, x).backward()
    eps = 1e-6
    for p in model.parameters():
        # The last bias does not change dD/dx: no gradient reaches it (None, as torch's).
        analytical = np.zeros(tuple(p.shape)) if p.grad is None else p.grad.numpy()
        numerical = np.zeros_like(analytical)
        base = p.detach().numpy().copy()
        for j in range(base.size):
            values = []
            for step in (eps, -eps):
                moved = base.copy()
                moved.reshape(-1)[j] += step
                with mf.no_grad():
                    p.copy_(mf.tensor(moved, dtype=mf.float64))
                values.append(penalty(model, x).item())
            numerical.reshape(-1)[j] = (values[0] - values[1]) / (2 * eps)
        with mf.no_grad():
            p.copy_(mf.tensor(base, dtype=mf.float64))
        np.testing.assert_allclose(analytical, numerical, rtol=1e-5, atol=1e-8)


def test_hessian_vector_products():
    a = np.array([0.5, -1.0, 2.0])
    xs, vs = np.array([0.3, -0.2, 1.1]), np.array([1.0, 2.0, -0.5])

    def f(x):
        return (x ** 3).sum() + (x * mf.tensor(a)).sum() ** 2

    hessian = np.diag(6 * xs) + 2 * np.outer(a, a)
    x = mf.tensor(xs, dtype=mf.float64, requires_grad=True)
    (g,) = mf.autograd.grad(f(x), x, create_graph=True)
    (hv,) = mf.autograd.grad(g, x, mf.tensor(vs))
    np.testing.assert_allclose(hv.numpy(), hessian @ vs)
    value, hv = mf.autograd.functional.hvp(f, mf.tensor(xs), mf.tensor(vs))
    np.testing.assert_allclose(value.item(), (xs ** 3).sum() + (xs @ a) ** 2)
    np.testing.assert_allclose(hv.numpy(), hessian @ vs)
    _, vh = mf.autograd.functional.vhp(f, mf.tensor(xs), mf.tensor(vs))
    np.testing.assert_allclose(vh.numpy(), vs @ hessian)


def test_jvp_and_vjp():
    m = np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 3.0]])

    def f(x):
        return mf.tanh(mf.tensor(m) @ x)

    xs, v, u = np.array([0.1, -0.3, 0.2]), np.array([1.0, 0.5, -2.0]), np.array([0.7, -1.2])
    jacobian = (1 - np.tanh(m @ xs) ** 2)[:, None] * m
    out, jv = mf.autograd.functional.jvp(f, mf.tensor(xs), mf.tensor(v))
    np.testing.assert_allclose(out.numpy(), np.tanh(m @ xs))
    np.testing.assert_allclose(jv.numpy(), jacobian @ v)
    _, uj = mf.autograd.functional.vjp(f, mf.tensor(xs), mf.tensor(u))
    np.testing.assert_allclose(uj.numpy(), u @ jacobian)


class Cube(mf.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


class WrongCube(Cube):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x * x


class CubeWithConstantBackward(Cube):
    """Right first derivative, computed from a detached x: its own derivative is lost."""

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x.detach() * x.detach()


def test_gradcheck_passes_and_fails():
    x = rand(2, 3, seed=12)
    assert mf.autograd.gradcheck(Cube.apply, (x,))
    assert mf.autograd.gradcheck(lambda a, b: (a * b).sum(1), (x, rand(2, 3, seed=13)))
    with pytest.raises(mf.autograd.GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        mf.autograd.gradcheck(WrongCube.apply, (x,))
    assert mf.autograd.gradcheck(WrongCube.apply, (x,), raise_exception=False) is False
    with pytest.raises(ValueError, match="requires_grad=True"):
        mf.autograd.gradcheck(Cube.apply, (x.detach(),))


def test_gradgradcheck_passes_and_fails():
    x = rand(2, 3, seed=14)
    assert mf.autograd.gradgradcheck(Cube.apply, (x,))
    assert mf.autograd.gradcheck(CubeWithConstantBackward.apply, (x,))
    with pytest.raises(mf.autograd.GradcheckError, match="Jacobian mismatch"):
        mf.autograd.gradgradcheck(CubeWithConstantBackward.apply, (x,))
    assert mf.autograd.gradgradcheck(CubeWithConstantBackward.apply, (x,), raise_exception=False) is False


def nan_in_backward():
    x = mf.tensor([-1.0, 4.0], requires_grad=True)
    # sqrt(-1) is NaN, but where() keeps it out of the forward value; its gradient 0.5 / NaN is not.
    y = mf.where(x > 0, x.sqrt(), mf.zeros_like(x)).sum()
    return x, y


def test_anomaly_detection_names_the_backward_that_made_nan():
    x, y = nan_in_backward()
    y.backward()  # off: no check, the NaN reaches the gradient
    assert np.isnan(x.grad.numpy()[0])
    with mf.autograd.detect_anomaly():
        assert mf.autograd.is_anomaly_enabled()
        x, y = nan_in_backward()
        with pytest.raises(RuntimeError, match=r"Function 'SqrtBackward0' returned nan values in its 0th output\.") \
                as raised:
            y.backward()
    assert "nan_in_backward" in str(raised.value)  # where the call was made
    assert not mf.autograd.is_anomaly_enabled()
    mf.autograd.set_detect_anomaly(True)
    try:
        x, y = nan_in_backward()
        with pytest.raises(RuntimeError, match="SqrtBackward0"):
            mf.autograd.grad(y, x)
    finally:
        mf.autograd.set_detect_anomaly(False)
    x, y = nan_in_backward()
    y.backward()


def test_gradgradcheck_of_pooling_padding_upsampling_and_group_norm():
    x = rand(1, 2, 5, 6, seed=15)
    checks = [
        lambda x: F.max_pool2d(x, 2, stride=2, padding=1) ** 2,
        lambda x: F.avg_pool2d(x * x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
        lambda x: F.adaptive_avg_pool2d(x * x, (3, 4)),
        lambda x: F.pad(x, (2, 1, 0, 1), mode="reflect") ** 2,
        lambda x: F.interpolate(x, size=(7, 9), mode="nearest") ** 2,
        lambda x: F.interpolate(x, size=(7, 4), mode="bilinear") ** 2,
        lambda x: F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True) ** 2,
        lambda x: F.group_norm(x, 2, x[0, :, 0, 0], x[0, :, 1, 1]) ** 2,
    ]
    for fn in checks:
        assert mf.autograd.gradgradcheck(fn, (x,))
