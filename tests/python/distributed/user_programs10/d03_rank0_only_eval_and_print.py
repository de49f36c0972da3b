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
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)); init_(net, 4)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(400 + rank)
val = np.random.default_rng(7)
vx = mf.from_numpy(val.standard_normal((10, 4)).astype(np.float32)); vy = mf.from_numpy(val.integers(0, 3, 10))
log = []
for epoch in range(3):
    model.train()
    x = mf.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 3, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        model.eval()
        with mf.no_grad():
            out = model.module(vx)
            acc = (out.argmax(1) == vy).float().mean().item()
            log.append([epoch, round(F.cross_entropy(out, vy).item(), 6), acc])
        print(f"epoch {epoch} val acc {acc:.3f}")
print("RESULT", rank, json.dumps({"log": log, "w": sums(net)}))
dist.destroy_process_group()
