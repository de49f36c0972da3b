import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
out = {}
for dt in (meshflow.float16, meshflow.bfloat16, meshflow.int8, meshflow.uint8, meshflow.int32, meshflow.float64):
    t = (meshflow.arange(4) + rank * 3).to(dt)
    dist.all_reduce(t)
    m = (meshflow.arange(4) * (rank + 1)).to(dt)
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    b = (meshflow.ones(2) * (rank + 7)).to(dt)
    dist.broadcast(b, src=1)
    gl = [meshflow.zeros(2, dtype=dt) for _ in range(world)]
    dist.all_gather(gl, meshflow.full((2,), rank + 1).to(dt))
    out[str(dt)] = [t.tolist(), m.tolist(), b.tolist(), [g.tolist() for g in gl], str(t.dtype)]
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
