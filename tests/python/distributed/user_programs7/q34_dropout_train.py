import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(34)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 3)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(34)
x = mf.tensor(rng.standard_normal((8, 8)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
y = mf.tensor(rng.integers(0, 3, 8), placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
