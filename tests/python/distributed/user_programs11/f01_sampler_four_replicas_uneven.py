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
from meshflow.utils.data import DistributedSampler
ds = list(range(10))
a = DistributedSampler(ds, shuffle=True, seed=11); a.set_epoch(2)
b = DistributedSampler(ds, shuffle=False, drop_last=True)
c = DistributedSampler(ds, num_replicas=2, rank=rank % 2, shuffle=False)
print("RESULT", rank, json.dumps({"a": list(a), "b": list(b), "c": list(c), "lens": [len(a), len(b), len(c)]}))
dist.destroy_process_group()
