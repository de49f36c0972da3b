import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
g = dist.new_group(ranks=[1, 0])
info = {"ranks": dist.get_process_group_ranks(g), "me": dist.get_rank(g), "size": dist.get_world_size(g),
        "global0": dist.get_global_rank(g, 0)}
t = meshflow.tensor([rank + 1.0])
dist.broadcast(t, src=1, group=g)
info["t"] = t.tolist()
x = meshflow.zeros(2)
if rank == 0:
    dist.send(meshflow.tensor([3.0, 4.0]), dst=1, group=g)
else:
    dist.recv(x, src=0, group=g)
info["x"] = x.tolist()
y = meshflow.zeros(1)
if rank == 1:
    dist.send(meshflow.tensor([8.0]), group_dst=0, group=g)
else:
    dist.recv(y, group_src=1, group=g)
info["y"] = y.tolist()
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
