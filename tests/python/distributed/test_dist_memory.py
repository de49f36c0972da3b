"""The per-rank memory limit and activation checkpointing on several ranks: a data-parallel
model over the limit raises mf.OutOfMemoryError on every rank (also where only one rank ran
out), which the program catches and goes on with a smaller batch, equal to one device; a
checkpointed model's gradients equal the plain run's bitwise and one device's."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow import sbp
from meshflow.utils.checkpoint import checkpoint

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


# Known defect (issue 36's note): on 4 ranks the out-of-memory falls inside a collective's
# own buffers on some rank, which ends the job by design instead of raising; to be fixed
# by agreeing on the outcome before the collective. Runs on 1 and 2 ranks until then.
@pytest.mark.skipif(mf.env.get_world_size() > 2, reason="out of memory in a collective's buffers ends a 4-rank job")
@pytest.mark.parametrize("device", ["cpu"])
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
