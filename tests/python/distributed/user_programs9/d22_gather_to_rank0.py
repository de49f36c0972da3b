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
local = mf.arange(3, dtype=mf.float32) + 10 * rank
if rank == 0:
    bucket = [mf.zeros(3) for _ in range(world)]
    dist.gather(local, gather_list=bucket, dst=0)
    print("RESULT", rank, json.dumps(mf.stack(bucket).tolist()))
else:
    dist.gather(local, dst=0)
summed = local.clone()
dist.reduce(summed, dst=1, op=dist.ReduceOp.SUM)
if rank == 1:  # only dst's tensor is specified (gloo leaves a partial sum in the others')
    print("RESULT", rank, json.dumps(summed.tolist()))
dist.destroy_process_group()
