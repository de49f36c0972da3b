"""The per-rank memory limit and activation checkpointing on several ranks: a data-parallel
model over the limit raises mf.OutOfMemoryError on every rank (also where only one rank ran
out, in its kernels or inside a collective's own buffers, on the CPU and the test device; in
a ZeRO stage 3 gather; in a tensor made from host data; in backward's zeros and seed; in the example
GPT's setup), which the program catches and goes on
with a smaller batch, equal to one device; a
checkpointed model's gradients equal the plain run's bitwise and one device's; a backward
that an error ends holds none of its gradients after it; and a GPT that does not fit a
rank's limit under data parallelism trains under it with ZeRO stage 3 and activation
checkpointing, as on one device."""
import gc
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow import sbp
from meshflow.utils.checkpoint import checkpoint

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "gpt"))
import train  # noqa: E402

MiB = 1 << 20


def world_mesh(device="cpu"):
    return mf.placement(device, ranks=list(range(mf.env.get_world_size())))


def model_on(placement):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 2048), nn.GELU(), nn.Linear(2048, 64))
    if placement is not None:
        model.to_global(placement, lambda name, p: sbp.broadcast)
    return model


def loss_of(model, batch, placement):
    """A data-parallel step's loss, read (a collective read) before any update."""
    mf.manual_seed(1)
    kw = {"placement": placement, "sbp": sbp.split(0)} if placement is not None else {}
    x = mf.randn(batch, 64, **kw)
    try:
        loss = F.mse_loss(model(x), mf.zeros(batch, 64, **kw))
        loss.backward()
        return loss.item(), [p.grad.numpy() for p in model.parameters()]
    finally:
        model.zero_grad(set_to_none=True)  # a failed step's gradients failed too: dropped


# On 4 ranks the out of memory also strikes inside the gradients' all-reduce buffers.
@pytest.mark.parametrize("device", ["cpu", "testdev"])
@pytest.mark.parametrize("who", ["every rank", "rank 0"])
def test_out_of_memory_raises_on_every_rank_and_a_smaller_batch_then_fits(device, who):
    placement = world_mesh(device)
    model = model_on(placement)
    loss_of(model, 64, placement)  # warm
    dev = mf.device(device)
    limited = who == "every rank" or mf.env.get_rank() == 0
    mf.synchronize()
    mf.empty_cache(dev)
    if limited:
        mf.set_memory_limit(mf.memory_reserved(dev) + 24 * MiB, device=dev)
    try:
        with pytest.raises(mf.OutOfMemoryError, match="is out of memory: asked for") as caught:
            loss_of(model, 8192 * mf.env.get_world_size(), placement)  # 64 MiB of hidden activation a rank
        if not limited:
            assert "(raised on rank 0)" in str(caught.value)  # learned from the rank that ran out
        mf.synchronize()
        value, grads = loss_of(model, 64, placement)  # within the same limit
    finally:
        mf.set_memory_limit(None, device=dev)
    local_value, local_grads = loss_of(model_on(None), 64, None)
    assert abs(value - local_value) <= 1e-6 * abs(local_value)
    for g, e in zip(grads, local_grads):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-7)


# (tensors', limited device): the collective's buffers in the tensors' memory, or the host
# memory that stages a test device's collective.
@pytest.mark.parametrize("device, limited", [("cpu", "cpu"), ("testdev", "testdev"), ("testdev", "cpu")],
                         ids=["cpu", "testdev", "testdev staged through a limited host"])
