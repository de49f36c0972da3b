import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
a = meshflow.tensor([float(rank + 1), 1.0])
dist.reduce(a, dst=3)
odd = dist.new_group([1, 3])
b = meshflow.tensor([float(rank)])
if rank in (1, 3):
    dist.reduce(b, dst=3, group=odd, op=dist.ReduceOp.MAX)
objs = [None, None]
if rank == 2:
    objs = [{"from": 2}, [rank] * 3]
dist.broadcast_object_list(objs, src=2)
out = {"objs": objs}
if rank == 3:
    out.update(a=a.tolist(), b=b.tolist())
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
