"""The eager VM on several ranks: asynchronous execution gives exactly what blocking mode
(MESHFLOW_LAUNCH_BLOCKING=1, here switched in-process) gives, for long sequences that mix
kernels and boxing on [2], [4] and [2, 2], with tensors dropped while queued work still
reads them; errors surface at the next synchronization on every rank; collectives issued
from the user's thread keep program order with the queued ones."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import sbp

from conftest import logical_value

S, B, P = sbp.split, sbp.broadcast, sbp.partial_sum

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "gpt"))


def mesh(shape, world):
    n = int(np.prod(shape))
    if n > world:
        pytest.skip(f"needs {n} ranks")
    return mf.placement("cpu", ranks=np.arange(n).reshape(shape).tolist())


def in_blocking_mode(f):
    mf._C.set_launch_blocking(True)
    try:
        return f()
    finally:
        mf._C.set_launch_blocking(False)


def mixed_sequence(placement, steps=60):
    """Matmuls, elementwise ops and reductions whose operands need boxing between them
    (S(0) <-> S(1) <-> B <-> P on every mesh axis), keeping only every few results alive."""
    axes = len(placement.hierarchy)
    layouts = [(S(0),) * axes, (S(1),) * axes, (B,) * axes, (S(0),) + (S(1),) * (axes - 1)]
    x = mf.tensor(logical_value((12, 10)) / 16, placement=placement, sbp=layouts[0])
    w = mf.tensor(logical_value((10, 10)) / 32, placement=placement, sbp=(B,) * axes)
    kept = []
    for i in range(steps):
        y = mf.matmul(x, w)                              # partial or split results, by inference
        y = mf.tanh(y) + x.to_global(sbp=layouts[i % len(layouts)])
        x = y * 0.5 + mf.sum(y, 0, keepdim=True) / 64     # a reduction across the split rows
        if i % 7 == 0:
            kept.append(x.to_global(sbp=(P,) * axes if i % 14 == 0 else layouts[(i + 1) % len(layouts)]))
        # every other intermediate is dropped here while its instructions may still be queued
    return [t.numpy() for t in kept] + [x.numpy()]


@pytest.mark.parametrize("shape", [(2,), (4,), (2, 2)], ids=str)
def test_mixed_sequence_equals_blocking_mode(shape, world):
    placement = mesh(shape, world)
    async_values = mixed_sequence(placement)
    blocking_values = in_blocking_mode(lambda: mixed_sequence(placement))
    for a, b in zip(async_values, blocking_values):
        np.testing.assert_array_equal(a, b)
    # And equal to one device, to float rounding: 60 chained steps, whose sums each layout
    # adds in another order (split rows, vectorized lanes), grow it past a single rounding.
    local = mf.placement("cpu", ranks=[0])
    one_device = mixed_sequence(local)
    for a, b in zip(async_values, one_device):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("layout", ["2x1x1", "1x2x1", "2x2x1", "4x1x1"])
def test_gpt_losses_equal_blocking_mode(layout, world):
    import train
    d, m = int(layout[0]), int(layout[2])
    if d * m > world:
        pytest.skip(f"needs {d * m} ranks")

    def losses():
        args = train.parse_args(["--layout", f"{layout}_4_32x1", "--steps", "3", "--block", "16", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "1"])
        return np.array(train.train(args, train.mesh(d, m))["losses"])

    np.testing.assert_array_equal(losses(), in_blocking_mode(losses))


def test_kernel_error_surfaces_at_the_next_sync_on_every_rank(world):
    placement = mesh((world,), world)
    weight = mf.tensor(logical_value((6, 3)), placement=placement, sbp=S(0))
    bad = mf.tensor(np.array([0, 5, 6, 1]), placement=placement, sbp=S(0))  # 6 is out of range, on one rank
    out = F.embedding(bad, weight)            # returns at once: the kernel has not run yet
    assert out.shape == (4, 3)
    later = out * 2 + 1                       # queued behind the failed op
    with pytest.raises(ValueError, match=r"\[embedding\] index 6 is out of range"):
        mf.synchronize()
    with pytest.raises(ValueError, match=r"\[embedding\] index 6 is out of range"):
        later.numpy()                         # what depends on it stays failed
    good = F.embedding(mf.tensor(np.array([0, 5, 2, 1]), placement=placement, sbp=S(0)), weight)
    np.testing.assert_array_equal(good.numpy(), logical_value((6, 3))[[0, 5, 2, 1]])


def test_user_thread_collectives_keep_program_order(world):
    # make_global's argument check and metadata exchange run on the comm stream after the
    # boxing already queued there, so they match across ranks whatever is in flight.
    placement = mesh((world,), world)
    x = mf.tensor(logical_value((8 * world, 16)), placement=placement, sbp=S(0))
    pending = [x.to_global(sbp=B).to_global(sbp=S(1)) for _ in range(5)]
    part = mf.from_numpy(np.full((2, 16), mf.env.get_rank(), np.float32)).to_global(placement=placement, sbp=S(0))
    expected = np.repeat(np.arange(world, dtype=np.float32), 2)[:, None] * np.ones((1, 16), np.float32)
    np.testing.assert_array_equal(part.numpy(), expected)
    for t in pending:
        np.testing.assert_array_equal(t.numpy(), logical_value((8 * world, 16)))


def test_memory_stats_count_live_tensors():
    mf.synchronize()
    before = mf.memory_stats()["cpu"]
    x = mf.tensor(np.ones((256, 1024), np.float32))  # 1 MiB
    y = x * 2
    y.numpy()
    during = mf.memory_stats()["cpu"]
    assert during["in_use_bytes"] >= before["in_use_bytes"] + (1 << 20)
    assert during["peak_bytes"] >= during["in_use_bytes"]
    del x, y
    mf.synchronize()
    after = mf.memory_stats()["cpu"]
    assert after["in_use_bytes"] <= during["in_use_bytes"] - (1 << 20)
    assert after["cached_bytes"] >= 1 << 20


def two_layer_grads(placement, bucket_bytes):
    """Gradients of a tensor-parallel 2-layer net on `placement` (data parallel on axis 0;
    on a 2-d mesh the first weight column-split and the second row-split on axis 1), uneven
    shapes, with backward's gradient buckets of `bucket_bytes`; also the all-reduces issued."""
    axes = len(placement.hierarchy)
    tp = lambda s: (B,) + (s,) * (axes - 1)  # noqa: E731
    w1 = mf.tensor(logical_value((7, 10)) / 16, placement=placement, sbp=tp(S(1)), requires_grad=True)
    b1 = mf.tensor(logical_value((10,)) / 8, placement=placement, sbp=tp(S(0)), requires_grad=True)
    w2 = mf.tensor(logical_value((10, 5)) / 16, placement=placement, sbp=tp(S(0)), requires_grad=True)
    b2 = mf.tensor(logical_value((5,)) / 8, placement=placement, sbp=(B,) * axes, requires_grad=True)
    scale = mf.tensor(np.array([0.5], np.float32), placement=placement, sbp=(B,) * axes, requires_grad=True)
    x = mf.tensor(logical_value((9, 7)) / 8, placement=placement, sbp=(S(0),) + (B,) * (axes - 1))
    previous = mf.set_grad_bucket_size(bucket_bytes)
    try:
        before = mf.comm_stats()["all_reduce"]
        h = mf.relu(mf.matmul(x, w1) + b1)
        y = mf.matmul(h, w2) + b2
        loss = mf.sum(y * y * scale) + mf.sum(h * scale)  # `scale` is used twice: its gradient sums both first
        loss.backward()
        grads = [p.grad.numpy() for p in (w1, b1, w2, b2, scale)]
        return grads, mf.comm_stats()["all_reduce"] - before
    finally:
        mf.set_grad_bucket_size(previous)


