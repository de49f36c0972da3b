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
rng = np.random.default_rng(1400 + rank)
metrics = {"rank": rank, "loss": float(np.round(rng.random(), 6)), "n": int(rng.integers(5, 10)), "tags": ["a" * (rank + 1)]}
gathered = [None] * world
dist.all_gather_object(gathered, metrics)
total_n = sum(m["n"] for m in gathered)
weighted = sum(m["loss"] * m["n"] for m in gathered) / total_n
objs = [None] * world if rank == 0 else None
dist.gather_object({"r": rank, "sq": rank * rank}, objs, dst=0)
print("RESULT", rank, json.dumps({"gathered": gathered, "weighted": weighted, "objs": objs}))
dist.destroy_process_group()
