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
net = nn.Sequential(nn.Linear(3, 5, bias=False), nn.BatchNorm1d(5), nn.Tanh(), nn.Linear(5, 2)); init_(net, 36)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(3600 + rank)
for step in range(2):
    opt.zero_grad()
    with model.no_sync():
        x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
        (F.cross_entropy(model(x), y) / 2).backward()
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y) / 2
    loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net), "rm": net[1].running_mean.tolist(), "nbt": net[1].num_batches_tracked.item()}))
dist.destroy_process_group()
