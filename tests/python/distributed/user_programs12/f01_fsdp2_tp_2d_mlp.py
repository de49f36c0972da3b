import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
from meshflow.distributed.fsdp import fully_shard
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(8, 16), nn.Linear(16, 8)
    def forward(self, x):
        return x + self.fc2(F.relu(self.fc1(x)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(8, 4)
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)
net = Net()
g = np.random.default_rng(51)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
for b in net.blocks:
    parallelize_module(b, mesh["tp"], {"fc1": ColwiseParallel(), "fc2": RowwiseParallel()})
    fully_shard(b, mesh=mesh["dp"])
fully_shard(net, mesh=mesh["dp"])
opt = meshflow.optim.AdamW(net.parameters(), lr=0.01)
dp = mesh["dp"].get_local_rank()
rng = np.random.default_rng(100 + dp)  # each data-parallel rank its batch, the same within a tp pair
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 4))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
full = {n: round(p.full_tensor().sum().item(), 4) for n, p in net.named_parameters()}
print("RESULT", rank, json.dumps({"losses": losses, "full": full,
    "fc1_local": list(net.blocks[0].fc1.weight.to_local().shape),
    "head_placements": str(net.head.weight.placements)}))
dist.destroy_process_group()
