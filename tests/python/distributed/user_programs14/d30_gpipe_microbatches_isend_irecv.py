import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
g = np.random.default_rng(14)
def init(m):
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return m
first, second = init(nn.Sequential(nn.Linear(6, 10), nn.GELU())), init(nn.Sequential(nn.Linear(10, 10), nn.GELU(), nn.Linear(10, 4)))
stage = first if rank == 0 else second
opt = meshflow.optim.Adam(stage.parameters(), lr=0.01)
rng = np.random.default_rng(15)
M, mb = 3, 2
log = []
for step in range(3):
    x = meshflow.from_numpy(rng.standard_normal((M * mb, 6)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 4, M * mb))
    opt.zero_grad()
    acts, ins = [], []
    for m in range(M):  # all forwards
        if rank == 0:
            a = stage(x[m * mb:(m + 1) * mb]); acts.append(a)
            dist.isend(a.detach(), dst=1).wait()
        else:
            buf = meshflow.empty(mb, 10); dist.irecv(buf, src=0).wait()
            buf.requires_grad_(); ins.append(buf); acts.append(stage(buf))
    total = 0.0
    for m in reversed(range(M)):  # all backwards
        if rank == 1:
            loss = F.cross_entropy(acts[m], y[m * mb:(m + 1) * mb]) / M
            loss.backward(); total += loss.item()
            dist.isend(ins[m].grad, dst=0).wait()
        else:
            gbuf = meshflow.empty(mb, 10); dist.irecv(gbuf, src=1).wait()
            acts[m].backward(gbuf)
    opt.step()
    log.append(round(total, 5))
print("RESULT", rank, json.dumps({"log": log, "w": [round(p.sum().item(), 5) for p in stage.parameters()]}))
dist.destroy_process_group()
