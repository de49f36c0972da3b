"""Reductions, softmax and nn.functional ops, their backward ops and gradients on global
tensors (2 and 4 ranks): the logical result equals NumPy's (or the local gradient), and the
output SBP is the one CONCEPTS section 4 expects. Every rank runs every test; those needing
more ranks than the world has skip on all of them.
"""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from conftest import logical_value
from meshflow._tensor import apply

S, B, P, PMAX = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum, mf.sbp.partial_max


def need(n):
    if mf.env.get_world_size() < n:
        pytest.skip(f"needs {n} ranks, the world has {mf.env.get_world_size()}")


def everyone():
    """The placement of every rank (ranks outside a placement run no kernel)."""
    return mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))


def log_softmax_reference(x, dim):
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def test_reductions_over_a_split_dim_give_partial():
    need(2)
    p = mf.placement("cpu", ranks=[0, 1])
    x = logical_value((5, 3), np.float64)
    g = mf.tensor(x, placement=p, sbp=S(0))
    for out, sbp, expected in ((g.sum(0), P, x.sum(0)), (mf.mean(g, 0, keepdim=True), P, x.mean(0, keepdims=True)),
                               (g.amax(0), PMAX, x.max(0)), (g.sum(1), S(0), x.sum(1)), (g.mean(), P, x.mean())):
        assert out.sbp == (sbp,)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_mean_on_a_2x2_mesh_with_uneven_splits():
    need(4)
    mesh = mf.placement("cpu", ranks=[[0, 1], [2, 3]])
    x = logical_value((5, 3, 7), np.float32)
    g = mf.tensor(x, placement=mesh, sbp=(S(0), S(2)))
    out = g.mean((0, 2))
    assert out.sbp == (P, P)
    np.testing.assert_allclose(out.numpy(), x.mean((0, 2)), rtol=1e-5)
    np.testing.assert_array_equal(g.amin(1).numpy(), x.min(1))


def test_softmax_and_layer_norm_keep_the_batch_split():
    need(2)
    p = everyone()
    x = logical_value((6, 5), np.float64) / 8
    g = mf.tensor(x, placement=p, sbp=S(0))
    out = F.log_softmax(g, -1)
    assert out.sbp == (S(0),)
    np.testing.assert_allclose(out.numpy(), log_softmax_reference(x, 1), rtol=1e-12)
    np.testing.assert_allclose(g.softmax(1).numpy(), np.exp(log_softmax_reference(x, 1)), rtol=1e-12)
    w = mf.tensor(np.linspace(0.5, 2, 5), placement=p, sbp=B)
    normed = F.layer_norm(g, 5, weight=w)
    assert normed.sbp == (S(0),)
    expected = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * np.linspace(0.5, 2, 5)
    np.testing.assert_allclose(normed.numpy(), expected, rtol=1e-9, atol=1e-12)


def test_vocabulary_parallel_embedding_gives_partial():
    need(2)
    p = everyone()
    weight = logical_value((7, 4), np.float32)
    idx = np.array([[6, 0, 3], [2, 2, 5]], np.int64)
    out = F.embedding(mf.tensor(idx, placement=p, sbp=B), mf.tensor(weight, placement=p, sbp=S(0)))
    assert out.sbp == (P,)
    np.testing.assert_array_equal(out.numpy(), weight[idx])
    out = F.embedding(mf.tensor(idx, placement=p, sbp=S(1)), mf.tensor(weight, placement=p, sbp=B))
    assert out.sbp == (S(1),)
    np.testing.assert_array_equal(out.numpy(), weight[idx])


def test_data_parallel_cross_entropy_is_the_mean_over_the_whole_batch():
    need(2)
    p = mf.placement("cpu", ranks=[0, 1])
    logits = logical_value((5, 4), np.float64) / 8
    target = np.array([3, 0, 1, 1, 2], np.int64)
    out = F.cross_entropy(mf.tensor(logits, placement=p, sbp=S(0)), mf.tensor(target, placement=p, sbp=S(0)))
    # Partial, or broadcast where an op after the sum took the sum's twin (with_read_twin).
    assert out.sbp in ((P,), (B,)) and out.shape == ()
    expected = -log_softmax_reference(logits, 1)[np.arange(5), target].mean()
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_out_of_range_index_fails_on_every_rank():
    p = everyone()
    weight = mf.tensor(logical_value((7, 4), np.float32), placement=p, sbp=S(0))
    with pytest.raises(ValueError, match=r"\[embedding\] index 9 is out of range; expected values in \[0, 7\)"):
        F.embedding(mf.tensor(np.array([1, 9]), placement=p, sbp=B), weight).numpy()  # raised when the kernel has run


def test_causal_softmax_keeps_the_batch_split():
    need(2)
    p = everyone()
    x = logical_value((4, 3, 5), np.float64) / 16
    kept = np.arange(5)[None, :] <= np.arange(3)[:, None] + 2
    out = F.softmax(mf.tensor(x, placement=p, sbp=S(0)), -1, causal=True)
    assert out.sbp == (S(0),)
    np.testing.assert_allclose(out.numpy(), np.exp(log_softmax_reference(np.where(kept, x, -np.inf), 2)), rtol=1e-12)


