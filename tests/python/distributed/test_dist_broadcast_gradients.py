"""Broadcast gradients on global tensors (autograd/var.h): a sum's gradient reaches relu's
backward as a broadcast operand, so no rank holds a full-size copy of it (an expanded one is
broadcast, the whole logical tensor on every rank); graph mode, whose whole-graph SBP and
memory plan see the same small operand, equals eager on [1], [2], [4] and [2, 2]."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from conftest import mesh

MiB = 1 << 20


def split_batch(p):
    return [mf.sbp.split(0)] + [mf.sbp.broadcast] * (len(p.hierarchy) - 1)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
@pytest.mark.parametrize("activation", ["relu", "relu6"])
def test_no_rank_holds_a_full_size_loss_gradient(name, activation, world):
    p = mesh(name, world)
    ranks = int(np.prod(p.hierarchy))
    rows = 256 * ranks  # a MiB of float32 per part of the batch
    x = mf.randn(rows, 1024, placement=p, sbp=split_batch(p)).requires_grad_()
    out = getattr(F, activation)(x).sum()
    mf.synchronize()
    start = mf.memory_allocated()
    mf.reset_peak_memory_stats()
    out.backward()
    mf.synchronize()
    peak = mf.max_memory_allocated() - start
    # At most this rank's part of x.grad; an expanded gradient would add the whole tensor.
    part = x.to_local().numel() * 4
    assert peak <= part + MiB // 4, f"backward's peak on this rank is {peak / MiB:.2f} MiB beyond its start"
    np.testing.assert_array_equal(x.grad.to_local().numpy(), (x.to_local().numpy() > 0).astype(np.float32)
                                  * (x.to_local().numpy() < 6 if activation == "relu6" else 1))


def model(p, tensor_parallel):
    mf.manual_seed(3)
    m = nn.Sequential(nn.Linear(6, 10), nn.ReLU6(), nn.Linear(10, 5), nn.ReLU())
    last = len(p.hierarchy) - 1

    def sbp(param, _):
        nd = [mf.sbp.broadcast] * len(p.hierarchy)
        if tensor_parallel and param.startswith("0."):
            nd[last] = mf.sbp.split(0)
        if tensor_parallel and param == "2.weight":
            nd[last] = mf.sbp.split(1)
        return tuple(nd)
    m.to_global(p, sbp)
    return m


def loss_of(m, x):
    y = m(x)
    return y.mean() + y.sum(dim=0).sum() * 0.5 + F.hardtanh(y, 0.1, 0.9).sum(dim=1).mean()


@pytest.mark.parametrize("name", ["1", "2", "4", "2x2"])
@pytest.mark.parametrize("tensor_parallel", [False, True])
def test_graph_mode_equals_eager(name, tensor_parallel, world):
    p = mesh(name, world)

    class Step(nn.Graph):
        def __init__(self, m, opt):
            super().__init__()
            self.m = m
            self.add_optimizer(opt)

        def build(self, x):
            loss = loss_of(self.m, x)
            loss.backward()
            return loss

    rng = np.random.default_rng(5)
    x = mf.tensor(rng.uniform(-2, 2, (7, 6)).astype(np.float32), placement=p, sbp=split_batch(p))  # uneven
    eager, compiled = model(p, tensor_parallel), model(p, tensor_parallel)
    opt = mf.optim.SGD(eager.parameters(), lr=0.5)
    step = Step(compiled, mf.optim.SGD(compiled.parameters(), lr=0.5))
    for _ in range(2):
        want = loss_of(eager, x)
        want.backward()
        opt.step()
        opt.zero_grad()
        np.testing.assert_allclose(step(x).numpy(), want.numpy(), rtol=1e-6)
    for a, b in zip(eager.parameters(), compiled.parameters()):
        assert b.sbp == a.sbp
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
