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
rng = np.random.default_rng(3200 + rank)
y_local = mf.from_numpy(rng.integers(0, 4, 20 + 5 * rank))
counts = mf.bincount(y_local, minlength=4).float()
dist.all_reduce(counts)
weights = counts.sum() / (4 * counts.clamp(min=1))
net = nn.Linear(5, 4); init_(net, 32)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
x = mf.from_numpy(rng.standard_normal((len(y_local), 5)).astype(np.float32))
loss = F.cross_entropy(model(x), y_local, weight=weights)
opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"counts": counts.tolist(), "weights": weights.tolist(), "w": sums(net)}))
dist.destroy_process_group()
