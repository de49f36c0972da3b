import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
peer = 1 - rank
send = meshflow.arange(4, dtype=meshflow.float32) * (rank + 1)
recv = meshflow.zeros(4)
if rank == 0:
    reqs = [dist.isend(send, dst=peer), dist.irecv(recv, src=peer)]
else:
    reqs = [dist.irecv(recv, src=peer), dist.isend(send, dst=peer)]
for r in reqs:
    r.wait()
x = meshflow.zeros(2, 3, dtype=meshflow.int64)
if rank == 0:
    dist.send(meshflow.arange(6).view(2, 3), dst=1)
else:
    dist.recv(x, src=0)
work = dist.all_reduce(recv, async_op=True)
work.wait()
print("RESULT", rank, json.dumps({"recv": recv.tolist(), "x": x.tolist(), "done": work.is_completed()}))
dist.destroy_process_group()
