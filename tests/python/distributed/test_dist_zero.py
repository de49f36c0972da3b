"""ZeRO as SBP (mf.optim's zero_stage): stages 1, 2 and 3 train exactly as plain data
parallelism and one device on meshes [2], [4] and [2, 2] with tensor parallelism on the
second axis, with uneven first dimensions; their optimizer state, gradients and parameters
take the layouts the stage says; their state dicts load into any stage and layout; stage
3's eager prefetch trains bitwise as without it; and each stage's measured peak memory per
rank falls as the stage says."""
import os
import shutil
import tempfile

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow import sbp

from meshflow.utils.checkpoint import checkpoint

from conftest import mesh_ranks

B, S0, S1 = sbp.broadcast, sbp.split(0), sbp.split(1)
STEPS = 3


class Net(nn.Module):
    """Uneven first dimensions on purpose (7, 5, 3 rows over 2 or 4 ranks)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 7)
        self.ln = nn.LayerNorm(7)
        self.fc2 = nn.Linear(7, 5)
        self.head = nn.Linear(5, 3)

    def forward(self, x):
        return self.head(F.gelu(self.fc2(self.ln(F.gelu(self.fc1(x))))))


def tensor_parallel_sbp(name, p):
    """On a [data, model] mesh: fc1 column parallel, fc2 row parallel, the rest broadcast."""
    if name.startswith("fc1."):
        return (B, S0)
    if name == "fc2.weight":
        return (B, S1)
    return (B, B)


# The elementwise rules' optimizers (RuleOptimizer, nn/optim.h), each with an option that
# changes its state, and the state tensor a test reads for the layout.
RULES = {
    "adamax": (lambda params, z: mf.optim.Adamax(params, lr=0.01, weight_decay=0.01, zero_stage=z), "exp_inf"),
    "nadam": (lambda params, z: mf.optim.NAdam(params, lr=0.01, weight_decay=0.01, decoupled_weight_decay=True,
                                               zero_stage=z), "exp_avg"),
    "radam": (lambda params, z: mf.optim.RAdam(params, lr=0.01, betas=(0.9, 0.9), zero_stage=z), "exp_avg_sq"),
    "adadelta": (lambda params, z: mf.optim.Adadelta(params, lr=0.5, weight_decay=0.01, zero_stage=z), "acc_delta"),
    "asgd": (lambda params, z: mf.optim.ASGD(params, lr=0.05, t0=1, lambd=0.01, zero_stage=z), "ax"),
    "rprop": (lambda params, z: mf.optim.Rprop(params, lr=0.01, zero_stage=z), "step_size"),
}


def make_optimizer(kind, params, zero_stage):
    if kind in RULES:
        return RULES[kind][0](params, zero_stage)
    if kind == "sgd":
        return mf.optim.SGD(params, lr=0.1, momentum=0.9, zero_stage=zero_stage)
    if kind == "adam":
        return mf.optim.Adam(params, lr=0.01, weight_decay=0.01, zero_stage=zero_stage)
    if kind == "adamw_amsgrad":  # its running maximum is state sharded as the moments
        return mf.optim.AdamW(params, lr=0.01, amsgrad=True, zero_stage=zero_stage)
    if kind == "sgd_maximize":
        return mf.optim.SGD(params, lr=0.01, momentum=0.9, maximize=True, zero_stage=zero_stage)
    return mf.optim.AdamW(params, lr=0.01, zero_stage=zero_stage)


def build(mesh_name, world, zero_stage, kind):
    """(model, optimizer, placement) with the model's parameters laid out for data
    parallelism on the mesh (and tensor parallelism on [2, 2]'s second axis); placement None:
    one device."""
    mf.manual_seed(0)
    model = Net()
    placement = None
    if mesh_name is not None:
        placement = mf.placement("cpu", ranks=mesh_ranks(mesh_name, world))
        model.to_global(placement, tensor_parallel_sbp if mesh_name == "2x2" else (lambda name, p: B))
    return model, make_optimizer(kind, model.parameters(), zero_stage), placement


def batch(step, placement, rows=10):
    """Step's batch, the same logical values on every layout (10 rows: uneven over 4 ranks)."""
    mf.manual_seed(100 + step)
    if placement is None:
        return mf.randn(rows, 6), mf.randn(rows, 3)
    kw = {"placement": placement, "sbp": S0 if len(placement.hierarchy) == 1 else (S0, B)}
    return mf.randn(rows, 6, **kw), mf.randn(rows, 3, **kw)


def train(model, opt, placement, steps=STEPS, first=0, rows=10):
    losses = []
    for step in range(first, first + steps):
        x, y = batch(step, placement, rows)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    return losses


def values(model):
    return {name: p.numpy() for name, p in model.named_parameters()}


@pytest.mark.parametrize("kind, mesh_name", [(kind, mesh) for kind in ["sgd", "adam", "adamw", "adamw_amsgrad",
                                                                        "sgd_maximize"] for mesh in ["2", "4", "2x2"]]
                         + [(kind, "2") for kind in sorted(RULES)])
def test_every_stage_trains_as_plain_data_parallelism_and_one_device(world, mesh_name, kind):
    model, opt, _ = build(None, world, 0, kind)
    one_device = train(model, opt, None)
    one_device_values = values(model)
    runs = {}
    for stage in (0, 1, 2, 3):
        model, opt, placement = build(mesh_name, world, stage, kind)
        runs[stage] = (train(model, opt, placement), values(model))
    for stage, (losses, final) in runs.items():
        np.testing.assert_allclose(losses, runs[0][0], rtol=1e-6, err_msg=f"stage {stage}")
        np.testing.assert_allclose(losses, one_device, rtol=1e-5, err_msg=f"stage {stage} vs one device")
        for name, value in final.items():
            np.testing.assert_allclose(value, runs[0][1][name], rtol=1e-5, atol=1e-6, err_msg=f"{stage} {name}")
            np.testing.assert_allclose(value, one_device_values[name], rtol=1e-4, atol=1e-6)
    # Stage 1 updates the same elements with the same gradients: bitwise plain data parallelism.
    assert runs[1][0] == runs[0][0]


COLLECTIVE_NAMES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")


def issued_so_far():
    stats = mf.comm_stats()
    return sum(stats[name] for name in COLLECTIVE_NAMES)


@pytest.mark.parametrize("checkpointed", [False, True])
@pytest.mark.parametrize("mesh_name", ["2", "4"])
def test_stage_3_s_eager_prefetch_trains_bitwise_as_without_it_and_as_one_device(world, mesh_name, checkpointed):
    """Stage 3's eager prefetch (each parameter's gather also issues the next one's, in the
    order the passes gathered them before): the same losses and parameters bitwise as
    gathering each where it is used, and as one device within rounding, with as many
    collectives (every prefetched gather is used, also where activation checkpointing runs
    the forward again inside backward); from the second step on, the next layer's gather
    is issued before the layer runs."""
    model, opt, _ = build(None, world, 0, "adamw")
    one_device = train(model, opt, None)
    runs = {}
    previous = mf._C.zero_prefetch()
    try:
        for on in (False, True):
            mf._C.set_zero_prefetch(on)
            model, opt, placement = build(mesh_name, world, 3, "adamw")
            if checkpointed:
                whole = model.forward
                model.forward = lambda x: checkpoint(whole, x)
            seen = []
            hook = model.fc2.register_forward_pre_hook(lambda module, args: seen.append(issued_so_far() - start))
            start = issued_so_far()
            losses = train(model, opt, placement)
            runs[on] = (losses, values(model), issued_so_far() - start, seen)
            hook.remove()
    finally:
        mf._C.set_zero_prefetch(previous)
    (plain, plain_values, plain_issued, plain_seen), (ahead, ahead_values, ahead_issued, ahead_seen) = runs[False], runs[True]
    assert ahead == plain
    for name, value in plain_values.items():
        np.testing.assert_array_equal(ahead_values[name], value, err_msg=name)
    np.testing.assert_allclose(ahead, one_device, rtol=1e-5)
    assert ahead_issued == plain_issued
    if checkpointed or mf.env.get_rank() not in placement.ranks:
        return  # fc2 runs twice a step; a rank outside the mesh gathers nothing
    assert ahead_seen[0] == plain_seen[0]  # the first step learns the order
    for step in range(1, STEPS):  # and one more: fc2.weight's gather, issued as ln.bias was used
        assert ahead_seen[step] == plain_seen[step] + 1, (ahead_seen, plain_seen)


def data_axes_split(layout_sbp, original_sbp, ndim):
    """Whether `layout_sbp` is the shard layout of a parameter laid out as `original_sbp`:
    split where it was broadcast, along its first dimension no other axis splits (so the
    shard is a local slice of it), the other axes kept."""
    taken = {s.dim for s in original_sbp if s != B}
    dim = next((d for d in range(ndim) if d not in taken), 0)
    return tuple(sbp.split(dim) if s == B else s for s in original_sbp) == tuple(layout_sbp)


@pytest.mark.parametrize("stage", [1, 2, 3])
@pytest.mark.parametrize("mesh_name", ["2", "2x2"])
def test_state_gradients_and_parameters_take_the_stage_s_layouts(world, mesh_name, stage):
    model, opt, placement = build(mesh_name, world, 0, "adam")
    original = {name: tuple(p.sbp) for name, p in model.named_parameters()}
    model, opt, placement = build(mesh_name, world, stage, "adam")
    x, y = batch(0, placement)
    F.mse_loss(model(x), y).backward()
    for name, p in model.named_parameters():
        assert data_axes_split(p.grad.sbp, original[name], p.ndim) == (stage >= 2), (name, p.grad.sbp)
        assert data_axes_split(p.sbp, original[name], p.ndim) == (stage == 3), (name, p.sbp)
    opt.step()
    for (name, p), state in zip(model.named_parameters(), opt.state.values()):
        assert data_axes_split(state["exp_avg"].sbp, original[name], p.ndim), (name, state["exp_avg"].sbp)
        assert data_axes_split(p.sbp, original[name], p.ndim) == (stage == 3)
        # Each rank holds its part only.
        local = state["exp_avg_sq"].to_local()
        assert local.numel() < p.numel() or p.numel() < 2


@pytest.fixture(scope="module")
def shared_root():
    """A directory every rank sees: rank 0 makes it and broadcasts its name as a tensor."""
    name = tempfile.mkdtemp(prefix="meshflow-zero-") if mf.env.get_rank() == 0 else ""
    codes = np.zeros(256, np.int64)
    codes[:len(name)] = list(name.encode())
    on_rank0 = mf.tensor(codes, placement=mf.placement("cpu", ranks=[0]), sbp=B)
    everywhere = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    received = on_rank0.to_global(placement=everywhere, sbp=B).to_local().numpy()
    root = bytes(int(c) for c in received if c).decode()
    yield root
    mf._C.agree("", "test cleanup")  # nobody is still reading
    if mf.env.get_rank() == 0:
        shutil.rmtree(root)


@pytest.mark.parametrize("saved_stage,loaded_stage", [(1, 3), (3, 0), (2, 1), (0, 2)])
@pytest.mark.parametrize("kind", ["sgd", "adamw"])
def test_a_zero_checkpoint_resumes_in_any_stage_and_layout(world, shared_root, saved_stage, loaded_stage, kind):
    path = os.path.join(shared_root, f"{kind}-{saved_stage}-{loaded_stage}")
    mesh_name = "4" if world >= 4 else "2"
    model, opt, placement = build(mesh_name, world, 0, kind)
    expected = train(model, opt, placement, steps=4)
    model, opt, placement = build(mesh_name, world, saved_stage, kind)
    first = train(model, opt, placement, steps=2)
    mf.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
    # Loaded on another mesh (the [2] one) with another stage.
    model, opt, placement = build("2", world, loaded_stage, kind)
    state = mf.load(path)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    rest = train(model, opt, placement, steps=2, first=2)
    np.testing.assert_allclose(first + rest, expected, rtol=1e-5)
    # And back: the resumed optimizer's state_dict is the plain one's, values alike.
    plain_model, plain_opt, plain_placement = build("2", world, 0, kind)
    plain_model.load_state_dict(state["model"])
    plain_opt.load_state_dict(state["opt"])
    for i, entries in plain_opt.state_dict()["state"].items():
        for name, value in entries.items():
            np.testing.assert_array_equal(value.numpy(), state["opt"]["state"][i][name].numpy())


def test_the_stage_is_set_once_before_the_first_step(world):
    model, opt, placement = build("2", world, 1, "adamw")
    with pytest.raises(ValueError, match="set once, before the first step"):
        opt._impl.zero_stage = 2
    with pytest.raises(ValueError, match="zero_stage must be 0, 1, 2 or 3; got 5"):
        mf.optim.SGD(model.parameters(), lr=0.1, zero_stage=5)


def test_a_stage_3_parameter_written_between_forward_and_backward_raises(world):
    model, opt, placement = build("2", world, 3, "sgd")
    x, y = batch(0, placement)
    loss = F.mse_loss(model(x), y)
    with mf.no_grad():
        model.fc1.weight.mul_(2.0)
    with pytest.raises(RuntimeError, match="written in place"):
        loss.backward()


class Wide(nn.Module):
    """Parameters dominate (layers of 256 x 256, a quarter MiB of float32 each); the batch is
    small, so activations are a few KiB."""

    def __init__(self, layers=4):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(256, 256) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = F.gelu(layer(x))
        return x


class WideStep(mf.nn.Graph):
    def __init__(self, model, opt):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)

    def build(self, x):
        loss = F.mse_loss(self.model(x), x)
        loss.backward()
        return loss


