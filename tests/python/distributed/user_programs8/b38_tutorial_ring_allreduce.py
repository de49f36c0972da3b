import json, meshflow as mf
import meshflow.distributed as dist

def allreduce(send, recv):
    rank = dist.get_rank()
    size = dist.get_world_size()
    send_buff = send.clone()
    recv_buff = send.clone()
    accum = send.clone()
    left = ((rank - 1) + size) % size
    right = (rank + 1) % size
    for i in range(size - 1):
        if i % 2 == 0:
            send_req = dist.isend(send_buff, right)
            dist.recv(recv_buff, left)
            accum[:] += recv_buff[:]
        else:
            send_req = dist.isend(recv_buff, right)
            dist.recv(send_buff, left)
            accum[:] += send_buff[:]
        send_req.wait()
    recv[:] = accum[:]

dist.init_process_group("gloo")
rank = dist.get_rank()
t = mf.arange(4, dtype=mf.float32) * (rank + 1) + 0.5
out = mf.zeros(4)
allreduce(t, out)
# exchange with the peer: irecv posted before isend
got = mf.zeros(2, dtype=mf.int64)
r = dist.irecv(got, src=1 - rank)
s = dist.isend(mf.tensor([rank, rank * 7]), dst=1 - rank)
s.wait(); r.wait()
print("RESULT", rank, json.dumps({"out": out.tolist(), "got": got.tolist()}))
dist.destroy_process_group()
