"""nn, issue 26 continued: the Transformer family against a NumPy transcription of torch's
formulas (post- and pre-norm, relu / gelu / a callable, masks, key padding, batch_first,
bias=False, stacks with deep-copied layers, the full Transformer), its state_dict names
(torch's), copy.deepcopy of modules, SELU / CELU / Softmax2d, InstanceNorm1d/2d and
F.instance_norm (running statistics too), LocalResponseNorm, nn.init's eye_ / dirac_ /
orthogonal_ / trunc_normal_, and nn.utils.rnn.pad_sequence. Values against NumPy, gradients
against finite differences."""
import copy
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(26)


# NumPy references, as torch defines them.
def np_layer_norm(x, w, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    y = y * w if w is not None else y
    return y + b if b is not None else y


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def np_gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def np_mha(p, prefix, q, k, v, nhead, mask=None, kpm=None):
    """q [N, L, E], k and v [N, S, E] (batch first); mask additive [L, S]; kpm bool [N, S]."""
    e = q.shape[-1]
    w, b = p[prefix + "in_proj_weight"], p.get(prefix + "in_proj_bias")
    b = np.zeros(3 * e) if b is None else b
    qp, kp, vp = q @ w[:e].T + b[:e], k @ w[e:2 * e].T + b[e:2 * e], v @ w[2 * e:].T + b[2 * e:]
    n, l_, s = q.shape[0], q.shape[1], k.shape[1]
    d = e // nhead
    heads = [x.reshape(n, -1, nhead, d).transpose(0, 2, 1, 3) for x in (qp, kp, vp)]
    scores = heads[0] @ heads[1].transpose(0, 1, 3, 2) / math.sqrt(d)
    if mask is not None:
        scores = scores + mask
    if kpm is not None:
        scores = scores + np.where(kpm, -np.inf, 0.0)[:, None, None, :]
    out = (np_softmax(scores) @ heads[2]).transpose(0, 2, 1, 3).reshape(n, l_, e)
    out = out @ p[prefix + "out_proj.weight"].T
    return out + p[prefix + "out_proj.bias"] if prefix + "out_proj.bias" in p else out


def np_linear(p, name, x):
    y = x @ p[name + ".weight"].T
    return y + p[name + ".bias"] if name + ".bias" in p else y


def np_norm(p, name, x, eps=1e-5):
    return np_layer_norm(x, p[name + ".weight"], p.get(name + ".bias"), eps)


def np_encoder_layer(p, pre, x, nhead, act, norm_first, mask=None, kpm=None):
    def sa(y):
        return np_mha(p, pre + "self_attn.", y, y, y, nhead, mask, kpm)

    def ff(y):
        return np_linear(p, pre + "linear2", act(np_linear(p, pre + "linear1", y)))
    if norm_first:
        x = x + sa(np_norm(p, pre + "norm1", x))
        return x + ff(np_norm(p, pre + "norm2", x))
    x = np_norm(p, pre + "norm1", x + sa(x))
    return np_norm(p, pre + "norm2", x + ff(x))


def np_decoder_layer(p, pre, x, mem, nhead, act, norm_first, tgt_mask=None, memory_mask=None, tgt_kpm=None,
                     mem_kpm=None):
    def sa(y):
        return np_mha(p, pre + "self_attn.", y, y, y, nhead, tgt_mask, tgt_kpm)

    def ca(y):
        return np_mha(p, pre + "multihead_attn.", y, mem, mem, nhead, memory_mask, mem_kpm)

    def ff(y):
        return np_linear(p, pre + "linear2", act(np_linear(p, pre + "linear1", y)))
    if norm_first:
        x = x + sa(np_norm(p, pre + "norm1", x))
        x = x + ca(np_norm(p, pre + "norm2", x))
        return x + ff(np_norm(p, pre + "norm3", x))
    x = np_norm(p, pre + "norm1", x + sa(x))
    x = np_norm(p, pre + "norm2", x + ca(x))
    return np_norm(p, pre + "norm3", x + ff(x))


def params(module):
    return {k: v.numpy().astype(np.float64) for k, v in module.state_dict().items()}


def relu(x):
    return np.maximum(x, 0)


def causal_mask(n):
    return np.where(np.triu(np.ones((n, n), bool), 1), -np.inf, 0.0)


def run(module, *arrays, batch_first=False, **kwargs):
    """module on the arrays ([N, L, E] each, given in torch's layout for batch_first)."""
    tensors = [mf.tensor((a if batch_first else a.transpose(1, 0, 2)).astype(np.float32)) for a in arrays]
    out = module(*tensors, **kwargs).numpy()
    return out if batch_first else out.transpose(1, 0, 2)


# The Transformer family.
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu", "callable"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_encoder_layer_equals_numpy(norm_first, activation, batch_first):
    mf.manual_seed(1)
    act = {"relu": "relu", "gelu": "gelu", "callable": F.silu}[activation]
    np_act = {"relu": relu, "gelu": np_gelu, "callable": lambda x: x / (1 + np.exp(-x))}[activation]
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=act, batch_first=batch_first,
                                       norm_first=norm_first)
    for name, p in layer.named_parameters():  # bias and norms away from their 0 / 1 init
        nn.init.normal_(p, 0.0, 0.3 if p.ndim > 1 else 0.5)
    x = RNG.standard_normal((3, 5, 8))
    kpm = np.zeros((3, 5), bool)
    kpm[1, 3:] = True
    mask = causal_mask(5)
    got = run(layer, x, batch_first=batch_first)
    np.testing.assert_allclose(got, np_encoder_layer(params(layer), "", x, 2, np_act, norm_first), atol=2e-5)
    src = mf.tensor((x if batch_first else x.transpose(1, 0, 2)).astype(np.float32))
    out = layer(src, src_mask=mf.tensor(mask.astype(np.float32)), src_key_padding_mask=mf.tensor(kpm)).numpy()
    out = out if batch_first else out.transpose(1, 0, 2)
    expected = np_encoder_layer(params(layer), "", x, 2, np_act, norm_first, mask, kpm)
    np.testing.assert_allclose(out, expected, atol=2e-5)
    # A bool mask (True: not allowed) and is_causal with the causal mask give the same.
    bool_mask = mf.tensor(np.triu(np.ones((5, 5), bool), 1))
    out2 = layer(src, src_mask=bool_mask, src_key_padding_mask=mf.tensor(kpm)).numpy()
    np.testing.assert_allclose(out2, out if batch_first else out.transpose(1, 0, 2), atol=1e-6)
    out3 = layer(src, src_mask=nn.Transformer.generate_square_subsequent_mask(5), is_causal=True).numpy()
    out3 = out3 if batch_first else out3.transpose(1, 0, 2)
    np.testing.assert_allclose(out3, np_encoder_layer(params(layer), "", x, 2, np_act, norm_first, mask),
                               atol=2e-5)


