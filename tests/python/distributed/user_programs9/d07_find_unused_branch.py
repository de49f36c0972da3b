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
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(3, 4)
        self.head_a = nn.Linear(4, 2)
        self.head_b = nn.Linear(4, 2)
    def forward(self, x, use_b):
        h = F.relu(self.trunk(x))
        return self.head_b(h) if use_b else self.head_a(h)
net = Net(); init_(net, 7)
model = DDP(net, find_unused_parameters=True)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
rng = np.random.default_rng(70 + rank)
for step in range(4):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
    out = model(x, use_b=(step % 2 == 1))
    loss = out.pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({n: p.sum().item() for n, p in net.named_parameters()}))
print("RESULT", rank, json.dumps({"a_grad_none": net.head_a.weight.grad is None}))
dist.destroy_process_group()
