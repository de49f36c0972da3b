import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
flat = meshflow.zeros(10)
gathered = flat[:6]                      # a view the gather writes into
dist.all_gather_into_tensor(gathered, meshflow.tensor([1.0, 2.0, 3.0]) * (rank + 1))
shard = flat[6:8]
dist.reduce_scatter_tensor(shard, meshflow.arange(4.0) + rank)
tail = flat[8:]
dist.broadcast(tail, src=1) if rank == 0 else dist.broadcast(tail.fill_(9.0), src=1)
grid = meshflow.zeros(2, 4)
col = grid[:, 1]                          # not contiguous: all_reduce a copy, write it back
c = col.contiguous() + rank + 1
dist.all_reduce(c)
col.copy_(c)
print("RESULT", rank, json.dumps({"flat": flat.tolist(), "grid": grid.tolist()}))
dist.destroy_process_group()
