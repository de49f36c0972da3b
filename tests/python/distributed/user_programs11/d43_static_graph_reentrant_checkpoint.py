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
from meshflow.utils.checkpoint import checkpoint
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(6, 6), nn.Tanh()) for _ in range(3)]); self.head = nn.Linear(6, 2)
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=True)
        return self.head(x)
net = Net(); init_(net, 43)
model = DDP(net, static_graph=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(430 + rank)
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32)).requires_grad_(True); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": round(loss.item(), 5), "w": sums(net)}))
dist.destroy_process_group()