def peak_of_a_step(stage, placement, graph=False):
    """Per-rank peak bytes over two Adam steps (the second has its state) above what was in
    use before the model was made (its construction, whole on every rank, not counted).
    Measured in blocking mode without gradient buckets: the peak of what the program holds.
    Asynchronously the host runs ahead of the VM, and the memory of work queued at once (a
    backward's gathers and partial gradients, a bucket's buffers) adds to it; docs/memory.md
    gives both. A graph's step gets eight layers: its windows hold two at once."""
    mf.synchronize()
    base = mf.memory_allocated()
    mf.manual_seed(0)
    model = Wide(8 if graph else 4)
    model.to_global(placement, lambda name, p: B)
    opt = mf.optim.Adam(model.parameters(), lr=1e-3, zero_stage=stage)
    x = mf.randn(8, 256).to_global(placement=placement, sbp=S0)
    step = WideStep(model, opt) if graph else None
    mf.synchronize()
    mf.reset_peak_memory_stats()
    for _ in range(2):
        if step is not None:
            step(x)
            continue
        F.mse_loss(model(x), x).backward()
        opt.step()
        opt.zero_grad()
    mf.synchronize()
    peak = mf.max_memory_allocated() - base
    params = sum(p.numel() * 4 for p in model.parameters())
    del model, opt, x, step
    mf.synchronize()
    return peak, params


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("mesh_name", ["2", "4"])
def test_each_stage_s_peak_memory_per_rank_falls_as_the_stage_says(world, mesh_name, graph):
    placement = mf.placement("cpu", ranks=mesh_ranks(mesh_name, world))
    n = placement.hierarchy[0]
    peaks = {}
    blocking = mf._C.launch_blocking()
    mf._C.set_launch_blocking(True)
    buckets = mf.set_grad_bucket_size(0)
    try:
        for stage in (0, 1, 2, 3):
            peaks[stage], params = peak_of_a_step(stage, placement, graph)
    finally:
        mf.set_grad_bucket_size(buckets)
        mf._C.set_launch_blocking(blocking)
    largest = 256 * 256 * 4
    # The model: parameters P, gradients G = P, Adam's state 2P, each divided by n as the
    # stage says, plus up to three of the largest layer at once (a partial gradient before its
    # reduction and the collective's buffers; an update's gathered result; a gathered
    # parameter) and the activations (a few KiB here). A graph holds up to two of the largest
    # gathered parameters and two partial gradients at once (graph/zero.h's windows), and its
    # arena is allocated rounded up to the allocator's MiB granule: up to five layers more;
    # where the compiler finds a cheaper plan than the stage's (stage 1's gradients computed
    # whole from gathered activations, which are smaller here), up to four less. Eager stage
    # 3 prefetches one parameter ahead: one more gathered layer.
    if mf.env.get_rank() not in placement.ranks:
        return  # a rank outside the mesh holds nothing
    model = {0: 4 * params, 1: 2 * params + 2 * params / n, 2: params + 3 * params / n, 3: 4 * params / n}
    if mf.env.get_rank() == 0:
        print(f"\nZeRO peaks on {n} ranks{' (graph)' if graph else ''}:", {s: (peaks[s], int(model[s])) for s in peaks})
    for stage in (1, 2, 3):
        assert peaks[stage] <= peaks[stage - 1] if graph and stage == 2 else peaks[stage] < peaks[stage - 1], peaks
    below, above = (4, 5) if graph else (0, 3)
    for stage, expected in model.items():
        most = expected + (above + (stage == 3 and not graph)) * largest
        assert expected - below * largest <= peaks[stage] <= most, (stage, peaks[stage], expected)


