"""torch.distributed's spelling (meshflow.distributed) and DistributedDataParallel as a port
from torch writes them: every rank holds local tensors; the collectives equal NumPy's
reductions of every rank's values; DDP training equals one device training on the whole
batch (the ranks' batches concatenated), gradient accumulation under no_sync included."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.distributed as dist
import meshflow.nn as nn
from meshflow.nn.parallel import DistributedDataParallel as DDP

RANK, WORLD = mf.env.get_rank(), mf.env.get_world_size()


@pytest.fixture
def pg():
    dist.init_process_group("gloo")
    yield
    dist.destroy_process_group()


def _value(r, shape=(3, 2)):
    return (np.arange(np.prod(shape)).reshape(shape) * (r + 1) - r).astype(np.float32)


@pytest.mark.parametrize("op, reduce", [(dist.ReduceOp.SUM, np.sum), (dist.ReduceOp.AVG, np.mean),
                                        (dist.ReduceOp.MAX, np.max), (dist.ReduceOp.MIN, np.min),
                                        (dist.ReduceOp.PRODUCT, np.prod)])
def test_all_reduce_equals_numpy_over_ranks(pg, op, reduce):
    t = mf.tensor(_value(RANK))
    assert dist.all_reduce(t, op=op) is None
    want = reduce(np.stack([_value(r) for r in range(WORLD)]), axis=0)
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6)


def test_broadcast_gather_scatter_and_reduce_scatter(pg):
    src = WORLD - 1
    t = mf.tensor(_value(RANK))
    dist.broadcast(t, src=src)
    np.testing.assert_array_equal(t.numpy(), _value(src))
    parts = [mf.zeros(3, 2) for _ in range(WORLD)]
    dist.all_gather(parts, mf.tensor(_value(RANK)))
    for r in range(WORLD):
        np.testing.assert_array_equal(parts[r].numpy(), _value(r))
    out = mf.zeros(3 * WORLD, 2)
    dist.all_gather_into_tensor(out, mf.tensor(_value(RANK)))
    np.testing.assert_array_equal(out.numpy(), np.concatenate([_value(r) for r in range(WORLD)]))
    whole = [_value(r, (2 * WORLD, 3)) for r in range(WORLD)]
    mine = mf.zeros(2, 3)
    dist.reduce_scatter_tensor(mine, mf.tensor(whole[RANK]))
    np.testing.assert_array_equal(mine.numpy(), sum(whole)[2 * RANK:2 * RANK + 2])
    got = mf.tensor(_value(RANK))
    dist.reduce(got, dst=0)
    np.testing.assert_array_equal(got.numpy(), sum(_value(r) for r in range(WORLD)) if RANK == 0 else _value(RANK))
    gathered = [mf.zeros(3, 2) for _ in range(WORLD)] if RANK == 0 else None
    dist.gather(mf.tensor(_value(RANK)), gathered, dst=0)
    if RANK == 0:
        for r in range(WORLD):
            np.testing.assert_array_equal(gathered[r].numpy(), _value(r))
    piece = mf.zeros(3, 2)
    dist.scatter(piece, [mf.tensor(_value(r + 10)) for r in range(WORLD)] if RANK == 0 else None, src=0)
    np.testing.assert_array_equal(piece.numpy(), _value(RANK + 10))
    dist.barrier()


def test_objects_and_groups(pg):
    objs = [None] * WORLD
    dist.all_gather_object(objs, {"rank": RANK, "text": "x" * RANK})
    assert objs == [{"rank": r, "text": "x" * r} for r in range(WORLD)]
    box = [{"lr": 0.1}, "a"] if RANK == 0 else [None, None]
    dist.broadcast_object_list(box, src=0)
    assert box == [{"lr": 0.1}, "a"]
    mine = [None]
    dist.scatter_object_list(mine, [{"shard": r} for r in range(WORLD)] if RANK == 0 else None, src=0)
    assert mine == [{"shard": RANK}]
    assert dist.get_world_size() == WORLD and dist.get_rank() == RANK and dist.get_backend() == "gloo"
    evens = dist.new_group([r for r in range(WORLD) if r % 2 == 0])
    t = mf.tensor([float(RANK)])
    dist.all_reduce(t, group=evens)
    assert t.item() == (sum(range(0, WORLD, 2)) if RANK % 2 == 0 else RANK)
    assert dist.get_rank(evens) == (RANK // 2 if RANK % 2 == 0 else -1)


def test_a_ddp_state_dict_loads_into_the_bare_model_after_consume_prefix(pg):
    from meshflow.nn.modules.utils import consume_prefix_in_state_dict_if_present
    model = DDP(_net(seed=0))
    state = model.state_dict()
    assert all(k.startswith("module.") for k in state)
    consume_prefix_in_state_dict_if_present(state, "module.")
    bare = _net(seed=4)
    bare.load_state_dict(state)
    for p, q in zip(bare.parameters(), model.module.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


@pytest.mark.skipif(WORLD < 2, reason="a pair of ranks")
def test_send_and_recv_are_calls_of_the_two_ranks_alone(pg):
    # The tutorials' point-to-point: rank 0 sends, rank 1 receives, and back; ranks beyond
    # the pair make no call at all, as torch's.
    if RANK == 0:
        dist.send(mf.arange(3.0) + 1, dst=1)
        back = mf.zeros(2, dtype=mf.int64)
        assert dist.recv(back, src=1) == 1
        assert back.tolist() == [7, 8]
        work = dist.isend(mf.full((2, 2), 5.0), dst=1)
        work.wait()
    elif RANK == 1:
        got = mf.zeros(3)
        dist.recv(got, src=0)
        assert got.tolist() == [1.0, 2.0, 3.0]
        dist.send(mf.tensor([7, 8]), dst=0)
        into = mf.zeros(2, 2)
        dist.irecv(into, src=0).wait()
        assert into.tolist() == [[5.0, 5.0], [5.0, 5.0]]
    dist.barrier()


@pytest.mark.skipif(WORLD < 2, reason="a pair of ranks")
def test_send_and_recv_that_do_not_fit_raise_on_both_ends(pg):
    if RANK in (0, 1):
        with pytest.raises(ValueError, match=r"\[(send|recv)\] rank \d (sends|receives) \d float32 elements but rank "
                                             r"\d (sends|receives) \d float32 elements; expected each end to receive what "
                                             r"the other sends, in order: the same numbers and dtypes"):
            if RANK == 0:
                dist.send(mf.ones(3), dst=1)
            else:
                dist.recv(mf.zeros(4), src=0)
        with pytest.raises(ValueError, match=r"rank \d sends 2 float32 elements but rank \d sends"):
            dist.send(mf.ones(2), dst=1 - RANK)  # both send: refused, not a wait
    dist.barrier()


def test_bad_calls_raise(pg):
    with pytest.raises(RuntimeError, match="twice"):
        dist.init_process_group("gloo")
    with pytest.raises(ValueError, match="local tensor"):
        dist.all_reduce(mf.ones(2).to_global(mf.placement("cpu", ranks=list(range(WORLD))), mf.sbp.broadcast))
    with pytest.raises(ValueError, match="unknown reduce op"):
        dist.all_reduce(mf.ones(2), op="median")
    with pytest.raises(ValueError, match="one per rank"):
        dist.all_gather([mf.ones(2)] * (WORLD + 1), mf.ones(2))


def test_needs_init_and_the_job_s_size():
    dist.destroy_process_group()  # and forgets the placements made before (which make the group)
    with pytest.raises(RuntimeError, match="not been initialized"):
        dist.get_rank()
    with pytest.raises(RuntimeError, match="not been initialized"):
        DDP(nn.Linear(2, 2))
    with pytest.raises(ValueError, match=f"this job has {WORLD} ranks"):
        dist.init_process_group("gloo", world_size=WORLD + 1)
    assert not dist.is_initialized()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.unused = nn.Linear(5, 7), nn.Linear(7, 3), nn.Linear(2, 2)

    def forward(self, x):
        return self.fc2(mf.tanh(self.fc1(x)))


def _net(seed):
    rng, net = np.random.default_rng(seed), Net()
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    return net


@pytest.mark.parametrize("accumulate", [1, 2])
def test_ddp_training_equals_one_device_on_the_whole_batch(pg, accumulate):
    rng = np.random.default_rng(7)
    steps, per_rank = 3, 4
    xs = rng.standard_normal((steps, accumulate, WORLD * per_rank, 5)).astype(np.float32)
    ys = rng.integers(0, 3, (steps, accumulate, WORLD * per_rank))
    model = DDP(_net(seed=RANK))  # every rank starts from rank 0's weights
    ref = _net(seed=0)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    ref_opt = mf.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    mine = slice(RANK * per_rank, (RANK + 1) * per_rank)
    for s in range(steps):
        for a in range(accumulate):
            x, y = mf.tensor(xs[s, a, mine]), mf.tensor(ys[s, a, mine])
            if a < accumulate - 1:
                with model.no_sync():
                    loss_fn(model(x), y).backward()
            else:
                loss_fn(model(x), y).backward()
            loss_fn(ref(mf.tensor(xs[s, a])), mf.tensor(ys[s, a])).backward()
        assert model.module.unused.weight.grad is None
        opt.step()
        ref_opt.step()
        opt.zero_grad()
        ref_opt.zero_grad()
    for (name, p), q in zip(model.module.named_parameters(), ref.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6, err_msg=name)
    assert list(model.state_dict())[0] == "module.fc1.weight"


def test_ddp_averages_a_gradient_only_some_ranks_made(pg):
    net = _net(seed=0)
    model = DDP(net, find_unused_parameters=True)
    loss = model(mf.ones(1, 5)).sum()
    if RANK == 0:
        loss = loss + net.unused(mf.ones(1, 2)).sum()
    loss.backward()
    np.testing.assert_allclose(net.unused.weight.grad.numpy(), np.ones((2, 2)) / WORLD)


def test_ddp_copies_rank0_buffers_at_construction_and_each_forward(pg):
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.5))
    with mf.no_grad():
        net[1].running_mean.fill_(float(RANK))
    model = DDP(net)
    np.testing.assert_array_equal(net[1].running_mean.numpy(), np.zeros(4))
    x = mf.tensor(np.random.default_rng(RANK).standard_normal((6, 3)).astype(np.float32))
    batch_mean = net[0](x).detach().numpy().mean(axis=0)
    model(x)
    after = [None] * WORLD
    dist.all_gather_object(after, net[1].running_mean.numpy())
    np.testing.assert_allclose(after[RANK], 0.5 * batch_mean, rtol=1e-5, atol=1e-6)
    model(x)  # starts again from rank 0's statistics
    np.testing.assert_allclose(net[1].running_mean.numpy(), 0.5 * after[0] + 0.5 * batch_mean, rtol=1e-5, atol=1e-6)


def test_ddp_copies_buffers_before_a_forward_after_one_under_grad_as_torch(pg):
    # torch's rule: a forward copies rank 0's buffers when the forward before it ran under
    # grad outside no_sync. So the first evaluation after training takes rank 0's running
    # statistics (every rank must make it); the next ones under no_grad keep each rank's.
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.5))
    model = DDP(net)
    x = mf.tensor(np.random.default_rng(RANK).standard_normal((6, 3)).astype(np.float32))
    model(x)  # training: each rank's statistics from its own batch
    trained = [None] * WORLD
    dist.all_gather_object(trained, net[1].running_mean.numpy())
    with mf.no_grad():
        model(x)  # copies rank 0's first, then updates them with this rank's batch
    np.testing.assert_allclose(net[1].running_mean.numpy(), 0.5 * trained[0] + trained[RANK],
                               rtol=1e-5, atol=1e-6)
    model.eval()
    before = net[1].running_mean.numpy()
    with mf.no_grad():
        model(x)  # no copy: the forward before ran under no_grad; eval changes nothing
    np.testing.assert_array_equal(net[1].running_mean.numpy(), before)
    with model.no_sync():
        model.train()
        model(x)  # the forward before did not sync: no copy here either
    np.testing.assert_allclose(net[1].running_mean.numpy(), 0.5 * before + trained[RANK],
                               rtol=1e-5, atol=1e-6)


def _cnn(seed):
    rng = np.random.default_rng(seed)
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    return net


def test_sync_batch_norm_under_ddp_equals_one_device_on_uneven_batches(pg):
    """convert_sync_batchnorm + DDP (torch's recipe): the statistics are the whole batch's,
    and the step equals one device minimizing the mean of the ranks' losses."""
    model = DDP(nn.SyncBatchNorm.convert_sync_batchnorm(_cnn(seed=0)))
    ref = _cnn(seed=0)
    opt, ref_opt = (mf.optim.SGD(m.parameters(), lr=0.1) for m in (model, ref))
    sizes = [3 + (r % 2) for r in range(WORLD)]  # uneven parts
    start = [sum(sizes[:r]) for r in range(WORLD + 1)]
    rng = np.random.default_rng(5)
    for _ in range(2):
        x = rng.standard_normal((start[-1], 3, 6, 6)).astype(np.float32)
        y = rng.integers(0, 2, start[-1])
        mine = slice(start[RANK], start[RANK + 1])
        nn.functional.cross_entropy(model(mf.tensor(x[mine])), mf.tensor(y[mine])).backward()
        out = ref(mf.tensor(x))
        losses = [nn.functional.cross_entropy(out[start[r]:start[r + 1]], mf.tensor(y[start[r]:start[r + 1]]))
                  for r in range(WORLD)]
        (sum(losses) / WORLD).backward()
        for o in (opt, ref_opt):
            o.step()
            o.zero_grad()
    for (name, p), q in zip(model.module.state_dict().items(), ref.state_dict().values()):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_rank0_saves_a_torch_named_file_every_rank_loads_it(pg, tmp_path_factory):
    """DDP's checkpoint idiom: `if rank == 0: save(...)`, barrier, load with map_location."""
    holder = [str(tmp_path_factory.mktemp("ddp") / "ckpt.pt") if RANK == 0 else None]
    dist.broadcast_object_list(holder, src=0)
    path = holder[0]
    model = DDP(_net(seed=0))
    opt = mf.optim.AdamW(model.parameters(), lr=0.01)
    model(mf.ones(2, 5)).sum().backward()
    opt.step()
    if RANK == 0:
        mf.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": 3}, path)
    dist.barrier()
    state = mf.load(path, map_location="cpu")
    dist.barrier()  # every rank has read it before the ranks write it again below
    assert state["epoch"] == 3 and state["opt"]["param_groups"][0]["lr"] == 0.01
    restored = _net(seed=9)
    restored.load_state_dict(state["model"])
    for p, q in zip(restored.parameters(), model.module.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    mf.save(state["model"], path)  # every rank replacing the one file, each with a whole one
    dist.barrier()
    assert set(mf.load(path)) == set(state["model"])


@pytest.mark.skipif(WORLD < 2, reason="several ranks")
def test_distributed_nn_functional_collectives_carry_their_gradients(pg):
    # torch.distributed.nn.functional: all_gather's gradient sums every rank's gradient of
    # this rank's part; all_reduce's sums every rank's gradient of the sum.
    import meshflow.distributed.nn.functional as dist_fn
    x = (mf.ones(2) * (RANK + 1)).requires_grad_()
    parts = dist_fn.all_gather(x)
    assert [p.tolist() for p in parts] == [[r + 1.0] * 2 for r in range(WORLD)]
    sum((i + 1) * p for i, p in enumerate(parts)).sum().backward()
    assert x.grad.tolist() == [WORLD * (RANK + 1.0)] * 2
    y = (mf.ones(2) * (RANK + 1)).requires_grad_()
    total = dist_fn.all_reduce(y)
    assert total.tolist() == [WORLD * (WORLD + 1) / 2] * 2
    (total * (RANK + 1)).sum().backward()
    assert y.grad.tolist() == [WORLD * (WORLD + 1) / 2] * 2
