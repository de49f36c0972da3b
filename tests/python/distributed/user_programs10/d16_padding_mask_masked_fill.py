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
class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(9, 5, padding_idx=0); self.score = nn.Linear(5, 1, bias=False); self.out = nn.Linear(5, 2)
    def forward(self, ids):
        pad = ids.eq(0)
        e = self.emb(ids)
        s = self.score(e).squeeze(-1).masked_fill(pad, -1e9)
        w = s.softmax(-1).unsqueeze(-1)
        return self.out((w * e).sum(1))
net = Pool(); init_(net, 16)
with mf.no_grad():
    net.emb.weight[0].zero_()
model = DDP(net)
opt = mf.optim.Adagrad(model.parameters(), lr=0.1)
rng = np.random.default_rng(1600 + rank)
for _ in range(3):
    ids = mf.from_numpy(rng.integers(0, 9, (4, 6)))
    ids[:, -2:] = 0
    y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": sums(net), "pad_row": net.emb.weight[0].abs().sum().item()}))
dist.destroy_process_group()
