"""docs/api.md is what scripts/api-reference writes now, and names every public name and op;
_C.op_signatures, which the page's SBP notes come from."""
import importlib.machinery
import os
import re
import subprocess
import sys
import types

import pytest

import meshflow as mf
from meshflow import _C

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "api.md")


def load_script():
    loader = importlib.machinery.SourceFileLoader("api_reference", os.path.join(ROOT, "scripts", "api-reference"))
    script = types.ModuleType(loader.name)
    loader.exec_module(script)
    return script


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("api") / "api.md"
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "api-reference"), "--output", str(out)],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="123"))
    assert run.returncode == 0, run.stderr
    return out.read_text()


def section(text, qualname):
    """The text of the page's section for namespace `qualname` ("mf.nn")."""
    m = re.search(r"^## `" + re.escape(qualname) + r"`\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, f"docs/api.md has no section for {qualname}"
    return m.group(1)


def listed(text, name):
    return re.search(r"^ *- `" + re.escape(name) + r"[(`]", text, re.M) or f"`{name}` (`" in text


def test_page_is_current(generated):
    with open(PAGE) as f:
        committed = f.read()
    assert committed == generated, (
        "docs/api.md is out of date: run `PYTHONPATH=build/python /usr/bin/python3 scripts/api-reference` "
        "and commit the result")


NAMESPACES = {"mf": mf, "mf.sbp": mf.sbp, "mf.env": mf.env, "mf.nn": mf.nn, "mf.nn.functional": mf.nn.functional,
              "mf.nn.init": mf.nn.init, "mf.nn.utils": mf.nn.utils, "mf.optim": mf.optim,
              "mf.optim.lr_scheduler": mf.optim.lr_scheduler, "mf.autograd": mf.autograd, "mf.linalg": mf.linalg,
              "mf.utils.data": mf.utils.data, "mf.cuda": mf.cuda}


@pytest.mark.parametrize("qualname", sorted(NAMESPACES))
def test_every_public_name_is_listed(generated, qualname):
    module = NAMESPACES[qualname]
    text = section(generated, qualname)
    names = set(getattr(module, "__all__", []))
    # Without __all__ (and beside it): whatever the namespace defines itself.
    for n in dir(module):
        obj = getattr(module, n)
        where = getattr(obj, "__module__", "") if isinstance(obj, (type, types.FunctionType)) else ""
        if not n.startswith("_") and isinstance(where, str) and where.startswith(module.__name__):
            names.add(n)
    names = {n for n in names if not isinstance(getattr(module, n, None), types.ModuleType)}
    assert names
    missing = sorted(n for n in names if not listed(text, n))
    assert not missing, f"{qualname}: not in docs/api.md: {missing}"


def test_tensor_members_and_every_op_are_listed(generated):
    text = section(generated, "mf.Tensor")
    for n in ("shape", "sbp", "placement", "backward", "to_global", "sum", "matmul"):
        assert listed(text, n), n
    ops = generated.split("## C++ ops and their SBP signatures", 1)[1]
    for name in _C.op_names():
        assert f'<a id="op-{name}"></a>`{name}`' in ops, name
    # The same-name mapping links a function to its op.
    assert re.search(r"^- `add\(.*\(op \[`add`\]\(#op-add\)\)$", section(generated, "mf"), re.M)


def test_representative_inputs_fit_their_ops():
    # An op the script's table names must accept its entry: a renamed attribute or a changed
    # input would otherwise turn its row into "signatures depend on attributes" unnoticed.
    script = load_script()
    ops = set(_C.op_names())
    for name, (inputs, attrs) in sorted(script.REPRESENTATIVE.items()):
        if name in ops:
            _C.op_signatures(name, inputs, attrs)  # raises where the entry no longer fits


def test_op_signatures():
    started_before = _C.initialized()  # other tests of this process may have started MPI
    assert _C.op_signatures("add", [([4, 6], "float32"), ([4, 6], "float32")]) == [
        "S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)", "P, P -> P", "P(max), B -> P(max)", "P(min), B -> P(min)",
        "B, P(max) -> P(max)", "B, P(min) -> P(min)"]
    matmul = _C.op_signatures("matmul", [([4, 6], "float32"), ([6, 8], "float32")])
    for s in ("S(0), B -> S(0)", "B, S(1) -> S(1)", "S(1), S(0) -> P"):
        assert s in matmul
    assert all("B, B -> B" != s for s in matmul)
    # A split needs the dim: a 1-d input has no S(1).
    assert _C.op_signatures("relu", [([5], "float32")]) == ["S(0) -> S(0)", "P(max) -> P(max)", "P(min) -> P(min)"]
    assert _C.op_signatures("sum", [([4, 6], "float32")], {"dims": [1], "keepdim": False}) == [
        "S(0) -> S(0)", "S(1) -> P", "P -> P"]
    with pytest.raises(ValueError, match=r"\[matmul\] inner dims differ"):
        _C.op_signatures("matmul", [([4, 6], "float32"), ([4, 6], "float32")])
    with pytest.raises(ValueError, match="missing attribute 'dim'"):
        _C.op_signatures("cat", [([4, 6], "float32")] * 2)
    with pytest.raises(ValueError, match="unknown op"):
        _C.op_signatures("no_such_op", [])
    with pytest.raises(ValueError):
        _C.op_signatures("relu", [([4], "float7")])
    with pytest.raises(ValueError, match="expected at least 1"):
        _C.op_signatures("relu", [([4], "float32")], {}, 0)
    assert _C.initialized() == started_before, "listing signatures must not start MPI"


def test_odd_objects_do_not_break_the_page(monkeypatch):
    class Odd:
        def __getattr__(self, name):
            raise RuntimeError("no attributes")

        def __repr__(self):
            raise RuntimeError("no repr")

    sentinel = object()

    def with_sentinel(x=sentinel):
        """Has a default whose repr holds its address."""

    monkeypatch.setattr(mf.linalg, "odd_thing", Odd(), raising=False)
    monkeypatch.setattr(mf.linalg, "with_sentinel", with_sentinel, raising=False)
    monkeypatch.setattr(mf.linalg, "__all__", mf.linalg.__all__ + ["odd_thing", "with_sentinel", "missing_name"])
    text = section(load_script().Reference().page(), "mf.linalg")
    assert "- `odd_thing`: `<Odd>`" in text
    assert "- `with_sentinel(x=<object object>)`: Has a default whose repr holds its address." in text
    assert "- `missing_name`" in text
    assert "0x" not in text
