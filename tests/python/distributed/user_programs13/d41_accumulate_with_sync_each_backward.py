import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
g = np.random.default_rng(41)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2, momentum=0.9, dampening=0.1)
rng = np.random.default_rng(410 + rank)
grads = []
for i in range(6):
    x = meshflow.from_numpy(rng.standard_normal((2, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 2))
    loss = F.cross_entropy(model(x), y) / 2
    loss.backward()
    grads.append(round(net[0].weight.grad.abs().sum().item(), 4))
    if i % 2 == 1:
        opt.step(); opt.zero_grad(set_to_none=False)
print("RESULT", rank, json.dumps({"grads": grads, "zero": net[0].weight.grad.abs().sum().item(), "w": round(net[2].weight.sum().item(), 4)}))
dist.destroy_process_group()
