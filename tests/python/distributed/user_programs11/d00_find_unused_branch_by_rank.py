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
        self.stem = nn.Linear(4, 6)
        self.a = nn.Linear(6, 2)
        self.b = nn.Linear(6, 2)
        self.never = nn.Linear(6, 2)
    def forward(self, x, use_a):
        h = meshflow.relu(self.stem(x))
        return self.a(h) if use_a else self.b(h)
net = Net(); init_(net, 0)
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(10 + rank)
for step in range(3):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 5))
    out = model(x, use_a=(rank == 0))
    loss = F.cross_entropy(out, y)
    opt.zero_grad(); loss.backward()
    grads = {n: (None if p.grad is None else round(p.grad.sum().item(), 5)) for n, p in net.named_parameters()}
    opt.step()
print("RESULT", rank, json.dumps({"grads": grads, "w": sums(net)}))
dist.destroy_process_group()
