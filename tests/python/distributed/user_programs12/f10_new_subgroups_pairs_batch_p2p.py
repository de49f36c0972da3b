import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
cur, groups = dist.new_subgroups(group_size=2)
t = meshflow.tensor([float(rank + 1)])
dist.all_reduce(t, group=cur)
peer = dist.get_global_rank(cur, 1 - dist.get_rank(cur))
send = meshflow.tensor([rank * 1.0, rank * 2.0]); recv = meshflow.zeros(2)
for r in dist.batch_isend_irecv([dist.P2POp(dist.isend, send, peer, group=cur), dist.P2POp(dist.irecv, recv, peer, group=cur)]):
    r.wait()
everyone = [None] * 2
dist.all_gather_object(everyone, {"r": rank}, group=cur)
print("RESULT", rank, json.dumps({"t": t.item(), "peer": peer, "recv": recv.tolist(), "n": len(groups),
    "sub_rank": dist.get_rank(cur), "everyone": everyone}))
dist.destroy_process_group()
