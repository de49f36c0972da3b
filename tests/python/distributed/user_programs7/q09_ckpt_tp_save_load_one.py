import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 4)
        self.norm = nn.LayerNorm(4)
    def forward(self, x):
        return self.norm(self.down(F.silu(self.up(x))))

mf.manual_seed(9)
model = MLP()
plan = {"up.weight": mf.sbp.split(0), "up.bias": mf.sbp.split(0), "down.weight": mf.sbp.split(1)}
model.to_global(mesh, lambda n, p: plan.get(n, mf.sbp.broadcast))
opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
rng = np.random.default_rng(9)
x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32), placement=mesh, sbp=mf.sbp.broadcast)
y = mf.tensor(rng.integers(0, 4, 6), placement=mesh, sbp=mf.sbp.broadcast)
for _ in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), f"q09_w{world}.pt")
mf.save(model.state_dict(), path)
lv = loss.item()
print("RESULT", json.dumps({"loss": lv, "out": model(x).sum().item()}))
