"""torch.optim's API in meshflow: parameter groups (their own lr / betas / momentum ...,
defaults filled in), editable param_groups, add_param_group, state_dict / load_state_dict in
torch's structure, Adam next to AdamW and SGD, schedulers per group, zero_grad's
set_to_none default. Values follow NumPy implementations of torch's update formulas over
several steps. Global parameters: distributed/test_dist_optim_groups.py."""
import copy
import gc
import weakref

import numpy as np
import pytest

import meshflow as mf
from gpu_check import needs_gpu
from graph_step import CrossEntropyStep

STEPS = 4


# ---------------------------------------------------------------------------------------------
# NumPy references: torch.optim's single-tensor formulas.

class SgdReference:
    def __init__(self, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False):
        self.h, self.buf = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                nesterov=nesterov), None
        self.maximize = maximize

    def step(self, p, g):
        h = self.h
        g = -g if self.maximize else g
        d = g + h["weight_decay"] * p if h["weight_decay"] else g
        if h["momentum"]:
            self.buf = d.copy() if self.buf is None else h["momentum"] * self.buf + (1 - h["dampening"]) * d
            d = d + h["momentum"] * self.buf if h["nesterov"] else self.buf
        return p - h["lr"] * d


class AdamReference:
    def __init__(self, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, decoupled=False, amsgrad=False,
                 maximize=False):
        self.h = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        self.decoupled, self.m, self.v, self.t = decoupled, 0.0, 0.0, 0
        self.amsgrad, self.maximize, self.v_max = amsgrad, maximize, 0.0

    def step(self, p, g):
        h = self.h
        (b1, b2), lr, wd = h["betas"], h["lr"], h["weight_decay"]
        self.t += 1
        g = -g if self.maximize else g
        if self.decoupled:
            p = p * (1 - lr * wd)
        elif wd:
            g = g + wd * p
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        self.v_max = np.maximum(self.v_max, self.v)
        denom = np.sqrt(self.v_max if self.amsgrad else self.v) / np.sqrt(1 - b2 ** self.t) + h["eps"]
        return p - lr / (1 - b1 ** self.t) * self.m / denom


def gradient(i, k, shape):
    return np.random.default_rng(100 * i + k).standard_normal(shape)


def run(optimizer, params, steps=STEPS, before_step=None):
    """Gives parameter k the gradient gradient(step, k) and steps; returns the values."""
    for i in range(steps):
        if before_step:
            before_step(i)
        for k, p in enumerate(params):
            p.grad = mf.tensor(gradient(i, k, tuple(p.shape)))
        optimizer.step()
    return [p.numpy() for p in params]


def run_reference(references, values, steps=STEPS, before_step=None):
    values = [v.copy() for v in values]
    for i in range(steps):
        if before_step:
            before_step(i)
        values = [ref.step(v, gradient(i, k, v.shape)) for k, (ref, v) in enumerate(zip(references, values))]
    return values


def parameters(n=3):
    rng = np.random.default_rng(5)
    values = [rng.standard_normal(s) for s in [(3, 2), (4,), (2, 2)][:n]]
    return [mf.tensor(v, requires_grad=True) for v in values], values


# ---------------------------------------------------------------------------------------------
# Values

