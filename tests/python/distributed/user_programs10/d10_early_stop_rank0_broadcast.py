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
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)); init_(net, 11)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.5)
rng = np.random.default_rng(1100 + rank)
vg = np.random.default_rng(3)
vx = mf.from_numpy(vg.standard_normal((8, 3)).astype(np.float32)); vy = mf.from_numpy(vg.standard_normal((8, 1)).astype(np.float32))
best, bad, patience, stopped_at = float("inf"), 0, 1, None
for epoch in range(8):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    stop = mf.zeros(1)
    if rank == 0:
        with mf.no_grad():
            v = F.mse_loss(model.module(vx), vy).item()
        if v < best - 1e-3:
            best, bad = v, 0
        else:
            bad += 1
        if bad > patience:
            stop.fill_(1.0)
    dist.broadcast(stop, src=0)
    if stop.item() == 1.0:
        stopped_at = epoch
        break
print("RESULT", rank, json.dumps({"stopped_at": stopped_at, "w": sums(net)}))
dist.destroy_process_group()
