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
class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(15, 4, padding_idx=1); self.fc = nn.Linear(4, 2)
    def forward(self, ids):
        lengths = (ids != 1).sum(1, keepdim=True).clamp(min=1)
        return self.fc(self.emb(ids).sum(1) / lengths)
net = Bag(); init_(net, 24)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.3, weight_decay=1e-3)
rng = np.random.default_rng(2400 + rank)
for _ in range(3):
    ids = mf.from_numpy(rng.integers(0, 15, (4, 5))); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net)}))
dist.destroy_process_group()
