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
stats = {"rank": rank, "names": ["x"] * (rank + 1), "score": 0.5 * (rank + 1), "nested": {"t": (rank, rank * 2)}}
out = [None] * world
dist.all_gather_object(out, stats)
total = sum(o["score"] for o in out)
print("RESULT", rank, json.dumps({"out": [{**o, "nested": {"t": list(o["nested"]["t"])}} for o in out], "total": total}))
dist.destroy_process_group()
