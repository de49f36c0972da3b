import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Conv2d(1, 4, 3, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                    nn.Dropout(0.0), nn.Linear(4, 3))
g = np.random.default_rng(24)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(2400 + rank)
xv = meshflow.from_numpy(np.random.default_rng(99).standard_normal((4, 1, 5, 5)).astype(np.float32))
yv = meshflow.tensor([0, 1, 2, 0])
log = []
for epoch in range(2):
    model.train()
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((4, 1, 5, 5)).astype(np.float32) + rank)
        y = meshflow.from_numpy(rng.integers(0, 3, 4))
        loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with meshflow.no_grad():
        v = F.cross_entropy(model(xv), yv)
    t = v.clone(); dist.all_reduce(t)
    log.append([round(v.item(), 5), round(t.item() / world, 5)])
print("RESULT", rank, json.dumps({"log": log, "rm": [round(x, 5) for x in net[1].running_mean.tolist()],
                                  "nbt": int(net[1].num_batches_tracked)}))
dist.destroy_process_group()