def test_gather_off_a_vocabulary_split_gives_partial():
    need(2)
    p = everyone()
    logits = logical_value((5, 7), np.float32)
    target = np.array([[6], [0], [3], [2], [5]], np.int64)
    out = F.gather(mf.tensor(logits, placement=p, sbp=S(1)), 1, mf.tensor(target, placement=p, sbp=B))
    assert out.sbp == (P,)
    np.testing.assert_array_equal(out.numpy(), np.take_along_axis(logits, target, axis=1))


def test_embedding_backward_of_broadcast_inputs_splits_the_vocabulary():
    need(2)
    p = everyone()
    idx = np.array([[6, 0, 3], [2, 6, 5]], np.int64)
    dy = logical_value((2, 3, 4), np.float64)
    out = apply("embedding_backward", [mf.tensor(idx, placement=p, sbp=B), mf.tensor(dy, placement=p, sbp=B)],
                {"num_weights": 7})[0]
    assert out.sbp == (S(0),)
    expected = np.zeros((7, 4))
    np.add.at(expected, idx.reshape(-1), dy.reshape(-1, 4))
    np.testing.assert_array_equal(out.numpy(), expected)


def test_gradients_reach_split_and_broadcast_parameters():
    need(2)
    p = everyone()
    table = logical_value((7, 4), np.float64) / 16
    w = np.linspace(0.5, 1.5, 4)
    idx = np.array([[6, 0, 3], [2, 6, 5]], np.int64)
    dy = logical_value((2, 3, 4), np.float64)[::-1].copy()
    tt = mf.tensor(table, placement=p, sbp=S(0)).requires_grad_()
    wt = mf.tensor(w, placement=p, sbp=B).requires_grad_()
    F.layer_norm(F.embedding(mf.tensor(idx, placement=p, sbp=B), tt), 4, weight=wt).backward(
        mf.tensor(dy, placement=p, sbp=B))
    assert tt.grad.sbp == (S(0),) and wt.grad.sbp == (B,)
    # Local autograd is checked against finite differences in the single-process suite.
    tl, wl = mf.tensor(table).requires_grad_(), mf.tensor(w).requires_grad_()
    F.layer_norm(F.embedding(mf.tensor(idx), tl), 4, weight=wl).backward(mf.tensor(dy))
    np.testing.assert_allclose(tt.grad.numpy(), tl.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(wt.grad.numpy(), wl.grad.numpy(), rtol=1e-12, atol=1e-12)


def beside(x, value):
    """`value` as a tensor of x's kind: broadcast on x's placement for a global x."""
    return mf.tensor(value, placement=x.placement, sbp=B) if x.is_global else mf.tensor(value)


@pytest.mark.parametrize("name, f", [
    ("clamp", lambda x: mf.clamp(x, -1.0, 2.0)), ("remainder", lambda x: x % 1.7), ("softplus", F.softplus),
    ("var", lambda x: x.var(1)), ("std", lambda x: x.std(0)), ("logsumexp", lambda x: mf.logsumexp(x, 1)),
    ("norm", lambda x: x.norm(dim=0)), ("matvec", lambda x: x @ beside(x, np.arange(5.0))),
])
@pytest.mark.parametrize("sbp", [S(0), S(1), B], ids=repr)
def test_composed_ops_on_global_tensors_equal_one_device(name, f, sbp):
    """Ops composed of others (var, logsumexp, norm, matrix @ vector, ...): values and
    gradients equal one device's, the gradient in its input's layout."""
    a = logical_value((7, 5), np.float64) * 0.37 + 0.05
    x_local = mf.tensor(a, requires_grad=True)
    expected = f(x_local)
    expected.sum().backward()
    x = mf.tensor(a, placement=everyone(), sbp=sbp, requires_grad=True)
    got = f(x)
    got.sum().backward()
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12, atol=1e-14)
    assert x.grad.sbp == x.sbp
    np.testing.assert_allclose(x.grad.numpy(), x_local.grad.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("sbp", [S(0), S(1), B], ids=repr)
def test_argmax_max_and_triangles_on_global_tensors_equal_one_device(sbp):
    a = logical_value((7, 5), np.float64)
    x = mf.tensor(a, placement=everyone(), sbp=sbp)
    for dim in (0, 1):
        np.testing.assert_array_equal(x.argmax(dim).numpy(), np.argmax(a, dim))
        values, indices = x.min(dim)
        np.testing.assert_array_equal(values.numpy(), a.min(dim))
        np.testing.assert_array_equal(indices.numpy(), np.argmin(a, dim))
    assert x.argmax().item() == np.argmax(a)
    np.testing.assert_array_equal(x.tril(-1).numpy(), np.tril(a, -1))
    np.testing.assert_array_equal(x.repeat(2, 1).numpy(), np.tile(a, (2, 1)))
