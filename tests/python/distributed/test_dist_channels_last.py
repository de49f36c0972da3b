"""Channels-last local tensors (a local convolution's output, or x.to(memory_format=
mf.channels_last)) meeting global computations (2 and 4 ranks, meshes [2], [4], [2, 2]): made
global with to_global as each rank's part in every SBP, or joining a global op as a broadcast
operand (implicit replication), each equal to one device's row-major values; global tensors'
parts stay row-major (core/tensor.h)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

S, B = mf.sbp.split, mf.sbp.broadcast


def mesh(kind):
    world = mf.env.get_world_size()
    if kind == "2x2":
        if world < 4:
            pytest.skip(f"needs 4 ranks, the world has {world}")
        return mf.placement("cpu", ranks=[[0, 1], [2, 3]])
    if world < kind:
        pytest.skip(f"needs {kind} ranks, the world has {world}")
    return mf.placement("cpu", ranks=list(range(kind)))


def channels_last_values(seed):
    # [5, 3, 4, 6]: an uneven batch over 2 and 4; both channels-last formats.
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((5, 3, 4, 6)).astype(np.float32)
    w = rng.standard_normal((3, 3, 3, 3)).astype(np.float32)
    conv = F.conv2d(mf.tensor(x), mf.tensor(w), padding=1)  # a local kernel's own layout
    want = F.conv2d(mf.tensor(x), mf.tensor(w), padding=1).numpy()
    user = mf.tensor(x).to(memory_format=mf.channels_last)
    return [(conv, want), (user, x)]


def joined(part, placement, sbp):
    """The global value of equal parts `part` on every rank laid out as `sbp` (each split axis
    concatenates its ranks' parts along its dim; a broadcast axis holds replicas)."""
    whole = part
    for size, s in reversed(list(zip(placement.hierarchy, sbp))):
        if s != B:
            whole = np.concatenate([whole] * size, axis=s.dim)
    return whole


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_to_global_of_a_channels_last_tensor_equals_one_device(kind):
    placement = mesh(kind)
    sbps = [[B], [S(0)], [S(1)], [S(3)]] if kind != "2x2" else [[B, B], [S(0), S(1)], [S(2), B], [S(3), S(0)]]
    for local, part in channels_last_values(1):
        for sbp in sbps:
            g = local.to_global(placement=placement, sbp=sbp)
            want = joined(part, placement, sbp)
            np.testing.assert_allclose(g.numpy(), want, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose((g * 2 + 1).sum(1).numpy(), (want * 2 + 1).sum(1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_a_channels_last_tensor_joins_a_global_op_as_broadcast(kind):
    placement = mesh(kind)
    split = [S(0)] if kind != "2x2" else [S(0), S(2)]
    other = np.random.default_rng(2).standard_normal((5, 3, 4, 6)).astype(np.float32)
    g = mf.tensor(other, placement=placement, sbp=split)
    for local, want in channels_last_values(3):
        np.testing.assert_allclose((g + local).numpy(), other + want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose((local * g).numpy(), want * other, rtol=1e-5, atol=1e-5)
