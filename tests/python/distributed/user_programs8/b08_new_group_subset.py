import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
everyone = dist.new_group(list(range(world)))
solo = dist.new_group([1])
t = mf.tensor([float(rank + 1)])
dist.all_reduce(t, group=everyone)
u = mf.tensor([float(rank + 10)])
if rank == 1:
    dist.all_reduce(u, group=solo)
    info = [dist.get_rank(solo), dist.get_world_size(solo)]
else:
    info = [dist.get_world_size(everyone)]
dist.barrier()
print("RESULT", rank, json.dumps({"t": t.tolist(), "u": u.tolist(), "info": info}))
dist.destroy_process_group()
