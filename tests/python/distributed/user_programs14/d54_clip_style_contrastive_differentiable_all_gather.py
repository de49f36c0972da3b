import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
import meshflow.distributed.nn.functional as dist_fn
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
class Dual(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Linear(5, 4); self.txt = nn.Linear(3, 4)
        self.logit_scale = nn.Parameter(meshflow.tensor(2.0))
    def forward(self, a, b):
        return F.normalize(self.img(a), dim=-1), F.normalize(self.txt(b), dim=-1), self.logit_scale.exp()
net = Dual()
g = np.random.default_rng(29)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy(np.asarray(g.standard_normal(tuple(p.shape)) * 0.5, dtype=np.float32)))
model = DDP(net)
opt = meshflow.optim.AdamW(model.parameters(), lr=0.01)
rng = np.random.default_rng(2900 + rank)
losses = []
for _ in range(3):
    a = meshflow.from_numpy(rng.standard_normal((3, 5)).astype(np.float32)); b = meshflow.from_numpy(rng.standard_normal((3, 3)).astype(np.float32))
    ia, tb, scale = model(a, b)
    all_i = meshflow.cat(dist_fn.all_gather(ia)); all_t = meshflow.cat(dist_fn.all_gather(tb))
    logits = scale * all_i @ all_t.t()
    labels = meshflow.arange(logits.shape[0])
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "scale": round(net.logit_scale.item(), 5),
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
