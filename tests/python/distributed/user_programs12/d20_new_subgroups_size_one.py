import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
cur, groups = dist.new_subgroups(group_size=1)
t = meshflow.tensor([float(rank + 1)])
dist.all_reduce(t, group=cur)
whole, _ = dist.new_subgroups(group_size=world)
u = meshflow.tensor([float(rank + 1)])
dist.all_reduce(u, group=whole)
print("RESULT", rank, json.dumps({"n_groups": len(groups), "cur_size": dist.get_world_size(cur), "cur_rank": dist.get_rank(cur),
    "t": t.item(), "u": u.item(), "whole_size": dist.get_world_size(whole),
    "global_of_0": dist.get_global_rank(cur, 0), "group_rank": dist.get_group_rank(whole, rank)}))
dist.destroy_process_group()
