"""Writes that cost what they write: optimizer steps update parameters and their state in
their own memory (measured with mf.memory_stats), ordered after every read issued before
them, on every device; and PyTorch's version counter (x._version) with its error where a
value a gradient reads was written in place since the call."""
import copy
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from fma_reference import fused_multiply_add

DEVICES = ["cpu", "testdev"]


def _model(device, count=100):
    """`count` parameters of different sizes (the largest is 64 x 256 floats)."""
    mf.manual_seed(0)
    layers = [nn.Linear(256 if i % 2 else 64, 64 if i % 2 else 256) for i in range(count // 2)]
    return nn.Sequential(*layers).to(device)


def _step(model, opt, x):
    opt.zero_grad()
    model(x).square().mean().backward()
    opt.step()


@pytest.mark.parametrize("device", DEVICES)
def test_an_adamw_step_allocates_at_most_its_largest_parameter(device):
    model = _model(device)
    params = list(model.parameters())
    assert len(params) == 100
    largest = max(p.numel() for p in params) * 4
    total = sum(p.numel() for p in params) * 4
    opt = mf.optim.AdamW(params, lr=1e-3)
    x = mf.randn(4, 64).to(device)
    _step(model, opt, x)  # the first step makes the state
    opt.zero_grad()
    model(x).square().mean().backward()  # the gradients of the step measured
    mf.synchronize()
    before = mf.memory_stats(device)["in_use_bytes"]
    mf.reset_peak_memory_stats(device)
    opt.step()
    mf.synchronize()
    stats = mf.memory_stats(device)
    assert stats["peak_bytes"] - before <= largest, (stats["peak_bytes"] - before, largest, total)
    assert stats["in_use_bytes"] <= before


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("make", [lambda ps: mf.optim.AdamW(ps, lr=0.1, weight_decay=0.1),
                                  lambda ps: mf.optim.Adam(ps, lr=0.1, weight_decay=0.1),
                                  lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
                                  lambda ps: mf.optim.SGD(ps, lr=0.1)], ids=["adamw", "adam", "sgd_nesterov", "sgd"])
def test_steps_in_place_equal_the_cpu_and_reach_aliases(device, make):
    """Every device's steps equal the CPU's bit for bit; an alias of the parameter (detach,
    .data) sees the step, as a PyTorch alias of a tensor updated in place; a value computed
    from the parameter before the step keeps the old one."""
    results = {}
    for where in ("cpu", device):
        w = mf.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), device=where, requires_grad=True)
        opt = make([w])
        alias = w.detach()
        for k in range(3):
            w.grad = mf.tensor(np.full((3, 4), k + 0.5, np.float32)).to(where)
            before = w * 1  # issued before the step: reads the old value
            old = w.numpy().copy()  # numpy() shares the memory, as torch's
            version = w._version
            opt.step()
            np.testing.assert_array_equal(before.numpy(), old)
            assert w._version == version + 1 and alias._version == w._version
            np.testing.assert_array_equal(alias.numpy(), w.numpy())
        results[where] = (w.numpy(), [s.numpy() for s in opt.state_dict()["state"].get(0, {}).values() if s.ndim == 2])
    np.testing.assert_array_equal(results[device][0], results["cpu"][0])
    for a, b in zip(results[device][1], results["cpu"][1]):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_manual_sgd_step_writes_the_parameters_own_memory(device, dtype):
    """word_language_model's step, `p.data.add_(p.grad, alpha=-lr)` (and sub_, alpha or not):
    p + alpha * g rounded once (torch's fused multiply-add), over p's memory (no new memory
    held after it, a peak of no temporary the parameter's size); p and its aliases see it, a
    value computed before keeps the old one."""
    rng = np.random.default_rng(0)
    p0, g0 = (rng.standard_normal((64, 256)).astype(dtype) for _ in range(2))
    p = nn.Parameter(mf.tensor(p0, device=device))
    p.grad = mf.tensor(g0, device=device)
    alias, before = p.detach(), p * 1
    expected = p0
    for write, alpha in ((lambda: p.data.add_(p.grad, alpha=-0.3), -0.3), (lambda: p.data.sub_(p.grad), -1.0),
                         (lambda: p.data.sub_(p.grad, alpha=2), -2.0), (lambda: p.data.add_(p.grad), 1.0)):
        mf.synchronize()
        in_use = mf.memory_stats(device)["in_use_bytes"]
        mf.reset_peak_memory_stats(device)
        write()
        mf.synchronize()
        stats = mf.memory_stats(device)
        assert stats["peak_bytes"] - in_use < p0.nbytes and stats["in_use_bytes"] <= in_use
        expected = fused_multiply_add(g0, dtype(alpha), expected)
        np.testing.assert_array_equal(p.numpy(), expected)
        np.testing.assert_array_equal(alias.numpy(), expected)
    np.testing.assert_array_equal(before.numpy(), p0)
    x = mf.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        x.add_(mf.ones(3), alpha=2)


