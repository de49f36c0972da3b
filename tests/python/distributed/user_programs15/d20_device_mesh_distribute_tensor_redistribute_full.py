import json
import meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, Shard, Replicate

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("tp",))
big = meshflow.arange(30, dtype=meshflow.float32).reshape(5, 6)
rows = distribute_tensor(big, mesh, [Shard(0)])
cols = rows.redistribute(mesh, [Shard(1)])
rep = cols.redistribute(mesh, [Replicate()])
out = {"mesh": list(mesh.shape), "names": list(mesh.mesh_dim_names), "rows_local": rows.to_local().tolist(),
       "cols_local_shape": list(cols.to_local().shape), "rep_sum": rep.to_local().sum().item(),
       "full": rows.full_tensor().sum().item(), "shape": list(rows.shape), "mesh_rank": mesh.get_local_rank(),
       "placements": [type(p).__name__ for p in cols.placements], "dim": cols.placements[0].dim,
       "double": (rows * 2).full_tensor()[4].tolist(), "rowsum": rows.sum(dim=1).full_tensor().tolist()}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
