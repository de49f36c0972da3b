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
if rank == 0:
    g = np.random.default_rng(13)
    full = mf.from_numpy(g.standard_normal((world * 3, 4)).astype(np.float32))
    chunks = list(full.chunk(world))
else:
    chunks = None
mine = mf.empty(3, 4)
dist.scatter(mine, scatter_list=chunks, src=0)
net = nn.Linear(4, 2); init_(net, 13)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
loss = model(mine).pow(2).sum()
opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"mine": mine.sum().item(), "loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
