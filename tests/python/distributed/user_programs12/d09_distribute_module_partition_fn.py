import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_module, distribute_tensor, DTensor, Shard, Replicate
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
g = np.random.default_rng(13)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
def shard_linear(name, module, device_mesh):
    if isinstance(module, nn.Linear):
        for pname, param in list(module.named_parameters()):
            module.register_parameter(pname, nn.Parameter(distribute_tensor(param, device_mesh, [Shard(0)])))
def inputs(module, args, device_mesh):
    return tuple(DTensor.from_local(a, device_mesh, [Replicate()]) if not isinstance(a, DTensor) else a for a in args)
def outputs(module, out, device_mesh):
    return out.redistribute(device_mesh, [Replicate()]).to_local()
net = distribute_module(net, mesh, shard_linear, inputs, outputs)
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(14)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))
    y = net(x)
    loss = ((y - 1.0) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "y_type": type(y).__name__,
    "placements": [str(p.placements) for p in net.parameters()],
    "locals": [list(p.to_local().shape) for p in net.parameters()],
    "sums": [round(p.full_tensor().sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
