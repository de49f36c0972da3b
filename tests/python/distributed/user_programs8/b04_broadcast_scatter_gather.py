import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
t = mf.full((3,), float(rank + 7))
dist.broadcast(t, src=1)
s = mf.zeros(2)
if rank == 0:
    dist.scatter(s, scatter_list=[mf.tensor([1.0, 2.0]), mf.tensor([3.0, 4.0])], src=0)
else:
    dist.scatter(s, src=0)
g = mf.tensor([rank * 1.5, rank + 0.25])
if rank == 1:
    bucket = [mf.zeros(2) for _ in range(world)]
    dist.gather(g, gather_list=bucket, dst=1)
    gathered = [b.tolist() for b in bucket]
else:
    dist.gather(g, dst=1)
    gathered = None
r = mf.tensor([float(rank + 1), 5.0 - rank])
dist.reduce(r, dst=0, op=dist.ReduceOp.MAX)
print("RESULT", rank, json.dumps({"b": t.tolist(), "s": s.tolist(), "g": gathered, "r": r.tolist() if rank == 0 else None}))
dist.destroy_process_group()
