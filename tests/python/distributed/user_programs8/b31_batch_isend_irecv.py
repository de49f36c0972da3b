import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
peer = 1 - rank
send = mf.arange(3, dtype=mf.float32) + 100 * rank
recv = mf.zeros(3)
ops = [dist.P2POp(dist.isend, send, peer), dist.P2POp(dist.irecv, recv, peer)]
reqs = dist.batch_isend_irecv(ops)
for r in reqs:
    r.wait()
print("RESULT", rank, json.dumps({"recv": recv.tolist()}))
dist.destroy_process_group()
