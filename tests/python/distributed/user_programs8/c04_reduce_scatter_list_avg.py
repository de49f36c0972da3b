import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
res = {}
try:
    out = mf.zeros(2)
    dist.reduce_scatter(out, [mf.tensor([1.0, 2.0]) * (rank + 1), mf.tensor([3.0, 4.0]) * (rank + 1)])
    res["rs"] = out.tolist()
except Exception as e:
    res["rs"] = "unsupported"
t = mf.tensor([float(rank + 1), 2.0 * rank])
try:
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    res["avg"] = t.tolist()
except Exception:
    res["avg"] = "unsupported"
b = mf.tensor([rank * 3 + 1], dtype=mf.int32)
dist.all_reduce(b, op=dist.ReduceOp.MAX)
res["imax"] = b.tolist()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
