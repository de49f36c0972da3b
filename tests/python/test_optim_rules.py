"""Adamax, NAdam, RAdam, Adadelta, ASGD and Rprop as fused C++ optimizers (RuleOptimizer,
meshflow/nn/optim.h): their trajectories against torch 2's over eight steps (torch's run in a
process of its own, when /root/tv has it), with their options, two parameter groups and an lr schedule; their state_dict
in torch's format (keys, step, the scalars torch keeps) and torch's loading into them; a
state_dict round trip; nn.Graph steps them as eager code does, the schedule's lr read at
every run, not traced as a constant. (test_inplace_updates: a group in one call;
test_optim_groups: GPU == CPU; test_graph_state: a graph after eager steps;
distributed/test_dist_zero: ZeRO stages on 2 ranks == one device.)"""
import glob
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn


# name -> (optimizer, options): every option torch has, each set somewhere.
CASES = {
    "adamax": ("Adamax", dict(lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    "adamax-maximize": ("Adamax", dict(lr=0.05, maximize=True, foreach=False)),
    "nadam": ("NAdam", dict(lr=0.05, betas=(0.85, 0.99), weight_decay=0.1)),
    "nadam-decoupled": ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, momentum_decay=0.01,
                                      maximize=True)),
    "radam": ("RAdam", dict(lr=0.05, weight_decay=0.1)),  # rho_t passes 5 at step 6
    "radam-decoupled": ("RAdam", dict(lr=0.05, betas=(0.9, 0.9), eps=1e-6, weight_decay=0.1,
                                      decoupled_weight_decay=True)),
    "adadelta": ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1)),
    "adadelta-maximize": ("Adadelta", dict(maximize=True, differentiable=False)),
    "asgd": ("ASGD", dict(lr=0.05, lambd=0.1, alpha=0.6, t0=2, weight_decay=0.1)),  # averages from step 3
    "asgd-maximize": ("ASGD", dict(lr=0.05, maximize=True)),
    "rprop": ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2))),
    "rprop-maximize": ("Rprop", dict(lr=0.05, maximize=True, capturable=False)),
}
STEPS = 8
W0 = np.array([[1.0, -2.0, 0.5], [0.5, 3.0, -1.0]], np.float32)
V0 = np.array([0.3, -0.7, 1.5, -0.1], np.float32)
SCALE = np.array([1.0, 2.0, 0.5], np.float32)


def trajectory(lib, name, kw, steps=STEPS, load=None, start=(W0, V0), schedule=True):
    """Parameter values after each step of `lib` (meshflow or torch): w in group 0, v in group 1
    (its own lr), from `start`, StepLR halving both every 2 steps (with `schedule`); the
    loss's gradients change sign, so Rprop both grows and shrinks its steps. `load`: a
    state_dict loaded before stepping."""
    w = lib.tensor(start[0].copy(), requires_grad=True)
    v = lib.tensor(start[1].copy(), requires_grad=True)
    opt = getattr(lib.optim, name)([{"params": [w]}, {"params": [v], "lr": kw.get("lr", 0.01) / 2}], **kw)
    if load is not None:
        opt.load_state_dict(load)
    sched = lib.optim.lr_scheduler.StepLR(opt, 2, 0.5) if schedule else None
    scale = lib.tensor(SCALE)
    values = []
    for _ in range(steps):
        opt.zero_grad()
        loss = (w ** 4 * scale).sum() + w.sum() + (v ** 3).sum() - (v * v).sum()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        values.append((w.detach().numpy().copy(), v.detach().numpy().copy()))
    return values, opt


def state_values(state_dict):
    return {int(i): {k: np.asarray(t.detach().numpy() if hasattr(t, "detach") else t) for k, t in s.items()}
            for i, s in state_dict["state"].items()}


TORCH_SITE = sorted(glob.glob("/root/tv/lib/python3*/site-packages"))


@pytest.fixture(scope="module")
def torch_runs():
    """What torch gives for every case, run in a process of its own (torch and meshflow do not
    load into one process: their NCCL libraries differ) with the same trajectory(): each
    step's values, the state_dict after STEPS steps, and the one after 3 steps with the 3 steps
    after it loads."""
    if not TORCH_SITE:
        pytest.skip("torch is not installed (/root/tv)")
    script = "\n".join([
        "import json, sys", "import numpy as np", "import torch",
        f"W0, V0, SCALE = np.array({W0.tolist()}, np.float32), np.array({V0.tolist()}, np.float32), "
        f"np.array({SCALE.tolist()}, np.float32)",
        f"STEPS = {STEPS}", inspect.getsource(trajectory),
        "def state(sd):",
        "    return {'state': {i: {k: [t.numpy().tolist(), str(t.dtype)[6:]] for k, t in s.items()}",
        "                      for i, s in sd['state'].items()}, 'param_groups': sd['param_groups']}",
        "out = {}",
        "for case, (name, kw) in json.loads(sys.stdin.read()).items():",
        "    values, opt = trajectory(torch, name, kw)",
        "    _, first = trajectory(torch, name, kw, steps=3, schedule=False)",
        "    saved = state(first.state_dict())  # before the next run steps its tensors, which torch's load shares",
        "    resumed, _ = trajectory(torch, name, kw, steps=3, load=first.state_dict(), schedule=False)",
        "    out[case] = dict(values=[[w.tolist(), v.tolist()] for w, v in values], state=state(opt.state_dict()),",
        "                     saved=saved, resumed=[[w.tolist(), v.tolist()] for w, v in resumed])",
        "print(json.dumps(out))"])
    env = dict(os.environ, PYTHONPATH=TORCH_SITE[-1])
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(CASES), capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def plain(value):
    return list(value) if isinstance(value, tuple) else value


