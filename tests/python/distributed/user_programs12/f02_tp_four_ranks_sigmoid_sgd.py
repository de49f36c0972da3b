import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
net = nn.Sequential(nn.Linear(5, 12), nn.Sigmoid(), nn.Linear(12, 3))
g = np.random.default_rng(61)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
parallelize_module(net, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
opt = meshflow.optim.SGD(net.parameters(), lr=0.3)
rng = np.random.default_rng(62)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((6, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 6))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "local": list(net[0].weight.to_local().shape),
    "local2": list(net[2].weight.to_local().shape), "w": round(net[2].weight.full_tensor().sum().item(), 5)}))
dist.destroy_process_group()
