import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Conv1d(2, 3, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 1))
rng = np.random.default_rng(17)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net, broadcast_buffers=False)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
X = rng.standard_normal((3, 2, 4, 2, 6)).astype(np.float32)
for i in range(3):
    x = mf.from_numpy(X[i, rank])
    loss = model(x).mean()
    opt.zero_grad(); loss.backward(); opt.step()
model.eval()
with mf.no_grad():
    y = model(mf.ones(1, 2, 6))
print("RESULT", rank, json.dumps({"rm": net[1].running_mean.tolist(), "rv": net[1].running_var.tolist(), "y": y.tolist(), "w": net[4].weight.tolist()}))
dist.destroy_process_group()
