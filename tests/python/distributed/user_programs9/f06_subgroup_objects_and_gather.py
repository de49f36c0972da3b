import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
first, rest = dist.new_group([0, 1, 2]), dist.new_group([3])
res = {}
if rank < 3:
    objs = [None] * 3
    dist.all_gather_object(objs, f"r{rank}", group=first)
    got = [None]
    dist.broadcast_object_list(got if rank != 1 else [{"cfg": 1}], src=1, group=first)
    bucket = [mf.zeros(2) for _ in range(3)] if rank == 2 else None
    dist.gather(mf.full((2,), float(rank)), gather_list=bucket, dst=2, group=first)
    res.update(objs=objs, got=got[0] if rank != 1 else {"cfg": 1}, bucket=[b.tolist() for b in bucket] if bucket else None)
else:
    t = mf.tensor([7.0])
    dist.all_reduce(t, group=rest)
    res["solo"] = t.item()
dist.barrier()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
