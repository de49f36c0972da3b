import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
peer = 1 - rank
grp = dist.new_group([0, 1])
sends = [meshflow.arange(3, dtype=meshflow.float64) + rank, meshflow.tensor([rank, 10 + rank], dtype=meshflow.int32),
         meshflow.full((2, 2), float(rank), dtype=meshflow.bfloat16)]
recvs = [meshflow.zeros(3, dtype=meshflow.float64), meshflow.zeros(2, dtype=meshflow.int32), meshflow.zeros(2, 2, dtype=meshflow.bfloat16)]
ops = []
for i, (s, r) in enumerate(zip(sends, recvs)):
    ops.append(dist.P2POp(dist.isend, s, peer, group=grp, tag=i))
    ops.append(dist.P2POp(dist.irecv, r, peer, group=grp, tag=i))
for w in dist.batch_isend_irecv(ops):
    w.wait()
# then a blocking exchange in order: rank 0 sends first
buf = meshflow.zeros(2)
if rank == 0:
    dist.send(meshflow.tensor([5.0, 6.0]), dst=1, tag=7); dist.recv(buf, src=1, tag=8)
else:
    dist.recv(buf, src=0, tag=7); dist.send(buf * 2, dst=0, tag=8)
print("RESULT", rank, json.dumps({"r0": recvs[0].tolist(), "r1": recvs[1].tolist(), "r2": recvs[2].float().tolist(),
                                  "buf": buf.tolist()}))
dist.destroy_process_group()
