import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
def send_tensor(t, dst):
    dist.send(meshflow.tensor([t.dim()], dtype=meshflow.int64), dst)
    dist.send(meshflow.tensor(list(t.shape), dtype=meshflow.int64), dst)
    dist.send(t.contiguous(), dst)
def recv_tensor(src):
    nd = meshflow.empty(1, dtype=meshflow.int64); dist.recv(nd, src)
    shape = meshflow.empty(int(nd), dtype=meshflow.int64); dist.recv(shape, src)
    t = meshflow.empty(shape.tolist()); dist.recv(t, src)
    return t
out = {}
if rank == 0:
    send_tensor(meshflow.arange(6.0).view(2, 3).t(), 1)  # non-contiguous on this side
    back = recv_tensor(1)
    out["back"] = back.tolist()
else:
    t = recv_tensor(0)
    out["got"] = t.tolist()
    send_tensor(t.sum(0, keepdim=True) * 2, 0)
anyone = meshflow.zeros(1)
if rank == 0:
    sender = dist.recv(anyone)  # from any source
    out["sender"] = sender
else:
    dist.send(meshflow.tensor([42.0]), 0)
out["anyone"] = anyone.tolist()
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
