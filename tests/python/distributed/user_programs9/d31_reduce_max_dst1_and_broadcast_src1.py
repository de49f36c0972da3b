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
t = mf.tensor([float(rank), 5.0 - rank, 2.0])
dist.reduce(t, dst=1, op=dist.ReduceOp.MAX)
u = mf.tensor([rank * 1.5, -1.0]) if rank == 1 else mf.zeros(2)
dist.broadcast(u, src=1)
p = mf.tensor([rank + 2.0])
dist.all_reduce(p, op=dist.ReduceOp.PRODUCT)
i = mf.tensor([rank + 1, 7], dtype=mf.int64)
dist.all_reduce(i)
print("RESULT", rank, json.dumps({"t": t.tolist() if rank == 1 else None, "u": u.tolist(), "p": p.tolist(), "i": i.tolist(), "dt": str(i.dtype)}))
dist.destroy_process_group()
