"""2-rank programs as DDP and Megatron users write them (issue 37's hidden set, its kinds):
tensors made inside forward meet global parameters, graph steps after eager ones with
BatchNorm, a sampler feeding a global batch, tensor-parallel layers with clipping, and
checkpoints that cross world sizes. Each runs the same program on one device and on every
rank of the job, and compares."""
import math
import os
import shutil
import tempfile

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow import distributed as dist
from meshflow.distributed.elastic.multiprocessing.errors import record
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler

S, B = mf.sbp.split, mf.sbp.broadcast


def everyone(world):
    return mf.placement("cpu", ranks=list(range(world)))


def split_batch(world):
    p = everyone(world)
    return lambda a: mf.tensor(a, placement=p, sbp=S(0))


def states(model):
    return {name: value.numpy() for name, value in model.state_dict().items()}


def assert_states_close(got, want, rtol=1e-4, atol=1e-5):
    assert got.keys() == want.keys()
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=rtol, atol=atol, err_msg=name)


class CausalBlock(nn.Module):
    """A GPT block as written for one GPU: positions from arange, a bool tril mask inverted
    with ~ for masked_fill, a tensor constant, zeros + full, Python scalars."""

    def __init__(self, vocab=13, dim=16, context=6):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(context, dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.ln, self.head = nn.LayerNorm(dim), nn.Linear(dim, vocab, bias=False)
        self.dim = dim

    def forward(self, idx):
        _, t = idx.size()
        pos = mf.arange(0, t, dtype=mf.long, device=idx.device).unsqueeze(0)
        h = self.wte(idx) + self.wpe(pos)
        q, k, v = self.qkv(self.ln(h)).split(self.dim, dim=2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = mf.tril(mf.ones(t, t, dtype=mf.bool))
        att = F.softmax(att.masked_fill(~mask, float("-inf")), dim=-1)
        h = h + self.proj(att @ v) * mf.tensor(0.5)
        return self.head(h + (mf.zeros(1, 1, self.dim) + mf.full((self.dim,), 0.1)))


def test_a_causal_block_that_makes_its_masks_in_forward_trains_data_parallel_as_one_device(world):
    rng = np.random.default_rng(0)
    batches = [(rng.integers(0, 13, (2 * world, 6)), rng.integers(0, 13, (2 * world, 6))) for _ in range(2)]

    def train(model, to):
        # SGD: the keys' bias has a gradient of rounding noise only (softmax ignores a shift of
        # every key), which Adam would scale up to steps of lr
        opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        losses = []
        for idx, target in batches:
            opt.zero_grad()
            logits = model(to(idx))
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), to(target).view(-1))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, states(model)

    mf.manual_seed(0)
    want = train(CausalBlock(), mf.tensor)
    mf.manual_seed(0)
    model = CausalBlock().to_global(everyone(world), B)
    got = train(model, split_batch(world))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


class LstmClassifier(nn.Module):
    """An LSTM classifier that passes its zero state explicitly, as many tutorials do."""

    def __init__(self):
        super().__init__()
        self.emb, self.lstm, self.fc = nn.Embedding(20, 8), nn.LSTM(8, 12, num_layers=2, batch_first=True), nn.Linear(12, 5)

    def forward(self, x):
        state = (mf.zeros(2, x.size(0), 12), mf.zeros(2, x.size(0), 12))
        out, _ = self.lstm(self.emb(x), state)
        return self.fc(out[:, -1, :])


def test_an_lstm_making_its_zero_state_with_a_split_head_and_clipping_equals_one_device(world):
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 20, (2 * world + 1, 7)), rng.integers(0, 5, 2 * world + 1)  # uneven batch

    def train(model, to):
        opt = mf.optim.Adam(model.parameters(), lr=0.01)
        losses = []
        for _ in range(2):
            opt.zero_grad()
            loss = nn.CrossEntropyLoss()(model(to(x)), to(y))
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            losses.append(loss.item())
        return losses, states(model)

    mf.manual_seed(3)
    want = train(LstmClassifier(), mf.tensor)
    mf.manual_seed(3)
    model = LstmClassifier().to_global(everyone(world), lambda name, _: S(0) if name.startswith("fc") else B)
    got = train(model, split_batch(world))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    assert_states_close(got[1], want[1])


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.g = mf.Generator().manual_seed(7)

    def forward(self, x):
        noise = mf.randn(x.shape[0], 4) * 0.1 + mf.randn(x.shape, generator=self.g) * 0.01 + mf.randn_like(x) * 0.001
        keep = (mf.rand(4) > 0.3).float()
        return self.lin((x + noise) * keep)


