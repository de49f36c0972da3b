"""mf.save / mf.load on 2 and 4 ranks: resharding between meshes and SBPs, one replica per
distinct shard, nested states, templates, and errors and failed writes raising on every rank.

Every rank runs every test in the same order; a test that needs more ranks than the world
has is skipped on all of them. Values are checked against NumPy and sbp_reference.
"""
import json
import os
import shutil
import tempfile

import numpy as np
import pytest

import meshflow as mf
from meshflow import _checkpoint
from conftest import logical_value
from sbp_reference import B, P, PMAX, PMIN, S, coordinate_of, global_from_parts, hierarchy_of, local_slices

MESHES = {"1": [0], "2": [0, 1], "4": [0, 1, 2, 3], "2x2": [[0, 1], [2, 3]]}


def need_ranks(*meshes):
    """Skip (on every rank alike) a test whose meshes need more ranks than the world has."""
    highest = max(int(np.max(MESHES[m])) for m in meshes)
    if highest >= mf.env.get_world_size():
        pytest.skip(f"needs {highest + 1} ranks")


def placement_of(mesh):
    return mf.placement("cpu", ranks=MESHES[mesh])


def rank0_tempdir(prefix):
    """A directory every rank sees: rank 0 makes it and broadcasts its name as a tensor."""
    name = tempfile.mkdtemp(prefix=prefix) if mf.env.get_rank() == 0 else ""
    codes = np.zeros(256, np.int64)
    codes[:len(name)] = list(name.encode())
    on_rank0 = mf.tensor(codes, placement=placement_of("1"), sbp=B)
    everywhere = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    received = on_rank0.to_global(placement=everywhere, sbp=B).to_local().numpy()
    return bytes(int(c) for c in received if c).decode()


@pytest.fixture(scope="module")
def shared_root():
    root = rank0_tempdir("meshflow-ckpt-")
    yield root
    mf._C.agree("", "test cleanup")  # nobody is still reading
    if mf.env.get_rank() == 0:
        shutil.rmtree(root)


@pytest.fixture
def path(shared_root, request):
    return os.path.join(shared_root, request.node.name.replace("/", "_"))


def check_layout(t, value, mesh, nd_sbp):
    """t is `value` on `mesh` with `nd_sbp`, and this rank holds its part (sbp_reference)."""
    assert t.is_global and t.placement == placement_of(mesh) and t.sbp == tuple(nd_sbp)
    assert t.dtype == mf.dtype(value.dtype.name) and t.shape == value.shape
    np.testing.assert_array_equal(t.numpy(), value)
    coordinate = coordinate_of(MESHES[mesh], mf.env.get_rank())
    if coordinate is not None and not any(s.is_partial for s in nd_sbp):
        part = value[local_slices(value.shape, hierarchy_of(MESHES[mesh]), nd_sbp, coordinate)]
        np.testing.assert_array_equal(t.to_local().numpy(), part)


def signed_value(shape, dtype):
    if dtype == np.bool_:
        return (np.arange(int(np.prod(shape))) % 3 == 0).reshape(shape)
    value = logical_value(shape, dtype)
    value.reshape(-1)[1::2] *= -1  # a wrong reduction of P(max) / P(min) shows
    return value


def saved_global(value, mesh, nd_sbp):
    if value.ndim == 0:  # sbp_reference's parts are at least 1-d
        return mf.tensor(value, placement=placement_of(mesh), sbp=nd_sbp)
    return global_from_parts(value, MESHES[mesh], nd_sbp)


