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
net = nn.Linear(3, 3); init_(net, 10)
model = DDP(net)
opt = mf.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1)
warm = mf.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=2)
cos = mf.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=1e-3)
sched = mf.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[2])
rng = np.random.default_rng(1000 + rank)
lrs = []
for _ in range(5):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append(round(sched.get_last_lr()[0], 8))
print("RESULT", rank, json.dumps({"lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
