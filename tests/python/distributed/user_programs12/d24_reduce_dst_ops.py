import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
a = meshflow.tensor([1.0, 2.0, 3.0]) * (rank + 1)
dist.reduce(a, dst=1, op=dist.ReduceOp.SUM)
b = meshflow.tensor([float(rank), 5.0 - rank])
dist.reduce(b, dst=0, op=dist.ReduceOp.MAX)
c = meshflow.tensor([rank + 2, 3], dtype=meshflow.int64)
dist.reduce(c, dst=1, op=dist.ReduceOp.PRODUCT)
d = meshflow.tensor([float(rank + 1)])
work = dist.reduce(d, dst=0, op=dist.ReduceOp.MIN, async_op=True)
work.wait()
out = {}
if rank == 1:
    out = {"a": a.tolist(), "c": c.tolist()}
if rank == 0:
    out = {"b": b.tolist(), "d": d.tolist()}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
