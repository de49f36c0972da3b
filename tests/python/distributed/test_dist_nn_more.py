"""Issue 26 continued, on global tensors equal to one device: nn.Transformer and its encoder
and decoder with the batch split (even and uneven, batch_first or not) and broadcast
parameters, masks and key padding included, outputs and gradients; copy.deepcopy of a global
module; InstanceNorm2d (batch or channels split, running statistics); SELU / CELU /
LocalResponseNorm; nn.init's orthogonal_ / eye_ / dirac_ / trunc_normal_ on global
parameters (the same values as local ones); pad_sequence of global sequences."""
import copy

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.nn.utils.rnn import pad_sequence

S, B = mf.sbp.split, mf.sbp.broadcast
MESHES = [("2", [0, 1]), ("4", [0, 1, 2, 3]), ("2x2", [[0, 1], [2, 3]])]


def _skip(ranks, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")


def _twins(make, seed):
    rng = np.random.default_rng(seed)
    local = make()
    state = {k: rng.standard_normal(v.shape) * 0.4 for k, v in local.state_dict().items()}
    other = make()
    for m in (local, other):
        m.load_state_dict({k: mf.tensor(v) for k, v in state.items()})
    return local, other


def _split(nd, dim):
    return [S(dim)] + [B] * (nd - 1)


@pytest.mark.parametrize("batch", [4, 6])  # 6: uneven on 4 ranks
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_transformer_batch_split(name, ranks, batch_first, batch, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    bdim = 0 if batch_first else 1

    def make():
        return nn.Transformer(8, 2, 2, 1, 12, dropout=0.0, batch_first=batch_first, norm_first=True).double()
    local, other = _twins(make, 3)
    rng = np.random.default_rng(4)
    src, tgt = rng.standard_normal((batch, 5, 8)), rng.standard_normal((batch, 3, 8))
    if not batch_first:
        src, tgt = src.transpose(1, 0, 2), tgt.transpose(1, 0, 2)
    kpm = np.zeros((batch, 5), bool)
    kpm[1, 3:] = True
    causal = nn.Transformer.generate_square_subsequent_mask(3, dtype=mf.float64)
    results = []
    for module, glob in ((local, False), (other, True)):
        if glob:
            module.to_global(p, [B] * nd)
            inputs = [mf.tensor(a, placement=p, sbp=_split(nd, bdim)).requires_grad_(True) for a in (src, tgt)]
            pad = mf.tensor(kpm, placement=p, sbp=_split(nd, 0))
            mask = causal.to_global(placement=p, sbp=[B] * nd)
        else:
            inputs = [mf.tensor(a, requires_grad=True) for a in (src, tgt)]
            pad, mask = mf.tensor(kpm), causal
        y = module(*inputs, tgt_mask=mask, src_key_padding_mask=pad, memory_key_padding_mask=pad)
        if glob:
            assert y.sbp == tuple(_split(nd, bdim))
        (y * y).sum().backward()
        results.append([y.numpy()] + [t.grad.numpy() for t in inputs] +
                       [q.grad.numpy() for _, q in module.named_parameters()])
    for got, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_deepcopy_of_a_global_module(name, ranks, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    layer = nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0).double()
    layer.to_global(p, [B] * nd)
    encoder = nn.TransformerEncoder(layer, 2)  # deep copies of the global layer
    for q, q0 in zip(encoder.layers[1].parameters(), layer.parameters()):
        assert q.is_global and q.placement == q0.placement and q.sbp == q0.sbp and q is not q0
        np.testing.assert_array_equal(q.numpy(), q0.numpy())
    x = mf.tensor(np.random.default_rng(1).standard_normal((4, 6, 8)), placement=p, sbp=_split(nd, 1))
    expected = layer(layer(x)).numpy()
    np.testing.assert_allclose(encoder(x).numpy(), expected, rtol=1e-12, atol=1e-12)
    clone = copy.deepcopy(encoder)
    nn.init.zeros_(clone.layers[0].linear1.weight)
    np.testing.assert_allclose(encoder(x).numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dim", [0, 1])  # the batch or the channels split
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_instance_norm_split(name, ranks, dim, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    x = np.random.default_rng(2).standard_normal((6, 5, 3, 4)) * 2 + 1

    def make():
        return nn.InstanceNorm2d(5, affine=True, track_running_stats=True).double()
    local, other = _twins(make, 5)
    results = []
    for module, glob in ((local, False), (other, True)):
        if glob:
            module.to_global(p, [B] * nd)
            t = mf.tensor(x, placement=p, sbp=_split(nd, dim)).requires_grad_(True)
        else:
            t = mf.tensor(x, requires_grad=True)
        y = module(t)
        (y * y * y).sum().backward()
        module.eval()
        z = module(t)
        results.append([y.numpy(), z.numpy(), t.grad.numpy(), module.weight.grad.numpy(),
                        module.running_mean.numpy(), module.running_var.numpy()])
    for got, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-11)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_activations_and_local_response_norm_split(name, ranks, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    x = np.random.default_rng(3).standard_normal((3, 7, 5)) * 2
    for dim in (0, 1, 2):
        for f in (F.selu, lambda a: F.celu(a, 0.6), lambda a: F.local_response_norm(a, 3, 0.3)):
            expected = f(mf.tensor(x)).numpy()
            got = f(mf.tensor(x, placement=p, sbp=_split(nd, dim)))
            np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_init_on_global_parameters(name, ranks, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    for init, shape in ((nn.init.orthogonal_, (6, 4)), (nn.init.eye_, (5, 3)), (nn.init.dirac_, (4, 2, 3)),
                        (nn.init.trunc_normal_, (7, 3))):
        for sbp in ([B] * nd, _split(nd, 0)):
            mf.manual_seed(8)
            expected = init(nn.Parameter(mf.zeros(*shape))).numpy()
            w = nn.Parameter(mf.zeros(*shape, placement=p, sbp=sbp))
            mf.manual_seed(8)
            assert init(w) is w and w.sbp == tuple(sbp) and w.requires_grad
            np.testing.assert_array_equal(w.numpy(), expected)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_pad_sequence_global(name, ranks, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    rng = np.random.default_rng(6)
    seqs = [rng.standard_normal((n, 4)) for n in (5, 2, 3)]
    weights = rng.standard_normal((3, 5, 4))
    for dim in (0, 1):
        results = []
        for glob in (False, True):
            ts = [mf.tensor(s, placement=p, sbp=_split(nd, dim)).requires_grad_(True) if glob else
                  mf.tensor(s, requires_grad=True) for s in seqs]
            out = pad_sequence(ts, batch_first=True, padding_value=2.0, padding_side="left")
            (out * mf.tensor(weights) if not glob else
             out * mf.tensor(weights, placement=p, sbp=[B] * nd)).sum().backward()
            results.append([out.numpy()] + [t.grad.numpy() for t in ts])
        for got, expected in zip(results[1], results[0]):
            np.testing.assert_array_equal(got, expected)


# (the input's SBP, the weight's) on one mesh dim: the batch split, the input channels split.
CONV_T_LAYOUTS = [((S(0),), (B,)), ((S(1),), (S(0),)), ((B,), (B,))]


@pytest.mark.parametrize("layout", CONV_T_LAYOUTS, ids=["batch", "in-channels", "broadcast"])
@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_conv_transpose2d_split(name, ranks, layout, world):
    _skip(ranks, world)
    p = mf.placement("cpu", ranks=ranks)
    nd = len(p.hierarchy)
    rng = np.random.default_rng(7)
    x, w, b = rng.standard_normal((6, 8, 4, 3)), rng.standard_normal((8, 3, 3, 2)), rng.standard_normal(3)
    dy = rng.standard_normal((6, 3, 10, 5))
    results = []
    for glob in (False, True):
        if glob:
            xs, ws = list(layout[0]) + [B] * (nd - 1), list(layout[1]) + [B] * (nd - 1)
            ts = [mf.tensor(a, placement=p, sbp=s).requires_grad_(True) for a, s in ((x, xs), (w, ws), (b, [B] * nd))]
            weight = mf.tensor(dy, placement=p, sbp=[B] * nd)
        else:
            ts = [mf.tensor(a, requires_grad=True) for a in (x, w, b)]
            weight = mf.tensor(dy)
        y = F.conv_transpose2d(*ts, stride=2, padding=(0, 1), output_padding=1)
        (y * weight).sum().backward()
        results.append([y.numpy()] + [t.grad.numpy() for t in ts])
    for got, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-11, atol=1e-11)
