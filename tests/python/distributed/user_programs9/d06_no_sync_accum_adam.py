import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(4, 6), nn.GELU(), nn.Linear(6, 1))
init_(net, 6)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(6 + rank)
accum = 4
losses = []
for step in range(8):
    x = mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = x.sum(dim=1, keepdim=True)
    if (step + 1) % accum != 0:
        with model.no_sync():
            loss = F.mse_loss(model(x), y) / accum
            loss.backward()
    else:
        loss = F.mse_loss(model(x), y) / accum
        loss.backward()
        opt.step(); opt.zero_grad()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "w": [p.sum().item() for p in net.parameters()]}))
dist.destroy_process_group()
