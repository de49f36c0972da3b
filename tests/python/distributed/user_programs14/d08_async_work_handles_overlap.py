import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
tensors = [meshflow.full((3,), float(i + rank)) for i in range(4)]
works = [dist.all_reduce(t, async_op=True) for t in tensors]
local = (meshflow.arange(3.0) * rank).sum().item()  # work overlapped with the communication
for w in works:
    w.wait()
b = meshflow.tensor([rank * 1.5 + 1])
wb = dist.broadcast(b, src=1, async_op=True)
gl = [meshflow.zeros(2) for _ in range(world)]
wg = dist.all_gather(gl, meshflow.tensor([rank, -rank], dtype=meshflow.float32), async_op=True)
wb.wait(); wg.wait()
wk = dist.barrier(async_op=True)
wk.wait()
print("RESULT", rank, json.dumps({"t": [t.tolist() for t in tensors], "local": local, "b": b.tolist(),
                                  "gl": [g.tolist() for g in gl], "done": [w.is_completed() for w in works]}))
dist.destroy_process_group()
