import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
buf = meshflow.arange(12, dtype=meshflow.float32).view(4, 3) * (rank + 1)
dist.all_reduce(buf[1:3])           # rows 1..2 only, a view
dist.all_reduce(buf[3], op=dist.ReduceOp.MAX)
flat = meshflow.zeros(6)
a, b = flat[:2], flat[2:]
a.fill_(rank + 1.0); b.fill_(10.0 * rank)
dist.all_reduce(flat)               # reaches both views
grads = [meshflow.ones(2, 2) * (rank + 1), meshflow.full((3,), 2.0 * rank)]
packed = meshflow.cat([g.flatten() for g in grads])
dist.all_reduce(packed)
packed /= world
off = 0
for g in grads:
    g.copy_(packed[off:off + g.numel()].view_as(g)); off += g.numel()
print("RESULT", rank, json.dumps({"buf": buf.tolist(), "a": a.tolist(), "b": b.tolist(),
                                  "grads": [g.tolist() for g in grads]}))
dist.destroy_process_group()
