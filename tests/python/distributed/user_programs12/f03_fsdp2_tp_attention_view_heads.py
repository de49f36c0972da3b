import json, math, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
from meshflow.distributed.fsdp import fully_shard
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
class Attn(nn.Module):
    def __init__(self, d=8, hd=2):
        super().__init__()
        self.hd = hd
        self.q, self.k, self.v = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.norm = nn.LayerNorm(d)
    def forward(self, x):
        b, s, _ = x.shape
        h = self.norm(x)
        q = self.q(h).view(b, s, -1, self.hd).transpose(1, 2)
        k = self.k(h).view(b, s, -1, self.hd).transpose(1, 2)
        v = self.v(h).view(b, s, -1, self.hd).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.o(a.transpose(1, 2).reshape(b, s, -1))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Attn(), Attn()])
        self.out = nn.Linear(8, 3)
    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return self.out(x.mean(1))
net = Net()
g = np.random.default_rng(73)
with meshflow.no_grad():
    for n, p in net.named_parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3 + (1.0 if "norm.weight" in n else 0.0)).astype(np.float32)))
for l in net.layers:
    parallelize_module(l, mesh["tp"], {"q": ColwiseParallel(), "k": ColwiseParallel(), "v": ColwiseParallel(), "o": RowwiseParallel()})
    fully_shard(l, mesh=mesh["dp"])
fully_shard(net, mesh=mesh["dp"])
opt = meshflow.optim.Adam(net.parameters(), lr=0.01)
dp = mesh["dp"].get_local_rank()
rng = np.random.default_rng(300 + dp)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((2, 5, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 2))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "full": {n: round(p.full_tensor().sum().item(), 4) for n, p in net.named_parameters()}}))
dist.destroy_process_group()
