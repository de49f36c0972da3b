"""optim.swa_utils as torch's: AveragedModel's running mean and exponential averages of a
model's parameters against NumPy, SWALR's rates against torch's formula, update_bn's
statistics against the plain average of the loader's batch statistics."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from meshflow.optim import SGD, swa_utils

rng = np.random.default_rng(8)


def _params(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def _train_step(model, opt):
    model(mf.tensor(rng.standard_normal((8, 3)), dtype=mf.float32)).pow(2).sum().backward()
    opt.step()
    opt.zero_grad()


def test_averaged_model_running_mean_and_ema():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    swa = swa_utils.AveragedModel(model)
    ema = swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9))
    ema_buffers = swa_utils.AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(0.8), use_buffers=True)
    opt = SGD(model.parameters(), lr=0.1)
    snapshots, ema_expected = [], None
    for _ in range(4):
        _train_step(model, opt)
        for averaged in (swa, ema, ema_buffers):
            averaged.update_parameters(model)
        now = _params(model)
        snapshots.append(now)
        ema_expected = now if ema_expected is None else [0.9 * e + 0.1 * p for e, p in zip(ema_expected, now)]
    for got, *seen in zip(_params(swa), *snapshots):
        np.testing.assert_allclose(got, np.mean(seen, 0), rtol=1e-5, atol=1e-6)
    for got, expected in zip(_params(ema), ema_expected):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert int(swa.n_averaged.item()) == 4
    # without use_buffers the buffers follow the model; with it they are averaged too
    np.testing.assert_array_equal(swa.module[1].running_mean.numpy(), model[1].running_mean.numpy())
    assert int(ema_buffers.module[1].num_batches_tracked.item()) != int(model[1].num_batches_tracked.item())
    x = mf.tensor(rng.standard_normal((2, 3)), dtype=mf.float32)
    swa.eval()
    np.testing.assert_array_equal(swa(x).detach().numpy(), swa.module(x).detach().numpy())
    with pytest.raises(ValueError, match="Only one of"):
        swa_utils.AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(), multi_avg_fn=swa_utils.get_ema_multi_avg_fn())


def swalr_reference(lr, swa_lr, anneal_epochs, anneal, steps):
    """torch's closed form: alpha = anneal(min(1, step / anneal_epochs)), rate from lr to swa_lr."""
    f = (lambda t: (1 - math.cos(math.pi * t)) / 2) if anneal == "cos" else (lambda t: t)
    return [swa_lr * f(min(1, s / max(1, anneal_epochs))) + lr * (1 - f(min(1, s / max(1, anneal_epochs))))
            for s in range(1, steps + 1)]


@pytest.mark.parametrize("anneal", ["cos", "linear"])
def test_swalr(anneal):
    opt = SGD(nn.Linear(2, 2).parameters(), lr=0.5)
    scheduler = swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy=anneal)
    rates = []
    for _ in range(6):
        opt.step()
        scheduler.step()
        rates.append(opt.param_groups[0]["lr"])
    np.testing.assert_allclose(rates, swalr_reference(0.5, 0.05, 3, anneal, 6), rtol=1e-12)
    with pytest.raises(ValueError, match="anneal_strategy"):
        swa_utils.SWALR(opt, 0.1, anneal_strategy="step")
    with pytest.raises(ValueError, match="anneal_epochs"):
        swa_utils.SWALR(opt, 0.1, anneal_epochs=-1)


def test_update_bn_takes_the_plain_average_of_the_loaders_statistics():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.3))
    batches = [rng.standard_normal((8, 3)).astype(np.float32) for _ in range(3)]
    loader = [(mf.tensor(b), 0) for b in batches]
    model.eval()
    swa_utils.update_bn(loader, model)
    assert not model.training and model[1].momentum == 0.3
    with mf.no_grad():
        features = [model[0](mf.tensor(b)).numpy().astype(np.float64) for b in batches]
    np.testing.assert_allclose(model[1].running_mean.numpy(), np.mean([f.mean(0) for f in features], 0), rtol=1e-5)
    np.testing.assert_allclose(model[1].running_var.numpy(), np.mean([f.var(0, ddof=1) for f in features], 0),
                               rtol=1e-5)
    assert int(model[1].num_batches_tracked.item()) == 3
    swa_utils.update_bn(loader, nn.Linear(3, 2))  # no batch norm: nothing to do
