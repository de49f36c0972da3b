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
net = nn.Linear(4, 3); init_(net, 12)
rng = np.random.default_rng(1200 + rank)
x = mf.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
with mf.no_grad():
    pred = net(x).argmax(-1)
bucket = [mf.zeros_like(pred) for _ in range(world)] if rank == 0 else None
dist.gather(pred, gather_list=bucket, dst=0)
probs = F.softmax(net(x), dim=-1).detach()
all_probs = [mf.empty(5, 3) for _ in range(world)]
dist.all_gather(all_probs, probs)
res = {"mean": mf.cat(all_probs).mean(0).tolist()}
if rank == 0:
    res["preds"] = mf.cat(bucket).tolist()
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
