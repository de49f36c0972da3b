"""nn.MultiheadAttention and nn.LSTM on global tensors equal one device: the batch split (data
parallelism, even and uneven) on meshes [2], [4] and [2, 2], with broadcast parameters;
outputs, attention weights and the gradients of inputs and parameters."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn

S, B = mf.sbp.split, mf.sbp.broadcast
MESHES = [("2", [0, 1]), ("4", [0, 1, 2, 3]), ("2x2", [[0, 1], [2, 3]])]


def _twins(make, seed):
    """A local module and a global copy (parameters from one NumPy draw, on every rank)."""
    rng = np.random.default_rng(seed)
    local = make()
    state = {k: rng.standard_normal(v.shape) * 0.5 for k, v in local.state_dict().items()}
    local.load_state_dict({k: mf.tensor(v) for k, v in state.items()})
    other = make()
    other.load_state_dict({k: mf.tensor(v) for k, v in state.items()})
    return local, other


def _run(module, arrays, mask_arrays, batch_dim, p, call):
    """The call on local tensors (p None) or on global ones whose batch is split; returns the
    results as NumPy arrays with the gradients of the inputs and parameters."""
    if p is None:
        inputs = [mf.tensor(a, requires_grad=True) for a in arrays]
        masks = [None if m is None else mf.tensor(m) for m in mask_arrays]
    else:
        nd = len(p.hierarchy)
        split = [S(batch_dim)] + [B] * (nd - 1)
        module.to_global(p, [B] * nd)
        inputs = [mf.tensor(a, placement=p, sbp=split).requires_grad_(True) for a in arrays]
        masks = [None if m is None else mf.tensor(m, placement=p, sbp=[S(0)] + [B] * (nd - 1)) for m in mask_arrays]
    outs = [o for o in call(module, inputs, masks) if o is not None]
    loss = sum((o * (k + 1.0)).sum() for k, o in enumerate(outs))
    loss.backward()
    return ([o.numpy() for o in outs] + [t.grad.numpy() for t in inputs] +
            [q.grad.numpy() for _, q in module.named_parameters()])


@pytest.mark.parametrize("batch", [4, 6])  # 6 rows: uneven on 4 ranks
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_multihead_attention_batch_split(name, ranks, need_weights, batch, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    p = mf.placement("cpu", ranks=ranks)
    rng = np.random.default_rng(3)
    query, key = rng.standard_normal((5, batch, 8)), rng.standard_normal((7, batch, 8))  # time first
    padding = rng.random((batch, 7)) < 0.3
    padding[:, 0] = False
    causal = np.triu(np.ones((5, 7), bool), 3)
    local, other = _twins(lambda: nn.MultiheadAttention(8, 2).double(), 9)

    def call(m, inputs, masks):  # a local attn_mask is broadcast onto the inputs' placement
        return m(inputs[0], inputs[1], inputs[1], key_padding_mask=masks[0], need_weights=need_weights,
                 attn_mask=mf.tensor(causal))
    expected = _run(local, [query, key], [padding], 1, None, call)
    got = _run(other, [query, key], [padding], 1, p, call)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("proj", [0, 2])  # proj_size: the projection inside the op, W_hr broadcast
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_lstm_batch_split(name, ranks, proj, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    p = mf.placement("cpu", ranks=ranks)
    x = np.random.default_rng(4).standard_normal((6, 4, 3))  # batch first, 6 rows
    local, other = _twins(lambda: nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True,
                                          proj_size=proj).double(), 2)

    def call(m, inputs, masks):
        out, (h, c) = m(inputs[0])
        return [out, h, c]
    expected = _run(local, [x], [], 0, None, call)
    got = _run(other, [x], [], 0, p, call)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode", ["GRU", "RNN_TANH"])
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_gru_and_rnn_with_initial_state_batch_split(name, ranks, mode, world):
    """Time first, the initial state given and split on its batch dim too: the fused
    recurrence (op rnn_scan) runs on each rank's rows, its output split as its input."""
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    p = mf.placement("cpu", ranks=ranks)
    rng = np.random.default_rng(5)
    x, h0 = rng.standard_normal((5, 6, 3)), rng.standard_normal((2, 6, 4))  # batch dim 1, 6 rows
    cls = nn.GRU if mode == "GRU" else nn.RNN
    local, other = _twins(lambda: cls(3, 4, num_layers=2).double(), 6)

    def call(m, inputs, masks):
        out, h = m(inputs[0], inputs[1])
        if inputs[0].is_global:
            assert out.sbp[0] == S(1), out.sbp
        return [out, h]
    expected = _run(local, [x, h0], [], 1, None, call)
    got = _run(other, [x, h0], [], 1, p, call)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12)
