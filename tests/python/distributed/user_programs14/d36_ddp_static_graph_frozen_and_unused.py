import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.frozen = nn.Linear(4, 4)
        self.body = nn.Linear(4, 4)
        self.unused = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)
    def forward(self, x):
        return self.head(F.relu(self.body(self.frozen(x))))
net = M()
g = np.random.default_rng(19)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
net.frozen.requires_grad_(False)
model = DDP(net, static_graph=True)
opt = meshflow.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=0.02)
rng = np.random.default_rng(1900 + rank)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 5))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "unused_grad": net.unused.weight.grad is None,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
