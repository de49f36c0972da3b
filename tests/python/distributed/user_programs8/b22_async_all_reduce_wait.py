import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ts = [mf.arange(3, dtype=mf.float32) * (rank + 1) + i for i in range(3)]
works = [dist.all_reduce(t, async_op=True) for t in ts]
for w in works:
    w.wait()
b = mf.tensor([rank * 2.0])
wb = dist.broadcast(b, src=1, async_op=True)
wb.wait()
out = [mf.zeros(2) for _ in range(world)]
wg = dist.all_gather(out, mf.tensor([rank, -rank], dtype=mf.float32), async_op=True)
wg.wait()
wbar = dist.barrier(async_op=True)
wbar.wait()
print("RESULT", rank, json.dumps({"ts": [t.tolist() for t in ts], "b": b.tolist(), "g": [o.tolist() for o in out], "done": works[0].is_completed()}))
dist.destroy_process_group()
