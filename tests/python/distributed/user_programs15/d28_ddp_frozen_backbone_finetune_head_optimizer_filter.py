import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


net = Net()
g = np.random.default_rng(28)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
for p in net.backbone.parameters():
    p.requires_grad = False
model = DDP(net)
opt = meshflow.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=0.05)
rng = np.random.default_rng(280 + rank)
losses = []
for _ in range(3):
    x = meshflow.tensor(rng.standard_normal((4, 5)).astype(np.float32))
    y = meshflow.tensor(rng.integers(0, 3, 4))
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "trainable": sum(p.numel() for p in model.parameters() if p.requires_grad),
                                  "bb_grad": net.backbone[0].weight.grad is None,
                                  "head": round(net.head.weight.sum().item(), 5),
                                  "bb": round(net.backbone[0].weight.sum().item(), 5)}))
dist.destroy_process_group()
