"""Real programs (issue 37): PyTorch's own examples repository (github.com/pytorch/examples, BSD),
each program in examples_programs/ a runnable copy that keeps the program's own code (models,
training and evaluation loops, optimizers, schedulers, clipping, checkpoints, argparse) and
changes only what cannot run here: datasets -> small seeded NumPy tensors, torchvision
transforms -> tensor code, sizes and epochs -> small, weights -> NumPy's after construction (det:
random draws differ from torch's by design, docs/porting.md), dropout -> p=0, argv -> none.
Each runs unchanged but for its imports (`import torch` -> `import meshflow as torch`, as
test_port_programs9's) and must print what PyTorch 2 printed (every line, its numbers to the
program's `# TOL`, 1e-4 by default) and report the same values (expected.json). A program
with `# ARGV NAME: arguments` lines runs once per line, with those command-line arguments
(word_language_model's LSTM, GRU and Transformer), each run its own entry ("program[NAME]").

`python3 test_examples_programs.py --torch [NAME...]` regenerates expected.json under torch
(/root/tv); `python3 test_examples_programs.py --compare [NAME...]` runs the programs under
meshflow and lists those that differ (test_examples_programs2.py: the same for the f*.py programs)."""
import contextlib
import glob
import io
import json
import os
import re
import shlex
import sys
import types

import numpy as np
import pytest

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples_programs")
EXPECTED_PATH = os.path.join(HERE, "expected.json")


def _runs(name):
    """(entry, argv) of each run of examples_programs/name.py: one per `# ARGV NAME: ...` line,
    or one with no arguments."""
    lines = re.findall(r"^# ARGV (\w+): (.*)$", open(os.path.join(HERE, name + ".py")).read(), flags=re.M)
    return [(f"{name}[{tag}]", shlex.split(argv)) for tag, argv in lines] or [(name, [])]


def runs_of(prefix):
    """entry -> argv of every run of the programs examples_programs/prefix*.py."""
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, prefix + "*.py")))
    return dict(run for name in names for run in _runs(name))


RUNS = runs_of("e")


def helpers(torch, reported):
    """The names a program finds defined: det, data, ints (NumPy's values as `torch`'s tensors),
    report (values to compare, as test_port_programs9's) and einops' rearrange, repeat, reduce, Rearrange."""
    from test_port_programs9 import _plain

    def det(model, seed=0, scale=0.2):
        rs = np.random.RandomState(seed)
        with torch.no_grad():
            for n, p in model.named_parameters():
                a = rs.standard_normal(tuple(p.shape)) * scale
                if p.dim() == 1 and n.endswith("weight"):
                    a = a + 1.0
                p.copy_(torch.from_numpy(a.astype(np.float32)))
        return model

    def data(*shape, seed=1, scale=1.0):
        return torch.from_numpy((np.random.RandomState(seed).standard_normal(shape) * scale).astype(np.float32))

    def ints(high, *shape, seed=2):
        return torch.from_numpy(np.random.RandomState(seed).randint(0, high, size=shape).astype(np.int64))

    def report(**values):
        reported.update({k: v if torch.__name__ == "meshflow" else _torch_plain(torch, v) for k, v in values.items()})
    return dict(det=det, data=data, ints=ints, report=report, **_einops(torch))


