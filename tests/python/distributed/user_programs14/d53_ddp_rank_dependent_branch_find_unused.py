import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 6); self.cls = nn.Linear(6, 3); self.reg = nn.Linear(6, 1)
    def forward(self, x, task):
        h = meshflow.relu(self.body(x))
        return self.cls(h) if task == "cls" else self.reg(h)
net = TwoHeads()
g = np.random.default_rng(28)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(2800 + rank)
losses, grads = [], []
for step in range(3):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    task = "cls" if (rank + step) % 2 == 0 else "reg"   # the ranks train different heads
    out = model(x, task)
    loss = F.cross_entropy(out, meshflow.from_numpy(rng.integers(0, 3, 5))) if task == "cls" else out.pow(2).mean()
    opt.zero_grad(); loss.backward()
    grads.append([None if p.grad is None else round(p.grad.abs().sum().item(), 5) for p in (net.cls.weight, net.reg.weight)])
    opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "grads": grads,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
