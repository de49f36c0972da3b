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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
g = dist.new_group(ranks=list(range(world)), backend="gloo")
info = {"ranks": dist.get_process_group_ranks(g), "global": dist.get_global_rank(g, world - 1), "grank": dist.get_rank(g),
        "gsize": dist.get_world_size(group=g)}
t = mf.arange(4.0) * (rank + 1)
work = dist.broadcast(t, src=world - 1, group=g, async_op=True)
work.wait()
info["done"] = work.is_completed()
info["t"] = t.tolist()
s = mf.tensor([float(rank)])
dist.all_reduce(s, group=g)
info["s"] = s.item()
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
