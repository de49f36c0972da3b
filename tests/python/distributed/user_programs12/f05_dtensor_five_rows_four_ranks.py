import json, numpy as np, meshflow, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, Shard, Replicate
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
full = meshflow.arange(15, dtype=meshflow.float32).reshape(5, 3)
d = distribute_tensor(full, mesh, [Shard(0)])
c = distribute_tensor(full, mesh, [Shard(1)])
w = distribute_tensor(meshflow.ones(3, 2), mesh, [Replicate()])
y = d @ w
print("RESULT", rank, json.dumps({"rows": d.to_local().shape[0], "cols": c.to_local().shape[1], "local": d.to_local().tolist(),
    "y": y.full_tensor().tolist(), "y_local_rows": y.to_local().shape[0] if y.placements[0].is_shard() else -1,
    "moved": list(d.redistribute(mesh, [Shard(1)]).to_local().shape)}))
dist.destroy_process_group()
