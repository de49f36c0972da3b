import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
odd = dist.new_group([1, 3])
t = mf.tensor([float(rank)])
r = dist.all_reduce(t, group=odd)  # every rank calls; torch's non-members skip it
objs = [None, None]
dist.all_gather_object(objs, rank * 10, group=odd)
dist.barrier(group=odd)
s = mf.tensor([1.0 + rank])
dist.all_reduce(s)
print("RESULT", rank, json.dumps({"t": t.item(), "none": r is None, "objs": objs, "s": s.item(), "grank": dist.get_rank(odd)}))
dist.destroy_process_group()
