import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.checkpoint import checkpoint

dist.init_process_group("gloo")
rank = dist.get_rank()
class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.ln = nn.LayerNorm(8); self.ff = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
    def forward(self, x):
        return x + self.ff(self.ln(x))
class Net(nn.Module):
    def __init__(self):
        super().__init__(); self.blocks = nn.ModuleList([Block() for _ in range(3)]); self.head = nn.Linear(8, 2)
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False)
        return self.head(x)
net = Net()
g = np.random.default_rng(31)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(3100 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "w": round(sum(p.sum().item() for p in net.parameters()), 4)}))
dist.destroy_process_group()
