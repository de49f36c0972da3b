import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
mf.manual_seed(19)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 2)).to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.2, momentum=0.5, weight_decay=1e-4)
accum = 4
rng = np.random.default_rng(19)
X = rng.standard_normal((8, 4, 6)).astype(np.float32); Y = rng.integers(0, 2, (8, 4))
logged = []
opt.zero_grad()
running = 0.0
for i in range(8):
    x = mf.tensor(X[i], placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(Y[i], placement=mesh, sbp=mf.sbp.split(0))
    loss = F.cross_entropy(model(x), y) / accum
    loss.backward()
    running += loss.item()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        logged.append(running)
        running = 0.0
print("RESULT", json.dumps({"logged": logged, "w": model[3].weight.numpy().round(6).tolist()}))
