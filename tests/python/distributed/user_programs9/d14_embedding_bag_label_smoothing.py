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
class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8, padding_idx=0)
        self.fc = nn.Linear(8, 4)
    def forward(self, ids):
        mask = ids.ne(0).unsqueeze(-1).to(self.emb.weight.dtype)
        return self.fc((self.emb(ids) * mask).sum(1) / mask.sum(1).clamp_min(1.0))
net = Clf(); init_(net, 14)
with mf.no_grad():
    net.emb.weight[0].zero_()
model = DDP(net)
opt = mf.optim.Adagrad(model.parameters(), lr=0.1)
rng = np.random.default_rng(140 + rank)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for _ in range(3):
    ids = rng.integers(1, 20, (4, 6)); ids[:, 4:] = 0
    loss = crit(model(mf.from_numpy(ids)), mf.from_numpy(rng.integers(0, 4, 4)))
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"pad": net.emb.weight[0].abs().sum().item(), "w": net.fc.weight.sum().item(), "e": net.emb.weight.sum().item()}))
dist.destroy_process_group()
