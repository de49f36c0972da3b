"""Graph mode equals eager mode: the same step traced once, compiled over the whole mesh
(whole-graph SBP, explicit boxing, planned memory) and run by actors gives eager's values,
on [1], [2], [4] and [2, 2], and for the GPT under data, tensor and 2-d parallelism."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from conftest import MESHES, mesh

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "gpt"))
import train  # noqa: E402

def mlp(placement, tensor_parallel):
    mf.manual_seed(3)
    # GELU then tanh: a chain of elementwise ops to fuse (each Linear's bias is in its matmul).
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Tanh(), nn.Linear(16, 4))
    last = len(placement.hierarchy) - 1

    def sbp(name, p):
        nd = [mf.sbp.broadcast] * len(placement.hierarchy)
        if tensor_parallel and name.startswith("0."):
            nd[last] = mf.sbp.split(0)        # column parallel
        if tensor_parallel and name == "3.weight":
            nd[last] = mf.sbp.split(1)        # row parallel
        return tuple(nd)
    model.to_global(placement, sbp)
    return model


class Step(nn.Graph):
    def __init__(self, model, opt):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        mf.optim.clip_grad_norm_(self.model.parameters(), 0.5)
        return loss


def batches(placement, n, rows=6):
    rng = np.random.default_rng(7)
    sbp = [mf.sbp.split(0)] + [mf.sbp.broadcast] * (len(placement.hierarchy) - 1)
    out = []
    for _ in range(n):
        x = rng.standard_normal((rows, 8)).astype(np.float32)
        y = rng.integers(0, 4, rows).astype(np.int64)
        out.append((mf.tensor(x, placement=placement, sbp=sbp), mf.tensor(y, placement=placement, sbp=sbp)))
    return out


def eager_step(model, opt, x, y, clip=0.5):
    """The step the graphs below compile, run eagerly: returns the loss."""
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    if clip:
        mf.optim.clip_grad_norm_(model.parameters(), clip)
    opt.step()
    opt.zero_grad()
    return loss


def assert_same_parameters(expected_model, actual_model, rtol=1e-5, atol=1e-6):
    for a, b in zip(expected_model.parameters(), actual_model.parameters()):
        assert a.sbp == b.sbp
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["1", "2", "4", "2x2"])
@pytest.mark.parametrize("tensor_parallel", [False, True])
@pytest.mark.parametrize("optimizer", ["adamw", "sgd"])
def test_training_step_equals_eager(name, tensor_parallel, optimizer, world):
    p = mesh(name, world)
    make_opt = {"adamw": lambda ps: mf.optim.AdamW(ps, lr=1e-2),
                "sgd": lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9)}[optimizer]
    eager_model, graph_model = mlp(p, tensor_parallel), mlp(p, tensor_parallel)
    eager_opt, graph_opt = make_opt(eager_model.parameters()), make_opt(graph_model.parameters())
    step = Step(graph_model, graph_opt)
    for i, (x, y) in enumerate(batches(p, 4)):
        eager_opt.lr = graph_opt.lr = 1e-2 / (i + 1)  # read anew at every run
        loss = eager_step(eager_model, eager_opt, x, y)
        got = step(x, y)
        assert got.sbp == loss.sbp and got.placement == loss.placement
        np.testing.assert_allclose(got.numpy(), loss.numpy(), rtol=1e-5)
    assert_same_parameters(eager_model, graph_model)
    stats = step.compile_stats()
    assert stats["graph_boxing_bytes"] <= stats["eager_boxing_bytes"]
    if tensor_parallel and name in ("4", "2x2"):
        # Here choosing each signature for the producer and its consumers together moves
        # fewer bytes than eager's op-by-op choice (2,012 against 2,340 on [4]).
        assert stats["graph_boxing_bytes"] < stats["eager_boxing_bytes"]
    # Every boxing node that moves data is explained, and only those.
    assert step.explain().count("\n  %") == stats["boxing_nodes"]
    plan = step.memory_plan()
    assert plan["max_live_bytes"] <= plan["arena_bytes"] <= plan["no_reuse_bytes"]


@pytest.mark.parametrize("name", ["2", "2x2"])
def test_forward_ops_equal_eager(name, world):
    """Every op family inside a graph (no backward): elementwise, matmul, shape, reductions, nn."""
    p = mesh(name, world)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 6)).astype(np.float32)
    b = rng.standard_normal((6, 4)).astype(np.float32)
    split = [mf.sbp.split(0)] + [mf.sbp.broadcast] * (len(p.hierarchy) - 1)
    colsplit = [mf.sbp.split(1)] + [mf.sbp.broadcast] * (len(p.hierarchy) - 1)
    x, w = mf.tensor(a, placement=p, sbp=split), mf.tensor(b, placement=p, sbp=colsplit)

    def f(x, w):
        h = F.gelu(x @ w) * 2.0 - x.sum(dim=1, keepdim=True)
        h = F.softmax(h.reshape(2, 8).T, dim=0)
        h = F.layer_norm(h, (2,))
        return h.mean(), mf.cat([h, h.exp()], dim=1).amax(dim=0)

    class Eval(nn.Graph):
        def build(self, x, w):
            return f(x, w)

    expected = f(x, w)
    got = Eval()(x, w)
    for e, g in zip(expected, got):
        assert e.sbp == g.sbp
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layout", ["1x1x1", "2x1x1", "1x2x1", "2x2x1"])
def test_gpt_graph_losses_equal_eager(layout, world):
    d, tp = (int(n) for n in layout.split("x")[:2])
    if d * tp > world:
        pytest.skip(f"{layout} needs {d * tp} ranks")
    run = {}
    for graph in (False, True):
        args = train.parse_args(["--layout", f"{layout}_4_32x1", "--steps", "5", "--block", "16", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "2", "--dropout", "0.1"]
                                + (["--graph"] if graph else []))
        run[graph] = np.array(train.train(args, train.mesh(d, tp))["losses"])
    np.testing.assert_allclose(run[True], run[False], rtol=1e-5)


@pytest.mark.parametrize("layout", ["1x1x2", "1x1x4", "2x1x2", "1x2x2"])
def test_gpt_pipelined_losses_equal_one_device(layout, world):
    """The GPT with pipeline stages (3 layers: uneven over 2 and over 4 stages), 4 micro-
    batches flowing through them in graph mode: the losses of eager 1x1x1."""
    d, tp, pp = (int(n) for n in layout.split("x"))
    if d * tp * pp > world:
        pytest.skip(f"{layout} needs {d * tp * pp} ranks")
    run = {}
    for lay in ("1x1x1", layout):
        args = train.parse_args(["--layout", f"{lay}_8_32x3", "--steps", "4", "--block", "16", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "2", "--micro-batches", "4"]
                                + (["--graph"] if lay == layout else []))
        run[lay] = np.array(train.train(args, train.mesh(1, 1) if lay == "1x1x1" else None)["losses"])
    np.testing.assert_allclose(run[layout], run["1x1x1"], rtol=1e-5)


@pytest.mark.parametrize("layout", ["2x1x1", "1x2x1", "1x1x2"])
def test_gpt_checkpointed_graph_equals_one_device(layout, world):
    """--graph --checkpoint-activations (the recompute pass; a pipeline's stages too): with
    dropout, the losses of the same layout without checkpointing, every bit; without
    dropout, eager 1x1x1's."""
    d, tp, pp = (int(n) for n in layout.split("x"))
    if d * tp * pp > world:
        pytest.skip(f"{layout} needs {d * tp * pp} ranks")

    def losses(lay, dropout, *flags):
        args = train.parse_args(["--layout", f"{lay}_8_32x2", "--steps", "3", "--block", "16", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "2", "--dropout", str(dropout)]
                                + list(flags))
        placement = train.mesh(d, tp) if pp == 1 else None
        return np.array(train.train(args, train.mesh(1, 1) if lay == "1x1x1" else placement)["losses"])

    for how in ("full", "selective"):
        plain = losses(layout, 0.1, "--graph")
        checkpointed = losses(layout, 0.1, "--graph", "--checkpoint-activations", how)
        assert checkpointed.tobytes() == plain.tobytes()
    np.testing.assert_allclose(losses(layout, 0.0, "--graph", "--checkpoint-activations"), losses("1x1x1", 0.0),
                               rtol=1e-5)


def test_a_checkpointed_pipeline_holds_less_memory_with_the_same_losses(world):
    """1x1x2 with every block checkpointed: the losses of the pipeline without it, every bit
    (dropout on), and on each stage a smaller arena and a lower peak per call (after the
    compiling one): a micro-batch's registers have places in the memory plan's arena, so a
    block's recomputed activations are freed before the next block's are made, and only the
    blocks' inputs are held for the micro-batches in flight."""
    if world < 2:
        pytest.skip("needs 2 ranks")

    def run(*flags):
        args = train.parse_args(["--layout", "1x1x2_8_64x4", "--steps", "3", "--block", "32", "--heads", "2",
                                 "--sample", "0", "--log-every", "100", "--warmup", "2", "--dropout", "0.1",
                                 "--graph", *flags])
        return train.train(args)

    plain, checkpointed = run(), run("--checkpoint-activations")
    assert np.array(checkpointed["losses"]).tobytes() == np.array(plain["losses"]).tobytes()
    if mf.env.get_rank() < 2:
        assert checkpointed["graph_arena_bytes"] < plain["graph_arena_bytes"]
    for rank in range(2):
        assert checkpointed["steady_peak_memory_bytes"][rank] < plain["steady_peak_memory_bytes"][rank]


@pytest.mark.parametrize("name", ["1", "2", "2x2"])
@pytest.mark.parametrize("tensor_parallel", [False, True])
@pytest.mark.parametrize("micro_batches", [2, 3])
def test_gradient_accumulation_equals_the_whole_batch(name, tensor_parallel, micro_batches, world):
    """set_gradient_accumulation_steps(m): forward and backward per micro-batch, clipping and
    AdamW once on the mean gradient: the eager step on the whole batch, the same loss."""
    p = mesh(name, world)
    eager_model, graph_model = mlp(p, tensor_parallel), mlp(p, tensor_parallel)
    eager_opt = mf.optim.AdamW(eager_model.parameters(), lr=1e-2)
    step = Step(graph_model, mf.optim.AdamW(graph_model.parameters(), lr=1e-2))
    step.config.set_gradient_accumulation_steps(micro_batches)
    rows = 6 * micro_batches * (2 if name != "1" else 1)
    for x, y in batches(p, 3, rows=rows):
        loss = eager_step(eager_model, eager_opt, x, y)
        got = step(x, y)
        assert got.shape == loss.shape and got.sbp == loss.sbp
        np.testing.assert_allclose(got.numpy(), loss.numpy(), rtol=1e-5)
    assert_same_parameters(eager_model, graph_model, rtol=1e-4)


@pytest.mark.parametrize("name", ["1", "2", "4", "2x2"])
@pytest.mark.parametrize("tensor_parallel", [False, True])
@pytest.mark.parametrize("micro_batches", [1, 2])
def test_fusion_changes_no_bit(name, tensor_parallel, micro_batches, world):
    """Fused chains (the GELU and tanh after the first Linear, and their gradients) train
    bitwise as the unfused ops, with micro-batches too."""
    p = mesh(name, world)
    steps, models = [], []
    for fuse in (True, False):
        model = mlp(p, tensor_parallel)
        step = Step(model, mf.optim.AdamW(model.parameters(), lr=1e-2))
        step.config.enable_fusion(fuse)
        step.config.set_gradient_accumulation_steps(micro_batches)
        steps.append(step)
        models.append(model)
    for x, y in batches(p, 3, rows=16):
        fused, unfused = (s(x, y).numpy() for s in steps)
        assert fused.tobytes() == unfused.tobytes()
    for a, b in zip(*(m.parameters() for m in models)):
        assert a.numpy().tobytes() == b.numpy().tobytes()
    if mf.env.get_rank() in np.array(MESHES[name]).ravel():
        assert steps[0].compile_stats()["fused_chains"] >= 1
        assert steps[0].compile_stats()["tasks"] < steps[1].compile_stats()["tasks"]
    assert steps[1].compile_stats()["fused_chains"] == 0


@pytest.mark.parametrize("name", ["1", "2", "4", "2x2"])
def test_constants_are_folded_while_compiling(name, world):
    """What a step computes from nothing but constants (arange, ones, and ops on them, a
    fused chain among them) runs once while compiling, each rank its part; the results
    equal eager's at every call."""
    p = mesh(name, world)
    split = [mf.sbp.split(0)] + [mf.sbp.broadcast] * (len(p.hierarchy) - 1)
    rng = np.random.default_rng(5)

    def f(x):
        ramp = mf.arange(0.0, 10.0, 1.0, placement=p, sbp=split).reshape(10, 1)
        scale = mf.ones(10, 3, placement=p, sbp=split) * 3.0 + 1.0
        return x * scale + ramp, mf.randn(10, 3, placement=p, sbp=split) * 0.0 + x

    class Eval(nn.Graph):
        def build(self, x):
            return f(x)

    step = Eval()
    for _ in range(2):
        x = mf.tensor(rng.standard_normal((10, 3)).astype(np.float32), placement=p, sbp=split)
        for e, g in zip(f(x), step(x)):
            np.testing.assert_array_equal(g.numpy(), e.numpy())
    if mf.env.get_rank() in np.array(MESHES[name]).ravel():
        # arange and its reshape's copy (the reshape itself is a view), ones and the fused
        # (mul_scalar, add_scalar); not randn (random) nor what reads x.
        assert step.compile_stats()["folded_ops"] == 3, str(step)
        assert "fused(mul_scalar, add_scalar)" in str(step)


def test_gradient_accumulation_refuses_a_batch_that_does_not_cut(world):
    p = mesh("2", world)
    step = Step(mlp(p, False), mf.optim.SGD(mlp(p, False).parameters(), lr=0.1))
    step.config.set_gradient_accumulation_steps(4)
    x, y = batches(p, 1, rows=6)[0]  # 3 rows per rank
    with pytest.raises(ValueError, match="cut into 4 micro-batches"):
        step(x, y)


@pytest.mark.parametrize("name", ["1", "2", "4", "2x2"])
@pytest.mark.parametrize("tensor_parallel", [False, True])
@pytest.mark.parametrize("micro_batches", [1, 2])
def test_the_test_device_runs_graphs_as_the_cpu(name, tensor_parallel, micro_batches, world):
    """The test device's memory cannot be read by host code: graph mode's arena, registers,
    fused chains, boxing and gradient accumulation go through its kernels and copies, and
    every loss and weight equals the CPU's, with the same plan: its fused chain (GELU, tanh
    and their gradients) is a chain program, whose functors are a few ulps from the CPU's
    fast_math.h forms of these ops (test_fused_programs.py)."""
    def run(device):
        p = mesh(name, world, device)
        model = mlp(p, tensor_parallel)
        step = Step(model, mf.optim.AdamW(model.parameters(), lr=1e-2))
        step.config.set_gradient_accumulation_steps(micro_batches)
        losses = [step(x, y).numpy() for x, y in batches(p, 3, rows=16)]
        return np.array(losses), [q.numpy() for q in model.parameters()], model, step

    loss_cpu, w_cpu, _, step_cpu = run("cpu")
    loss_dev, w_dev, model_dev, step_dev = run("testdev")
    np.testing.assert_allclose(loss_dev, loss_cpu, rtol=1e-5)
    for a, b in zip(w_cpu, w_dev):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
    if mf.env.get_rank() in np.array(MESHES[name]).ravel():
        assert all(q.to_local().device.type == "testdev" for q in model_dev.parameters())
    assert step_dev.memory_plan() == step_cpu.memory_plan()
    assert step_dev.compile_stats()["tasks"] == step_cpu.compile_stats()["tasks"]


class Staged(nn.Module):
    """Linear layers spread over pipeline stages (one placement each, uneven layer counts);
    the activation moves to the next stage's placement between them."""

    def __init__(self, placements, widths_per_stage):
        super().__init__()
        mf.manual_seed(5)
        self.placements = placements
        self.stages = nn.ModuleList()
        width = 8
        for placement, widths in zip(placements, widths_per_stage):
            layers = []
            for w in widths:
                layers += [nn.Linear(width, w), nn.GELU()]
                width = w
            seq = nn.Sequential(*layers[:-1]) if placement is placements[-1] else nn.Sequential(*layers)
            seq.to_global(placement, [mf.sbp.broadcast] * len(placement.hierarchy))
            self.stages.append(seq)

    def forward(self, x):
        for placement, seq in zip(self.placements, self.stages):
            x = seq(x.to_global(placement=placement, sbp=[mf.sbp.broadcast] * len(placement.hierarchy)))
        return x


class PipelineStep(nn.Graph):
    def __init__(self, model, opt, micro_batches):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.set_gradient_accumulation_steps(micro_batches)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        mf.optim.clip_grad_norm_(self.model.parameters(), 0.5)
        return loss


@pytest.mark.parametrize("micro_batches", [3, 4])
def test_pipeline_of_three_uneven_stages_equals_eager(micro_batches, world):
    pipeline_of_three_uneven_stages(micro_batches, world, "cpu")


def test_pipeline_on_the_test_device_equals_the_cpu_bit_for_bit(world):
    """The same pipeline with every stage on the test device: the CPU's losses and weights,
    bit for bit."""
    assert pipeline_of_three_uneven_stages(3, world, "testdev") == pipeline_of_three_uneven_stages(3, world, "cpu")


def pipeline_of_three_uneven_stages(micro_batches, world, device):
    """Three stages ([0], [1], [2]) holding 2, 1 and 3 layers; micro-batches in flight at
    once through buffers of (3 - s) slots on stage s: the same losses and weights as the
    eager step on the whole batch, and stage s never holds more than 3 - s micro-batches."""
    if world < 3:
        pytest.skip("needs 3 ranks")
    placements = [mf.placement(device, ranks=[r]) for r in range(3)]
    widths = [[16, 12], [10], [12, 6, 4]]
    eager_model, graph_model = Staged(placements, widths), Staged(placements, widths)
    eager_opt = mf.optim.AdamW(eager_model.parameters(), lr=1e-2)
    step = PipelineStep(graph_model, mf.optim.AdamW(graph_model.parameters(), lr=1e-2), micro_batches)
    rng = np.random.default_rng(3)
    losses = []
    for _ in range(3):
        rows = 2 * micro_batches
        x = mf.tensor(rng.standard_normal((rows, 8)).astype(np.float32), placement=placements[0], sbp=mf.sbp.broadcast)
        y = mf.tensor(rng.integers(0, 4, rows).astype(np.int64), placement=placements[2], sbp=mf.sbp.broadcast)
        loss = eager_step(eager_model, eager_opt, x, y)
        got = step(x, y)
        np.testing.assert_allclose(got.numpy(), loss.numpy(), rtol=1e-5)
        losses.append(got.numpy().tobytes())
    assert_same_parameters(eager_model, graph_model, rtol=1e-4)
    rank = mf.env.get_rank()
    if rank < 3:
        # This stage's registers that carry the forward pass's values to the backward pass
        # have 3 - s slots (the rest one), and no more micro-batches than that were ever in
        # them at once.
        registers = step.registers()
        held = [r for r in registers if r["bytes"] > 0 and r["slots"] > 1]
        assert all(r["stage"] == rank and r["slots"] == 3 - rank for r in held)
        assert held or rank == 2  # the last stage needs one slot
        assert all(r["peak"] <= r["slots"] for r in registers)
    return losses, [q.numpy().tobytes() for q in graph_model.parameters()]


class TiedAcrossStages(nn.Module):
    """An embedding on the first stage whose weight is also the output head on the last
    (GPT-2's tying): the head reads it through a transfer, and its gradient is the sum of
    both uses."""

    def __init__(self, first, last):
        super().__init__()
        mf.manual_seed(9)
        self.first, self.last = first, last
        self.embed = nn.Embedding(10, 6)
        self.mix = nn.Linear(6, 6)
        self.embed.to_global(first, mf.sbp.broadcast)
        self.mix.to_global(last, mf.sbp.broadcast)

    def forward(self, idx):
        h = self.embed(idx).to_global(placement=self.last, sbp=mf.sbp.broadcast)
        h = F.gelu(self.mix(h))
        weight = self.embed.weight.to_global(placement=self.last, sbp=mf.sbp.broadcast)
        return h @ weight.T


def test_tied_embedding_across_stages_equals_eager(world):
    if world < 2:
        pytest.skip("needs 2 ranks")
    first, last = mf.placement("cpu", ranks=[0]), mf.placement("cpu", ranks=[1])
    eager_model, graph_model = TiedAcrossStages(first, last), TiedAcrossStages(first, last)
    eager_opt = mf.optim.SGD(eager_model.parameters(), lr=0.5)

    class TiedStep(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = graph_model
            self.add_optimizer(mf.optim.SGD(graph_model.parameters(), lr=0.5))
            self.config.set_gradient_accumulation_steps(2)

        def build(self, idx, y):
            loss = F.cross_entropy(self.model(idx), y)
            loss.backward()
            return loss

    step = TiedStep()
    rng = np.random.default_rng(4)
    for _ in range(3):
        idx = mf.tensor(rng.integers(0, 10, 8).astype(np.int64), placement=first, sbp=mf.sbp.broadcast)
        y = mf.tensor(rng.integers(0, 10, 8).astype(np.int64), placement=last, sbp=mf.sbp.broadcast)
        loss = eager_step(eager_model, eager_opt, idx, y, clip=0)
        np.testing.assert_allclose(step(idx, y).numpy(), loss.numpy(), rtol=1e-5)
    assert_same_parameters(eager_model, graph_model, atol=1e-7)


def test_set_stage_orders_the_pipeline(world):
    """config.set_stage names the stage order; here the reverse of the forward's: each rank's
    registers are of the stage it named, with one slot or the 3 - s micro-batches stage s
    holds in flight (and still computes the same step)."""
    if world < 3:
        pytest.skip("needs 3 ranks")
    placements = [mf.placement("cpu", ranks=[r]) for r in range(3)]
    widths = [[16, 12], [10], [12, 6, 4]]
    eager_model, graph_model = Staged(placements, widths), Staged(placements, widths)
    eager_opt = mf.optim.SGD(eager_model.parameters(), lr=0.1)
    step = PipelineStep(graph_model, mf.optim.SGD(graph_model.parameters(), lr=0.1), 3)
    for stage_id, module in enumerate(reversed(list(graph_model.stages))):
        step.config.set_stage(module, stage_id)
    rng = np.random.default_rng(8)
    x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32), placement=placements[0], sbp=mf.sbp.broadcast)
    y = mf.tensor(rng.integers(0, 4, 6).astype(np.int64), placement=placements[2], sbp=mf.sbp.broadcast)
    loss = eager_step(eager_model, eager_opt, x, y)
    np.testing.assert_allclose(step(x, y).numpy(), loss.numpy(), rtol=1e-5)
    assert_same_parameters(eager_model, graph_model, atol=1e-7)
    rank = mf.env.get_rank()
    if rank < 3:
        held = [r for r in step.registers() if r["bytes"] > 0 and r["stage"] == 2 - rank]
        assert held and all(r["slots"] in (1, rank + 1) for r in held)
    with pytest.raises(ValueError, match="stage ids must be 0 .. 0"):
        bad = PipelineStep(Staged(placements, widths), mf.optim.SGD(eager_model.parameters(), lr=0.1), 3)
        bad.config.set_stage(bad.model.stages[0], 1)
        bad(x, y)


