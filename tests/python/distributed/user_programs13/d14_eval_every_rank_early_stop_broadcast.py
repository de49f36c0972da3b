import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
g = np.random.default_rng(14)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.05)
rng = np.random.default_rng(140 + rank)
xv = meshflow.from_numpy(np.random.default_rng(141 + rank).standard_normal((5, 2)).astype(np.float32))
yv = xv.sum(1, keepdim=True)
best, bad, patience, history, stop_epoch = float("inf"), 0, 2, [], None
for epoch in range(12):
    model.train()
    x = meshflow.from_numpy(rng.standard_normal((6, 2)).astype(np.float32))
    loss = F.mse_loss(model(x), x.sum(1, keepdim=True))
    opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with meshflow.no_grad():
        v = F.mse_loss(model(xv), yv, reduction="sum")
    v = meshflow.tensor([v.item(), float(len(xv))])
    dist.all_reduce(v)
    val = v[0].item() / v[1].item()
    history.append(round(val, 4))
    flag = meshflow.zeros(1)
    if rank == 0:
        if val < best - 1e-3:
            best, bad = val, 0
        else:
            bad += 1
        if bad >= patience or val < 0.05:
            flag.fill_(1)
    dist.broadcast(flag, src=0)
    if flag.item() == 1:
        stop_epoch = epoch
        break
print("RESULT", rank, json.dumps({"history": history, "stop": stop_epoch, "best": round(best, 4) if rank == 0 else None}))
dist.destroy_process_group()