def test_noise_drawn_in_forward_with_and_without_a_generator_equals_one_device(world):
    x = np.arange(12.0 * world, dtype=np.float32).reshape(3 * world, 4) / 10
    mf.manual_seed(11)
    reference = Noisy()
    want = reference(mf.tensor(x))
    want.sum().backward()
    mf.manual_seed(11)
    model = Noisy().to_global(everyone(world), B)
    got = model(split_batch(world)(x))
    got.sum().backward()
    np.testing.assert_allclose(got.numpy(), want.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.lin.weight.grad.numpy(), reference.lin.weight.grad.numpy(), rtol=1e-5, atol=1e-6)


class TrainStep(nn.Graph):
    def __init__(self, model, opt):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


class Infer(nn.Graph):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def build(self, x):
        return self.model(x).softmax(-1)


class SmallCnn(nn.Module):
    """BatchNorm2d and BatchNorm1d with running state, dropout, and tensors made in forward."""

    def __init__(self):
        super().__init__()
        self.conv, self.bn, self.drop = nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.Dropout(0.0)
        self.fc, self.bn1 = nn.Linear(4 * 4 * 4, 3), nn.BatchNorm1d(3, momentum=0.3)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        h = self.drop(h * (mf.ones(1, 4, 1, 1) * mf.tensor(0.5) + 0.5)).flatten(1)
        return self.bn1(self.fc(h)) + mf.arange(3, dtype=mf.float32) * 0.01


@pytest.mark.parametrize("eager_left", ["grads set", "grads zeroed", "grads None"])
def test_graph_steps_after_eager_ones_with_batch_norm_and_an_eval_graph_equal_one_device(world, eager_left):
    rng = np.random.default_rng(4)
    batch = 2 * world + 1  # uneven over the ranks
    data = [(rng.standard_normal((batch, 1, 8, 8)).astype(np.float32), rng.integers(0, 3, batch)) for _ in range(4)]

    def program(to, graph):
        mf.manual_seed(0)
        model = SmallCnn()
        if graph:
            model.to_global(everyone(world), B)
        opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

        def eager_step(x, y):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            return loss

        losses = [eager_step(to(x), to(y)).item() for x, y in data[:2]]
        if eager_left != "grads set":
            opt.zero_grad(set_to_none=eager_left == "grads None")
        step, infer = (TrainStep(model, opt), Infer(model)) if graph else (eager_step, lambda x: model(x).softmax(-1))
        losses.append(step(to(data[2][0]), to(data[2][1])).item())
        model.eval()
        probabilities = infer(to(data[0][0])).numpy()
        model.train()
        losses.append(step(to(data[3][0]), to(data[3][1])).item())
        return losses, probabilities, states(model)

    want = program(mf.tensor, graph=False)
    got = program(split_batch(world), graph=True)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-4, atol=1e-6)
    assert_states_close(got[2], want[2])
    assert int(got[2]["bn.num_batches_tracked"]) == 4


def test_a_distributed_sampler_feeds_a_global_batch_as_one_process_on_the_concatenated_batches(world, rank):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10 * world + 3, 3)).astype(np.float32)
    data = TensorDataset(mf.tensor(x), mf.tensor(x @ np.array([[1.0], [-2.0], [0.5]], np.float32)))

    def loader(r, epoch):
        sampler = DistributedSampler(data, num_replicas=world, rank=r, shuffle=True, seed=5)
        sampler.set_epoch(epoch)
        return DataLoader(data, batch_size=4, sampler=sampler)

    def train(model, batches):
        opt = mf.optim.SGD(model.parameters(), lr=0.05)
        losses = []
        for xb, yb in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, model.weight.numpy()

    p = everyone(world)
    mf.manual_seed(0)
    got = train(nn.Linear(3, 1).to_global(p, B),
                ((xb.to_global(p, S(0)), yb.to_global(p, S(0))) for epoch in range(2) for xb, yb in loader(rank, epoch)))
    mf.manual_seed(0)
    want = train(nn.Linear(3, 1),
                 ((mf.cat([b[0] for b in parts]), mf.cat([b[1] for b in parts]))
                  for epoch in range(2) for parts in zip(*(loader(r, epoch) for r in range(world)))))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)


class MegatronMlp(nn.Module):
    def __init__(self, dim=6, hidden=10):
        super().__init__()
        self.ln, self.fc1, self.fc2, self.out = nn.LayerNorm(dim), nn.Linear(dim, hidden), nn.Linear(hidden, dim), nn.Linear(dim, 4)

    def forward(self, x):
        return self.out(x + self.fc2(F.gelu(self.fc1(self.ln(x)))))


