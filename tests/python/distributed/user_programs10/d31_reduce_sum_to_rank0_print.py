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
net = nn.Linear(3, 1); init_(net, 31)
rng = np.random.default_rng(3100 + rank)
x = mf.from_numpy(rng.standard_normal((7, 3)).astype(np.float32)); y = mf.from_numpy(rng.standard_normal((7, 1)).astype(np.float32))
with mf.no_grad():
    sq = ((net(x) - y) ** 2).sum()
stat = mf.stack([sq, mf.tensor(float(len(x)))])
dist.reduce(stat, dst=0, op=dist.ReduceOp.SUM)
res = {}
if rank == 0:
    res["rmse"] = (stat[0] / stat[1]).sqrt().item()
    print(f"global rmse {res['rmse']:.4f}")
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
