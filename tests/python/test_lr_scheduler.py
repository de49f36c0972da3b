"""mf.optim.lr_scheduler against torch.optim.lr_scheduler's values, written out here (closed
forms, or sequences torch 2.x gives): every scheduler, the momentum / beta1 that CyclicLR and
OneCycleLR cycle and that the optimizers' next step uses (eager and in a Graph), step(epoch),
resuming from state_dict() or last_epoch, and torch's errors and warnings."""
import math
import warnings

import numpy as np
import pytest

import meshflow as mf
from meshflow import nn
from meshflow.nn import functional as F
from meshflow.optim import lr_scheduler as sched
from graph_step import CrossEntropyStep

RTOL = 1e-12


def sgd(lr=1.0, groups=1, **kw):
    return mf.optim.SGD([{"params": [mf.tensor([1.0], requires_grad=True)]} for _ in range(groups)], lr=lr, **kw)


def sequence(optimizer, scheduler, steps, key="lr", group=0):
    """group[key] before each of `steps` optimizer steps, each followed by scheduler.step()."""
    out = []
    for _ in range(steps):
        value = optimizer.param_groups[group][key]
        out.append(value[0] if key == "betas" else value)
        optimizer.step()
        scheduler.step()
    return out


def cos_anneal(start, end, pct):
    return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)


def test_lambda_and_multiplicative():
    o = sgd(0.1, groups=2)
    s = sched.LambdaLR(o, [lambda e: 1.0 / (e + 1), lambda e: 0.5 ** e])
    np.testing.assert_allclose(sequence(o, s, 3), [0.1, 0.05, 0.1 / 3], rtol=RTOL)
    assert s.get_last_lr() == pytest.approx([0.025, 0.0125], rel=RTOL)
    o = sgd()
    # The factor multiplies the current rate, from the first step on (epoch 0 keeps the rate).
    s = sched.MultiplicativeLR(o, lambda e: 0.5 if e % 2 else 0.25)
    assert sequence(o, s, 5) == [1.0, 0.5, 0.125, 0.0625, 0.015625]
    with pytest.raises(TypeError, match="lr_lambda should be a function"):
        sched.MultiplicativeLR(sgd(), 0.5)
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        sched.LambdaLR(sgd(groups=2), [lambda e: 1.0])


def test_step_multistep_constant_exponential_polynomial():
    o = sgd()
    assert sequence(o, sched.StepLR(o, step_size=2, gamma=0.5), 5) == [1.0, 1.0, 0.5, 0.5, 0.25]
    o = sgd()
    # A milestone listed twice multiplies by gamma twice.
    assert sequence(o, sched.MultiStepLR(o, [2, 4, 4], gamma=0.5), 6) == [1.0, 1.0, 0.5, 0.5, 0.125, 0.125]
    o = sgd()
    assert sequence(o, sched.ConstantLR(o, factor=0.5, total_iters=3), 5) == [0.5, 0.5, 0.5, 1.0, 1.0]
    o = sgd()
    np.testing.assert_allclose(sequence(o, sched.ExponentialLR(o, 0.9), 4), [1.0, 0.9, 0.81, 0.729], rtol=RTOL)
    o = sgd()
    assert sequence(o, sched.PolynomialLR(o, total_iters=4, power=2.0), 6) == [1.0, 0.5625, 0.25, 0.0625, 0.0, 0.0]
    with pytest.raises(ValueError, match="between 0 and 1"):
        sched.ConstantLR(sgd(), factor=1.5)


def test_linear():
    o = sgd(0.3)
    np.testing.assert_allclose(sequence(o, sched.LinearLR(o, start_factor=0.5, total_iters=2), 4),
                               [0.15, 0.225, 0.3, 0.3], rtol=RTOL)
    o = sgd()
    expected = [0.1 + 0.8 * min(e, 8) / 8 for e in range(12)]
    np.testing.assert_allclose(sequence(o, sched.LinearLR(o, 0.1, 0.9, total_iters=8), 12), expected, rtol=RTOL)
    with pytest.raises(ValueError, match="Starting multiplicative factor"):
        sched.LinearLR(sgd(), start_factor=0)


