import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
g = np.random.default_rng(20)
stage = nn.Linear(4, 4) if rank == 0 else nn.Linear(4, 2)
init_(stage, 20 + rank)
opt = mf.optim.SGD(stage.parameters(), lr=0.1)
losses = []
for step in range(3):
    x = mf.from_numpy(g.standard_normal((3, 4)).astype(np.float32)); y = mf.from_numpy(g.integers(0, 2, 3))
    opt.zero_grad()
    if rank == 0:
        act = F.relu(stage(x))
        req = dist.isend(act.detach(), dst=1)
        grad = mf.empty_like(act)
        dist.recv(grad, src=1)
        req.wait()
        act.backward(grad)
    else:
        act = mf.empty(3, 4)
        dist.irecv(act, src=0).wait()
        act.requires_grad_()
        loss = F.cross_entropy(stage(act), y)
        loss.backward()
        dist.send(act.grad, dst=0)
        losses.append(loss.item())
    opt.step()
print("RESULT", rank, json.dumps({"losses": losses, "w": sums(stage)}))
dist.destroy_process_group()
