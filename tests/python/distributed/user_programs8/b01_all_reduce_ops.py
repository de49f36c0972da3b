import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
res = {}
for name, op in [("sum", dist.ReduceOp.SUM), ("max", dist.ReduceOp.MAX), ("min", dist.ReduceOp.MIN), ("prod", dist.ReduceOp.PRODUCT)]:
    t = mf.tensor([1.5, -2.0, 3.0]) * (rank + 1) + rank
    dist.all_reduce(t, op=op)
    res[name] = t.tolist()
    i = mf.arange(4, dtype=mf.int64) * (rank + 2)
    dist.all_reduce(i, op=op)
    res[name + "_int"] = i.tolist()
b = mf.tensor([rank == 0, True])
dist.all_reduce(b.to(mf.int32), op=dist.ReduceOp.MIN)
m = mf.ones(2, 3) * rank
dist.all_reduce(m)
m /= world
res["mean_2d"] = m.tolist()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
