import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
stats = {"rank": rank, "loss": 0.5 + rank, "hist": [rank] * (rank + 1)}
got = [None] * world if rank == 1 else None
dist.gather_object(stats, got, dst=1)
recv = [None]
dist.scatter_object_list(recv, [{"shard": i, "files": [f"f{i}{j}" for j in range(i + 2)]} for i in range(world)]
                         if rank == 0 else None, src=0)
allobj = [None] * world
dist.all_gather_object(allobj, (rank, "x" * rank, {"t": rank * 1.5}))
lst = ["cfg", {"a": 1}, [1, 2, 3]] if rank == 0 else [None, None, None]
dist.broadcast_object_list(lst, src=0)
print("RESULT", rank, json.dumps({"got": got, "recv": recv[0], "all": [[a, b, c] for a, b, c in allobj], "lst": lst}))
dist.destroy_process_group()
