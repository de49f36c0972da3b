"""Whole programs as PyTorch users write them (issue 37, ninth programs round): a ResNet, VGG,
U-Net, DCGAN, VAE, seq2seq with attention, char-RNN, BERT and GPT-2 blocks with generation,
tabular and MNIST loops, schedulers, AMP, metrics, masking, the functional zoo, tensor idioms,
hooks, checkpoints, legacy constructors and grad_fn names. Each program in port_programs9/ is
torch's spelling, run unchanged but for its imports (`import torch` -> `import meshflow as
torch`), and reports its values; each must agree with what PyTorch printed for it (stored in
expected.json: torch's values, to 7 significant digits), to the program's tolerance (`# TOL`).
Weights and data come from NumPy (helpers below), so both frameworks start alike; where a
program draws from torch's generator it reports only what does not depend on the draws.
Printed module names differ by the package's name alone ("meshflow.float32")."""
import glob
import json
import math
import os
import re
import sys
import types

import numpy as np
import pytest

import meshflow

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs9")
EXPECTED = json.load(open(os.path.join(HERE, "expected.json")))


def _det(model, seed=0, scale=0.2):
    """The program's weights from NumPy: normal * scale (1 + that for 1-d weights)."""
    rs = np.random.RandomState(seed)
    with meshflow.no_grad():
        for n, p in model.named_parameters():
            a = rs.standard_normal(tuple(p.shape)) * scale
            if p.dim() == 1 and n.endswith("weight"):
                a = a + 1.0
            p.copy_(meshflow.from_numpy(a.astype(np.float32)))
    return model


def _data(*shape, seed=1, scale=1.0):
    return meshflow.from_numpy((np.random.RandomState(seed).standard_normal(shape) * scale).astype(np.float32))


def _ints(high, *shape, seed=2):
    return meshflow.from_numpy(np.random.RandomState(seed).randint(0, high, size=shape).astype(np.int64))


def _plain(v):
    """A reported value as JSON's types (tensors as values, dtype and shape), as for torch's."""
    if isinstance(v, meshflow.Tensor):
        v = v.detach().cpu()
        if v.dtype in (meshflow.bfloat16, meshflow.float16):
            v = v.float()
        return {"__t": v.numpy().tolist(), "dtype": str(v.dtype).split(".")[-1], "shape": list(v.shape)}
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if type(v).__name__ in ("dtype", "device", "Size"):
        return str(v).replace("meshflow", "torch")
    return v


_NUMBER = re.compile(r"(-?\d+\.\d+)")


def _differs(got, want, tol, path="result"):
    """Where `got` differs from torch's `want` (None where they agree)."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"{path}: keys {sorted(got) if isinstance(got, dict) else got!r} vs {sorted(want)}"
        return next((d for k in want if (d := _differs(got[k], want[k], tol, f"{path}.{k}"))), None)
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"{path}: {got!r} vs {want!r}"
        return next((d for i, (g, w) in enumerate(zip(got, want)) if (d := _differs(g, w, tol, f"{path}[{i}]"))), None)
    if isinstance(want, str) and isinstance(got, str):
        # numbers inside printed text to the tolerance; the package's name is its own
        g, w = _NUMBER.split(got.replace("meshflow.", "torch.")), _NUMBER.split(want)
        same = len(g) == len(w) and all(a == b or (i % 2 and abs(float(a) - float(b)) <= tol * (1 + abs(float(b))))
                                        for i, (a, b) in enumerate(zip(g, w)))
        return None if same else f"{path}: {got!r} vs {want!r}"
    if isinstance(want, bool) or want is None or isinstance(got, bool):
        return None if got == want else f"{path}: {got!r} vs {want!r}"
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        if isinstance(want, float) and math.isnan(want):
            return None if isinstance(got, float) and math.isnan(got) else f"{path}: {got!r} vs nan"
        return None if got == want or abs(got - want) <= tol * (1 + abs(want)) else f"{path}: {got!r} vs {want!r}"
    return f"{path}: {got!r} vs {want!r}"


def _as_meshflow(source):
    """The program with torch's imports made meshflow's, as a port changes them."""
    source = re.sub(r"^(\s*)import torch\s*$", r"\1import meshflow as torch", source, flags=re.M)
    source = re.sub(r"^(\s*)import torch\.(\S+) as (\w+)", r"\1import meshflow.\2 as \3", source, flags=re.M)
    # `import torch.utils.checkpoint` (Hugging Face's): the submodule loads; `torch` names meshflow already
    source = re.sub(r"^(\s*)import torch\.([\w.]+)\s*$", r"\1import meshflow.\2", source, flags=re.M)
    return re.sub(r"^(\s*)from torch(\.\S+)? import", r"\1from meshflow\2 import", source, flags=re.M)


PROGRAMS = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, "p*.py")))


@pytest.fixture
def restore_settings():
    yield
    meshflow.set_default_dtype(meshflow.float32)
    meshflow.set_printoptions(profile="default")
    meshflow.set_grad_enabled(True)


def test_every_program_has_torch_s_values():
    assert PROGRAMS and sorted(EXPECTED) == PROGRAMS


def check_program(folder, expected, name, monkeypatch):
    """Runs folder/name.py as meshflow's (in the current directory) and asserts that what it
    reports agrees with torch's `expected` values, to its `# TOL` (1e-4 by default)."""
    source = open(os.path.join(folder, name + ".py")).read()
    tol = float(m.group(1)) if (m := re.search(r"# TOL (\S+)", source)) else 1e-4
    reported = {}
    # a module of its own, so that what it defines pickles (torch.save(model)) as a script's
    program = types.ModuleType(f"port_program_{name}")
    program.__dict__.update(det=_det, data=_data, ints=_ints, report=lambda **values: reported.update(_plain(values)))
    monkeypatch.setitem(sys.modules, program.__name__, program)
    exec(compile(_as_meshflow(source), os.path.join(folder, name + ".py"), "exec"), program.__dict__)
    difference = _differs(reported, expected[name], tol)
    assert difference is None, f"{name}: {difference}"


