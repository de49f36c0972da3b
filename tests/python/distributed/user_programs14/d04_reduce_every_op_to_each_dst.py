import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
out = {}
base = meshflow.tensor([2.0, -3.0, 0.5]) if rank == 0 else meshflow.tensor([4.0, 1.0, -2.0])
for name, op in [("sum", dist.ReduceOp.SUM), ("max", dist.ReduceOp.MAX), ("min", dist.ReduceOp.MIN),
                 ("prod", dist.ReduceOp.PRODUCT)]:
    for dst in range(world):
        t = base.clone()
        dist.reduce(t, dst=dst, op=op)
        out[f"{name}{dst}"] = t.tolist() if rank == dst else "n/a"
    a = base.clone()
    dist.all_reduce(a, op=op)
    out[f"all_{name}"] = a.tolist()
i = meshflow.tensor([3, 5], dtype=meshflow.int64) * (rank + 1)
dist.all_reduce(i, op=dist.ReduceOp.PRODUCT)
out["iprod"] = i.tolist()
avg = base.clone()
try:
    dist.all_reduce(avg, op=dist.ReduceOp.AVG)
    out["avg"] = avg.tolist()
except (RuntimeError, ValueError) as e:
    out["avg"] = "refused"
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
