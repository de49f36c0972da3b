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
net = nn.Sequential(nn.Linear(4, 6), nn.LayerNorm(6), nn.Linear(6, 2)); init_(net, 33)
model = DDP(net)
decay = [p for n, p in model.named_parameters() if n.endswith("weight") and p.dim() > 1]
no_decay = [p for n, p in model.named_parameters() if not (n.endswith("weight") and p.dim() > 1)]
opt = mf.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0, "lr": 3e-3}], lr=1e-2)
sched = mf.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.3)
rng = np.random.default_rng(3300 + rank)
lrs = []
for _ in range(4):
    x = mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append([round(g["lr"], 8) for g in opt.param_groups])
print("RESULT", rank, json.dumps({"names": [n for n, _ in model.named_parameters()], "lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
