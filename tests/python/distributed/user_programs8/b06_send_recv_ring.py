import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if rank == 0:
    dist.send(mf.tensor([3.0, 1.0, 4.0]), dst=1)
    back = mf.zeros(2, dtype=mf.int64)
    dist.recv(back, src=1)
    got = back.tolist()
else:
    buf = mf.zeros(3)
    src = dist.recv(buf, src=0)
    dist.send((buf[:2] * 10).long(), dst=0)
    got = [buf.tolist(), src]
nxt, prv = (rank + 1) % world, (rank - 1) % world
send_t = mf.full((2,), float(rank))
recv_t = mf.zeros(2)
reqs = [dist.isend(send_t, dst=nxt), dist.irecv(recv_t, src=prv)]
for r in reqs:
    r.wait()
print("RESULT", rank, json.dumps({"got": got, "ring": recv_t.tolist()}))
dist.destroy_process_group()
