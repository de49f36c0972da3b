# FSDP2 as torch writes it: fully_shard per layer and at the root, each rank its own batch.
# TOL 1e-3
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

model = det(nn.Sequential(nn.Linear(6, 10), nn.Tanh(), nn.Linear(10, 3)), seed=1, scale=0.3)
if not dist.is_initialized():
    dist.init_process_group("gloo")
world, rank = dist.get_world_size(), dist.get_rank()
mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("dp",))
rs = np.random.RandomState(11)
for layer in (model[0], model[2]):
    fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for step in range(3):
    x = torch.from_numpy(rs.standard_normal((4 * world, 6)).astype(np.float32))[4 * rank:4 * rank + 4]
    y = torch.from_numpy(rs.standard_normal((4 * world, 3)).astype(np.float32))[4 * rank:4 * rank + 4]
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, placements=[str(p.placements) for p in model.parameters()],
       local_shapes=[list(p.to_local().shape) for p in model.parameters()],
       full=[p.full_tensor() for p in model.parameters()])
