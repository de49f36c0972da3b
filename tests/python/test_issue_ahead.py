"""Data-checked ops do not make the issuing thread wait for its device (issue 39, provable
without a GPU): on the test device with a latency per kernel (as a busy GPU), ten calls of an
op that checks its data (indices of embedding, gather, indexing; integer division by zero;
cross-entropy's targets) return in a small part of the time the device needs for them; a bad
value is reported at the next read, naming the op, as a GPU's asynchronous error.
tests/python/distributed/test_dist_issue_ahead.py proves the same for global tensors,
boxing and training steps."""
import time

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

LATENCY_US = 10000
CALLS = 10


@pytest.fixture
def slow_testdev():
    mf._C.set_testdev_latency_us(LATENCY_US)
    yield
    mf._C.set_testdev_latency_us(0)


def _on(device, array):
    return mf.tensor(np.asarray(array)).to(device)


def _inputs(device, bad):
    """The ops' inputs on `device`; with `bad`, each index, target or divisor has one value
    out of range (or zero)."""
    rng = np.random.default_rng(0)
    idx = np.arange(12) % 5
    if bad:
        idx[3] = 7
    return {"w": _on(device, rng.standard_normal((5, 8)).astype(np.float32)), "idx": _on(device, idx),
            "logits": _on(device, rng.standard_normal((12, 5)).astype(np.float32)),
            "cols": _on(device, idx.reshape(3, 4)), "x": _on(device, rng.standard_normal((3, 5)).astype(np.float32)),
            "a": _on(device, np.arange(1, 13)), "b": _on(device, np.where(np.arange(12) == 3, 0 if bad else 2, 3))}


OPS = {
    "embedding": lambda t: F.embedding(t["idx"], t["w"]),
    "index_select": lambda t: t["w"].index_select(0, t["idx"]),
    "getitem": lambda t: t["w"][t["idx"]],
    "gather": lambda t: t["x"].gather(1, t["cols"]),
    "floor_divide": lambda t: t["a"] // t["b"],
    "remainder": lambda t: t["a"] % t["b"],
    "cross_entropy": lambda t: F.cross_entropy(t["logits"], t["idx"]),
    "nll_loss": lambda t: F.nll_loss(t["logits"], t["idx"]),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_data_checked_ops_issue_ahead_of_a_slow_device(slow_testdev, name):
    op, inputs = OPS[name], _inputs("testdev", bad=False)
    mf.synchronize()
    start = time.perf_counter()
    outputs = [op(inputs) for _ in range(CALLS)]
    issued = time.perf_counter() - start
    mf.synchronize()
    assert issued < 0.25 * CALLS * LATENCY_US * 1e-6, \
        f"{name}: issuing {CALLS} calls took {issued * 1e3:.1f} ms; each call's kernels take {LATENCY_US / 1e3} ms"
    mf._C.set_testdev_latency_us(0)
    expected = op(_inputs("cpu", bad=False)).numpy()
    for out in outputs:
        assert out.device == mf.device("testdev:0") and np.array_equal(out.numpy(), expected), name


@pytest.mark.parametrize("name", sorted(OPS))
def test_a_bad_value_is_reported_at_the_next_read_naming_the_op(slow_testdev, name):
    out = OPS[name](_inputs("testdev", bad=True))  # returns before the device has run it
    with pytest.raises((mf.OpError, mf.OpIndexError), match=r"^\[\w+\] .*(out of (range|bounds)|division by zero)"):
        out.numpy()
    mf._C.set_testdev_latency_us(0)
    with pytest.raises((mf.OpError, mf.OpIndexError)):
        OPS[name](_inputs("cpu", bad=True)).numpy()  # the CPU says the same
