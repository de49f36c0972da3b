import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
g = np.random.default_rng(22)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
decay = [p for n, p in net.named_parameters() if n.endswith("weight")]
no_decay = [p for n, p in net.named_parameters() if n.endswith("bias")]
opt = ZeroRedundancyOptimizer([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                              optimizer_class=meshflow.optim.AdamW, lr=0.02)
sched = meshflow.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
rng = np.random.default_rng(2200 + rank)
losses, lrs = [], []
for _ in range(5):
    x = meshflow.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 2, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    losses.append(round(loss.item(), 5)); lrs.append(sched.get_last_lr())
print("RESULT", rank, json.dumps({"losses": losses, "lrs": lrs, "groups": len(opt.param_groups),
                                  "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
dist.destroy_process_group()
