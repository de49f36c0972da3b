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
class Copy(mf.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        g = g.clone(); dist.all_reduce(g); return g
class Reduce(mf.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.clone(); dist.all_reduce(x); return x
    @staticmethod
    def backward(ctx, g):
        return g
g = np.random.default_rng(15)
W1 = g.standard_normal((8, 4)).astype(np.float32) * 0.3; W2 = g.standard_normal((3, 8)).astype(np.float32) * 0.3
per = 8 // world
col = nn.Parameter(mf.from_numpy(W1[rank * per:(rank + 1) * per].copy()))
row = nn.Parameter(mf.from_numpy(W2[:, rank * per:(rank + 1) * per].copy()))
opt = mf.optim.SGD([col, row], lr=0.1)
x = mf.from_numpy(g.standard_normal((5, 4)).astype(np.float32)); y = mf.from_numpy(g.integers(0, 3, 5))
for _ in range(3):
    h = F.relu(Copy.apply(x) @ col.t())
    out = Reduce.apply(h @ row.t())
    loss = F.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
parts = [mf.empty_like(col) for _ in range(world)]
dist.all_gather(parts, col.detach())
print("RESULT", rank, json.dumps({"loss": loss.item(), "col": mf.cat(parts).sum().item(), "row": row.sum().item()}))
dist.destroy_process_group()
