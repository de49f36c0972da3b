import json, math, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(6, 12), nn.LayerNorm(12), nn.GELU(), nn.Linear(12, 3))
g = np.random.default_rng(19)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") or "1." in name else decay).append(p)
opt = meshflow.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=0.01)
warmup, total = 2, 6
sched = meshflow.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warmup if s < warmup else 0.5 * (1 + math.cos(math.pi * (s - warmup) / (total - warmup))))
rng = np.random.default_rng(190 + rank)
losses, lrs, norms = [], [], []
for step in range(total):
    x = meshflow.from_numpy(rng.standard_normal((5, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 5))
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    opt.zero_grad(); loss.backward()
    norms.append(round(nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5).item(), 4))
    opt.step(); sched.step()
    losses.append(round(loss.item(), 4)); lrs.append(round(sched.get_last_lr()[0], 6))
print("RESULT", rank, json.dumps({"losses": losses, "lrs": lrs, "norms": norms, "groups": [len(decay), len(no_decay)],
                                  "w": round(net[3].weight.sum().item(), 4)}))
dist.destroy_process_group()
