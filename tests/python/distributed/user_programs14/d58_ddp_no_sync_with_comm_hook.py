import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 1))
g = np.random.default_rng(33)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
model.register_comm_hook(None, default_hooks.allreduce_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(3300 + rank)
losses = []
for step in range(6):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((3, 1)).astype(np.float32))
    if step % 3 != 2:
        with model.no_sync():
            loss = F.mse_loss(model(x), y) / 3; loss.backward()
    else:
        loss = F.mse_loss(model(x), y) / 3; loss.backward()
        opt.step(); opt.zero_grad()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
