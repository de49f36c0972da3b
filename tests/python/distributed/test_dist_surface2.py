"""Issue 37's remaining names on global tensors, equal to one device: shifts, interpolate's
linear modes, group_norm, unfold / fold, pixel_shuffle, bilinear and ctc_loss with the batch (or
channels) split, values and gradients; the composed optimizers (NAdam, RAdam, LBFGS) on
split and broadcast parameters, their state in the parameter's layout."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

from global_check import MESHES, B, S, _placement, _same_as_local, _sbp  # noqa: F401


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_layers_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 4, 5, 6))  # a batch of 6: uneven on 4 ranks
    for mode in ("bilinear", "bicubic"):
        _same_as_local(lambda t: F.interpolate(t, scale_factor=1.5, mode=mode, align_corners=False), [x], p, [0])
    _same_as_local(lambda t: F.interpolate(t, size=(3, 8), mode="bilinear", align_corners=True), [x], p, [1])
    _same_as_local(lambda t: F.unfold(t, (2, 3), padding=1, stride=(1, 2)), [x], p, [0])
    _same_as_local(lambda t: F.fold(t, (5, 6), 2), [rng.standard_normal((6, 8, 20))], p, [0])
    _same_as_local(lambda t: F.pixel_shuffle(t, 2), [x], p, [1])
    w, b = rng.standard_normal(4), rng.standard_normal(4)
    for dim in (0, 1, None):  # the batch split, channels split across groups, broadcast
        _same_as_local(lambda t, w, b: F.group_norm(t, 2, w, b), [x, w, b], p, [dim, None, None])
    _same_as_local(lambda a, b, w: F.bilinear(a, b, w), [rng.standard_normal((6, 3)), rng.standard_normal((6, 4)),
                                                         rng.standard_normal((5, 3, 4))], p, [0, 0, None])


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_ctc_and_margin_losses_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(1)
    raw = rng.standard_normal((7, 4, 5))
    targets = np.array([[1, 2, 2], [3, 4, 1], [4, 4, 4], [1, 3, 2]])
    _same_as_local(lambda t, y: F.ctc_loss(t.log_softmax(-1), y, [7, 6, 7, 5], [3, 2, 3, 1], reduction="sum"),
                   [raw, targets], p, [1, 0], tol=1e-10)
    _same_as_local(lambda a, y: F.multi_margin_loss(a, y), [rng.standard_normal((6, 5)), rng.integers(0, 5, 6)], p,
                   [0, 0])
    _same_as_local(lambda a, b, y: F.cosine_embedding_loss(a, b, y, margin=0.2),
                   [rng.standard_normal((6, 4)), rng.standard_normal((6, 4)), np.array([1.0, -1] * 3)], p, [0, 0, 0])


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_shifts_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    x = np.arange(-7, 7, dtype=np.int64)
    s = np.arange(14, dtype=np.int64) % 5 - 1
    g = mf.tensor(x, placement=p, sbp=_sbp(p, 0))
    np.testing.assert_array_equal((g << mf.tensor(s, placement=p, sbp=_sbp(p, 0))).numpy(),
                                  (mf.tensor(x) << mf.tensor(s)).numpy())
    got = g >> 1
    assert got.sbp == g.sbp
    np.testing.assert_array_equal(got.numpy(), x >> 1)


@pytest.mark.parametrize("opt_name, kw", [("NAdam", dict(lr=0.05, weight_decay=0.1)), ("RAdam", dict(lr=0.05)),
                                          ("Adadelta", dict()), ("LBFGS", dict(lr=0.5, max_iter=5))])
@pytest.mark.parametrize("name, ranks", MESHES[:2], ids=[m[0] for m in MESHES[:2]])
def test_composed_optimizers_on_global_parameters(name, ranks, opt_name, kw, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(2)
    w0, b0, x, y = (rng.standard_normal(s) for s in ((4, 3), (4,), (8, 3), (8, 4)))

    def train(place):
        w = mf.tensor(w0, **place(0), requires_grad=True)
        b = mf.tensor(b0, **place(None), requires_grad=True)
        xs, ys = mf.tensor(x, **place(None)), mf.tensor(y, **place(None))
        opt = getattr(mf.optim, opt_name)([w, b], **kw)

        def closure():
            opt.zero_grad()
            loss = (((xs @ w.T + b) - ys) ** 2).mean()
            loss.backward()
            return loss
        for _ in range(3):
            if opt_name == "LBFGS":
                opt.step(closure)
            else:
                closure()
                opt.step()
        return w, b, opt

    w_local, b_local, _ = train(lambda dim: {})
    w, b, opt = train(lambda dim: dict(placement=p, sbp=_sbp(p, dim)))
    np.testing.assert_allclose(w.numpy(), w_local.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.numpy(), b_local.detach().numpy(), rtol=1e-10, atol=1e-12)
    assert w.sbp == tuple(_sbp(p, 0))
    if opt_name != "LBFGS":
        for key, value in opt.state[w].items():
            if key != "step" and isinstance(value, mf.Tensor) and value.ndim:
                assert value.is_global and value.sbp == w.sbp and value.placement == w.placement, key
