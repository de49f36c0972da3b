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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.world = dist.get_world_size() if dist.is_initialized() else 1
    def forward(self, x):
        return self.fc(x) / self.world
net = Net(); init_(net, 45)
model = DDP(net, gradient_as_bucket_view=True)
opt = mf.optim.NAdam(model.parameters(), lr=0.02)
rng = np.random.default_rng(4500 + rank)
works, vals = [], []
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=False); loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.05)
    opt.step()
    v = loss.detach().reshape(1).clone()
    works.append(dist.all_reduce(v, async_op=True)); vals.append(v)
for w in works:
    w.wait()
print("RESULT", rank, json.dumps({"backend": dist.get_backend(), "vals": [v.item() for v in vals], "w": sums(net)}))
dist.destroy_process_group()
