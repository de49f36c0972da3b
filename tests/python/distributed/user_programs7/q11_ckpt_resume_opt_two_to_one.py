import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(11)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
rng = np.random.default_rng(11)
X = rng.standard_normal((4, 6, 4)).astype(np.float32); Y = rng.integers(0, 3, (4, 6))
for i in range(2):
    x = mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
mf.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2},
        os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), f"q11_w{world}.pt"))
print("RESULT", json.dumps({"loss": loss.item(), "lr": sched.get_last_lr()}))
