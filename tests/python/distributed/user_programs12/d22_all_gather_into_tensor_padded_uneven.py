import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
n = 3 + 2 * rank  # each rank has a different number of rows
local = meshflow.arange(n * 2, dtype=meshflow.float32).reshape(n, 2) + 100 * rank
size = meshflow.tensor([n], dtype=meshflow.long)
sizes = meshflow.zeros(world, dtype=meshflow.long)
dist.all_gather_into_tensor(sizes, size)
m = int(sizes.max())
padded = meshflow.zeros(m, 2)
padded[:n] = local
out = meshflow.empty(world * m, 2)
dist.all_gather_into_tensor(out, padded)
rows = meshflow.cat([out[r * m: r * m + int(sizes[r])] for r in range(world)])
listed = [meshflow.zeros(m, 2) for _ in range(world)]
dist.all_gather(listed, padded)
print("RESULT", rank, json.dumps({"sizes": sizes.tolist(), "rows": rows.tolist(),
    "list_equal": bool(meshflow.equal(meshflow.cat([l[:int(s)] for l, s in zip(listed, sizes)]), rows))}))
dist.destroy_process_group()
