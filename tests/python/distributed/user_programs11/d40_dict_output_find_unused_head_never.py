import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 6); self.cls = nn.Linear(6, 3); self.reg = nn.Linear(6, 1); self.unused_head = nn.Linear(6, 2)
    def forward(self, x):
        h = meshflow.relu(self.body(x))
        return {"logits": self.cls(h), "value": self.reg(h)}
net = Net(); init_(net, 40)
model = DDP(net, find_unused_parameters=True)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(400 + rank)
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32))
    out = model(x)
    loss = F.cross_entropy(out["logits"], meshflow.from_numpy(rng.integers(0, 3, 4))) + out["value"].pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"unused_none": net.unused_head.weight.grad is None, "w": sums(net)}))
dist.destroy_process_group()
