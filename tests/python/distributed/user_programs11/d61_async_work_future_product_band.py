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
a = meshflow.tensor([2.0 + rank, 1.5])
w = dist.all_reduce(a, op=dist.ReduceOp.PRODUCT, async_op=True)
w.wait()
b = meshflow.tensor([0b1100 | rank, 0b1010], dtype=meshflow.int64)
fut = dist.all_reduce(b, op=dist.ReduceOp.BAND, async_op=True).get_future()
vals = fut.wait()
c = meshflow.tensor([1 << rank], dtype=meshflow.int32)
dist.all_reduce(c, op=dist.ReduceOp.BOR)
print("RESULT", rank, json.dumps({"prod": a.tolist(), "band": b.tolist(), "fut_is_list": isinstance(vals, list), "bor": c.item(), "done": w.is_completed()}))
dist.destroy_process_group()
