"""Implicit replication (README, "Ops on global tensors"): a local tensor that meets global ones in an op is
taken as broadcast on their placement, so model code that makes tensors inside forward
(arange, masks, zero states, constants) runs unchanged on global parameters. Each test
compares with the same computation on one device."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from conftest import logical_value

S, B = mf.sbp.split, mf.sbp.broadcast


def everyone(world):
    return mf.placement("cpu", ranks=list(range(world)))


@pytest.mark.parametrize("make", ["ones", "arange", "full", "tensor", "zeros_like_shape", "new_ones", "new_zeros"])
@pytest.mark.parametrize("sbp", [S(0), S(1), B])
def test_a_local_operand_is_broadcast_on_the_global_ones_placement(world, make, sbp):
    value = logical_value((2 * world + 1, 3))
    x = mf.tensor(value, placement=everyone(world), sbp=sbp)
    local, expected = {
        "ones": (lambda: mf.ones(3), value + 1),
        "arange": (lambda: mf.arange(3), value + np.arange(3)),
        "full": (lambda: mf.full((1, 3), 2.5), value + 2.5),
        "tensor": (lambda: mf.tensor([1.0, -2.0, 4.0]), value + np.array([1.0, -2.0, 4.0], np.float32)),
        "zeros_like_shape": (lambda: mf.zeros(value.shape), value),
        # A global tensor's new_*: a local tensor on this rank's device (torch's x.new_ones in forward).
        "new_ones": (lambda: x.new_ones(3), value + 1),
        "new_zeros": (lambda: x.new_zeros(value.shape), value),
    }[make]
    if make.startswith("new_"):
        assert local().is_local and local().dtype == x.dtype and local().device == x.device
    for y, want in ((x + local(), expected), (local() + x, expected), (x * local(), value * (expected - value))):
        assert y.is_global and y.placement == x.placement
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-6)


def test_an_embedding_takes_a_local_index_with_a_global_weight(world):
    weight = logical_value((7, 4))
    for sbp in (B, S(0), S(1)):  # data parallel, vocabulary parallel, hidden split
        emb = nn.Embedding(7, 4)
        emb.weight.data = mf.tensor(weight)
        emb.to_global(everyone(world), sbp)
        out = emb(mf.arange(5))
        np.testing.assert_array_equal(out.numpy(), weight[:5])


class PositionModel(nn.Module):
    """What a DDP or Megatron user writes: position ids, a causal mask and a constant made in
    forward, with no is_global branch."""

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(11, 8)
        self.pos = nn.Embedding(6, 8)
        self.head = nn.Linear(8, 11)

    def forward(self, idx):
        t = idx.shape[1]
        h = self.tok(idx) + self.pos(mf.arange(t))
        scores = h @ h.transpose(1, 2) * mf.tensor(0.125)
        causal = mf.arange(t).reshape(t, 1) >= mf.arange(t).reshape(1, t)
        scores = mf.where(causal, scores, mf.full((t, t), -1e9))
        return self.head(F.softmax(scores, dim=-1) @ h)


def _loss_and_grads(model, idx, targets):
    logits = model(idx)
    loss = F.cross_entropy(logits.reshape(-1, 11), targets.reshape(-1))
    loss.backward()
    return loss.numpy(), {n: p.grad.numpy() for n, p in model.named_parameters()}


@pytest.mark.parametrize("layout", ["data", "megatron"])
def test_a_model_that_makes_tensors_in_forward_equals_one_device(world, layout):
    idx = (np.arange(2 * world * 5).reshape(2 * world, 5) * 7) % 11
    targets = (idx + 3) % 11
    mf.manual_seed(0)
    reference = PositionModel()
    want_loss, want_grads = _loss_and_grads(reference, mf.tensor(idx), mf.tensor(targets))

    mf.manual_seed(0)
    model = PositionModel()
    place = everyone(world)
    megatron = {"tok.weight": S(0), "head.weight": S(0), "head.bias": S(0)}
    model.to_global(place, lambda name, p: megatron.get(name, B) if layout == "megatron" else B)
    batch = S(0) if layout == "data" else B
    loss, grads = _loss_and_grads(model, mf.tensor(idx, placement=place, sbp=batch),
                                  mf.tensor(targets, placement=place, sbp=batch))
    np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
    for name, want in want_grads.items():
        np.testing.assert_allclose(grads[name], want, rtol=1e-4, atol=1e-6, err_msg=name)


def test_an_lstm_with_global_weights_makes_its_zero_state_itself(world):
    mf.manual_seed(1)
    reference = nn.LSTM(3, 4, batch_first=True)
    mf.manual_seed(1)
    lstm = nn.LSTM(3, 4, batch_first=True)
    lstm.to_global(everyone(world), B)
    value = logical_value((2 * world, 5, 3)) / 10
    want, _ = reference(mf.tensor(value))
    got, _ = lstm(mf.tensor(value, placement=everyone(world), sbp=S(0)))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("ranks", ["all", [0]])
def test_a_local_that_requires_grad_gets_the_single_device_gradient(world, ranks):
    ranks = list(range(world)) if ranks == "all" else ranks
    value = logical_value((2 * world, 3))
    c_value = np.array([1.0, 2.0, -1.0], np.float32)
    c = mf.tensor(c_value, requires_grad=True)
    x = mf.tensor(value, placement=mf.placement("cpu", ranks=ranks), sbp=S(0))
    (x * c).sum().backward()
    assert c.grad.is_local
    here = mf.env.get_rank() in ranks
    # The gradient of the logical computation, whole on each rank of the placement.
    np.testing.assert_allclose(c.grad.numpy(), value.sum(0) if here else np.zeros(3), rtol=1e-6)


def test_the_consistency_check_raises_on_every_rank_when_the_locals_differ(world, monkeypatch):
    if world < 2:
        pytest.skip("needs 2 ranks: one rank's local cannot differ from itself")
    x = mf.tensor(logical_value((world, 3)), placement=everyone(world), sbp=S(0))
    monkeypatch.setenv("MESHFLOW_CHECK_CONSISTENCY", "1")
    np.testing.assert_array_equal((x + mf.arange(3)).numpy(), logical_value((world, 3)) + np.arange(3))
    differing = mf.arange(3) + (1 if mf.env.get_rank() == world - 1 else 0)
    with pytest.raises(ValueError, match=r"\[add\] a local input meets global ones and is taken as broadcast on "
                                         r"their placement \(implicit replication\).*values differ between rank 0 "
                                         rf"and rank {world - 1}"):
        x + differing
    monkeypatch.delenv("MESHFLOW_CHECK_CONSISTENCY")
    np.testing.assert_array_equal((x + mf.arange(3)).numpy(), logical_value((world, 3)) + np.arange(3))


@pytest.mark.parametrize("op, call", [
    ("index", lambda x, i, v: x[i]),
    ("index_select", lambda x, i, v: x.index_select(0, i)),
    ("gather", lambda x, i, v: mf.gather(x, 0, i.unsqueeze(1).expand(2, 3))),
    ("index_put", lambda x, i, v: x.__setitem__((slice(None), 0), v[:, 0])),
    ("copy_", lambda x, i, v: x.copy_(v)),
])
def test_the_consistency_check_covers_indices_and_written_values(world, monkeypatch, op, call):
    """Indices and values written into a global tensor are placed before the op that meets the
    global one runs (in Python): they are taken by the same rule, checked alike (they were
    taken unchecked: x.copy_(local) mixed the ranks' values, x[local] read rank 0's indices)."""
    if world < 2:
        pytest.skip("needs 2 ranks: one rank's local cannot differ from itself")
    x = mf.tensor(logical_value((world, 3)), placement=everyone(world), sbp=S(0))
    monkeypatch.setenv("MESHFLOW_CHECK_CONSISTENCY", "1")
    last = mf.env.get_rank() == world - 1
    same_i, same_v = mf.tensor([0, world - 1]), mf.full((world, 3), 2.0)
    call(x.clone(), same_i, same_v)  # equal locals pass
    with pytest.raises(ValueError, match=rf"\[{op}\] a local input meets global ones .*values differ between rank 0 "
                                         rf"and rank {world - 1}"):
        call(x.clone(), mf.tensor([0, 1 if last else 0]), mf.full((world, 3), 3.0 if last else 2.0))
