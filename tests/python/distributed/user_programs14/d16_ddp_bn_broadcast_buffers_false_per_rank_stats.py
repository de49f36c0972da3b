import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1d(6, momentum=0.2)
        self.head = nn.Linear(6, 2)
        self.register_buffer("seen", meshflow.zeros((), dtype=meshflow.int64))
    def forward(self, x):
        if self.training:
            self.seen += x.shape[0]
        return self.head(F.relu(self.bn(self.fc(x))))
net = Net()
g = np.random.default_rng(4)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net, broadcast_buffers=False)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(500 + rank)
for _ in range(3):
    x = meshflow.from_numpy((rng.standard_normal((6 + 2 * rank, 4)) + rank).astype(np.float32))
    y = meshflow.from_numpy(rng.integers(0, 2, 6 + 2 * rank))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
model.eval()
with meshflow.no_grad():
    out = model(meshflow.ones(2, 4))
print("RESULT", rank, json.dumps({"rm": [round(v, 5) for v in net.bn.running_mean.tolist()],
                                  "rv": round(net.bn.running_var.sum().item(), 5), "seen": int(net.seen),
                                  "nbt": int(net.bn.num_batches_tracked), "out": [round(v, 5) for v in out.flatten().tolist()],
                                  "w": round(net.fc.weight.sum().item(), 5)}))
dist.destroy_process_group()
