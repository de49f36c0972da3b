"""Issue 26's remaining nn pieces against NumPy references of torch's formulas: activations
(values, gradients, inplace=), Embedding padding_idx and from_pretrained, masked attention
(scaled_dot_product_attention with attn_mask, nn.MultiheadAttention), the recurrent layers
(RNN, LSTM, GRU and their cells: torch's equations, parameter names, finite differences)."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients
from graph_step import CrossEntropyStep

RNG = np.random.default_rng(26)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def _relu6(x):
    return np.clip(x, 0, 6)


ACTIVATIONS = {  # name: (functional, module, NumPy reference)
    "relu": (F.relu, nn.ReLU, lambda x: np.maximum(x, 0)),
    "relu6": (F.relu6, nn.ReLU6, _relu6),
    "hardtanh": (F.hardtanh, nn.Hardtanh, lambda x: np.clip(x, -1, 1)),
    "mish": (F.mish, nn.Mish, lambda x: x * np.tanh(_softplus(x))),
    "hardswish": (F.hardswish, nn.Hardswish, lambda x: x * _relu6(x + 3) / 6),
    "hardsigmoid": (F.hardsigmoid, nn.Hardsigmoid, lambda x: _relu6(x + 3) / 6),
    "silu": (F.silu, nn.SiLU, lambda x: x * _sigmoid(x)),
    "logsigmoid": (F.logsigmoid, nn.LogSigmoid, lambda x: np.log(_sigmoid(x))),
    "softsign": (F.softsign, nn.Softsign, lambda x: x / (1 + np.abs(x))),
    "tanhshrink": (F.tanhshrink, nn.Tanhshrink, lambda x: x - np.tanh(x)),
    "softplus": (F.softplus, nn.Softplus, _softplus),
    "leaky_relu": (F.leaky_relu, nn.LeakyReLU, lambda x: np.where(x > 0, x, 0.01 * x)),
    "elu": (F.elu, nn.ELU, lambda x: np.where(x > 0, x, np.expm1(x))),
}
INPLACE = ["relu", "relu6", "hardtanh", "mish", "hardswish", "hardsigmoid", "silu", "leaky_relu", "elu"]
# away from the kinks, where finite differences straddle two slopes
X = np.array([-7.0, -4.5, -2.2, -0.7, 0.3, 0.9, 2.4, 4.1, 7.5])


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_values_and_gradients(name):
    f, module, ref = ACTIVATIONS[name]
    np.testing.assert_allclose(f(mf.tensor(X)).numpy(), ref(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(module()(mf.tensor(X.astype(np.float32))).numpy(), ref(X), rtol=1e-5, atol=1e-6)
    check_gradients(f, [X])


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_writes_the_input(name):
    f, module, ref = ACTIVATIONS[name]
    for call in (lambda x: f(x, inplace=True), lambda x: module(inplace=True)(x)):
        x = mf.tensor(X)
        alias = x
        out = call(x)
        assert out is x
        np.testing.assert_allclose(alias.numpy(), ref(X), rtol=1e-12, atol=1e-12)
    x = mf.tensor(X)
    f(x)
    np.testing.assert_array_equal(x.numpy(), X)  # out of place by default


def test_inplace_keeps_gradients_of_a_non_leaf():
    x = mf.tensor(X, requires_grad=True)
    y = x * 2.0
    F.relu(y, inplace=True)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.where(X > 0, 2.0, 0.0))


def leaky(x, slope):
    with np.errstate(invalid="ignore"):  # -inf * 0 is NaN, as torch's
        return np.where(x > 0, x, slope * x)


@pytest.mark.parametrize("slope", [0.2, 0.0, -0.5])
def test_leaky_relu_is_one_op_with_torch_edges(slope):
    edges = np.array([-np.inf, -2.0, -0.0, 0.0, 1.5, np.inf, np.nan])
    for dtype in (np.float32, np.float64):
        np.testing.assert_array_equal(F.leaky_relu(mf.tensor(edges.astype(dtype)), slope).numpy(),
                                      leaky(edges, slope).astype(dtype))
    # The gradient is slope at 0 and at NaN (x > 0 fails), dy elsewhere on the positive side.
    x = mf.tensor(edges, requires_grad=True)
    y = F.leaky_relu(x, slope)
    assert y.grad_fn.name() == "LeakyReluBackward0"
    (y * mf.tensor(np.arange(7.0))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.where(edges > 0, 1.0, slope) * np.arange(7.0))
    # Non-contiguous, dim order kept; empty; bfloat16 through float32, rounded once.
    a = RNG.standard_normal((3, 4, 5))
    np.testing.assert_array_equal(F.leaky_relu(mf.tensor(a).transpose(0, 2), slope).numpy(),
                                  leaky(a.transpose(2, 1, 0), slope))
    assert F.leaky_relu(mf.zeros(0, 3), slope).shape == (0, 3)
    half = F.leaky_relu(mf.tensor(a.astype(np.float32)).to(mf.bfloat16), slope)
    assert half.dtype == mf.bfloat16
    want = mf.tensor(leaky(mf.tensor(a.astype(np.float32)).to(mf.bfloat16).float().numpy(), slope)).to(mf.bfloat16)
    np.testing.assert_array_equal(half.float().numpy(), want.float().numpy())
    # torch has no integer kernel.
    with pytest.raises(RuntimeError, match="expected a float dtype"):
        F.leaky_relu(mf.tensor([1, -2]), slope)
    # A second derivative: the backward is linear in dy.
    x = mf.tensor(a, requires_grad=True)
    (g,) = mf.autograd.grad(F.leaky_relu(x, slope).pow(2).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), 2 * leaky(a, slope) * np.where(a > 0, 1.0, slope), rtol=1e-12)
    check_gradients(lambda t: F.leaky_relu(t, slope) ** 2, [X])


def test_leaky_relu_in_graph_equals_eager():
    p = mf.placement("cpu", ranks=[0])

    def model():
        mf.manual_seed(0)
        m = nn.Sequential(nn.Linear(6, 8), nn.LeakyReLU(0.2), nn.Linear(8, 3), nn.LeakyReLU(0.1, inplace=True))
        m.to_global(p, mf.sbp.broadcast)
        return m, mf.optim.SGD(m.parameters(), lr=0.5)

    x = mf.tensor(RNG.standard_normal((5, 6)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast)
    y = mf.tensor(np.array([0, 2, 1, 1, 0]), placement=p, sbp=mf.sbp.broadcast)
    (eager, opt), (compiled, compiled_opt) = model(), model()
    step = CrossEntropyStep(compiled, compiled_opt)
    for _ in range(2):
        want = F.cross_entropy(eager(x), y)
        want.backward()
        opt.step()
        opt.zero_grad()
        np.testing.assert_allclose(step(x, y).numpy(), want.numpy(), rtol=1e-6)
    for a, b in zip(eager.parameters(), compiled.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)


def test_threshold_hardtanh_glu_prelu():
    x = mf.tensor(X)
    np.testing.assert_array_equal(F.threshold(x, 0.5, -3.0).numpy(), np.where(X > 0.5, X, -3.0))
    np.testing.assert_array_equal(nn.Threshold(0.5, -3.0)(x).numpy(), np.where(X > 0.5, X, -3.0))
    np.testing.assert_array_equal(nn.Hardtanh(-2.0, 3.0)(x).numpy(), np.clip(X, -2, 3))
    with pytest.raises(ValueError):
        F.hardtanh(x, 2.0, 1.0)
    a = RNG.standard_normal((3, 6, 2))
    np.testing.assert_allclose(F.glu(mf.tensor(a), 1).numpy(), a[:, :3] * _sigmoid(a[:, 3:]), rtol=1e-12)
    np.testing.assert_allclose(nn.GLU()(mf.tensor(a[:, :, :2])).numpy(), a[..., :1] * _sigmoid(a[..., 1:]),
                               rtol=1e-12)
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        F.glu(mf.tensor(a), 0)
    check_gradients(lambda t: F.glu(t, 1), [a])
    # PReLU: one weight, or one per channel (dim 1)
    p = nn.PReLU()
    assert [n for n, _ in p.named_parameters()] == ["weight"] and p.weight.shape == (1,)
    np.testing.assert_allclose(p(mf.tensor(a)).numpy(), np.where(a > 0, a, 0.25 * a), rtol=1e-6)
    w = RNG.standard_normal(6)
    np.testing.assert_allclose(F.prelu(mf.tensor(a), mf.tensor(w)).numpy(),
                               np.where(a > 0, a, w[None, :, None] * a), rtol=1e-12)
    check_gradients(F.prelu, [a, w])
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers"):
        F.prelu(mf.tensor(a), mf.tensor(np.ones(4)))


def test_unflatten():
    a = RNG.standard_normal((4, 6, 5))
    np.testing.assert_array_equal(nn.Unflatten(1, (2, 3))(mf.tensor(a)).numpy(), a.reshape(4, 2, 3, 5))
    np.testing.assert_array_equal(nn.Unflatten(-1, (5, -1))(mf.tensor(a)).numpy(), a.reshape(4, 6, 5, 1))


def test_dropout_inplace():
    x = mf.ones(1000)
    out = F.dropout(x, 0.5, True, inplace=True)
    assert out is x
    values = x.numpy()
    assert set(np.unique(values)) <= {0.0, 2.0} and 300 < (values == 0).sum() < 700
    m = nn.Dropout(0.5, inplace=True).eval()
    y = mf.ones(4)
    assert m(y) is y
    np.testing.assert_array_equal(y.numpy(), np.ones(4))


# ---- Embedding

def test_embedding_padding_idx():
    e = nn.Embedding(6, 3, padding_idx=-2)
    assert e.padding_idx == 4
    np.testing.assert_array_equal(e.weight.numpy()[4], np.zeros(3))
    idx = np.array([[0, 4, 2], [4, 4, 1]])
    out = e(mf.tensor(idx))
    np.testing.assert_array_equal(out.numpy(), e.weight.numpy()[idx])
    out.sum().backward()
    counts = np.bincount(idx.ravel(), minlength=6).astype(np.float32)
    counts[4] = 0  # the padding row gets no gradient
    np.testing.assert_array_equal(e.weight.grad.numpy(), np.repeat(counts[:, None], 3, 1))
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(6, 3, padding_idx=6)


def test_functional_embedding_padding_idx():
    w = RNG.standard_normal((5, 2))
    idx = mf.tensor(np.array([1, 3, 3, 0]))
    weight = mf.tensor(w, requires_grad=True)
    out = F.embedding(idx, weight, padding_idx=3)
    np.testing.assert_array_equal(out.numpy(), w[[1, 3, 3, 0]])  # the values are the row's, whatever it holds
    (out * 2.0).sum().backward()
    np.testing.assert_array_equal(weight.grad.numpy(), np.array([[2, 2], [2, 2], [0, 0], [0, 0], [0, 0]]))


def test_embedding_from_pretrained():
    w = RNG.standard_normal((4, 3)).astype(np.float32)
    e = nn.Embedding.from_pretrained(mf.tensor(w))
    assert not e.weight.requires_grad and (e.num_embeddings, e.embedding_dim) == (4, 3)
    np.testing.assert_array_equal(e(mf.tensor([2, 0])).numpy(), w[[2, 0]])
    e = nn.Embedding.from_pretrained(mf.tensor(w), freeze=False, padding_idx=1)
    assert e.weight.requires_grad and e.padding_idx == 1
    np.testing.assert_array_equal(e.weight.numpy(), w)  # from_pretrained keeps the padding row's values
    with pytest.raises(ValueError, match="2-dimensional"):
        nn.Embedding.from_pretrained(mf.tensor(w[0]))


# ---- Attention

def _np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_attention(q, k, v, additive=None, scale=None):
    s = q @ np.swapaxes(k, -1, -2) * (scale or 1 / math.sqrt(q.shape[-1]))
    if additive is not None:
        s = s + additive
    w = _np_softmax(s)
    return w @ v, w


def test_sdpa_masks():
    q, k, v = (RNG.standard_normal((2, 3, 4, 5)), RNG.standard_normal((2, 3, 6, 5)),
               RNG.standard_normal((2, 3, 6, 2)))
    allowed = RNG.random((4, 6)) > 0.3
    allowed[:, 0] = True
    ref = _np_attention(q, k, v, np.where(allowed, 0.0, -np.inf))[0]
    out = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), attn_mask=mf.tensor(allowed))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12, atol=1e-12)
    additive = RNG.standard_normal((2, 1, 4, 6))
    out = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), mf.tensor(additive), scale=0.3)
    np.testing.assert_allclose(out.numpy(), _np_attention(q, k, v, additive, 0.3)[0], rtol=1e-12, atol=1e-12)
    # is_causal with dropout_p=0 takes the fused op; the masked composition agrees with it
    causal = np.tril(np.ones((4, 6), bool))
    fused = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), dropout_p=0.0, is_causal=True)
    masked = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), attn_mask=mf.tensor(causal))
    np.testing.assert_allclose(fused.numpy(), masked.numpy(), rtol=1e-10, atol=1e-12)
    with pytest.raises(RuntimeError, match="attn_mask should not be set when is_causal"):
        F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), mf.tensor(causal), is_causal=True)
    check_gradients(lambda a, b, c, m: F.scaled_dot_product_attention(a, b, c, m),
                    [q[:1, :1], k[:1, :1], v[:1, :1], additive[:1]])


def test_sdpa_dropout_keeps_the_expectation_shape():
    q = mf.tensor(RNG.standard_normal((2, 8, 4)))
    out = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    assert out.shape == (2, 8, 4)


def _np_mha(m, query, key, value, key_padding_mask=None, attn_mask=None, average=True):
    """torch's multi_head_attention_forward, batch first, from the module's parameters."""
    e, h = m.embed_dim, m.num_heads
    d = e // h
    w = m.in_proj_weight.numpy().astype(np.float64)
    b = m.in_proj_bias.numpy().astype(np.float64)
    q = query @ w[:e].T + b[:e]
    k = key @ w[e:2 * e].T + b[e:2 * e]
    v = value @ w[2 * e:].T + b[2 * e:]
    n, tq, ts = q.shape[0], q.shape[1], k.shape[1]
    split = lambda t, length: t.reshape(n, length, h, d).transpose(0, 2, 1, 3)  # noqa: E731
    mask = np.zeros((n, 1, tq, ts))
    if attn_mask is not None:
        mask = mask + (np.where(attn_mask, -np.inf, 0.0) if attn_mask.dtype == bool else attn_mask)
    if key_padding_mask is not None:
        mask = mask + np.where(key_padding_mask, -np.inf, 0.0)[:, None, None, :]
    out, weights = _np_attention(split(q, tq), split(k, ts), split(v, ts), mask)
    out = out.transpose(0, 2, 1, 3).reshape(n, tq, e)
    out = out @ m.out_proj.weight.numpy().T + m.out_proj.bias.numpy()
    return out, (weights.mean(1) if average else weights)


def test_mha_parameters_and_init():
    m = nn.MultiheadAttention(12, 3)
    assert list(m.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert m.in_proj_weight.shape == (36, 12) and m.in_proj_bias.shape == (36,) and isinstance(m.out_proj, nn.Linear)
    assert m.head_dim == 4 and m.batch_first is False
    bound = math.sqrt(6 / (12 + 36))  # xavier_uniform_
    w = m.in_proj_weight.numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    np.testing.assert_array_equal(m.in_proj_bias.numpy(), np.zeros(36))
    np.testing.assert_array_equal(m.out_proj.bias.numpy(), np.zeros(12))
    assert list(nn.MultiheadAttention(12, 3, bias=False).state_dict()) == ["in_proj_weight", "out_proj.weight"]
    kv = nn.MultiheadAttention(12, 3, kdim=5, vdim=7)
    assert [(k, tuple(v.shape)) for k, v in kv.state_dict().items()] == [
        ("q_proj_weight", (12, 12)), ("k_proj_weight", (12, 5)), ("v_proj_weight", (12, 7)), ("in_proj_bias", (36,)),
        ("out_proj.weight", (12, 12)), ("out_proj.bias", (12,))]
    with pytest.raises(AssertionError, match="divisible"):
        nn.MultiheadAttention(10, 3)


@pytest.mark.parametrize("batch_first", [False, True])
def test_mha_values_masks_and_weights(batch_first):
    m = nn.MultiheadAttention(8, 2, batch_first=batch_first).double()
    for p in m.parameters():  # non-zero biases, to check where they go
        with mf.no_grad():
            p.copy_(mf.tensor(RNG.standard_normal(p.shape) * 0.5))
    n, tq, ts = 3, 4, 5
    query, key, value = (RNG.standard_normal((n, tq, 8)), RNG.standard_normal((n, ts, 8)),
                         RNG.standard_normal((n, ts, 8)))
    padding = np.zeros((n, ts), bool)
    padding[0, 3:] = True
    padding[2, 4] = True
    attn_mask = RNG.standard_normal((tq, ts))
    as_input = (lambda a: mf.tensor(a)) if batch_first else (lambda a: mf.tensor(a.transpose(1, 0, 2).copy()))
    cases = [dict(), dict(key_padding_mask=padding), dict(attn_mask=attn_mask),
             dict(key_padding_mask=padding, attn_mask=np.triu(np.ones((tq, ts), bool), 1))]
    for case in cases:
        for average in (True, False):
            ref_out, ref_w = _np_mha(m, query, key, value, case.get("key_padding_mask"), case.get("attn_mask"),
                                     average)
            kwargs = {k: mf.tensor(v) for k, v in case.items()}
            out, w = m(as_input(query), as_input(key), as_input(value), average_attn_weights=average, **kwargs)
            out = out.numpy() if batch_first else out.numpy().transpose(1, 0, 2)
            np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(w.numpy(), ref_w, rtol=1e-10, atol=1e-12)
            out, w = m(as_input(query), as_input(key), as_input(value), need_weights=False, **kwargs)
            assert w is None
            out = out.numpy() if batch_first else out.numpy().transpose(1, 0, 2)
            np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)


def test_mha_causal_unbatched_and_gradients():
    m = nn.MultiheadAttention(4, 2, batch_first=True).double()
    x = RNG.standard_normal((2, 3, 4))
    causal = np.triu(np.ones((3, 3), bool), 1)
    ref = _np_mha(m, x, x, x, attn_mask=causal)[0]
    out, w = m(mf.tensor(x), mf.tensor(x), mf.tensor(x), attn_mask=mf.tensor(causal), need_weights=False,
               is_causal=True)  # the fused causal op
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10, atol=1e-12)
    with pytest.raises(RuntimeError, match="Need attn_mask"):
        m(mf.tensor(x), mf.tensor(x), mf.tensor(x), is_causal=True)
    out, w = m(mf.tensor(x[0]), mf.tensor(x[0]), mf.tensor(x[0]), average_attn_weights=False)  # unbatched
    ref_out, ref_w = _np_mha(m, x[:1], x[:1], x[:1], average=False)
    np.testing.assert_allclose(out.numpy(), ref_out[0], rtol=1e-10, atol=1e-12)
    assert w.shape == (2, 3, 3)
    np.testing.assert_allclose(w.numpy(), ref_w[0], rtol=1e-10, atol=1e-12)
    check_gradients(lambda q, k: m(q, k, k)[0], [x, RNG.standard_normal((2, 4, 4))])


def test_mha_kdim_vdim():
    m = nn.MultiheadAttention(6, 3, kdim=4, vdim=5, batch_first=True).double()
    q, k, v = RNG.standard_normal((2, 3, 6)), RNG.standard_normal((2, 4, 4)), RNG.standard_normal((2, 4, 5))
    qp = q @ m.q_proj_weight.numpy().T
    kp = k @ m.k_proj_weight.numpy().T
    vp = v @ m.v_proj_weight.numpy().T  # the biases are zero at init
    split = lambda t: t.reshape(2, -1, 3, 2).transpose(0, 2, 1, 3)  # noqa: E731
    out, weights = _np_attention(split(qp), split(kp), split(vp))
    ref = out.transpose(0, 2, 1, 3).reshape(2, 3, 6) @ m.out_proj.weight.numpy().T
    got, w = m(mf.tensor(q), mf.tensor(k), mf.tensor(v))
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w.numpy(), weights.mean(1), rtol=1e-10, atol=1e-12)


# ---- Recurrent layers: torch's equations in NumPy

def _np_cell(mode, x, h, c, w_ih, w_hh, b_ih, b_hh):
    gi, gh = x @ w_ih.T + b_ih, h @ w_hh.T + b_hh
    if mode == "LSTM":
        i, f, g, o = np.split(gi + gh, 4, -1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        return _sigmoid(o) * np.tanh(c), c
    if mode == "GRU":
        (xr, xz, xn), (hr, hz, hn) = np.split(gi, 3, -1), np.split(gh, 3, -1)
        r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
        n = np.tanh(xn + r * hn)
        return (1 - z) * n + z * h, None
    return np.tanh(gi + gh), None


def _np_rnn(mode, m, x, h0, c0):
    """x [T, N, in] (time first); returns output, h_n, c_n."""
    directions = 2 if m.bidirectional else 1
    params = {k: v.numpy() for k, v in m.state_dict().items()}
    h_n, c_n, layer_input = [], [], x
    for layer in range(m.num_layers):
        outs = []
        for direction in range(directions):
            sfx = f"_l{layer}" + ("_reverse" if direction else "")
            zeros = np.zeros(params["weight_ih" + sfx].shape[0])
            w = (params["weight_ih" + sfx], params["weight_hh" + sfx], params.get("bias_ih" + sfx, zeros),
                 params.get("bias_hh" + sfx, zeros))
            idx = layer * directions + direction
            h, c = h0[idx], (c0[idx] if c0 is not None else None)
            seq = [None] * len(x)
            for t in (reversed(range(len(x))) if direction else range(len(x))):
                h, c = _np_cell(mode, layer_input[t], h, c, *w)
                if "weight_hr" + sfx in params:  # LSTM's proj_size
                    h = h @ params["weight_hr" + sfx].T
                seq[t] = h
            outs.append(np.stack(seq))
            h_n.append(h)
            c_n.append(c)
        layer_input = np.concatenate(outs, -1)
    return layer_input, np.stack(h_n), (np.stack(c_n) if mode == "LSTM" else None)


RNN_CASES = [("LSTM", 1, False, False, True), ("LSTM", 2, True, True, True), ("GRU", 2, False, True, True),
             ("GRU", 1, True, False, False), ("RNN_TANH", 2, True, True, True)]


@pytest.mark.parametrize("mode, layers, bidirectional, batch_first, bias", RNN_CASES)
def test_rnn_layers_values(mode, layers, bidirectional, batch_first, bias):
    cls = {"LSTM": nn.LSTM, "GRU": nn.GRU, "RNN_TANH": nn.RNN}[mode]
    m = cls(3, 4, num_layers=layers, bidirectional=bidirectional, batch_first=batch_first, bias=bias).double()
    directions = 2 if bidirectional else 1
    names = []
    for layer in range(layers):
        for sfx in [""] + (["_reverse"] if bidirectional else []):
            names += [f"weight_ih_l{layer}{sfx}", f"weight_hh_l{layer}{sfx}"]
            names += [f"bias_ih_l{layer}{sfx}", f"bias_hh_l{layer}{sfx}"] if bias else []
    assert list(m.state_dict()) == names
    gates = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1}[mode]
    assert m.weight_ih_l0.shape == (gates * 4, 3) and m.weight_hh_l0.shape == (gates * 4, 4)
    assert np.abs(m.weight_hh_l0.numpy()).max() <= 0.5  # U(-1/sqrt(hidden), 1/sqrt(hidden))
    x = RNG.standard_normal((5, 2, 3))
    h0 = RNG.standard_normal((layers * directions, 2, 4))
    c0 = RNG.standard_normal((layers * directions, 2, 4)) if mode == "LSTM" else None
    ref_out, ref_h, ref_c = _np_rnn(mode, m, x, h0, c0)
    xin = x.transpose(1, 0, 2).copy() if batch_first else x
    for given in (True, False):
        hx = None if not given else ((mf.tensor(h0), mf.tensor(c0)) if mode == "LSTM" else mf.tensor(h0))
        out, state = m(mf.tensor(xin), hx)
        if not given:
            ref_out, ref_h, ref_c = _np_rnn(mode, m, x, np.zeros_like(h0), None if c0 is None else np.zeros_like(c0))
        got = out.numpy().transpose(1, 0, 2) if batch_first else out.numpy()
        np.testing.assert_allclose(got, ref_out, rtol=1e-10, atol=1e-12)
        h_n = state[0] if mode == "LSTM" else state
        np.testing.assert_allclose(h_n.numpy(), ref_h, rtol=1e-10, atol=1e-12)
        if mode == "LSTM":
            np.testing.assert_allclose(state[1].numpy(), ref_c, rtol=1e-10, atol=1e-12)


def test_rnn_unbatched_and_errors():
    m = nn.GRU(3, 2).double()
    x = RNG.standard_normal((4, 3))
    out, h = m(mf.tensor(x))
    ref_out, ref_h, _ = _np_rnn("GRU", m, x[:, None], np.zeros((1, 1, 2)), None)
    np.testing.assert_allclose(out.numpy(), ref_out[:, 0], rtol=1e-10, atol=1e-12)
    assert h.shape == (1, 2)
    with pytest.raises(RuntimeError, match="Expected hidden size"):
        m(mf.tensor(RNG.standard_normal((4, 2, 3))), mf.tensor(np.zeros((2, 2, 2))))
    with pytest.raises(ValueError, match="smaller than hidden_size"):
        nn.LSTM(3, 2, proj_size=2)


@pytest.mark.parametrize("layers, bidirectional", [(1, False), (2, True)])
def test_lstm_proj_size(layers, bidirectional):
    m = nn.LSTM(3, 4, num_layers=layers, bidirectional=bidirectional, proj_size=2).double()
    directions = 2 if bidirectional else 1
    names = []
    for layer in range(layers):
        for sfx in [""] + (["_reverse"] if bidirectional else []):
            names += [f"weight_ih_l{layer}{sfx}", f"weight_hh_l{layer}{sfx}", f"bias_ih_l{layer}{sfx}",
                      f"bias_hh_l{layer}{sfx}", f"weight_hr_l{layer}{sfx}"]
    assert list(m.state_dict()) == names  # torch's order
    assert tuple(m.weight_hh_l0.shape) == (16, 2) and tuple(m.weight_hr_l0.shape) == (2, 4)
    x = RNG.standard_normal((5, 2, 3))
    h0, c0 = RNG.standard_normal((layers * directions, 2, 2)), RNG.standard_normal((layers * directions, 2, 4))
    out, (h, c) = m(mf.tensor(x), (mf.tensor(h0), mf.tensor(c0)))
    ref_out, ref_h, ref_c = _np_rnn("LSTM", m, x, h0, c0)
    for got, want in ((out, ref_out), (h, ref_h), (c, ref_c)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)
    assert tuple(out.shape) == (5, 2, 2 * directions)
    out, (h, c) = m(mf.tensor(x))  # default zero states: h of proj_size, c of hidden_size
    assert tuple(h.shape) == (layers * directions, 2, 2) and tuple(c.shape) == (layers * directions, 2, 4)
    check_gradients(lambda t: m(t)[0], [x[:3]])


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_rnn_gradients_by_finite_differences(mode):
    """Through time, both directions and two layers: the input, the initial state and a
    recurrent weight (given in the parameter's place)."""
    cls = nn.LSTM if mode == "LSTM" else nn.GRU
    m = cls(2, 2, num_layers=2, bidirectional=True).double()
    x, h0 = RNG.standard_normal((3, 2, 2)), RNG.standard_normal((4, 2, 2))
    param = m._parameters["weight_hh_l0_reverse"]

    def run(inp, h, weight):
        m._parameters["weight_hh_l0_reverse"] = weight
        try:
            return m(inp, (h, h * 0.5) if mode == "LSTM" else h)[0]
        finally:
            m._parameters["weight_hh_l0_reverse"] = param
    check_gradients(run, [x, h0, param.numpy().copy()])


def test_mha_dropout_on_the_weights():
    m = nn.MultiheadAttention(4, 2, dropout=0.5, batch_first=True)
    x = mf.tensor(RNG.standard_normal((2, 6, 4)).astype(np.float32))
    _, w = m(x, x, x, average_attn_weights=False)
    w = w.numpy()
    assert (w == 0).sum() > 0.2 * w.size  # dropped, and the rest scaled by 2: rows sum to 2 on average
    np.testing.assert_allclose(w.sum(-1).mean(), 1.0, rtol=0.3)
    _, w = m.eval()(x, x, x)
    np.testing.assert_allclose(w.numpy().sum(-1), np.ones((2, 6)), rtol=1e-5)


@pytest.mark.parametrize("cls, mode", [(nn.LSTMCell, "LSTM"), (nn.GRUCell, "GRU"), (nn.RNNCell, "RNN_TANH")])
def test_cells(cls, mode):
    m = cls(3, 4).double()
    assert list(m.state_dict()) == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    x, h = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 4))
    c = RNG.standard_normal((2, 4))
    params = [m.weight_ih.numpy(), m.weight_hh.numpy(), m.bias_ih.numpy(), m.bias_hh.numpy()]
    ref_h, ref_c = _np_cell(mode, x, h, c, *params)
    if mode == "LSTM":
        got_h, got_c = m(mf.tensor(x), (mf.tensor(h), mf.tensor(c)))
        np.testing.assert_allclose(got_c.numpy(), ref_c, rtol=1e-10, atol=1e-12)
    else:
        got_h = m(mf.tensor(x), mf.tensor(h))
    np.testing.assert_allclose(got_h.numpy(), ref_h, rtol=1e-10, atol=1e-12)
    zero = m(mf.tensor(x[0]))  # unbatched, zero state
    zero_h = zero[0] if mode == "LSTM" else zero
    np.testing.assert_allclose(zero_h.numpy(), _np_cell(mode, x[:1], np.zeros((1, 4)), np.zeros((1, 4)),
                                                        *params)[0][0], rtol=1e-10, atol=1e-12)
    check_gradients(lambda a, b: (m(a, (b, b))[0] if mode == "LSTM" else m(a, b)), [x, h])
