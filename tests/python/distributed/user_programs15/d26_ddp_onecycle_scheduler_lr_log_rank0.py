import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(4, 4), nn.SiLU(), nn.Linear(4, 1))
g = np.random.default_rng(26)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = meshflow.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=6)
rng = np.random.default_rng(260 + rank)
lrs, losses = [], []
for _ in range(6):
    x = meshflow.tensor(rng.standard_normal((5, 4)).astype(np.float32))
    loss = F.smooth_l1_loss(model(x), x[:, :1])
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    reduced = loss.detach().clone()
    dist.reduce(reduced, dst=0)
    if rank == 0:
        losses.append(round(reduced.item() / 2, 5))
    lrs.append(round(sched.get_last_lr()[0], 6))
print("RESULT", rank, json.dumps({"lrs": lrs, "losses": losses, "mom": round(opt.param_groups[0]["momentum"], 5)}))
dist.destroy_process_group()
