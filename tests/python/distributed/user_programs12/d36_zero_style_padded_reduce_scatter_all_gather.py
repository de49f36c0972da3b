import json, numpy as np, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
# a flat "gradient" of 7 elements, padded to a multiple of the world, reduce-scattered, stepped, all-gathered
rng = np.random.default_rng(36 + rank)
grad = meshflow.from_numpy(rng.standard_normal(7).astype(np.float32))
param = meshflow.linspace(-1, 1, 7)
pad = (-grad.numel()) % world
flat = meshflow.cat([grad, meshflow.zeros(pad)])
shard = meshflow.empty(flat.numel() // world)
dist.reduce_scatter_tensor(shard, flat, op=dist.ReduceOp.SUM)
shard /= world
pflat = meshflow.cat([param, meshflow.zeros(pad)])
n = shard.numel()
mine = pflat[rank * n:(rank + 1) * n] - 0.1 * shard
full = meshflow.empty(n * world)
dist.all_gather_into_tensor(full, mine)
new_param = full[:param.numel()]
check = grad.clone()
dist.all_reduce(check)
ref = param - 0.1 * check / world
d64 = meshflow.tensor([rank + 0.5], dtype=meshflow.float64)
g64 = meshflow.empty(world, dtype=meshflow.float64)
dist.all_gather_into_tensor(g64, d64)
print("RESULT", rank, json.dumps({"param": [round(v, 5) for v in new_param.tolist()], "same": bool(meshflow.allclose(new_param, ref, atol=1e-6)),
                                  "shard_len": n, "g64": g64.tolist()}))
dist.destroy_process_group()