def _einops(torch):
    """einops' rearrange, repeat, reduce and Rearrange as the tensors' own reshape / permute /
    expand / mean (einops is not installed here; a program's `from einops import ...` line is
    replaced by a note): axes named or 1, groups in parentheses, one `...`."""
    def parse(side):
        axes, group = [], None
        for token in re.findall(r"\.\.\.|\(|\)|\w+", side):
            if token == "(":
                group = []
            elif token == ")":
                axes.append(group)
                group = None
            else:
                (group if group is not None else axes).append([token] if group is None else token)
        return [a if isinstance(a, list) else [a] for a in axes]

    def apply(t, pattern, reduction=None, **sizes):
        left, right = (parse(side) for side in pattern.split("->"))
        sizes = dict(sizes)
        shape = list(t.shape)
        ellipsis = len(shape) - (len(left) - 1) if any(g == ["..."] for g in left) else 0
        flat = []  # the input's elementary axes, in order
        dims = iter(shape)
        for group in left:
            if group == ["..."]:
                for k in range(ellipsis):
                    sizes[f"...{k}"] = next(dims)
                    flat.append(f"...{k}")
                continue
            size = next(dims)
            known = 1
            for a in group:
                known *= sizes.get(a, 1) if a != "1" else 1
            for a in group:
                if a != "1" and a not in sizes:
                    sizes[a] = size // known
            flat += [a for a in group if a != "1"]
        t = t.reshape([sizes[a] for a in flat])

        def expanded(group):
            return [f"...{k}" for k in range(ellipsis)] if group == ["..."] else [a for a in group if a != "1"]
        wanted = [a for group in right for a in expanded(group)]
        gone = [a for a in flat if a not in wanted]
        if gone:
            t = getattr(t, reduction)(dim=[flat.index(a) for a in gone]) if reduction != "max" else \
                t.amax(dim=[flat.index(a) for a in gone])
            flat = [a for a in flat if a not in gone]
        t = t.permute([flat.index(a) for a in wanted if a in flat]) if flat else t
        present = [a for a in wanted if a in flat]
        if len(present) < len(wanted):  # repeat: new axes, broadcast
            t = t.reshape([sizes[a] if a in flat else 1 for a in wanted]).expand([sizes[a] for a in wanted])
        out = []
        for group in right:
            size = 1
            for a in expanded(group):
                size *= sizes[a]
            out.append(size)
        return t.reshape(out)

    def rearrange(t, pattern, **sizes):
        return apply(t, pattern, **sizes)

    def repeat(t, pattern, **sizes):
        return apply(t, pattern.replace("()", "1"), **sizes)

    def reduce(t, pattern, reduction, **sizes):
        return apply(t, pattern, reduction=reduction, **sizes)

    class Rearrange(torch.nn.Module):
        def __init__(self, pattern, **sizes):
            super().__init__()
            self.pattern, self.sizes = pattern, sizes

        def forward(self, x):
            return rearrange(x, self.pattern, **self.sizes)
    return dict(rearrange=rearrange, repeat=repeat, reduce=reduce, Rearrange=Rearrange)


