import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1)); init_(net, 12)
model = DDP(net)
rng = np.random.default_rng(12)
X = rng.standard_normal((10, 3)).astype(np.float32); Y = X @ np.array([[1.0], [-1.0], [0.5]], np.float32)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
with mf.no_grad():
    net[3].p = 0.0
for _ in range(2):
    x = mf.from_numpy(X[rank * 4:(rank + 1) * 4]); y = mf.from_numpy(Y[rank * 4:(rank + 1) * 4])
    loss = F.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
model.eval()
val = mf.from_numpy(X[8 + rank:9 + rank]), mf.from_numpy(Y[8 + rank:9 + rank])
with mf.no_grad():
    err = F.mse_loss(model(val[0]), val[1], reduction="sum")
stats = mf.tensor([err.item(), 1.0])
dist.all_reduce(stats, op=dist.ReduceOp.SUM)
print("RESULT", rank, json.dumps({"val": (stats[0] / stats[1]).item(), "training": model.training, "rv": net[1].running_var.tolist()}))
dist.destroy_process_group()
