"""Optimizer parameter groups, the autograd API and the composed losses on global tensors,
on 2 and 4 ranks:
an optimizer with two groups (their own lr, weight decay, betas / momentum) over parameters
in several layouts, on meshes [world] and [2, 2], ends with the values of the same steps on
one device, its state in each parameter's layout; autograd.grad, autograd.backward, hooks
and retain_grad give gradients in each tensor's placement and SBP, equal to one device;
kl_div, cosine_similarity, normalize, huber_loss, smooth_l1_loss, leaky_relu and elu equal one
device, with their gradients in the inputs' layouts."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

S, B = mf.sbp.split, mf.sbp.broadcast
STEPS = 3
SHAPES = [(5, 3), (7,), (3, 5)]  # uneven over 2 and 4 ranks


def mesh(kind):
    world = mf.env.get_world_size()
    if kind == "2x2":
        if world < 4:
            pytest.skip(f"needs 4 ranks, the world has {world}")
        return mf.placement("cpu", [[0, 1], [2, 3]])
    return mf.placement("cpu", list(range(world)))


def layouts(kind):
    if kind == "2x2":
        return [(S(0), B), (B, S(0)), (S(1), S(0))]
    return [S(0), B, S(1)]


def values():
    rng = np.random.default_rng(3)
    return [rng.standard_normal(s) for s in SHAPES]


def gradient(step, k):
    return np.random.default_rng(10 * step + k).standard_normal(SHAPES[k])


OPTIMIZERS = {
    "Adam": lambda ps: mf.optim.Adam([{"params": ps[:2], "weight_decay": 0.1},
                                      {"params": ps[2:], "lr": 0.01, "betas": (0.8, 0.9)}], lr=0.05),
    "AdamW": lambda ps: mf.optim.AdamW([{"params": ps[:1]}, {"params": ps[1:], "lr": 0.2, "weight_decay": 0.3}],
                                       lr=0.05),
    "SGD": lambda ps: mf.optim.SGD([{"params": ps[:2], "momentum": 0.9, "nesterov": True},
                                    {"params": ps[2:], "lr": 0.3, "weight_decay": 0.1}], lr=0.1),
}


def train(make, params, to_grad):
    optimizer = make(params)
    for step in range(STEPS):
        if step == 1:
            optimizer.param_groups[1]["lr"] *= 0.5  # edited between steps, read by the next
        for k, p in enumerate(params):
            p.grad = to_grad(gradient(step, k), p)
        optimizer.step()
    return optimizer


@pytest.mark.parametrize("kind", ["world", "2x2"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_two_groups_on_global_parameters_equal_one_device(name, kind):
    make = OPTIMIZERS[name]
    local = [mf.tensor(v, requires_grad=True) for v in values()]
    train(make, local, lambda g, p: mf.tensor(g))
    placement = mesh(kind)
    sbps = layouts(kind)
    params = [mf.tensor(v, placement=placement, sbp=s, requires_grad=True) for v, s in zip(values(), sbps)]
    optimizer = train(make, params, lambda g, p: mf.tensor(g, placement=p.placement, sbp=p.sbp))
    for p, q, s in zip(params, local, sbps):
        assert p.placement == placement and p.sbp == (s if isinstance(s, tuple) else (s,))
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-12, atol=1e-14)
    for i, entries in optimizer.state_dict()["state"].items():
        for key, t in entries.items():
            if key != "step":
                assert t.sbp == params[i].sbp, (i, key)


@pytest.mark.parametrize("kind", ["world", "2x2"])
def test_autograd_grad_hooks_and_retain_grad_on_global_tensors(kind):
    placement = mesh(kind)
    x_sbp, w_sbp = layouts(kind)[0], layouts(kind)[1]
    rng = np.random.default_rng(7)
    xv, wv = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    x = mf.tensor(xv, placement=placement, sbp=x_sbp, requires_grad=True)
    w = mf.tensor(wv, placement=placement, sbp=w_sbp, requires_grad=True)
    y = x * w
    y.retain_grad()
    loss = (y * y).sum()
    gx, gw, gy = mf.autograd.grad(loss, [x, w, y], retain_graph=True)
    assert x.grad is None and w.grad is None
    for g, t, expected in ((gx, x, 2 * xv * wv * wv), (gw, w, 2 * xv * xv * wv), (gy, y, 2 * xv * wv)):
        assert g.placement == t.placement and g.sbp == t.sbp
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-12)
    y.grad = None
    seen = []
    handle = w.register_hook(lambda g: seen.append(g.sbp) or g * 3)
    mf.autograd.backward([loss, w.sum()], retain_graph=True)
    assert seen == [w.sbp]  # the hook sees the gradient in w's layout
    np.testing.assert_allclose(w.grad.numpy(), 3 * (2 * xv * xv * wv + 1), rtol=1e-12)
    assert w.grad.sbp == w.sbp and y.grad.sbp == y.sbp
    np.testing.assert_allclose(y.grad.numpy(), 2 * xv * wv, rtol=1e-12)
    handle.remove()
    w.grad = None
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * xv * xv * wv, rtol=1e-12)


LOSSES = {
    "kl_div": lambda a, b: F.kl_div(F.log_softmax(a, 1), F.softmax(b, 1), reduction="batchmean"),
    "kl_div_log_target": lambda a, b: F.kl_div(F.log_softmax(a, 1), F.log_softmax(b, 1), reduction="sum",
                                               log_target=True),
    "cosine_similarity": lambda a, b: F.cosine_similarity(a, b).sum(),
    "normalize": lambda a, b: (F.normalize(a, dim=1) * b).sum(),
    "huber_loss": lambda a, b: F.huber_loss(a, b, delta=0.5),
    "smooth_l1_loss": lambda a, b: F.smooth_l1_loss(a, b, reduction="sum", beta=0.7),
    "activations": lambda a, b: (F.leaky_relu(a, 0.2) * F.elu(b, 1.5)).sum(),
}


@pytest.mark.parametrize("kind", ["world", "2x2"])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_losses_on_global_tensors_equal_one_device(name, kind):
    f = LOSSES[name]
    rng = np.random.default_rng(9)
    av, bv = rng.standard_normal((5, 7)), rng.standard_normal((5, 7))
    a, b = mf.tensor(av, requires_grad=True), mf.tensor(bv, requires_grad=True)
    expected = f(a, b)
    expected.backward()
    placement = mesh(kind)
    for a_sbp, b_sbp in zip(layouts(kind), layouts(kind)[1:] + layouts(kind)[:1]):
        ga = mf.tensor(av, placement=placement, sbp=a_sbp, requires_grad=True)
        gb = mf.tensor(bv, placement=placement, sbp=b_sbp, requires_grad=True)
        loss = f(ga, gb)
        loss.backward()
        np.testing.assert_allclose(loss.numpy(), expected.numpy(), rtol=1e-12)
        for g, t, want in ((ga.grad, ga, a.grad), (gb.grad, gb, b.grad)):
            assert g.sbp == t.sbp
            np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-10, atol=1e-14)