@pytest.mark.parametrize("who", ["every rank", "rank 0"])
def test_out_of_memory_inside_a_collective_raises_on_every_rank_which_then_goes_on(device, limited, who):
    world = mf.env.get_world_size()
    if world < 2:
        pytest.skip("a collective needs 2 ranks")
    placement = world_mesh(device)
    rows = 1024  # 4 MiB a rank; gathered, 4 MiB times the ranks
    x = mf.ones(world * rows, 1024, placement=placement, sbp=sbp.split(0))
    small = mf.arange(8 * world, dtype=mf.float32).reshape(2 * world, 4).to_global(
        placement=placement, sbp=sbp.broadcast).to_global(sbp=sbp.split(0))
    mf.synchronize()
    dev = mf.device(limited)
    mf.empty_cache(dev)
    before = mf.memory_allocated(mf.device(device))
    if who == "every rank" or mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_reserved(dev) + 6 * MiB, device=dev)
    try:
        # Every rank raises, the limited one's error: the collective's status words tell the
        # others (boxing/execute.h, PartStatus), though each reads the broadcast sum alone.
        with pytest.raises(mf.OutOfMemoryError) as caught:
            x.to_global(sbp=sbp.broadcast).sum().item()  # the all-gather's output does not fit
        message = str(caught.value)
        assert message.startswith("[to_global] ") and "is out of memory: asked for" in message and "in use by tensors and" in message, message
        assert "cached" in message and "its limit is" in message, message
        mf.synchronize()  # nothing else is left to raise
        assert mf.memory_allocated(mf.device(device)) < before + MiB  # the gathered buffers are freed
        # Within the same limit, a collective that fits, and its value.
        np.testing.assert_array_equal(small.to_global(sbp=sbp.broadcast).numpy(),
                                      np.arange(8 * world, dtype=np.float32).reshape(-1, 4))
    finally:
        mf.set_memory_limit(None, device=dev)


def test_a_read_on_a_rank_beyond_its_limit_raises_there(world):
    """A read of a value that is ready (a broadcast one: its copy is made on the issuing
    thread) on a rank whose memory is beyond its limit, as a collective in flight holds it
    (its LimitOverdraft, an all-gather waiting for a slower peer): the copy ran out of memory
    on that rank alone; a broadcast value is read where it is, with no collective, so that
    rank raises it and the others read their copies. A rank's own read
    of a value it made (item(), whose empty Tensor was refused its 64 bytes) raises nothing.
    Rank 0's limit is set to what it has in use, so that its copy (1 MiB: no thread's cache
    of small blocks serves it) is refused at once, whatever the machine's speed (an all-gather
    held back by another rank's work left the read a window of that work's length)."""
    if world < 2:
        pytest.skip("one rank alone needs 2 ranks")
    placement = world_mesh()
    n = 1 << 18
    ready = mf.arange(n, dtype=mf.float32).to_global(placement=placement, sbp=sbp.broadcast)
    own = mf.ones(1)  # this rank's own value
    mf.synchronize()
    mf.empty_cache()
    if mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_allocated())
    try:
        assert own.item() == 1.0  # a rank's own read of a value made within the limit
        if mf.env.get_rank() == 0:
            with pytest.raises(mf.OutOfMemoryError, match="is out of memory: asked for"):
                ready.numpy()
        else:  # a broadcast value is read where it is, alone: the others' copies fit
            np.testing.assert_array_equal(ready.numpy(), np.arange(n, dtype=np.float32))
    finally:
        mf.set_memory_limit(None)
    np.testing.assert_array_equal(ready.numpy(), np.arange(n, dtype=np.float32))


