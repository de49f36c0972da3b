import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Dropout(0.0), nn.Linear(6, 2))
rng = np.random.default_rng(15)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1, weight_decay=1e-3)
X = rng.standard_normal((4, 10, 4)).astype(np.float32)
Y = rng.integers(0, 2, (4, 10))
Xv = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
best = None
for epoch in range(2):
    model.train()
    for i in range(2):
        k = epoch * 2 + i
        x, y = mf.from_numpy(X[k, rank * 5:(rank + 1) * 5]), mf.from_numpy(Y[k, rank * 5:(rank + 1) * 5])
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        model.module.eval()
        with mf.no_grad():
            v = model.module(Xv).softmax(-1)[:, 1].mean().item()
        if best is None or v > best:
            best = v
        print("RESULT", rank, json.dumps({"epoch": epoch, "v": v, "rm": net[1].running_mean.tolist()}))
    dist.barrier()
print("RESULT", rank, json.dumps({"rv": net[1].running_var.tolist(), "best": best}))
dist.destroy_process_group()
