"""Graph mode takes what eager trains (issue 37): a compiled step updates the state a forward
changes (BatchNorm's running statistics, counters updated in place) as eager steps do, starts
from whatever eager code left (gradients, optimizer state), and eager steps go on from it."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

from graph_step import CrossEntropyStep as Step


def placement():
    return mf.placement("cpu", ranks=[0])


class Forward(nn.Graph):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def build(self, x):
        return self.model(x)


def eager_step(model, opt, x, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


def batches(shape, steps, seed=0):
    rng = np.random.default_rng(seed)
    return [(mf.tensor(rng.standard_normal(shape).astype(np.float32), placement=placement(), sbp=mf.sbp.broadcast),
             mf.tensor(rng.integers(0, 3, shape[0]), placement=placement(), sbp=mf.sbp.broadcast))
            for _ in range(steps)]


def assert_same_state(got, expected):
    expected = dict(expected.state_dict())
    for name, value in got.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), expected[name].numpy(), err_msg=name)


# (norm layer, the input shape it takes [N, C, ...]) in a model that ends in 3 classes.
NORMS = {
    "BatchNorm1d[N,C]": (lambda m: nn.BatchNorm1d(4, momentum=m), (6, 4)),
    "BatchNorm1d[N,C,L]": (lambda m: nn.BatchNorm1d(4, momentum=m), (6, 4, 5)),
    "BatchNorm2d": (lambda m: nn.BatchNorm2d(4, momentum=m), (6, 4, 3, 3)),
    "BatchNorm3d": (lambda m: nn.BatchNorm3d(4, momentum=m), (6, 4, 2, 3, 2)),
    "SyncBatchNorm": (lambda m: nn.SyncBatchNorm(4, momentum=m), (6, 4, 3)),
    "InstanceNorm1d": (lambda m: nn.InstanceNorm1d(4, momentum=m, affine=True, track_running_stats=True), (6, 4, 5)),
}


def norm_model(kind, momentum):
    make, shape = NORMS[kind]
    mf.manual_seed(0)
    model = nn.Sequential(make(momentum), nn.ReLU(), nn.Flatten(), nn.Linear(int(np.prod(shape[1:])), 3))
    model.to_global(placement(), mf.sbp.broadcast)
    return model, mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


@pytest.mark.parametrize("momentum", [0.1, None])
@pytest.mark.parametrize("kind", sorted(NORMS))
def test_running_statistics_update_in_the_graph_as_eager(kind, momentum):
    shape = NORMS[kind][1]
    data = batches(shape, 5)
    eager, eager_opt = norm_model(kind, momentum)
    eager_losses = [eager_step(eager, eager_opt, x, y) for x, y in data]
    model, opt = norm_model(kind, momentum)
    step = Step(model, opt)
    assert [step(x, y).item() for x, y in data] == eager_losses
    assert_same_state(model, eager)  # parameters, running_mean / running_var, num_batches_tracked
    if "BatchNorm" in kind:
        assert int(model[0].num_batches_tracked.item()) == 5
    # In eval mode a graph normalizes with the running statistics, as eager does.
    eager.eval()
    model.eval()
    x = data[0][0]
    expected = eager(x).numpy()
    np.testing.assert_array_equal(Forward(model)(x).numpy(), expected)
    model.train()
    assert not np.array_equal(Forward(model)(x).numpy(), expected)  # the batch's statistics differ


def test_one_graph_follows_model_eval_and_train_between_calls():
    # A plan is per training mode: the same Graph object called after model.eval() uses the
    # running statistics and drops nothing, and after model.train() the batch's, as eager.
    def make():
        mf.manual_seed(0)
        return nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.Dropout(0.5), nn.Linear(6, 2)).to_global(
            placement(), mf.sbp.broadcast)
    xs = [mf.tensor(np.random.default_rng(i).standard_normal((5, 4)).astype(np.float32), placement=placement(),
                    sbp=mf.sbp.broadcast) for i in range(3)]
    results = []
    for graph in (True, False):
        mf.manual_seed(1)
        model = make()
        forward = Forward(model) if graph else model
        with mf.no_grad():
            got = [forward(xs[0]).numpy()]
            model.eval()
            got.append(forward(xs[1]).numpy())
            model.train()
            got.append(forward(xs[2]).numpy())
        results.append(got + [model[1].running_mean.numpy(), int(model[1].num_batches_tracked.item())])
    for graph_value, eager_value in zip(*results):
        np.testing.assert_allclose(graph_value, eager_value, rtol=1e-6, atol=1e-7)
    assert results[0][-1] == 2  # the eval call left the statistics alone


def test_a_layer_frozen_between_calls_stays_as_it_is_in_the_graph_as_eager():
    # Fine-tuning: requires_grad_(False) on a layer between calls makes a plan of its own, in
    # which backward and the optimizer leave that layer alone, as eager code does.
    data = batches(NORMS["BatchNorm2d"][1], 4)
    runs = []
    for graph in (True, False):
        model, opt = norm_model("BatchNorm2d", 0.1)
        step = Step(model, opt)
        losses = []
        for i, (x, y) in enumerate(data):
            if i == 2:
                model[0].requires_grad_(False)
                frozen = model[0].weight.numpy()
            losses.append(step(x, y).item() if graph else eager_step(model, opt, x, y))
        np.testing.assert_array_equal(model[0].weight.numpy(), frozen)
        runs.append((losses, model))
    np.testing.assert_allclose(runs[0][0], runs[1][0], rtol=1e-6)
    assert_same_state(runs[0][1], runs[1][1])


def test_eval_graph_reads_running_statistics_eager_code_changed():
    model, _ = norm_model("BatchNorm2d", 0.1)
    model.eval()
    forward = Forward(model)
    x = batches(NORMS["BatchNorm2d"][1], 1)[0][0]
    before = forward(x).numpy()
    with mf.no_grad():
        model[0].running_var.data = model[0].running_var * 4
    np.testing.assert_array_equal(forward(x).numpy(), model(x).numpy())
    assert not np.array_equal(forward(x).numpy(), before)


def test_local_program_updates_running_statistics():
    # Nothing placed: the graph runs this rank's step, buffers local before and after.
    def make():
        mf.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3, momentum=None), nn.Flatten(), nn.Linear(12, 3))
        return model, mf.optim.Adam(model.parameters(), lr=0.01)

    rng = np.random.default_rng(1)
    data = [(mf.tensor(rng.standard_normal((4, 2, 4, 4)).astype(np.float32)), mf.tensor(rng.integers(0, 3, 4)))
            for _ in range(4)]
    eager, eager_opt = make()
    eager_losses = [eager_step(eager, eager_opt, x, y) for x, y in data]
    model, opt = make()
    step = Step(model, opt)
    assert [step(x, y).item() for x, y in data] == eager_losses
    assert not model[1].running_mean.is_global
    assert_same_state(model, eager)


OPTIMIZERS = {
    "sgd-momentum": lambda params: mf.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01),
    "adam": lambda params: mf.optim.Adam(params, lr=0.01),
    "adamw": lambda params: mf.optim.AdamW(params, lr=0.01, weight_decay=0.1),
    "rmsprop": lambda params: mf.optim.RMSprop(params, lr=0.01),
    "rmsprop-centered-momentum": lambda params: mf.optim.RMSprop(params, lr=0.01, alpha=0.9, momentum=0.5,
                                                                 centered=True, weight_decay=0.01),
    "adagrad": lambda params: mf.optim.Adagrad(params, lr=0.05, lr_decay=0.1, weight_decay=0.01,
                                               initial_accumulator_value=0.1),
    "adamax": lambda params: mf.optim.Adamax(params, lr=0.01, weight_decay=0.01),
    "nadam": lambda params: mf.optim.NAdam(params, lr=0.01, weight_decay=0.01, decoupled_weight_decay=True),
    "radam": lambda params: mf.optim.RAdam(params, lr=0.01, betas=(0.9, 0.9)),
    "adadelta": lambda params: mf.optim.Adadelta(params, weight_decay=0.01),
    "asgd": lambda params: mf.optim.ASGD(params, lr=0.05, t0=3),
    "rprop": lambda params: mf.optim.Rprop(params, lr=0.01),
}


def mlp(optimizer):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
    model.to_global(placement(), mf.sbp.broadcast)
    return model, OPTIMIZERS[optimizer](model.parameters())


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("left", ["grad", "zeroed", "none"])
def test_graph_goes_on_from_eager_and_eager_from_the_graph(optimizer, left):
    # Eager steps, graph steps, eager steps again: the same as eager steps all along, whatever
    # the eager steps left in .grad (the last backward's gradient, zeros, None).
    data = batches((6, 4), 8)
    eager, eager_opt = mlp(optimizer)
    expected = [eager_step(eager, eager_opt, x, y) for x, y in data]
    model, opt = mlp(optimizer)
    losses = [eager_step(model, opt, x, y) for x, y in data[:3]]
    if left != "grad":
        opt.zero_grad(set_to_none=left == "none")
    grads = [None if p.grad is None else p.grad.numpy().copy() for p in model.parameters()]
    step = Step(model, opt)
    losses += [step(x, y).item() for x, y in data[3:6]]
    for p, g in zip(model.parameters(), grads):  # a call leaves .grad as it was
        assert (p.grad is None) == (g is None)
        if g is not None:
            np.testing.assert_array_equal(p.grad.numpy(), g)
    losses += [eager_step(model, opt, x, y) for x, y in data[6:]]
    assert losses == expected
    assert_same_state(model, eager)
    assert opt.state_dict()["state"].keys() == eager_opt.state_dict()["state"].keys()


def test_an_optimizer_composed_in_python_is_refused_when_added():
    model, _ = mlp("adam")
    with pytest.raises(TypeError, match="add_optimizer: nn.Graph steps SGD, .* and Rprop; LBFGS steps in eager code "
                                        "only \\(its step calls a closure\\)"):
        Step(model, mf.optim.LBFGS(model.parameters()))


class Counted(nn.Module):
    """A module that changes its own buffers in forward, each in one of the ways eager code may."""

    def __init__(self, how):
        super().__init__()
        self.how = how
        self.linear = nn.Linear(4, 3)
        self.register_buffer("calls", mf.zeros(()))
        self.register_buffer("seen", mf.zeros(4))

    def forward(self, x):
        rows = x.sum(0).detach()
        if self.how == "iadd":
            self.calls += 1
            self.seen += rows
        elif self.how == "add_":
            self.calls.add_(1)
            self.seen.mul_(0.5).add_(rows)
        elif self.how == "copy_":
            self.calls.copy_(self.calls + 1)
            self.seen.copy_(rows)
        elif self.how == "setitem":
            self.calls[...] = self.calls + 1
            self.seen[1:3] = rows[:2]
        elif self.how == "fill_":  # a constant as the new value, read after the write
            self.calls.fill_(2)
            self.seen.zero_()
        elif self.how == "data":
            self.calls.data = self.calls + 1
            self.seen.data = self.seen + rows
        return self.linear(x) * (1 + self.calls) + self.seen[:3]


@pytest.mark.parametrize("how", ["iadd", "add_", "copy_", "setitem", "fill_", "data"])
def test_buffers_changed_in_forward_update_in_the_graph_as_eager(how):
    data = batches((6, 4), 4)

    def make():
        mf.manual_seed(0)
        model = Counted(how)
        model.to_global(placement(), mf.sbp.broadcast)
        return model, mf.optim.SGD(model.parameters(), lr=0.1)

    eager, eager_opt = make()
    expected = [eager_step(eager, eager_opt, x, y) for x, y in data]
    model, opt = make()
    step = Step(model, opt)
    assert [step(x, y).item() for x, y in data] == expected
    assert_same_state(model, eager)
