import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))
g = np.random.default_rng(32)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = meshflow.optim.RMSprop(model.parameters(), lr=0.01)
rng = np.random.default_rng(320 + rank)
running = meshflow.zeros(2, dtype=meshflow.float64)
logs = []
for step in range(1, 7):
    x = meshflow.tensor(rng.uniform(-1, 1, (5, 2)).astype(np.float32))
    loss = F.mse_loss(model(x), (x[:, :1] * x[:, 1:]))
    opt.zero_grad(); loss.backward(); opt.step()
    running += meshflow.tensor([loss.item() * x.shape[0], x.shape[0]], dtype=meshflow.float64)
    if step % 3 == 0:
        dist.all_reduce(running)
        logs.append(round((running[0] / running[1]).item(), 6))
        running.zero_()
print("RESULT", rank, json.dumps({"logs": logs}))
dist.destroy_process_group()
