"""torch's DTensor family (meshflow.distributed.device_mesh / .tensor / .tensor.parallel /
.fsdp) as a port writes it: local shapes are torch.chunk's, full_tensor and redistribute give
the one-device value, tensor-parallel and fully-sharded training equal one-device training,
and the programs in dtensor_programs/ (torch's spelling) report on each rank what torch
reported running them on gloo (dtensor_programs/record_torch.py recorded it)."""
import glob
import json
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from meshflow.distributed.tensor.parallel import (ColwiseParallel, PrepareModuleInput, RowwiseParallel,
                                                  SequenceParallel, parallelize_module)
from meshflow.distributed.fsdp import FSDPModule, fully_shard

RANK, WORLD = mf.env.get_rank(), mf.env.get_world_size()
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dtensor_programs")


@pytest.mark.parametrize("name", sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(PROGRAMS, "d*.py"))))
def test_program_reports_what_torch_reported_on_this_rank(name, monkeypatch):
    recorded = os.path.join(PROGRAMS, f"expected_{WORLD}.json")
    if not os.path.exists(recorded):
        pytest.skip(f"torch's values are recorded for 2 and 4 ranks, not {WORLD}")
    monkeypatch.syspath_prepend(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from test_port_programs9 import check_program
    joined = mf.distributed.is_initialized()
    try:
        check_program(PROGRAMS, {name: json.load(open(recorded))[name][RANK]}, name, monkeypatch)
    finally:
        if not joined:  # the program's init_process_group, undone for the tests that follow
            mf.distributed.destroy_process_group()


def _chunk(n, k, c):
    """torch.chunk's part c of k of a dimension of size n, as (start, stop)."""
    size = -(-n // k)
    return min(c * size, n), min((c + 1) * size, n)


def _value(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("shape", [(5, 3), (8, 6), (3, 7), (2,)])
@pytest.mark.parametrize("place", [Shard(0), Shard(-1), Replicate()])
def test_distribute_to_local_full_tensor_and_every_redistribute(shape, place):
    mesh = init_device_mesh("cpu", (WORLD,))
    x = _value(shape)
    d = distribute_tensor(mf.tensor(x), mesh, [place])
    place = Shard(place.dim % len(shape)) if place.is_shard() else place  # torch's placements say Shard(1)
    assert isinstance(d, DTensor) and d.placements == (place,) and d.device_mesh == mesh
    local = d.to_local().numpy()
    if place.is_shard():
        lo, hi = _chunk(shape[place.dim], WORLD, RANK)
        np.testing.assert_array_equal(local, np.take(x, range(lo, hi), axis=place.dim))
    else:
        np.testing.assert_array_equal(local, x)
    np.testing.assert_array_equal(d.full_tensor().numpy(), x)
    for target in (Shard(0), Shard(len(shape) - 1), Replicate(), Partial()):
        moved = d.redistribute(mesh, [target])
        assert moved.placements == (target,)
        np.testing.assert_allclose(moved.full_tensor().numpy(), x, rtol=1e-6)
    back = DTensor.from_local(mf.tensor(local), mesh, [place])
    np.testing.assert_array_equal(back.full_tensor().numpy(), x)


def test_partial_to_replicate_sums_and_from_local_gradient():
    mesh = init_device_mesh("cpu", (WORLD,))
    parts = [_value((3, 4), seed=r) for r in range(WORLD)]
    local = mf.tensor(parts[RANK], requires_grad=True)
    d = DTensor.from_local(local, mesh, [Partial()])
    whole = d.redistribute(mesh, [Replicate()])
    np.testing.assert_allclose(whole.to_local().numpy(), sum(parts), rtol=1e-5)
    (whole.to_local() * 2).sum().backward()  # torch: a Replicate result's local gradient is this rank's own
    np.testing.assert_array_equal(local.grad.numpy(), np.full((3, 4), 2, np.float32))


def test_from_local_and_to_local_gradients_are_torch_s_parts_on_uneven_shards():
    mesh = init_device_mesh("cpu", (WORLD,))
    lo, hi = _chunk(5, WORLD, RANK)
    weights = _value((5, 3), seed=9)
    local = mf.tensor(_value((5, 3))[lo:hi], requires_grad=True)
    (DTensor.from_local(local, mesh, [Shard(0)]) * mf.tensor(weights)).sum().backward()
    np.testing.assert_array_equal(local.grad.numpy(), weights[lo:hi])
    d = distribute_tensor(mf.tensor(_value((5, 3)), requires_grad=True), mesh, [Shard(0)])
    (d.to_local() * mf.tensor(weights[lo:hi])).sum().backward()
    np.testing.assert_array_equal(d.grad.full_tensor().numpy(), weights)


def test_2d_mesh_nested_shards_match_torch_chunks():
    if WORLD != 4:
        pytest.skip("a 2 x 2 mesh needs 4 ranks")
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    row, col = RANK // 2, RANK % 2
    assert mesh["tp"].mesh.numpy().tolist() == [2 * row, 2 * row + 1] and mesh["dp"].size() == 2
    assert mesh.get_group("tp").ranks == [2 * row, 2 * row + 1] and mesh.get_group("dp").ranks == [col, 2 + col]
    assert mesh.get_coordinate() == [row, col] and mesh["dp"].get_local_rank() == row
    x = _value((7, 5))
    for places, want in [((Shard(0), Shard(1)), x[slice(*_chunk(7, 2, row)), slice(*_chunk(5, 2, col))]),
                         ((Replicate(), Shard(0)), x[slice(*_chunk(7, 2, col))]),
                         ((Shard(0), Shard(0)), x[slice(*_chunk(7, 2, row))][slice(*_chunk(_chunk(7, 2, row)[1] -
                                                                                            _chunk(7, 2, row)[0], 2,
                                                                                            col))])]:
        d = distribute_tensor(mf.tensor(x), mesh, list(places))
        np.testing.assert_array_equal(d.to_local().numpy(), want)
        np.testing.assert_array_equal(d.full_tensor().numpy(), x)
        np.testing.assert_array_equal(d.redistribute(mesh, [Shard(1), Replicate()]).full_tensor().numpy(), x)


def test_factories_make_their_parts_in_place():
    from meshflow.distributed import tensor as dt
    mesh = init_device_mesh("cpu", (WORLD,))
    lo, hi = _chunk(5, WORLD, RANK)
    for make, value in [(dt.zeros, 0.0), (dt.ones, 1.0), (dt.rand, None), (dt.randn, None), (dt.empty, None)]:
        t = make(5, 3, device_mesh=mesh, placements=[Shard(0)], requires_grad=True)
        assert isinstance(t, DTensor) and t.placements == (Shard(0),) and tuple(t.shape) == (5, 3), make.__name__
        assert tuple(t.to_local().shape) == (hi - lo, 3) and t.requires_grad, make.__name__
        if value is not None:
            np.testing.assert_array_equal(t.full_tensor().numpy(), np.full((5, 3), value, np.float32))
    t = dt.full((4, 2), 7.0, device_mesh=mesh, placements=[Replicate()], dtype=mf.float64)
    assert t.dtype == mf.float64 and t.placements == (Replicate(),)
    np.testing.assert_array_equal(t.to_local().numpy(), np.full((4, 2), 7.0))


def test_distribute_module_places_parameters_and_converts_inputs_and_outputs():
    from meshflow.distributed.tensor import distribute_module
    mesh = init_device_mesh("cpu", (WORLD,))
    mf.manual_seed(4)
    ref = nn.Linear(3, 2 * WORLD)
    mf.manual_seed(4)
    model = nn.Linear(3, 2 * WORLD)

    def partition(name, module, device_mesh):
        module.weight = nn.Parameter(distribute_tensor(module.weight.detach(), device_mesh, [Shard(0)]))

    distribute_module(model, mesh, partition,
                      input_fn=lambda mod, inputs, m: tuple(DTensor.from_local(x, m, [Replicate()]) for x in inputs),
                      output_fn=lambda mod, out, m: out.full_tensor())
    assert model.weight.placements == (Shard(0),) and model.bias.placements == (Replicate(),)
    x = mf.tensor(_value((4, 3), seed=5))
    np.testing.assert_allclose(model(x).numpy(), ref(x).numpy(), rtol=1e-5, atol=1e-6)


def _mlp(seed=0):
    mf.manual_seed(seed)
    return nn.Sequential(nn.Linear(6, 8 * WORLD), nn.ReLU(), nn.Linear(8 * WORLD, 5))


def _train(model, batches, steps=3):
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for x, y in batches[:steps]:
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.item()))
    return losses


def _full(t):
    return (t.full_tensor() if t.is_global else t).numpy()


def test_tp_mlp_colwise_then_rowwise_trains_as_one_device():
    mesh = init_device_mesh("cpu", (WORLD,))
    ref, model = _mlp(), _mlp()
    parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    assert model[0].weight.placements == (Shard(0),) and model[2].weight.placements == (Shard(1),)
    assert tuple(model[0].weight.to_local().shape) == (8, 6)
    batches = [(mf.tensor(_value((4, 6), s)), mf.tensor(_value((4, 5), s + 10))) for s in range(3)]
    assert _train(model, batches) == pytest.approx(_train(ref, batches), rel=1e-5)
    for (name, p), (_, q) in zip(model.state_dict().items(), ref.state_dict().items()):
        assert isinstance(p, DTensor), name
        np.testing.assert_allclose(_full(p), q.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)


class _Attention(nn.Module):
    def __init__(self, dim=8, heads=2 * WORLD):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads * WORLD
        width = heads * self.head_dim
        self.q, self.k, self.v = nn.Linear(dim, width), nn.Linear(dim, width), nn.Linear(dim, width)
        self.o = nn.Linear(width, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = self.norm(x)
        q, k, v = (f(x) for f in (self.q, self.k, self.v))
        b, s, _ = q.shape  # the whole sequence: the projections gathered it
        heads = q.shape[-1] // self.head_dim  # the local heads under tensor parallelism, as torch code
        q, k, v = (t.reshape(b, s, heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        a = mf.softmax(q @ k.transpose(-2, -1) / self.head_dim ** 0.5, dim=-1) @ v
        return self.o(a.transpose(1, 2).reshape(b, s, heads * self.head_dim))


def test_tp_attention_with_sequence_parallel_norm_matches_one_device():
    mesh = init_device_mesh("cpu", (WORLD,))
    mf.manual_seed(1)
    ref = _Attention()
    mf.manual_seed(1)
    model = _Attention()
    parallelize_module(model, mesh, {
        "norm": SequenceParallel(),
        "q": ColwiseParallel(input_layouts=Shard(1)), "k": ColwiseParallel(input_layouts=Shard(1)),
        "v": ColwiseParallel(input_layouts=Shard(1)), "o": RowwiseParallel(output_layouts=Shard(1))})
    x = _value((2, 2 * WORLD, 8), seed=3)
    out = model(mf.tensor(x[:, slice(*_chunk(2 * WORLD, WORLD, RANK))]))
    want = ref(mf.tensor(x))
    np.testing.assert_allclose(out.numpy(), want.numpy()[:, slice(*_chunk(2 * WORLD, WORLD, RANK))],
                               rtol=1e-4, atol=1e-5)
    out.sum().backward()
    want.sum().backward()
    for name, p in model.named_parameters():
        q = dict(ref.named_parameters())[name]
        np.testing.assert_allclose(_full(p.grad), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_prepare_module_input_takes_a_local_shard():
    mesh = init_device_mesh("cpu", (WORLD,))
    model = nn.Sequential(nn.Identity())
    parallelize_module(model, mesh, {"0": PrepareModuleInput(input_layouts=(Shard(0),),
                                                             desired_input_layouts=(Replicate(),))})
    out = model(mf.tensor(np.full((2, 3), RANK, np.float32)))
    assert out.placements == (Replicate(),)
    np.testing.assert_array_equal(out.to_local().numpy(), np.repeat(np.arange(WORLD), 2)[:, None] * np.ones(3))


def test_fully_shard_mlp_training_loop_equals_one_device():
    mesh = init_device_mesh("cpu", (WORLD,))
    ref, model = _mlp(2), _mlp(2)
    for layer in (model[0], model[2]):
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    assert isinstance(model, FSDPModule) and model[0].weight.placements == (Shard(0),)
    assert tuple(model[0].weight.to_local().shape) == (8, 6)
    data = [(_value((4 * WORLD, 6), s), _value((4 * WORLD, 5), s + 10)) for s in range(3)]
    mine = [(mf.tensor(x[4 * RANK:4 * RANK + 4]), mf.tensor(y[4 * RANK:4 * RANK + 4])) for x, y in data]
    local_losses = _train(model, mine)
    ref_losses = _train(ref, [(mf.tensor(x), mf.tensor(y)) for x, y in data])
    # each rank's loss is its batch's; their mean is the one-device loss before each step
    assert np.mean(np.array(local_losses)) != 0 and len(local_losses) == len(ref_losses)
    for (name, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(_full(p), q.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_2d_mesh_dp_by_tp_mlp_forward_and_gradients():
    if WORLD != 4:
        pytest.skip("a 2 x 2 mesh needs 4 ranks")
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    ref, model = _mlp(3), _mlp(3)
    parallelize_module(model, mesh["tp"], {"0": ColwiseParallel(), "2": RowwiseParallel()})
    x = _value((4, 6), seed=RANK // 2)  # each data-parallel row its own batch
    out = model(mf.tensor(x))
    np.testing.assert_allclose(out.numpy(), ref(mf.tensor(x)).numpy(), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    # The parameters are one global tensor over both rows: their gradient sums the rows'.
    ref(mf.tensor(np.concatenate([_value((4, 6), seed=r) for r in range(2)]))).sum().backward()
    for (name, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(_full(p.grad), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_a_replicate_from_local_s_gradient_is_the_whole_sum_on_every_rank():
    # A column-parallel Linear's input gradient is partial (each rank's columns' share); torch
    # redistributes it to the input's Replicate, so the local gradient of the block input (and
    # of a norm before it) is the whole one, the same on every rank.
    mesh = init_device_mesh("cpu", (WORLD,))
    ref, model = _mlp(4), _mlp(4)
    parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    x, ref_x = (mf.tensor(_value((3, 6), seed=6), requires_grad=True) for _ in range(2))
    model(x).square().sum().backward()
    ref(ref_x).square().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), ref_x.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_fully_shard_over_tensor_parallelism_on_a_2d_mesh_trains_as_one_device():
    if WORLD != 4:
        pytest.skip("a 2 x 2 mesh needs 4 ranks")
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    ref, model = _mlp(5), _mlp(5)
    parallelize_module(model, mesh["tp"], {"0": ColwiseParallel(), "2": RowwiseParallel()})
    fully_shard(model, mesh=mesh["dp"])
    # Every parameter lives on both axes, sharded over "dp" beside its tensor-parallel layout.
    assert all(p.device_mesh.ndim == 2 for p in model.parameters())
    assert model[0].weight.placements[1] == Shard(0) and model[2].weight.placements[1] == Shard(1)
    dp = mesh["dp"].get_local_rank()
    data = [(_value((4, 6), s), _value((4, 5), s + 10)) for s in range(6)]
    mine = [(mf.tensor(x), mf.tensor(y)) for x, y in data[dp::2]]  # each "dp" row its batch; a "tp" pair shares it
    _train(model, mine)
    # FSDP averages the rows' gradients: one device on both rows' batches at half the loss each.
    whole = [tuple(mf.tensor(np.concatenate([data[s][i], data[s + 1][i]])) for i in (0, 1)) for s in (0, 2, 4)]
    _train(ref, whole)
    for (name, p), (_, q) in zip(model.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(_full(p), q.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_a_write_through_to_local_reaches_the_dtensor_as_torch_s_local_tensor():
    # Each rank's saved shards copied back in place (torch's per-rank checkpoint idiom).
    mesh = init_device_mesh("cpu", (WORLD,))
    model = parallelize_module(_mlp(6), mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    saved = {k: v.to_local().clone() for k, v in model.state_dict().items()}
    fresh = parallelize_module(_mlp(7), mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    with mf.no_grad():
        for k, v in fresh.state_dict().items():
            v.to_local().copy_(saved[k])
        fresh[0].weight.to_local().mul_(2)
    np.testing.assert_allclose(_full(fresh[0].weight), 2 * _full(model[0].weight))
    np.testing.assert_allclose(_full(fresh[2].weight), _full(model[2].weight))
    g = distribute_tensor(mf.zeros(4 * WORLD, 3), mesh, [Shard(0)])
    with mf.no_grad():
        mf.Tensor.to_local(g).fill_(RANK + 1.0)  # meshflow's own to_local is a view too
    np.testing.assert_array_equal(_full(g), np.repeat(np.arange(1.0, WORLD + 1), 4)[:, None] * np.ones(3))
