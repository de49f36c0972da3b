import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(31)
model = nn.Sequential(nn.Linear(6, 10), nn.Tanh(), nn.Linear(10, 2)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=2e-2, weight_decay=1e-3, zero_stage=2)
sched = mf.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=1e-3)
rng = np.random.default_rng(31)
out = []
for i in range(4):
    x = mf.tensor(rng.standard_normal((7, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.standard_normal((7, 2)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    loss = F.smooth_l1_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    gn = mf.nn.utils.clip_grad_norm_(model.parameters(), 0.3)
    opt.step(); sched.step()
    out.append([loss.item(), gn.item(), sched.get_last_lr()[0]])
print("RESULT", json.dumps(out))
