import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
right, left = (rank + 1) % world, (rank - 1) % world
send = meshflow.arange(4, dtype=meshflow.float32) + 10 * rank
recv = meshflow.zeros(4)
send2 = meshflow.tensor([rank * 7, rank * 7 + 1], dtype=meshflow.int64)
recv2 = meshflow.zeros(2, dtype=meshflow.int64)
ops = [dist.P2POp(dist.isend, send, right), dist.P2POp(dist.irecv, recv, left),
       dist.P2POp(dist.isend, send2, left), dist.P2POp(dist.irecv, recv2, right)]
reqs = dist.batch_isend_irecv(ops)
for r in reqs:
    r.wait()
# ring all-reduce of a vector by passing chunks, as the tutorials write it
acc = meshflow.tensor([float(rank + 1)] * 3)
buf = acc.clone()
for _ in range(world - 1):
    out = buf.clone(); inc = meshflow.zeros(3)
    for req in dist.batch_isend_irecv([dist.P2POp(dist.isend, out, right), dist.P2POp(dist.irecv, inc, left)]):
        req.wait()
    acc += inc; buf = inc
print("RESULT", rank, json.dumps({"recv": recv.tolist(), "recv2": recv2.tolist(), "n_reqs": len(reqs), "acc": acc.tolist()}))
dist.destroy_process_group()
