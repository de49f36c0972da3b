"""Issue 37's programs round on global tensors, equal to one device: a forward that makes its
position ids with `device=x.device` (a global tensor's device is this rank's), module hooks on a
global model, interpolate's 'area', 'nearest-exact' and antialias with the batch or a spatial
dim split, and the composed names (diag_embed, fill_diagonal_, cov, xlogy, renorm, nanquantile,
LSTM's proj_size), values and gradients."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

from global_check import MESHES, B, S, _placement, _same_as_local, _sbp  # noqa: F401


class DeviceIdiomModel(nn.Module):
    """nanoGPT's idiom: tensors made in forward on the input's device."""

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(9, 6)
        self.pos = nn.Embedding(5, 6)
        self.head = nn.Linear(6, 9)

    def forward(self, idx):
        t = idx.shape[1]
        pos = mf.arange(0, t, dtype=mf.long, device=idx.device)
        mask = mf.ones(t, t, device=idx.device).tril().bool()
        h = self.tok(idx) + self.pos(pos)
        scores = (h @ h.transpose(1, 2)).masked_fill(~mask, float("-inf"))
        return self.head(F.softmax(scores, -1) @ h)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_tensors_made_on_the_inputs_device_join_a_global_forward(name, ranks, world):
    p = _placement(ranks, world)
    idx = (np.arange(6 * 5).reshape(6, 5) * 7) % 9
    mf.manual_seed(0)
    reference = DeviceIdiomModel()
    want = reference(mf.tensor(idx))
    want.sum().backward()
    mf.manual_seed(0)
    model = DeviceIdiomModel()
    model.to_global(p, [B] * len(p.hierarchy))
    x = mf.tensor(idx, placement=p, sbp=_sbp(p, 0))
    assert x.device == mf.device("cpu") and x.to(x.device) is x
    got = model(x)
    got.sum().backward()
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    for (n, a), b in zip(reference.named_parameters(), model.parameters()):
        np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=1e-4, atol=1e-6, err_msg=n)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_module_hooks_on_a_global_model(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(0)
    w, x = rng.standard_normal((3, 4)), rng.standard_normal((6, 4))
    seen = {}
    m = nn.Linear(4, 3, bias=False)
    with mf.no_grad():
        m.weight.copy_(mf.tensor(w, dtype=mf.float32))
    m.to_global(p, [B] * len(p.hierarchy))
    m.register_forward_hook(lambda mod, args, out: out * 2)
    m.register_full_backward_hook(lambda mod, gi, go: seen.update(gi=gi[0].numpy(), go=go[0].numpy()))
    xt = mf.tensor(x, dtype=mf.float32, placement=p, sbp=_sbp(p, 0))
    xt.requires_grad = True
    y = m(xt)
    np.testing.assert_allclose(y.numpy(), 2 * x @ w.T, rtol=1e-5, atol=1e-5)
    y.sum().backward()
    np.testing.assert_allclose(seen["go"], np.ones((6, 3)))
    np.testing.assert_allclose(seen["gi"], 2 * np.ones((6, 3)) @ w, rtol=1e-5)
    np.testing.assert_allclose(xt.grad.numpy(), 2 * np.ones((6, 3)) @ w, rtol=1e-5)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_interpolate_modes_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    x = np.random.default_rng(1).standard_normal((6, 2, 7, 9))
    for dim in (0, 2):
        _same_as_local(lambda t: F.interpolate(t, size=(3, 4), mode="area"), [x], p, [dim])
        _same_as_local(lambda t: F.interpolate(t, size=(10, 5), mode="nearest-exact"), [x], p, [dim])
        _same_as_local(lambda t: F.interpolate(t, size=(4, 5), mode="bilinear", antialias=True), [x], p, [dim])


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_composed_names_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((6, 5)), rng.standard_normal((6, 5))
    _same_as_local(lambda a: mf.diag_embed(a, 1), [x], p, [0])
    _same_as_local(lambda a: a.clone().fill_diagonal_(3.0), [x], p, [1])
    _same_as_local(lambda a: mf.cov(a), [x], p, [1])
    _same_as_local(lambda a, b: mf.xlogy(a, b.abs()), [x, y], p, [0, 0])
    _same_as_local(lambda a: mf.renorm(a, 2, 0, 1.0), [x], p, [0])
    _same_as_local(lambda a: mf.logaddexp2(a, a * 2), [x], p, [1])
    x[1, 2] = np.nan
    _same_as_local(lambda a: mf.nanquantile(a, 0.3, dim=1), [x], p, [0])


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_lstm_with_projections_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    mf.manual_seed(3)
    reference = nn.LSTM(3, 4, proj_size=2, batch_first=True).double()
    mf.manual_seed(3)
    lstm = nn.LSTM(3, 4, proj_size=2, batch_first=True).double()
    lstm.to_global(p, [B] * len(p.hierarchy))
    x = np.random.default_rng(4).standard_normal((6, 5, 3))
    want, (h, c) = reference(mf.tensor(x))
    got, (gh, gc) = lstm(mf.tensor(x, placement=p, sbp=_sbp(p, 0)))
    for a, b in ((got, want), (gh, h), (gc, c)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)
