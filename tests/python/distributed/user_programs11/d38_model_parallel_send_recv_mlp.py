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
g = np.random.default_rng(38)
w1 = meshflow.from_numpy((g.standard_normal((4, 6)) * 0.3).astype(np.float32)); w2 = meshflow.from_numpy((g.standard_normal((6, 2)) * 0.3).astype(np.float32))
stage = nn.Linear(4, 6) if rank == 0 else nn.Linear(6, 2)
with meshflow.no_grad():
    stage.weight.copy_((w1 if rank == 0 else w2).t()); stage.bias.zero_()
opt = meshflow.optim.SGD(stage.parameters(), lr=0.1)
data = np.random.default_rng(380)
losses = []
for step in range(3):
    x = meshflow.from_numpy(data.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(data.integers(0, 2, 5))
    opt.zero_grad()
    if rank == 0:
        h = meshflow.relu(stage(x))
        dist.send(h.detach(), dst=1)
        gh = meshflow.empty_like(h); dist.recv(gh, src=1)
        h.backward(gh)
    else:
        h = meshflow.empty(5, 6); dist.recv(h, src=0); h.requires_grad_(True)
        loss = F.cross_entropy(stage(h), y); loss.backward()
        dist.send(h.grad, dst=0); losses.append(round(loss.item(), 5))
    opt.step()
print("RESULT", rank, json.dumps({"losses": losses, "w": sums(stage)}))
dist.destroy_process_group()
