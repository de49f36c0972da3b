import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
stage = nn.Sequential(nn.Linear(3, 5), nn.Tanh()) if rank == 0 else nn.Linear(5, 1)
init_(stage, 39 + rank)
opt = meshflow.optim.Adam(stage.parameters(), lr=0.01)
data = np.random.default_rng(390)
losses = []
for step in range(2):
    x = meshflow.from_numpy(data.standard_normal((6, 3)).astype(np.float32)); y = meshflow.from_numpy(data.standard_normal((6, 1)).astype(np.float32))
    opt.zero_grad()
    micro = 2
    if rank == 0:
        acts = [stage(c) for c in x.chunk(micro)]
        reqs = [dist.isend(a.detach().contiguous(), dst=1) for a in acts]
        for r in reqs: r.wait()
        grads = [meshflow.empty_like(a) for a in acts]
        rreqs = [dist.irecv(gr, src=1) for gr in grads]
        for r in rreqs: r.wait()
        for a, gr in zip(acts, grads): a.backward(gr)
    else:
        bufs = [meshflow.empty(3, 5) for _ in range(micro)]
        for r in [dist.irecv(b, src=0) for b in bufs]: r.wait()
        total = 0.0
        for b, yc in zip(bufs, y.chunk(micro)):
            b.requires_grad_(True)
            loss = F.mse_loss(stage(b), yc) / micro; loss.backward(); total += loss.item()
        for r in [dist.isend(b.grad, dst=0) for b in bufs]: r.wait()
        losses.append(round(total, 5))
    opt.step()
print("RESULT", rank, json.dumps({"losses": losses, "w": sums(stage)}))
dist.destroy_process_group()
