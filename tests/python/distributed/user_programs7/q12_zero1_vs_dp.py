import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(12)
X = rng.standard_normal((3, 8, 6)).astype(np.float32); Y = rng.integers(0, 4, (3, 8))

def run(stage):
    mf.manual_seed(12)
    model = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 4)).to_global(mesh, mf.sbp.broadcast)
    if stage:
        opt = mf.optim.AdamW(model.parameters(), lr=1e-2, zero_stage=stage)
    else:
        opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for i in range(3):
        x = mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(loss.item())
    return losses, [p.sum().item() for p in model.parameters()]

dp = run(0); z1 = run(1); z2 = run(2)
print("RESULT", json.dumps({"dp": dp, "z1": z1, "z2": z2}))
