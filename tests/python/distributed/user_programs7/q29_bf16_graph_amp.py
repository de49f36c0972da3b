import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(29)
model = nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.AdamW(model.parameters(), lr=1e-3)

class Step(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
        self.config.enable_amp(True, dtype=mf.bfloat16)
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

s = Step()
rng = np.random.default_rng(29)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 3, 6), placement=mesh, sbp=mf.sbp.split(0))
    losses.append(s(x, y).float().item())
print("RESULT", json.dumps({"losses": losses, "w_dtype": str(model[0].weight.dtype)}))