def test_column_then_row_parallel_linears_with_clipping_equal_one_device(world):
    # fc1's weight [hidden, dim] split on rows: its output split on hidden (S(1)); fc2's
    # weight split on its input dim: partial sums, reduced where the residual needs them.
    rng = np.random.default_rng(3)
    data = [(rng.standard_normal((5, 6)).astype(np.float32), rng.integers(0, 4, 5)) for _ in range(3)]
    layout = {"fc1.weight": S(0), "fc1.bias": S(0), "fc2.weight": S(1)}

    def train(model, to):
        opt = mf.optim.AdamW(model.parameters(), lr=0.05)
        losses, norms = [], []
        for x, y in data:
            opt.zero_grad()
            loss = F.cross_entropy(model(to(x)), to(y))
            loss.backward()
            norms.append(float(nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.3)))
            opt.step()
            losses.append(loss.item())
        return losses, norms, states(model)

    mf.manual_seed(0)
    want = train(MegatronMlp(), mf.tensor)
    mf.manual_seed(0)
    model = MegatronMlp().to_global(everyone(world), lambda name, _: layout.get(name, B))
    p = everyone(world)
    assert model.fc1(mf.tensor(data[0][0], placement=p, sbp=B)).sbp == (S(1),)
    got = train(model, lambda a: mf.tensor(a, placement=p, sbp=B))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)
    assert_states_close(got[2], want[2])
    assert model.fc2.weight.sbp == (S(1),) and model.fc1.weight.grad.sbp == (S(0),)


class SplitMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.up, self.down, self.norm = nn.Linear(5, 7), nn.Linear(7, 3), nn.LayerNorm(3)

    def forward(self, x):
        return self.norm(self.down(mf.relu(self.up(x))))


SPLIT_LAYOUT = {"up.weight": S(0), "up.bias": S(0), "down.weight": S(1)}  # 7 rows: uneven over 2 and 4


@pytest.fixture
def pg():
    dist.init_process_group("gloo")
    yield
    dist.destroy_process_group()


@pytest.fixture
def shared_path(pg, rank, request):
    """A file name every rank sees: rank 0 makes the directory and sends its name."""
    root = [tempfile.mkdtemp(prefix="meshflow-programs-") if rank == 0 else None]
    dist.broadcast_object_list(root, src=0)
    yield os.path.join(root[0], request.node.name.replace("/", "_") + ".pt")
    dist.barrier()
    if rank == 0:
        shutil.rmtree(root[0])


def test_a_tensor_parallel_checkpoint_with_optimizer_state_loads_in_one_process(world, rank, shared_path):
    # Saved by every rank (split on dim 0 and dim 1, uneven); loaded by one process alone
    # with torch's spelling into a one-device model and optimizer, which go on as the
    # global ones do.
    p = everyone(world)
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
    mf.manual_seed(0)
    model = SplitMlp().to_global(p, lambda name, _: SPLIT_LAYOUT.get(name, B))
    opt = mf.optim.Adam(model.parameters(), lr=0.1)
    model(mf.tensor(x, placement=p, sbp=B)).sum().backward()
    opt.step()
    mf.save({"model": model.state_dict(), "opt": opt.state_dict()}, shared_path)
    opt.zero_grad()
    model(mf.tensor(x, placement=p, sbp=B)).sum().backward()
    opt.step()
    want = model(mf.tensor(x, placement=p, sbp=B)).numpy()
    if rank == 0:
        ckpt = mf.load(shared_path, map_location="cpu")
        assert not ckpt["model"]["up.weight"].is_global
        alone = SplitMlp()
        alone.load_state_dict(ckpt["model"])
        alone_opt = mf.optim.Adam(alone.parameters(), lr=0.1)
        alone_opt.load_state_dict(ckpt["opt"])
        alone(mf.tensor(x)).sum().backward()
        alone_opt.step()
        np.testing.assert_allclose(alone(mf.tensor(x)).detach().numpy(), want, rtol=1e-5, atol=1e-6)


