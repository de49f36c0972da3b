import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
everyone = dist.new_group()
only0 = dist.new_group(ranks=[0])
only1 = dist.new_group(ranks=[1])
mine = only0 if rank == 0 else only1
t = meshflow.tensor([rank + 1.0])
dist.all_reduce(t, group=mine)
w = meshflow.tensor([rank + 1.0])
dist.all_reduce(w, group=everyone)
b = meshflow.tensor([10.0 * (rank + 1)])
dist.broadcast(b, src=1, group=everyone)
info = {"t": t.tolist(), "w": w.tolist(), "b": b.tolist(),
        "rank_in_mine": dist.get_rank(mine), "size_mine": dist.get_world_size(mine),
        "rank_in_other": dist.get_rank(only1 if rank == 0 else only0),
        "size_all": dist.get_world_size(everyone), "rank_all": dist.get_rank(everyone),
        "ranks_mine": dist.get_process_group_ranks(mine),
        "global_of_0": dist.get_global_rank(mine, 0), "group_rank": dist.get_group_rank(everyone, rank)}
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
