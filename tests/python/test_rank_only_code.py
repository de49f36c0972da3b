"""Code that only some ranks run (`if rank == 0:`) around calls on global tensors, which every
rank must make: the job ends within seconds, naming the call left behind and the rule,
instead of waiting for MESHFLOW_EXIT_TIMEOUT or MESHFLOW_COMM_TIMEOUT."""
import time

import pytest

from jobs import launch_script

RULE = ("cannot complete: rank 1 of its group has exited without making it. Every rank must make the same calls on "
        "global tensors, in the same order: code that only some ranks run (if rank == 0:) must not compute on, read")


@pytest.mark.parametrize("under_the_if, call", [
    ("mf.save(model.state_dict(), 'ckpt')", "save"),
    ("print(model.weight.sum().item())", "item()"),
    ("print(model.weight)", "a global tensor"),
    ("model.weight.numpy()", "numpy()"),
])
def test_a_call_made_by_rank_0_only_ends_the_job_at_once_naming_it(tmp_path, under_the_if, call):
    started = time.monotonic()
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.nn as nn
        model = nn.Linear(4, 3)
        model.to_global(mf.placement("cpu", ranks=[0, 1]), mf.sbp.split(0))
        if mf.env.get_rank() == 0:
            {under_the_if}
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    assert f"meshflow: rank 0: " in out and RULE in out, out
    assert call in out.split(RULE)[0], out
    assert time.monotonic() - started < 20, out