def test_cosine_annealing_is_torchs_recursive_form():
    o = sgd()
    s = sched.CosineAnnealingLR(o, T_max=4, eta_min=0.1)
    closed = [0.1 + 0.9 * (1 + math.cos(math.pi * e / 4)) / 2 for e in range(14)]
    # Past T_max the rate rises again, with period 2 T_max.
    np.testing.assert_allclose(sequence(o, s, 14), closed, rtol=RTOL)
    # A rate set by hand is annealed onwards by the ratio of successive cosines.
    o = sgd()
    s = sched.CosineAnnealingLR(o, T_max=4)
    sequence(o, s, 2)
    o.param_groups[0]["lr"] = 0.5
    o.step()
    s.step()
    assert o.param_groups[0]["lr"] == pytest.approx(
        0.5 * (1 + math.cos(3 * math.pi / 4)) / (1 + math.cos(2 * math.pi / 4)), rel=RTOL)
    # step(epoch) takes the closed form.
    with pytest.warns(UserWarning, match="epoch parameter"):
        s.step(6)
    assert s.get_last_lr() == pytest.approx([(1 + math.cos(6 * math.pi / 4)) / 2], rel=RTOL)


def test_chained_and_sequential():
    o = sgd()
    s = sched.ChainedScheduler([sched.ExponentialLR(o, 0.9), sched.StepLR(o, 2, 0.5)])
    np.testing.assert_allclose(sequence(o, s, 6), [1.0, 0.9, 0.405, 0.3645, 0.164025, 0.1476225], rtol=RTOL)
    assert s.get_last_lr() == pytest.approx([0.9 ** 6 / 8], rel=RTOL)
    o = sgd()
    s = sched.SequentialLR(o, [sched.ConstantLR(o, factor=0.1, total_iters=2), sched.ExponentialLR(o, gamma=0.9)],
                           milestones=[2])
    np.testing.assert_allclose(sequence(o, s, 6), [0.1, 0.1, 1.0, 0.9, 0.81, 0.729], rtol=RTOL)
    o = sgd()
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau`"):
        sched.ChainedScheduler([sched.ReduceLROnPlateau(o)])
    with pytest.raises(ValueError, match="one more than the number of milestone points"):
        sched.SequentialLR(o, [sched.StepLR(o, 2)], milestones=[3])
    with pytest.raises(ValueError, match="belong to the same optimizer"):
        sched.SequentialLR(o, [sched.StepLR(o, 2), sched.StepLR(sgd(), 2)], milestones=[3])


def test_reduce_on_plateau():
    o = sgd(groups=2)
    s = sched.ReduceLROnPlateau(o, patience=1, cooldown=1, factor=0.5, min_lr=[0.2, 0.3])
    rates = []
    for metric in [5, 4, 4, 4, 4, 4, 4, 3.9999, 4, 4, 4, 4]:
        s.step(metric)
        rates.append(s.get_last_lr())
    # 3.9999 is no improvement on 4 within the relative threshold 1e-4.
    assert [r[0] for r in rates] == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.2, 0.2, 0.2]
    assert [r[1] for r in rates] == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]
    o = sgd()
    s = sched.ReduceLROnPlateau(o, mode="max", threshold=0.5, threshold_mode="abs", patience=0)
    rates = []
    for metric in [1, 1.4, 1.6, 1.7, 2.2]:
        s.step(metric)
        rates.append(o.param_groups[0]["lr"])
    np.testing.assert_allclose(rates, [1.0, 0.1, 0.1, 0.01, 0.01], rtol=RTOL)
    # A reduction smaller than eps is skipped.
    o = sgd(1e-8)
    s = sched.ReduceLROnPlateau(o, patience=0)
    s.step(1.0)
    s.step(1.0)
    assert o.param_groups[0]["lr"] == 1e-8
    with pytest.raises(ValueError, match="Factor should be < 1.0"):
        sched.ReduceLROnPlateau(sgd(), factor=1.0)
    with pytest.raises(ValueError, match="threshold mode foo is unknown"):
        sched.ReduceLROnPlateau(sgd(), threshold_mode="foo")


def triangle(it, up, down):
    """0 at a cycle's start, 1 after `up` iterations, 0 again after `down` more."""
    x = it % (up + down)
    return x / up if x <= up else 1 - (x - up) / down


def test_cyclic_rates_and_momentum():
    o = sgd(momentum=0.5)
    s = sched.CyclicLR(o, base_lr=0.1, max_lr=0.5, step_size_up=2, step_size_down=3)
    assert o.param_groups[0]["max_momentum"] == 0.9 and o.param_groups[0]["base_momentum"] == 0.8
    np.testing.assert_allclose(sequence(o, s, 11), [0.1 + 0.4 * triangle(i, 2, 3) for i in range(11)], rtol=RTOL)
    o = sgd(momentum=0.5)
    s = sched.CyclicLR(o, base_lr=0.1, max_lr=0.5, step_size_up=2, step_size_down=3)
    np.testing.assert_allclose(sequence(o, s, 11, "momentum"), [0.9 - 0.1 * triangle(i, 2, 3) for i in range(11)],
                               rtol=RTOL)
    # triangular2 halves the amplitude each cycle; exp_range scales it by gamma ** iteration.
    o = sgd(momentum=0.5)
    s = sched.CyclicLR(o, 0.1, 0.5, step_size_up=2, mode="triangular2")
    np.testing.assert_allclose(sequence(o, s, 13), [0.1 + 0.4 * triangle(i, 2, 2) / 2 ** (i // 4) for i in range(13)],
                               rtol=RTOL)
    o = sgd(momentum=0.5)
    s = sched.CyclicLR(o, 0.1, 0.5, step_size_up=2, mode="exp_range", gamma=0.5)
    np.testing.assert_allclose(sequence(o, s, 6), [0.1 + 0.4 * triangle(i, 2, 2) * 0.5 ** i for i in range(6)],
                               rtol=RTOL)
    o = sgd(momentum=0.5)
    s = sched.CyclicLR(o, 0.1, 0.5, step_size_up=2, scale_fn=lambda x: 1 / (1 + x), scale_mode="iterations",
                       cycle_momentum=False)
    np.testing.assert_allclose(sequence(o, s, 6), [0.1 + 0.4 * triangle(i, 2, 2) / (1 + i) for i in range(6)],
                               rtol=RTOL)
    assert o.param_groups[0]["momentum"] == 0.5
    # Adam's beta1 cycles; beta2 stays.
    o = mf.optim.Adam([mf.tensor([1.0], requires_grad=True)], betas=(0.5, 0.99))
    s = sched.CyclicLR(o, 0.1, 0.5, step_size_up=2, base_momentum=0.7, max_momentum=0.95)
    np.testing.assert_allclose(sequence(o, s, 5, "betas"), [0.95 - 0.25 * triangle(i, 2, 2) for i in range(5)],
                               rtol=RTOL)
    assert o.param_groups[0]["betas"][1] == 0.99
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        sched.CyclicLR(mf.optim.Adagrad([mf.tensor([1.0], requires_grad=True)]), 0.1, 0.5)
    with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
        sched.CyclicLR(sgd(), 0.1, 0.5, mode="sawtooth")


def one_cycle(step, total=10, top=1.0, pct=0.3, div=25.0, final_div=1e4, low_m=0.85, high_m=0.95):
    """torch's two-phase cosine 1cycle at `step`: (lr, momentum)."""
    up = float(pct * total) - 1
    if step <= up:
        pct_done, lr_ends, m_ends = step / up, (top / div, top), (high_m, low_m)
    else:
        pct_done, lr_ends, m_ends = (step - up) / (total - 1 - up), (top, top / div / final_div), (low_m, high_m)
    return cos_anneal(*lr_ends, pct_done), cos_anneal(*m_ends, pct_done)


def test_one_cycle_rates_and_momentum():
    o = sgd(momentum=0.9)
    s = sched.OneCycleLR(o, max_lr=1.0, total_steps=10)
    np.testing.assert_allclose(sequence(o, s, 10), [one_cycle(i)[0] for i in range(10)], rtol=RTOL)
    o = sgd(momentum=0.9)
    s = sched.OneCycleLR(o, max_lr=1.0, total_steps=10)
    np.testing.assert_allclose(sequence(o, s, 10, "momentum"), [one_cycle(i)[1] for i in range(10)], rtol=RTOL)
    assert {k: o.param_groups[0][k] for k in ("initial_lr", "max_lr", "min_lr", "max_momentum", "base_momentum")} == \
        pytest.approx({"initial_lr": 0.04, "max_lr": 1.0, "min_lr": 4e-6, "max_momentum": 0.95, "base_momentum": 0.85})
    o = sgd(momentum=0.9)
    s = sched.OneCycleLR(o, max_lr=1.0, total_steps=10)
    o.step()
    with pytest.raises(ValueError, match="Tried to step 11 times"):
        for _ in range(11):
            s.step()
    # Three linear phases: up, back down to the initial rate, then to the minimum; momentum
    # mirrors the first two and stays at its maximum in the third.
    o = sgd(momentum=0.9)
    s = sched.OneCycleLR(o, max_lr=1.0, total_steps=10, three_phase=True, anneal_strategy="linear")
    np.testing.assert_allclose(sequence(o, s, 9), [0.04, 0.52, 1.0, 0.52, 0.04] +
                               [0.04 + (4e-6 - 0.04) * (i - 4) / 5 for i in range(5, 9)], rtol=RTOL)
    assert o.param_groups[0]["lr"] == pytest.approx(4e-6, rel=1e-9)
    assert o.param_groups[0]["momentum"] == 0.95
    # The loop's last scheduler.step() anneals linearly one step past the end, to a negative
    # rate: torch sets it (checking rates only when the optimizer is made), and so does meshflow.
    o.step()
    s.step()
    assert o.param_groups[0]["lr"] == pytest.approx(0.04 + (4e-6 - 0.04) * 6 / 5, rel=1e-9)
    o = mf.optim.AdamW([mf.tensor([1.0], requires_grad=True)], betas=(0.9, 0.98))
    s = sched.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=5, cycle_momentum=True)
    np.testing.assert_allclose(sequence(o, s, 10, "betas"), [one_cycle(i)[1] for i in range(10)], rtol=RTOL)
    assert o.param_groups[0]["betas"][1] == 0.98
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        sched.OneCycleLR(sgd(), max_lr=1.0)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start"):
        sched.OneCycleLR(sgd(), max_lr=1.0, total_steps=10, pct_start=0)
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        sched.OneCycleLR(mf.optim.Adagrad([mf.tensor([1.0], requires_grad=True)]), max_lr=1.0, total_steps=10)


def test_cosine_warm_restarts_with_fractional_epochs():
    o = sgd()
    s = sched.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2)
    # Periods 2, 4, 8 from epochs 0, 2, 6.
    restarts = [(0, 2), (0, 2), (2, 4), (2, 4), (2, 4), (2, 4), (6, 8), (6, 8)]
    np.testing.assert_allclose(sequence(o, s, 8), [(1 + math.cos(math.pi * (e - start) / period)) / 2
                                                   for e, (start, period) in enumerate(restarts)], rtol=RTOL)
    o = sgd()
    s = sched.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch, t_cur, t_i in [(0.5, 0.5, 2), (2.5, 0.5, 4), (7.5, 1.5, 8), (1.5, 1.5, 2)]:
            s.step(epoch)
            assert (s.T_cur, s.T_i, s.last_epoch) == (t_cur, t_i, math.floor(epoch))
            assert s.get_last_lr() == pytest.approx([0.1 + 0.9 * (1 + math.cos(math.pi * t_cur / t_i)) / 2],
                                                    rel=RTOL)
    with pytest.raises(ValueError, match="Expected positive integer T_0"):
        sched.CosineAnnealingWarmRestarts(sgd(), T_0=0)


def sgd_momentum_reference(values, grads, rates, momenta):
    """torch.optim.SGD's update with a momentum that changes each step."""
    p, buf = np.array(values), None
    for g, lr, m in zip(grads, rates, momenta):
        buf = g.copy() if buf is None else m * buf + g
        p = p - lr * buf
    return p


def adam_reference(values, grads, rates, beta1s, beta2, eps=1e-8):
    """torch.optim.Adam's update with a beta1 that changes each step (bias correction by the
    current beta1, as torch's)."""
    p, m, v = np.array(values), 0.0, 0.0
    for t, (g, lr, b1) in enumerate(zip(grads, rates, beta1s), start=1):
        m = b1 * m + (1 - b1) * g
        v = beta2 * v + (1 - beta2) * g * g
        p = p - lr / (1 - b1 ** t) * m / (np.sqrt(v) / math.sqrt(1 - beta2 ** t) + eps)
    return p


def test_cycled_momentum_is_what_the_optimizer_steps_with():
    rng = np.random.default_rng(0)
    values = rng.standard_normal(5)
    grads = [rng.standard_normal(5) for _ in range(10)]

    def run(optimizer, scheduler, p):
        for g in grads:
            p.grad = mf.tensor(g)
            optimizer.step()
            scheduler.step()
        return p.numpy()

    p = mf.tensor(values, requires_grad=True)
    o = mf.optim.SGD([p], lr=0.1, momentum=0.0)
    got = run(o, sched.OneCycleLR(o, max_lr=1.0, total_steps=10), p)
    cycle = [one_cycle(i) for i in range(10)]
    np.testing.assert_allclose(got, sgd_momentum_reference(values, grads, *zip(*cycle)), rtol=RTOL)
    p = mf.tensor(values, requires_grad=True)
    o = mf.optim.Adam([p], lr=0.1, betas=(0.5, 0.99))
    got = run(o, sched.CyclicLR(o, 0.01, 0.1, step_size_up=3, base_momentum=0.6, max_momentum=0.9), p)
    rates = [0.01 + 0.09 * triangle(i, 3, 3) for i in range(10)]
    beta1s = [0.9 - 0.3 * triangle(i, 3, 3) for i in range(10)]
    np.testing.assert_allclose(got, adam_reference(values, grads, rates, beta1s, 0.99), rtol=1e-10)


def test_cycled_betas_reach_a_graphs_steps():
    """A Graph's optimizer step reads the groups at every run: OneCycleLR's rates and beta1
    give the eager result."""
    placement = mf.placement("cpu", ranks=[0])

    def setup():
        mf.manual_seed(0)
        model = nn.Linear(4, 3)
        model.to_global(placement, mf.sbp.broadcast)
        optimizer = mf.optim.Adam(model.parameters(), lr=0.05)
        return model, optimizer

    rng = np.random.default_rng(0)
    x = mf.tensor(rng.standard_normal((5, 4)).astype(np.float32), placement=placement, sbp=mf.sbp.broadcast)
    y = mf.tensor(rng.integers(0, 3, 5), placement=placement, sbp=mf.sbp.broadcast)
    eager_model, eager_opt = setup()
    graph_model, graph_opt = setup()
    step = CrossEntropyStep(graph_model, graph_opt)
    step(x, y)  # compiled before the scheduler exists: later calls run without optimizer.step()
    loss = F.cross_entropy(eager_model(x), y)
    loss.backward()
    eager_opt.step()
    eager_opt.zero_grad()
    schedulers = [sched.OneCycleLR(opt, max_lr=0.5, total_steps=6) for opt in (eager_opt, graph_opt)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning that the scheduler stepped first
        for _ in range(5):
            loss = F.cross_entropy(eager_model(x), y)
            loss.backward()
            eager_opt.step()
            eager_opt.zero_grad()
            step(x, y)
            for s in schedulers:
                s.step()
    assert graph_opt.param_groups[0]["betas"][0] != 0.9
    for a, b in zip(eager_model.parameters(), graph_model.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


MAKERS = {
    "StepLR": lambda o: sched.StepLR(o, 3, 0.5),
    "MultiStepLR": lambda o: sched.MultiStepLR(o, [2, 5, 5], 0.5),
    "CosineAnnealingLR": lambda o: sched.CosineAnnealingLR(o, 4, 0.01),
    "CyclicLR": lambda o: sched.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="triangular2"),
    "OneCycleLR": lambda o: sched.OneCycleLR(o, [0.1, 0.3], total_steps=14, three_phase=True),
    "CosineAnnealingWarmRestarts": lambda o: sched.CosineAnnealingWarmRestarts(o, 2, 2),
    "SequentialLR": lambda o: sched.SequentialLR(o, [sched.LinearLR(o, 0.2, total_iters=4),
                                                     sched.ExponentialLR(o, 0.8)], milestones=[4]),
    "ChainedScheduler": lambda o: sched.ChainedScheduler([sched.ConstantLR(o, 0.5, 3), sched.ExponentialLR(o, 0.9)]),
}


def adam_groups(values):
    params = [mf.tensor(v, requires_grad=True) for v in values]
    return params, mf.optim.Adam([{"params": params[:1]}, {"params": params[1:], "lr": 0.3}], lr=0.1)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_state_dict_resumes_the_same_sequence(name):
    make = MAKERS[name]
    values = [np.arange(3.0), np.ones(2)]

    def steps(params, optimizer, scheduler, n):
        out = []
        for i in range(n):
            for p in params:
                p.grad = mf.tensor(np.full(tuple(p.shape), 0.1 * i + 0.05))
            optimizer.step()
            scheduler.step()
            out.append([(g["lr"], g["betas"]) for g in optimizer.param_groups])
        return out

    params, optimizer = adam_groups(values)
    scheduler = make(optimizer)
    whole = steps(params, optimizer, scheduler, 13)
    params, optimizer = adam_groups(values)
    scheduler = make(optimizer)
    first = steps(params, optimizer, scheduler, 6)
    opt_state, sched_state = optimizer.state_dict(), scheduler.state_dict()
    # torch's order: both made, then both loaded (the optimizer's groups hold the rates).
    params, optimizer = adam_groups([p.numpy() for p in params])
    scheduler = make(optimizer)
    optimizer.load_state_dict(opt_state)
    scheduler.load_state_dict(sched_state)
    assert first + steps(params, optimizer, scheduler, 7) == whole


def test_last_epoch_resumes_from_the_groups():
    o = sgd(momentum=0.9, groups=2)
    s = sched.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=10)
    whole = sequence(o, s, 10)
    o = sgd(momentum=0.9, groups=2)
    s = sched.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=10)
    sequence(o, s, 4)
    saved = o.state_dict()
    o = sgd(momentum=0.9, groups=2)
    o.load_state_dict(saved)
    # initial_lr, max_lr and min_lr come from the groups; the rate is that of step 4.
    s = sched.OneCycleLR(o, max_lr=[5.0, 5.0], total_steps=10, last_epoch=3)
    assert sequence(o, s, 6) == whole[4:]
    with pytest.raises(KeyError, match=r"param 'initial_lr' is not specified in param_groups\[0\]"):
        sched.StepLR(sgd(), 2, last_epoch=3)
    # A group's initial_lr (not its current rate) is the base on a fresh start too.
    o = sgd(0.5)
    o.param_groups[0]["initial_lr"] = 2.0
    s = sched.StepLR(o, 1, 0.5)
    o.step()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s.step(1)
    assert s.get_last_lr() == [1.0]


def test_subclasses_of_torchs_base_classes():
    class Halving(sched._LRScheduler):
        def get_lr(self):
            return [base / 2 ** self.last_epoch for base in self.base_lrs]

    o = sgd()
    assert sequence(o, Halving(o), 3) == [1.0, 0.5, 0.25]
    assert issubclass(sched._LRScheduler, sched.LRScheduler)
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        sched.StepLR([], 2)


def test_warns_when_the_scheduler_steps_first():
    o = sgd()
    s = sched.StepLR(o, 2)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        s.step()
    o = mf.optim.RMSprop([mf.tensor([1.0], requires_grad=True)])
    s = sched.ExponentialLR(o, 0.5)
    o.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        s.get_lr()
