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
full = meshflow.arange(world * 3, dtype=meshflow.float32) * (rank + 1)
shard = meshflow.empty(3)
dist.reduce_scatter_tensor(shard, full, op=dist.ReduceOp.SUM)
back = meshflow.empty(world * 3)
dist.all_gather_into_tensor(back, shard * 2)
m = meshflow.empty(3)
dist.reduce_scatter_tensor(m, full.clone(), op=dist.ReduceOp.MAX)
print("RESULT", rank, json.dumps({"shard": shard.tolist(), "back": back.tolist(), "max": m.tolist()}))
dist.destroy_process_group()
