"""Activation checkpointing (mf.utils.checkpoint) on one process: gradients bitwise equal to
the run without it (dropout drawing the same elements in the recomputation), on the CPU and
the test device; nested checkpoints, checkpoint_sequential, autograd.grad through one, kwargs
and non-tensor outputs; and the activation memory it saves (measured peak)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    """A pre-LN MLP block with dropout and a residual."""

    def __init__(self, width, p=0.1):
        super().__init__()
        self.ln = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.proj = nn.Linear(4 * width, width)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln(x)))))


class Stack(nn.Module):
    def __init__(self, width=32, depth=4, p=0.1):
        super().__init__()
        self.blocks = nn.ModuleList(Block(width, p) for _ in range(depth))
        self.use_checkpoint = False

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_checkpoint else b(x)
        return x


def run(model, x, use_checkpoint, seed=7):
    """Loss and every gradient (parameters, then the input), as NumPy, after one backward."""
    model.use_checkpoint = use_checkpoint
    model.zero_grad()
    x = x.detach().requires_grad_(True)
    mf.manual_seed(seed)
    loss = (model(x) ** 2).mean()
    loss.backward()
    return [loss.numpy()] + [p.grad.numpy() for p in model.parameters()] + [x.grad.numpy()]


def assert_bitwise(a, b):
    assert len(a) == len(b)
    for u, v in zip(a, b):
        assert u.dtype == v.dtype and np.array_equal(u, v)


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_gradients_equal_the_run_without_it_bitwise_with_dropout(device):
    mf.manual_seed(0)
    model = Stack().to(device)
    x = mf.randn(8, 5, 32, device=device)
    plain = run(model, x, False)
    checked = run(model, x, True)
    assert_bitwise(plain, checked)
    assert not np.array_equal(run(model, x, True, seed=8)[0], checked[0])  # dropout is on: the seed matters


def test_the_generator_goes_on_as_without_it():
    mf.manual_seed(0)
    model = Stack()
    x = mf.randn(4, 32)
    run(model, x, False)
    after_plain = mf.get_rng_state()
    run(model, x, True)
    assert mf.equal(mf.get_rng_state(), after_plain)  # recomputation restores the state it found


def test_nested_checkpoints_and_sequential_give_the_same_gradients():
    mf.manual_seed(0)
    blocks = nn.Sequential(*[Block(16) for _ in range(5)])
    x = mf.randn(3, 16)

    def grads(forward):
        blocks.zero_grad()
        xi = x.detach().requires_grad_(True)
        mf.manual_seed(3)
        (forward(xi) ** 2).sum().backward()
        return [p.grad.numpy() for p in blocks.parameters()] + [xi.grad.numpy()]

    plain = grads(blocks)
    assert_bitwise(plain, grads(lambda xi: checkpoint_sequential(blocks, 2, xi)))
    assert_bitwise(plain, grads(lambda xi: checkpoint_sequential(blocks, 5, xi)))

    def nested(xi):
        def two(y, k):
            return blocks[k + 1](checkpoint(blocks[k], y))
        y = checkpoint(two, xi, 0)
        y = checkpoint(two, y, 2)
        return blocks[4](y)
    assert_bitwise(plain, grads(nested))


def test_autograd_grad_kwargs_and_outputs_of_several_kinds():
    mf.manual_seed(0)
    lin = nn.Linear(6, 6)
    x = mf.randn(2, 6, requires_grad=True)

    def fn(a, scale=1.0, bias=None):
        h = lin(a) * scale + bias
        return h, "note", h.sum()

    bias = mf.randn(6)
    out, note, total = checkpoint(fn, x, scale=2.0, bias=bias)
    assert note == "note"
    gx, gw = mf.autograd.grad((out ** 2).sum() + total, [x, lin.weight])
    h, _, t = fn(x, scale=2.0, bias=bias)
    ex, ew = mf.autograd.grad((h ** 2).sum() + t, [x, lin.weight])
    assert np.array_equal(gx.numpy(), ex.numpy()) and np.array_equal(gw.numpy(), ew.numpy())
    assert lin.weight.grad is None  # grad() leaves .grad alone, also through a checkpoint


def test_without_grad_or_parameters_it_is_the_plain_call():
    x = mf.randn(2, 3)
    with mf.no_grad():
        y = checkpoint(lambda a: a * 2, x)
    assert y.grad_fn is None
    assert checkpoint(lambda a: a * 2, x).grad_fn is None  # nothing requires grad
    assert checkpoint(lambda a: a * 2, x.requires_grad_(True)).grad_fn.name() == "CheckpointBackward"
    with pytest.raises(TypeError, match="checkpoint: the function returned int"):
        checkpoint(lambda a: 3, x)


@pytest.mark.parametrize("reentrant", [True, False])
def test_a_transformer_encoder_checkpointed_layer_by_layer_trains_bitwise_as_without(reentrant):
    """torch.utils.checkpoint-style user code: a loop over an encoder's layers, each through
    checkpoint with a mask (positional with use_reentrant=True, which takes no keywords in
    torch), dropout on."""
    mf.manual_seed(0)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, batch_first=True), 3)
    x = mf.randn(4, 6, 32)
    mask = nn.Transformer.generate_square_subsequent_mask(6)

    def losses(checkpointed):
        result = []
        for seed in (1, 2):
            encoder.zero_grad()
            mf.manual_seed(seed)
            h = x
            for layer in encoder.layers:
                if not checkpointed:
                    h = layer(h, src_mask=mask)
                elif reentrant:
                    h = checkpoint(layer, h, mask, use_reentrant=True)
                else:
                    h = checkpoint(layer, h, src_mask=mask, use_reentrant=False)
            loss = (h ** 2).mean()
            loss.backward()
            result += [loss.numpy()] + [p.grad.numpy() for p in encoder.parameters()]
        return result

    assert_bitwise(losses(False), losses(True))


def peak_and_time(model, x, use_checkpoint):
    """Peak bytes in use over a training step beyond what was in use before it."""
    device = x.device.type
    model.use_checkpoint = use_checkpoint
    model.zero_grad(set_to_none=True)
    mf.synchronize()
    mf.reset_peak_memory_stats(device)
    before = mf.memory_allocated(device)
    loss = (model(x) ** 2).mean()
    loss.backward()
    loss.item()
    mf.synchronize()
    return mf.max_memory_allocated(device) - before


# On the CPU values take their memory as their kernels run, so checkpointing issues ahead
# unwaited; on the test device an op's outputs take theirs at issue, and checkpointing waits
# for each block's work so as not to hold several blocks' values (vm.h).
@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_checkpointing_every_block_saves_most_activation_memory(device):
    mf.manual_seed(0)
    model = Stack(width=128, depth=8, p=0.0).to(device)
    x = mf.randn(16, 64, 128, device=device)  # 4 MiB of input, 16 MiB per block's widest activation
    peak_and_time(model, x, False)  # warm: caches and plans made
    plain = peak_and_time(model, x, False)
    checked = peak_and_time(model, x, True)
    weights = sum(p.numel() * 4 for p in model.parameters())
    # Both peaks include the gradients (weights' size) made in backward; the rest is activations.
    saved = 1 - (checked - weights) / (plain - weights)
    assert saved >= 0.6, (plain, checked, weights)
