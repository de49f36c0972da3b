import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
t = meshflow.arange(3, dtype=meshflow.float32) + 10 * rank
gl = [meshflow.zeros(3) for _ in range(world)] if rank == 0 else None
dist.gather(t, gather_list=gl, dst=0)
out = meshflow.zeros(2)
sl = [meshflow.full((2,), float(i + 1)) * 3 for i in range(world)] if rank == 1 else None
dist.scatter(out, scatter_list=sl, src=1)
objs = [None] * world
dist.all_gather_object(objs, {"rank": rank, "name": f"worker{rank}", "vals": [rank] * (rank + 1)})
gathered = [meshflow.zeros(2, dtype=meshflow.int64) for _ in range(world)]
dist.all_gather(gathered, meshflow.tensor([rank, rank * rank + 1]))
obj_out = [None] * world if rank == 0 else None
dist.gather_object({"loss": 0.5 + rank}, obj_out, dst=0)
scat = [None]
dist.scatter_object_list(scat, [{"shard": i} for i in range(world)] if rank == 0 else None, src=0)
print("RESULT", rank, json.dumps({"gather": [x.tolist() for x in gl] if gl else None, "scatter": out.tolist(),
                                  "objs": objs, "ag": [x.tolist() for x in gathered], "gobj": obj_out, "scat": scat[0]}))
dist.destroy_process_group()
