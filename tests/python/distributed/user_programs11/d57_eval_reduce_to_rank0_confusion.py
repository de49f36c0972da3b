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
net = nn.Sequential(nn.Linear(4, 3)); init_(net, 57)
model = DDP(net).eval()
rng = np.random.default_rng(570 + rank)
conf = meshflow.zeros(3, 3, dtype=meshflow.int64)
with meshflow.no_grad():
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 6))
        p = model(x).argmax(1)
        conf += meshflow.bincount(y * 3 + p, minlength=9).reshape(3, 3)
dist.reduce(conf, dst=0)
if rank == 0:
    acc = conf.diag().sum().item() / conf.sum().item()
    print("RESULT", rank, json.dumps({"conf": conf.tolist(), "acc": round(acc, 5)}))
dist.destroy_process_group()
