import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
t = meshflow.tensor([1.0, 2.0]) * (rank + 1)
work = dist.all_reduce(t, async_op=True)
ok = work.wait()
res = work.result()
fut = dist.all_reduce(meshflow.tensor([float(rank)]), async_op=True).get_future()
val = fut.wait()
chained = dist.all_reduce(meshflow.ones(2) * rank, async_op=True).get_future().then(lambda f: f.value()[0] * 10)
print("RESULT", rank, json.dumps({"t": t.tolist(), "ok": ok, "res": [r.tolist() for r in res],
                                  "val": [v.tolist() for v in val], "chained": chained.wait().tolist(),
                                  "done": fut.done()}))
dist.destroy_process_group()
