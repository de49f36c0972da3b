"""Graph mode takes what eager trains, under data parallelism (issue 37): the batch split S(0)
over 2 ranks, parameters and buffers broadcast. BatchNorm's batch statistics are the global
batch's (as SyncBatchNorm), so the running statistics, losses and parameters of a graph's
steps equal eager's on the mesh, which equal one device's; with local_stats=True each rank's
part has its own statistics (torch's BatchNorm under DDP) and the graph still equals eager."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from conftest import mesh

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # graph_step.py
from graph_step import CrossEntropyStep as Step  # noqa: E402


def cnn(placement, momentum, local_stats):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4, momentum=momentum, local_stats=local_stats),
                          nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 8),
                          nn.BatchNorm1d(8, momentum=momentum, local_stats=local_stats), nn.Linear(8, 3))
    if placement is not None:
        model.to_global(placement, mf.sbp.broadcast)
    return model, mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def data(steps):
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((8, 2, 6, 6)).astype(np.float32), rng.integers(0, 3, 8)) for _ in range(steps)]


def train(model, opt, batches, step=None):
    losses = []
    for x, y in batches:
        if step is not None:
            losses.append(step(x, y).item())
            continue
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def state(model):
    return {name: value.numpy() for name, value in model.state_dict().items()}


@pytest.mark.parametrize("local_stats", [False, True])
@pytest.mark.parametrize("momentum", [0.1, None])
def test_data_parallel_graph_equals_eager_and_one_device(momentum, local_stats):
    placement = mesh("2", mf.env.get_world_size())
    batches = data(4)
    split = [(mf.tensor(x, placement=placement, sbp=mf.sbp.split(0)),
              mf.tensor(y, placement=placement, sbp=mf.sbp.split(0))) for x, y in batches]
    eager, eager_opt = cnn(placement, momentum, local_stats)
    eager_losses = train(eager, eager_opt, split)
    model, opt = cnn(placement, momentum, local_stats)
    graph_losses = train(model, opt, split, Step(model, opt))
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-6)
    expected, got = state(eager), state(model)
    for name in expected:
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert int(got["1.num_batches_tracked"]) == 4
    # The buffers stay broadcast: every rank of the placement holds the same running
    # statistics (a rank outside it, on 4 ranks, holds an empty part).
    for name, buffer in model.named_buffers():
        assert buffer.sbp == (mf.sbp.broadcast,), name
        if mf.env.get_rank() < 2:
            np.testing.assert_array_equal(buffer.to_local().numpy(), got[name], err_msg=name)
    if not local_stats:  # the global batch's statistics: one device's steps
        alone, alone_opt = cnn(None, momentum, False)
        alone_losses = train(alone, alone_opt, [(mf.tensor(x), mf.tensor(y)) for x, y in batches])
        np.testing.assert_allclose(graph_losses, alone_losses, rtol=1e-5)
        for name, value in state(alone).items():
            np.testing.assert_allclose(got[name], value, rtol=1e-4, atol=1e-5, err_msg=name)
