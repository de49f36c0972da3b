import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
tp_mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("tp",))
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 8)
        self.head = nn.Linear(8, 3)
    def forward(self, x):
        return self.head(self.down(F.gelu(self.up(x))))
meshflow.manual_seed(0)
model = MLP()
g = np.random.default_rng(5)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = parallelize_module(model, tp_mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(7)  # same data on every rank: tensor parallelism
losses = []
for step in range(4):
    x = meshflow.from_numpy(rng.standard_normal((6, 8)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 3, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
from meshflow.distributed.tensor import DTensor
sums = {n: round((p.full_tensor() if isinstance(p, DTensor) else p).sum().item(), 4) for n, p in model.named_parameters()}
print("RESULT", rank, json.dumps({"losses": losses, "sums": sums,
                                  "dtensors": [isinstance(p, DTensor) for p in model.parameters()],
                                  "up_local": list(model.up.weight.to_local().shape),
                                  "down_local": list(model.down.weight.to_local().shape)}))
dist.destroy_process_group()
