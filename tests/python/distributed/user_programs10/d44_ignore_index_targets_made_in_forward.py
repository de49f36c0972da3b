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
class Tok(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(8, 4); self.fc = nn.Linear(4, 8)
    def forward(self, ids, lengths):
        t = ids.size(1)
        valid = mf.arange(t, device=ids.device)[None, :] < lengths[:, None]
        target = mf.where(valid, ids, mf.full_like(ids, -100))
        logits = self.fc(self.emb(ids))
        return F.cross_entropy(logits.view(-1, 8), target.view(-1), ignore_index=-100), valid.sum()
net = Tok(); init_(net, 44)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.5)
rng = np.random.default_rng(4400 + rank)
counts = []
for _ in range(3):
    ids = mf.from_numpy(rng.integers(0, 8, (3, 5))); lengths = mf.from_numpy(rng.integers(1, 6, 3))
    loss, n = model(ids, lengths)
    opt.zero_grad(); loss.backward(); opt.step()
    counts.append(n.item())
print("RESULT", rank, json.dumps({"loss": loss.item(), "counts": counts, "w": sums(net)}))
dist.destroy_process_group()
