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
        self.enc = nn.Linear(5, 8)
        self.aux = nn.Linear(8, 8)
        self.head = nn.Linear(8, 3)
    def forward(self, x, step):
        h = F.gelu(self.enc(x))
        if step % 2 == 0:
            h = h + meshflow.tanh(self.aux(h))
        return self.head(h)
net = Net(); init_(net, 1)
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(20 + rank)
losses = []
for step in range(4):
    x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x, step), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "aux_grad_none": net.aux.weight.grad is None, "w": sums(net)}))
dist.destroy_process_group()
