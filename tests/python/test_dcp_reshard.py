"""torch.distributed.checkpoint across world sizes: a fully_shard model and its Adam state saved
by dcp.save on 2 ranks load with dcp.load into a plain model in one process and into a
fully_shard model on 4 ranks, and training goes on there as in one process that never saved
(the same steps over the whole batch: fully_shard's gradient is the mean over the ranks' equal
batches). The 2-rank job also loads with a key the checkpoint lacks and with a wrong shape: each
raises RuntimeError on every rank. Every job runs under a timeout that kills it. In one
process: torch's tutorial AppState (a Stateful value) and a plain value round trip, a plain
key the checkpoint lacks raises, full_state_dict gives the model's values."""
import json
import os
import re

import numpy as np
import pytest

import meshflow as mf
import meshflow.distributed.checkpoint as dcp
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.distributed.checkpoint.state_dict import (StateDictOptions, get_model_state_dict, get_state_dict,
                                                     set_state_dict)

from jobs import launch_script

PROGRAM = """
import json, sys, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
import meshflow.distributed.checkpoint as dcp
from meshflow.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from meshflow.distributed.fsdp import fully_shard
sys.path.insert(0, {here!r})
from test_dcp_reshard import make, batch
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = make(); fully_shard(model)
opt = mf.optim.Adam(model.parameters(), lr=0.03)
def step(i):
    x, y = batch(i)
    rows = len(x) // world
    loss = F.mse_loss(model(mf.from_numpy(x[rank * rows:(rank + 1) * rows])),
                      mf.from_numpy(y[rank * rows:(rank + 1) * rows]))
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
if world == 2:
    losses = [step(i) for i in range(2)]
    msd, osd = get_state_dict(model, opt)  # before training it would make Adam's state: a step
    dcp.save({{"model": msd, "optim": osd}}, checkpoint_id={ckpt!r})
    for name, wrong in (("missing", {{"model": dict(msd, extra=mf.zeros(2))}}),
                        ("shape", {{"model": dict(msd, **{{"0.bias": mf.zeros(3)}})}})):
        try:
            dcp.load(wrong, checkpoint_id={ckpt!r})
        except RuntimeError as e:
            print("RAISED", rank, name, str(e).splitlines()[0], flush=True)
else:
    msd, osd = get_state_dict(model, opt)
    state = {{"model": msd, "optim": osd}}
    dcp.load(state, checkpoint_id={ckpt!r})
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
    losses = [step(i) for i in range(2, 4)]
print("RESULT", rank, json.dumps(losses), flush=True)
dist.destroy_process_group()
"""


def make():
    net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 2))
    g = np.random.default_rng(11)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return net


def batch(i):
    g = np.random.default_rng(40 + i)
    return g.standard_normal((8, 6)).astype(np.float32), g.standard_normal((8, 2)).astype(np.float32)


def one_process(steps, model, opt):
    losses = []
    for i in steps:
        x, y = batch(i)
        loss = F.mse_loss(model(mf.from_numpy(x)), mf.from_numpy(y))
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(loss.item())
    return losses


def job(tmp_path, nproc):
    script = PROGRAM.format(here=os.path.dirname(os.path.abspath(__file__)), ckpt=str(tmp_path / "ckpt"))
    code, out = launch_script(tmp_path, script, nproc=nproc, timeout=120)
    assert code == 0, out
    results = {int(m[1]): json.loads(m[2]) for m in re.finditer(r"^RESULT (\d+) (.*)$", out, re.M)}
    assert sorted(results) == list(range(nproc)), out
    return results, out


def test_a_2_rank_fully_shard_checkpoint_resumes_in_one_process_and_on_4_ranks(tmp_path):
    model = make()
    opt = mf.optim.Adam(model.parameters(), lr=0.03)
    want = one_process(range(4), model, opt)

    saved, out = job(tmp_path, 2)
    for rank in (0, 1):
        np.testing.assert_allclose(sum(np.array(saved[r]) for r in (0, 1)) / 2, want[:2], rtol=1e-5)
        assert f"RAISED {rank} missing" in out and "'model.extra'" in out, out
        assert f"RAISED {rank} shape" in out and "shape [3]" in out, out

    model = make()
    opt = mf.optim.Adam(model.parameters(), lr=0.03)
    msd, osd = get_state_dict(model, opt)
    state = {"model": msd, "optim": osd}
    dcp.load(state, checkpoint_id=tmp_path / "ckpt")
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
    np.testing.assert_allclose(one_process(range(2, 4), model, opt), want[2:], rtol=1e-5)

    resumed, out = job(tmp_path, 4)
    np.testing.assert_allclose(sum(np.array(resumed[r]) for r in range(4)) / 4, want[2:], rtol=1e-5)


class AppState:
    """torch's DCP tutorial: the model and optimizer as one Stateful value."""

    def __init__(self, model, opt):
        self.model, self.opt = model, opt

    def state_dict(self):
        model, optim = get_state_dict(self.model, self.opt)
        return {"model": model, "optim": optim}

    def load_state_dict(self, state):
        set_state_dict(self.model, self.opt, model_state_dict=state["model"], optim_state_dict=state["optim"])


def test_a_stateful_value_and_plain_values_round_trip_in_one_process(tmp_path):
    model = make()
    opt = mf.optim.AdamW(model.parameters(), lr=0.05)
    want = one_process(range(4), model, opt)
    model = make()
    opt = mf.optim.AdamW(model.parameters(), lr=0.05)
    one_process(range(2), model, opt)
    dcp.save({"app": AppState(model, opt), "epoch": 3}, checkpoint_id=tmp_path / "c")

    model = make()
    opt = mf.optim.AdamW(model.parameters(), lr=0.05)
    state = {"app": AppState(model, opt), "epoch": 0}
    dcp.load(state, checkpoint_id=tmp_path / "c")
    assert state["epoch"] == 3
    np.testing.assert_allclose(one_process(range(2, 4), model, opt), want[2:], rtol=1e-6)

    with pytest.raises(RuntimeError, match=r"Missing key in checkpoint state_dict: lr\."):
        dcp.load({"epoch": 0, "lr": 0.1}, checkpoint_id=tmp_path / "c")
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    assert sorted(full) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    for name, value in model.state_dict().items():
        np.testing.assert_array_equal(full[name].numpy(), value.numpy())
