"""torch.amp's spellings (meshflow.amp, meshflow.cpu.amp, meshflow.cuda.amp): autocast, and
GradScaler's loss scaling, unscaling, skipped steps and scale schedule, as torch's."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def model_and_data(seed=0):
    mf.manual_seed(seed)
    model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3))
    x = mf.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6))
    y = mf.tensor([0, 1, 2, 1])
    return model, x, y


def params(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def test_autocast_spellings_run_matmuls_in_bfloat16():
    from meshflow.cpu.amp import autocast as cpu_autocast
    x = mf.tensor(np.full((2, 3), 1 + 2.0**-10, dtype=np.float32))  # not a bfloat16: rounds to 1
    w = mf.ones(3, 2)
    for ctx in (mf.amp.autocast("cpu", dtype=mf.bfloat16), cpu_autocast(), mf.autocast("cpu", cache_enabled=True)):
        with ctx:
            y = x @ w
            assert y.dtype == mf.bfloat16
            np.testing.assert_array_equal(y.numpy(), np.full((2, 2), 3.0, dtype=np.float32))
    np.testing.assert_array_equal((x @ w).numpy(), np.full((2, 2), 3 * (1 + 2.0**-10), dtype=np.float32))
    assert mf.cuda.amp.autocast is not None and mf.cpu.amp.GradScaler().get_scale() == 2.0**16
    with mf.amp.autocast("cpu", dtype=mf.float16):
        assert (x @ w).dtype == mf.float16
    with pytest.raises(ValueError, match="float64"):
        mf.amp.autocast("cpu", dtype=mf.float64)


def test_scaled_steps_equal_plain_steps():
    # A power-of-two scale is exact: scaling the loss and unscaling the gradients changes no bit.
    model, x, y = model_and_data()
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(3):
        F.cross_entropy(model(x), y).backward()
        opt.step()
        opt.zero_grad()
    plain = params(model)

    model, x, y = model_and_data()
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = mf.amp.GradScaler(init_scale=1024.0, growth_interval=2)
    for _ in range(3):
        scaler.scale(F.cross_entropy(model(x), y)).backward()
        scaler.unscale_(opt)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
    for a, b in zip(params(model), plain):
        np.testing.assert_array_equal(a, b)
    assert scaler.get_scale() == 2048.0  # grown once, after growth_interval = 2 clean steps
    assert scaler.state_dict() == {"scale": 2048.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                                   "growth_interval": 2, "_growth_tracker": 1}


def test_a_step_with_an_inf_gradient_is_skipped_and_the_scale_backs_off():
    model, x, y = model_and_data()
    opt = mf.optim.Adam(model.parameters(), lr=0.1)
    before = params(model)
    scaler = mf.amp.GradScaler(init_scale=2.0**100)  # the scaled loss overflows float32's gradients
    scaler.scale(F.cross_entropy(model(x), y) * 1e30).backward()
    assert scaler.step(opt) is None
    scaler.update()
    for a, b in zip(params(model), before):
        np.testing.assert_array_equal(a, b)
    assert scaler.get_scale() == 2.0**99
    opt.zero_grad()
    with pytest.raises(AssertionError, match="No inf checks"):
        scaler.update()
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.scale(F.cross_entropy(model(x), y)).backward()
        scaler.unscale_(opt)
        scaler.unscale_(opt)


def test_a_disabled_scaler_passes_everything_through():
    model, x, y = model_and_data()
    opt = mf.optim.SGD(model.parameters(), lr=0.1)
    scaler = mf.amp.GradScaler(enabled=False)
    loss = F.cross_entropy(model(x), y)
    assert scaler.scale(loss) is loss
    loss.backward()
    scaler.step(opt)
    scaler.update()
    assert not scaler.is_enabled() and scaler.get_scale() == 1.0 and scaler.state_dict() == {}
    restored = mf.amp.GradScaler()
    restored.load_state_dict({"scale": 8.0, "growth_factor": 3.0, "backoff_factor": 0.25, "growth_interval": 5,
                              "_growth_tracker": 4})
    assert restored.get_scale() == 8.0 and restored.get_growth_factor() == 3.0
