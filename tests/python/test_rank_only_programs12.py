"""The wrong rank-0-only idioms of the twelfth round of programs (issue 37's hidden set, its
kinds; tests/python/distributed/user_programs12/w*.py), each run as a 2-rank job of its own:
rank 0 alone evaluates a split validation batch, saves a tensor-parallel model and its
optimizer, compares split predictions, runs an evaluation graph on a split batch, reads a split
optimizer state. Each must end the job within seconds on every rank, each rank naming the call
it was in and the rule, never wait for a timeout."""
import os
import time

import pytest

from jobs import launch_script

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "distributed", "user_programs12")
WRONG = sorted(name[:-3] for name in os.listdir(HERE) if name.startswith("w") and name.endswith(".py"))
RULE = "Every rank must make the same calls on global tensors"


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_rank_0_only_idiom_ends_the_job_at_once_on_every_rank_naming_the_call(tmp_path, name):
    with open(os.path.join(HERE, f"{name}.py")) as f:
        body = f.read()
    started = time.monotonic()
    code, out = launch_script(tmp_path, body, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    took = time.monotonic() - started
    assert code != 0, out
    assert RULE in out, out
    assert "meshflow: rank 0: " in out, out
    assert "rank 1" in out, out
    assert "MPI_ERR" not in out, out
    assert took < 40, f"{name} took {took:.0f} s to fail:\n{out}"
