"""A fourth batch of 2-rank programs as FSDP, pipeline, Megatron and torchrun users write them,
ported to meshflow (issue 37's hidden set, its kinds; none repeats test_dist_user_programs{,2,3}.py):
FSDP spelled as ZeRO with checkpoints saved whole or sharded and resumed into another stage or
into one process, pipelines of two stages in graphs and in eager code, sequence-parallel
attention, activation checkpointing under data and tensor parallelism, eager warmup then graph
training then eager evaluation, clipping over parameters of mixed SBP, a recommender with a
vocabulary-split table, loss scaling by hand, torch.distributed calls inside training code,
metrics read on every rank, torchrun's environment, early stopping decided on rank 0, the
errors users hit, which raise on every rank at once with torch's class, and a DDP forward that
never went backward beside a rank-0-only backward of another model. Each runs on one device and on every rank
of the job and the two are compared: distributed equals one device. Every test runs under a
time limit that ends the job rather than let a rank wait."""
import copy
import faulthandler
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.distributed as dist
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.checkpoint import checkpoint, checkpoint_sequential

from test_dist_user_programs2 import (RANK, WORLD, B, S, assert_states_close, everyone, pg, replicated,  # noqa: F401
                                      shared_dir, split_rows, states)

LIMIT_S = 60


@pytest.fixture(autouse=True)
def time_limit():
    """A test that runs past LIMIT_S ends the process (and so the job) with every thread's
    stack, even one waiting inside a collective."""
    faulthandler.dump_traceback_later(LIMIT_S, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def data(seed, rows, features=6, classes=4, count=3):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal((rows, features)).astype(np.float32), rng.integers(0, classes, rows))
            for _ in range(count)]


class Mlp(nn.Module):
    def __init__(self, features=6, hidden=10, classes=4):
        super().__init__()
        self.fc1, self.norm, self.fc2 = nn.Linear(features, hidden), nn.LayerNorm(hidden), nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(F.gelu(self.norm(self.fc1(x))))


def train(model, opt, batches, to, sched=None, clip=None):
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(to(x)), to(y))
        loss.backward()
        if clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.item())
    return losses


def one_device_run(seed, make, program):
    mf.manual_seed(seed)
    return program(make(), mf.tensor)


# ---------------------------------------------------------------- FSDP as ZeRO, checkpoints


@pytest.mark.parametrize("saved_stage, resumed_stage", [(3, 1), (2, 3), (1, 0)])
def test_fsdp_as_zero_saves_a_sharded_checkpoint_and_resumes_in_another_stage_as_an_uninterrupted_run(
        world, pg, shared_dir, saved_stage, resumed_stage):
    batches = data(1, 2 * world + 2, count=4)

    def uninterrupted():
        mf.manual_seed(1)
        model = Mlp()
        opt = mf.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.05)
        return train(model, opt, batches, mf.tensor), states(model)

    want = uninterrupted()
    mf.manual_seed(1)
    model = Mlp().to_global(everyone(), B)
    opt = mf.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.05, zero_stage=saved_stage)
    first = train(model, opt, batches[:2], split_rows)
    path = os.path.join(shared_dir, "sharded.pt")
    mf.save({"model": model.state_dict(), "optim": opt.state_dict(), "epoch": 2}, path)
    dist.barrier()
    mf.manual_seed(99)  # a fresh model, as a resumed job makes it
    resumed = Mlp().to_global(everyone(), B)
    ropt = mf.optim.AdamW(resumed.parameters(), lr=0.02, weight_decay=0.05, zero_stage=resumed_stage)
    ckpt = mf.load(path)
    resumed.load_state_dict(ckpt["model"])
    ropt.load_state_dict(ckpt["optim"])
    assert ckpt["epoch"] == 2
    rest = train(resumed, ropt, batches[2:], split_rows)
    np.testing.assert_allclose(first + rest, want[0], rtol=1e-5)
    assert_states_close(states(resumed), want[1])


def test_fsdp_full_state_dict_gathered_on_rank_0_resumes_in_one_process_on_every_rank(world, pg, shared_dir):
    # FSDP's FULL_STATE_DICT with rank0_only: every rank gathers, rank 0 writes plain tensors,
    # then each rank goes on alone (a job resumed with a world of one).
    batches = data(2, 2 * world, count=4)
    want = one_device_run(2, Mlp, lambda m, to: (train(m, mf.optim.SGD(m.parameters(), lr=0.1, momentum=0.9),
                                                         batches, to), states(m)))
    mf.manual_seed(2)
    model = Mlp().to_global(everyone(), B)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, zero_stage=3)
    first = train(model, opt, batches[:2], split_rows)
    full = {k: v.to_global(sbp=B).to_local() for k, v in model.state_dict().items()}
    path, opt_path = os.path.join(shared_dir, "full.pt"), os.path.join(shared_dir, "optim.pt")
    if int(os.environ.get("RANK", RANK)) == 0:
        mf.save({"model": full}, path)  # plain tensors: rank 0 alone may write them
    mf.save({"optim": opt.state_dict()}, opt_path)  # the sharded state: every rank calls, it is written once
    dist.barrier()
    ckpt = {**mf.load(path, map_location="cpu"), **mf.load(opt_path, map_location="cpu")}
    assert not ckpt["model"]["fc1.weight"].is_global
    alone = Mlp()
    alone.load_state_dict(ckpt["model"])
    aopt = mf.optim.SGD(alone.parameters(), lr=0.1, momentum=0.9)
    aopt.load_state_dict(ckpt["optim"])
    rest = train(alone, aopt, batches[2:], mf.tensor)
    np.testing.assert_allclose(first + rest, want[0], rtol=1e-5)
    assert_states_close(states(alone), want[1])


