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
inputs = [meshflow.arange(3, dtype=meshflow.float32) + float(10 * rank + r) for r in range(world)]
outputs = [meshflow.empty(3) for r in range(world)]
dist.all_to_all(outputs, inputs)
print("RESULT", rank, json.dumps({"out": [o.tolist() for o in outputs]}))
dist.destroy_process_group()
