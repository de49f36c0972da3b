import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(36)
model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Linear(16, 6))
model.to_global(mesh, lambda n, p: mf.sbp.split(0) if n.startswith("0.") else (mf.sbp.split(1) if n == "2.weight" else mf.sbp.broadcast))
opt = mf.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)

class G(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt, lr_sch=sched)
    def build(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
        return loss

g = G()
rng = np.random.default_rng(36)
losses, lrs = [], []
for _ in range(4):
    x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.broadcast)
    losses.append(g(x, x * 2).item()); lrs.append(opt.param_groups[0]["lr"])
print("RESULT", json.dumps({"losses": losses, "lrs": lrs}))
