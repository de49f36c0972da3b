"""Broadcast gradients (autograd/var.h): a sum's or mean's gradient reaches an activation's
backward as one value per output element, never expanded to a full-size tensor in memory (as
PyTorch's stride-0 view), through bias adds and reshapes too (add and sub pass it on, a
bias's gradient then the value times the count; reshape a full sum's), while every value
stays what the expanded gradient gives: hooks, retain_grad and a leaf's .grad see the full
shape, gradients of several shapes sum, a create_graph backward differentiates through it,
graph mode and the test device agree."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow._tensor import apply

MiB = 1 << 20

ACTIVATIONS = {
    "relu": F.relu,
    "relu6": F.relu6,
    "hardtanh": lambda x: F.hardtanh(x, -0.5, 0.5),
    "clamp": lambda x: mf.clamp(x, min=-0.5),
    "gelu": F.gelu,
    "silu": F.silu,
    "sigmoid": mf.sigmoid,
    "tanh": mf.tanh,
    "exp": mf.exp,
    "neg_scaled": lambda x: -x * 3.0,
}


def reference_input(shape, seed=0):
    # Values at the bounds too (0, +-0.5, 6), where the gradients' masks change.
    x = np.random.default_rng(seed).uniform(-8, 8, shape)
    x.flat[:4] = [0.0, 0.5, -0.5, 6.0]
    return x


def grad_of(f, loss, x_np, device="cpu", dtype=mf.float64):
    x = mf.tensor(x_np, dtype=dtype, device=device, requires_grad=True)
    loss(f(x)).backward()
    assert x.grad.shape == x.shape
    return x.grad.numpy()


def expanded_grad_of(f, loss, x_np, dtype=mf.float64):
    """The same gradient with the loss's gradient given whole to the activation's output."""
    x = mf.tensor(x_np, dtype=dtype, requires_grad=True)
    y = f(x)
    probe = y.detach().requires_grad_()
    loss(probe).backward()
    y.backward(probe.grad)  # the loss's gradient, expanded as a leaf's .grad always is
    return x.grad.numpy()


LOSSES = {
    "sum": lambda y: y.sum(),
    "mean": lambda y: y.mean(),
    "sum_dim0": lambda y: y.sum(dim=0).sum(),
    "mean_dim1_keepdim": lambda y: (y.mean(dim=1, keepdim=True) * 2.0).sum(),
    "sum_of_sums": lambda y: y.sum(dim=(0, 2)).mean() + y.sum(),
    "amax": lambda y: y.amax(dim=1).sum(),
}


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_gradients_equal_those_of_the_expanded_loss_gradient(name, loss):
    f, x = ACTIVATIONS[name], reference_input((3, 4, 5))
    np.testing.assert_array_equal(grad_of(f, LOSSES[loss], x), expanded_grad_of(f, LOSSES[loss], x))


@pytest.mark.parametrize("name", ["relu", "relu6", "hardtanh", "gelu", "tanh"])
def test_the_test_device_equals_the_cpu(name):
    f, x = ACTIVATIONS[name], reference_input((4, 6))
    for loss in (LOSSES["sum"], LOSSES["mean_dim1_keepdim"]):
        np.testing.assert_array_equal(grad_of(f, loss, x, device="testdev"), grad_of(f, loss, x))


def backward_peak(f, loss, n):
    """The bytes in use at backward's peak beyond what its start held, x of n float32 elements."""
    x = mf.randn(n, requires_grad=True)
    out = loss(f(x))
    mf.synchronize()
    start = mf.memory_allocated()
    mf.reset_peak_memory_stats()
    out.backward()
    mf.synchronize()
    return mf.max_memory_allocated() - start


@pytest.mark.parametrize("loss", ["sum", "mean"])
@pytest.mark.parametrize("name", ["relu", "relu6", "hardtanh", "clamp", "gelu", "silu", "sigmoid", "tanh", "exp"])
def test_backward_through_an_activation_allocates_no_full_size_loss_gradient(name, loss):
    n = 1 << 20  # 4 MiB of float32
    peak = backward_peak(ACTIVATIONS[name], LOSSES[loss], n)
    # At most x.grad (the saved input or output may be freed by then); an expanded dy would add
    # as much again.
    assert peak < 4.5 * MiB, f"{name}: backward's peak is {peak / MiB:.2f} MiB beyond its start"


BIASED = {  # x [3, 4, 5] and b [4, 1], b broadcast over x's other dims
    "add": lambda x, b: x + b,
    "sub_then_relu": lambda x, b: F.relu(x - b),
    "bias_minus_x": lambda x, b: b - x,
    "added_twice": lambda x, b: (x + b) + b.reshape(1, 4, 1),
    "reshaped": lambda x, b: F.relu(x.reshape(3, 20).unsqueeze(1).reshape(3, 4, 5)) + b,
}


