import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
grp = dist.new_group(ranks=list(range(world)))
solo = [dist.new_group(ranks=[r]) for r in range(world)]
t = meshflow.tensor([1.0, 2.0]) * (rank + 1)
dist.all_reduce(t, group=grp)
u = meshflow.tensor([5.0 + rank])
dist.all_reduce(u, group=solo[rank])
m = meshflow.tensor([3.0 * rank - 1])
dist.all_reduce(m, op=dist.ReduceOp.MIN, group=grp)
b = meshflow.tensor([rank + 0.5])
dist.broadcast(b, src=1, group=grp)
print("RESULT", rank, json.dumps({"t": t.tolist(), "u": u.tolist(), "m": m.tolist(), "b": b.tolist(),
                                  "grank": dist.get_rank(grp), "gsize": dist.get_world_size(grp),
                                  "solo_size": dist.get_world_size(solo[rank])}))
dist.destroy_process_group()
