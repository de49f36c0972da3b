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
net = nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3), nn.Linear(3, 1))
init_(net, 60 + rank)  # each rank starts differently
before = net[0].weight.sum().item()
for p in net.parameters():
    dist.broadcast(p.data, src=0)
for b in net.buffers():
    dist.broadcast(b, src=0)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(61)
X = mf.from_numpy(rng.standard_normal((8, 3)).astype(np.float32))
for _ in range(3):
    loss = net(X[rank::world]).square().mean()
    opt.zero_grad(); loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM); p.grad.div_(world)
    opt.step()
print("RESULT", rank, json.dumps({"before": round(before, 5), "after": [p.sum().item() for p in net.parameters()]}))
dist.destroy_process_group()
