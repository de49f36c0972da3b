"""Python's modules against C++'s (item 7 of issue 23): the same model built from each, with
the same seed, must give the same parameter names, initial values, forward pass, gradients
and values after an AdamW step. The C++ half is build/module_mirror (tests/cpp/module_mirror.cc)."""
import json
import os
import subprocess

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

MIRROR = os.path.join(os.path.dirname(os.path.dirname(mf.__file__)), "..", "module_mirror")


def python_half():
    mf.manual_seed(7)
    model = nn.Sequential(nn.LayerNorm(8), nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
    init = {name: p.numpy().ravel().tolist() for name, p in model.named_parameters()}
    i = np.arange(48)
    x = mf.tensor(((i * 7 % 13) - 6).astype(np.float32).reshape(6, 8) / 4)
    y = mf.tensor(np.arange(6) % 4)
    out = model(x)
    loss = F.cross_entropy(out, y)
    loss.backward()
    grads = {name: p.grad.numpy().ravel().tolist() for name, p in model.named_parameters()}
    opt = mf.optim.AdamW(model.parameters(), lr=0.05, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1)
    opt.step()
    stepped = {name: p.numpy().ravel().tolist() for name, p in model.named_parameters()}
    return {"init": init, "forward": out.numpy().ravel().tolist(), "loss": [loss.item()], "grads": grads,
            "stepped": stepped}


@pytest.mark.skipif(not os.path.exists(MIRROR), reason="build/module_mirror is not built")
def test_python_modules_equal_the_cpp_ones():
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cpp = json.loads(subprocess.run([MIRROR], capture_output=True, text=True, check=True, timeout=120,
                                    env=env).stdout)
    py = python_half()
    for part in ("init", "grads", "stepped"):
        assert list(py[part]) == list(cpp[part]), f"{part}: parameter names or order differ"
        for name in py[part]:
            np.testing.assert_allclose(py[part][name], cpp[part][name], rtol=1e-6, atol=1e-7,
                                       err_msg=f"{part} {name}")
    np.testing.assert_allclose(py["forward"], cpp["forward"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(py["loss"], cpp["loss"], rtol=1e-6)
