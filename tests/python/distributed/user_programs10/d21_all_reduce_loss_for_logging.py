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
net = nn.Sequential(nn.Linear(5, 5), nn.Softplus(), nn.Linear(5, 1)); init_(net, 21)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.01, betas=(0.8, 0.99))
rng = np.random.default_rng(2100 + rank)
logged = []
for step in range(4):
    x = mf.from_numpy(rng.standard_normal((3, 5)).astype(np.float32)); y = mf.from_numpy(rng.standard_normal((3, 1)).astype(np.float32))
    loss = F.smooth_l1_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    reduced = loss.detach().clone()
    dist.all_reduce(reduced, op=dist.ReduceOp.SUM)
    reduced /= world
    if rank == 0:
        logged.append(round(reduced.item(), 6))
print("RESULT", rank, json.dumps({"logged": logged, "w": sums(net)}))
dist.destroy_process_group()
