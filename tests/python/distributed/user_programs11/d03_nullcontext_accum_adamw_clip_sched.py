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
import contextlib
net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2)); init_(net, 3)
model = DDP(net)
opt = meshflow.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.05)
sched = meshflow.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
rng = np.random.default_rng(40 + rank)
accum, norms, lrs = 2, [], []
for i in range(6):
    x = meshflow.from_numpy(rng.standard_normal((3, 6)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 3))
    ctx = model.no_sync() if (i + 1) % accum != 0 else contextlib.nullcontext()
    with ctx:
        loss = F.cross_entropy(model(x), y) / accum
        loss.backward()
    if (i + 1) % accum == 0:
        norms.append(round(meshflow.nn.utils.clip_grad_norm_(model.parameters(), 0.5).item(), 5))
        opt.step(); opt.zero_grad(); sched.step(); lrs.append(sched.get_last_lr()[0])
print("RESULT", rank, json.dumps({"norms": norms, "lrs": lrs, "w": sums(net)}))
dist.destroy_process_group()
