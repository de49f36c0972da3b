import json, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, Shard, Replicate, Partial
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
local = meshflow.full((2, 3), float(rank + 1)) + meshflow.arange(3.0)
p = DTensor.from_local(local, mesh, [Partial()])
r = p.redistribute(mesh, [Replicate()])
s = p.redistribute(mesh, [Shard(0)])
sh = DTensor.from_local(local * (rank + 1), mesh, [Shard(0)])
rep = DTensor.from_local(meshflow.ones(3, 2), mesh, [Replicate()], run_check=False)
prod = sh @ rep
print("RESULT", rank, json.dumps({
    "partial_full": p.full_tensor().tolist(), "replicated_local": r.to_local().tolist(),
    "scatter_local": s.to_local().tolist(), "sh_shape": list(sh.shape), "sh_full_sum": sh.full_tensor().sum().item(),
    "prod_placements": str(prod.placements), "prod_local": prod.to_local().tolist(),
    "prod_full": prod.full_tensor().tolist(),
    "sum_full": (sh * 2 + 1).sum().full_tensor().item(),
}))
dist.destroy_process_group()
