"""Whole programs as PyTorch users write them (issue 37, twelfth programs round, written blind
from memory): Hugging Face-style BERT MLM and a T5 encoder-decoder, beam search, top-k/top-p
filtering, a KV cache, TCN and Transformer forecasting, tabular embeddings, a U-Net with
dice loss, metric learning, LBFGS with strong Wolfe, every optimizer and scheduler resumed
from state_dicts, parametrizations, pruning, torch.func, scatter_reduce and friends, products,
unfold/fold, grid_sample, interpolate, masks, in-place writes on views, uint8 images, half and
autocast, custom Functions, hooks, state_dict protocols, printing, packed sequences, SDPA,
SimCLR/MoCo, WaveNet, MoE, Llama with RoPE, CTC and k-NN, SWA, DataLoader, checkpoint loops,
convolutions, norms, RNNs, losses, tensor idioms, dtype promotion, double backward,
embeddings, distributions, init, weight norm, error types, activation checkpointing, NumPy
and ViT. Each program in port_programs12/ is torch's spelling, run unchanged but for its
imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's. The focused tests below pin each class of defect the round found."""
import collections
import json
import os
import sys
import types

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from test_port_programs9 import _as_meshflow, _data, _det, _differs, _ints, _plain

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs12")
EXPECTED = json.load(open(os.path.join(HERE, "expected.json")))
PROGRAMS = sorted(os.path.basename(p)[:-3] for p in os.listdir(HERE) if p.startswith("q") and p.endswith(".py"))


@pytest.fixture
def restore_settings():
    yield
    mf.set_default_dtype(mf.float32)
    mf.set_printoptions(profile="default")
    mf.set_grad_enabled(True)


def test_every_program_has_torch_s_values():
    assert PROGRAMS and sorted(EXPECTED) == PROGRAMS


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_agrees_with_torch(name, restore_settings, tmp_path, monkeypatch):
    source = open(os.path.join(HERE, name + ".py")).read()
    tol = float(m.group(1)) if (m := __import__("re").search(r"# TOL (\S+)", source)) else 1e-4
    reported = {}
    program = types.ModuleType(f"port_program_{name}")
    program.__dict__.update(det=_det, data=_data, ints=_ints, report=lambda **values: reported.update(_plain(values)))
    monkeypatch.setitem(sys.modules, program.__name__, program)
    monkeypatch.chdir(tmp_path)
    exec(compile(_as_meshflow(source), os.path.join(HERE, name + ".py"), "exec"), program.__dict__)
    difference = _differs(reported, EXPECTED[name], tol)
    assert difference is None, f"{name}: {difference}"


class _Renamed(nn.Module):
    """An old checkpoint's `fc` is this module's `proj`, as library code converts it."""

    _version = 2

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 2)
        self.versions = []

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        self.versions.append(local_metadata.get("version"))
        for name in ("weight", "bias"):
            if prefix + "fc." + name in state_dict:
                state_dict[prefix + "proj." + name] = state_dict.pop(prefix + "fc." + name)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)


def test_load_from_state_dict_overrides_convert_old_keys_at_any_depth():
    model = nn.Sequential(_Renamed())
    old = {"0.fc.weight": mf.ones(2, 2), "0.fc.bias": mf.tensor([1.0, 2.0])}
    model.load_state_dict(old)  # strict: the override's renaming leaves nothing missing
    assert model[0].proj.bias.tolist() == [1.0, 2.0] and list(old) == ["0.fc.weight", "0.fc.bias"]
    saved = model.state_dict()
    assert saved._metadata["0"] == {"version": 2} and saved._metadata[""] == {"version": 1}
    model.load_state_dict(saved)
    assert model[0].versions == [None, 2]  # the version each checkpoint was saved with


class _Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
        self.count = 0

    def get_extra_state(self):
        return {"count": self.count}

    def set_extra_state(self, state):
        self.count = state["count"]


def test_extra_state_and_state_dict_hooks_as_torch_s():
    a = _Counter()
    a.count = 7
    seen = []
    a.register_state_dict_pre_hook(lambda m, prefix, keep_vars: seen.append(prefix))
    a.register_state_dict_post_hook(lambda m, sd, prefix, meta: sd.__setitem__(prefix + "note", mf.tensor(1.0)))
    sd = a.state_dict()
    assert list(sd) == ["_extra_state", "lin.weight", "lin.bias", "note"] and sd["_extra_state"] == {"count": 7}
    assert seen == [""]
    b = _Counter()
    with pytest.raises(RuntimeError, match="Missing key"):
        b.load_state_dict({k: v for k, v in sd.items() if k in ("lin.weight", "lin.bias")})
    del sd["note"]
    b.load_state_dict(sd)
    assert b.count == 7
    c = nn.Linear(1, 1)
    c._register_state_dict_hook(lambda m, sd, prefix, meta: collections.OrderedDict(w=sd[prefix + "weight"]))
    assert list(c.state_dict()) == ["w"]


def test_load_hooks_edit_the_state_and_the_verdict():
    model = nn.Sequential(nn.Linear(2, 2))
    model[0].register_load_state_dict_pre_hook(
        lambda m, sd, prefix, *rest: sd.__setitem__(prefix + "bias", mf.zeros(2)))
    calls = []

    def forgive(module, keys):
        calls.append(type(module).__name__)
        keys.unexpected_keys.clear()

    model.register_load_state_dict_post_hook(forgive)
    result = model.load_state_dict({"0.weight": mf.eye(2), "extra": mf.ones(1)})  # strict
    assert calls == ["Sequential"] and result.missing_keys == [] and result.unexpected_keys == []
    assert model[0].bias.tolist() == [0.0, 0.0] and model[0].weight.tolist() == [[1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "float16"])
def test_nearest_resizing_takes_images_and_label_maps_of_any_numeric_dtype(dtype):
    # torch resizes uint8 images with mode='nearest'; it is a gather, so labels resize too
    labels = np.array([[[[0, 255], [7, 3]]]]).astype(dtype)
    x = mf.from_numpy(labels)
    y = mf.nn.functional.interpolate(x, size=(3, 4))
    want = labels[:, :, [0, 0, 1]][:, :, :, [0, 0, 1, 1]]  # floor(o * in / out)
    assert y.dtype == x.dtype and np.array_equal(y.numpy(), want)
    assert np.array_equal(nn.Upsample(scale_factor=2)(x).numpy(), labels.repeat(2, 2).repeat(2, 3))
