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
g = dist.new_group(ranks=list(range(world)))
solo = [dist.new_group(ranks=[r]) for r in range(world)]
mine = solo[rank]
t = meshflow.tensor([rank + 1.0])
dist.all_reduce(t, group=mine)
info = {"ws_g": dist.get_world_size(g), "ws_solo": dist.get_world_size(mine), "rank_solo": dist.get_rank(mine),
        "size": g.size(), "rank_g": g.rank(), "global_of_0": dist.get_global_rank(mine, 0), "group_rank": dist.get_group_rank(g, rank),
        "backend": dist.get_backend(g), "avail": dist.is_available(), "gloo": dist.is_gloo_available(), "init": dist.is_initialized(),
        "solo_sum": t.item(), "ws_default": dist.get_world_size(group=dist.group.WORLD)}
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
