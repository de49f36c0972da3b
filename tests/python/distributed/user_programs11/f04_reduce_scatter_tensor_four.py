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
x = meshflow.arange(8, dtype=meshflow.float32).reshape(4, 2) + rank
shard = meshflow.empty(1, 2)
dist.reduce_scatter_tensor(shard, x)
gathered = meshflow.empty(4, 2)
dist.all_gather_into_tensor(gathered, shard)
pair = dist.new_group([0, 1]); pair2 = dist.new_group([2, 3])
g = pair if rank < 2 else pair2
half = meshflow.empty(2, 2)
dist.reduce_scatter_tensor(half, x, group=g)
print("RESULT", rank, json.dumps({"shard": shard.tolist(), "gathered": gathered.tolist(), "half": half.tolist()}))
dist.destroy_process_group()