def test_loaded_module_state_is_copied_and_optimizer_state_kept_as_torch():
    a = nn.Linear(3, 2)
    b = nn.Linear(3, 2)
    b.load_state_dict(a.state_dict())
    kept = a.weight.numpy()
    opt = mf.optim.AdamW(b.parameters(), lr=0.5)
    b(mf.ones(1, 3)).sum().backward()
    opt.step()
    np.testing.assert_array_equal(a.weight.numpy(), kept)  # a shares nothing with b
    assert not np.array_equal(b.weight.numpy(), kept)
    state = opt.state_dict()
    saved = {k: v.numpy() for k, v in state["state"][0].items()}
    snapshot = copy.deepcopy(state)
    opt2 = mf.optim.AdamW(b.parameters(), lr=0.5)
    opt2.load_state_dict(snapshot)
    opt2.step()
    for k, v in saved.items():  # the live dict: opt's own state, which opt2 does not hold
        np.testing.assert_array_equal(state["state"][0][k].numpy(), v)
    # The optimizer's state tensors are kept as given (torch's, where no cast is needed): the
    # steps write them.
    opt2.step()
    assert not np.array_equal(snapshot["state"][0]["exp_avg"].numpy(), saved["exp_avg"])
    assert snapshot["state"][0]["step"].item() == 3


# ---- the version counter ----

@pytest.mark.parametrize("device", DEVICES)
def test_version_counts_writes_and_views_share_it(device):
    x = mf.zeros(2, 3, device=device)
    assert x._version == 0
    x.add_(1)
    x[0] = 2.0
    assert x._version == 2
    row = x[1]
    assert row._version == 2
    row.mul_(3)
    assert x._version == 3 and row._version == 3
    with mf.no_grad():
        x.data.zero_()
    assert x._version == 4
    np.testing.assert_array_equal(row.numpy(), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("device", DEVICES)
def test_backward_raises_where_pytorch_raises(device):
    """A value a gradient reads (mul's inputs, exp's output), written in place after the call:
    backward raises torch's error."""
    w = mf.tensor([0.5, 1.0], requires_grad=True, device=device)
    a = w * 2
    y = a * a  # mul reads a
    a.add_(1)
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has been "
                                           "modified by an inplace operation"):
        y.sum().backward()
    e = w.exp()
    z = e * 3
    e.sub_(1)  # exp's gradient reads its output
    with pytest.raises(RuntimeError, match="MulBackward0|ExpBackward0"):
        (z + e).sum().backward()


@pytest.mark.parametrize("device", DEVICES)
def test_backward_stays_exact_where_pytorch_does_not_raise(device):
    """Gradients that read no value (add's, sum's, reshape's, a scalar product's), the write's
    own call, and a write after backward: no error, torch's gradients."""
    w = mf.tensor([0.5, 1.0, 2.0], requires_grad=True, device=device)
    a = w * 1
    y = (a + 1).reshape(3, 1).sum() + (a * 4).sum()
    a.add_(10)
    a.relu_()  # its own call reads the value it writes over
    b = w * 1
    b.mul_(w)  # reads b's old value, which it keeps
    (y + a.sum() + b.sum()).backward()
    np.testing.assert_allclose(w.grad.numpy(), 1 + 4 + 1 + 2 * np.array([0.5, 1.0, 2.0]), rtol=1e-6)


OPTIMIZERS = {
    "adamw_update": lambda ps: mf.optim.AdamW(ps, lr=1e-2, weight_decay=0.1),
    "adam_update": lambda ps: mf.optim.Adam(ps, lr=1e-2, weight_decay=0.1, amsgrad=True),
    "sgd_update": lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
    "rmsprop_update": lambda ps: mf.optim.RMSprop(ps, lr=1e-2, momentum=0.5, centered=True, weight_decay=0.1),
    "adagrad_update": lambda ps: mf.optim.Adagrad(ps, lr=0.1, lr_decay=0.1, initial_accumulator_value=0.1),
    "adamax_update": lambda ps: mf.optim.Adamax(ps, lr=1e-2, weight_decay=0.1),
    "nadam_update": lambda ps: mf.optim.NAdam(ps, lr=1e-2, weight_decay=0.1, decoupled_weight_decay=True),
    "radam_update": lambda ps: mf.optim.RAdam(ps, lr=1e-2, betas=(0.9, 0.8), weight_decay=0.1),
    "adadelta_update": lambda ps: mf.optim.Adadelta(ps, rho=0.8, weight_decay=0.1),
    "asgd_update": lambda ps: mf.optim.ASGD(ps, lr=1e-2, t0=1, lambd=0.1),
    "rprop_update": lambda ps: mf.optim.Rprop(ps, lr=1e-2, etas=(0.4, 1.3)),
}


@pytest.mark.parametrize("update", sorted(OPTIMIZERS))
def test_a_group_steps_in_one_update_call_as_one_call_per_parameter(update):
    """Multi-tensor steps (the update ops' "tensors"): a group's parameters in one call, one
    launch on a GPU, with the bits of a call per parameter (a group each)."""
    make = OPTIMIZERS[update]
    x = mf.tensor(np.random.default_rng(1).standard_normal((4, 64)).astype(np.float32))
    together, apart = _model("cpu", 6), _model("cpu", 6)
    opt_together, opt_apart = make(together.parameters()), make([{"params": [p]} for p in apart.parameters()])
    for _ in range(3):
        _step(together, opt_together, x)
        _step(apart, opt_apart, x)
    for a, b in zip(together.parameters(), apart.parameters()):
        assert a.numpy().tobytes() == b.numpy().tobytes()
    # Graph mode traces one update for the group.
    p = mf.placement("cpu", ranks=[0])
    model = _model("cpu", 6)
    model.to_global(p, mf.sbp.broadcast)
    opt = make(model.parameters())

    class Step(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)

        def build(self, x):
            loss = self.model(x).square().mean()
            loss.backward()
            return loss

    step = Step()
    step(x.to_global(p, mf.sbp.broadcast))
    assert step.debug_graph().count(update) == 1
