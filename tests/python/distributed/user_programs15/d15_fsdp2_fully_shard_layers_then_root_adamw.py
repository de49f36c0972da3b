import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("dp",))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(6, 6) for _ in range(3)])
        self.out = nn.Linear(6, 2)

    def forward(self, x):
        for l in self.layers:
            x = F.relu(l(x)) + x
        return self.out(x)


model = MLP()
g = np.random.default_rng(15)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
for layer in model.layers:
    fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
opt = meshflow.optim.AdamW(model.parameters(), lr=0.01)
rng = np.random.default_rng(150 + rank)
losses = []
for _ in range(3):
    x = meshflow.tensor(rng.standard_normal((4, 6)).astype(np.float32))
    y = meshflow.tensor(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step(); opt.zero_grad()
    losses.append(round(loss.item(), 5))
w = model.layers[0].weight
print("RESULT", rank, json.dumps({"losses": losses, "local_shape": list(w.to_local().shape), "shape": list(w.shape),
                                  "full": round(w.full_tensor().sum().item(), 5),
                                  "placements": [type(p).__name__ for p in w.placements]}))
dist.destroy_process_group()
