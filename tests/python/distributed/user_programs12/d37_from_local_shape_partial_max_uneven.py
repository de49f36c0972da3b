import json, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, Shard, Replicate, Partial
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
rows = [3, 2][rank]
local = meshflow.arange(rows * 2, dtype=meshflow.float32).reshape(rows, 2) + 10 * rank
d = DTensor.from_local(local, mesh, [Shard(0)], shape=meshflow.Size([5, 2]), stride=(2, 1))
r = d.redistribute(mesh, [Replicate()])
m = DTensor.from_local(meshflow.tensor([float(rank), 3.0 - rank, 1.0]), mesh, [Partial("max")])
mx = m.full_tensor()
s = DTensor.from_local(meshflow.tensor([1.0, 2.0]) * (rank + 1), mesh, [Partial()])
back = s.redistribute(mesh, [Shard(0)])
print("RESULT", rank, json.dumps({"shape": list(d.shape), "full": r.to_local().tolist(), "max": mx.tolist(),
                                  "back": back.to_local().tolist(), "sum_rows": d.sum(0).full_tensor().tolist()}))
dist.destroy_process_group()