def test_encoder_layer_unbatched_and_without_bias():
    layer = nn.TransformerEncoderLayer(8, 4, 12, dropout=0.0, bias=False)
    assert layer.linear1.bias is None and layer.norm1.bias is None and layer.self_attn.in_proj_bias is None
    x = RNG.standard_normal((5, 8))
    got = layer(mf.tensor(x.astype(np.float32))).numpy()
    expected = np_encoder_layer(params(layer), "", x[None], 4, relu, False)[0]
    np.testing.assert_allclose(got, expected, atol=2e-5)


def test_encoder_stacks_deep_copies_and_applies_norm():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    encoder = nn.TransformerEncoder(layer, 3, norm=nn.LayerNorm(8))
    assert len(encoder.layers) == 3 and encoder.num_layers == 3
    weights = [m.linear1.weight for m in encoder.layers]
    assert all(w is not layer.linear1.weight for w in weights) and weights[0] is not weights[1]
    for w in weights:
        np.testing.assert_array_equal(w.numpy(), layer.linear1.weight.numpy())
    for i, m in enumerate(encoder.layers):  # distinct values from here on
        nn.init.normal_(m.linear1.weight, 0.0, 0.2 + 0.1 * i)
    nn.init.normal_(encoder.norm.weight, 1.0, 0.3)
    x = RNG.standard_normal((2, 4, 8))
    kpm = np.array([[False] * 4, [False, False, True, True]])
    got = run(encoder, x, mask=mf.tensor(causal_mask(4).astype(np.float32)), src_key_padding_mask=mf.tensor(kpm))
    p, y = params(encoder), x
    for i in range(3):
        y = np_encoder_layer(p, f"layers.{i}.", y, 2, relu, False, causal_mask(4), kpm)
    np.testing.assert_allclose(got, np_norm(p, "norm", y), atol=3e-5)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_equals_numpy(norm_first):
    mf.manual_seed(3)
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first, batch_first=True)
    for p in layer.parameters():
        nn.init.normal_(p, 0.0, 0.3)
    tgt, mem = RNG.standard_normal((2, 4, 8)), RNG.standard_normal((2, 6, 8))
    mem_kpm = np.zeros((2, 6), bool)
    mem_kpm[0, 4:] = True
    memory_mask = np.where(RNG.uniform(size=(4, 6)) < 0.3, -np.inf, RNG.uniform(-1, 0, (4, 6)))
    memory_mask[:, 0] = 0.0
    got = layer(mf.tensor(tgt.astype(np.float32)), mf.tensor(mem.astype(np.float32)),
                tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
                memory_mask=mf.tensor(memory_mask.astype(np.float32)),
                memory_key_padding_mask=mf.tensor(mem_kpm)).numpy()
    expected = np_decoder_layer(params(layer), "", tgt, mem, 2, relu, norm_first, causal_mask(4), memory_mask,
                                None, mem_kpm)
    np.testing.assert_allclose(got, expected, atol=3e-5)


