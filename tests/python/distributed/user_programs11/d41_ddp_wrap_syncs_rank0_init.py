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
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)); init_(net, 41 + 10 * rank)
with meshflow.no_grad():
    net[1].running_mean.fill_(float(rank)); net[1].running_var.fill_(1.0 + rank)
before = sums(net)
model = DDP(net)
after = sums(net)
print("RESULT", rank, json.dumps({"before": before, "after": after, "rm": net[1].running_mean.tolist(), "rv": net[1].running_var.tolist()}))
dist.destroy_process_group()
