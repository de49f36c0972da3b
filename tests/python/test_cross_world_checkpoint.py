"""A checkpoint saved by a job of 2 ranks (tensor parallel, ZeRO stage 3, a scheduler, the
random state) loads in one process with torch's spellings and goes on as the 2-rank model
would (issue 37: checkpoints saved on N ranks load in one process)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from jobs import launch_script

SAVE = """
    import os, sys
    import numpy as np
    import meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
    S, B = mf.sbp.split, mf.sbp.broadcast
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    p = mf.placement("cpu", ranks=list(range(world)))
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
    model.to_global(p, lambda n, _: S(0) if n.startswith("0.") else S(1) if n == "2.weight" else B)
    opt = mf.optim.AdamW(model.parameters(), lr=0.1, zero_stage=3)
    sched = mf.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    x = mf.tensor(np.linspace(-1, 1, 40, dtype=np.float32).reshape(8, 5), placement=p, sbp=S(0))
    for _ in range(2):
        F.mse_loss(model(x), mf.zeros(8, 3)).backward()
        opt.step()
        sched.step()
        opt.zero_grad()
    mf.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
             "step": 2}, "ckpt")
    F.mse_loss(model(x), mf.zeros(8, 3)).backward()
    opt.step()
    after = model(x).numpy()
    if rank == 0:
        np.save("after.npy", after)
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    where = tmp_path_factory.mktemp("cross-world")
    code, out = launch_script(where, SAVE, timeout=60)
    assert code == 0, out
    return where


@pytest.mark.parametrize("how", [{"map_location": "cpu"}, {}, {"map_location": lambda storage, loc: storage},
                                 {"weights_only": True}])
def test_a_two_rank_zero_checkpoint_loads_in_one_process_and_goes_on_as_the_job(saved, how):
    ckpt = mf.load(str(saved / "ckpt"), **how)
    assert ckpt["step"] == 2 and not ckpt["model"]["0.weight"].is_global
    model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
    model.load_state_dict(ckpt["model"])
    opt = mf.optim.AdamW(model.parameters(), lr=0.1)
    opt.load_state_dict(ckpt["optimizer"])
    sched = mf.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    sched.load_state_dict(ckpt["scheduler"])
    assert opt.param_groups[0]["lr"] == pytest.approx(0.025)
    x = mf.tensor(np.linspace(-1, 1, 40, dtype=np.float32).reshape(8, 5))
    F.mse_loss(model(x), mf.zeros(8, 3)).backward()
    opt.step()
    np.testing.assert_allclose(model(x).detach().numpy(), np.load(saved / "after.npy"), rtol=1e-5, atol=1e-6)
