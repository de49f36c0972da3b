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
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)); init_(net, 30)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(3000 + rank)
local_norms, max_norms = [], []
for _ in range(3):
    x = mf.from_numpy((rng.standard_normal((3, 4)) * (rank + 1)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=2.0)
    mx = loss.detach().reshape(1).clone()
    dist.all_reduce(mx, op=dist.ReduceOp.MAX)
    local_norms.append(round(total.item(), 5)); max_norms.append(mx.item())
    opt.step()
print("RESULT", rank, json.dumps({"norms": local_norms, "max_loss": max_norms, "w": sums(net)}))
dist.destroy_process_group()
