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
rng = np.random.default_rng(4600 + rank)
lengths = mf.from_numpy(rng.integers(3, 20, 5))
lo, hi = lengths.min().reshape(1).clone(), lengths.max().reshape(1).clone()
dist.all_reduce(lo, op=dist.ReduceOp.MIN); dist.all_reduce(hi, op=dist.ReduceOp.MAX)
tot = lengths.sum().reshape(1).clone(); dist.all_reduce(tot)
flags = (lengths > 10).int().sum().reshape(1); dist.all_reduce(flags)
print("RESULT", rank, json.dumps({"lo": lo.item(), "hi": hi.item(), "tot": tot.item(), "flags": flags.item(), "dtype": str(tot.dtype)}))
dist.destroy_process_group()
