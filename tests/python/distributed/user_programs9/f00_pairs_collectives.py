import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
mine = pairs[rank // 2]
t = mf.tensor([float(rank + 1), 1.0])
dist.all_reduce(t, group=mine)
parts = [mf.zeros(1) for _ in range(2)]
dist.all_gather(parts, mf.tensor([rank * 10.0]), group=mine)
b = mf.tensor([float(rank)])
dist.broadcast(b, src=(rank // 2) * 2 + 1, group=mine)
m = mf.tensor([float(rank % 3)])
dist.all_reduce(m, op=dist.ReduceOp.MAX, group=mine)
dist.barrier()
w = mf.tensor([1.0])
dist.all_reduce(w)
print("RESULT", rank, json.dumps({"t": t.tolist(), "parts": [p.item() for p in parts], "b": b.item(), "m": m.item(), "w": w.item(), "grank": dist.get_rank(mine)}))
dist.destroy_process_group()
