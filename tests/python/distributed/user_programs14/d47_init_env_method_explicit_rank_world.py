import json, os, meshflow, meshflow.distributed as dist

dist.init_process_group(backend="gloo", init_method="env://", world_size=int(os.environ["WORLD_SIZE"]),
                        rank=int(os.environ["RANK"]))
rank, world = dist.get_rank(), dist.get_world_size()
seed = meshflow.tensor([1234 if rank == 0 else 0], dtype=meshflow.int64)
dist.broadcast(seed, src=0)
import numpy as np
rng = np.random.default_rng(int(seed.item()))
shared = rng.standard_normal(3).round(5).tolist()
meshflow.manual_seed(int(seed.item()) + rank)  # per-rank seed, as users do
dist.barrier()
print("RESULT", rank, json.dumps({"seed": int(seed.item()), "shared": shared, "world": world,
                                  "master": os.environ.get("MASTER_ADDR") is not None}))
dist.destroy_process_group()