class ZeroStep(nn.Graph):
    """A training graph; stage 0 leaves ZeRO off."""

    def __init__(self, model, opt, stage=0, micro=1):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.enable_zero(stage > 0, stage=max(stage, 1))
        self.config.set_gradient_accumulation_steps(micro)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


def test_a_graph_with_enable_zero_3_checkpointed_then_resumed_by_eager_zero_2_equals_eager_one_device(
        world, pg, shared_dir):
    batches = data(3, 2 * world, count=4)
    want = one_device_run(3, Mlp, lambda m, to: (train(m, mf.optim.Adam(m.parameters(), lr=0.01), batches, to),
                                                 states(m)))
    mf.manual_seed(3)
    model = Mlp().to_global(everyone(), B)
    opt = mf.optim.Adam(model.parameters(), lr=0.01)
    step = ZeroStep(model, opt, stage=3)
    first = [step(split_rows(x), split_rows(y)).item() for x, y in batches[:2]]
    path = os.path.join(shared_dir, "graph.pt")
    mf.save({"model": model.state_dict(), "optim": opt.state_dict()}, path)
    dist.barrier()
    ckpt = mf.load(path)
    resumed = Mlp().to_global(everyone(), B)
    resumed.load_state_dict(ckpt["model"])
    assert_states_close(states(resumed), states(model), rtol=0, atol=0)
    ropt = mf.optim.Adam(resumed.parameters(), lr=0.01, zero_stage=2)
    ropt.load_state_dict(ckpt["optim"])
    rest = train(resumed, ropt, batches[2:], split_rows)
    np.testing.assert_allclose(first + rest, want[0], rtol=1e-4, atol=1e-6)
    assert_states_close(states(resumed), want[1])


def test_a_graph_with_enable_zero_and_micro_batches_whose_optimizer_state_dict_resumes_eager(world, pg):
    # The user keeps the optimizer they handed to add_optimizer and checkpoints it.
    batches = data(4, 4 * world, count=3)
    mf.manual_seed(4)
    model = Mlp().to_global(everyone(), B)
    opt = mf.optim.AdamW(model.parameters(), lr=0.01)
    step = ZeroStep(model, opt, stage=2, micro=2)
    for x, y in batches[:2]:
        step(split_rows(x), split_rows(y))
    sd = copy.deepcopy(opt.state_dict())  # the live dict's tensors would be shared by both, as torch's
    assert len(sd["state"]) == len(list(model.parameters()))
    assert all(int(np.asarray(s["step"])) == 2 for s in sd["state"].values())
    again = Mlp().to_global(everyone(), B)
    again.load_state_dict(model.state_dict())
    aopt = mf.optim.AdamW(again.parameters(), lr=0.01)
    aopt.load_state_dict(sd)
    x, y = batches[2]
    loss = step(split_rows(x), split_rows(y)).item()
    # eager on the same micro-batch cut: the mean of the two halves of each rank's part
    aopt.zero_grad()
    halves = [np.concatenate([np.split(p, 2)[k] for p in np.split(a, world)]) for a in (x, y) for k in range(2)]
    eager = 0.0
    for xb, yb in ((halves[0], halves[2]), (halves[1], halves[3])):
        part = F.cross_entropy(again(split_rows(xb)), split_rows(yb))
        (part / 2).backward()
        eager += part.item() / 2
    aopt.step()
    np.testing.assert_allclose(loss, eager, rtol=1e-5)
    assert_states_close(states(again), states(model))


class ClipStep(ZeroStep):
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 0.2)
        return loss


@pytest.mark.parametrize("stage", [2, 3])
def test_a_graph_with_enable_zero_clipping_and_a_megatron_layer_equals_eager_one_device(world, stage):
    # FSDP beside tensor parallelism: fc1 split on its outputs, ZeRO over the rest.
    batches = data(28, 2 * world, count=3)
    want = one_device_run(28, Mlp, lambda m, to: (train(m, mf.optim.AdamW(m.parameters(), lr=0.02), batches, to,
                                                        clip=0.2), states(m)))
    mf.manual_seed(28)
    model = Mlp().to_global(everyone(), lambda n, _: S(0) if n.startswith("fc1.") else B)
    step = ClipStep(model, mf.optim.AdamW(model.parameters(), lr=0.02), stage=stage)
    got = [step(split_rows(x), split_rows(y)).item() for x, y in batches]
    np.testing.assert_allclose(got, want[0], rtol=1e-4, atol=1e-6)
    assert_states_close(states(model), want[1])


# ---------------------------------------------------------------- pipelines


class ThreeLayers(nn.Module):
    """An embedding and a block on stage 0, a norm and the head on stage 1."""

    def __init__(self):
        super().__init__()
        self.stage0 = nn.Sequential(nn.Embedding(12, 8), nn.Flatten(), nn.Linear(24, 16), nn.ReLU())
        self.stage1 = nn.Sequential(nn.LayerNorm(16), nn.Linear(16, 3))

    def forward(self, ids):
        h = self.stage0(ids)
        last = self.stage1[1].weight
        if last.is_global:
            h = h.to_global(placement=last.placement, sbp=last.sbp)
        return self.stage1(h)


