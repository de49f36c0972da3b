"""F.embedding_bag of local tensors (the op embedding_bag, offsets read on the device) against
torch 2's: values and gradients (weight's and per_sample_weights') for every mode, 1-d input
with offsets (include_last_offset or not) and 2-d input, padding_idx, per-sample weights,
empty bags and bags of padding only, ties under max; and the kernel's errors for bad offsets
and indices."""
import glob
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

TORCH_SITE = sorted(glob.glob("/root/tv/lib/python3*/site-packages"))


def case_names():
    names = []
    for mode in ("sum", "mean", "max"):
        for two_d in (False, True):
            for last in (False,) if two_d else (False, True):
                for pad in (None, 3, -7):
                    for weighted in (False, True) if mode == "sum" else (False,):
                        names.append(f"{mode},{int(two_d)},{int(last)},{pad},{int(weighted)}")
    return names


def bag_runs(lib, names):
    """Each case's output, weight's gradient and per_sample_weights' (or None) under
    (out * cos(range)).sum().backward(). Bags of the 1-d input: four indices, none, two padding
    indices (padding_idx 3), four, two (left out by include_last_offset); halves in the weight,
    so that max meets ties."""
    import numpy as np
    indices = np.array([1, 2, 3, 5, 3, 3, 2, 9, 0, 0, 7, 3])
    offsets = np.array([0, 4, 4, 6, 10])
    weight = np.round(np.sin(np.arange(50.0)).reshape(10, 5) * 2) / 2
    per_sample = np.linspace(0.5, 2, 12)
    out = {}
    for name in names:
        mode, two_d, last, pad, weighted = name.split(",")
        w = lib.tensor(weight, requires_grad=True)
        s = lib.tensor(per_sample, requires_grad=True) if weighted == "1" else None
        ids = lib.tensor(indices.reshape(3, 4) if two_d == "1" else indices)
        if s is not None and two_d == "1":
            s = lib.tensor(per_sample.reshape(3, 4), requires_grad=True)
        y = lib.nn.functional.embedding_bag(ids, w, None if two_d == "1" else lib.tensor(offsets), mode=mode,
                                            include_last_offset=last == "1",
                                            padding_idx=None if pad == "None" else int(pad), per_sample_weights=s)
        dy = np.cos(np.arange(float(np.prod(tuple(y.shape))))).reshape(tuple(y.shape))
        (y * lib.tensor(dy)).sum().backward()
        out[name] = [y.detach().numpy().tolist(), w.grad.numpy().tolist(),
                     None if s is None else s.grad.numpy().reshape(-1).tolist()]
    return out


@pytest.fixture(scope="module")
def torch_runs():
    """torch's, run in a process of its own (torch and meshflow do not load into one)."""
    if not TORCH_SITE:
        pytest.skip("torch is not installed (/root/tv)")
    script = "\n".join(["import json, sys", "import torch", inspect.getsource(bag_runs),
                        "print(json.dumps(bag_runs(torch, json.loads(sys.stdin.read()))))"])
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(case_names()), capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=TORCH_SITE[-1]), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", case_names())
def test_values_and_gradients_follow_torch(name, torch_runs):
    got = bag_runs(mf, [name])[name]
    theirs = torch_runs[name]
    for what, g, t in zip(("output", "weight's gradient", "per_sample_weights' gradient"), got, theirs):
        if t is None:
            assert g is None
        else:
            np.testing.assert_allclose(g, t, rtol=1e-12, atol=1e-12, err_msg=what)


def test_bad_offsets_and_indices_raise_from_the_kernel():
    weight, indices = mf.tensor(np.ones((10, 4))), mf.tensor([1, 2, 4, 5, 4, 3])
    for offsets, message in (([1, 3], "offsets start at 1; expected 0"), ([0, 4, 2], "offset 2 follows 4"),
                             ([0, 7], "offset 6 follows 0|offset 7 follows 0")):
        with pytest.raises(RuntimeError, match=message):
            F.embedding_bag(indices, weight, mf.tensor(offsets), mode="sum").numpy()
    with pytest.raises(RuntimeError, match="offset 7 follows 0"):
        F.embedding_bag(indices, weight, mf.tensor([0, 7]), mode="sum", include_last_offset=True).numpy()
    with pytest.raises(IndexError, match=r"index 10 is out of range; expected values in \[0, 10\)"):
        F.embedding_bag(mf.tensor([1, 10]), weight, mf.tensor([0]), mode="mean").numpy()


def test_int32_indices_and_offsets_and_float32():
    weight = np.random.default_rng(1).standard_normal((6, 3)).astype(np.float32)
    got = F.embedding_bag(mf.tensor(np.array([0, 5, 2], np.int32)), mf.tensor(weight),
                          mf.tensor(np.array([0, 1], np.int32)), mode="mean")
    assert got.dtype == mf.float32
    np.testing.assert_allclose(got.numpy(), [weight[0], (weight[5] + weight[2]) / 2], rtol=1e-6)


class _BagStep(mf.nn.Graph):
    def __init__(self, bag, opt):
        super().__init__()
        self.bag = bag
        self.add_optimizer(opt)

    def build(self, ids, offsets, per_sample):
        loss = (self.bag(ids, offsets, per_sample) ** 2).sum()
        loss.backward()
        return loss


def test_graph_training_equals_eager():
    """Graph mode (whose local inputs are global on one device) runs the op too: the
    composition's host read of offsets cannot run while build traces."""
    def run(graph):
        mf.manual_seed(3)
        bag = mf.nn.EmbeddingBag(13, 4, mode="sum", padding_idx=2)
        opt = mf.optim.SGD(bag.parameters(), lr=0.1)
        per_sample = mf.tensor(np.linspace(0.5, 1.5, 7, dtype=np.float32))
        args = mf.tensor([1, 2, 5, 7, 2, 12, 0]), mf.tensor([0, 3, 3, 5]), per_sample
        step = _BagStep(bag, opt) if graph else None
        losses = []
        for _ in range(3):
            if graph:
                losses.append(float(step(*args)))
            else:
                opt.zero_grad()
                loss = (bag(*args) ** 2).sum()
                loss.backward()
                opt.step()
                losses.append(float(loss))
        return losses, bag.weight.detach().numpy()

    (graph_losses, graph_weight), (losses, weight) = run(True), run(False)
    np.testing.assert_allclose(graph_losses, losses, rtol=1e-6)
    np.testing.assert_allclose(graph_weight, weight, rtol=1e-6)
