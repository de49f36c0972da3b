import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(6, 8)
        self.down = nn.Linear(8, 6)

    def forward(self, x):
        return self.down(F.relu(self.up(x)))


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
model = MLP()
g = np.random.default_rng(22)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
model = parallelize_module(model, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(220)  # the same batch on every rank: tensor parallelism
losses = []
for _ in range(3):
    x = meshflow.tensor(rng.standard_normal((4, 6)).astype(np.float32))
    loss = F.mse_loss(model(x), x * 0.5)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
out = {"losses": losses, "up_local": list(model.up.weight.to_local().shape),
       "down_local": list(model.down.weight.to_local().shape),
       "up_full": round(model.up.weight.full_tensor().sum().item(), 5),
       "down_bias": round(model.down.bias.full_tensor().sum().item(), 5)}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
