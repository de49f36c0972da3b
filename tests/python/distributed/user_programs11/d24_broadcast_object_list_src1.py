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
objs = [None, None, None]
if rank == 1:
    objs = [{"lr": 0.1, "layers": [4, 8]}, "adam", (3, "x")]
dist.broadcast_object_list(objs, src=1)
print("RESULT", rank, json.dumps({"cfg": objs[0], "name": objs[1], "tup": list(objs[2]), "is_tuple": isinstance(objs[2], tuple)}))
dist.destroy_process_group()
