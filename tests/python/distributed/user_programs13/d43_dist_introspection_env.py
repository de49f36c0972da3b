import json, os, meshflow, meshflow.distributed as dist

before = dist.is_initialized()
dist.init_process_group(backend="gloo")
info = {"avail": dist.is_available(), "before": before, "init": dist.is_initialized(), "backend": dist.get_backend(),
        "rank": dist.get_rank(), "world": dist.get_world_size(), "local_rank": int(os.environ["LOCAL_RANK"]),
        "env_world": int(os.environ["WORLD_SIZE"]), "group_world": dist.get_world_size(dist.group.WORLD),
        "is_master": dist.get_rank() == 0}
t = meshflow.tensor([info["local_rank"]])
dist.all_reduce(t)
info["sum_local"] = t.item()
dist.barrier()
dist.destroy_process_group()
info["after"] = dist.is_initialized()
print("RESULT", info["rank"], json.dumps(info))
