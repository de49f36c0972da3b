"""The optimizers composed in Python (optim/_composed_more.py): Adamax, NAdam, RAdam,
Adadelta, ASGD, Rprop and LBFGS against NumPy versions of torch's single-tensor rules over five
steps, their state_dict resumes, parameter groups under a scheduler, torch's argument checks,
and the test device equal to the CPU."""
import math

import numpy as np
import pytest

import meshflow as mf


# ---------------------------------------------------------------------------------------------
# Optimizers: NumPy versions of torch's single-tensor rules, five steps on two groups.

W0 = np.array([[1.0, -2.0, 0.5], [0.5, 3.0, -1.0]])
SCALE = np.array([1.0, 2.0, 0.5])


def loss_grad(w):
    return 4 * w ** 3 * SCALE + 1  # d/dw sum(w^4 * SCALE + w)


def adamax_ref(w, g, s, step, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0):
    g = g + weight_decay * w
    s["m"] = s.get("m", 0) * betas[0] + (1 - betas[0]) * g
    s["u"] = np.maximum(s.get("u", 0) * betas[1], np.abs(g) + eps)
    return w - lr / (1 - betas[0] ** step) * s["m"] / s["u"]


def nadam_ref(w, g, s, step, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
              decoupled_weight_decay=False):
    if weight_decay and decoupled_weight_decay:
        w = w * (1 - lr * weight_decay)
    elif weight_decay:
        g = g + weight_decay * w
    mu = betas[0] * (1 - 0.5 * 0.96 ** (step * momentum_decay))
    mu_next = betas[0] * (1 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
    s["prod"] = float(np.float32(s.get("prod", 1.0)) * np.float32(mu))  # a float32 tensor in torch
    s["m"] = s.get("m", 0) * betas[0] + (1 - betas[0]) * g
    s["v"] = s.get("v", 0) * betas[1] + (1 - betas[1]) * g * g
    denom = np.sqrt(s["v"] / (1 - betas[1] ** step)) + eps
    return w - lr * (1 - mu) / (1 - s["prod"]) * g / denom - lr * mu_next / (1 - s["prod"] * mu_next) * s["m"] / denom


def radam_ref(w, g, s, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False):
    if weight_decay and decoupled_weight_decay:
        w = w * (1 - lr * weight_decay)
    elif weight_decay:
        g = g + weight_decay * w
    s["m"] = s.get("m", 0) * betas[0] + (1 - betas[0]) * g
    s["v"] = s.get("v", 0) * betas[1] + (1 - betas[1]) * g * g
    m_hat = s["m"] / (1 - betas[0] ** step)
    rho_inf = 2 / (1 - betas[1]) - 1
    rho = rho_inf - 2 * step * betas[1] ** step / (1 - betas[1] ** step)
    if rho > 5:
        r = math.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
        return w - lr * m_hat * r * math.sqrt(1 - betas[1] ** step) / (np.sqrt(s["v"]) + eps)
    return w - lr * m_hat


def adadelta_ref(w, g, s, step, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0):
    g = g + weight_decay * w
    s["sq"] = s.get("sq", 0) * rho + (1 - rho) * g * g
    delta = np.sqrt(s.get("acc", 0) + eps) / np.sqrt(s["sq"] + eps) * g
    s["acc"] = s.get("acc", 0) * rho + (1 - rho) * delta * delta
    return w - lr * delta


def asgd_ref(w, g, s, step, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0):
    f32 = lambda v: float(np.float32(v))  # noqa: E731: torch's eta and mu are float32 tensors
    eta, mu = s.get("eta", f32(lr)), s.get("mu", 1.0)
    g = g + weight_decay * w
    w = w * (1 - lambd * eta) - eta * g
    s["ax"] = s.get("ax", 0) + (w - s.get("ax", 0)) * mu if mu != 1 else w.copy()
    s["eta"] = f32(lr / (1 + lambd * lr * step) ** alpha)
    s["mu"] = f32(1 / max(1, step - t0))
    return w


def rprop_ref(w, g, s, step, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50)):
    agree = np.sign(g * s.get("prev", 0))
    factor = np.where(agree > 0, etas[1], np.where(agree < 0, etas[0], 1.0))
    s["size"] = np.clip(s.get("size", np.full_like(w, lr)) * factor, *step_sizes)
    g = np.where(agree < 0, 0.0, g)
    s["prev"] = g
    return w - np.sign(g) * s["size"]


