"""Python's modules against C++'s (item 7 of issue 23): the same model built from each, with
the same seed, must give the same parameter names, initial values, forward pass, gradients
and values after an AdamW step: an MLP, and a small CNN (with BatchNorm2d's running
statistics), each on the CPU in float32 and made on the test device in float64 (torch's
factory kwargs device= and dtype=; nn::Factory in C++). The C++ half is build/module_mirror
(tests/cpp/module_mirror.cc)."""
import json
import os
import subprocess

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

MIRROR = os.path.join(os.path.dirname(os.path.dirname(mf.__file__)), "..", "module_mirror")


def run(model, x, y, extra=None):
    init = {name: p.numpy().ravel().tolist() for name, p in model.named_parameters()}
    out = model(x)
    where = {name: f"{t.device.type} {t.dtype.name}" for name, t in [*model.named_parameters(), ("output", out)]}
    loss = F.cross_entropy(out, y)
    loss.backward()
    grads = {name: p.grad.numpy().ravel().tolist() for name, p in model.named_parameters()}
    opt = mf.optim.AdamW(model.parameters(), lr=0.05, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1)
    opt.step()
    stepped = {name: p.numpy().ravel().tolist() for name, p in model.named_parameters()}
    return {"init": init, "forward": out.numpy().ravel().tolist(), "loss": [loss.item()], "grads": grads,
            "stepped": stepped, "where": where, **(extra() if extra else {})}


def python_half(device="cpu", dtype=mf.float32):
    """The C++ half's models, made on `device` in `dtype` (torch's factory kwargs)."""
    made = {"device": device, "dtype": dtype}
    mf.manual_seed(7)
    model = nn.Sequential(nn.LayerNorm(8, **made), nn.Linear(8, 16, **made), nn.GELU(), nn.Linear(16, 4, **made))
    i = np.arange(48)
    x = mf.tensor(((i * 7 % 13) - 6).astype(np.float32).reshape(6, 8) / 4).to(device, dtype)
    y = mf.tensor(np.arange(6) % 4).to(device)
    mlp = run(model, x, y)

    mf.manual_seed(8)
    bn = nn.BatchNorm2d(4, **made)
    cnn = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, **made), bn, nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(4, 6, 2, stride=2, groups=2, bias=False, **made), nn.AvgPool2d(1),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3, **made))
    i = np.arange(4 * 2 * 8 * 8)
    images = mf.tensor(((i * 11 % 17) - 8).astype(np.float32).reshape(4, 2, 8, 8) / 4).to(device, dtype)
    labels = mf.tensor(np.arange(4) % 3).to(device)
    conv = run(cnn, images, labels, lambda: {name: getattr(bn, name).numpy().ravel().tolist() for name in
                                             ("running_mean", "running_var", "num_batches_tracked")})
    return {"mlp": mlp, "cnn": conv}


@pytest.mark.skipif(not os.path.exists(MIRROR), reason="build/module_mirror is not built")
@pytest.mark.parametrize("made", ["", "_testdev_float64"])
@pytest.mark.parametrize("model", ["mlp", "cnn"])
def test_python_modules_equal_the_cpp_ones(model, made):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cpp = json.loads(subprocess.run([MIRROR], capture_output=True, text=True, check=True, timeout=120,
                                    env=env).stdout)[model + made]
    py = (python_half("testdev", mf.float64) if made else python_half())[model]
    for part in ("init", "grads", "stepped"):
        assert list(py[part]) == list(cpp[part]), f"{part}: parameter names or order differ"
        for name in py[part]:
            np.testing.assert_allclose(py[part][name], cpp[part][name], rtol=1e-6, atol=1e-7,
                                       err_msg=f"{part} {name}")
    assert py["where"] == cpp["where"]
    assert set(py["where"].values()) == {"testdev float64" if made else "cpu float32"}
    np.testing.assert_allclose(py["forward"], cpp["forward"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(py["loss"], cpp["loss"], rtol=1e-6)
    for buffer in ("running_mean", "running_var", "num_batches_tracked"):
        if buffer in py:
            np.testing.assert_allclose(py[buffer], cpp[buffer], rtol=1e-6, atol=1e-7, err_msg=buffer)
