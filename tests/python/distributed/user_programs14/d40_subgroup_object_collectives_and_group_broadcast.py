import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
groups = [dist.new_group([r], backend="gloo") for r in range(world)]
pair = dist.new_group(list(range(world)), backend="gloo")
mine = groups[rank]
objs = [None]
dist.all_gather_object(objs, {"r": rank}, group=mine)
lst = [f"hello{rank}"]
dist.broadcast_object_list(lst, src=rank, group=mine)
t = meshflow.tensor([float(rank + 3)])
dist.broadcast(t, src=0, group=pair)
s = meshflow.tensor([float(rank + 3)])
dist.all_reduce(s, op=dist.ReduceOp.PRODUCT, group=pair)
g = [meshflow.zeros(1) for _ in range(world)]
dist.all_gather(g, meshflow.tensor([rank * 7.0]), group=pair)
print("RESULT", rank, json.dumps({"objs": objs, "lst": lst, "t": t.tolist(), "s": s.tolist(),
                                  "g": [x.item() for x in g], "sizes": [dist.get_world_size(x) for x in groups]}))
dist.destroy_process_group()
