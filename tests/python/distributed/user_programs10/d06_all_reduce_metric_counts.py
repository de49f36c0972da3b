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
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)); init_(net, 7)
rng = np.random.default_rng(600 + rank)
correct = mf.zeros(1); total = mf.zeros(1); loss_sum = mf.zeros(1)
with mf.no_grad():
    for _ in range(3):
        x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = mf.from_numpy(rng.integers(0, 3, 5))
        out = net(x)
        correct += (out.argmax(dim=1) == y).sum()
        total += y.numel()
        loss_sum += F.cross_entropy(out, y, reduction="sum")
stats = mf.cat([correct, total, loss_sum])
dist.all_reduce(stats, op=dist.ReduceOp.SUM)
acc = (stats[0] / stats[1]).item()
print("RESULT", rank, json.dumps({"stats": stats.tolist(), "acc": acc, "avg_loss": (stats[2] / stats[1]).item()}))
dist.destroy_process_group()
