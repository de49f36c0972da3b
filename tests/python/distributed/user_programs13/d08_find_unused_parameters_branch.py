import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 10)
        self.cls = nn.Linear(10, 3)
        self.reg = nn.Linear(10, 1)
        self.unused = nn.Linear(10, 10)
    def forward(self, x, task):
        h = F.relu(self.body(x))
        return self.cls(h) if task == "cls" else self.reg(h)

dist.init_process_group("gloo")
rank = dist.get_rank()
net = TwoHeads()
g = np.random.default_rng(5)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(50 + rank)
losses = []
for step in range(4):
    task = "cls" if step % 2 == 0 else "reg"
    x = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32))
    out = model(x, task)
    if task == "cls":
        loss = F.cross_entropy(out, meshflow.from_numpy(rng.integers(0, 3, 4)))
    else:
        loss = F.mse_loss(out.squeeze(1), meshflow.from_numpy(rng.standard_normal(4).astype(np.float32)))
    opt.zero_grad()
    loss.backward()
    losses.append([round(loss.item(), 4), net.cls.weight.grad is None, net.reg.weight.grad is None])
    opt.step()
print("RESULT", rank, json.dumps({"losses": losses, "unused_grad": net.unused.weight.grad is None,
                                  "cls": round(net.cls.weight.sum().item(), 4), "reg": round(net.reg.weight.sum().item(), 4),
                                  "body": round(net.body.weight.sum().item(), 4)}))
dist.destroy_process_group()
