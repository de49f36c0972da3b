import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Linear(2, 1)
with mf.no_grad():
    net.weight.copy_(mf.tensor([[1.0, -1.0]])); net.bias.fill_(0.5)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.3)
rng = np.random.default_rng(26)
X = rng.standard_normal((20, 4, 2)).astype(np.float32)
best, bad, steps = float("inf"), 0, 0
for i in range(20):
    x = mf.from_numpy(X[i, rank * 2:(rank + 1) * 2])
    loss = (model(x) - 0.2).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    steps += 1
    l = loss.detach().clone(); dist.all_reduce(l); l /= world
    stop = mf.zeros(1)
    if rank == 0:
        if l.item() < best - 1e-3:
            best, bad = l.item(), 0
        else:
            bad += 1
        if bad >= 2:
            stop.fill_(1)
    dist.broadcast(stop, src=0)
    if stop.item() == 1:
        break
print("RESULT", rank, json.dumps({"steps": steps, "w": net.weight.tolist()}))
dist.destroy_process_group()