def _torch_plain(torch, v):
    if isinstance(v, torch.Tensor):
        v = v.detach().cpu()
        return {"__t": v.float().numpy().tolist() if v.dtype in (torch.bfloat16, torch.float16) else v.numpy().tolist(),
                "dtype": str(v.dtype).split(".")[-1], "shape": list(v.shape)}
    if isinstance(v, dict):
        return {str(k): _torch_plain(torch, x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_torch_plain(torch, x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if type(v).__name__ in ("dtype", "device", "Size"):
        return str(v)
    return v


def run(entry, torch, source=None):
    """Runs the program of `entry` (examples_programs/name.py, with the entry's arguments) as
    __main__ with `torch` (the program's imports made meshflow's when it is meshflow) in the
    current directory: what it printed (lines, without trailing blanks) and reported."""
    from test_port_programs9 import _as_meshflow, _plain
    path = os.path.join(HERE, entry.split("[")[0] + ".py")
    source = open(path).read() if source is None else source
    if torch.__name__ == "meshflow":
        source = _as_meshflow(source)
    reported = {}
    program = types.ModuleType("__main__")
    program.__dict__.update(helpers(torch, reported), __file__=path)
    saved, argv, environ = sys.modules["__main__"], sys.argv, dict(os.environ)
    sys.modules["__main__"] = program  # what it defines pickles (torch.save(model)) as a script's
    sys.argv = [path] + dict(_runs(entry.split("[")[0]))[entry]
    sys.path.insert(0, HERE)  # stand_ins.py
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(source, path, "exec"), program.__dict__)
    finally:
        sys.modules["__main__"], sys.argv = saved, argv
        sys.path.remove(HERE)
        # torchrun's variables a program sets for itself (minGPT-ddp's RANK) stay its own: a
        # later program reading RANK would take itself for a distributed run.
        os.environ.clear()
        os.environ.update(environ)
    values = {k: (_plain(v) if torch.__name__ == "meshflow" else v) for k, v in reported.items()}
    values["printed"] = [line.rstrip() for line in printed.getvalue().splitlines()]
    return values


@pytest.fixture
def restore_settings():
    import meshflow
    yield
    meshflow.set_default_dtype(meshflow.float32)
    meshflow.set_grad_enabled(True)


def _tolerance(entry):
    source = open(os.path.join(HERE, entry.split("[")[0] + ".py")).read()
    return float(m.group(1)) if (m := re.search(r"# TOL (\S+)", source)) else 1e-4


def program_tests(runs, expected_path):
    """The two tests of a set of runs: every run has torch's values (in expected_path), and each
    agrees with them."""
    def test_every_program_has_torch_s_values():
        assert runs and sorted(json.load(open(expected_path))) == sorted(runs)

    @pytest.mark.parametrize("entry", sorted(runs))
    def test_program_agrees_with_torch(entry, restore_settings, tmp_path, monkeypatch):
        import meshflow
        from test_port_programs9 import _differs
        monkeypatch.chdir(tmp_path)
        difference = _differs(run(entry, meshflow), json.load(open(expected_path))[entry], _tolerance(entry))
        assert difference is None, f"{entry}: {difference}"
    return test_every_program_has_torch_s_values, test_program_agrees_with_torch


test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(RUNS, EXPECTED_PATH)


def test_a_whole_module_loads_by_default_only_with_its_classes_allowed(tmp_path):
    import pickle
    import meshflow as mf

    mf.save(mf.nn.Sequential(mf.nn.Linear(2, 2), mf.nn.ReLU()), tmp_path / "plain.pt")
    with pytest.raises(pickle.UnpicklingError, match="unsupported global .*Sequential.*add_safe_globals"):
        mf.load(tmp_path / "plain.pt")
    with mf.serialization.safe_globals([mf.nn.Sequential, mf.nn.Linear, mf.nn.ReLU]):
        assert isinstance(mf.load(tmp_path / "plain.pt")[0], mf.nn.Linear)
    assert mf.serialization.get_safe_globals() == []  # the context restores the list
    with pytest.raises(pickle.UnpicklingError):
        mf.load(tmp_path / "plain.pt", weights_only=True)
    assert isinstance(mf.load(tmp_path / "plain.pt", weights_only=False), mf.nn.Sequential)
    mf.serialization.add_safe_globals([(mf.nn.Sequential, "torch.nn.modules.container.Sequential"), mf.nn.Linear,
                                       mf.nn.ReLU])  # torch's (object, name) pairs too
    try:
        assert isinstance(mf.load(tmp_path / "plain.pt")[0], mf.nn.Linear)
    finally:
        mf.serialization.clear_safe_globals()


def test_dense_at_sparse_and_spmm_as_torch_s():
    import meshflow as mf
    dense = mf.tensor([[1.0, 2.0], [3.0, 4.0]])
    sparse = mf.tensor([[0.0, 2.0], [1.0, 0.0]]).to_sparse()
    assert (dense @ sparse).tolist() == [[2.0, 2.0], [4.0, 6.0]]
    assert mf.spmm(sparse, dense).tolist() == [[6.0, 8.0], [1.0, 2.0]]
    product = sparse @ sparse  # sparse, as torch's
    assert product.is_sparse and product.to_dense().tolist() == [[2.0, 0.0], [0.0, 2.0]]


def test_accelerator_names_the_build_s_and_share_memory_returns_the_module():
    import meshflow as mf
    built = "cuda" in mf._C.device_types()
    assert mf.accelerator.is_available() == mf.cuda.is_available()
    assert (mf.accelerator.current_accelerator() is not None) == built
    assert mf.accelerator.current_accelerator(check_available=True) is None or mf.cuda.is_available()
    net = mf.nn.Linear(2, 2)
    assert net.share_memory() is net and not mf.ones(1).is_xpu and not mf.ones(1).is_mps


def main(runs, expected_path):
    """The command line: --torch or --compare, then the programs or entries to run (all by default)."""
    import tempfile
    import time
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    only = [entry for entry in runs if entry.split("[")[0] in sys.argv[2:] or entry in sys.argv[2:]] or sorted(runs)
    if sys.argv[1] == "--torch":
        sys.path[:0] = glob.glob("/root/tv/lib/python3*/site-packages")
        import torch
        expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {}
        expected = {entry: v for entry, v in expected.items() if entry in runs}  # programs gone
        for name in only:
            with tempfile.TemporaryDirectory() as d:
                os.chdir(d)
                torch.manual_seed(0)
                expected[name] = json.loads(json.dumps(run(name, torch), default=float))
                print(name, "ok", file=sys.stderr)
        # 7 significant digits, as the earlier rounds' expected.json
        def rounded(v):
            if isinstance(v, float):
                return float(f"{v:.7g}")
            if isinstance(v, dict):
                return {k: rounded(x) for k, x in v.items()}
            return [rounded(x) for x in v] if isinstance(v, list) else v
        text = json.dumps(rounded(expected), indent=0, sort_keys=True)
        open(expected_path, "w").write(text + "\n")
    else:
        import traceback
        import meshflow
        from test_port_programs9 import _differs
        expected = json.load(open(expected_path))
        failed = []
        for name in only:
            start = time.time()
            with tempfile.TemporaryDirectory() as d:
                os.chdir(d)
                try:
                    difference = _differs(run(name, meshflow), expected[name], _tolerance(name))
                except Exception:
                    difference = traceback.format_exc(limit=-3)
            print(name, f"ok ({time.time() - start:.1f}s)" if difference is None else "FAIL " + difference[:1500])
            failed += [name] if difference else []
        print(f"{len(only) - len(failed)}/{len(only)} agree")


if __name__ == "__main__":
    main(RUNS, EXPECTED_PATH)
