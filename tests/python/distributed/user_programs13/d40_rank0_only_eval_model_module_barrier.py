import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
g = np.random.default_rng(40)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(400 + rank)
xv = meshflow.from_numpy(np.random.default_rng(401).standard_normal((6, 4)).astype(np.float32))
yv = meshflow.from_numpy(np.random.default_rng(402).integers(0, 3, 6))
evals, losses = [], []
for epoch in range(3):
    model.train()
    x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 5))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
    if rank == 0:
        model.module.eval()
        with meshflow.no_grad():
            out = model.module(xv)
            evals.append([round(F.cross_entropy(out, yv).item(), 4), int((out.argmax(1) == yv).sum())])
        model.module.train()
    dist.barrier()
print("RESULT", rank, json.dumps({"losses": losses, "evals": evals if rank == 0 else None,
                                  "rm": round(net[1].running_mean.sum().item(), 4), "training": net[1].training}))
dist.destroy_process_group()
