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
class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.pos = nn.Embedding(8, 6)
        self.rnn = nn.GRU(6, 5, batch_first=True)
        self.out = nn.Linear(5, 2)
    def forward(self, ids):
        b, t = ids.shape
        pos = mf.arange(t, device=ids.device).unsqueeze(0).expand(b, t)
        h0 = mf.zeros(1, b, 5, device=ids.device)
        mask = (ids != 0).float().unsqueeze(-1)
        x = (self.emb(ids) + self.pos(pos)) * mask
        y, _ = self.rnn(x, h0)
        causal = mf.tril(mf.ones(t, t, device=ids.device))
        pooled = (causal[-1].view(1, t, 1) * y).sum(1) / mask.sum(1).clamp(min=1)
        return self.out(pooled)
net = Tiny(); init_(net, 10)
model = DDP(net)
opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
rng = np.random.default_rng(10 + rank)
for _ in range(3):
    ids = mf.from_numpy(rng.integers(0, 10, (3, 5)))
    y = mf.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
