import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(48)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
sched = mf.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
rng = np.random.default_rng(48)
micro = [rng.standard_normal((5, 3)).astype(np.float32) for _ in range(6)]   # odd micro-batch of 5
log = []
for step in range(3):
    opt.zero_grad()
    total = 0.0
    for m in micro[2 * step:2 * step + 2]:
        x = mf.tensor(m, placement=mesh, sbp=mf.sbp.split(0))
        loss = F.mse_loss(model(x), x.sum(1, keepdim=True)) / 2
        loss.backward()
        total += loss.item()
    nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    opt.step(); sched.step()
    log.append([total, sched.get_last_lr()[0]])
print("RESULT", json.dumps(log))