CASES = [("Adamax", adamax_ref, dict(lr=0.05)),
         ("Adamax", adamax_ref, dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1)),
         ("NAdam", nadam_ref, dict(lr=0.05)), ("NAdam", nadam_ref, dict(lr=0.05, weight_decay=0.1)),
         ("NAdam", nadam_ref, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, momentum_decay=0.01)),
         ("RAdam", radam_ref, dict(lr=0.05)), ("RAdam", radam_ref, dict(lr=0.05, betas=(0.9, 0.5), weight_decay=0.1)),
         ("RAdam", radam_ref, dict(lr=0.05, betas=(0.9, 0.5), weight_decay=0.1, decoupled_weight_decay=True)),
         ("Adadelta", adadelta_ref, dict()), ("Adadelta", adadelta_ref, dict(lr=0.5, rho=0.8, weight_decay=0.1)),
         ("ASGD", asgd_ref, dict(lr=0.05)), ("ASGD", asgd_ref, dict(lr=0.05, lambd=0.1, t0=2, weight_decay=0.1)),
         ("Rprop", rprop_ref, dict(lr=0.05)),
         ("Rprop", rprop_ref, dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2)))]


def run_optimizer(name, kw, steps=5, device="cpu"):
    w = mf.tensor(W0, requires_grad=True, device=device)
    opt = getattr(mf.optim, name)([w], **kw)
    for _ in range(steps):
        opt.zero_grad()
        ((w ** 4 * mf.tensor(SCALE, device=device)).sum() + w.sum()).backward()
        opt.step()
    return w.detach().cpu().numpy(), opt


@pytest.mark.parametrize("name, ref, kw", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_optimizer_follows_torchs_rule(name, ref, kw):
    got, opt = run_optimizer(name, kw)
    w, state = W0.copy(), {}
    for step in range(1, 6):
        w = ref(w, loss_grad(w), state, step, **kw)
    np.testing.assert_allclose(got, w, rtol=1e-10, atol=1e-12)
    assert float(opt.state_dict()["state"][0]["step"].item()) == 5
    np.testing.assert_array_equal(run_optimizer(name, kw, device="testdev")[0], got)


@pytest.mark.parametrize("name, ref, kw", CASES[::2], ids=[c[0] for c in CASES[::2]])
def test_optimizer_state_dict_resumes_and_groups_take_a_scheduler(name, ref, kw):
    straight, _ = run_optimizer(name, kw, steps=4)
    w = mf.tensor(W0, requires_grad=True)
    first = getattr(mf.optim, name)([w], **kw)
    for steps, opt in ((2, first), (2, None)):
        if opt is None:  # a fresh optimizer that loads the first one's state
            opt = getattr(mf.optim, name)([w], **kw)
            opt.load_state_dict(first.state_dict())
        for _ in range(steps):
            opt.zero_grad()
            ((w ** 4 * mf.tensor(SCALE)).sum() + w.sum()).backward()
            opt.step()
    np.testing.assert_array_equal(w.detach().numpy(), straight)
    # Two groups, the second's lr halved by a scheduler after the first step: its parameter
    # then moves as a lone parameter at that lr would.
    a, b = mf.tensor(W0[0], requires_grad=True), mf.tensor(W0[1], requires_grad=True)
    opt = getattr(mf.optim, name)([{"params": [a]}, {"params": [b], "lr": 0.02}], **kw)
    sched = mf.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    assert opt.param_groups[1]["lr"] == 0.02 and "initial_lr" in opt.param_groups[1]
    for _ in range(2):
        opt.zero_grad()
        (a.sum() + (b * b).sum()).backward()
        opt.step()
        sched.step()
    assert opt.param_groups[1]["lr"] == pytest.approx(0.005)
    assert not np.array_equal(b.detach().numpy(), W0[1])


def test_optimizer_arguments_as_torchs():
    w = mf.tensor(W0, requires_grad=True)
    with pytest.raises(ValueError, match="beta"):
        mf.optim.NAdam([w], betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="learning rate"):
        mf.optim.Adamax([w], lr=-1)
    with pytest.raises(ValueError, match="rho"):
        mf.optim.Adadelta([w], rho=2)
    group = mf.optim.RAdam([w]).param_groups[0]
    assert {k: group[k] for k in ("lr", "betas", "eps", "weight_decay", "decoupled_weight_decay")} == dict(
        lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False)
    assert mf.optim.LBFGS([w]).param_groups[0]["max_eval"] == 25
    with pytest.raises(ValueError, match="parameter groups"):
        mf.optim.LBFGS([{"params": [w]}, {"params": [mf.tensor([1.0], requires_grad=True)]}])


# L-BFGS: on the quadratic 1/2 w^T A w - b^T w, a NumPy version of torch's iteration with a
# fixed step, and the exact minimizer A^-1 b reached with the strong Wolfe search.
A = np.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]])
BV = np.array([1.0, -2.0, 0.5])


