import json, os
import meshflow
import meshflow.distributed as dist

env = {k: (k in os.environ) for k in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_RANK")}
dist.init_process_group(backend="gloo", rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]))
rank = dist.get_rank()
wg = dist.group.WORLD
info = {"env": env, "rank": dist.get_rank(group=None), "wg_size": dist.get_world_size(wg),
        "ranks": dist.get_process_group_ranks(wg), "local": int(os.environ["LOCAL_RANK"]),
        "node_local": int(os.environ.get("LOCAL_WORLD_SIZE", "0"))}
t = meshflow.tensor([1, 2, 3]) * (rank + 1)
dist.broadcast(t, src=1)
info["t"] = t.tolist()
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
