"""The issuing thread never waits for its device (issue 39, provable without a GPU): on the
test device with MESHFLOW_TESTDEV_LATENCY_US (each kernel completes that long after it
starts, as on a busy GPU), training loops with data and tensor parallelism, boxing of every
kind, data-checked ops (embedding, cross-entropy), gradient clipping and the optimizer step
issue in a small part of the time the device needs, and give the CPU's results."""
import time

import numpy as np
import pytest

import meshflow as mf
from meshflow import nn

WORLD = mf.env.get_world_size()
S, B, P = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum
LATENCY_US = 1000


@pytest.fixture
def slow_testdev():
    mf._C.set_testdev_latency_us(LATENCY_US)
    yield
    mf._C.set_testdev_latency_us(0)


def _model(device, placement, tensor_parallel):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Embedding(40, 16), nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 40)).to(device)
    if not tensor_parallel:
        return model.to_global(placement, B)
    layouts = {"1.weight": S(0), "1.bias": S(0), "3.weight": S(1), "3.bias": B}
    for name, p in model.named_parameters():
        p.data = p.data.to_global(placement, B).to_global(sbp=layouts.get(name, B))
    return model


def _train(device, tensor_parallel, steps):
    """(seconds to issue the steps, seconds until they ran, the losses)."""
    placement = mf.placement(device, ranks=list(range(WORLD)))
    model = _model(device, placement, tensor_parallel)
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    batch = B if tensor_parallel else S(0)
    rng = np.random.default_rng(1)
    data = [[mf.tensor(rng.integers(0, 40, 8 * WORLD)).to(device).to_global(placement, B).to_global(sbp=batch)
             for _ in range(2)] for _ in range(steps)]
    mf.synchronize()
    losses = []
    start = time.perf_counter()
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        mf.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        losses.append(loss)
    issued = time.perf_counter() - start
    mf.synchronize()
    ran = time.perf_counter() - start
    return issued, ran, [float(loss) for loss in losses]


@pytest.mark.parametrize("tensor_parallel", [False, True], ids=["data", "tensor"])
def test_training_steps_issue_ahead_of_a_slow_device(slow_testdev, tensor_parallel):
    issued, ran, losses = _train("testdev", tensor_parallel, steps=6)
    assert issued < 0.25 * ran, f"issuing took {issued:.3f} s of the device's {ran:.3f} s"
    mf._C.set_testdev_latency_us(0)
    _, _, expected = _train("cpu", tensor_parallel, steps=6)
    np.testing.assert_allclose(losses, expected, rtol=1e-5)


def test_boxing_of_every_kind_issues_ahead(slow_testdev):
    mf._C.set_testdev_latency_us(20 * LATENCY_US)  # few kernels here: each made long
    placement = mf.placement("testdev", ranks=list(range(WORLD)))
    value = np.arange(6 * 4 * WORLD, dtype=np.float32).reshape(6 * WORLD, 4)
    x = mf.tensor(value).to("testdev").to_global(placement, B)
    mf.synchronize()
    start = time.perf_counter()
    out = x
    for _ in range(3):  # B -> S(0) -> S(1) -> P (by a sum's layout) -> B
        out = out.to_global(sbp=S(0)).to_global(sbp=S(1)) * 2
        out = (out.to_global(sbp=P) + 0).to_global(sbp=B) * 0.5
    issued = time.perf_counter() - start
    mf.synchronize()
    ran = time.perf_counter() - start
    assert issued < 0.25 * ran, f"issuing took {issued:.3f} s of the device's {ran:.3f} s"
    np.testing.assert_array_equal(out.numpy(), value)
