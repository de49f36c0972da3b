import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mine = meshflow.arange(3 + 2 * rank, dtype=meshflow.float32) * (rank + 1)
n = meshflow.tensor([mine.numel()])
sizes = [meshflow.zeros(1, dtype=meshflow.int64) for _ in range(world)]
dist.all_gather(sizes, n)
mx = max(int(s) for s in sizes)
padded = meshflow.cat([mine, meshflow.zeros(mx - mine.numel())])
bufs = [meshflow.empty(mx) for _ in range(world)]
dist.all_gather(bufs, padded)
whole = meshflow.cat([b[:int(s)] for b, s in zip(bufs, sizes)])
print("RESULT", rank, json.dumps({"sizes": [int(s) for s in sizes], "whole": whole.tolist(), "sum": whole.sum().item()}))
dist.destroy_process_group()
