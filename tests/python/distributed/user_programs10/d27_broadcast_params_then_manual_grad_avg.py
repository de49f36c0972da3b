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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 27 + rank)
for p in net.parameters():
    dist.broadcast(p.data, src=0)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(2700 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM); p.grad /= world
    opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
