import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
local = meshflow.tensor([[1.0, 2.0, 3.0]]) + rank * 10
flat = meshflow.empty(world, 3)
dist.all_gather_into_tensor(flat, local)
stacked = meshflow.empty(world * 2, 3)
dist.all_gather_into_tensor(stacked, meshflow.cat([local, -local]))
ints = meshflow.tensor([rank, rank * rank, 7], dtype=meshflow.int32)
gathered = meshflow.zeros(world * 3, dtype=meshflow.int32)
dist.all_gather_into_tensor(gathered, ints)
lst = [meshflow.zeros(2, 2) for _ in range(world)]
dist.all_gather(lst, meshflow.eye(2) * (rank + 1))
print("RESULT", rank, json.dumps({"flat": flat.tolist(), "stacked": stacked.tolist(),
                                  "ints": gathered.tolist(), "dtype": str(gathered.dtype),
                                  "lst": meshflow.cat(lst).tolist()}))
dist.destroy_process_group()
