"""Memory figures and the per-rank memory limit on one process: a model over the limit raises
mf.OutOfMemoryError naming requested, in use, cached and the limit, which the program
catches and goes on with a smaller batch; figures and their peak; MESHFLOW_MEMORY_LIMIT; and
in jobs of several ranks, an out of memory nobody catches ending every rank without an abort."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from jobs import launch_script

MiB = 1 << 20


@pytest.fixture
def limited():
    """Sets a device's limit for the test, `extra` bytes beyond what it holds now; removes it after."""
    set_on = []

    def limit(extra, device="cpu"):
        mf.synchronize()
        mf.empty_cache(device)
        mf.set_memory_limit(mf.memory_reserved(device) + extra, device=device)
        set_on.append(device)
    yield limit
    for device in set_on:
        mf.set_memory_limit(None, device=device)


def mlp(device="cpu"):
    mf.manual_seed(0)
    return nn.Sequential(nn.Linear(64, 2048), nn.GELU(), nn.Linear(2048, 64)).to(device)


def step(model, batch, device="cpu"):
    """One training step's loss (read before any update, where a training loop reads it)."""
    mf.manual_seed(1)
    x = mf.randn(batch, 64, device=device)
    try:
        loss = F.mse_loss(model(x), mf.zeros(batch, 64, device=device))
        loss.backward()
        return loss.item()
    finally:
        model.zero_grad(set_to_none=True)  # a failed step's gradients failed too: dropped


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_a_model_over_the_limit_raises_and_a_smaller_batch_then_fits(limited, device):
    model = mlp(device)
    reference = step(model, 64, device)  # warm: parameters and caches exist before the limit
    limited(24 * MiB, device)
    with pytest.raises(mf.OutOfMemoryError) as caught:
        step(model, 8192, device)  # its hidden activation alone is 64 MiB
    message = str(caught.value)
    assert " is out of memory: asked for " in message and " in use by tensors and " in message
    assert " cached (already released and retried); its limit is " in message
    assert mf.memory_stats(device)["limit_bytes"] is not None
    assert isinstance(caught.value, RuntimeError)
    assert mf.cuda.OutOfMemoryError is mf.OutOfMemoryError
    mf.synchronize()  # nothing else pending: the error was raised once
    assert step(model, 64, device) == reference  # the program goes on within the same limit


def test_a_local_op_on_the_test_device_raises_at_its_call(limited):
    x = mf.zeros(1 << 20, device="testdev")  # 4 MiB
    limited(MiB, "testdev")
    with pytest.raises(mf.OutOfMemoryError, match=r"\[add\] a float32 tensor of shape \[1048576\]: testdev:0 is out"):
        x + x  # its output is allocated when it is issued: the call raises
    mf.synchronize()


def test_figures_follow_tensors_and_the_peak_resets():
    mf.synchronize()
    before = mf.memory_allocated()
    x = mf.zeros(1 << 20)
    mf.synchronize()
    assert mf.memory_allocated() == before + 4 * MiB
    mf.reset_peak_memory_stats()
    assert mf.max_memory_allocated() == mf.memory_allocated()
    y = x + 1
    mf.synchronize()
    assert mf.max_memory_allocated() >= before + 8 * MiB
    del x, y
    mf.synchronize()
    assert mf.memory_allocated() == before
    assert mf.max_memory_allocated() >= before + 8 * MiB
    mf.reset_peak_memory_stats()
    assert mf.max_memory_allocated() == before
    assert mf.memory_reserved() >= mf.memory_allocated()
    stats = mf.memory_stats("cpu")
    assert set(stats) == {"in_use_bytes", "cached_bytes", "peak_bytes", "limit_bytes"}
    assert stats["limit_bytes"] is None


def test_values_used_up_while_the_host_is_away_go_back_at_once():
    # A chain issued ahead whose values only the next instruction holds: each goes back to the
    # allocator once its reader has run, even while the issuing thread issues nothing.
    mf.synchronize()
    before = mf.memory_allocated()
    x = mf.ones(1 << 20)  # 4 MiB
    mf.synchronize()
    mf.reset_peak_memory_stats()
    for _ in range(32):
        x = x * 1.5 + 1
    time.sleep(1)  # the workers run the chain meanwhile
    assert mf.max_memory_allocated() <= before + 5 * 4 * MiB  # two values, a temporary, slack
    del x
    mf.synchronize()
    assert mf.memory_allocated() == before


