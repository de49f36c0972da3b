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
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)); init_(net, 2)
model = DDP(net)
rng = np.random.default_rng(30 + rank)
xs = [meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)) for _ in range(3)]
ys = [meshflow.from_numpy(rng.standard_normal((4, 1)).astype(np.float32)) for _ in range(3)]
seen = []
with model.no_sync():
    for x, y in zip(xs[:2], ys[:2]):
        F.mse_loss(model(x), y).backward()
        seen.append(round(net[0].weight.grad.sum().item(), 5))
F.mse_loss(model(xs[2]), ys[2]).backward()
seen.append(round(net[0].weight.grad.sum().item(), 5))
local = meshflow.tensor([net[2].bias.grad.item()])
dist.all_reduce(local, op=dist.ReduceOp.MAX)
print("RESULT", rank, json.dumps({"seen": seen, "max_bias_grad": round(local.item(), 5)}))
dist.destroy_process_group()
