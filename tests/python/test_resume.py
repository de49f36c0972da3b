"""Resuming training exactly: the GPT example killed (SIGKILL, the whole job) after a
checkpoint and resumed from it gives the uninterrupted run's losses: bitwise on the same
layout, to rounding on another. Dropout is on, so the random generator's state is part of
what must come back."""
import json
import math
import os
import shutil
import signal

import pytest

from jobs import PYTHON, finish, start

TRAIN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "examples", "gpt", "train.py")
MODEL = ["--block", "32", "--sample", "0", "--steps", "8", "--dropout", "0.1", "--log-every", "1"]


def ranks_of(layout):
    """The ranks a layout needs: "2x1x1_8_64x2" -> 2."""
    return math.prod(int(n) for n in layout.split("_")[0].split("x"))


def train(tmp_path, layout, *options, timeout=180):
    """The losses of steps first_step .. 7 of a run of `layout`, and its first step."""
    ranks = ranks_of(layout)
    summary = tmp_path / "summary.json"
    code, out = finish(start([PYTHON, "-m", "meshflow.launch", "--nproc", str(ranks), TRAIN, "--layout", layout,
                              *MODEL, "--json", str(summary), *options], cwd=tmp_path, OMP_NUM_THREADS="1"),
                       timeout)
    assert code == 0, out
    result = json.loads(summary.read_text())
    summary.unlink()
    return result["losses"], result["first_step"]


def train_and_kill(tmp_path, layout, checkpoint, *options, timeout=180):
    """Runs `layout` with a checkpoint every 3 steps and kills the whole job (SIGKILL) once
    the first checkpoint is written."""
    ranks = ranks_of(layout)
    proc = start([PYTHON, "-m", "meshflow.launch", "--nproc", str(ranks), TRAIN, "--layout", layout, *MODEL,
                  "--save", str(checkpoint), "--save-every", "3", *options], cwd=tmp_path, OMP_NUM_THREADS="1")
    out = []
    for line in proc.stdout:
        out.append(line)
        if line.startswith("checkpoint: step"):
            os.killpg(proc.pid, signal.SIGKILL)
            break
    code, rest = finish(proc, timeout)
    assert code != 0, "".join(out) + rest
    assert any(line.startswith("checkpoint: step 3") for line in out), "".join(out) + rest


@pytest.mark.parametrize("layout, graph", [("1x1x1_8_64x2", False), ("2x1x1_8_64x2", True), ("1x1x2_8_64x2", True)],
                         ids=["1x1x1", "2x1x1 graph", "1x1x2 pipelined"])
def test_killed_and_resumed_on_the_same_layout_repeats_the_losses_bitwise(tmp_path, layout, graph):
    options = ["--graph"] if graph else []
    whole, _ = train(tmp_path, layout, *options)
    checkpoint = tmp_path / "ckpt"
    train_and_kill(tmp_path, layout, checkpoint, *options)
    resumed, first = train(tmp_path, layout, "--resume", str(checkpoint), *options)
    assert first in (3, 6)
    assert resumed == whole[first:], (first, resumed, whole)


def test_resumed_on_another_layout_repeats_the_losses_to_rounding(tmp_path):
    whole, _ = train(tmp_path, "2x1x1_8_64x2")
    checkpoint = tmp_path / "ckpt"
    train_and_kill(tmp_path, "2x1x1_8_64x2", checkpoint)
    for layout in ("1x1x1_8_64x2", "1x2x1_8_64x2"):
        resumed, first = train(tmp_path, layout, "--resume", str(checkpoint))
        assert resumed == pytest.approx(whole[first:], rel=1e-6), (layout, first, resumed, whole)


def test_resuming_another_model_or_schedule_raises(tmp_path):
    checkpoint = tmp_path / "ckpt"
    train(tmp_path, "1x1x1_8_64x2", "--save", str(checkpoint), "--steps", "2")
    kept = tmp_path / "kept"
    shutil.copytree(checkpoint, kept)
    summary = tmp_path / "summary.json"
    code, out = finish(start([PYTHON, TRAIN, "--layout", "1x1x1_8_64x3", *MODEL, "--resume", str(kept),
                              "--json", str(summary)], cwd=tmp_path, OMP_NUM_THREADS="1"), 120)
    assert code != 0 and "saved by a run of another model or schedule (steps 2 -> 8, layers 2 -> 3)" in out, out
