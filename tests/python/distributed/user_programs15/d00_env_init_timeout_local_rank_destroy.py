import json, os
from datetime import timedelta
import meshflow
import meshflow.distributed as dist

local_rank = int(os.environ["LOCAL_RANK"])
world_size = int(os.environ["WORLD_SIZE"])
before = dist.is_initialized()
dist.init_process_group(backend="gloo", init_method="env://", timeout=timedelta(seconds=120))
rank = dist.get_rank()
t = meshflow.tensor([float(rank + 1), 10.0 * local_rank])
dist.all_reduce(t)
info = {"before": before, "after": dist.is_initialized(), "available": dist.is_available(),
        "backend": str(dist.get_backend()), "world": dist.get_world_size(), "env_world": world_size,
        "local": local_rank, "sum": t.tolist(), "gloo": dist.is_gloo_available()}
dist.barrier()
dist.destroy_process_group()
info["finally"] = dist.is_initialized()
print("RESULT", rank, json.dumps(info))
