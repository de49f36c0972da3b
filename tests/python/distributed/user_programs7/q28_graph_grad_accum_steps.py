import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(28)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1)

class Acc(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.set_gradient_accumulation_steps(2)
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

g = Acc()
rng = np.random.default_rng(28)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 8), placement=mesh, sbp=mf.sbp.split(0))
    out = g(x, y)
    losses.append(out.mean().item())
print("RESULT", json.dumps({"losses": losses, "w": model[0].weight.sum().item()}))
