import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
full = meshflow.tensor([1.0, -2.0, 3.0, 4.0]) * (rank + 1) - rank
out = {}
for name, op in [("sum", dist.ReduceOp.SUM), ("max", dist.ReduceOp.MAX), ("min", dist.ReduceOp.MIN),
                 ("avg", dist.ReduceOp.AVG), ("prod", dist.ReduceOp.PRODUCT)]:
    shard = meshflow.empty(2)
    try:
        dist.reduce_scatter_tensor(shard, full.clone(), op=op)
        out[name] = shard.tolist()
    except (RuntimeError, ValueError):
        out[name] = "refused"
t = full.clone()
dist.reduce(t, dst=0, op=dist.ReduceOp.SUM)
out["reduce0"] = t.tolist() if rank == 0 else None
counts = meshflow.tensor([3 + rank, 1], dtype=meshflow.int32)
dist.all_reduce(counts, op=dist.ReduceOp.MAX)
out["counts"] = counts.tolist()
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
