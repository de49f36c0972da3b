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
report = {"rank": rank, "loss": round(1.0 / (rank + 1), 4), "hist": list(range(rank + 2))}
box = [None] * world if rank == 1 else None
dist.gather_object(report, box, dst=1)
if rank == 1:
    print("RESULT", rank, json.dumps({"gathered": box}))
else:
    print("RESULT", rank, json.dumps({"box": box}))
dist.destroy_process_group()
