import json, contextlib, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
g = np.random.default_rng(71)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
ddp = DDP(model)
opt = meshflow.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
scaler = meshflow.amp.GradScaler("cpu", init_scale=2.0 ** 10)
rng = np.random.default_rng(72 + rank)
accum, losses = 2, []
for step in range(6):
    x = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
    ctx = ddp.no_sync() if (step + 1) % accum else contextlib.nullcontext()
    with ctx:
        with meshflow.autocast(device_type="cpu", dtype=meshflow.bfloat16):
            out = ddp(x)
            loss = F.cross_entropy(out.float(), y) / accum
        scaler.scale(loss).backward()
    if (step + 1) % accum == 0:
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
        scaler.step(opt); scaler.update(); opt.zero_grad()
    losses.append(round(loss.item(), 2))
print("RESULT", rank, json.dumps({"losses": losses, "scale": scaler.get_scale(), "out_dtype": str(out.dtype),
    "w": round(model[0].weight.sum().item(), 1)}))
dist.destroy_process_group()
