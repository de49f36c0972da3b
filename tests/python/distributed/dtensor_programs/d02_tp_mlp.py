# Tensor parallelism as torch writes it: a colwise then rowwise MLP trained with SGD.
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

if not dist.is_initialized():
    dist.init_process_group("gloo")
world, rank = dist.get_world_size(), dist.get_rank()
mesh = init_device_mesh("cpu", (world,))
model = det(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 5)), seed=0, scale=0.3)
rs = np.random.RandomState(10)
parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
losses = []
for step in range(3):
    x = torch.from_numpy(rs.standard_normal((4, 6)).astype(np.float32))
    y = torch.from_numpy(rs.standard_normal((4, 5)).astype(np.float32))
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
state = model.state_dict()
report(losses=losses, keys=list(state), local_shapes=[list(v.to_local().shape) for v in state.values()],
       placements=[str(v.placements) for v in state.values()],
       full={k: v.full_tensor() for k, v in state.items()})
