import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard, FSDPModule

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
g = np.random.default_rng(33)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
fully_shard(model[0], mesh=mesh, reshard_after_forward=False)
fully_shard(model, mesh=mesh)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(330 + rank)
losses = []
for step in range(4):
    last = step % 2 == 1
    model.set_requires_gradient_sync(last)
    x = meshflow.tensor(rng.standard_normal((3, 4)).astype(np.float32))
    loss = F.mse_loss(model(x), x[:, :2]) / 2
    loss.backward()
    if last:
        opt.step(); opt.zero_grad()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "is_fsdp": isinstance(model, FSDPModule),
                                  "w": round(model[2].weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