RESHARDING = [
    # (saved on, its sbp, loaded on, its sbp, shape, dtype)
    ("2", (P,), "2", (S(0),), (5, 3), np.float32),
    ("2", (S(1),), "1", (B,), (3, 5), np.int64),
    ("1", (PMIN,), "2", (S(1),), (4, 3), np.float64),
    ("2", (B,), "2", (P,), (3, 2), np.float64),
    ("2", (S(0),), "2", (S(1),), (0, 3), np.float32),
    ("2x2", (S(0), S(1)), "4", (S(1),), (5, 7), np.float32),
    ("2x2", (S(0), S(1)), "1", (B,), (5, 7), np.float64),
    ("2x2", (P, S(1)), "2", (S(0),), (3, 5), np.int64),
    ("2x2", (S(0), S(0)), "4", (P,), (9, 2), np.float32),
    ("2x2", (B, PMAX), "2x2", (S(1), S(0)), (4, 6), np.float64),
    ("4", (S(0),), "2x2", (S(1), S(0)), (7, 3), np.int64),
    ("4", (S(1),), "2", (S(1),), (2, 5), np.float32),
    ("2", (P,), "4", (S(0),), (6,), np.float64),
    ("1", (B,), "2x2", (B, S(1)), (3, 4), np.int64),
    ("4", (B,), "2", (P,), (), np.float32),
    ("2", (P,), "2", (S(0),), (5, 3), np.bool_),
    ("1", (PMIN,), "2", (S(1),), (4, 3), np.bool_),
    ("2x2", (S(0), S(1)), "4", (S(1),), (5, 7), np.bool_),
    ("2x2", (B, PMAX), "2x2", (S(1), S(0)), (4, 6), np.bool_),
]


def case_id(case):
    src, src_sbp, dst, dst_sbp, shape, dtype = case
    sbp_text = lambda nd_sbp: ",".join(map(repr, nd_sbp))  # noqa: E731
    return f"[{src}]({sbp_text(src_sbp)})->[{dst}]({sbp_text(dst_sbp)})-{list(shape)}-{np.dtype(dtype).name}"


@pytest.mark.parametrize("src, src_sbp, dst, dst_sbp, shape, dtype", RESHARDING, ids=map(case_id, RESHARDING))
def test_resharding_round_trip(path, src, src_sbp, dst, dst_sbp, shape, dtype):
    need_ranks(src, dst)
    value = signed_value(shape, dtype)
    mf.save({"w": saved_global(value, src, src_sbp)}, path)
    check_layout(mf.load(path, placement=placement_of(dst), sbp=dst_sbp)["w"], value, dst, dst_sbp)
    local = mf.load(path, placement="local")["w"]
    assert local.is_local
    np.testing.assert_array_equal(local.numpy(), value)


@pytest.mark.parametrize("mesh, nd_sbp", [("2", (S(0),)), ("2x2", (P, S(1)))])
def test_default_layout_is_the_saved_one(path, mesh, nd_sbp):
    need_ranks(mesh)
    value, step = signed_value((5, 4), np.float64), np.array([7, 8], np.int64)
    mf.save({"w": global_from_parts(value, MESHES[mesh], nd_sbp), "step": mf.tensor(step)}, path)
    state = mf.load(path)
    check_layout(state["w"], value, mesh, nd_sbp)
    assert state["step"].is_local
    np.testing.assert_array_equal(state["step"].numpy(), step)


@pytest.mark.parametrize("mesh, nd_sbp, shards", [("2", (B,), 1), ("2x2", (B, S(0)), 2), ("2x2", (P, S(1)), 2),
                                                  ("4", (S(0),), 3)])
def test_one_replica_per_distinct_shard(path, mesh, nd_sbp, shards):
    need_ranks(mesh)
    value = signed_value((3, 5), np.float32)
    mf.save({"w": global_from_parts(value, MESHES[mesh], nd_sbp)}, path)
    with open(os.path.join(path, _checkpoint.META_FILE)) as f:
        listed = json.load(f)["tensors"][0]["shards"]
    assert len(listed) == shards  # on [4] S(0) the fourth part of 3 rows is empty: not written
    assert sorted(s["file"] for s in listed) == sorted(f for f in os.listdir(path) if f.endswith(".npy"))
    for shard in listed:
        box = tuple(slice(a, a + n) for a, n in zip(shard["start"], shard["extent"]))
        np.testing.assert_array_equal(np.load(os.path.join(path, shard["file"])), value[box])


def test_each_rank_reads_only_the_shards_it_overlaps(path, monkeypatch):
    world = mf.env.get_world_size()
    ranks = list(range(world))
    value = signed_value((2 * world, 3), np.float32)
    mf.save({"w": global_from_parts(value, ranks, (S(0),))}, path)
    opened, real_load = [], np.load
    monkeypatch.setattr(np, "load", lambda file, *a, **k: opened.append(os.path.basename(file)) or
                        real_load(file, *a, **k))
    mf.load(path, placement=mf.placement("cpu", ranks=ranks), sbp=S(0))
    assert opened == [f"t0-{mf.env.get_rank()}.npy"]


