import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)); init_(net, 36)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.3)
rng = np.random.default_rng(360 + rank)
vx = meshflow.from_numpy(np.random.default_rng(999).standard_normal((8, 3)).astype(np.float32)); vy = vx.sum(1, keepdim=True)
best, bad, patience, epochs = float("inf"), 0, 2, 0
for epoch in range(12):
    x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = x.sum(1, keepdim=True) + meshflow.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))
    loss = F.mse_loss(model(x), y); opt.zero_grad(); loss.backward(); opt.step(); epochs += 1
    stop = meshflow.zeros(1, dtype=meshflow.int32)
    if rank == 0:
        with meshflow.no_grad():
            val = F.mse_loss(model.module(vx), vy).item()
        if val < best - 1e-3:
            best, bad = val, 0
        else:
            bad += 1
        if bad >= patience:
            stop.fill_(1)
    dist.broadcast(stop, src=0)
    if stop.item():
        break
print("RESULT", rank, json.dumps({"epochs": epochs, "w": sums(net)}))
dist.destroy_process_group()
