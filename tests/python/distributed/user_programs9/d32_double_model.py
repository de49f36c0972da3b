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
net = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1)); init_(net, 32)
net = net.double()
model = DDP(net)
opt = mf.optim.LBFGS(model.parameters(), lr=0.5, max_iter=3) if False else mf.optim.Adamax(model.parameters(), lr=0.05)
rng = np.random.default_rng(320 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)))
    loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"dt": str(net[0].weight.dtype), "w": [p.sum().item() for p in net.parameters()]}))
dist.destroy_process_group()
