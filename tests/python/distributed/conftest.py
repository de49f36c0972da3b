"""Shared fixtures for the multi-rank suite; a failure on any rank ends the job."""
import sys
import traceback

import numpy as np
import pytest

import meshflow as mf
import meshflow._placement as meshflow_placement


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        rank = mf.env.get_rank()
        sys.stderr.write(f"[rank {rank}] FAILED {item.nodeid}\n{report.longreprtext}\n")
        sys.stderr.flush()
        mf._C.abort(f"[rank {rank}] ending the job after a failed test", 1)


@pytest.fixture(autouse=True)
def a_program_of_its_own():
    """Each test as a program of its own: the meshes an earlier test made DTensors on leave
    this test's global tensors meshflow's (Tensor.to_local: torch's DTensor.to_local only on
    a mesh the program made DTensors on)."""
    yield
    meshflow_placement.dtensor_meshes.clear()


@pytest.fixture
def world():
    return mf.env.get_world_size()


@pytest.fixture
def rank():
    return mf.env.get_rank()


MESHES = {"1": [0], "2": [0, 1], "4": [0, 1, 2, 3], "2x2": [[0, 1], [2, 3]]}


def mesh_ranks(name, world):
    """The ranks of mesh `name` (MESHES); skips the test (on every rank alike) when the world
    has fewer."""
    ranks = MESHES[name]
    if np.array(ranks).size > world:
        pytest.skip(f"mesh {name} needs {np.array(ranks).size} ranks")
    return ranks


def mesh(name, world, device="cpu"):
    """The placement of mesh `name` on `device`, as mesh_ranks."""
    return mf.placement(device, ranks=mesh_ranks(name, world))


def meshes():
    """[0] (which leaves the other ranks out), every rank in a line, and [[0, 1], [2, 3]]
    where the world has 4 ranks."""
    world = mf.env.get_world_size()
    found = [[0], list(range(world))] if world > 1 else [[0]]
    if world >= 4:
        found.append([[0, 1], [2, 3]])
    return found


def check_global(result, expected, sbp=None):
    """`result` is a global tensor of `expected`'s dtype (and of layout `sbp`, when given)
    whose logical value equals `expected` exactly."""
    expected = np.asarray(expected)
    assert result.is_global and result.dtype.name == expected.dtype.name, (result.dtype, expected.dtype)
    if sbp is not None:
        assert result.sbp == tuple(sbp)
    np.testing.assert_array_equal(result.numpy(), expected)


def logical_value(shape, dtype=np.float32):
    """Small distinct integers, exact in every dtype, the same on every rank."""
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n) % 97 - 40).astype(dtype).reshape(shape)


COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")


def collectives(f):
    """(f(), how many collectives and messages this rank issued inside it)."""
    before = mf.comm_stats()
    result = f()
    after = mf.comm_stats()
    return result, sum(after[name] - before[name] for name in COLLECTIVES)
