"""Rank-0-only code as DDP users write it (issue 37's commonest failing programs): a split
batch's loss or metric read under `if rank == 0:` (item(), float(), an f-string, print, a
comparison with the best so far, tolist()), a broadcast model printed or saved there, an
evaluation forward of a broadcast model there, a compiled step's loss read there. A small
partial value gets a twin in broadcast when every rank makes it (global_tensor.h,
with_read_twin), and reads of values whole on every rank need no collective, so the ranks
that do not read go on. Each program equals one device, whose run is the reference. Runs on
1, 2 and 4 ranks, each test under test_dist_user_programs4's time limit."""
import os
import tempfile

import numpy as np

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

from test_dist_user_programs2 import RANK, WORLD, B, S, everyone
from test_dist_user_programs3 import Step
from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)


def batches(count=4, rows=4):
    rng = np.random.default_rng(37)
    return [(rng.standard_normal((rows * WORLD, 8)).astype(np.float32), rng.integers(0, 4, rows * WORLD))
            for _ in range(count)]


def make_model(seed=11):
    mf.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))


def train_logging_on_rank_0(model, to_input, reader):
    """The DDP loop: step on every rank, log on rank 0 alone (what `reader` returns)."""
    opt = mf.optim.Adam(model.parameters(), lr=1e-2)
    logged, best = [], float("inf")
    for x, y in batches():
        x, y = to_input(x), to_input(y)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with mf.no_grad():
            correct = (model(x).argmax(1) == y).sum()
        if RANK == 0:
            logged.append(reader(loss, correct))
            if loss < best:  # a comparison with a Python number, then bool(): on rank 0 alone
                best = loss.item()
    return logged, best


def run_both(reader, rtol=1e-5):
    want = train_logging_on_rank_0(make_model(), mf.tensor, reader)
    model = make_model().to_global(everyone(), B)
    got = train_logging_on_rank_0(model, lambda a: mf.tensor(a, placement=everyone(), sbp=S(0)), reader)
    if RANK == 0:
        np.testing.assert_allclose(np.array(got[0], dtype=float), np.array(want[0], dtype=float), rtol=rtol)
        np.testing.assert_allclose(got[1], want[1], rtol=rtol)
    return model


def test_a_split_batch_s_loss_and_metric_read_by_rank_0_alone_equal_one_device():
    run_both(lambda loss, correct: [loss.item(), float(loss), float(f"{loss:.6f}"), correct.item(),
                                    (correct / 4).item(), loss.tolist(), (loss.detach() * 2 + 1).item()])


def test_printing_a_loss_and_numpy_of_it_on_rank_0_alone():
    def reader(loss, correct):
        text = repr(loss)
        assert text.startswith(f"tensor({loss.item():.4f}") and ("placement=" in text) == loss.is_global, text
        return [float(loss.numpy()), int(correct)]
    run_both(reader)


def test_a_broadcast_model_printed_evaluated_and_saved_by_rank_0_alone(tmp_path_factory):
    model = run_both(lambda loss, correct: loss.item())
    want = run_both_reference_states()
    root = tempfile.mkdtemp(prefix="meshflow-rank0-") if RANK == 0 else None
    if RANK == 0:
        text = str(model[0].weight)
        assert "Parameter containing" in text or text.startswith("tensor("), text
        np.testing.assert_allclose(model[2].bias.tolist(), want["2.bias"], rtol=1e-4, atol=1e-5)
        # An evaluation forward of a broadcast model on a batch of rank 0's own.
        x = np.random.default_rng(3).standard_normal((5, 8)).astype(np.float32)
        with mf.no_grad():
            got = model(mf.tensor(x, placement=everyone(), sbp=B)).numpy()
            wanted = local_model(want)(mf.tensor(x)).numpy()
        np.testing.assert_allclose(got, wanted, rtol=1e-4, atol=1e-5)
        for name in ("model.safetensors", "model.pt"):
            path = os.path.join(root, name)
            mf.save(model.state_dict(), path)
            loaded = mf.load(path)
            for key, value in want.items():
                np.testing.assert_allclose(loaded[key].numpy(), value, rtol=1e-4, atol=1e-5, err_msg=key)
    # The ranks meet again: a read every rank makes, then the next step's collectives.
    assert np.isfinite(model[0].weight.sum().item())


def run_both_reference_states():
    model = make_model()
    train_logging_on_rank_0(model, mf.tensor, lambda loss, correct: loss.item())
    return {k: v.detach().numpy() for k, v in model.state_dict().items()}


def local_model(state):
    model = make_model()
    model.load_state_dict({k: mf.tensor(v) for k, v in state.items()})
    return model


