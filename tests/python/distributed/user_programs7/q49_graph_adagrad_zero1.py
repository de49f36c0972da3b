import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(49)
model = nn.Sequential(nn.Embedding(30, 8), nn.Flatten(), nn.Linear(24, 16), nn.ReLU(), nn.Linear(16, 2))
model.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adagrad(model.parameters(), lr=0.05, lr_decay=0.01)

class Step(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.enable_zero(True, stage=1)
    def build(self, ids, y):
        loss = F.cross_entropy(self.model(ids), y)
        loss.backward()
        return loss

step = Step()
rng = np.random.default_rng(49)
losses = []
for _ in range(4):
    ids = mf.tensor(rng.integers(0, 30, (8, 3)), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 8), placement=mesh, sbp=mf.sbp.split(0))
    losses.append(step(ids, y).item())
sd = opt.state_dict()
print("RESULT", json.dumps({"losses": losses, "steps": [float(s["step"]) for s in sd["state"].values()]}))
