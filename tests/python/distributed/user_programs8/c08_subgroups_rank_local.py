import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
groups = [dist.new_group([r]) for r in range(world)]
mine = groups[rank]
t = mf.tensor([float(rank + 1), 2.0])
dist.all_reduce(t, group=mine)
out = [mf.zeros(2)]
dist.all_gather(out, t * 3, group=mine)
b = mf.tensor([5.0 * rank])
dist.broadcast(b, src=rank, group=mine)
objs = [None]
dist.all_gather_object(objs, {"r": rank}, group=mine)
dist.barrier(group=mine)
pair = dist.new_group([0, 1])
s = mf.tensor([float(rank)])
dist.all_reduce(s, group=pair)
if rank == 0:
    z = mf.ones(3)
    dist.all_reduce(z, op=dist.ReduceOp.MAX, group=groups[0])
    extra = z.tolist()
else:
    extra = None
dist.barrier()
print("RESULT", rank, json.dumps({"t": t.tolist(), "g": out[0].tolist(), "b": b.tolist(), "o": objs, "s": s.tolist(), "extra": extra}))
dist.destroy_process_group()
