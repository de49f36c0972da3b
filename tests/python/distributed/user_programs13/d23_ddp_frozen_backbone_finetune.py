import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
backbone = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
head = nn.Linear(4, 3)
net = nn.Sequential(backbone, head)
g = np.random.default_rng(23)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
for p in backbone.parameters():
    p.requires_grad = False
backbone.eval()
model = DDP(net)
opt = meshflow.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1, momentum=0.5)
rng = np.random.default_rng(230 + rank)
losses = []
for _ in range(3):
    model.train(); backbone.eval()
    x = meshflow.from_numpy(rng.standard_normal((3, 2, 5, 5)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 3))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("RESULT", rank, json.dumps({"losses": losses, "trainable": trainable, "bb_grad": backbone[0].weight.grad is None,
                                  "rm": backbone[1].running_mean.tolist(), "head": round(head.weight.sum().item(), 4),
                                  "bn_training": backbone[1].training}))
dist.destroy_process_group()
