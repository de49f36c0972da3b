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
net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(4, 2)); init_(net, 33)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.2)
sched = mf.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
rng = np.random.default_rng(330 + rank)
lrs = []
for _ in range(4):
    x = mf.from_numpy(rng.standard_normal((3, 2, 6)).astype(np.float32))
    loss = F.cross_entropy(model(x), mf.from_numpy(rng.integers(0, 2, 3)))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    lrs.append(opt.param_groups[0]["lr"])
print("RESULT", rank, json.dumps({"lrs": lrs, "w": [p.sum().item() for p in net.parameters()]}))
dist.destroy_process_group()
