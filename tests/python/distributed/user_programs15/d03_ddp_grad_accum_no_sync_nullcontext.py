import contextlib, json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 2))
g = np.random.default_rng(3)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
accum = 4
rng = np.random.default_rng(30 + rank)
log, grads_seen = [], []
opt.zero_grad()
for i in range(8):
    x = meshflow.tensor(rng.standard_normal((3, 5)).astype(np.float32))
    y = meshflow.tensor(rng.standard_normal((3, 2)).astype(np.float32))
    last = (i + 1) % accum == 0
    ctx = model.no_sync() if not last else contextlib.nullcontext()
    with ctx:
        loss = F.mse_loss(model(x), y) / accum
        loss.backward()
    grads_seen.append(round(net[0].weight.grad.sum().item(), 5))
    if last:
        opt.step()
        opt.zero_grad()
        log.append(round(net[2].weight.sum().item(), 5))
print("RESULT", rank, json.dumps({"log": log, "grads": grads_seen}))
dist.destroy_process_group()
