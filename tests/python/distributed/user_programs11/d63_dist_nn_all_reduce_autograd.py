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
import meshflow.distributed.nn.functional as dnn
w = nn.Parameter(meshflow.tensor([1.0 + rank, -1.0]))
x = meshflow.tensor([2.0, 3.0 + rank])
y = dnn.all_reduce(w * x)
loss = (y ** 2).sum()
loss.backward()
print("RESULT", rank, json.dumps({"y": y.tolist(), "grad": w.grad.tolist()}))
dist.destroy_process_group()
