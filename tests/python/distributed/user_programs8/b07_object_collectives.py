import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
cfg = [{"lr": 0.1, "layers": [4, 8]}, "adam", None] if rank == 0 else [None, None, None]
dist.broadcast_object_list(cfg, src=0)
objs = [None] * world
dist.all_gather_object(objs, {"rank": rank, "name": f"worker{rank}", "vals": list(range(rank + 1))})
g = [None] * world if rank == 0 else None
dist.gather_object((rank, "x" * (rank + 1)), g, dst=0)
out = [None]
dist.scatter_object_list(out, [{"shard": i} for i in range(world)] if rank == 1 else None, src=1)
print("RESULT", rank, json.dumps({"cfg": cfg, "objs": objs, "g": g, "scat": out[0]}))
dist.destroy_process_group()
