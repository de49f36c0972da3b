import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.algorithms.ddp_comm_hooks import default_hooks as default

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
g = np.random.default_rng(2)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
model.register_comm_hook(dist.group.WORLD, default.fp16_compress_hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(200 + rank)
losses = []
for _ in range(5):
    x = meshflow.from_numpy(rng.standard_normal((6, 6)).astype(np.float32))
    y = meshflow.from_numpy(rng.standard_normal((6, 1)).astype(np.float32))
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "w": [round(p.sum().item(), 3) for p in net.parameters()],
                                  "gdtype": str(net[0].weight.grad.dtype)}))
dist.destroy_process_group()
