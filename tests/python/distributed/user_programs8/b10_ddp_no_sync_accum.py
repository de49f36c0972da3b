import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(5, 8), nn.GELU(), nn.Linear(8, 3))
rng = np.random.default_rng(3)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.01)
X = rng.standard_normal((6, 8, 5)).astype(np.float32)
Y = rng.integers(0, 3, (6, 8))
accum = 3
local_grads = []
for i in range(6):
    x = mf.from_numpy(X[i, rank::world]); y = mf.from_numpy(Y[i, rank::world])
    last = (i + 1) % accum == 0
    if not last:
        with model.no_sync():
            loss = nn.functional.cross_entropy(model(x), y) / accum
            loss.backward()
        local_grads.append(round(float(net[0].bias.grad.sum()), 5))
    else:
        loss = nn.functional.cross_entropy(model(x), y) / accum
        loss.backward()
        opt.step(); opt.zero_grad()
print("RESULT", rank, json.dumps({"local": local_grads, "w": net[2].weight.tolist()}))
dist.destroy_process_group()
