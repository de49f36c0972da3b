import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
cur, groups = dist.new_subgroups_by_enumeration([[0], [1]])
t = meshflow.tensor([rank + 1.0])
dist.all_reduce(t, group=cur)
dist.barrier(group=cur)
pair = dist.new_group([1, 0])
u = meshflow.tensor([rank * 3.0, 1.0])
dist.all_reduce(u, op=dist.ReduceOp.MAX, group=pair)
print("RESULT", rank, json.dumps({"t": t.item(), "ranks": dist.get_process_group_ranks(cur), "n": len(groups),
    "pair_ranks": dist.get_process_group_ranks(pair), "u": u.tolist(), "pair_rank": dist.get_rank(pair),
    "pair_size": dist.get_world_size(group=pair)}))
dist.destroy_process_group()
