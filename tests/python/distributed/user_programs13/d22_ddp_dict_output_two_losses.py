import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 10), nn.ReLU())
        self.a = nn.Linear(10, 3)
        self.b = nn.Linear(10, 1)
    def forward(self, x):
        h = self.trunk(x)
        return {"logits": self.a(h), "value": self.b(h).squeeze(-1)}

dist.init_process_group("gloo")
rank = dist.get_rank()
net = MultiTask()
g = np.random.default_rng(22)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adagrad(model.parameters(), lr=0.1)
rng = np.random.default_rng(220 + rank)
log = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    out = model(x)
    l1 = F.cross_entropy(out["logits"], meshflow.from_numpy(rng.integers(0, 3, 4)))
    l2 = F.huber_loss(out["value"], meshflow.from_numpy(rng.standard_normal(4).astype(np.float32)))
    loss = l1 + 0.5 * l2
    opt.zero_grad(); loss.backward(); opt.step()
    log.append([round(l1.item(), 4), round(l2.item(), 4)])
print("RESULT", rank, json.dumps({"log": log, "keys": sorted(out.keys()), "trunk": round(net.trunk[0].weight.sum().item(), 4)}))
dist.destroy_process_group()
