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
net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3, momentum=0.3), nn.ReLU(), nn.Linear(3, 1)); init_(net, 36)
model = DDP(net, broadcast_buffers=True)
opt = mf.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(360 + rank)
for _ in range(3):
    x = mf.from_numpy((rng.standard_normal((5, 2)) + rank).astype(np.float32))
    loss = model(x).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
net.eval()
with mf.no_grad():
    y = model(mf.from_numpy(np.full((2, 2), rank, np.float32)))
print("RESULT", rank, json.dumps({"y": y.flatten().tolist(), "rm": net[1].running_mean.tolist(), "nbt": net[1].num_batches_tracked.item()}))
dist.destroy_process_group()
