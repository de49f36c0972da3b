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
net = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 5)); init_(net, 35)
model = DDP(net)
rng = np.random.default_rng(350 + rank)
model.eval()
stats = meshflow.zeros(4, dtype=meshflow.float64)
with meshflow.no_grad():
    for _ in range(3):
        x = meshflow.from_numpy(rng.standard_normal((7, 6)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 5, 7))
        logits = model(x)
        stats[0] += F.cross_entropy(logits, y, reduction="sum").item()
        stats[1] += (logits.argmax(1) == y).sum().item()
        top2 = logits.topk(2, dim=1).indices
        stats[2] += (top2 == y.unsqueeze(1)).any(1).sum().item()
        stats[3] += y.numel()
dist.all_reduce(stats, op=dist.ReduceOp.SUM)
print("RESULT", rank, json.dumps({"loss": round((stats[0] / stats[3]).item(), 5), "acc": (stats[1] / stats[3]).item(), "top2": (stats[2] / stats[3]).item(), "n": int(stats[3])}))
dist.destroy_process_group()