def test_a_compiled_step_s_loss_read_by_rank_0_alone_equals_one_device():
    def run(model, to_input):
        opt = mf.optim.SGD(model.parameters(), lr=0.1)
        step = Step(model, opt, F.cross_entropy)
        logged = []
        for x, y in batches():
            loss = step(to_input(x), to_input(y))
            if RANK == 0:
                logged.append(loss.item())
                logged.append(float(loss))
        return logged
    want = run(make_model(), mf.tensor)
    got = run(make_model().to_global(everyone(), B), lambda a: mf.tensor(a, placement=everyone(), sbp=S(0)))
    if RANK == 0:
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_a_small_partial_value_carries_a_twin_and_backward_through_it_equals_one_device():
    x = np.random.default_rng(5).standard_normal((4 * WORLD, 3)).astype(np.float32)
    mf.manual_seed(1)
    want_model = nn.Linear(3, 1)
    mf.manual_seed(1)
    model = nn.Linear(3, 1).to_global(everyone(), B)
    loss = model(mf.tensor(x, placement=everyone(), sbp=S(0))).mean()
    # Ops on the loss take its twin (broadcast); backward through them equals one device.
    (loss * 3 - 1).backward()
    (want_model(mf.tensor(x)).mean() * 3 - 1).backward()
    np.testing.assert_allclose(model.weight.grad.numpy(), want_model.weight.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.bias.grad.numpy(), want_model.bias.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_rank_0_generates_alone_with_a_broadcast_model_as_one_device():
    # Greedy decoding under `if rank == 0:`: an embedding (whose index check agrees among
    # ranks on split inputs) of a broadcast token, every rank holding the model whole.
    def generate(model, to_input):
        tok, out = 3, []
        with mf.no_grad():
            for _ in range(4):
                tok = int(model(to_input(np.array([tok]))).argmax())
                out.append(tok)
        return out
    mf.manual_seed(21)
    want_model = nn.Sequential(nn.Embedding(10, 6), nn.Linear(6, 10))
    mf.manual_seed(21)
    model = nn.Sequential(nn.Embedding(10, 6), nn.Linear(6, 10)).to_global(everyone(), B)
    want = generate(want_model, mf.tensor)
    if RANK == 0:
        assert generate(model, lambda a: mf.tensor(a, placement=everyone(), sbp=B)) == want
    assert model[1].bias.sum().item() == want_model[1].bias.sum().item()


def test_a_data_parallel_step_s_loss_costs_one_small_all_reduce_and_no_agreement():
    # cross_entropy's two sums over a split batch are one vector, whose twin is the one
    # conversion the loss costs (two twins before); the twin's all-reduce carries each rank's
    # status word (boxing/execute.h, PartStatus) in place of an agreement of its own. What is
    # left to exchange is the agreement on the targets' range (the fused op checks its data).
    model = make_model().to_global(everyone(), B)
    x, y = batches(1)[0]
    want = F.cross_entropy(make_model()(mf.tensor(x)), mf.tensor(y)).item()
    x, y = (mf.tensor(a, placement=everyone(), sbp=S(0)) for a in (x, y))
    logits = model(x)
    F.cross_entropy(logits, y).item()  # the plans, made and agreed on once
    before, exchanges = mf.comm_stats(), mf._C.metadata_exchanges()
    loss = F.cross_entropy(logits, y)
    issued = {k: v - before[k] for k, v in mf.comm_stats().items() if k != "bytes_sent" and v != before[k]}
    assert issued == ({"all_reduce": 1} if WORLD > 1 else {}), issued
    if WORLD > 1:
        assert mf._C.metadata_exchanges() - exchanges == 1
    assert loss.sbp == (B,)  # whole: read by any rank alone
    if RANK == 0:
        np.testing.assert_allclose(loss.item(), want, rtol=1e-5)


def test_uneven_parts_and_rank_0_s_reads_pass_the_fingerprint_of_the_ranks_calls():
    # Every collective of a conversion carries a fingerprint of the ranks' calls (comm.h,
    # CallTrail) of logical shapes only: parts of different sizes on each rank, and reads and
    # comparisons rank 0 makes alone, are the same calls.
    mesh = mf.placement("cpu", ranks=list(range(WORLD)))
    rows = [r + 2 for r in range(WORLD)]
    full = np.arange(sum(rows) * 4, dtype=np.float32).reshape(-1, 4) / 10
    start = sum(rows[:RANK])
    x = mf.tensor(full[start:start + rows[RANK]]).to_global(mesh, mf.sbp.split(0))
    mf.manual_seed(0)
    net = nn.Linear(4, 1).to_global(mesh, mf.sbp.broadcast)
    opt = mf.optim.SGD(net.parameters(), lr=0.01)
    best = float("inf")
    for _ in range(3):
        w, b = net.weight.numpy(), net.bias.numpy()
        loss = net(x).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if RANK == 0:
            np.testing.assert_allclose(loss.item(), ((full @ w.T + b) ** 2).mean(), rtol=1e-5)
            best = min(best, float(loss))
            with mf.no_grad():
                assert (loss < best + 1).item()  # a whole value: rank 0's alone
    np.testing.assert_allclose(x.sum().item(), full.sum(), rtol=1e-6)