def test_pipelined_dropout_keeps_every_rank_s_generator_alike(world):
    """Dropout on both stages of a 2-stage pipeline: each rank runs only its stage, yet every
    rank's generator advances by the same draws, each call (the first one too) by the whole
    batch's masks, so random ops after the graph agree across ranks."""
    if world < 2:
        pytest.skip("needs 2 ranks")
    placements = [mf.placement("cpu", ranks=[r]) for r in range(2)]

    class Dropped(nn.Module):
        def __init__(self):
            super().__init__()
            mf.manual_seed(5)
            self.first, self.second = nn.Linear(8, 8), nn.Linear(8, 4)
            self.first.to_global(placements[0], [mf.sbp.broadcast])
            self.second.to_global(placements[1], [mf.sbp.broadcast])

        def forward(self, x):
            x = F.dropout(self.first(x), 0.5)
            return F.dropout(self.second(x.to_global(placement=placements[1], sbp=mf.sbp.broadcast)), 0.25)

    model = Dropped()
    step = PipelineStep(model, mf.optim.SGD(model.parameters(), lr=1e-2), micro_batches=2)
    x = mf.tensor(np.ones((4, 8), np.float32), placement=placements[0], sbp=mf.sbp.broadcast)
    y = mf.tensor(np.zeros(4, np.int64), placement=placements[1], sbp=mf.sbp.broadcast)
    offsets = [mf._C.generator_state()[1]]
    for _ in range(3):
        step(x, y).numpy()
        offsets.append(mf._C.generator_state()[1])
    assert np.diff(offsets).tolist() == [4 * 8 + 4 * 4] * 3
    everyone = mf.tensor(np.array([offsets[-1]], np.int64)).to_global(
        placement=mf.placement("cpu", ranks=list(range(world))), sbp=mf.sbp.split(0))
    assert set(everyone.to_global(sbp=mf.sbp.broadcast).numpy().tolist()) == {offsets[-1]}