def test_transformer_equals_numpy():
    mf.manual_seed(4)
    model = nn.Transformer(8, 2, 2, 2, 16, dropout=0.0, activation="gelu")
    for name, p in model.named_parameters():
        if p.ndim == 1:
            nn.init.normal_(p, 0.5 if name.endswith("norm1.weight") else 0.0, 0.3)
    src, tgt = RNG.standard_normal((3, 5, 8)), RNG.standard_normal((3, 4, 8))
    src_kpm = np.zeros((3, 5), bool)
    src_kpm[2, 2:] = True
    got = run(model, src, tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
              src_key_padding_mask=mf.tensor(src_kpm), memory_key_padding_mask=mf.tensor(src_kpm))
    p = params(model)
    mem = src
    for i in range(2):
        mem = np_encoder_layer(p, f"encoder.layers.{i}.", mem, 2, np_gelu, False, None, src_kpm)
    mem = np_norm(p, "encoder.norm", mem)
    y = tgt
    for i in range(2):
        y = np_decoder_layer(p, f"decoder.layers.{i}.", y, mem, 2, np_gelu, False, causal_mask(4), None, None,
                             src_kpm)
    np.testing.assert_allclose(got, np_norm(p, "decoder.norm", y), atol=5e-5)


def test_transformer_init_and_errors():
    mf.manual_seed(5)
    model = nn.Transformer(8, 2, 1, 1, 16)
    bound = math.sqrt(6.0 / (16 + 8))  # linear1.weight [16, 8], xavier-uniform
    w = model.encoder.layers[0].linear1.weight.numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    np.testing.assert_array_equal(model.encoder.norm.weight.numpy(), np.ones(8))
    assert (model.d_model, model.nhead, model.batch_first) == (8, 2, False)
    with pytest.raises(RuntimeError, match="batch number"):
        model(mf.randn(5, 2, 8), mf.randn(4, 3, 8))
    with pytest.raises(RuntimeError, match="d_model"):
        model(mf.randn(5, 2, 6), mf.randn(4, 2, 6))
    with pytest.raises(RuntimeError, match="relu/gelu"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")
    with pytest.raises(AssertionError):
        nn.TransformerEncoderLayer(8, 3)


def test_generate_square_subsequent_mask():
    m = nn.Transformer.generate_square_subsequent_mask(4)
    assert m.dtype == mf.float32 and m.shape == (4, 4)
    np.testing.assert_array_equal(m.numpy(), causal_mask(4))
    assert nn.Transformer.generate_square_subsequent_mask(3, dtype=mf.float64).dtype == mf.float64


def test_state_dict_names_are_torchs():
    # torch.nn.Transformer(4, 2, 1, 1, 8, bias=False).state_dict().keys(), sorted.
    expected = [
        "decoder.layers.0.linear1.weight", "decoder.layers.0.linear2.weight",
        "decoder.layers.0.multihead_attn.in_proj_weight", "decoder.layers.0.multihead_attn.out_proj.weight",
        "decoder.layers.0.norm1.weight", "decoder.layers.0.norm2.weight", "decoder.layers.0.norm3.weight",
        "decoder.layers.0.self_attn.in_proj_weight", "decoder.layers.0.self_attn.out_proj.weight",
        "decoder.norm.weight", "encoder.layers.0.linear1.weight", "encoder.layers.0.linear2.weight",
        "encoder.layers.0.norm1.weight", "encoder.layers.0.norm2.weight", "encoder.layers.0.self_attn.in_proj_weight",
        "encoder.layers.0.self_attn.out_proj.weight", "encoder.norm.weight"]
    assert sorted(nn.Transformer(4, 2, 1, 1, 8, bias=False).state_dict()) == expected
    keys = nn.TransformerEncoderLayer(4, 2, 8).state_dict().keys()
    assert list(keys) == ["self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                          "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
                          "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"]


def test_dropout_applies_in_training_only():
    mf.manual_seed(6)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
    x = mf.tensor(RNG.standard_normal((4, 2, 8)).astype(np.float32))
    train = layer(x).numpy()
    layer.eval()
    evaluated = layer(x).numpy()
    expected = np_encoder_layer(params(layer), "", x.numpy().transpose(1, 0, 2).astype(np.float64), 2, relu, False)
    np.testing.assert_allclose(evaluated, expected.transpose(1, 0, 2), atol=2e-5)
    assert np.abs(train - evaluated).max() > 1e-2


def test_encoder_layer_gradients():
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True).double()
    mask = mf.tensor(causal_mask(3))
    check_gradients(lambda x: layer(x, src_mask=mask), [RNG.standard_normal((3, 2, 4))])
    x = mf.tensor(RNG.standard_normal((3, 2, 4)))
    layer(x).sum().backward()
    assert all(p.grad is not None for p in layer.parameters())


