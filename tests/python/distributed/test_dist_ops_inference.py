"""SBP inference from Python (CONCEPTS section 4): the examples of the issue and of
CONCEPTS, the inference cache, mixed placements. Runs on any world size; cases needing
more ranks skip."""
import numpy as np
import pytest

import meshflow as mf
from meshflow import sbp

S, B, P = sbp.split, sbp.broadcast, sbp.partial_sum
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")


def need(n):
    if mf.env.get_world_size() < n:
        pytest.skip(f"needs {n} ranks")


def issued(f):
    before = mf.comm_stats()
    result = f()
    after = mf.comm_stats()
    return result, {k: after[k] - before[k] for k in COLLECTIVES if after[k] != before[k]}


X = (np.arange(16, dtype=np.float32).reshape(4, 4) % 7) - 3


def test_split0_plus_split1_gives_split0():
    need(2)
    p = mf.placement("cpu", ranks=[0, 1])
    out = mf.tensor(X, placement=p, sbp=S(0)) + mf.tensor(X, placement=p, sbp=S(1))
    assert out.sbp == (S(0),)
    np.testing.assert_array_equal(out.numpy(), X + X)


def test_split0_plus_broadcast_communicates_nothing():
    need(2)
    p = mf.placement("cpu", ranks=[0, 1])
    a, b = mf.tensor(X, placement=p, sbp=S(0)), mf.tensor(X, placement=p, sbp=B)
    out, calls = issued(lambda: a + b)
    assert out.sbp == (S(0),) and calls == {}
    np.testing.assert_array_equal(out.numpy(), X + X)


def test_matmul_on_2x2_mesh_without_communication():
    need(4)
    mesh = mf.placement("cpu", ranks=[[0, 1], [2, 3]])
    a, b = mf.tensor(X, placement=mesh, sbp=(B, S(0))), mf.tensor(X, placement=mesh, sbp=(S(1), B))
    out, calls = issued(lambda: a @ b)
    assert out.sbp == (S(1), S(0)) and calls == {}
    np.testing.assert_allclose(out.numpy(), X @ X)


def test_matmul_to_partial_then_all_reduce_inside_rows():
    need(4)
    mesh = mf.placement("cpu", ranks=[[0, 1], [2, 3]])
    # 32 elements: a partial value of 16 or fewer gets a read twin (global_tensor.h), which
    # to_global would take instead of converting.
    tall = np.concatenate([X, X[::-1]])
    a, b = mf.tensor(tall, placement=mesh, sbp=(S(0), S(1))), mf.tensor(X, placement=mesh, sbp=(B, S(0)))
    out = a @ b
    assert out.sbp == (S(0), P)
    reduced, calls = issued(lambda: out.to_global(sbp=(S(0), B)))
    assert calls == {"all_reduce": 1}
    steps, _ = mf._C.plan_boxing([8, 4], "float32", mesh, [S(0), P], mesh, [S(0), B])
    assert [(kind, axis) for kind, axis, _, _ in steps] == [("all_reduce", 1)]
    np.testing.assert_allclose(reduced.numpy(), tall @ X)


def test_repeated_op_hits_the_cache_and_a_changed_key_misses():
    # A shape no other test uses, so the first call is this test's own miss.
    value = np.arange(30, dtype=np.float32).reshape(6, 5)
    p = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    a, b = mf.tensor(value, placement=p, sbp=S(0)), mf.tensor(value, placement=p, sbp=B)
    a + b
    before = mf.infer_cache_stats()
    a + b
    after = mf.infer_cache_stats()
    assert (after["hits"], after["misses"]) == (before["hits"] + 1, before["misses"])
    for changed in (lambda: a - b, lambda: a + mf.tensor(value, placement=p, sbp=S(1)),
                    lambda: mf.tensor(value[:3], placement=p, sbp=S(0)) + mf.tensor(value[:3], placement=p, sbp=B),
                    lambda: a + 1.0, lambda: a + 2.0):
        before = mf.infer_cache_stats()
        changed()
        assert mf.infer_cache_stats()["misses"] == before["misses"] + 1


def test_inputs_on_different_placements_name_both():
    need(2)
    p, q = mf.placement("cpu", ranks=[0, 1]), mf.placement("cpu", ranks=[1, 0])
    with pytest.raises(ValueError, match=r"\[add\] inputs are on different placements: "
                                         r"placement\(type=\"cpu\", ranks=\[0, 1\]\) and "
                                         r"placement\(type=\"cpu\", ranks=\[1, 0\]\)"):
        mf.tensor(X, placement=p, sbp=S(0)) + mf.tensor(X, placement=q, sbp=S(0))
    # A local beside a global one is broadcast on its placement (implicit replication).
    np.testing.assert_array_equal((mf.tensor(X, placement=p, sbp=S(0)) + mf.tensor(X)).numpy(), X + X)
    # Still usable afterwards.
    np.testing.assert_array_equal((mf.tensor(X, placement=p, sbp=B) * 2).numpy(), X * 2)


def test_shape_and_dtype_errors():
    p = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    a = mf.tensor(X, placement=p, sbp=S(0))
    with pytest.raises(ValueError, match=r"\[add\] shapes \[4, 4\] and \[3\] cannot be broadcast"):
        a + mf.tensor(X[0, :3], placement=p, sbp=B)
    with pytest.raises(ValueError, match=r"\[matmul\] inner dims differ"):
        a @ mf.tensor(X[:3], placement=p, sbp=B)
    assert (a + mf.tensor(X.astype(np.int64), placement=p, sbp=B)).dtype == mf.float32  # promoted, as torch
    with pytest.raises(ValueError, match=r"\[matmul\] dtypes differ: float32 and int64"):
        a @ mf.tensor(X.astype(np.int64), placement=p, sbp=B)
