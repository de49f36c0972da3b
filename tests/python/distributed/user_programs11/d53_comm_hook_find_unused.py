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
        self.a = nn.Linear(4, 3); self.b = nn.Linear(4, 3)
    def forward(self, x, which):
        return self.a(x) if which == 0 else self.b(x)
def hook(state, bucket):
    buf = bucket.buffer()
    return dist.all_reduce(buf, async_op=True).get_future().then(lambda f: f.value()[0] / world)
net = Net(); init_(net, 53)
model = DDP(net, find_unused_parameters=True)
model.register_comm_hook(None, hook)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(530 + rank)
for step in range(3):
    x = meshflow.from_numpy(rng.standard_normal((3, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 3))
    loss = F.cross_entropy(model(x, (step + rank) % 2), y); opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"w": sums(net)}))
dist.destroy_process_group()
