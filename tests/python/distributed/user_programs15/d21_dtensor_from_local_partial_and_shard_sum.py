import json
import meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, Shard, Replicate, Partial

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
local = meshflow.full((2, 3), float(rank + 1))
part = DTensor.from_local(local, mesh, [Partial()])
summed = part.redistribute(mesh, [Replicate()])
scattered = part.redistribute(mesh, [Shard(0)])
stacked = DTensor.from_local(local * 10, mesh, [Shard(0)])
out = {"summed": summed.to_local().tolist(), "scat": scattered.to_local().tolist(),
       "stacked_shape": list(stacked.shape), "stacked_full": stacked.full_tensor().tolist(),
       "mean": stacked.mean().full_tensor().item(), "rep_local": DTensor.from_local(local, mesh, [Replicate()]).to_local().tolist()}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
