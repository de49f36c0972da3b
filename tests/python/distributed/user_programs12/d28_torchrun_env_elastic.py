import json, os, meshflow
import meshflow.distributed as dist
from meshflow.distributed.elastic.multiprocessing.errors import record
@record
def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    restarts = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
    max_restarts = int(os.environ.get("TORCHELASTIC_MAX_RESTARTS", 0))
    dist.init_process_group(backend="gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    group_rank = int(os.environ.get("GROUP_RANK", rank // local_world))
    t = meshflow.tensor([local_rank + 10 * group_rank], dtype=meshflow.float32)
    dist.all_reduce(t)
    print("RESULT", rank, json.dumps({"local_rank": local_rank, "local_world": local_world, "restarts": restarts,
        "max_restarts": max_restarts, "env_rank": int(os.environ["RANK"]),
        "env_world": int(os.environ["WORLD_SIZE"]), "t": t.item(), "role": os.environ.get("ROLE_NAME", "default"),
        "backend": dist.get_backend(), "initialized": dist.is_initialized()}))
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
