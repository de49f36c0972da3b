import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1, groups=8),
                    nn.BatchNorm2d(8), nn.ReLU6(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.0), nn.Linear(8, 3))
g = np.random.default_rng(52)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
net = net.to(memory_format=meshflow.channels_last)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rng = np.random.default_rng(520 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((2, 3, 6, 6)).astype(np.float32)).contiguous(memory_format=meshflow.channels_last)
    y = meshflow.from_numpy(rng.integers(0, 3, 2))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "cl": net[0].weight.is_contiguous(memory_format=meshflow.channels_last),
                                  "rv": round(net[4].running_var.sum().item(), 4)}))
dist.destroy_process_group()