def test_nested_state_with_plain_values_and_layout_functions(path):
    need_ranks("2")
    w, b, m = signed_value((4, 6), np.float32), signed_value((6,), np.float64), signed_value((3, 2), np.int64)
    state = {"model": {"layer": {"w": global_from_parts(w, MESHES["2"], (S(1),)), "b": mf.tensor(b)}},
             "optimizer": {"step": 3, "lr": 0.5, "betas": (0.9, 0.99), "name": "adam", "flags": [True, None],
                           "state": {0: {"m": global_from_parts(m, MESHES["2"], (P,))}}}}
    mf.save(state, path)
    seen = {}

    def where(name, saved):
        seen[name] = saved
        return "local" if name == "model.layer.b" else placement_of("2")

    loaded = mf.load(path, placement=where, sbp=lambda name, saved: S(len(saved.shape) - 1))
    assert seen["model.layer.w"] == _checkpoint.SavedTensor((4, 6), mf.float32, [0, 1], (S(1),))
    assert seen["optimizer.state.0.m"] == _checkpoint.SavedTensor((3, 2), mf.int64, [0, 1], (P,))
    assert seen["model.layer.b"] == _checkpoint.SavedTensor((6,), mf.float64, None, None)
    check_layout(loaded["model"]["layer"]["w"], w, "2", (S(1),))
    check_layout(loaded["optimizer"]["state"][0]["m"], m, "2", (S(1),))
    np.testing.assert_array_equal(loaded["model"]["layer"]["b"].numpy(), b)
    plain = {k: v for k, v in loaded["optimizer"].items() if k != "state"}
    assert plain == {"step": 3, "lr": 0.5, "betas": (0.9, 0.99), "name": "adam", "flags": [True, None]}


def test_template_gives_the_layout_and_checks_the_shape(path):
    need_ranks("2")
    value = signed_value((4, 3), np.float32)
    mf.save({"w": global_from_parts(value, MESHES["2"], (S(0),)), "n": 1}, path)
    template = {"w": mf.zeros(4, 3, placement=placement_of("2"), sbp=S(1))}
    check_layout(mf.load(path, template=template)["w"], value, "2", (S(1),))
    with pytest.raises(ValueError, match=r"\[load\] 'w' has shape \[4, 3\].*template expects shape \[3, 4\]"):
        mf.load(path, template={"w": mf.zeros(3, 4, placement=placement_of("2"), sbp=S(1))})
    with pytest.raises(ValueError, match=r"\[load\] the template's tensor\(s\) 'v' are not in the checkpoint"):
        mf.load(path, template={"v": mf.zeros(4, 3)})


def test_failed_write_keeps_the_previous_checkpoint(path, monkeypatch):
    world, ranks = mf.env.get_world_size(), list(range(mf.env.get_world_size()))
    old, new = signed_value((world, 2), np.float32), 10 + signed_value((world, 2), np.float32)

    def state(value):
        return {f"t{i}": global_from_parts(value + i, ranks, (S(0),)) for i in range(3)}

    mf.save(state(old), path)
    failing_rank, real_write, writes = world - 1, _checkpoint._write_shard, []

    def write_then_fail(file, array):
        writes.append(file)
        if mf.env.get_rank() == failing_rank and len(writes) == 2:
            raise OSError("disk full")
        real_write(file, array)

    monkeypatch.setattr(_checkpoint, "_write_shard", write_then_fail)
    with pytest.raises(ValueError, match=rf"\[save\] writing 't1' failed on rank {failing_rank}: OSError: disk full"):
        mf.save(state(new), path)
    monkeypatch.undo()
    loaded = mf.load(path)
    for i in range(3):
        np.testing.assert_array_equal(loaded[f"t{i}"].numpy(), old + i)
    assert_no_leftovers(path)  # checked after load: rank 0 removed them before load's first barrier
    mf.save(state(new), path)
    np.testing.assert_array_equal(mf.load(path)["t2"].numpy(), new + 2)
    assert_no_leftovers(path)


def assert_no_leftovers(path):
    for suffix in (_checkpoint.TMP_SUFFIX, _checkpoint.OLD_SUFFIX):
        assert not os.path.exists(path + suffix)


