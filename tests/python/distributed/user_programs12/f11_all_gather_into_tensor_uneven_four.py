import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
n = [2, 0, 3, 1][rank]
local = meshflow.arange(n, dtype=meshflow.float32) + 10 * rank
sizes = [meshflow.zeros(1, dtype=meshflow.int64) for _ in range(world)]
dist.all_gather(sizes, meshflow.tensor([n]))
sizes = [int(s) for s in sizes]
m = max(sizes)
padded = meshflow.cat([local, meshflow.full((m - n,), -1.0)])
out = meshflow.empty(world * m)
dist.all_gather_into_tensor(out, padded)
vals = meshflow.cat([out[r * m: r * m + s] for r, s in enumerate(sizes)])
pg = dist.new_group([1, 2, 3])
sub = None
if rank in (1, 2, 3):
    sub = meshflow.empty(3 * m)
    dist.all_gather_into_tensor(sub, padded, group=pg)
    sub = sub.tolist()
print("RESULT", rank, json.dumps({"sizes": sizes, "vals": vals.tolist(), "sub": sub}))
dist.destroy_process_group()
