import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(5, 5)
        self.gate = nn.Parameter(mf.zeros(5))
    def forward(self, x):
        ones = x.new_ones(x.shape)
        half = mf.full_like(x, 0.5)
        g = mf.sigmoid(self.gate) * ones
        t = mf.arange(x.shape[1], dtype=x.dtype) / x.shape[1]
        return self.lin(x * g + half * t)

mf.manual_seed(45)
m = M().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(m.parameters(), lr=1e-2)

class Step(nn.Graph):
    def __init__(self):
        super().__init__()
        self.m = m
        self.add_optimizer(opt)
    def build(self, x):
        loss = (self.m(x) - x).pow(2).mean()
        loss.backward()
        return loss

s = Step()
rng = np.random.default_rng(45)
losses = [s(mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))).item() for _ in range(3)]
print("RESULT", json.dumps(losses))
