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
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4); self.b = nn.Linear(4, 4); self.out = nn.Linear(4, 1)
    def forward(self, x, use_b):
        h = meshflow.relu(self.a(x))
        if use_b:
            h = meshflow.relu(self.b(h))
        return self.out(h)
net = Net(); init_(net, 42)
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(420 + rank)
for step in range(2):
    opt.zero_grad()
    with model.no_sync():
        x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
        model(x, use_b=True).pow(2).mean().backward()
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
    model(x, use_b=False).pow(2).mean().backward()
    g = [round(p.grad.sum().item(), 5) for p in net.parameters()]
    opt.step()
print("RESULT", rank, json.dumps({"g": g, "w": sums(net)}))
dist.destroy_process_group()
