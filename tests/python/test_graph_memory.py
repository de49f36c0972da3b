"""Graph mode's memory: activation checkpointing (the compiler's recompute pass,
recompute.h): a checkpointed module's activations are recomputed for backward, random ops
drawing the same values, so losses are bitwise those without it (and eager's), while the
memory plan's arena shrinks; and buffer donation: the optimizer step writes the new
parameters and state over the old ones. Pipelines and 2 ranks:
tests/python/distributed/test_dist_graph.py."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "gpt"))
import train  # noqa: E402


def placement(device="cpu"):
    return mf.placement(device, ranks=[0])


class Block(nn.Module):
    """A residual MLP block with dropout: matmuls, elementwise ops and random draws."""

    def __init__(self, width):
        super().__init__()
        self.ln = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        h = F.gelu(self.up(self.ln(x)))
        return x + self.drop(self.down(self.drop(h)))


class Net(nn.Module):
    def __init__(self, width=32, depth=3):
        super().__init__()
        mf.manual_seed(5)
        self.blocks = nn.ModuleList(Block(width) for _ in range(depth))
        self.head = nn.Linear(width, 4)
        self.to_global(placement(), mf.sbp.broadcast)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class Step(nn.Graph):
    def __init__(self, model, opt):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


def batches(steps, rows=64, width=32, device="cpu"):
    rng = np.random.default_rng(1)
    for _ in range(steps):
        x = rng.standard_normal((rows, width)).astype(np.float32)
        y = rng.integers(0, 4, rows).astype(np.int64)
        yield (mf.tensor(x, placement=placement(device), sbp=mf.sbp.broadcast),
               mf.tensor(y, placement=placement(device), sbp=mf.sbp.broadcast))


def run(mode, steps=4):
    """Losses of `steps` AdamW steps (eager, or graph with `mode`: None, "full",
    "selective", "module" for the module's own attribute), and the graph's memory plan and
    compile stats."""
    model = Net()
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    mf.manual_seed(11)
    if mode == "eager":
        losses = []
        for x, y in batches(steps):
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad()
            losses.append(loss.numpy())
        return np.array(losses), None, None
    step = Step(model, opt)
    for block in model.blocks:
        if mode == "module":
            block.activation_checkpointing = True
        elif mode is not None:
            step.config.activation_checkpointing(block, selective=mode == "selective")
    losses = np.array([step(x, y).numpy() for x, y in batches(steps)])
    return losses, step.memory_plan(), step.compile_stats()


def test_checkpointed_blocks_train_bitwise_as_without_with_a_smaller_arena():
    plain, plain_memory, plain_stats = run(None)
    full, full_memory, full_stats = run("full")
    selective, selective_memory, selective_stats = run("selective")
    eager, _, _ = run("eager")
    # Dropout draws the same elements in the recomputation: every loss, every bit.
    assert full.tobytes() == plain.tobytes()
    assert selective.tobytes() == plain.tobytes()
    assert full.tobytes() == eager.tobytes()
    assert plain_stats["recomputed_ops"] == 0
    assert full_stats["checkpointed_regions"] == 3 and full_stats["recomputed_ops"] > 0
    assert 0 < selective_stats["recomputed_ops"] < full_stats["recomputed_ops"]
    assert [name for name, _ in full_stats["passes"]][3] == "recompute"
    # The dropped activations' memory is reused: the planned arena falls; selective keeps
    # what the matmuls make, so it saves less.
    assert full_memory["arena_bytes"] < 0.75 * plain_memory["arena_bytes"], (full_memory, plain_memory)
    assert full_memory["arena_bytes"] < selective_memory["arena_bytes"] < plain_memory["arena_bytes"]


def test_the_module_attribute_checkpoints_as_the_config_does():
    by_config, config_memory, config_stats = run("full", steps=2)
    by_module, module_memory, module_stats = run("module", steps=2)
    assert by_module.tobytes() == by_config.tobytes()
    assert module_memory["arena_bytes"] == config_memory["arena_bytes"]
    assert module_stats["recomputed_ops"] == config_stats["recomputed_ops"]


def test_debug_graph_shows_the_recomputed_ops_and_the_pass_checks_hold():
    was = mf._C.check_passes()
    mf._C.set_check_passes(True)  # check_recomputed after the pass, as MESHFLOW_CHECK_PASSES=1
    try:
        model = Net(depth=1)
        step = Step(model, mf.optim.SGD(model.parameters(), lr=0.1))
        step.config.activation_checkpointing(model.blocks[0])
        step(*next(batches(1)))
    finally:
        mf._C.set_check_passes(was)
    before, after = step.debug_graph(after="boxing"), step.debug_graph(after="recompute")
    assert "recomputes" not in before
    copies = [line for line in after.splitlines() if "(recomputes %" in line]
    assert len(copies) == step.compile_stats()["recomputed_ops"]
    assert any(" = dropout(" in line for line in copies)  # dropout, its draw again


def test_bad_arguments_raise():
    class Empty(nn.Graph):
        def build(self, x):
            return x

    g = Empty()
    with pytest.raises(TypeError, match="takes a meshflow.nn.Module"):
        g.config.activation_checkpointing(lambda x: x)
    with pytest.raises(ValueError, match="selective are bools"):
        g.config.activation_checkpointing(nn.ReLU(), selective="yes")


@pytest.mark.parametrize("mode", ["full", "selective"])
def test_gpt_example_checkpoints_in_graph_mode(mode):
    """examples/gpt/train.py --graph --checkpoint-activations: the losses (dropout on) of the
    run without it, every bit, on a smaller arena."""
    out = {}
    for flag in ([], ["--checkpoint-activations", mode]):
        args = train.parse_args(["--layout", "1x1x1_4_32x2", "--steps", "3", "--block", "16", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "1", "--dropout", "0.1",
                                 "--graph"] + flag)
        out[bool(flag)] = train.train(args, train.mesh(1, 1))
    assert np.array(out[True]["losses"]).tobytes() == np.array(out[False]["losses"]).tobytes()
    assert out[True]["graph_arena_bytes"] < out[False]["graph_arena_bytes"]


def state_bytes(model, opt):
    """Bytes of the parameters and the optimizer's state."""
    params = sum(p.numel() * 4 for p in model.parameters())
    return params * (3 if isinstance(opt, mf.optim.AdamW) else 1)


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_the_optimizer_step_writes_over_the_old_parameters_and_state(device):
    """Buffer donation: the memory plan gives each AdamW update its parameter's and moments'
    memory, so a step's peak holds no second copy of them; values equal eager's bitwise (on
    the test device, whose fused chains are chain programs, within the few ulps between
    their gelu and the CPU's fast_math.h one: test_fused_programs.py)."""
    eager_model, graph_model = Net(), Net()
    for m in (eager_model, graph_model):
        m.to_global(placement(device), mf.sbp.broadcast)
    eager_opt = mf.optim.AdamW(eager_model.parameters(), lr=1e-2)
    graph_opt = mf.optim.AdamW(graph_model.parameters(), lr=1e-2)
    step = Step(graph_model, graph_opt)
    extra = []
    mf.manual_seed(11)
    data = list(batches(4, device=device))
    graph_losses = []
    for x, y in data:
        mf.synchronize()
        before = mf.memory_allocated(device)
        mf.reset_peak_memory_stats(device)
        graph_losses.append(step(x, y).numpy())
        extra.append(mf.max_memory_allocated(device) - before)
    mf.manual_seed(11)
    eager_losses = []
    for x, y in data:
        loss = F.cross_entropy(eager_model(x), y)
        loss.backward()
        eager_opt.step()
        eager_opt.zero_grad()
        eager_losses.append(loss.numpy())
    if device == "testdev":
        np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-5)
        for e, g in zip(eager_model.parameters(), graph_model.parameters()):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)
    else:
        assert np.array(graph_losses).tobytes() == np.array(eager_losses).tobytes()
        for e, g in zip(eager_model.parameters(), graph_model.parameters()):
            assert e.numpy().tobytes() == g.numpy().tobytes()
    plan = step.memory_plan()
    model_state = state_bytes(graph_model, graph_opt)
    assert plan["donated_bytes"] == model_state
    # After the first call (which compiles and allocates the arena), a step allocates a
    # fraction of the model's state beyond what it held (without donation: all of it more).
    assert max(extra[1:]) < 0.25 * model_state, (extra, model_state)


def test_an_old_value_the_step_returns_is_not_written_over():
    model = Net(depth=1)

    class ReturnsWeight(Step):
        def build(self, x, y):
            old = self.model.head.weight.detach()  # the value before the step, as eager's detach
            return super().build(x, y), old

    step = ReturnsWeight(model, mf.optim.SGD(model.parameters(), lr=0.5))
    x, y = next(batches(1))
    before = model.head.weight.numpy()
    _, returned = step(x, y)
    np.testing.assert_array_equal(returned.numpy(), before)
    assert model.head.weight.numpy().tobytes() != before.tobytes()
    assert step.memory_plan()["donated_bytes"] == state_bytes(model, None) - model.head.weight.numel() * 4
