import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
out = [None]
dist.scatter_object_list(out, [meshflow.arange(i + 2) for i in range(world)] if rank == 1 else None, src=1)
t = meshflow.tensor([rank * 3, rank * 3 + 1], dtype=meshflow.int64)
gl = [meshflow.zeros(2, dtype=meshflow.int64) for _ in range(world)] if rank == 1 else None
dist.gather(t, gl, dst=1)
red = meshflow.tensor([2.0 + rank])
dist.reduce(red, dst=1, op=dist.ReduceOp.PRODUCT)
print("RESULT", rank, json.dumps({"out": out[0].tolist(), "gl": [x.tolist() for x in gl] if gl else None,
                                  "red": red.tolist() if rank == 1 else None}))
dist.destroy_process_group()
