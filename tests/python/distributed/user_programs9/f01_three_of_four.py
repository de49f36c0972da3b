import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
trio = dist.new_group([1, 2, 3])
res = {"in": rank in [1, 2, 3], "grank": dist.get_rank(trio)}
if rank != 0:
    x = mf.tensor([rank * 2.0, -rank])
    dist.broadcast(x, src=2, group=trio)
    y = mf.tensor([float(rank)])
    dist.all_reduce(y, group=trio)
    objs = [None] * 3
    dist.all_gather_object(objs, {"r": rank}, group=trio)
    dist.barrier(group=trio)
    res.update(x=x.tolist(), y=y.item(), objs=objs)
z = mf.tensor([float(rank)])
dist.all_reduce(z, op=dist.ReduceOp.MAX)
res["z"] = z.item()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
