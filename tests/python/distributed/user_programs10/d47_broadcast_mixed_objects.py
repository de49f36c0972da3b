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
if rank == 0:
    objs = [np.arange(4, dtype=np.float32) * 1.5, {"vocab": ["a", "b", "c"], "n": 3}, (1, 2.5, None), mf.tensor([[1, 2], [3, 4]])]
else:
    objs = [None, None, None, None]
dist.broadcast_object_list(objs, src=0)
arr, meta, tup, t = objs
print("RESULT", rank, json.dumps({"arr": arr.tolist(), "meta": meta, "tup": list(tup), "t": t.tolist(), "t_dtype": str(t.dtype)}))
dist.destroy_process_group()