@pytest.mark.parametrize("shape", [(2,), (4,), (2, 2)], ids=str)
def test_gradient_buckets_equal_unbucketed_gradients_and_issue_fewer_all_reduces(shape, world):
    placement = mesh(shape, world)
    unbucketed, reduces_alone = two_layer_grads(placement, 0)
    one_each, reduces_one_each = two_layer_grads(placement, 1)       # every bucket full at once
    bucketed, reduces_bucketed = two_layer_grads(placement, 4 << 20)  # all in one bucket per group
    for a, b, c in zip(unbucketed, one_each, bucketed):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    assert reduces_one_each == reduces_alone
    if mf.env.get_rank() < np.prod(shape):  # ranks outside the placement issue nothing
        assert reduces_bucketed < reduces_alone
    one_device, _ = two_layer_grads(mf.placement("cpu", ranks=[0]), 0)
    for a, b in zip(bucketed, one_device):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_gradient_bucket_size_must_not_be_negative():
    with pytest.raises(ValueError, match="grad bucket size must be >= 0 bytes"):
        mf.set_grad_bucket_size(-1)


def test_a_global_op_from_a_second_thread_raises_there_and_the_job_goes_on(world):
    # Every rank must issue collectives in one order; threads do not keep one. The thread
    # that issued the first collective may issue more; another raises at once, before it
    # communicates, on every rank that tries.
    import threading
    p = mesh([2], world)
    x = mf.tensor(np.arange(12.0).reshape(4, 3), placement=p, sbp=S(0))
    assert x.sum().item() == 66.0  # this thread issues collectives
    caught = []

    def log_the_total():
        try:
            x.sum().item()
        except RuntimeError as e:
            caught.append(str(e))

    t = threading.Thread(target=log_the_total)
    t.start()
    t.join(timeout=60)
    assert not t.is_alive()
    assert len(caught) == 1 and "a collective issued from a second thread" in caught[0], caught
    np.testing.assert_array_equal((x * 2).to_global(sbp=B).numpy(), np.arange(12.0).reshape(4, 3) * 2)


@pytest.mark.parametrize("call", ["numpy", "to_global", "save"])
def test_calls_that_agree_first_from_a_second_thread_raise_before_they_communicate(world, call, tmp_path):
    # A read, a conversion or a save checks its arguments with the other ranks before it moves
    # anything: from a second thread that agreement is refused too (else it would be matched
    # with another rank's agreement from its training thread, or wait forever).
    import threading
    p = mesh([2], world)
    x = mf.tensor(np.arange(12.0).reshape(4, 3), placement=p, sbp=S(0))
    assert x.sum().item() == 66.0  # this thread issues collectives
    calls = {"numpy": lambda: x.numpy(), "to_global": lambda: x.to_global(sbp=B),
             "save": lambda: mf.save({"x": x}, str(tmp_path / "ckpt"))}
    caught = []

    def other():
        try:
            calls[call]()
        except RuntimeError as e:
            caught.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join(timeout=60)
    assert not t.is_alive()
    assert len(caught) == 1 and "a collective issued from a second thread" in caught[0], caught
    np.testing.assert_array_equal(x.to_global(sbp=B).numpy(), np.arange(12.0).reshape(4, 3))
