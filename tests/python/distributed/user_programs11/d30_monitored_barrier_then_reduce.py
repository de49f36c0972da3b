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
from datetime import timedelta
t = meshflow.tensor([float(rank + 1)])
dist.monitored_barrier(timeout=timedelta(seconds=60))
dist.monitored_barrier(timeout=timedelta(seconds=60), wait_all_ranks=True)
dist.all_reduce(t)
print("RESULT", rank, json.dumps({"sum": t.item()}))
dist.destroy_process_group()
