import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.distributed.optim import ZeroRedundancyOptimizer

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
g = np.random.default_rng(8)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=meshflow.optim.Adam, lr=0.01)
rng = np.random.default_rng(900 + rank)
losses = []
for _ in range(4):
    x = meshflow.from_numpy(rng.standard_normal((6, 5)).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 6))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
opt.consolidate_state_dict(to=0)
info = {"losses": losses, "w": [round(p.sum().item(), 5) for p in net.parameters()]}
if rank == 0:
    sd = opt.state_dict()
    info["nstate"] = len(sd["state"])
    info["steps"] = sorted({int(s["step"]) for s in sd["state"].values()})
    info["lr"] = sd["param_groups"][0]["lr"]
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
