"""Optimizer steps in place on global parameters (every layout, uneven parts): equal to one
device, allocating no parameter's worth of memory, ordered after the conversions issued
before them on the comm stream; and the version counter's error on every rank."""
import numpy as np
import pytest

import meshflow as mf
from sbp_reference import B, S


def _ranks():
    return list(range(mf.env.get_world_size()))


def _grads(shape, k):
    return np.random.default_rng(k).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("sbp", [S(0), S(1), B], ids=repr)
@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_adamw_steps_in_place_on_global_parameters_equal_one_device(sbp, device):
    shape = (7, 5)  # uneven parts on 2 and 4 ranks
    start = np.linspace(-1, 1, 35, dtype=np.float32).reshape(shape)
    placement = mf.placement(device, ranks=_ranks())
    w = mf.tensor(start, placement=placement, sbp=sbp, requires_grad=True)
    ref = mf.tensor(start, requires_grad=True)
    opt = mf.optim.AdamW([w], lr=0.1, weight_decay=0.1)
    ref_opt = mf.optim.AdamW([ref], lr=0.1, weight_decay=0.1)
    for k in range(3):
        w.grad = mf.tensor(_grads(shape, k), placement=placement, sbp=sbp)
        ref.grad = mf.tensor(_grads(shape, k))
        mf.synchronize()
        before = mf.memory_stats(device)["in_use_bytes"]
        mf.reset_peak_memory_stats(device)
        opt.step()
        ref_opt.step()
        mf.synchronize()
        grown = mf.memory_stats(device)["peak_bytes"] - before
        if k > 0:  # the first step makes the state
            assert grown <= 7 * 5 * 4, grown
        assert w.sbp == (sbp,)
    np.testing.assert_array_equal(w.numpy(), ref.numpy())


@pytest.mark.skipif(mf.env.get_world_size() < 2, reason="needs 2 ranks: on one, S(0) -> B moves nothing and aliases")
def test_a_step_waits_for_a_conversion_queued_before_it_on_the_comm_stream():
    """The conversion reads the parameter on the comm stream, queued behind a large
    all-reduce; the step issued after it writes the parameter's memory on the compute
    stream: it must wait, and the conversion sees the old value."""
    placement = mf.placement("cpu", ranks=_ranks())
    start = np.arange(12, dtype=np.float32).reshape(6, 2)
    w = mf.tensor(start, placement=placement, sbp=S(0), requires_grad=True)
    opt = mf.optim.SGD([w], lr=1.0)
    w.grad = mf.ones(6, 2, placement=placement, sbp=S(0))
    mf.synchronize()
    big = mf.ones(1 << 22, placement=placement, sbp=B).to_global(sbp=mf.sbp.partial_sum)
    reduced = big.to_global(sbp=B)  # an all-reduce: keeps the comm stream busy
    part = w.to_global(sbp=B)  # an all-gather reading w there, after it
    opt.step()
    np.testing.assert_array_equal(part.numpy(), start)
    np.testing.assert_array_equal(w.numpy(), start - 1)
    assert reduced[0].item() == 1


def test_backward_after_a_step_raises_on_every_rank():
    placement = mf.placement("cpu", ranks=_ranks())
    w = mf.tensor(np.ones((5, 3), np.float32), placement=placement, sbp=S(0), requires_grad=True)
    loss = (w * w).sum()
    w.grad = mf.ones(5, 3, placement=placement, sbp=S(0))
    mf.optim.SGD([w], lr=0.1).step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()
    assert w._version == 1
