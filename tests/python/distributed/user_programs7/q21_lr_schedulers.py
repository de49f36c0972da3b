import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.optim.lr_scheduler import LinearLR, CosineAnnealingLR, SequentialLR, OneCycleLR, ReduceLROnPlateau

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(21)
X = rng.standard_normal((6, 8, 3)).astype(np.float32); Y = X.sum(-1, keepdims=True) * 0.5

def run(kind):
    mf.manual_seed(21)
    model = nn.Linear(3, 1).to_global(mesh, mf.sbp.broadcast)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    if kind == "warmcos":
        sched = SequentialLR(opt, [LinearLR(opt, start_factor=0.1, total_iters=2), CosineAnnealingLR(opt, T_max=4)], milestones=[2])
    elif kind == "onecycle":
        sched = OneCycleLR(opt, max_lr=0.2, total_steps=6)
    else:
        sched = ReduceLROnPlateau(opt, factor=0.5, patience=0)
    lrs, losses = [], []
    for i in range(6):
        x = mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))
        loss = F.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if kind == "plateau":
            sched.step(loss)
        else:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"]); losses.append(loss.item())
    return lrs, losses

print("RESULT", json.dumps({k: run(k) for k in ["warmcos", "onecycle", "plateau"]}))