@pytest.mark.parametrize("blocking", [False, True], ids=["queued", "blocking"])
def test_out_of_memory_on_one_rank_waits_for_a_read_every_rank_makes(blocking):
    """An out of memory on one rank, in its kernels, in ZeRO stage 3's gathers (which the VM
    paces by waiting for them), in a rank's own op on local tensors, in a tensor made from
    its host data (mf.tensor: which raised there, on that rank alone) and in host data placed
    on the ranks (its part sliced at the call): raised by no wait of
    that rank's alone (its synchronize(), the gathers' pacing, a blocking launch), which would
    part the ranks, but by the next read on every rank; then the program goes on."""
    world = mf.env.get_world_size()
    if world < 2:
        pytest.skip("one rank alone needs 2 ranks")
    placement = world_mesh()
    mf.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(512, 512) for _ in range(4)])  # 1 MiB a weight
    model.to_global(placement, lambda name, p: sbp.broadcast)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, zero_stage=3)
    x = mf.ones(4 * world, 512, placement=placement, sbp=sbp.split(0))

    def step(update=True):
        loss = model(x).square().mean()
        loss.backward()
        if update:  # a step after an out of memory would fail the parameters it updates
            opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    step().item()  # warm
    expected = model(x).square().mean().item()
    mf.synchronize()
    mf.empty_cache(mf.device("cpu"))
    previous = mf._C.launch_blocking()
    mf._C.set_launch_blocking(blocking)
    if mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_reserved(mf.device("cpu")) + MiB // 2)
    try:
        loss = step(update=False)  # every gathered weight is over rank 0's limit
        own = mf.ones(1 << 20)  # 4 MiB of this rank's own
        host = mf.tensor(np.ones(1 << 20, np.float32))  # and 4 MiB from host data, made as it is called
        # Host data placed on every rank: its part (columns: a copy) is sliced from it at the call.
        placed = mf.tensor(np.ones((world, 1 << 19), np.float32), placement=placement, sbp=sbp.split(1))
        mf.synchronize()  # this rank's wait: raises nothing yet
        with pytest.raises(mf.OutOfMemoryError, match="is out of memory: asked for"):
            loss.item()
        with pytest.raises(mf.OutOfMemoryError):  # rank 0's part failed: every rank raises
            placed.sum().item()
        if mf.env.get_rank() == 0:
            for failed in (own, host):  # its own failed values
                with pytest.raises(mf.OutOfMemoryError):
                    failed.numpy()
        mf.synchronize()
    finally:
        mf.set_memory_limit(None)
        mf._C.set_launch_blocking(previous)
    assert step().item() == expected  # the parameters as they were before the failed step


def test_an_out_of_memory_in_the_zeros_backward_makes_raises_on_every_rank(world):
    """Backward makes zeros for an output that got no gradient (the unused part of a split)
    as it goes, on the issuing thread: beyond one rank's limit they raised there, on that
    rank alone, which left backward while the others went on into the next read (the ranks
    parted); they fail instead, and every rank raises it at the read, then goes on."""
    if world < 2:
        pytest.skip("one rank alone needs 2 ranks")
    x = mf.ones(world * 1024, 2048, placement=world_mesh(), sbp=sbp.split(0)).requires_grad_()

    def grad_sum():
        used, unused = x.split([64, 1984], dim=1)  # the unused part's zeros: 7.75 MiB a rank
        used.sum().backward()
        try:
            return x.grad.sum().item()
        finally:
            x.grad = None

    assert grad_sum() == world * 1024 * 64
    mf.synchronize()
    mf.empty_cache()
    if mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_reserved() + 4 * MiB)
    try:
        with pytest.raises(mf.OutOfMemoryError, match=r"\[zeros\] .* is out of memory: asked for"):
            grad_sum()
        mf.synchronize()
    finally:
        mf.set_memory_limit(None)
    assert grad_sum() == world * 1024 * 64


@pytest.mark.parametrize("roots", ["one", "two"])
def test_an_out_of_memory_in_backward_s_seed_raises_on_every_rank(world, roots):
    """backward() without a gradient makes its seed (a one-element 1, and with several roots
    the scalar that joins them) on the issuing thread: with no byte left under one rank's
    limit they raised there, on that rank alone, which left backward while the others went
    on into its gradient reductions (the ranks parted); they fail instead, and every rank
    raises it at the next read, then goes on."""
    if world < 2:
        pytest.skip("one rank alone needs 2 ranks")
    placement = world_mesh()
    mf.manual_seed(0)
    model = nn.Linear(64, 64)
    model.to_global(placement, lambda name, p: sbp.broadcast)
    x = mf.randn(4 * world, 64, placement=placement, sbp=sbp.split(0))

    def losses():
        y = model(x)
        return [y.sum()] if roots == "one" else [y.sum(), y.mean()]

    def backward(ls):
        if len(ls) == 1:
            ls[0].backward()
        else:
            mf.autograd.backward(ls)
        mf.synchronize()  # this rank's: raises nothing

    backward(losses())
    expected = model.weight.grad.numpy()
    model.zero_grad(set_to_none=True)
    ls = losses()  # the forward within the limits
    mf.synchronize()
    mf.empty_cache()
    if mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_allocated())  # not a byte more than in use
    try:
        backward(ls)  # raises nothing on any rank: rank 0's failure waits for a read
        # A broadcast value is read where it is, with no collective, but the gradient
        # all-reduce carried rank 0's status word (boxing/execute.h, PartStatus): every rank
        # raises rank 0's out of memory.
        with pytest.raises(mf.OutOfMemoryError, match="is out of memory: asked for"):
            model.weight.grad.sum().item()
        mf.synchronize()
    finally:
        mf.set_memory_limit(None)
        model.zero_grad(set_to_none=True)
    backward(losses())
    np.testing.assert_array_equal(model.weight.grad.numpy(), expected)