def test_decoder_gradients_reach_memory():
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0).double()
    check_gradients(lambda t, m: layer(t, m), [RNG.standard_normal((3, 2, 4)), RNG.standard_normal((5, 2, 4))])


# copy.deepcopy of modules.
def test_deepcopy_copies_parameters_buffers_and_sharing():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    model.add_module("tied", model[0])  # the same module twice stays one in the copy
    model[0].weight.sum().backward()
    model[0].weight.requires_grad_(True)
    model[1].bias.requires_grad_(False)
    clone = copy.deepcopy(model)
    assert clone is not model and clone[0] is not model[0] and clone.tied is clone[0]
    assert clone[0].weight is not model[0].weight and isinstance(clone[0].weight, nn.Parameter)
    assert clone[1].bias.requires_grad is False and clone[0].weight.requires_grad
    np.testing.assert_array_equal(clone[0].weight.grad.numpy(), np.ones((4, 3)))
    for (k, a), (k2, b) in zip(model.state_dict().items(), clone.state_dict().items()):
        assert k == k2
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    nn.init.zeros_(clone[0].weight)
    clone[1].running_mean.data = mf.ones(4)
    assert np.abs(model[0].weight.numpy()).max() > 0
    np.testing.assert_array_equal(model[1].running_mean.numpy(), np.zeros(4))
    clone.eval()
    assert model.training and not clone[1].training
    holder = nn.Module()
    holder.scale = mf.tensor([2.0, 3.0])  # a plain tensor attribute is copied too
    copied = copy.deepcopy(holder)
    assert copied.scale is not holder.scale
    np.testing.assert_array_equal(copied.scale.numpy(), [2.0, 3.0])


