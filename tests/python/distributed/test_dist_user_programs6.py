"""A sixth batch of 2-rank programs, written blind as DDP, Megatron and OneFlow users write them
(issue 37's hidden set, its kinds): a whole batch that every rank loaded, split with
to_global(placement, split(0)), which OneFlow's rule takes as each rank's own part; under
MESHFLOW_CHECK_CONSISTENCY=1 it raises on every rank, naming the rule and what to write.
Each program runs on one device and on every rank of the job and the two are compared. Every
test runs under test_dist_user_programs4's time limit."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

from test_dist_user_programs2 import RANK, WORLD, B, S, everyone, split_rows
from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)


def test_a_whole_batch_every_rank_loaded_split_by_to_global_raises_under_the_consistency_check(monkeypatch):
    x = np.arange(2 * WORLD * 3, dtype=np.float32).reshape(2 * WORLD, 3)
    monkeypatch.setenv("MESHFLOW_CHECK_CONSISTENCY", "1")
    if WORLD > 1:
        with pytest.raises(ValueError, match=r"repeat it .* times along dim 0; to split a whole value"):
            mf.tensor(x).to_global(everyone(), S(0))
    # What to write instead, and each rank's own part, pass the check and equal one device.
    whole = mf.tensor(x).to_global(everyone(), B).to_global(sbp=S(0))
    own = mf.tensor(x[2 * RANK:2 * RANK + 2]).to_global(everyone(), S(0))
    np.testing.assert_array_equal(whole.numpy(), x)
    np.testing.assert_array_equal(own.numpy(), x)
    labels = np.arange(2 * WORLD) % 2
    mf.manual_seed(60)
    model = nn.Linear(3, 2).to_global(everyone(), B)
    mf.manual_seed(60)
    want = nn.Linear(3, 2)
    F.cross_entropy(model(whole), split_rows(labels)).backward()
    F.cross_entropy(want(mf.tensor(x)), mf.tensor(labels)).backward()
    np.testing.assert_allclose(model.weight.grad.numpy(), want.weight.grad.numpy(), rtol=1e-5, atol=1e-6)
