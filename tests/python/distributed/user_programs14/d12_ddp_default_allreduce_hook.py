import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(5, 16), nn.GELU(), nn.Linear(16, 3))
g = np.random.default_rng(1)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
model.register_comm_hook(state=None, hook=default_hooks.allreduce_hook)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(100 + rank)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((8, 5)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 3, 8))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "w": [round(p.sum().item(), 5) for p in net.parameters()],
                                  "g": round(net[0].weight.grad.abs().sum().item(), 5)}))
dist.destroy_process_group()