def test_a_backward_that_an_error_ends_holds_none_of_its_gradients_after_it(world):
    """backward() orders each gradient reduction after the one before it, holding the last
    one issued; a backward that an error ends (here a hook's) holds it no longer either: the
    gradients' memory goes back once the program drops them."""
    if world < 2:
        pytest.skip("gradient reductions need 2 ranks")
    placement = world_mesh()
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 512), nn.GELU(), nn.Linear(512, 512))  # the last weight: 1 MiB
    model.to_global(placement, lambda name, p: sbp.broadcast)
    x = mf.randn(8 * world, 64, placement=placement, sbp=sbp.split(0))

    def step(hook=None):
        h = model[1](model[0](x))
        if hook is not None:
            h.register_hook(hook)
        model[2](h).sum().backward()

    def stop(grad):
        raise RuntimeError("stopped by a hook")

    previous = mf.set_grad_bucket_size(1)  # each gradient reduced as it is final
    try:
        step()  # warm
        model.zero_grad(set_to_none=True)
        mf.synchronize()
        before = mf.memory_allocated()
        with pytest.raises(RuntimeError, match="stopped by a hook"):
            step(stop)  # after the last layer's gradients were reduced
        assert model[2].weight.grad is not None
        model.zero_grad(set_to_none=True)
        mf.synchronize()
        assert mf.memory_allocated() <= before
    finally:
        mf.set_grad_bucket_size(previous)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.ln = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.proj = nn.Linear(4 * width, width)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln(x)))))


def grads_of(blocks, x, use_checkpoint):
    blocks.zero_grad()
    x = x.detach().requires_grad_(True)
    mf.manual_seed(5)
    h = x
    for b in blocks:
        h = checkpoint(b, h) if use_checkpoint else b(h)
    loss = (h ** 2).mean()
    loss.backward()
    return [loss.numpy()] + [p.grad.numpy() for p in blocks.parameters()] + [x.grad.numpy()]


def test_checkpointed_global_model_equals_the_plain_run_bitwise_and_one_device():
    mf.manual_seed(0)
    blocks = nn.ModuleList(Block(16) for _ in range(3))
    x_full = mf.randn(4 * mf.env.get_world_size(), 6, 16)
    local_plain = grads_of(blocks, x_full, False)
    placement = world_mesh()
    # Data parallel on the first block's fc, tensor parallel (column, row) on the others'.
    blocks.to_global(placement, lambda name, p: sbp.split(0) if name.endswith("fc.weight") and not
                     name.startswith("0.") else sbp.split(1) if name.endswith("proj.weight") and not
                     name.startswith("0.") else sbp.broadcast)
    x = x_full.to_global(placement, sbp.broadcast).to_global(sbp=sbp.split(0))
    plain = grads_of(blocks, x, False)
    checked = grads_of(blocks, x, True)
    for a, b in zip(plain, checked):
        assert np.array_equal(a, b)
    for a, b in zip(checked, local_plain):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6)


def gpt(layout, *options):
    """The example's GPT, 3 steps on the layout (on the first ranks of the world); its summary."""
    args = train.parse_args(["--layout", layout, "--steps", "3", "--block", "32", "--heads", "2", "--sample", "0",
                             "--log-every", "100", "--warmup", "2", *options])
    d = int(layout.split("x")[0])
    return train.train(args, train.mesh(d, 1))


