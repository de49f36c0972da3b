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
odd = dist.new_group([1, 3]); even = dist.new_group([0, 2])
mine = odd if rank % 2 else even
dst = 3 if rank % 2 else 2
box = [None] * 2 if rank == dst else None
dist.gather_object({"r": rank}, box, dst=dst, group=mine)
out = [None]
src = 1 if rank % 2 else 0
dist.scatter_object_list(out, [f"to{i}" for i in range(2)] if rank == src else None, src=src, group=mine)
objs = [rank * 10 if rank == src else None]
dist.broadcast_object_list(objs, src=src, group=mine)
print("RESULT", rank, json.dumps({"box": box, "out": out[0], "objs": objs, "gws": dist.get_world_size(mine)}))
dist.destroy_process_group()