def pipeline_data(seed, rows=8, count=3):
    rng = np.random.default_rng(seed)
    return [(rng.integers(0, 12, (rows, 3)), rng.integers(0, 3, rows)) for _ in range(count)]


def placed_pipeline(world):
    first, last = mf.placement("cpu", ranks=[0]), mf.placement("cpu", ranks=[world - 1])
    model = ThreeLayers()
    model.stage0.to_global(first, B)
    model.stage1.to_global(last, B)
    return model, first, last


class PipeStep(nn.Graph):
    def __init__(self, model, opt, micro, clip=None):
        super().__init__()
        self.model, self.clip = model, clip
        self.add_optimizer(opt)
        self.config.set_gradient_accumulation_steps(micro)

    def build(self, ids, y):
        loss = F.cross_entropy(self.model(ids), y)
        loss.backward()
        if self.clip is not None:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        return loss


@pytest.mark.parametrize("clip", [None, 0.5])
def test_a_pipeline_with_an_embedding_stage_in_a_graph_with_micro_batches_equals_eager_one_device(world, clip):
    if world < 2:
        pytest.skip("a pipeline needs 2 ranks")
    batches = pipeline_data(5)
    micro = 2
    mf.manual_seed(5)
    alone = ThreeLayers()
    aopt = mf.optim.AdamW(alone.parameters(), lr=0.01)
    want = []
    for ids, y in batches:
        aopt.zero_grad()
        total = 0.0
        for k in range(micro):
            part = F.cross_entropy(alone(mf.tensor(np.split(ids, micro)[k])), mf.tensor(np.split(y, micro)[k]))
            (part / micro).backward()
            total += part.item() / micro
        if clip is not None:
            nn.utils.clip_grad_norm_(alone.parameters(), clip)
        aopt.step()
        want.append(total)
    mf.manual_seed(5)
    model, first, last = placed_pipeline(world)
    step = PipeStep(model, mf.optim.AdamW(model.parameters(), lr=0.01), micro, clip)
    got = [step(mf.tensor(ids, placement=first, sbp=B), mf.tensor(y, placement=last, sbp=B)).item()
           for ids, y in batches]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert_states_close(states(model), states(alone))


def test_an_eager_pipeline_with_a_skip_across_stages_and_evaluation_on_the_last_stage_equals_one_device(world):
    if world < 2:
        pytest.skip("a pipeline needs 2 ranks")
    rng = np.random.default_rng(6)
    batches = [(rng.standard_normal((5, 6)).astype(np.float32), rng.standard_normal((5, 6)).astype(np.float32))
               for _ in range(3)]

    class Skip(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc, self.dec = nn.Linear(6, 6), nn.Linear(6, 6)

        def forward(self, x):
            h = F.silu(self.enc(x))
            if self.dec.weight.is_global:
                h = h.to_global(placement=self.dec.weight.placement, sbp=B)
                x = x.to_global(placement=self.dec.weight.placement, sbp=B)
            return self.dec(h) + x  # the input crosses both stages

    def program(model, to_first, to_last):
        opt = mf.optim.RMSprop(model.parameters(), lr=0.01)
        losses = []
        for x, y in batches:
            opt.zero_grad()
            loss = F.smooth_l1_loss(model(to_first(x)), to_last(y))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        model.eval()
        with mf.no_grad():
            evaluated = model(to_first(batches[0][0])).numpy()
        return losses, evaluated, states(model)

    mf.manual_seed(6)
    want = program(Skip(), mf.tensor, mf.tensor)
    mf.manual_seed(6)
    model = Skip()
    first, last = mf.placement("cpu", ranks=[0]), mf.placement("cpu", ranks=[world - 1])
    model.enc.to_global(first, B)
    model.dec.to_global(last, B)
    got = program(model, lambda a: mf.tensor(a, placement=first, sbp=B), lambda a: mf.tensor(a, placement=last, sbp=B))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    assert_states_close(got[2], want[2])


def test_a_pipeline_whose_stages_are_data_parallel_on_a_2d_placement_equals_one_device(world):
    # 1 x 1 x 2 style: ranks [[0], [1]], the stages on rows of the mesh, each data parallel over
    # its row (of one rank here); hand-moved activations between the rows.
    if world < 2:
        pytest.skip("a pipeline needs 2 ranks")
    batches = pipeline_data(7, rows=4, count=2)
    mf.manual_seed(7)
    want_model = ThreeLayers()
    want = train(want_model, mf.optim.SGD(want_model.parameters(), lr=0.2), batches, mf.tensor)
    mf.manual_seed(7)
    model = ThreeLayers()
    rows = [mf.placement("cpu", ranks=[[0]]), mf.placement("cpu", ranks=[[world - 1]])]
    model.stage0.to_global(rows[0], [B, B])
    model.stage1.to_global(rows[1], [B, B])
    opt = mf.optim.SGD(model.parameters(), lr=0.2)
    got = []
    for ids, y in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(mf.tensor(ids, placement=rows[0], sbp=[S(0), S(0)])),
                               mf.tensor(y, placement=rows[1], sbp=[S(0), S(0)]))
        loss.backward()
        opt.step()
        got.append(loss.item())
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert_states_close(states(model), states(want_model))


