import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
full = meshflow.arange(8, dtype=meshflow.float32).view(4, 2) * (rank + 1)
shard = meshflow.empty(2, 2)
dist.reduce_scatter_tensor(shard, full)
flat = meshflow.linspace(0, 1, 6) + rank
part = meshflow.zeros(3)
dist.reduce_scatter_tensor(part, flat, op=dist.ReduceOp.SUM)
# the list form
chunks = [meshflow.tensor([1.0, 2.0]) * (rank + 1) * (i + 1) for i in range(world)]
mine = meshflow.zeros(2)
dist.reduce_scatter(mine, chunks)
print("RESULT", rank, json.dumps({"shard": shard.tolist(), "part": [round(v, 5) for v in part.tolist()],
                                  "mine": mine.tolist()}))
dist.destroy_process_group()