def biased_grads(f, loss, expanded):
    """x's and b's gradients through f(x, b), with the loss's gradient given whole to f's
    output where `expanded`."""
    x = mf.tensor(reference_input((3, 4, 5)), requires_grad=True)
    b = mf.tensor(reference_input((4, 1), seed=1), requires_grad=True)
    y = f(x, b)
    if expanded:
        probe = y.detach().requires_grad_()
        loss(probe).backward()
        y.backward(probe.grad)
    else:
        loss(y).backward()
    return x.grad.numpy(), b.grad.numpy()


@pytest.mark.parametrize("loss", ["sum", "mean", "sum_dim0", "mean_dim1_keepdim", "sum_of_sums"])
@pytest.mark.parametrize("name", sorted(BIASED))
def test_add_and_sub_pass_a_broadcast_gradient_on(name, loss):
    got, expected = biased_grads(BIASED[name], LOSSES[loss], False), biased_grads(BIASED[name], LOSSES[loss], True)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=0)


def test_a_leaf_summed_directly_gets_its_whole_gradient_and_accumulates():
    x = mf.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    x.sum().backward()
    x.mean(dim=0).sum().backward()
    assert x.grad.shape == (2, 3)
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 3), 1.5))


def test_hooks_and_retained_gradients_see_the_full_shape():
    x = mf.tensor(reference_input((3, 4)), requires_grad=True)
    y = F.relu(x)
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(tuple(g.shape)))
    y.mean().backward()
    assert seen == [(3, 4)]
    np.testing.assert_array_equal(y.grad.numpy(), np.full((3, 4), 1 / 12))
    np.testing.assert_array_equal(x.grad.numpy(), (x.detach().numpy() > 0) / 12)


def test_gradients_of_several_shapes_reaching_one_output_sum():
    x_np = reference_input((3, 4))
    x = mf.tensor(x_np, requires_grad=True)
    y = F.relu(x)
    (y.sum() + y.sum(dim=0).sum() * 2 + y.mean(dim=1).sum() + y.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), (x_np > 0) * (1 + 2 + 0.25 + 1), rtol=1e-15)


@pytest.mark.parametrize("name", ["relu", "relu6", "clamp", "tanh", "gelu"])
def test_double_backward_reaches_what_the_broadcast_gradient_came_from(name):
    # dL/dx = f'(x) s[i] broadcast along dim 1; d(sum(dL/dx * w))/ds[i] = sum_j f'(x[i, j]) w[i, j].
    f, x_np = ACTIVATIONS[name], reference_input((3, 4))
    w = np.random.default_rng(1).uniform(-1, 1, (3, 4))
    x = mf.tensor(x_np, requires_grad=True)
    s = mf.tensor([1.0, 2.0, 3.0], dtype=mf.float64, requires_grad=True)
    (g,) = mf.autograd.grad((f(x).sum(dim=1) * s).sum(), [x], create_graph=True)
    (g * mf.tensor(w)).sum().backward()
    slope = grad_of(f, LOSSES["sum"], x_np)  # f'(x), elementwise
    np.testing.assert_allclose(g.detach().numpy(), slope * np.array([[1.0], [2.0], [3.0]]), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(s.grad.numpy(), (slope * w).sum(axis=1), rtol=1e-12)


def test_backward_ops_refuse_a_gradient_that_does_not_broadcast():
    x = mf.ones(2, 3)
    with pytest.raises(ValueError, match=r"\[relu_backward\] dy has shape \[2, 2\]; expected y's shape \[2, 3\] or "
                                         r"one that broadcasts to it"):
        apply("relu_backward", [x, mf.ones(2, 2)], {})
    with pytest.raises(ValueError, match=r"\[hardtanh_backward\] dy has shape \[4, 3\]; expected x's shape"):
        apply("hardtanh_backward", [x, mf.ones(4, 3)], {"min": 0.0, "max": 6.0})


def test_graph_mode_equals_eager():
    placement = mf.placement("cpu", ranks=[0])

    def model():
        mf.manual_seed(0)
        m = nn.Sequential(nn.Linear(4, 8), nn.ReLU6(), nn.Linear(8, 8), nn.ReLU())
        m.to_global(placement, mf.sbp.broadcast)
        return m, mf.optim.SGD(m.parameters(), lr=0.5)

    def loss_of(m, x):
        return m(x).mean() + m(x * 2).sum(dim=1).sum()

    class Step(nn.Graph):
        def __init__(self, m, opt):
            super().__init__()
            self.m = m
            self.add_optimizer(opt)

        def build(self, x):
            loss = loss_of(self.m, x)
            loss.backward()
            return loss

    x = mf.tensor(reference_input((5, 4)).astype(np.float32), placement=placement, sbp=mf.sbp.broadcast)
    (eager, opt), (compiled, compiled_opt) = model(), model()
    step = Step(compiled, compiled_opt)
    for _ in range(2):
        want = loss_of(eager, x)
        want.backward()
        opt.step()
        opt.zero_grad()
        np.testing.assert_allclose(step(x).numpy(), want.numpy(), rtol=1e-6)
    for a, b in zip(eager.parameters(), compiled.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
