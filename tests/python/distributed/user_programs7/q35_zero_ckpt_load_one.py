import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(35)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.AdamW(model.parameters(), lr=1e-2, zero_stage=2)
rng = np.random.default_rng(35)
X = rng.standard_normal((4, 6, 4)).astype(np.float32); Y = rng.integers(0, 2, (4, 6))
for i in range(2):
    loss = F.cross_entropy(model(mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0))), mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0)))
    opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), f"q35_w{world}.pt")
mf.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, path)
print("RESULT", json.dumps({"loss": loss.item()}))
