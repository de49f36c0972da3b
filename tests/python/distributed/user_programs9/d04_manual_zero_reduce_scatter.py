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
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
init_(net, 5)
params = list(net.parameters())
numel = sum(p.numel() for p in params)
pad = (-numel) % world
shard = (numel + pad) // world
flat_master = mf.cat([p.detach().reshape(-1) for p in params] + [mf.zeros(pad)])[rank * shard:(rank + 1) * shard].clone()
m = mf.zeros(shard)
rng = np.random.default_rng(50 + rank)
for step in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = net(x).pow(2).sum()
    for p in params: p.grad = None
    loss.backward()
    flat_grad = mf.cat([p.grad.reshape(-1) for p in params] + [mf.zeros(pad)])
    g = mf.empty(shard)
    dist.reduce_scatter_tensor(g, flat_grad)
    g /= world
    m.mul_(0.9).add_(g)
    flat_master -= 0.05 * m
    full = mf.empty(shard * world)
    dist.all_gather_into_tensor(full, flat_master)
    at = 0
    with mf.no_grad():
        for p in params:
            p.copy_(full[at:at + p.numel()].view_as(p)); at += p.numel()
print("RESULT", rank, json.dumps({"shard": flat_master.tolist(), "w": [p.sum().item() for p in params]}))
dist.destroy_process_group()
