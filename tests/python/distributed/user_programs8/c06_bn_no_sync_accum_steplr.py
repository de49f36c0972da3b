import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2, 3))
rng = np.random.default_rng(45)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
X = rng.standard_normal((4, 2, 3, 1, 4, 4)).astype(np.float32); Y = rng.integers(0, 3, (4, 2, 3))
for i in range(4):
    x, y = mf.from_numpy(X[i, rank]), mf.from_numpy(Y[i, rank])
    if i % 2 == 0:
        with model.no_sync():
            nn.functional.cross_entropy(model(x), y).backward()
    else:
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step(); opt.zero_grad()
print("RESULT", rank, json.dumps({"rm": net[1].running_mean.tolist(), "w": net[5].weight.tolist(), "nbt": net[1].num_batches_tracked.item()}))
dist.destroy_process_group()
