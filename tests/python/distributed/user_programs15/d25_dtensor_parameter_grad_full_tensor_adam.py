import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, Shard, Replicate

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
w0 = meshflow.tensor(np.random.default_rng(25).standard_normal((4, 3)).astype(np.float32))
w = nn.Parameter(distribute_tensor(w0, mesh, [Shard(0)]))
b = nn.Parameter(distribute_tensor(meshflow.zeros(3), mesh, [Replicate()]))
opt = meshflow.optim.Adam([w, b], lr=0.1)
x = distribute_tensor(meshflow.tensor(np.random.default_rng(26).standard_normal((2, 4)).astype(np.float32)), mesh,
                      [Replicate()])
losses = []
for _ in range(3):
    y = x @ w + b
    loss = (y ** 2).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.full_tensor().item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "grad_type": type(w.grad).__name__,
                                  "grad_full": [round(v, 4) for v in w.grad.full_tensor().sum(0).tolist()],
                                  "w": round(w.full_tensor().sum().item(), 4), "b": [round(v, 4) for v in b.full_tensor().tolist()]}))
dist.destroy_process_group()