def program_tests(folder, prefix):
    """A later round's two tests of its folder of programs (those named prefix*.py), as this
    round's: every program has torch's values, and each agrees with them."""
    expected = json.load(open(os.path.join(folder, "expected.json")))
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(folder, prefix + "*.py")))

    def test_every_program_has_torch_s_values():
        assert names and sorted(expected) == names

    @pytest.mark.parametrize("name", names)
    def test_program_agrees_with_torch(name, restore_settings, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        check_program(folder, expected, name, monkeypatch)
    return test_every_program_has_torch_s_values, test_program_agrees_with_torch


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_agrees_with_torch(name, restore_settings, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check_program(HERE, EXPECTED, name, monkeypatch)


def test_legacy_new_takes_sizes_or_data_in_the_tensor_s_dtype():
    x = meshflow.ones(2, dtype=meshflow.float64)
    assert x.new(2, 3).shape == (2, 3) and x.new(meshflow.Size([4])).shape == (4,) and x.new().shape == (0,)
    for made in (x.new([2, 3]), x.new((2, 3))):  # a sequence is data, as torch's
        assert made.dtype == meshflow.float64 and made.tolist() == [2.0, 3.0]
    assert x.new(2, 3).dtype == meshflow.float64 and x.new(np.int64(3)).shape == (3,)
    with pytest.raises(TypeError):
        x.new(meshflow.ones(2))  # float32 data for a float64 tensor: torch refuses it too


def test_legacy_types_construct_and_are_the_classes_of_cpu_tensors():
    kinds = {meshflow.ByteTensor: meshflow.uint8, meshflow.CharTensor: meshflow.int8, meshflow.ShortTensor: meshflow.int16,
             meshflow.HalfTensor: meshflow.float16, meshflow.FloatTensor: meshflow.float32, meshflow.LongTensor: meshflow.int64}
    for kind, dtype in kinds.items():
        assert kind([1, 2]).dtype == dtype and kind(2, 3).shape == (2, 3)
        assert isinstance(kind([1]), kind) and not isinstance(meshflow.zeros(1, dtype=meshflow.float64), kind)
    assert meshflow.ones(2).type(meshflow.ByteTensor).dtype == meshflow.uint8


def test_dropout_without_effect_returns_its_input():
    x = meshflow.ones(3, requires_grad=True) * 2
    assert meshflow.nn.functional.dropout(x, 0.5, training=False) is x
    assert meshflow.nn.functional.dropout(x, 0.0) is x
    assert meshflow.nn.Dropout(0.3).eval()(x) is x
