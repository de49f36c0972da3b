import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import Replicate
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
class Rec(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(13, 6)
        self.users = nn.Embedding(5, 6)
        self.mlp = nn.Linear(12, 1)
    def forward(self, u, i):
        return self.mlp(meshflow.cat([self.users(u), self.items(i)], -1)).squeeze(-1)
net = Rec()
g = np.random.default_rng(31)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
parallelize_module(net, mesh, {"items": RowwiseParallel(input_layouts=Replicate()),
                               "users": ColwiseParallel(output_layouts=Replicate())})
opt = meshflow.optim.Adagrad(net.parameters(), lr=0.1)
rng = np.random.default_rng(32)
losses = []
for _ in range(4):
    u = meshflow.from_numpy(rng.integers(0, 5, 8)); i = meshflow.from_numpy(rng.integers(0, 13, 8))
    y = meshflow.from_numpy(rng.random(8).astype(np.float32))
    loss = F.binary_cross_entropy_with_logits(net(u, i), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses,
    "items_local": list(net.items.weight.to_local().shape), "users_local": list(net.users.weight.to_local().shape),
    "items": round(net.items.weight.full_tensor().sum().item(), 4), "users": round(net.users.weight.full_tensor().sum().item(), 4)}))
dist.destroy_process_group()