# Activations.
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def test_selu_celu_softmax2d():
    x = RNG.standard_normal((2, 3, 4, 5)) * 3
    x[0, 0, 0, :2] = [0.0, 80.0]
    t = mf.tensor(x)
    np.testing.assert_allclose(nn.SELU()(t).numpy(),
                               SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(np.minimum(x, 0)) - 1)),
                               rtol=1e-12)
    for alpha in (1.0, 0.5, 2.5):
        np.testing.assert_allclose(F.celu(t, alpha).numpy(),
                                   np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0) / alpha) - 1)), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmax2d()(t).numpy(), np_softmax(x, 1), rtol=1e-12)
    np.testing.assert_allclose(nn.Softmax2d()(t[0]).numpy(), np_softmax(x[0], 0), rtol=1e-12)
    with pytest.raises(ValueError):
        nn.Softmax2d()(t[0, 0])
    with pytest.raises(RuntimeError):
        F.celu(t, 0.0)
    assert nn.CELU(0.5).extra_repr() == "alpha=0.5"
    smooth = x[1:]  # away from the kink at 0
    check_gradients(lambda a: F.selu(a), [smooth])
    check_gradients(lambda a: nn.CELU(0.7)(a), [smooth])
    check_gradients(lambda a: nn.Softmax2d()(a), [smooth])


def test_selu_celu_inplace():
    x = RNG.standard_normal((3, 4))
    t = mf.tensor(x)
    out = F.selu(t, inplace=True)
    assert out is t
    np.testing.assert_allclose(t.numpy(), SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(x) - 1)), rtol=1e-12)
    t = mf.tensor(x)
    nn.CELU(2.0, inplace=True)(t)
    np.testing.assert_allclose(t.numpy(), np.where(x > 0, x, 2.0 * (np.exp(x / 2.0) - 1)), rtol=1e-12)


# Normalization.
def np_instance_norm(x, w=None, b=None, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mu = x.mean(axes, keepdims=True)
    y = (x - mu) / np.sqrt(((x - mu) ** 2).mean(axes, keepdims=True) + eps)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(shape)
    return y + b.reshape(shape) if b is not None else y


@pytest.mark.parametrize("cls, shape", [(nn.InstanceNorm1d, (3, 4, 7)), (nn.InstanceNorm2d, (2, 3, 4, 5))])
def test_instance_norm_module(cls, shape):
    x = RNG.standard_normal(shape) * 2 + 1
    m = cls(shape[1])
    assert not m.affine and not m.track_running_stats and m.running_mean is None
    assert list(m.state_dict()) == []
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), np_instance_norm(x), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m(mf.tensor(x[0])).numpy(), np_instance_norm(x[:1])[0], rtol=1e-10, atol=1e-12)
    m = cls(shape[1], affine=True, track_running_stats=True, momentum=0.3).double()
    nn.init.normal_(m.weight)
    nn.init.normal_(m.bias)
    w, b = m.weight.numpy(), m.bias.numpy()
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), np_instance_norm(x, w, b), rtol=1e-10, atol=1e-12)
    flat = x.reshape(shape[0], shape[1], -1)
    mean = 0.3 * flat.mean(-1).mean(0)
    var = 0.7 + 0.3 * flat.var(-1, ddof=1).mean(0)
    np.testing.assert_allclose(m.running_mean.numpy(), mean, rtol=1e-12)
    np.testing.assert_allclose(m.running_var.numpy(), var, rtol=1e-12)
    m.eval()  # the running statistics now
    shape_c = (1, -1) + (1,) * (len(shape) - 2)
    expected = (x - mean.reshape(shape_c)) / np.sqrt(var.reshape(shape_c) + 1e-5) * w.reshape(shape_c) \
        + b.reshape(shape_c)
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), expected, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        m(mf.tensor(x).reshape(-1))
    with pytest.raises(ValueError):
        cls(shape[1] + 1, affine=True)(mf.tensor(x))


