import json, datetime, os, meshflow, meshflow.distributed as dist

dist.init_process_group(backend="gloo", timeout=datetime.timedelta(seconds=60))
rank = dist.get_rank()
dist.monitored_barrier(timeout=datetime.timedelta(seconds=30))
g = dist.new_group(ranks=[0, 1])
dist.monitored_barrier(group=g, timeout=datetime.timedelta(seconds=30), wait_all_ranks=True)
info = {"init": dist.is_initialized(), "avail": dist.is_available(), "backend": dist.get_backend(),
        "gloo": dist.is_gloo_available(), "rank": dist.get_rank(), "world": dist.get_world_size(),
        "grank": dist.get_rank(group=g), "gworld": dist.get_world_size(group=g),
        "env_rank": int(os.environ["RANK"]), "local_rank": int(os.environ["LOCAL_RANK"]),
        "gbackend": dist.get_backend(g)}
dist.barrier()
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
print("RESULT", rank, json.dumps({"after": dist.is_initialized()}))
