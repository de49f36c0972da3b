import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
d = os.path.join(tempfile.gettempdir(), "r13_d54")
os.makedirs(d, exist_ok=True)
stats = {"rank": rank, "sum": meshflow.arange(3.0) * (rank + 1), "count": meshflow.tensor(10 + rank)}
meshflow.save(stats, os.path.join(d, f"rank{rank}.pt"))
dist.barrier()
merged = None
if rank == 0:
    parts = [meshflow.load(os.path.join(d, f"rank{r}.pt")) for r in range(world)]
    merged = {"sum": sum(p["sum"] for p in parts).tolist(), "count": int(sum(p["count"] for p in parts)),
              "ranks": [p["rank"] for p in parts]}
    meshflow.save(merged, os.path.join(d, "merged.pt"))
dist.barrier()
back = meshflow.load(os.path.join(d, "merged.pt"), weights_only=False)
dist.barrier()
if rank == 0:
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    os.rmdir(d)
print("RESULT", rank, json.dumps({"merged": merged, "back": back}))
dist.destroy_process_group()
