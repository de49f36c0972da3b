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
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)); init_(net, 37)
for p in net.parameters():
    dist.broadcast(p.data, 0)
opt = mf.optim.SGD(net.parameters(), lr=0.2)
rng = np.random.default_rng(370 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = F.cross_entropy(net(x), mf.from_numpy(rng.integers(0, 2, 4)))
    opt.zero_grad(); loss.backward()
    works = [dist.all_reduce(p.grad, async_op=True) for p in net.parameters()]
    for w in works:
        w.wait()
    for p in net.parameters():
        p.grad /= world
    opt.step()
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
