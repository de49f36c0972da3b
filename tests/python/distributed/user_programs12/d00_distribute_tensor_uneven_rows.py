import json, numpy as np, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, Shard, Replicate
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
meshflow.manual_seed(0)
full = meshflow.arange(35, dtype=meshflow.float32).reshape(5, 7) / 10
rows = distribute_tensor(full, mesh, [Shard(0)])
cols = distribute_tensor(full, mesh, [Shard(1)])
rep = distribute_tensor(full, mesh, [Replicate()])
out = {
    "rows_local": list(rows.to_local().shape), "cols_local": list(cols.to_local().shape),
    "rows_sum": round(rows.to_local().sum().item(), 4), "cols_first": cols.to_local()[0].tolist(),
    "rep_local": list(rep.to_local().shape), "shape": list(rows.shape),
    "placements": [str(rows.placements), str(cols.placements), str(rep.placements)],
    "full_equal": bool(meshflow.equal(rows.full_tensor(), full)),
}
moved = rows.redistribute(mesh, [Shard(1)])
out["moved_local"] = list(moved.to_local().shape)
out["moved_sum"] = round(moved.to_local().sum().item(), 4)
back = moved.redistribute(mesh, [Replicate()])
out["back_equal"] = bool(meshflow.equal(back.to_local(), full))
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
