import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
def init(m, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return m
# stage 0 on rank 0, stage 1 on rank 1
stage = init(nn.Sequential(nn.Linear(4, 8), nn.ReLU()), 11) if rank == 0 else init(nn.Sequential(nn.Linear(8, 3)), 12)
opt = meshflow.optim.SGD(stage.parameters(), lr=0.1, momentum=0.5)
rng = np.random.default_rng(7)
losses = []
for step in range(4):
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 3, 5))
    opt.zero_grad()
    if rank == 0:
        act = stage(x)
        dist.send(act.detach(), dst=1)
        grad = meshflow.empty_like(act)
        dist.recv(grad, src=1)
        act.backward(grad)
    else:
        act = meshflow.empty(5, 8)
        dist.recv(act, src=0)
        act.requires_grad_()
        loss = F.cross_entropy(stage(act), y)
        loss.backward()
        dist.send(act.grad, dst=0)
        losses.append(round(loss.item(), 5))
    opt.step()
ls = meshflow.tensor(losses if rank == 1 else [0.0] * 4)
dist.broadcast(ls, src=1)
print("RESULT", rank, json.dumps({"losses": [round(v, 5) for v in ls.tolist()],
                                  "w": [round(p.sum().item(), 5) for p in stage.parameters()]}))
dist.destroy_process_group()
