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
net = nn.Sequential(nn.Linear(5, 7), nn.SiLU(), nn.Linear(7, 7), nn.SiLU(), nn.Linear(7, 3)); init_(net, 5)
model = DDP(net, bucket_cap_mb=0.0001, gradient_as_bucket_view=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(60 + rank)
zeroed = []
for step in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y)
    loss.backward(); opt.step()
    opt.zero_grad(set_to_none=False)
    zeroed.append(all(p.grad is not None and p.grad.abs().sum().item() == 0 for p in model.parameters()))
x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
model(x).sum().backward()
print("RESULT", rank, json.dumps({"zeroed": zeroed, "g": [round(p.grad.sum().item(), 5) for p in net.parameters()], "w": sums(net)}))
dist.destroy_process_group()
