import json, contextlib, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.aux = nn.Linear(4, 2)          # used on even steps only
        self.out = nn.Linear(4, 10, bias=False)
        self.out.weight = self.emb.weight
    def forward(self, ids, use_aux):
        h = self.emb(ids).mean(1)
        logits = self.out(h)
        return (logits, self.aux(h)) if use_aux else (logits, None)
net = Net()
g = np.random.default_rng(33)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
ddp = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(ddp.parameters(), lr=0.2, momentum=0.5)
rng = np.random.default_rng(34 + rank)
losses = []
for step in range(4):
    ids = meshflow.from_numpy(rng.integers(0, 10, (3, 4))); y = meshflow.from_numpy(rng.integers(0, 10, 3))
    use_aux = step % 2 == 0
    ctx = ddp.no_sync() if step == 0 else contextlib.nullcontext()
    with ctx:
        logits, aux = ddp(ids, use_aux)
        loss = F.cross_entropy(logits, y) + (aux.square().mean() if aux is not None else 0.0)
        loss.backward()
    if step != 0:
        opt.step(); opt.zero_grad()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "emb": round(net.emb.weight.sum().item(), 5),
                                  "aux": round(net.aux.weight.sum().item(), 5), "tied": net.out.weight is net.emb.weight}))
dist.destroy_process_group()
