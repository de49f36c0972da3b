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
net = nn.Sequential(nn.Linear(6, 5), nn.GELU(), nn.Linear(5, 1)); init_(net, 5)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
rng = np.random.default_rng(500 + rank)
accum = 3
losses = []
for step in range(2):
    opt.zero_grad()
    for micro in range(accum):
        x = mf.from_numpy(rng.standard_normal((2, 6)).astype(np.float32))
        y = mf.from_numpy(rng.standard_normal((2, 1)).astype(np.float32))
        if micro < accum - 1:
            with model.no_sync():
                (F.mse_loss(model(x), y) / accum).backward()
        else:
            loss = F.mse_loss(model(x), y) / accum
            loss.backward()
    g = [p.grad.sum().item() for p in model.parameters()]
    opt.step(); losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "g": g, "w": sums(net)}))
dist.destroy_process_group()