def lbfgs_reference(w, lr, max_iter, history):
    grad = A @ w - BV
    dirs, stps, ro, h_diag, d, t, prev_g = [], [], [], 1.0, None, None, None
    for n_iter in range(1, max_iter + 1):
        if n_iter == 1:
            d = -grad
        else:
            y, s = grad - prev_g, d * t
            ys = y @ s
            if ys > 1e-10:
                if len(dirs) == history:
                    dirs.pop(0), stps.pop(0), ro.pop(0)
                dirs.append(y), stps.append(s), ro.append(1 / ys)
                h_diag = ys / (y @ y)
            q, al = -grad, [0.0] * len(dirs)
            for i in reversed(range(len(dirs))):
                al[i] = stps[i] @ q * ro[i]
                q = q - al[i] * dirs[i]
            d = q * h_diag
            for i in range(len(dirs)):
                d = d + stps[i] * (al[i] - dirs[i] @ d * ro[i])
        prev_g = grad
        t = min(1.0, 1.0 / np.abs(grad).sum()) * lr if n_iter == 1 else lr
        w = w + t * d
        grad = A @ w - BV
    return w


def lbfgs_run(**kw):
    w = mf.tensor(np.zeros(3), requires_grad=True)
    a, b = mf.tensor(A), mf.tensor(BV)
    opt = mf.optim.LBFGS([w], **kw)
    calls = []

    def closure():
        opt.zero_grad()
        loss = 0.5 * (w * (a @ w)).sum() - (b * w).sum()
        loss.backward()
        calls.append(1)
        return loss
    loss = opt.step(closure)
    return w.detach().numpy(), opt, loss, len(calls)


def test_lbfgs_follows_torchs_iteration_and_reaches_the_minimum():
    got, opt, loss, calls = lbfgs_run(lr=0.5, max_iter=4, history_size=2)
    np.testing.assert_allclose(got, lbfgs_reference(np.zeros(3), 0.5, 4, 2), rtol=1e-12, atol=1e-14)
    assert float(loss.item()) == 0.0 and calls == 4  # the loss before the first iteration
    state = opt.state_dict()["state"][0]
    assert state["n_iter"] == 4 and state["func_evals"] == 4 and len(state["old_dirs"]) == 2
    got, opt, _, _ = lbfgs_run(lr=1, line_search_fn="strong_wolfe")
    np.testing.assert_allclose(got, np.linalg.solve(A, BV), atol=1e-4)  # stopped by tolerance_change
    assert opt.state_dict()["state"][0]["func_evals"] <= 25
