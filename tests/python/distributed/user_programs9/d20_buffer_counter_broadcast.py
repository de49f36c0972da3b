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
class Counted(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("calls", mf.zeros(1))
        self.register_buffer("ema", mf.zeros(2))
    def forward(self, x):
        if self.training:
            self.calls += 1
            self.ema.mul_(0.5).add_(0.5 * x.detach().mean(0))
        return self.fc(x - self.ema)
net = Counted(); init_(net, 20)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x = mf.full((2, 2), float(rank + step))
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"calls": net.calls.item(), "ema": net.ema.tolist(), "w": net.fc.weight.tolist()}))
dist.destroy_process_group()
