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
t = meshflow.tensor([rank * 1.5, rank + 0.5])
glist = [meshflow.empty(2) for _ in range(world)] if rank == 1 else None
dist.gather(t, gather_list=glist, dst=1)
out = meshflow.empty(3)
slist = [meshflow.full((3,), float(r) * 2) for r in range(world)] if rank == 1 else None
dist.scatter(out, scatter_list=slist, src=1)
print("RESULT", rank, json.dumps({"gathered": None if glist is None else [x.tolist() for x in glist], "out": out.tolist()}))
dist.destroy_process_group()
