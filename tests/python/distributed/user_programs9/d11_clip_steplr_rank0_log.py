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
net = nn.Sequential(nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 5)); init_(net, 11)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.5)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
rng = np.random.default_rng(110 + rank)
log = []
for step in range(5):
    x = mf.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
    loss = model(x).pow(2).sum()
    opt.zero_grad(); loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step(); sched.step()
    if rank == 0:
        log.append([round(float(norm), 4), sched.get_last_lr()[0]])
if rank == 0:
    print("RESULT", rank, json.dumps(log))
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
