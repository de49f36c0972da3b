import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.fsdp import fully_shard
mesh = init_device_mesh("cpu", (world,))
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)); init_(net, 20)
for layer in (net[0], net[2]):
    fully_shard(layer, mesh=mesh)
fully_shard(net, mesh=mesh)
opt = meshflow.optim.Adam(net.parameters(), lr=0.01)
rng = np.random.default_rng(200 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
full = {k: round(v.full_tensor().sum().item(), 5) for k, v in net.state_dict().items()}
local_rows = [v.to_local().shape[0] for v in net.state_dict().values()]
print("RESULT", rank, json.dumps({"losses": losses, "full": full, "local_rows": local_rows}))
dist.destroy_process_group()
