# Megatron-style attention as torch's tutorials parallelize it: q, k, v colwise (each rank
# its heads), o rowwise; the heads per rank come from the local width. On 4 ranks also a
# 2 x 2 mesh, tensor-parallel over "tp" with each "dp" row its own batch (forward).
# TOL 1e-3
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

if not dist.is_initialized():
    dist.init_process_group("gloo")
world, rank = dist.get_world_size(), dist.get_rank()


class Attention(nn.Module):
    def __init__(self, dim=8, heads=4):
        super().__init__()
        self.head_dim = dim // heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = self.q(x), self.k(x), self.v(x)
        heads = q.shape[-1] // self.head_dim
        q, k, v = (t.view(b, s, heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        a = torch.softmax(q @ k.transpose(-2, -1) / self.head_dim ** 0.5, dim=-1) @ v
        return self.o(a.transpose(1, 2).reshape(b, s, heads * self.head_dim))


plan = {"q": ColwiseParallel(), "k": ColwiseParallel(), "v": ColwiseParallel(), "o": RowwiseParallel()}
model = parallelize_module(det(Attention(), seed=0, scale=0.3), init_device_mesh("cpu", (world,)), plan)
x = torch.from_numpy(np.random.RandomState(5).standard_normal((2, 3, 8)).astype(np.float32))
out = model(x)
out.pow(2).sum().backward()
result = {"out": out, "q_local": list(model.q.weight.to_local().shape),
          "grads": {n: p.grad.full_tensor() for n, p in model.named_parameters()}}
if world == 4:
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    model2 = parallelize_module(det(Attention(), seed=1, scale=0.3), mesh["tp"], dict(plan))
    row = mesh.get_coordinate()[0]
    x2 = torch.from_numpy(np.random.RandomState(10 + row).standard_normal((2, 3, 8)).astype(np.float32))
    result["out_2d"] = model2(x2)
report(**result)
