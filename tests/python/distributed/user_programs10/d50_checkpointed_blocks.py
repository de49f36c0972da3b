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
from meshflow.utils.checkpoint import checkpoint
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Sequential(nn.Linear(4, 6), nn.Tanh()); self.b = nn.Sequential(nn.Linear(6, 6), nn.Tanh()); self.head = nn.Linear(6, 2)
    def forward(self, x):
        h = checkpoint(self.a, x, use_reentrant=False)
        h = checkpoint(self.b, h, use_reentrant=False)
        return self.head(h)
net = Net(); init_(net, 50)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(5000 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
