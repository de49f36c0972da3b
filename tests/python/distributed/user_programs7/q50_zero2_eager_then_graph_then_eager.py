import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(50)
model = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, zero_stage=2)
rng = np.random.default_rng(50)
def batch():
    return (mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0)),
            mf.tensor(rng.integers(0, 3, 8), placement=mesh, sbp=mf.sbp.split(0)))
losses = []
for _ in range(2):
    x, y = batch()
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())

class G(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

g = G()
for _ in range(2):
    losses.append(g(*batch()).item())
for _ in range(2):
    x, y = batch()
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
model.eval()
with mf.no_grad():
    ev = model(batch()[0]).sum().item()
print("RESULT", json.dumps({"losses": losses, "rm": model[1].running_mean.tolist(), "eval": ev}))
