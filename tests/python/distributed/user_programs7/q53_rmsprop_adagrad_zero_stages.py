import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(53)
X = rng.standard_normal((3, 8, 6)).astype(np.float32); Y = rng.integers(0, 3, (3, 8))

def run(make, stage):
    mf.manual_seed(53)
    model = nn.Sequential(nn.Linear(6, 10), nn.Tanh(), nn.Linear(10, 3)).to_global(mesh, mf.sbp.broadcast)
    opt = make([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.02}], stage)
    losses = []
    for i in range(3):
        x = mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(loss.item())
    return losses, [p.sum().item() for p in model.parameters()], sorted(opt.state_dict()["state"][0])

rms = lambda groups, stage: mf.optim.RMSprop(groups, lr=0.01, momentum=0.5, centered=True, zero_stage=stage)
ada = lambda groups, stage: mf.optim.Adagrad(groups, lr=0.1, lr_decay=0.05, zero_stage=stage)
print("RESULT", json.dumps({f"{name}{stage}": run(make, stage) for name, make in (("rms", rms), ("ada", ada))
                            for stage in (0, 1, 2, 3)}))
