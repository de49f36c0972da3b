import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 3))
g = np.random.default_rng(2)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.25))
model = DDP(model)
opt = meshflow.optim.AdamW(model.parameters(), lr=1e-2)
scaler = meshflow.amp.GradScaler(enabled=False)
rng = np.random.default_rng(20 + rank)
losses, dtypes = [], []
for step in range(3):
    x = meshflow.tensor(rng.standard_normal((6, 8)).astype(np.float32))
    y = meshflow.tensor(rng.integers(0, 3, 6))
    opt.zero_grad(set_to_none=True)
    with meshflow.autocast(device_type="cpu", dtype=meshflow.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    dtypes.append([str(logits.dtype), str(loss.dtype)])
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    losses.append(round(loss.item(), 2))
print("RESULT", rank, json.dumps({"losses": losses, "dtypes": dtypes, "scale": scaler.get_scale(),
                                  "enabled": scaler.is_enabled(), "gdtype": str(model.module[0].weight.grad.dtype),
                                  "w": round(model.module[0].weight.sum().item(), 2)}))
dist.destroy_process_group()
