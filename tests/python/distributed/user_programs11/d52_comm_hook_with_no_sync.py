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
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks
net = nn.Sequential(nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 1)); init_(net, 52)
model = DDP(net)
model.register_comm_hook(None, default_hooks.fp16_compress_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(520 + rank)
for step in range(2):
    for micro in range(3):
        x = meshflow.from_numpy(rng.standard_normal((2, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((2, 1)).astype(np.float32))
        if micro < 2:
            with model.no_sync():
                (F.mse_loss(model(x), y) / 3).backward()
        else:
            (F.mse_loss(model(x), y) / 3).backward()
    opt.step(); opt.zero_grad()
print("RESULT", rank, json.dumps({"w": sums(net)}))
dist.destroy_process_group()
