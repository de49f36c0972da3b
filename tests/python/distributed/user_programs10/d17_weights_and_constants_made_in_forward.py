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
class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
    def forward(self, x, y):
        logits = self.fc(x)
        w = mf.ones(3, device=x.device); w[0] = 2.0
        bias = mf.full((1, 3), 0.5, device=x.device, dtype=x.dtype)
        eye = mf.eye(3, device=x.device)
        scale = mf.tensor([1.0, 0.5, 0.25], device=x.device)
        return F.cross_entropy((logits + bias) @ eye * scale, y, weight=w, label_smoothing=0.1)
net = Head(); init_(net, 17)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.2)
rng = np.random.default_rng(1700 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 3, 5))
    loss = model(x, y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