def test_gpipe_by_hand_in_eager_code_with_micro_batches_and_a_scheduler_equals_one_device(world):
    # The loop a pipeline user writes without a framework: the batch cut into micro-batches,
    # each forwarded through both stages, the losses summed over them, one backward, one step.
    if world < 2:
        pytest.skip("a pipeline needs 2 ranks")
    batches = pipeline_data(27, rows=6, count=3)
    micro = 3

    def program(model, to_first, to_last):
        opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
        sched = mf.optim.lr_scheduler.ExponentialLR(opt, 0.7)
        losses = []
        for ids, y in batches:
            opt.zero_grad()
            outs = [model(to_first(i)) for i in np.split(ids, micro)]
            loss = sum(F.cross_entropy(o, to_last(t)) for o, t in zip(outs, np.split(y, micro))) / micro
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
        return losses, states(model)

    mf.manual_seed(27)
    want = program(ThreeLayers(), mf.tensor, mf.tensor)
    mf.manual_seed(27)
    model, first, last = placed_pipeline(world)
    got = program(model, lambda a: mf.tensor(a, placement=first, sbp=B), lambda a: mf.tensor(a, placement=last, sbp=B))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


# ---------------------------------------------------------------- sequence / context parallel


class CausalSelfAttention(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        # no bias on qkv: a key's bias moves no softmax, its gradient is round-off alone, which
        # Adam would scale up to whole steps that differ between any two summation orders
        self.heads, self.qkv, self.out = heads, nn.Linear(dim, 3 * dim, bias=False), nn.Linear(dim, dim)

    def forward(self, x, gather_keys=False):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        if gather_keys and k.is_global:  # ring-free context parallelism: every query sees every key
            k, v = k.to_global(sbp=B), v.to_global(sbp=B)
        q, k, v = (a.reshape(b, -1, self.heads, d // self.heads).transpose(1, 2) for a in (q, k, v))
        scores = q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5
        mask = mf.ones(t, t, dtype=mf.bool).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
        y = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)


@pytest.mark.parametrize("gather_keys", [False, True])
def test_attention_on_a_sequence_split_activation_trains_as_one_device(world, gather_keys):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((2, 2 * world, 8)).astype(np.float32)
    target = rng.standard_normal((2, 2 * world, 8)).astype(np.float32)

    def program(model, to):
        opt = mf.optim.Adam(model.parameters(), lr=0.01)
        losses = []
        for _ in range(2):
            opt.zero_grad()
            loss = F.mse_loss(model(to(x), gather_keys), to(target))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, states(model)

    want = one_device_run(8, CausalSelfAttention, program)
    mf.manual_seed(8)
    got = program(CausalSelfAttention().to_global(everyone(), B),
                  lambda a: mf.tensor(a, placement=everyone(), sbp=S(1)))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


def test_scaled_dot_product_attention_with_heads_split_and_the_sequence_split_equals_one_device(world):
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((2, 2 * world, 2 * world, 4)).astype(np.float32) for _ in range(3))
    want = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), is_causal=True).numpy()
    for sbp in (S(1), S(2)):
        g = [mf.tensor(a, placement=everyone(), sbp=sbp, requires_grad=True) for a in (q, k, v)]
        out = F.scaled_dot_product_attention(*g, is_causal=True)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)
        out.sum().backward()
        assert g[0].grad is not None and g[0].grad.shape == g[0].shape


# ---------------------------------------------------------------- activation checkpointing


class CheckpointedBlocks(nn.Module):
    def __init__(self, use_sequential):
        super().__init__()
        self.use_sequential = use_sequential
        self.blocks = nn.Sequential(*[nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.GELU()) for _ in range(4)])
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        if self.use_sequential:
            h = checkpoint_sequential(self.blocks, 2, x, use_reentrant=False)
        else:
            h = x
            for block in self.blocks:
                h = checkpoint(block, h, use_reentrant=False)
        return self.head(h)


@pytest.mark.parametrize("use_sequential", [False, True])
def test_checkpointed_blocks_under_data_parallelism_equal_one_device(world, use_sequential):
    batches = data(10, 2 * world + 1, features=8)

    def program(m, to):
        return train(m, mf.optim.SGD(m.parameters(), lr=0.1, momentum=0.5), batches, to), states(m)

    want = one_device_run(10, lambda: CheckpointedBlocks(use_sequential), program)
    mf.manual_seed(10)
    got = program(CheckpointedBlocks(use_sequential).to_global(everyone(), B), split_rows)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


class TpBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.up, self.down, self.norm = nn.Linear(8, 16), nn.Linear(16, 8), nn.LayerNorm(8)

    def forward(self, x):
        return self.norm(x + self.down(F.relu(self.up(x))))


class CheckpointedTp(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks, self.head = nn.ModuleList([TpBlock(), TpBlock()]), nn.Linear(8, 4)

    def forward(self, x):
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=True)
        return self.head(x)


def megatron_layout(name, _):
    if ".up." in name:
        return S(0)
    if name.endswith("down.weight"):
        return S(1)
    return B


