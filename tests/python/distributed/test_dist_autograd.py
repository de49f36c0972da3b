"""Autograd on global tensors: gradients gathered equal the single-device ones (gradcheck.py)
with inputs split, broadcast or partial on [0], a line of ranks and a 2 x 2 mesh, each
.grad in its input's layout; data parallelism: a broadcast weight used by a split batch
gets a broadcast gradient whose only communication is boxing's all-reduce."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from conftest import meshes
from sbp_reference import B, P, S, global_from_parts

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gradcheck.py
from gradcheck import check_gradients, check_global_gradients  # noqa: E402


def rand(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, shape)


def layouts(ranks, per_axis):
    """N-d SBPs for the mesh: each 1-d choice on every axis, and the choices paired across
    the axes of a 2-d mesh (each with the next)."""
    if np.ndim(ranks) == 1:
        return [(s,) for s in per_axis]
    return [(s, t) for s, t in zip(per_axis, per_axis[1:] + per_axis[:1])]


def mlp(x, w, b):
    return mf.tanh(x @ w + b)


CASES = {
    # name: (function, input arrays, the 1-d SBPs tried for each input in turn)
    "mul_broadcast": (lambda a, b: a * b + a, [rand(5, 4, seed=1), rand(4, seed=2)],
                      [[S(0), S(1), B, P], [S(0), B, P, B]]),
    "matmul": (lambda a, b: a @ b, [rand(5, 3, seed=1), rand(3, 4, seed=2)],
               [[S(0), S(1), B, P], [B, S(0), S(1), B]]),
    "mlp": (mlp, [rand(5, 3, seed=1), rand(3, 4, seed=2), rand(4, seed=3)],
            [[S(0), S(1), B, S(0)], [B, S(0), S(1), P], [B, B, S(0), B]]),
    "mean_and_amax": (lambda x: mf.mean(x, dim=0) + mf.amax(x, dim=1).sum(), [rand(5, 4, seed=1)],
                      [[S(0), S(1), B, P]]),
    "log_softmax": (lambda x: F.log_softmax(x * 2, dim=-1), [rand(5, 4, seed=1)], [[S(0), S(1), B, P]]),
    "attention": (lambda q, k, v: F.softmax(q @ k.T, dim=-1) @ v.reshape(4, 3)[:, 1:],
                  [rand(5, 3, seed=1), rand(4, 3, seed=2), rand(12, seed=3)],
                  [[S(0), S(1), B], [B, S(0), P], [P, S(0), B]]),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, [4], w, b), [rand(5, 4, seed=1), rand(4, seed=2), rand(4, seed=3)],
                   [[S(0), B, P], [B, S(0), B], [B, B, S(0)]]),
    # Reductions' gradients reach the activations' backward ops as broadcast operands.
    "activations_after_reductions": (
        lambda x: (F.relu(x).sum(dim=1) + F.relu6(x * 3).mean(dim=1) + F.silu(x).sum() + mf.clamp(x, -1, 1).sum(0).sum()
                   + F.gelu(x).mean() + mf.tanh(x).amax(dim=1) + mf.sigmoid(x).sum(dim=0, keepdim=True).sum()),
        [rand(5, 4, seed=1)], [[S(0), S(1), B, P]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_global_gradients_equal_the_local_ones(name):
    f, arrays, sbps = CASES[name]
    expected = check_gradients(f, arrays)
    for ranks in meshes():
        per_input = [layouts(ranks, choices) for choices in sbps]
        for trial in range(len(per_input[0])):
            tensors = [global_from_parts(a, ranks, layout[trial], seed=trial)
                       for a, layout in zip(arrays, per_input)]
            check_global_gradients(f, tensors, expected)


def test_cross_entropy_over_a_split_batch():
    target = np.array([1, 0, 3, 2, 1])
    expected = check_gradients(lambda x: F.cross_entropy(x, mf.tensor(target)), [rand(5, 4)])
    for ranks in meshes():
        placement = mf.placement("cpu", ranks=ranks)
        split_batch = [S(0)] * len(placement.hierarchy)
        t = mf.tensor(target, placement=placement, sbp=split_batch)
        check_global_gradients(lambda x: F.cross_entropy(x, t),
                               [mf.tensor(rand(5, 4), placement=placement, sbp=split_batch)], expected)


def test_data_parallel_weight_gradient_is_broadcast_and_all_reduced_by_boxing(world):
    if world < 2:
        pytest.skip("needs 2 ranks")
    p = mf.placement("cpu", ranks=list(range(world)))
    xs, ws, bs = rand(2 * world + 1, 3, seed=1), rand(3, 2, seed=2), rand(2, seed=3)

    w1, b1 = mf.tensor(ws, requires_grad=True), mf.tensor(bs, requires_grad=True)
    mlp(mf.tensor(xs), w1, b1).mean().backward()

    x = mf.tensor(xs, placement=p, sbp=S(0))
    w = mf.tensor(ws, placement=p, sbp=B, requires_grad=True)
    b = mf.tensor(bs, placement=p, sbp=B, requires_grad=True)

    def backward_traffic(bucket_bytes):
        previous = mf.set_grad_bucket_size(bucket_bytes)
        try:
            w.grad = b.grad = None
            loss = mlp(x, w, b).mean()
            before = mf.comm_stats()
            loss.backward()
            return diff(mf.comm_stats(), before)
        finally:
            mf.set_grad_bucket_size(previous)

    alone = backward_traffic(0)
    for g, g1 in ((w.grad, w1.grad), (b.grad, b1.grad)):
        assert g.sbp == (B,) and g.placement == p
        np.testing.assert_allclose(g.numpy(), g1.numpy(), rtol=1e-12, atol=1e-14)
    # Each rank's weight gradient is a partial sum over its rows; the one collective is the
    # all-reduce of boxing it to w's broadcast, the same as boxing a partial tensor of w's shape.
    boxing = {key: 0 for key in alone}
    for shape in (ws.shape, bs.shape):
        partial = mf.tensor(np.zeros(shape)).to_global(placement=p, sbp=P)
        before = mf.comm_stats()
        partial.to_global(sbp=B)
        for key, value in diff(mf.comm_stats(), before).items():
            boxing[key] += value
    assert alone == boxing
    assert alone["all_reduce"] == 2
    # In one gradient bucket: the same elements in one all-reduce, with one status word per
    # rank (boxing/execute.h, PartStatus) where the two conversions carried a word each.
    bucketed = backward_traffic(1 << 20)
    np.testing.assert_allclose(w.grad.numpy(), w1.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert bucketed == dict(boxing, all_reduce=1, bytes_sent=boxing["bytes_sent"] - world * ws.itemsize)


def diff(after, before):
    return {key: after[key] - before[key] for key in after}