@pytest.mark.parametrize("options", [dict(), dict(weight_decay=0.1), dict(betas=(0.8, 0.99), eps=1e-6)])
def test_adam_follows_torchs_formula_with_l2_weight_decay(options):
    params, values = parameters()
    result = run(mf.optim.Adam(params, lr=0.05, **options), params)
    expected = run_reference([AdamReference(0.05, **options) for _ in values], values)
    for got, want in zip(result, expected):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_amsgrad_and_maximize_per_group_follow_torchs_formulas(name):
    # Group 0 amsgrad, group 1 maximize, group 2 both; each group's state as torch's (max_exp_avg_sq only with amsgrad).
    params, values = parameters()
    groups = [dict(amsgrad=True), dict(maximize=True), dict(amsgrad=True, maximize=True)]
    optimizer = getattr(mf.optim, name)([dict(g, params=[p]) for g, p in zip(groups, params)], lr=0.05,
                                        weight_decay=0.1, betas=(0.8, 0.9))
    result = run(optimizer, params)
    refs = [AdamReference(0.05, betas=(0.8, 0.9), weight_decay=0.1, decoupled=name == "AdamW", **g) for g in groups]
    for got, want in zip(result, run_reference(refs, values)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    state = optimizer.state_dict()["state"]
    assert set(state[0]) == {"exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"} and "max_exp_avg_sq" not in state[1]
    np.testing.assert_allclose(state[0]["max_exp_avg_sq"].numpy(), refs[0].v_max, rtol=1e-12)
    assert state[0]["step"].dtype == mf.float32 and state[0]["step"].item() == STEPS  # torch's float32 step
    assert optimizer.param_groups[1]["maximize"] and not optimizer.param_groups[1]["amsgrad"]
    # A fresh optimizer resumes from the state dict, the running maximum included.
    copies = [mf.tensor(p.numpy(), requires_grad=True) for p in params]
    resumed = getattr(mf.optim, name)([dict(g, params=[p]) for g, p in zip(groups, copies)], lr=0.05,
                                      weight_decay=0.1, betas=(0.8, 0.9))
    resumed.load_state_dict(copy.deepcopy(optimizer.state_dict()))  # live tensors would be shared, as torch's
    for a, b in zip(run(optimizer, params, steps=2), run(resumed, copies, steps=2)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("options", [dict(maximize=True), dict(maximize=True, momentum=0.9, weight_decay=0.1),
                                     dict(maximize=True, momentum=0.9, nesterov=True)])
def test_sgd_maximize_steps_up_the_gradient(options):
    params, values = parameters()
    result = run(mf.optim.SGD(params, lr=0.1, **options), params)
    expected = run_reference([SgdReference(0.1, **options) for _ in values], values)
    for got, want in zip(result, expected):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_groups_hold_torchs_keys():
    # torch 2's: its kernel choices (foreach, fused, capturable) are kept, changing nothing here.
    p = [mf.tensor(np.ones(2), requires_grad=True)]
    adam = ["amsgrad", "betas", "capturable", "decoupled_weight_decay", "differentiable", "eps", "foreach", "fused",
            "lr", "maximize", "weight_decay"]
    expected = {mf.optim.SGD: ["dampening", "differentiable", "foreach", "fused", "lr", "maximize", "momentum",
                               "nesterov", "weight_decay"],
                mf.optim.Adam: adam, mf.optim.AdamW: adam,
                mf.optim.RMSprop: ["alpha", "capturable", "centered", "differentiable", "eps", "foreach", "lr",
                                   "maximize", "momentum", "weight_decay"],
                mf.optim.Adagrad: ["differentiable", "eps", "foreach", "fused", "initial_accumulator_value", "lr",
                                   "lr_decay", "maximize", "weight_decay"]}
    for cls, keys in expected.items():
        optimizer = cls(p, lr=0.1)
        assert sorted(k for k in optimizer.param_groups[0] if k != "params") == keys, cls
    assert mf.optim.AdamW(p).param_groups[0]["decoupled_weight_decay"] is True
    assert mf.optim.SGD(p, lr=0.1).defaults["momentum"] == 0 and mf.optim.Adam(p).defaults["fused"] is None
    with pytest.raises(NotImplementedError, match="decoupled_weight_decay differs between parameter groups"):
        mf.optim.Adam([{"params": p, "decoupled_weight_decay": True}])


def test_adam_and_adamw_differ_only_in_the_decay():
    params, values = parameters(1)
    adam = run(mf.optim.Adam(params, lr=0.05, weight_decay=0.5), params)
    params, _ = parameters(1)
    adamw = run(mf.optim.AdamW(params, lr=0.05, weight_decay=0.5), params)
    assert not np.allclose(adam[0], adamw[0])
    np.testing.assert_allclose(adamw[0], run_reference([AdamReference(0.05, weight_decay=0.5, decoupled=True)],
                                                       values)[0], rtol=1e-12)


def test_groups_take_their_own_options_and_the_defaults():
    params, values = parameters()
    optimizer = mf.optim.SGD([{"params": params[:2], "momentum": 0.9, "nesterov": True},
                              {"params": params[2:], "lr": 0.5, "weight_decay": 0.1, "dampening": 0.3,
                               "momentum": 0.5}], lr=0.1)
    first, second = optimizer.param_groups
    assert first["lr"] == 0.1 and first["momentum"] == 0.9 and first["dampening"] == 0.0 and first["nesterov"]
    assert second["lr"] == 0.5 and second["weight_decay"] == 0.1 and not second["nesterov"]
    assert first["params"][0] is params[0] and second["params"][0] is params[2]
    references = [SgdReference(0.1, momentum=0.9, nesterov=True), SgdReference(0.1, momentum=0.9, nesterov=True),
                  SgdReference(0.5, momentum=0.5, dampening=0.3, weight_decay=0.1)]
    for got, want in zip(run(optimizer, params), run_reference(references, values)):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_edited_groups_are_read_at_the_next_step():
    params, values = parameters(2)
    optimizer = mf.optim.AdamW([{"params": [params[0]]}, {"params": [params[1]], "betas": (0.5, 0.9)}], lr=0.1)
    references = [AdamReference(0.1, weight_decay=0.01, decoupled=True),
                  AdamReference(0.1, betas=(0.5, 0.9), weight_decay=0.01, decoupled=True)]

    def edit_group(step):
        group = optimizer.param_groups[1]
        if step == 2:
            group["lr"] = 0.02
            group["weight_decay"] = 0.3
        if step == 3:
            group.update(betas=(0.7, 0.95))

    def edit_reference(step):
        if step == 2:
            references[1].h.update(lr=0.02, weight_decay=0.3)
        if step == 3:
            references[1].h["betas"] = (0.7, 0.95)

    got = run(optimizer, params, before_step=edit_group)
    expected = run_reference(references, values, before_step=edit_reference)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-12)
    with pytest.raises(ValueError, match=r"betas in \[0, 1\)"):
        optimizer.param_groups[0]["betas"] = (1.5, 0.9)
    assert optimizer.param_groups[0]["betas"] == (0.9, 0.999)  # refused values are not kept
    with pytest.raises(ValueError, match="params cannot be replaced; add parameters with add_param_group"):
        optimizer.param_groups[0]["params"] = params


def test_add_param_group_and_its_checks():
    params, values = parameters()
    optimizer = mf.optim.Adam(params[:1], lr=0.1)
    optimizer.add_param_group({"params": params[1:], "lr": 0.01, "weight_decay": 0.2})
    assert len(optimizer.param_groups) == 2 and optimizer.param_groups[1]["betas"] == (0.9, 0.999)
    references = [AdamReference(0.1), AdamReference(0.01, weight_decay=0.2), AdamReference(0.01, weight_decay=0.2)]
    for got, want in zip(run(optimizer, params), run_reference(references, values)):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        optimizer.add_param_group({"params": [params[0]]})
    # a key that is no option of Adam is kept and changes nothing, as torch's (programs tag groups)
    optimizer.add_param_group({"params": [mf.tensor(np.ones(2), requires_grad=True)], "momentum": 0.9, "name": "x"})
    assert len(optimizer.param_groups) == 3 and optimizer.param_groups[2]["name"] == "x"
    assert optimizer.state_dict()["param_groups"][2]["momentum"] == 0.9


def test_state_dict_has_torchs_structure_and_resumes():
    params, values = parameters()
    optimizer = mf.optim.Adam([{"params": params[:2]}, {"params": params[2:], "lr": 0.01}], lr=0.1)
    run(optimizer, params, steps=2)
    state = optimizer.state_dict()
    assert set(state) >= {"state", "param_groups"}
    assert [g["params"] for g in state["param_groups"]] == [[0, 1], [2]]
    assert state["param_groups"][1]["lr"] == 0.01 and state["param_groups"][0]["betas"] == (0.9, 0.999)
    assert sorted(state["state"]) == [0, 1, 2] and set(state["state"][0]) == {"exp_avg", "exp_avg_sq", "step"}
    assert int(state["state"][2]["step"].item()) == 2
    assert set(optimizer.state[params[0]]) == {"exp_avg", "exp_avg_sq", "step"}  # keyed by parameter, as torch
    np.testing.assert_array_equal(optimizer.state[params[2]]["exp_avg"].numpy(), state["state"][2]["exp_avg"].numpy())
    snapshot = copy.deepcopy({k: v for k, v in state.items() if k != "state"})

    # A fresh optimizer (other lrs) loads the options and state, then steps as the first one.
    copies = [mf.tensor(p.numpy(), requires_grad=True) for p in params]
    resumed = mf.optim.Adam([{"params": copies[:2]}, {"params": copies[2:]}], lr=0.5)
    resumed.load_state_dict(copy.deepcopy(optimizer.state_dict()))  # live tensors would be shared, as torch's
    assert resumed.param_groups[1]["lr"] == 0.01 and resumed.param_groups[0]["lr"] == 0.1
    assert [list(g) for g in snapshot["param_groups"]] == [list(g) for g in optimizer.state_dict()["param_groups"]]
    for a, b in zip(run(optimizer, params, steps=2), run(resumed, copies, steps=2)):
        np.testing.assert_array_equal(a, b)
    # float64 state loads into float32 parameters in their dtype, as torch casts it.
    singles = [mf.tensor(p.numpy().astype(np.float32), requires_grad=True) for p in params]
    cast_into = mf.optim.Adam([{"params": singles[:2]}, {"params": singles[2:]}])
    cast_into.load_state_dict(optimizer.state_dict())
    assert cast_into.state[singles[0]]["exp_avg"].dtype == mf.float32
    for p in singles:
        p.grad = mf.ones(*p.shape)
    cast_into.step()  # the update op takes float32 state with float32 parameters
    with pytest.raises(ValueError, match="different number of parameter groups"):
        mf.optim.Adam(copies).load_state_dict(state)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        mf.optim.Adam([{"params": copies[:1]}, {"params": copies[1:]}]).load_state_dict(state)


def test_schedulers_set_every_groups_rate():
    params, _ = parameters(2)
    optimizer = mf.optim.SGD([{"params": [params[0]]}, {"params": [params[1]], "lr": 1.0}], lr=0.1)
    scheduler = mf.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    rates = []
    for _ in range(5):
        rates.append(scheduler.get_last_lr())
        optimizer.step()
        scheduler.step()
    assert rates == [[0.1, 1.0], [0.1, 1.0], [0.05, 0.5], [0.05, 0.5], [0.025, 0.25]]
    assert [g["initial_lr"] for g in optimizer.param_groups] == [0.1, 1.0]
    lambdas = mf.optim.lr_scheduler.LambdaLR(optimizer, [lambda e: 1.0, lambda e: 0.1 * (e + 1)])
    lambdas.step()
    assert lambdas.get_last_lr() == pytest.approx([0.1, 0.2])
    one_cycle = mf.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=[1.0, 10.0], total_steps=10)
    assert one_cycle.get_last_lr() == pytest.approx([0.04, 0.4])
    # The rate a scheduler sets is the one the step uses.
    params[1].grad = mf.tensor(np.ones(4))
    before = params[1].numpy().copy()  # numpy() shares the memory, as torch's
    optimizer.step()
    np.testing.assert_allclose(params[1].numpy(), before - 0.4)