def test_checkpointed_megatron_blocks_in_a_graph_equal_eager_one_device(world):
    batches = data(11, 2 * world, features=8)
    want = one_device_run(11, CheckpointedTp, lambda m, to: (train(m, mf.optim.Adam(m.parameters(), lr=0.01),
                                                                   batches, to), states(m)))
    mf.manual_seed(11)
    model = CheckpointedTp().to_global(everyone(), megatron_layout)
    assert model.blocks[0].up.weight.sbp == (S(0),)
    step = ZeroStep(model, mf.optim.Adam(model.parameters(), lr=0.01))
    got = [step(replicated(x), replicated(y)).item() for x, y in batches]
    np.testing.assert_allclose(got, want[0], rtol=1e-4, atol=1e-6)
    assert_states_close(states(model), want[1], atol=1e-4)  # Adam: a split sum rounds otherwise


# ---------------------------------------------------------------- eager, graph, eager


class BnNet(nn.Module):
    def __init__(self):
        super().__init__()
        # no bias before the norm (as ResNets write it): BatchNorm cancels it, so its gradient
        # is round-off, which Adam scales up to whole steps
        self.net = nn.Sequential(nn.Linear(6, 10, bias=False), nn.BatchNorm1d(10), nn.ReLU(), nn.Dropout(0.0),
                                 nn.Linear(10, 4))

    def forward(self, x):
        return self.net(x)


def test_eager_warmup_then_graph_training_with_a_scheduler_then_eager_evaluation_equals_eager_one_device(world):
    batches = data(12, 2 * world + 2, count=6)
    val = data(13, 2 * world + 2, count=2)

    def evaluate(model, to):
        model.eval()
        correct, total = 0, 0
        with mf.no_grad():
            for x, y in val:
                pred = model(to(x)).argmax(-1)
                correct += (pred == to(y)).sum().item()
                total += len(y)
        model.train()
        return correct / total

    def program(model, to, graph):
        opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        sched = mf.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
        losses = train(model, opt, batches[:2], to, sched)  # eager warmup
        acc0 = evaluate(model, to)
        if graph:
            step = ZeroStep(model, opt)
            for x, y in batches[2:]:
                losses.append(step(to(x), to(y)).item())
                sched.step()
        else:
            losses += train(model, opt, batches[2:], to, sched)
        return losses, [acc0, evaluate(model, to)], states(model)

    mf.manual_seed(12)
    want = program(BnNet(), mf.tensor, False)
    mf.manual_seed(12)
    got = program(BnNet().to_global(everyone(), B), split_rows, True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-6)
    assert got[1] == want[1]
    assert_states_close(got[2], want[2])


def test_graph_training_then_eager_fine_tuning_then_the_graph_again_equals_eager_one_device(world):
    batches = data(14, 4 * world + 4, count=6)

    def program(model, to, graph):
        opt = mf.optim.Adam(model.parameters(), lr=0.01)
        step = ZeroStep(model, opt) if graph else None
        losses = []
        for i, (x, y) in enumerate(batches):
            if graph and i in (0, 1, 4, 5):
                losses.append(step(to(x), to(y)).item())
            else:
                losses += train(model, opt, [(x, y)], to)
        return losses, states(model)

    mf.manual_seed(14)
    want = program(BnNet(), mf.tensor, False)
    mf.manual_seed(14)
    got = program(BnNet().to_global(everyone(), B), split_rows, True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-6)
    assert_states_close(got[1], want[1])


# ---------------------------------------------------------------- clipping over mixed SBP


@pytest.mark.parametrize("norm_type", [2.0, float("inf"), 1.0])
def test_clip_grad_norm_over_split_partial_and_broadcast_parameters_returns_one_device_s_norm(world, norm_type):
    batches = data(15, 2 * world, features=8)

    def program(model, to):
        opt = mf.optim.SGD(model.parameters(), lr=0.5)
        norms, losses = [], []
        for x, y in batches:
            opt.zero_grad()
            loss = F.cross_entropy(model(to(x)), to(y)) * 10
            loss.backward()
            norms.append(float(nn.utils.clip_grad_norm_(model.parameters(), 0.3, norm_type=norm_type)))
            nn.utils.clip_grad_value_(model.parameters(), 0.05)
            opt.step()
            losses.append(loss.item())
        return losses, norms, states(model)

    mf.manual_seed(15)
    want = program(CheckpointedTp(), mf.tensor)
    mf.manual_seed(15)
    model = CheckpointedTp().to_global(everyone(), megatron_layout)
    got = program(model, replicated)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[2], want[2])


def test_clip_grad_norm_with_foreach_and_error_if_nonfinite_on_a_global_model_raises_on_every_rank(world):
    mf.manual_seed(16)
    model = Mlp().to_global(everyone(), megatron_layout)
    loss = model(split_rows(np.ones((2 * world, 6), np.float32))).sum()
    loss.backward()
    model.fc2.bias.grad.fill_(float("nan"))
    with pytest.raises(RuntimeError, match="non-finite"):
        nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True, foreach=True)
    total = nn.utils.clip_grad_norm_(model.parameters(), 1.0, foreach=True)
    assert mf.isnan(total).item()


# ---------------------------------------------------------------- recommender