def test_instance_norm_functional_and_gradients():
    x = RNG.standard_normal((2, 3, 5))
    w, b = RNG.standard_normal(3), RNG.standard_normal(3)
    np.testing.assert_allclose(F.instance_norm(mf.tensor(x), weight=mf.tensor(w), bias=mf.tensor(b)).numpy(),
                               np_instance_norm(x, w, b), rtol=1e-10, atol=1e-12)
    check_gradients(lambda a, ww, bb: F.instance_norm(a, weight=ww, bias=bb), [x, w, b])
    with pytest.raises(ValueError):
        F.instance_norm(mf.tensor(x), use_input_stats=False)
    with pytest.raises(ValueError):
        F.instance_norm(mf.tensor(x[:, :, :1]))


def np_local_response_norm(x, size, alpha, beta, k):
    c = x.shape[1]
    sq = x ** 2
    total = np.zeros_like(x)
    for ch in range(c):
        lo, hi = max(0, ch - size // 2), min(c, ch + (size - 1) // 2 + 1)
        total[:, ch] = sq[:, lo:hi].sum(1)
    return x / (k + alpha / size * total) ** beta


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7])
def test_local_response_norm(size):
    x = RNG.standard_normal((2, 5, 3, 4)) * 3
    np.testing.assert_allclose(nn.LocalResponseNorm(size, 0.2, 0.6, 1.5)(mf.tensor(x)).numpy(),
                               np_local_response_norm(x, size, 0.2, 0.6, 1.5), rtol=1e-12)
    x3 = RNG.standard_normal((2, 5, 3))
    np.testing.assert_allclose(F.local_response_norm(mf.tensor(x3), size).numpy(),
                               np_local_response_norm(x3, size, 1e-4, 0.75, 1.0), rtol=1e-12)
    check_gradients(lambda a: F.local_response_norm(a, size, 0.5, 0.75, 1.0), [x3])


# nn.init.
def test_init_eye_and_dirac():
    w = nn.Parameter(mf.empty(3, 5))
    assert nn.init.eye_(w) is w and w.requires_grad
    np.testing.assert_array_equal(w.numpy(), np.eye(3, 5))
    with pytest.raises(ValueError):
        nn.init.eye_(mf.empty(2, 2, 2))
    w = mf.empty(4, 4, 3, dtype=mf.float64)
    nn.init.dirac_(w)
    assert w.dtype == mf.float64
    x = RNG.standard_normal((2, 4, 6))
    np.testing.assert_allclose(F.conv1d(mf.tensor(x), w, padding=1).numpy(), x, rtol=1e-12)  # the identity
    w = mf.empty(6, 2, 3, 3)
    nn.init.dirac_(w, groups=2)
    expected = np.zeros((6, 2, 3, 3))
    for o, i in [(0, 0), (1, 1), (3, 0), (4, 1)]:
        expected[o, i, 1, 1] = 1
    np.testing.assert_array_equal(w.numpy(), expected)
    with pytest.raises(ValueError):
        nn.init.dirac_(mf.empty(3, 3))


