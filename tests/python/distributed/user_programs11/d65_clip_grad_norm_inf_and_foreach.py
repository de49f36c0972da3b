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
net = nn.Sequential(nn.Linear(5, 5), nn.Tanh(), nn.Linear(5, 1)); init_(net, 65)
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01, foreach=True)
rng = np.random.default_rng(650 + rank)
norms = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))
    loss = F.huber_loss(model(x), y, delta=0.5); opt.zero_grad(); loss.backward()
    norms.append(round(meshflow.nn.utils.clip_grad_norm_(model.parameters(), 0.1, norm_type=float("inf")).item(), 6))
    opt.step()
print("RESULT", rank, json.dumps({"norms": norms, "w": sums(net)}))
dist.destroy_process_group()
