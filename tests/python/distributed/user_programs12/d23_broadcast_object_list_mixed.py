import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if rank == 0:
    objs = [{"lr": 0.01, "layers": [4, 8]}, "run-7", meshflow.tensor([1.5, 2.5]), (3, None)]
else:
    objs = [None, None, None, None]
dist.broadcast_object_list(objs, src=0)
back = [None]
if rank == 1:
    back = [{"seen": objs[1], "n": len(objs)}]
dist.broadcast_object_list(back, src=1)
grp = dist.new_group([0, 1])
g = [rank * 10] if rank == 1 else [None]
dist.broadcast_object_list(g, src=1, group=grp)
print("RESULT", rank, json.dumps({"cfg": objs[0], "name": objs[1], "t": objs[2].tolist(), "tuple": list(objs[3]),
    "back": back[0], "g": g[0]}))
dist.destroy_process_group()
