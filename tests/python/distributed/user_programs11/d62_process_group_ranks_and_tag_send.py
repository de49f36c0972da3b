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
g = dist.new_group([1, 0])
ranks = dist.get_process_group_ranks(g)
t = meshflow.tensor([float(rank)])
if rank == 0:
    dist.send(meshflow.tensor([7.0]), dst=1, tag=3)
    dist.send(meshflow.tensor([9.0]), dst=1, tag=4)
    got = None
else:
    first = meshflow.empty(1); dist.recv(first, src=0, tag=3)
    second = meshflow.empty(1); dist.recv(second, src=0, tag=4)
    got = [first.item(), second.item()]
dist.broadcast(t, src=1, group=g)
print("RESULT", rank, json.dumps({"ranks": ranks, "got": got, "t": t.item()}))
dist.destroy_process_group()
