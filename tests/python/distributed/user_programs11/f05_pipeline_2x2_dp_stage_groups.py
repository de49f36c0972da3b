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
stage_idx, dp_idx = rank % 2, rank // 2
stage_groups = [dist.new_group([0, 2]), dist.new_group([1, 3])]
my_dp = stage_groups[stage_idx]
stage = nn.Linear(4, 6) if stage_idx == 0 else nn.Linear(6, 2)
init_(stage, 105 + stage_idx)
opt = meshflow.optim.SGD(stage.parameters(), lr=0.1)
data = np.random.default_rng(1050 + dp_idx)
losses = []
for step in range(2):
    x = meshflow.from_numpy(data.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(data.integers(0, 2, 3))
    opt.zero_grad()
    if stage_idx == 0:
        h = meshflow.tanh(stage(x)); dist.send(h.detach(), dst=rank + 1)
        gh = meshflow.empty_like(h); dist.recv(gh, src=rank + 1); h.backward(gh)
    else:
        h = meshflow.empty(3, 6); dist.recv(h, src=rank - 1); h.requires_grad_()
        loss = F.cross_entropy(stage(h), y); loss.backward(); dist.send(h.grad, dst=rank - 1)
        losses.append(round(loss.item(), 5))
    for p in stage.parameters():
        dist.all_reduce(p.grad, group=my_dp); p.grad /= dist.get_world_size(my_dp)
    opt.step()
print("RESULT", rank, json.dumps({"losses": losses, "w": sums(stage)}))
dist.destroy_process_group()