class Recommender(nn.Module):
    def __init__(self, users=16, items=20, dim=6):
        super().__init__()
        self.user, self.item = nn.Embedding(users, dim), nn.Embedding(items, dim)
        self.bias = nn.Embedding(items, 1)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, u, i):
        eu, ei = self.user(u), self.item(i)
        return (eu * ei).sum(-1) + self.bias(i).squeeze(-1) + self.mlp(mf.cat([eu, ei], -1)).squeeze(-1)


@pytest.mark.parametrize("opt_name", ["SGD", "Adagrad", "SparseAdam"])
def test_a_recommender_with_vocabulary_split_tables_and_repeated_ids_equals_one_device(world, opt_name):
    rng = np.random.default_rng(17)
    batches = [(rng.integers(0, 4, 4 * world), rng.integers(0, 20, 4 * world),
                rng.integers(0, 2, 4 * world).astype(np.float32)) for _ in range(3)]

    def program(model, to):
        tables = [model.user.weight, model.item.weight, model.bias.weight]
        rest = [p for n, p in model.named_parameters() if n.startswith("mlp")]
        if opt_name == "SparseAdam":
            opts = [mf.optim.SparseAdam(tables, lr=0.05), mf.optim.Adam(rest, lr=0.01)]
        else:
            opts = [getattr(mf.optim, opt_name)(model.parameters(), lr=0.1)]
        losses = []
        for u, i, y in batches:
            for o in opts:
                o.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(to(u), to(i)), to(y))
            loss.backward()
            for o in opts:
                o.step()
            losses.append(loss.item())
        return losses, states(model)

    sparse = opt_name == "SparseAdam"
    make = lambda: Recommender()  # noqa: E731
    mf.manual_seed(17)
    base = make()
    if sparse:
        for e in (base.user, base.item, base.bias):
            e.sparse = True
    want = program(base, mf.tensor)
    mf.manual_seed(17)
    model = make()
    if sparse:
        for e in (model.user, model.item, model.bias):
            e.sparse = True
    model.to_global(everyone(), lambda n, _: S(0) if n in ("user.weight", "item.weight", "bias.weight") else B)
    got = program(model, split_rows)
    # untouched rows stay as they were, as one device's
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


# ---------------------------------------------------------------- loss scaling by hand


def test_gradient_accumulation_with_a_hand_written_dynamic_loss_scale_equals_one_device(world):
    batches = data(18, 4 * world, count=4)

    def program(model, to):
        opt = mf.optim.SGD(model.parameters(), lr=0.1)
        scale, accumulate, skipped, losses = 2.0 ** 16, 2, 0, []
        for step in range(2):
            opt.zero_grad(set_to_none=False)
            for k in range(accumulate):
                x, y = batches[step * accumulate + k]
                loss = F.cross_entropy(model(to(x)), to(y))
                (loss * scale / accumulate).backward()
                losses.append(loss.item())
            if step == 0:  # an overflow, as float16 gives one
                model.fc1.weight.grad[0, 0] = float("inf")
            finite = all(mf.isfinite(p.grad).all().item() for p in model.parameters())
            if not finite:
                scale /= 2
                skipped += 1
                continue
            for p in model.parameters():
                p.grad.div_(scale)
            opt.step()
        return losses, [scale, skipped], states(model)

    mf.manual_seed(18)
    want = program(Mlp(), mf.tensor)
    mf.manual_seed(18)
    got = program(Mlp().to_global(everyone(), B), split_rows)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert got[1] == want[1] == [2.0 ** 15, 1]
    assert_states_close(got[2], want[2])


# ---------------------------------------------------------------- torch.distributed in training code


def test_a_loop_that_broadcasts_rank_0_s_permutation_and_all_reduces_avg_gradients_equals_one_process(pg):
    rng = np.random.default_rng(19)
    x = rng.standard_normal((4 * WORLD, 6)).astype(np.float32)
    y = rng.integers(0, 4, 4 * WORLD)
    mf.manual_seed(19 + RANK)  # differently seeded ranks
    model = Mlp()
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    mf.manual_seed(19)
    alone = Mlp()
    opt, aopt = mf.optim.SGD(model.parameters(), lr=0.1), mf.optim.SGD(alone.parameters(), lr=0.1)
    for epoch in range(2):
        perm = mf.randperm(len(x)) if RANK == 0 else mf.zeros(len(x), dtype=mf.int64)
        dist.broadcast(perm, src=0)
        order = perm.numpy()
        mine = order.reshape(WORLD, -1)[RANK]
        opt.zero_grad()
        loss = F.cross_entropy(model(mf.tensor(x[mine])), mf.tensor(y[mine]))
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        logged = loss.detach().clone()
        dist.all_reduce(logged)
        aopt.zero_grad()
        whole = sum(F.cross_entropy(alone(mf.tensor(x[part])), mf.tensor(y[part]))
                    for part in order.reshape(WORLD, -1)) / WORLD
        whole.backward()
        aopt.step()
        np.testing.assert_allclose(logged.item() / WORLD, whole.item(), rtol=1e-5)
    assert_states_close(states(model), states(alone))


