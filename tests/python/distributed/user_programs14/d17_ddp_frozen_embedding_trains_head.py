import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.enc = nn.Linear(6, 6)
        self.head = nn.Linear(6, 3)
    def forward(self, ids):
        return self.head(meshflow.tanh(self.enc(self.emb(ids).mean(1))))
net = Clf()
g = np.random.default_rng(5)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
for p in list(net.emb.parameters()) + list(net.enc.parameters()):
    p.requires_grad = False
model = DDP(net)
opt = meshflow.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=0.02)
rng = np.random.default_rng(600 + rank)
losses = []
for _ in range(4):
    ids = meshflow.from_numpy(rng.integers(0, 20, (5, 4)))
    y = meshflow.from_numpy(rng.integers(0, 3, 5))
    loss = F.cross_entropy(model(ids), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "emb_grad": net.emb.weight.grad is None,
                                  "trainable": sum(p.numel() for p in model.parameters() if p.requires_grad),
                                  "emb": round(net.emb.weight.sum().item(), 5), "head": round(net.head.weight.sum().item(), 5)}))
dist.destroy_process_group()
