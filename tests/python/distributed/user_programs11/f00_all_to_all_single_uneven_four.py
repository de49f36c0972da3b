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
send = [(rank + r) % 3 + 1 for r in range(world)]
recv_t = meshflow.empty(world, dtype=meshflow.int64)
dist.all_to_all_single(recv_t, meshflow.tensor(send))
recv = recv_t.tolist()
inp = meshflow.cat([meshflow.full((c,), float(10 * rank + r)) for r, c in enumerate(send)])
out = meshflow.empty(sum(recv))
dist.all_to_all_single(out, inp, recv, send)
print("RESULT", rank, json.dumps({"recv": recv, "out": out.tolist()}))
dist.destroy_process_group()
