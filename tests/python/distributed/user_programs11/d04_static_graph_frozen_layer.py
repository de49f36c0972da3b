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
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 2)); init_(net, 4)
for p in net[0].parameters():
    p.requires_grad_(False)
model = DDP(net, static_graph=True)
opt = meshflow.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1, momentum=0.5)
rng = np.random.default_rng(50 + rank)
for step in range(4):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32))
    y = meshflow.from_numpy(rng.standard_normal((4, 2)).astype(np.float32))
    loss = F.smooth_l1_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"frozen_grad": net[0].weight.grad is None, "loss": round(loss.item(), 5), "w": sums(net)}))
dist.destroy_process_group()
