import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
metrics = {"loss": meshflow.tensor(0.5 + rank), "acc": meshflow.tensor(0.25 * (rank + 1)), "n": meshflow.tensor(10.0 + rank)}
names = sorted(metrics)
stacked = meshflow.stack([metrics[k] for k in names])
dist.all_reduce(stacked)
avg = {k: round(v.item() / world, 5) for k, v in zip(names, stacked)}
works = []
ts = [meshflow.tensor([float(rank)]), meshflow.tensor([rank * 2.0, 1.0])]
for t in ts:
    works.append(dist.all_reduce(t, op=dist.ReduceOp.MAX, async_op=True))
meshflow.futures.wait_all([w.get_future() for w in works])
print("RESULT", rank, json.dumps({"avg": avg, "ts": [t.tolist() for t in ts]}))
dist.destroy_process_group()
