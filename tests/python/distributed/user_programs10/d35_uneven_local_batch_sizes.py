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
net = nn.Linear(3, 2); init_(net, 35)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.2)
rng = np.random.default_rng(3500 + rank)
n = 3 + 2 * rank
x = mf.from_numpy(rng.standard_normal((n, 3)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 2, n))
loss = F.cross_entropy(model(x), y)
opt.zero_grad(); loss.backward()
g = net.weight.grad.clone()
opt.step()
print("RESULT", rank, json.dumps({"n": n, "loss": loss.item(), "g": g.tolist(), "w": sums(net)}))
dist.destroy_process_group()
