import json, numpy as np, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, DTensor, Shard, Replicate
import meshflow.distributed.tensor as dt
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
rng = np.random.default_rng(32)
a = meshflow.from_numpy(rng.standard_normal((3, 4, 6)).astype(np.float32))
d = distribute_tensor(a, mesh, [Shard(2)])
e = d.redistribute(mesh, [Shard(0)])
z = dt.zeros(4, 6, device_mesh=mesh, placements=[Shard(1)])
o = dt.ones((5, 2), device_mesh=mesh, placements=[Shard(0)])
f = dt.full((2, 4), 1.5, device_mesh=mesh, placements=[Replicate()])
h = (d * 2 - 1).to(meshflow.float64)
c = d.detach().clone()
c.requires_grad_(True)
out = {
    "e_local": list(e.to_local().shape), "e_sum": round(e.to_local().sum().item(), 4),
    "z": [list(z.to_local().shape), z.to_local().sum().item()], "o": [list(o.to_local().shape), o.full_tensor().sum().item()],
    "f": f.to_local().tolist(), "h_dtype": str(h.dtype), "h_sum": round(h.full_tensor().sum().item(), 4),
    "c": [c.requires_grad, c.is_leaf, str(c.placements)], "numel": d.numel(), "size": list(d.size()), "ndim": d.ndim,
    "mean_dim": [round(v, 4) for v in d.mean(dim=(0, 1)).full_tensor().tolist()],
    "cat": list(meshflow.cat([d, d], dim=1).shape), "max": round(d.max().full_tensor().item(), 4),
}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
