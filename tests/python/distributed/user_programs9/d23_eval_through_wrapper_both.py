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
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)); init_(net, 23)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(230 + rank)
res = []
for epoch in range(2):
    model.train()
    for _ in range(2):
        x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with mf.no_grad():
        v = model(mf.ones(2, 3)).sum()
    dist.all_reduce(v)
    res.append(v.item())
print("RESULT", rank, json.dumps({"v": res, "rm": net[1].running_mean.tolist()}))
dist.destroy_process_group()
