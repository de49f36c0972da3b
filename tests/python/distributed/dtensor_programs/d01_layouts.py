# DTensor layouts as torch writes them: local parts (torch.chunk's), full_tensor,
# redistribute between placements, Partial -> Replicate, the placements of op results.
import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

if not dist.is_initialized():
    dist.init_process_group("gloo")
world, rank = dist.get_world_size(), dist.get_rank()
mesh = init_device_mesh("cpu", (world,))
x = torch.from_numpy(np.arange(35, dtype=np.float32).reshape(5, 7))
out = {}
for name, place in [("s0", Shard(0)), ("s1", Shard(1)), ("r", Replicate())]:
    d = distribute_tensor(x, mesh, [place])
    out[name] = d.to_local()
    out[name + "_placements"] = str(d.placements)
    out[name + "_full"] = d.full_tensor()
    for to_name, to in [("s0", Shard(0)), ("s1", Shard(1)), ("r", Replicate())]:
        out[f"{name}_to_{to_name}"] = d.redistribute(mesh, [to]).to_local()
    back = DTensor.from_local(d.to_local(), mesh, [place], shape=x.shape, stride=x.stride())
    out[name + "_back"] = back.full_tensor()
out["s0_to_p"] = distribute_tensor(x, mesh, [Shard(0)]).redistribute(mesh, [Partial()]).full_tensor()
out["s0_to_p_local"] = distribute_tensor(x[:4], mesh, [Shard(0)]).redistribute(mesh, [Partial()]).to_local()
p = DTensor.from_local(torch.full((2, 3), float(rank + 1)), mesh, [Partial()])
out["p_to_r"] = p.redistribute(mesh, [Replicate()]).to_local()
out["p_to_s0"] = p.redistribute(mesh, [Shard(0)]).to_local()
w = torch.from_numpy(np.linspace(-1, 1, 21, dtype=np.float32).reshape(7, 3))
a = distribute_tensor(x, mesh, [Shard(0)])
y = a @ distribute_tensor(w, mesh, [Replicate()])
out["mm_placements"] = str(y.placements)
# (an op's result takes meshflow's balanced parts: its local part is torch's on even sizes)
out["mm"] = (distribute_tensor(x[:4], mesh, [Shard(0)]) @ distribute_tensor(w, mesh, [Replicate()])).to_local()
out["mm_full"] = y.full_tensor()
z = distribute_tensor(x, mesh, [Shard(1)]) @ distribute_tensor(w, mesh, [Shard(0)])
out["mm_partial_full"] = z.full_tensor()
out["relu_sum_placements"] = str(torch.relu(a - 10).sum(dim=1).placements)
if world == 4:
    mesh2 = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    out["tp_ranks"] = mesh2["tp"].mesh.tolist()
    for name, places in [("s0s1", [Shard(0), Shard(1)]), ("rs0", [Replicate(), Shard(0)]),
                         ("s0s0", [Shard(0), Shard(0)]), ("s1r", [Shard(1), Replicate()])]:
        d = distribute_tensor(x, mesh2, places)
        out["2d_" + name] = d.to_local()
        out["2d_" + name + "_full"] = d.full_tensor()
        out["2d_" + name + "_to_s1s0"] = d.redistribute(mesh2, [Shard(1), Shard(0)]).to_local()
report(**out)