@pytest.mark.parametrize("case", sorted(CASES))
def test_trajectory_and_state_dict_follow_torch(case, torch_runs):
    name, kw = CASES[case]
    got, opt = trajectory(mf, name, kw)
    theirs = torch_runs[case]
    for step, ((w, v), (tw, tv)) in enumerate(zip(got, theirs["values"]), 1):
        np.testing.assert_allclose(w, tw, rtol=2e-5, atol=1e-6, err_msg=f"w after step {step}")
        np.testing.assert_allclose(v, tv, rtol=2e-5, atol=1e-6, err_msg=f"v after step {step}")
    mine = opt.state_dict()
    for g, tg in zip(mine["param_groups"], theirs["state"]["param_groups"]):
        assert {k: plain(v) for k, v in g.items()} == tg
    state = state_values(mine)
    assert {i: sorted(s) for i, s in state.items()} == {int(i): sorted(s) for i, s in theirs["state"]["state"].items()}
    for i, s in state.items():
        for key, value in s.items():
            expected, dtype = theirs["state"]["state"][str(i)][key]
            assert value.dtype == np.dtype(dtype), key
            np.testing.assert_allclose(value, expected, rtol=2e-5, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("case", sorted(CASES)[::2])
def test_torchs_state_dict_loads_and_steps_on_as_torch(case, torch_runs):
    name, kw = CASES[case]
    saved = torch_runs[case]["saved"]
    converted = {"state": {int(i): {k: mf.tensor(np.array(v, dtype=dtype)) for k, (v, dtype) in s.items()}
                           for i, s in saved["state"].items()},
                 "param_groups": saved["param_groups"]}
    got, _ = trajectory(mf, name, kw, steps=3, load=converted, schedule=False)
    for (w, v), (tw, tv) in zip(got, torch_runs[case]["resumed"]):
        np.testing.assert_allclose(w, tw, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(v, tv, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("case", sorted(CASES))
def test_state_dict_round_trip_resumes_bitwise(case):
    name, kw = CASES[case]
    straight, _ = trajectory(mf, name, kw, steps=6, schedule=False)
    first, opt = trajectory(mf, name, kw, steps=3, schedule=False)
    saved = opt.state_dict()
    assert float(saved["state"][0]["step"].item()) == 3
    resumed, _ = trajectory(mf, name, kw, steps=3, load=saved, start=first[-1], schedule=False)
    for (w, v), (ew, ev) in zip(resumed, straight[3:]):
        np.testing.assert_array_equal(w, ew)
        np.testing.assert_array_equal(v, ev)


def placement():
    return mf.placement("cpu", ranks=[0])


def model_and_optimizer(case):
    name, kw = CASES[case]
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
    model.to_global(placement(), mf.sbp.broadcast)
    params = list(model.parameters())
    opt = getattr(mf.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": kw.get("lr", 0.01) / 2}],
                                  **kw)
    return model, opt, mf.optim.lr_scheduler.StepLR(opt, 2, 0.5)


class ScheduledStep(nn.Graph):
    def __init__(self, model, optimizer, scheduler):
        super().__init__()
        self.model = model
        self.add_optimizer(optimizer, lr_sch=scheduler)

    def build(self, x, y):
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


def batches(steps=6):
    rng = np.random.default_rng(0)
    return [(mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=placement(), sbp=mf.sbp.broadcast),
             mf.tensor(rng.integers(0, 3, 6), placement=placement(), sbp=mf.sbp.broadcast)) for _ in range(steps)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_graph_steps_as_eager_with_the_schedule_read_at_every_run(case):
    data = batches()
    model, opt, sched = model_and_optimizer(case)
    eager = []
    for x, y in data:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
        eager.append(loss.item())
    eager_state = {k: v.numpy() for k, v in model.state_dict().items()}
    eager_opt = state_values(opt.state_dict())
    gmodel, gopt, gsched = model_and_optimizer(case)
    step = ScheduledStep(gmodel, gopt, gsched)
    losses = [step(x, y).item() for x, y in data]
    assert losses == eager
    for k, v in gmodel.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), eager_state[k], err_msg=k)
    for i, s in state_values(gopt.state_dict()).items():
        for key, value in s.items():
            np.testing.assert_array_equal(value, eager_opt[i][key], err_msg=key)
    assert gopt.param_groups[0]["lr"] == opt.param_groups[0]["lr"] < opt.defaults["lr"]


def test_bad_options_raise_as_torch():
    w = mf.tensor(W0, requires_grad=True)
    with pytest.raises(ValueError, match="eta values"):
        mf.optim.Rprop([w], etas=(1.5, 1.2))
    with pytest.raises(ValueError, match="momentum_decay"):
        mf.optim.NAdam([w], momentum_decay=-1)
    with pytest.raises(ValueError, match="weight_decay"):
        mf.optim.ASGD([w], weight_decay=-1)
    with pytest.raises(NotImplementedError, match="differentiable"):
        mf.optim.RAdam([w], differentiable=True)
    opt = mf.optim.Adadelta([w])
    with pytest.raises(ValueError, match="rho"):
        opt.param_groups[0]["rho"] = 1.5