def test_a_local_graph_runs_on_the_ranks_that_call_it():
    # A program that placed nothing runs its graph on each rank alone: no agreement with the
    # others, so one rank may call it while the others do not (the suite's time limit would
    # end a hang).
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))

    class Forward(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            return self.model(x).sum()

    x = mf.tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    if mf.env.get_rank() == 0:
        assert Forward()(x).item() == pytest.approx(model(x).sum().item(), rel=1e-6)
    # Every rank goes on (none waits for rank 0's graph), and eager mode there is right.
    w1, b1, w2, b2 = (p.numpy() for p in model.parameters())
    expected = (np.maximum(x.numpy() @ w1.T + b1, 0) @ w2.T + b2).sum()
    assert model(x).sum().item() == pytest.approx(float(expected), rel=1e-5)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
@pytest.mark.parametrize("layer", ["column", "row", "data"])
def test_a_linear_layers_bias_in_its_product_moves_no_more_bytes(name, layer, world):
    """F.linear(x, w, b) adds the bias in the product's kernel where each rank's product is
    whole (column-parallel and data-parallel layers); a row-parallel layer's partial sums, and
    graphs traced over several ranks, keep the separate add. Either way the values are
    matmul-then-add's and no more bytes move, eager (forward and backward) and in a graph."""
    p = mesh(name, world)
    last = len(p.hierarchy) - 1

    def on_last(s):
        nd = [mf.sbp.broadcast] * len(p.hierarchy)
        nd[last] = s
        return tuple(nd)

    S, B = mf.sbp.split, mf.sbp.broadcast
    x_sbp, w_sbp, b_sbp = {"column": (B, S(0), S(0)), "row": (S(2), S(1), B), "data": (S(0), B, B)}[layer]
    rng = np.random.default_rng(1)
    values = [rng.standard_normal(s).astype(np.float32) for s in ((4, 6, 8), (12, 8), (12,))]

    def run(fused, graph):
        x, w, b = (mf.tensor(v, placement=p, sbp=on_last(s)).requires_grad_()
                   for v, s in zip(values, (x_sbp, w_sbp, b_sbp)))

        def f(x):
            return F.linear(x, w, b) if fused else F.linear(x, w) + b

        class Forward(nn.Graph):
            def build(self, x):
                return f(x)

        mf.synchronize()
        before = mf.comm_stats()["bytes_sent"]
        y = Forward()(x) if graph else f(x)
        if not graph:
            (y * y).sum().backward()
        sent = mf.comm_stats()["bytes_sent"] - before
        out = [y.numpy()] + ([] if graph else [t.grad.numpy() for t in (x, w, b)])
        return out, sent

    for graph in (False, True):
        (fused, fused_sent), (separate, separate_sent) = run(True, graph), run(False, graph)
        for a, e in zip(fused, separate):
            np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-5)
        assert fused_sent <= separate_sent, (graph, fused_sent, separate_sent)
