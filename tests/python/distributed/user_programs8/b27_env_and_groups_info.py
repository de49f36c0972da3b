import json, os, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group(backend="gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = dist.new_group([0, 1])
res = {"avail": dist.is_available(), "init": dist.is_initialized(), "backend": dist.get_backend(),
       "env": [int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ["LOCAL_RANK"])],
       "ranks": dist.get_process_group_ranks(g), "grank": dist.get_group_rank(g, rank), "global": dist.get_global_rank(g, 1 - rank),
       "world_group_size": dist.get_world_size(dist.group.WORLD)}
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
print("RESULT", rank, json.dumps({"after": dist.is_initialized()}))
