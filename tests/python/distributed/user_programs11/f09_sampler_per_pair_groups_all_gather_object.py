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
from meshflow.utils.data import DistributedSampler
pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
pg = pairs[rank // 2]
s = DistributedSampler(list(range(7)), num_replicas=dist.get_world_size(pg), rank=dist.get_rank(pg), shuffle=True, seed=rank // 2)
s.set_epoch(1)
mine = list(s)
both = [None] * 2
dist.all_gather_object(both, mine, group=pg)
print("RESULT", rank, json.dumps({"mine": mine, "both": both, "group_rank": dist.get_rank(pg)}))
dist.destroy_process_group()