def test_errors_raise_on_every_rank(path):
    with pytest.raises(ValueError, match=r"\[load\] no checkpoint at '.*nowhere'"):
        mf.load(path + "-nowhere")
    with pytest.raises(ValueError, match=r"\[save\] .* is a ndarray; expected a meshflow.Tensor"):
        mf.save({"w": np.zeros(2)}, path)
    mf.save({"w": mf.tensor(np.zeros(2), placement=placement_of("1"), sbp=B)}, path)  # collective: on rank 0 only
    with pytest.raises(ValueError, match=r"\[load\] sbp \(S\(1\),\) for 'w' does not fit a tensor of 1 dims"):
        mf.load(path, placement=placement_of("1"), sbp=S(1))
    # The job is still in step after the errors.
    check_layout(mf.load(path, placement=placement_of("1"), sbp=B)["w"], np.zeros(2), "1", (B,))


def test_safetensors_gathers_global_tensors_and_loads_into_a_global_model(path):
    need_ranks("2")
    value = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    state = {"split": mf.tensor(value, placement=placement_of("2"), sbp=S(0)),
             "partial": mf.tensor(value, placement=placement_of("2"), sbp=P),
             "local": mf.tensor(value[0])}
    mf.save(state, path + ".safetensors")  # every rank calls it; rank 0 writes before any returns
    loaded = mf.load(path + ".safetensors")  # every rank reads the full values, local
    assert all(t.is_local for t in loaded.values())
    np.testing.assert_array_equal(loaded["split"].numpy(), value)
    np.testing.assert_array_equal(loaded["partial"].numpy(), value)
    model = mf.nn.Linear(3, 4, bias=False).to_global(placement_of("2"), S(0))
    model.load_state_dict({"weight": loaded["split"]})
    check_layout(model.weight, value, "2", (S(0),))


def test_rank0_saves_a_broadcast_global_state_to_a_torch_named_file_alone(path):
    # DDP's `if rank == 0: save(model.state_dict(), "model.pt")` with a data-parallel global
    # model: every value is whole on rank 0, which writes the file alone (no collective).
    need_ranks("2")
    value = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    everyone = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    model = mf.nn.Linear(3, 4).to_global(everyone, B)
    model.load_state_dict({"weight": mf.tensor(value), "bias": mf.tensor(value[:, 0])})
    if mf.env.get_rank() == 0:
        mf.save({"model": model.state_dict(), "epoch": 1}, path + ".pt")
    mf._C.agree("", "the file is written")
    state = mf.load(path + ".pt", map_location="cpu")
    assert state["epoch"] == 1 and state["model"]["weight"].is_local
    np.testing.assert_array_equal(state["model"]["weight"].numpy(), value)
    mf._C.agree("", "every rank read it")
    # Split, or broadcast on some ranks only (4 ranks): a collective save into a directory,
    # which every rank makes; the layouts alone decide, alike on every rank.
    split = mf.nn.Linear(3, 4).to_global(placement_of("2"), S(0))
    mf.save(split.state_dict(), path + "-split.pt")
    assert os.path.isdir(path + "-split.pt")
    if mf.env.get_world_size() > 2:
        some = mf.nn.Linear(3, 4).to_global(placement_of("2"), B)
        mf.save(some.state_dict(), path + "-some.pt")
        assert os.path.isdir(path + "-some.pt")


def test_rank0_loads_a_directory_checkpoint_with_map_location_alone(path):
    # `if rank == 0: torch.load(path, map_location="cpu")`: into local tensors each rank reads
    # the files alone, not collectively.
    need_ranks("2")
    value = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    mf.save({"w": mf.tensor(value, placement=placement_of("2"), sbp=S(0)), "n": 5}, path)
    if mf.env.get_rank() == 0:
        for spelling in ({"map_location": "cpu"}, {"placement": "local"}):
            state = mf.load(path, **spelling)
            assert state["n"] == 5 and state["w"].is_local
            np.testing.assert_array_equal(state["w"].numpy(), value)
        with pytest.raises(ValueError, match="no checkpoint at"):
            mf.load(path + "-missing", map_location="cpu")  # raised on this rank alone
    check_layout(mf.load(path)["w"], value, "2", (S(0),))  # every rank: collective, as saved