def test_zero_grad_sets_to_none_by_default():
    params, _ = parameters(1)
    optimizer = mf.optim.SGD(params, lr=0.1)
    params[0].grad = mf.tensor(np.ones((3, 2)))
    optimizer.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(params[0].grad.numpy(), np.zeros((3, 2)))
    optimizer.zero_grad()
    assert params[0].grad is None


def test_step_with_a_closure_returns_its_loss():
    params, _ = parameters(1)
    optimizer = mf.optim.SGD(params, lr=0.1)

    def closure():
        optimizer.zero_grad()
        loss = (params[0] * params[0]).sum()
        loss.backward()
        return loss
    with mf.no_grad():
        loss = optimizer.step(closure)
    assert loss is not None and loss.item() > 0 and params[0].grad is not None


def test_groups_do_not_keep_the_optimizer_alive():
    # The groups hold the C++ optimizer, not the Python one: no cycle for the collector.
    params, _ = parameters(1)
    gc.disable()
    try:
        optimizer = mf.optim.AdamW(params)
        ref = weakref.ref(optimizer)
        del optimizer
        assert ref() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("flags", [{}, {"amsgrad": True, "maximize": True}], ids=str)
def test_a_compiled_graph_reads_each_groups_options_at_every_run(flags):
    # With amsgrad the compiled step also carries the running maximum as state.
    import meshflow.nn as nn
    import meshflow.nn.functional as F

    placement = mf.placement("cpu", ranks=[0])

    def setup():
        mf.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
        model.to_global(placement, mf.sbp.broadcast)
        params = list(model.parameters())
        optimizer = mf.optim.Adam([{"params": params[:2], "weight_decay": 0.1},
                                   {"params": params[2:], "lr": 0.02, "betas": (0.8, 0.9), **flags}], lr=0.05)
        return model, optimizer

    rng = np.random.default_rng(0)
    x = mf.tensor(rng.standard_normal((5, 4)).astype(np.float32), placement=placement, sbp=mf.sbp.broadcast)
    y = mf.tensor(rng.integers(0, 3, 5), placement=placement, sbp=mf.sbp.broadcast)
    eager_model, eager_opt = setup()
    graph_model, graph_opt = setup()
    step = CrossEntropyStep(graph_model, graph_opt)
    for i in range(4):
        for opt in (eager_opt, graph_opt):
            opt.param_groups[1]["lr"] = 0.02 / (i + 1)  # a per-group schedule
            opt.param_groups[0]["weight_decay"] = 0.1 * i
        loss = F.cross_entropy(eager_model(x), y)
        loss.backward()
        eager_opt.step()
        eager_opt.zero_grad()
        np.testing.assert_allclose(step(x, y).numpy(), loss.numpy(), rtol=1e-6)
    for a, b in zip(eager_model.parameters(), graph_model.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_gpu_equals_the_cpu(dtype):
    """The CUDA kernels of adam_update, adamw_update, sgd_update, rmsprop_update, adagrad_update
    and the elementwise rules' (adamax, nadam, radam, adadelta, asgd, rprop), through groups
    with their own options, against the CPU's (the kernels round as the CPU does)."""
    tol = dict(rtol=1e-6, atol=1e-7) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-14)
    makers = [lambda ps: mf.optim.Adam([{"params": ps[:1], "weight_decay": 0.1}, {"params": ps[1:]}], lr=0.05),
              lambda ps: mf.optim.AdamW([{"params": ps[:1]}, {"params": ps[1:], "betas": (0.8, 0.9)}], lr=0.05),
              lambda ps: mf.optim.SGD([{"params": ps[:1], "momentum": 0.9, "nesterov": True},
                                       {"params": ps[1:], "weight_decay": 0.1, "momentum": 0.5}], lr=0.1),
              lambda ps: mf.optim.RMSprop([{"params": ps[:1], "momentum": 0.9, "centered": True},
                                           {"params": ps[1:], "weight_decay": 0.1, "alpha": 0.3}], lr=0.01),
              lambda ps: mf.optim.Adagrad([{"params": ps[:1], "lr_decay": 0.1},
                                           {"params": ps[1:], "weight_decay": 0.1, "maximize": True}], lr=0.1),
              lambda ps: mf.optim.Adamax([{"params": ps[:1]}, {"params": ps[1:], "weight_decay": 0.1}], lr=0.05),
              lambda ps: mf.optim.NAdam([{"params": ps[:1], "decoupled_weight_decay": True},
                                         {"params": ps[1:], "maximize": True}], lr=0.05, weight_decay=0.1),
              lambda ps: mf.optim.RAdam([{"params": ps[:1], "betas": (0.9, 0.5)}, {"params": ps[1:]}], lr=0.05,
                                        weight_decay=0.1),
              lambda ps: mf.optim.Adadelta([{"params": ps[:1]}, {"params": ps[1:], "rho": 0.5}], weight_decay=0.1),
              lambda ps: mf.optim.ASGD([{"params": ps[:1], "t0": 1}, {"params": ps[1:]}], lr=0.05, lambd=0.1),
              lambda ps: mf.optim.Rprop([{"params": ps[:1], "etas": (0.3, 1.5)}, {"params": ps[1:]}], lr=0.05)]
    rng = np.random.default_rng(2)
    values = [rng.standard_normal((300, 7)).astype(dtype), rng.standard_normal((1000,)).astype(dtype)]

    def run(make, device):
        params = [mf.tensor(v, device=device, requires_grad=True) for v in values]
        optimizer = make(params)
        for i in range(3):
            for k, p in enumerate(params):
                p.grad = mf.tensor(gradient(i, k, tuple(p.shape)).astype(dtype), device=device)
            optimizer.step()
        return [p.cpu().numpy() for p in params]

    for make in makers:
        for got, want in zip(run(make, "cuda"), run(make, "cpu")):
            np.testing.assert_allclose(got, want, **tol)