@pytest.mark.parametrize("shape", [(4, 4), (3, 7), (8, 2), (6, 2, 3)])
def test_init_orthogonal(shape):
    mf.manual_seed(2)
    w = nn.init.orthogonal_(mf.empty(*shape), gain=2.0)
    a = w.numpy().reshape(shape[0], -1).astype(np.float64) / 2.0
    small = min(a.shape)
    gram = a @ a.T if a.shape[0] == small else a.T @ a
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-5)
    mf.manual_seed(2)  # the same draw: reproducible
    np.testing.assert_array_equal(nn.init.orthogonal_(mf.empty(*shape), gain=2.0).numpy(), w.numpy())
    # torch's recipe: Q of the normal draw, its columns signed by R's diagonal.
    mf.manual_seed(2)
    draw = mf.randn(shape[0], a.size // shape[0]).numpy().astype(np.float64)
    flat = draw.T if draw.shape[0] < draw.shape[1] else draw
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    q = q.T if draw.shape[0] < draw.shape[1] else q
    np.testing.assert_allclose(a, q, atol=1e-6)
    with pytest.raises(ValueError):
        nn.init.orthogonal_(mf.empty(3))


def test_init_trunc_normal():
    mf.manual_seed(3)
    w = nn.init.trunc_normal_(mf.empty(200, 100), mean=1.0, std=2.0, a=-1.0, b=2.0).numpy()
    assert w.min() >= -1.0 and w.max() <= 2.0
    # The truncated normal's mean: mu + sigma (phi(alpha) - phi(beta)) / (Phi(beta) - Phi(alpha)).
    al, be = (-1.0 - 1.0) / 2.0, (2.0 - 1.0) / 2.0
    phi = [math.exp(-z * z / 2) / math.sqrt(2 * math.pi) for z in (al, be)]
    cdf = [0.5 * (1 + math.erf(z / math.sqrt(2))) for z in (al, be)]
    expected_mean = 1.0 + 2.0 * (phi[0] - phi[1]) / (cdf[1] - cdf[0])
    assert abs(w.mean() - expected_mean) < 0.02
    assert abs(w.mean() - 1.0) > 0.2  # not the untruncated mean
    v = nn.init.trunc_normal_(mf.empty(20000)).numpy()
    assert v.min() >= -2 and v.max() <= 2 and abs(v.std() - 0.8796) < 0.02  # std of N(0, 1) cut at +-2


# nn.utils.rnn.
def test_pad_sequence():
    from meshflow.nn.utils.rnn import pad_sequence
    assert nn.utils.rnn.pad_sequence is pad_sequence and callable(nn.utils.clip_grad_value_)
    seqs = [RNG.standard_normal((n, 3)) for n in (2, 4, 1)]
    tensors = [mf.tensor(s, requires_grad=True) for s in seqs]
    expected = np.full((3, 4, 3), -1.5)
    left = np.full((3, 4, 3), -1.5)
    for i, s in enumerate(seqs):
        expected[i, :len(s)] = s
        left[i, 4 - len(s):] = s
    out = pad_sequence(tensors, padding_value=-1.5)
    assert out.shape == (4, 3, 3)
    np.testing.assert_array_equal(out.numpy(), expected.transpose(1, 0, 2))
    np.testing.assert_array_equal(pad_sequence(tensors, True, -1.5).numpy(), expected)
    out = pad_sequence(tensors, batch_first=True, padding_value=-1.5, padding_side="left")
    np.testing.assert_array_equal(out.numpy(), left)
    weights = RNG.standard_normal(out.shape)
    (out * mf.tensor(weights)).sum().backward()
    for i, (s, t) in enumerate(zip(seqs, tensors)):
        np.testing.assert_array_equal(t.grad.numpy(), weights[i, 4 - len(s):])
    ints = pad_sequence([mf.tensor([1, 2]), mf.tensor([3])])
    assert ints.dtype == mf.int64
    np.testing.assert_array_equal(ints.numpy(), [[1, 3], [2, 0]])
    with pytest.raises(RuntimeError, match="padding_side"):
        pad_sequence(tensors, padding_side="middle")
    with pytest.raises(RuntimeError):
        pad_sequence([mf.zeros(2, 3), mf.zeros(2, 4)])


# Transposed convolution.
def np_conv_transpose2d(x, w, b, stride, padding, output_padding, groups, dilation):
    n, cin, h, wd = x.shape
    cin_g, cout_g, kh, kw = w.shape[0] // groups, w.shape[1], w.shape[2], w.shape[3]
    (sh, sw), (ph, pw), (oph, opw), (dh, dw) = stride, padding, output_padding, dilation
    oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    ow = (wd - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    y = np.zeros((n, cout_g * groups, oh, ow))
    for g in range(groups):
        for c in range(cin_g):
            for o in range(cout_g):
                for a in range(kh):
                    for bb in range(kw):
                        for i in range(h):
                            r = i * sh - ph + a * dh
                            if not 0 <= r < oh:
                                continue
                            for j in range(wd):
                                col = j * sw - pw + bb * dw
                                if 0 <= col < ow:
                                    ci = g * cin_g + c
                                    y[:, g * cout_g + o, r, col] += x[:, ci, i, j] * w[ci, o, a, bb]
    return y + b.reshape(1, -1, 1, 1) if b is not None else y


CONV_T = [((1, 1), (0, 0), (0, 0), 1, (1, 1)), ((2, 2), (1, 1), (1, 1), 1, (1, 1)),
          ((3, 2), (2, 0), (2, 1), 2, (1, 2)), ((1, 1), (1, 1), (1, 1), 1, (2, 2)),
          ((2, 1), (0, 1), (1, 0), 3, (3, 1))]


@pytest.mark.parametrize("stride, padding, output_padding, groups, dilation", CONV_T)
def test_conv_transpose2d_equals_numpy(stride, padding, output_padding, groups, dilation):
    x = RNG.standard_normal((2, 6, 4, 3))
    w = RNG.standard_normal((6, 2, 3, 2))
    b = RNG.standard_normal(2 * groups)
    got = F.conv_transpose2d(mf.tensor(x), mf.tensor(w), mf.tensor(b), stride, padding, output_padding, groups,
                             dilation)
    expected = np_conv_transpose2d(x, w, b, stride, padding, output_padding, groups, dilation)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)
    check_gradients(lambda a, ww, bb: F.conv_transpose2d(a, ww, bb, stride, padding, output_padding, groups,
                                                         dilation), [x[:1, :, :3], w, b])
    unbatched = F.conv_transpose2d(mf.tensor(x[0]), mf.tensor(w), None, stride, padding, output_padding, groups,
                                   dilation)
    np.testing.assert_allclose(unbatched.numpy(), np_conv_transpose2d(x[:1], w, None, stride, padding,
                                                                       output_padding, groups, dilation)[0],
                               rtol=1e-12, atol=1e-12)


def test_conv_transpose2d_module():
    mf.manual_seed(9)
    m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2)
    assert m.weight.shape == (4, 3, 3, 3) and m.bias.shape == (6,)
    assert np.abs(m.weight.numpy()).max() <= 1 / math.sqrt(27)
    assert sorted(m.state_dict()) == ["bias", "weight"]
    x = RNG.standard_normal((2, 4, 5, 5)).astype(np.float32)
    w, b = m.weight.numpy().astype(np.float64), m.bias.numpy().astype(np.float64)
    y = m(mf.tensor(x))
    assert y.shape == (2, 6, 9, 9)
    np.testing.assert_allclose(y.numpy(), np_conv_transpose2d(x, w, b, (2, 2), (1, 1), (0, 0), 2, (1, 1)),
                               rtol=1e-5, atol=1e-5)
    y = m(mf.tensor(x), output_size=[10, 9])  # output_padding (1, 0)
    np.testing.assert_allclose(y.numpy(), np_conv_transpose2d(x, w, b, (2, 2), (1, 1), (1, 0), 2, (1, 1)),
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError):
        m(mf.tensor(x), output_size=[11, 9])
    (m(mf.tensor(x)) ** 2).sum().backward()
    assert m.weight.grad.shape == m.weight.shape and m.bias.grad.shape == (6,)
    assert "stride=(2, 2)" in repr(m)


def test_conv_transpose2d_errors():
    x, w = mf.randn(1, 4, 3, 3), mf.randn(4, 2, 3, 3)
    with pytest.raises(RuntimeError, match="output padding"):
        F.conv_transpose2d(x, w, stride=2, output_padding=2)
    with pytest.raises(RuntimeError, match="channels"):
        F.conv_transpose2d(mf.randn(1, 3, 3, 3), w)
    with pytest.raises(ValueError):
        F.conv_transpose2d(x, mf.randn(4, 2, 3))
    with pytest.raises(ValueError):
        nn.ConvTranspose2d(4, 5, 3, groups=2)
