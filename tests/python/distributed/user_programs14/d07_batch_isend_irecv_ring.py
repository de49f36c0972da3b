import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
nxt, prv = (rank + 1) % world, (rank - 1) % world
send_a = meshflow.arange(3, dtype=meshflow.float32) + 10 * rank
send_b = meshflow.tensor([[rank, 2 * rank]], dtype=meshflow.int64)
recv_a = meshflow.zeros(3)
recv_b = meshflow.zeros(1, 2, dtype=meshflow.int64)
ops = [dist.P2POp(dist.isend, send_a, nxt), dist.P2POp(dist.irecv, recv_a, prv),
       dist.P2POp(dist.isend, send_b, nxt), dist.P2POp(dist.irecv, recv_b, prv)]
reqs = dist.batch_isend_irecv(ops)
for req in reqs:
    req.wait()
# a second exchange with plain isend / irecv handles
h = meshflow.ones(2) * (rank + 5)
got = meshflow.empty(2)
s = dist.isend(h, dst=nxt)
r = dist.irecv(got, src=prv)
s.wait(); r.wait()
print("RESULT", rank, json.dumps({"a": recv_a.tolist(), "b": recv_b.tolist(), "got": got.tolist(), "n": len(reqs)}))
dist.destroy_process_group()