class Step(mf.nn.Graph):
    """The training step of train() as a graph."""

    def __init__(self, model, opt, micro_batches=1):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.set_gradient_accumulation_steps(micro_batches)

    def build(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        return loss


def graph_train(step, placement, steps=STEPS, first=0, rows=10):
    return [step(*batch(k, placement, rows)).item() for k in range(first, first + steps)]


@pytest.mark.parametrize("kind, mesh_name", [(kind, mesh) for kind in ["sgd", "adamw"] for mesh in ["2", "4", "2x2"]]
                         + [(kind, "2") for kind in sorted(RULES)])
def test_graph_mode_trains_as_eager_in_every_stage(world, mesh_name, kind):
    """Each stage compiled (the optimizer's layouts as the graph's SBP, gathers kept as
    constraints, reductions and gathers scheduled by the zero pass) equals the same stage
    eagerly, and one device."""
    model, opt, _ = build(None, world, 0, kind)
    one_device = train(model, opt, None)
    model, opt, placement = build(mesh_name, world, 0, kind)
    original = {name: tuple(p.sbp) for name, p in model.named_parameters()}
    for stage in (1, 2, 3):
        model, opt, placement = build(mesh_name, world, stage, kind)
        eager = train(model, opt, placement), values(model)
        model, opt, placement = build(mesh_name, world, stage, kind)
        step = Step(model, opt)
        graph = graph_train(step, placement), values(model)
        np.testing.assert_allclose(graph[0], eager[0], rtol=1e-6, err_msg=f"stage {stage}")
        np.testing.assert_allclose(graph[0], one_device, rtol=1e-5, err_msg=f"stage {stage} vs one device")
        for name, value in graph[1].items():
            np.testing.assert_allclose(value, eager[1][name], rtol=1e-5, atol=1e-6, err_msg=f"{stage} {name}")
        # Stage 3's parameters are gathered where forward and backward use them.
        gathers = [line for line in repr(step).splitlines() if "(ZeRO gather)" in line]
        assert (len(gathers) > len(list(model.parameters()))) == (stage == 3), gathers
        # The state (and at stage 3 the parameters) in the shard layout.
        for (name, p), state in zip(model.named_parameters(), opt.state.values()):
            buffer = state[RULES[kind][1] if kind in RULES else "momentum_buffer" if kind == "sgd" else "exp_avg"]
            assert data_axes_split(buffer.sbp, original[name], p.ndim), (name, buffer.sbp)
            assert data_axes_split(p.sbp, original[name], p.ndim) == (stage == 3), (name, p.sbp)


@pytest.mark.parametrize("stage", [2, 3])
def test_graph_mode_with_gradient_accumulation_equals_eager_on_the_whole_batch(world, stage):
    """Two micro-batches per call (12 rows: 3 per rank and micro-batch): stage 3 gathers each
    parameter per micro-batch."""
    model, opt, placement = build("2", world, 0, "adamw")
    expected = train(model, opt, placement, rows=12)
    model, opt, placement = build("2", world, stage, "adamw")
    got = graph_train(Step(model, opt, micro_batches=2), placement, rows=12)
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_enable_zero_shards_the_graph_s_optimizers(world):
    """config.enable_zero(stage) (OneFlow's spelling) gives a plain optimizer the stage when
    the graph compiles, as zero_stage= would have; an optimizer with another stage raises."""
    model, opt, placement = build("2", world, 3, "adamw")
    expected = graph_train(Step(model, opt), placement)
    model, opt, placement = build("2", world, 0, "adamw")
    step = Step(model, opt)
    step.config.enable_zero(True, stage=3)
    assert graph_train(step, placement) == expected
    assert opt.zero_stage == 3 and model.fc1.weight.sbp == (S0,)
    model, opt, placement = build("2", world, 1, "adamw")
    step = Step(model, opt)
    step.config.enable_zero(2)
    with pytest.raises(ValueError, match=r"enable_zero\(stage=2\): an optimizer of the graph has zero_stage 1"):
        step(*batch(0, placement))
    with pytest.raises(ValueError, match="stage 1, 2 or 3"):
        step.config.enable_zero(True, stage=4)
    # Enabled after a step: the next call compiles anew, and the optimizer refuses a stage then.
    model, opt, placement = build("2", world, 0, "adamw")
    step = Step(model, opt)
    step(*batch(0, placement))
    step.config.enable_zero(2)
    with pytest.raises(ValueError, match="set once, before the first step"):
        step(*batch(1, placement))


@pytest.mark.parametrize("saved_stage,loaded_stage", [(3, 0), (2, 3), (1, 2)])
def test_a_zero_graph_checkpoint_resumes_eagerly_in_any_stage(world, shared_root, saved_stage, loaded_stage):
    path = os.path.join(shared_root, f"graph-{saved_stage}-{loaded_stage}")
    mesh_name = "4" if world >= 4 else "2"
    model, opt, placement = build(mesh_name, world, 0, "adamw")
    expected = train(model, opt, placement, steps=4)
    model, opt, placement = build(mesh_name, world, saved_stage, "adamw")
    first = graph_train(Step(model, opt), placement, steps=2)
    mf.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
    model, opt, placement = build("2", world, loaded_stage, "adamw")
    state = mf.load(path)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    rest = train(model, opt, placement, steps=2, first=2)
    np.testing.assert_allclose(first + rest, expected, rtol=1e-5)


@pytest.mark.parametrize("kind", sorted(RULES))
def test_a_rule_s_optimizer_on_split_parameters_trains_as_one_device_eagerly_and_in_a_graph(world, kind):
    """Parameters split along either dimension on 2 ranks (fc1 by rows, fc2 by columns, the rest
    broadcast): the update runs on each rank's part, eagerly and compiled, as on one device."""
    model, opt, _ = build(None, world, 0, kind)
    one_device = train(model, opt, None), values(model)
    placement = mf.placement("cpu", ranks=mesh_ranks("2", world))

    def split(name, p):
        return S0 if name.startswith("fc1.") else S1 if name == "fc2.weight" else B

    for graph in (False, True):
        mf.manual_seed(0)
        model = Net()
        model.to_global(placement, split)
        opt = make_optimizer(kind, model.parameters(), 0)
        losses = graph_train(Step(model, opt), placement) if graph else train(model, opt, placement)
        np.testing.assert_allclose(losses, one_device[0], rtol=1e-5, err_msg=f"graph {graph}")
        for name, value in values(model).items():
            np.testing.assert_allclose(value, one_device[1][name], rtol=1e-4, atol=1e-6, err_msg=f"{graph} {name}")
        assert tuple(model.fc2.weight.sbp) == (S1,) and tuple(opt.state[model.fc2.weight][RULES[kind][1]].sbp) == (S1,)
