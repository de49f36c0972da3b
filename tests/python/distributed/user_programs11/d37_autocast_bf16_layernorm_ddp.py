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
        self.fc1 = nn.Linear(6, 8); self.ln = nn.LayerNorm(8); self.fc2 = nn.Linear(8, 3)
    def forward(self, x):
        h = self.fc1(x); self.dt = [str(h.dtype)]
        h = self.ln(h); self.dt.append(str(h.dtype))
        h = F.gelu(h); out = self.fc2(h); self.dt.append(str(out.dtype))
        return out
net = Net(); init_(net, 37)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(370 + rank)
losses = []
for _ in range(2):
    x = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
    with meshflow.autocast(device_type="cpu", dtype=meshflow.bfloat16):
        out = model(x)
        loss = F.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(round(loss.item(), 2))
print("RESULT", rank, json.dumps({"dtypes": net.dt, "loss_dtype": str(loss.dtype), "grad_dtype": str(net.fc1.weight.grad.dtype), "losses": losses, "w": [round(v, 2) for v in sums(net)]}))
dist.destroy_process_group()
