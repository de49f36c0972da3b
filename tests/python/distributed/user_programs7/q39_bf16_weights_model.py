import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(39)
model = nn.Sequential(nn.Linear(8, 16), nn.SiLU(), nn.Linear(16, 4)).to(mf.bfloat16).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(39)
x = mf.tensor(rng.standard_normal((8, 8)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0)).bfloat16()
y = mf.tensor(rng.integers(0, 4, 8), placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    loss = F.cross_entropy(model(x).float(), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "dtype": str(model[0].weight.dtype)}))
