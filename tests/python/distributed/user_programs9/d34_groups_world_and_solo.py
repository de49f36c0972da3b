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
g_all = dist.new_group(ranks=[0, 1])
g0 = dist.new_group(ranks=[0])
info = {"ranks": dist.get_process_group_ranks(g_all), "size": dist.get_world_size(g_all), "grank": dist.get_rank(g_all)}
t = mf.tensor([rank + 1.0])
dist.all_reduce(t, group=g_all)
if rank == 0:
    s = mf.tensor([3.0])
    dist.all_reduce(s, group=g0)
    info["solo"] = s.tolist()
    info["g0"] = [dist.get_rank(g0), dist.get_world_size(g0)]
dist.barrier(group=g_all)
info["t"] = t.tolist()
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