def test_a_one_process_checkpoint_loads_into_a_tensor_parallel_model_and_optimizer(world, rank, shared_path):
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
    mf.manual_seed(1)
    alone = SplitMlp()
    alone_opt = mf.optim.Adam(alone.parameters(), lr=0.1)
    alone(mf.tensor(x)).sum().backward()
    alone_opt.step()
    if rank == 0:  # as a one-process program saves it; local tensors: rank 0 writes alone
        mf.save({"model": alone.state_dict(), "opt": alone_opt.state_dict()}, shared_path)
    dist.barrier()
    p = everyone(world)
    model = SplitMlp().to_global(p, lambda name, _: SPLIT_LAYOUT.get(name, B))
    opt = mf.optim.Adam(model.parameters(), lr=0.1)
    ckpt = mf.load(shared_path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["opt"])
    assert model.up.weight.sbp == (S(0),) and model.down.weight.sbp == (S(1),)
    for step_model, step_opt, to in ((alone, alone_opt, mf.tensor), (model, opt, split_batch(world))):
        step_opt.zero_grad()
        step_model(to(np.tile(x, (world, 1)))).sum().backward()
        step_opt.step()
    np.testing.assert_allclose(model.up.weight.numpy(), alone.up.weight.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.down.weight.numpy(), alone.down.weight.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_everyday_reads_of_a_data_parallel_step_equal_one_device(world):
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((3 * world, 4)).astype(np.float32), rng.integers(0, 3, 3 * world)

    def program(to, model):
        xs, ys = to(x), to(y)
        logits = model(xs)
        loss = F.cross_entropy(logits, ys)
        out = {"fmt": f"{loss:.4f}", "float": float(loss), "len": (len(xs), xs.size(0), xs.numel()),
               "accuracy": (logits.argmax(dim=1) == ys).sum().item() / ys.size(0),
               "local targets": F.cross_entropy(logits, mf.arange(xs.size(0)) % 3).item(),
               "stack": mf.stack([mf.zeros(4), xs[0]]).sum().item(),
               "cat": mf.cat([mf.ones(1, 4), xs], dim=0).mean().item(),
               "where": (mf.where(xs > 0, xs, 0.0).sum().item(), mf.where(mf.arange(4) > 1, xs, mf.zeros(4)).sum().item()),
               "index": (xs[mf.tensor([0, 2, 1])].sum().item(), xs[xs[:, 0] > 0].sum().item())}
        into = mf.zeros(4)
        into += xs.sum(0)
        into[1] = xs[1, 1] * 2
        out["written"] = into.tolist()
        loss.backward()
        out["norm"] = float(nn.utils.clip_grad_norm_(model.parameters(), 1.0))
        out["argmax"] = logits.detach().argmax(1).tolist()
        return out

    mf.manual_seed(0)
    want = program(mf.tensor, nn.Linear(4, 3))
    mf.manual_seed(0)
    got = program(split_batch(world), nn.Linear(4, 3).to_global(everyone(world), B))
    assert got["fmt"] == want.pop("fmt") and got.pop("fmt")
    for key, value in want.items():
        np.testing.assert_allclose(np.array(got[key], float), np.array(value, float), rtol=1e-5, err_msg=key)


def test_torchrun_scripts_record_decorator_and_the_average_all_reduce(world, rank, pg, tmp_path, monkeypatch):
    t = mf.tensor([float(rank)])
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    assert t.item() == pytest.approx((world - 1) / 2)

    @record
    def main(fail):
        if fail:
            raise KeyError("bad")
        return "done"

    assert main(False) == "done"
    monkeypatch.setenv("TORCHELASTIC_ERROR_FILE", str(tmp_path / "error.json"))
    with pytest.raises(KeyError):
        main(True)
    assert "KeyError" in (tmp_path / "error.json").read_text()


@pytest.mark.parametrize("where", ["global", "local"])
def test_random_tensors_made_locally_in_a_graphs_build_are_drawn_anew_at_every_run_as_eager(world, where):
    # torch.randn(3) or a local tensor's normal_() in a forward: in a graph they were traced
    # as constants, the same noise at every step; they are drawn at each run, with eager's
    # values for the same seed (a global step's on every rank alike; a local step's on each).
    def noisy(x):
        return x + mf.randn(3) + mf.rand(x.shape[0], 1) + mf.empty(3).normal_() + mf.randint(0, 9, (3,)).float()

    class Step(nn.Graph):
        def build(self, x):
            return noisy(x)

    value = np.zeros((2 * world, 3), np.float32)
    mf.manual_seed(0)
    want = [noisy(mf.tensor(value)).numpy() for _ in range(3)]
    x = split_batch(world)(value) if where == "global" else mf.tensor(value)
    mf.manual_seed(0)
    step = Step()
    got = [step(x).numpy() for _ in range(3)]
    assert not np.allclose(got[0], got[1])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