def test_an_out_of_memory_of_one_rank_in_the_gpt_s_setup_raises_on_every_rank(world):
    """An out of memory that strikes one rank alone while the example builds its model is
    raised on every rank, at the first step's loss (the ranks agree there), not by that
    rank alone at the wait for the setup (the others would go on into collectives that it
    never makes, and the job ends in MPI's buffers); the next run then trains as usual."""
    if world < 2:
        pytest.skip("needs 2 ranks")
    layout = f"{world}x1x1_{2 * world}_128x2"
    gc.collect()
    mf.synchronize()
    mf.empty_cache()
    if mf.env.get_rank() == 0:
        mf.set_memory_limit(mf.memory_reserved() + 2 * MiB)  # the model's setup takes more
    try:
        with pytest.raises(mf.OutOfMemoryError, match="is out of memory: asked for"):
            gpt(layout)
    finally:
        mf.set_memory_limit(None)
    gc.collect()
    assert np.all(np.isfinite(gpt(layout)["losses"]))


def whole_run_peak(layout, *options, blocking=False):
    """The highest rank's peak memory over a whole run of gpt(), the model's setup included
    (a limit must let the lean run build its model too); `blocking`: each op run as it is
    issued, which gives a run's least peak (asynchronously, queued work may hold more)."""
    gc.collect()  # earlier runs' models and optimizers, held by reference cycles
    mf.synchronize()
    mf.reset_peak_memory_stats()
    previous = mf._C.launch_blocking()
    mf._C.set_launch_blocking(blocking)
    try:
        gpt(layout, *options)
        mf.synchronize()
    finally:
        mf._C.set_launch_blocking(previous)
    mine = mf.tensor([mf.max_memory_allocated()], dtype=mf.int64)
    return int(mine.to_global(placement=world_mesh(), sbp=sbp.split(0)).numpy().max())


def test_a_gpt_over_the_limit_under_data_parallelism_trains_with_stage_3_and_checkpointing(world):
    """The floor of issue 36: under one limit on every rank, plain data parallelism raises
    an out of memory on every rank (nothing hangs), and ZeRO stage 3 with every block
    checkpointed trains, with one device's losses."""
    if world < 2:
        pytest.skip("data parallelism needs 2 ranks")
    # 4 sequences per rank: plain data parallelism's activations and optimizer state then
    # stand well above what the lean run needs, its model's setup included.
    layout = f"{world}x1x1_{4 * world}_128x2"
    reference = gpt("1x1x1" + layout[5:])["losses"]
    # The limit lies between what plain data parallelism needs with its ops run as issued
    # (blocking) and what the lean run took as it ran (asynchronously), nearer the first: an
    # asynchronous run's peak varies with how far the host runs ahead, a blocking one's does
    # not, so the plain run under the limit runs blocking too (which also raises on every
    # rank together), and the lean one asynchronously, as programs run. Whether a run fits
    # depends on what it has in use alone, not on what the suite's earlier tests left cached
    # (a cached block is no way past the limit).
    lean = whole_run_peak(layout, "--zero", "3", "--checkpoint-activations")
    plain = whole_run_peak(layout, blocking=True)
    assert lean < 0.9 * plain, (lean, plain)
    limit = str(lean + 2 * (plain - lean) // 3)
    try:
        previous = mf._C.launch_blocking()
        mf._C.set_launch_blocking(True)
        try:
            gpt(layout, "--memory-limit", limit)
            raise AssertionError(f"plain data parallelism fit under the limit {limit} (lean {lean}, plain {plain})")
        except mf.OutOfMemoryError as e:
            message = str(e)
        finally:
            mf._C.set_launch_blocking(previous)
        assert "is out of memory: asked for" in message and "its limit is" in message, message
        gc.collect()  # the failed run's model and optimizer, held by reference cycles
        lean_run = gpt(layout, "--zero", "3", "--checkpoint-activations", "--memory-limit", limit)
    finally:
        mf.set_memory_limit(None)
    assert max(lean_run["peak_memory_bytes"][:world]) <= int(limit)
    np.testing.assert_allclose(lean_run["losses"], reference, rtol=2e-5)
