import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Normalizer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("mean", meshflow.zeros(n))
        self.register_buffer("count", meshflow.zeros((), dtype=meshflow.long))
        self.lin = nn.Linear(n, 2)
    def forward(self, x):
        if self.training:
            with meshflow.no_grad():
                self.count += 1
                self.mean.mul_(0.9).add_(0.1 * x.mean(0))
        return self.lin(x - self.mean)

dist.init_process_group("gloo")
rank = dist.get_rank()
net = Normalizer(3)
with meshflow.no_grad():
    net.lin.weight.copy_(meshflow.tensor([[0.1, 0.2, 0.3], [-0.3, 0.1, 0.2]])); net.lin.bias.zero_()
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(330 + rank)
for _ in range(3):
    x = meshflow.from_numpy((rng.standard_normal((4, 3)) + 2 * rank).astype(np.float32))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"mean": [round(v, 4) for v in net.mean.tolist()], "count": int(net.count),
                                  "buffers": [n for n, _ in model.named_buffers()],
                                  "w": round(net.lin.weight.sum().item(), 4)}))
dist.destroy_process_group()
