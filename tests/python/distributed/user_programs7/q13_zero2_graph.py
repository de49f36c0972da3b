import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
rng = np.random.default_rng(13)
X = rng.standard_normal((3, 8, 6)).astype(np.float32); Y = rng.integers(0, 4, (3, 8))

def train(zero):
    mf.manual_seed(13)
    model = nn.Sequential(nn.Linear(6, 12), nn.LayerNorm(12), nn.ReLU(), nn.Linear(12, 4)).to_global(mesh, mf.sbp.broadcast)
    opt = mf.optim.Adam(model.parameters(), lr=1e-2)
    class Step(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)
            if zero:
                self.config.enable_zero(True, stage=2)
        def build(self, x, y):
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            return loss
    step = Step()
    losses = [step(mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0)), mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))).item() for i in range(3)]
    return losses, model[3].weight.sum().item()

print("RESULT", json.dumps({"plain": train(False), "zero2": train(True)}))