def test_a_training_loop_running_ahead_peaks_as_a_synchronized_one():
    # loss.item() waits for the forward only: the next steps are issued while the backward
    # and the update of the last one still run.
    def peak(synchronized):
        model = nn.Sequential(nn.Linear(64, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 64))
        opt = mf.optim.AdamW(model.parameters(), lr=1e-3)
        x = mf.randn(256, 64)
        for i in range(6):
            if i == 2:
                mf.synchronize()
                mf.reset_peak_memory_stats()
            loss = F.mse_loss(model(x), x)
            loss.backward()
            opt.step()
            opt.zero_grad()
            loss.item()
            if synchronized:
                mf.synchronize()
        mf.synchronize()
        return mf.max_memory_allocated()
    mf.manual_seed(0)
    assert peak(synchronized=False) <= 1.05 * peak(synchronized=True)


def test_each_test_device_has_figures_of_its_own():
    mf.synchronize()
    host, dev1 = mf.memory_allocated("cpu"), mf.memory_allocated("testdev:1")
    x = mf.zeros(1 << 18, device="testdev:1")
    mf.synchronize()
    assert mf.memory_allocated("testdev:1") == dev1 + MiB
    assert mf.memory_allocated("cpu") == host
    del x


def test_limits_take_sizes_and_refuse_nonsense():
    mf.set_memory_limit("1.5G", device="testdev:1")
    assert mf.memory_stats("testdev:1")["limit_bytes"] == 1536 * MiB
    mf.set_memory_limit(None, device="testdev:1")
    assert mf.memory_stats("testdev:1")["limit_bytes"] is None
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="set_memory_limit: expected a number of bytes"):
            mf.set_memory_limit(bad)
    with pytest.raises(ValueError, match="set_memory_limit's limit is '2 GB'; expected a number of bytes"):
        mf.set_memory_limit("2 GB")


def _run(code, limit):
    env = dict(os.environ, MESHFLOW_MEMORY_LIMIT=limit)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_the_environment_sets_every_device_s_limit_and_is_checked_at_import():
    done = _run("import meshflow as mf; print(mf.memory_stats('cpu')['limit_bytes'], "
                "mf.memory_stats('testdev:1')['limit_bytes'])", "64M")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(64 * MiB)] * 2
    done = _run("import meshflow", "lots")
    assert done.returncode != 0
    assert "MESHFLOW_MEMORY_LIMIT is 'lots'; expected a number of bytes" in done.stderr
    done = _run("import meshflow as mf\n"
                "try:\n"
                "    mf.zeros(64 << 20).numpy()\n"
                "except mf.OutOfMemoryError as e:\n"
                "    print('caught', 'its limit is 32.0 MiB' in str(e))\n", "32M")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "caught True"


@pytest.mark.parametrize("nproc", [2, 4])
def test_an_uncaught_out_of_memory_ends_every_rank_alike_without_aborting(tmp_path, nproc):
    # Rank 0 alone is limited; the all-gather's buffers pass its limit. Its status words tell
    # every rank (boxing/execute.h, PartStatus), so every rank raises the out of memory at the
    # read of the broadcast value, a read with no collective, and lets it end the process:
    # rank 0 prints the traceback, the others a line each, and the job ends through the
    # ordinary exit (no MPI_Abort).
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        p = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
        x = mf.ones(mf.env.get_world_size() * 1024, 1024, placement=p, sbp=mf.sbp.split(0))
        mf.synchronize()
        if mf.env.get_rank() == 0:
            mf.set_memory_limit(mf.memory_reserved() + (2 << 20))
        print(x.to_global(sbp=mf.sbp.broadcast).sum().item())
        print("after the read")
    """, nproc=nproc, timeout=90)
    assert code != 0, out
    assert "MPI_ABORT" not in out and "aborting the job" not in out, out
    assert "after the read" not in out, out
    assert "Traceback" in out and "meshflow.OutOfMemoryError: [to_global] cpu is out of memory: asked for" in out, out
    for rank in range(1, nproc):
        assert f"[rank {rank}] meshflow.OutOfMemoryError: [to_global] cpu is out of memory" in out, out
    assert "(raised on rank 0)" in out and "its limit is" in out, out
