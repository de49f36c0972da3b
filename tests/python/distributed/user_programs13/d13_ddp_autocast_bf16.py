import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4))
g = np.random.default_rng(9)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.25).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.AdamW(model.parameters(), lr=1e-2)
rng = np.random.default_rng(90 + rank)
losses, dtypes = [], []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 4))
    with meshflow.autocast(device_type="cpu", dtype=meshflow.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    dtypes = [str(logits.dtype), str(loss.dtype)]
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 2))
print("RESULT", rank, json.dumps({"losses": losses, "dtypes": dtypes, "grad_dtype": str(net[0].weight.grad.dtype),
                                  "param_dtype": str(net[0].weight.dtype), "w": round(net[3].weight.sum().item(), 1)}))
dist.destroy_process_group()
