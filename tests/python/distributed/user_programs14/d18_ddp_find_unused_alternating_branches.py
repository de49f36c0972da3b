import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(4, 8)
        self.a = nn.Linear(8, 2)
        self.b = nn.Linear(8, 2)
        self.aux = nn.Linear(8, 5)  # never used
    def forward(self, x, use_a):
        h = F.relu(self.stem(x))
        return self.a(h) if use_a else self.b(h)
net = Branchy()
g = np.random.default_rng(6)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(700 + rank)
losses, grads_none = [], []
for step in range(5):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 4))
    opt.zero_grad()
    loss = F.cross_entropy(model(x, use_a=step % 2 == 0), y)
    loss.backward()
    grads_none.append([net.a.weight.grad is None, net.b.weight.grad is None, net.aux.weight.grad is None])
    opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "none": grads_none,
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