def test_all_gather_into_tensor_of_features_for_a_global_negatives_loss_equals_one_process(pg):
    # CLIP-style: each rank gathers everyone's embeddings (no gradient through the gather) and
    # scores its rows against all of them.
    rng = np.random.default_rng(20)
    x = rng.standard_normal((2 * WORLD, 6)).astype(np.float32)
    mf.manual_seed(20)
    enc = nn.Linear(6, 4)
    mine = mf.tensor(x.reshape(WORLD, 2, 6)[RANK])
    z = F.normalize(enc(mine), dim=-1)
    everyone_z = mf.empty(2 * WORLD, 4)
    dist.all_gather_into_tensor(everyone_z, z.detach())
    parts = [mf.empty(2, 4) for _ in range(WORLD)]
    dist.all_gather(parts, z.detach())
    np.testing.assert_allclose(mf.cat(parts).numpy(), everyone_z.numpy(), rtol=0, atol=0)
    logits = z @ everyone_z.t() / 0.1
    labels = mf.arange(2) + 2 * RANK
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    mf.manual_seed(20)
    alone = nn.Linear(6, 4)
    za = F.normalize(alone(mf.tensor(x)), dim=-1)
    full = za @ za.detach().t() / 0.1
    want = F.cross_entropy(full[2 * RANK:2 * RANK + 2], mf.arange(2) + 2 * RANK)
    np.testing.assert_allclose(loss.item(), want.item(), rtol=1e-5)
    total = mf.tensor([loss.item()])
    dist.all_reduce(total, op=dist.ReduceOp.MAX)
    assert total.item() >= loss.item()


# ---------------------------------------------------------------- metrics read on every rank


def test_classification_metrics_read_with_item_from_global_logits_on_every_rank_equal_one_device(world):
    rng = np.random.default_rng(21)
    logits, y = rng.standard_normal((4 * world + 2, 5)).astype(np.float32), rng.integers(0, 5, 4 * world + 2)

    def metrics(lg, t):
        pred = lg.argmax(dim=1)
        top2 = lg.topk(2, dim=1).indices
        out = {
            "acc": (pred == t).float().mean().item(),
            "top2": (top2 == t.unsqueeze(1)).any(dim=1).sum().item(),
            "nll": F.cross_entropy(lg, t, reduction="sum").item(),
            "hist": mf.bincount(pred, minlength=5).tolist(),
            "conf_max": F.softmax(lg, -1).max().item(),
            "tp_class_2": ((pred == 2) & (t == 2)).sum().item(),
        }
        return out

    want = metrics(mf.tensor(logits), mf.tensor(y))
    for layout in (S(0), B):
        g = lambda a: mf.tensor(a, placement=everyone(), sbp=layout)  # noqa: E731
        got = metrics(g(logits), g(y))
        assert got.keys() == want.keys()
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-5, err_msg=name)


def test_a_regression_s_r2_and_running_means_from_global_tensors_equal_one_device(world):
    rng = np.random.default_rng(22)
    pairs = [(rng.standard_normal(2 * world + 1).astype(np.float32), rng.standard_normal(2 * world + 1)
              .astype(np.float32)) for _ in range(3)]

    def run(to):
        sse = sst = 0.0
        n = 0
        means = []
        for pred, target in pairs:
            p, t = to(pred), to(target)
            sse += ((p - t) ** 2).sum().item()
            sst += ((t - t.mean()) ** 2).sum().item()
            n += t.numel()
            means.append(float(p.mean()))
        return [1 - sse / sst, n] + means

    np.testing.assert_allclose(run(split_rows), run(mf.tensor), rtol=1e-5)


# ---------------------------------------------------------------- torchrun's environment


def test_a_script_reading_rank_world_size_and_local_rank_builds_its_placement_and_shards_as_one_device(pg):
    # as torch scripts read them: torchrun (here mpirun) sets them; a plain single process
    # has none, and the defaults make it rank 0 of 1
    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    assert (rank, world) == (dist.get_rank(), dist.get_world_size()) == (RANK, WORLD)
    assert 0 <= local_rank < world
    device = mf.device("cpu")
    placement = mf.placement(device.type, ranks=list(range(world)))
    batches = data(23, 2 * world)
    want = one_device_run(23, Mlp, lambda m, to: (train(m, mf.optim.Adam(m.parameters(), lr=0.01), batches, to),
                                                  states(m)))
    mf.manual_seed(23)
    model = Mlp().to(device).to_global(placement, B)
    opt = mf.optim.Adam(model.parameters(), lr=0.01)
    got = []
    for x, y in batches:
        shard = slice(rank * len(x) // world, (rank + 1) * len(x) // world)
        xb = mf.tensor(x[shard], device=device).to_global(placement, S(0))  # each rank's own rows
        yb = mf.tensor(y[shard], device=device).to_global(placement, S(0))
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        got.append(loss.item())
    np.testing.assert_allclose(got, want[0], rtol=1e-5)
    assert_states_close(states(model), want[1])


def test_ddp_built_from_the_environment_with_init_method_env_and_local_rank_device_ids_trains_as_one_process():
    dist.init_process_group(backend="gloo", init_method="env://")
    try:
        world = int(os.environ.get("WORLD_SIZE", 1))
        rank = int(os.environ.get("RANK", 0))
        batches = data(24, 2 * world)
        mf.manual_seed(24)
        model = DDP(Mlp(), device_ids=None, output_device=None, broadcast_buffers=True)
        mf.manual_seed(24)
        alone = Mlp()
        opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        aopt = mf.optim.SGD(alone.parameters(), lr=0.1, momentum=0.9)
        for x, y in batches:
            opt.zero_grad()
            F.cross_entropy(model(mf.tensor(np.split(x, world)[rank])), mf.tensor(np.split(y, world)[rank])).backward()
            opt.step()
            aopt.zero_grad()
            F.cross_entropy(alone(mf.tensor(x)), mf.tensor(y)).backward()
            aopt.step()
        assert_states_close(states(model.module), states(alone))
    finally:
        dist.destroy_process_group()


# ---------------------------------------------------------------- early stopping on rank 0


def test_early_stopping_on_a_global_model_decided_by_rank_0_and_broadcast_with_the_best_state_kept(world, pg):
    batches = data(25, 2 * world, count=8)
    val = data(26, 2 * world, count=1)[0]

    def program(model, to, decide):
        opt = mf.optim.SGD(model.parameters(), lr=0.3)
        best, best_state, patience, bad, stopped = float("inf"), None, 1, 0, None
        for epoch, (x, y) in enumerate(batches):
            train(model, opt, [(x, y)], to)
            with mf.no_grad():
                v = F.cross_entropy(model(to(val[0])), to(val[1])).item()
            if v < best - 1e-3:
                best, bad = v, 0
                best_state = {k: t.detach().clone() for k, t in model.state_dict().items()}
            else:
                bad += 1
            if decide(bad > patience):
                stopped = epoch
                break
        model.load_state_dict(best_state)
        return [stopped, best], states(model)

    def on_rank_0(stop):
        flag = mf.tensor([1 if (stop and RANK == 0) else 0])
        dist.broadcast(flag, src=0)
        return bool(flag.item())

    mf.manual_seed(25)
    want = program(Mlp(), mf.tensor, lambda stop: stop)
    mf.manual_seed(25)
    got = program(Mlp().to_global(everyone(), B), split_rows, on_rank_0)
    np.testing.assert_allclose(got[0][1], want[0][1], rtol=1e-5)
    assert got[0][0] == want[0][0]
    assert_states_close(got[1], want[1])


# ---------------------------------------------------------------- errors users hit


def test_a_shape_mismatch_inside_a_global_matmul_raises_a_clear_error_on_every_rank_and_the_job_goes_on(world):
    a = split_rows(np.ones((2 * world, 3), np.float32))
    b = replicated(np.ones((4, 5), np.float32))
    with pytest.raises(RuntimeError, match=r"3.*4|4.*3"):
        (a @ b).sum().item()
    layer = nn.Linear(5, 2).to_global(everyone(), B)
    with pytest.raises(RuntimeError, match="5|in_features|shape"):
        layer(a).sum().item()
    np.testing.assert_allclose((a.sum() * 2).item(), 12.0 * world)  # the ranks still agree


def test_a_bad_index_in_a_vocabulary_split_embedding_raises_index_error_on_every_rank(world):
    emb = nn.Embedding(8, 3).to_global(everyone(), lambda n, _: S(0))
    ids = np.arange(2 * world) % 8
    ids[-1] = 8  # out of range, on the last rank's part only
    with pytest.raises(IndexError):
        emb(split_rows(ids)).sum().item()
    with pytest.raises(IndexError):  # found by the last rank alone
        F.cross_entropy(split_rows(np.zeros((2 * world, 3), np.float32)), split_rows(ids)).item()
    mf.synchronize()  # raised once: nothing is left to raise again, or at exit
    assert emb(split_rows(ids % 8)).shape == (2 * world, 3)


def test_a_shape_mismatch_in_a_graph_s_build_raises_on_every_rank_naming_the_shapes(world):
    model = nn.Linear(6, 4).to_global(everyone(), B)

    class Bad(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            return self.model(x).reshape(3, -1, 7)

    with pytest.raises(RuntimeError):
        Bad()(split_rows(np.ones((2 * world, 6), np.float32))).numpy()
    assert model(split_rows(np.ones((2 * world, 6), np.float32))).shape == (2 * world, 4)


def test_a_loss_on_targets_of_the_wrong_length_raises_on_every_rank_in_ddp_code(pg):
    model = DDP(nn.Linear(4, 3))
    out = model(mf.ones(2, 4))
    with pytest.raises((RuntimeError, ValueError)):
        F.cross_entropy(out, mf.zeros(3, dtype=mf.int64)).backward()
    # the ranks' next collective still meets
    t = mf.tensor([float(RANK)])
    dist.all_reduce(t)
    assert t.item() == sum(range(WORLD))


def test_a_ddp_forward_that_never_went_backward_leaves_a_rank_0_only_backward_of_another_model_alone(pg):
    # A validation pass under grad (no no_grad) through DDP, then rank 0 alone computes a
    # saliency map with a probe model: the DDP average is set off by its own parameters'
    # gradients only, so nothing collective runs in rank 0's backward.
    model = DDP(nn.Linear(4, 3))
    model(mf.ones(2, 4))
    if RANK == 0:
        x = mf.ones(1, 4, requires_grad=True)
        nn.Linear(4, 1)(x).sum().backward()
        assert x.grad.shape == (1, 4)
    dist.barrier()
    assert model.module.weight.grad is None
    model(mf.full((2, 4), float(RANK))).sum().backward()  # the wrapper's own backward averages
    np.testing.assert_allclose(model.module.weight.grad.numpy(), np.full((3, 4), 2 * np.mean(range(WORLD))))
