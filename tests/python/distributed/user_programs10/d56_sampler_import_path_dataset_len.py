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
from meshflow.utils.data.distributed import DistributedSampler
from meshflow.utils.data import TensorDataset, DataLoader
g = np.random.default_rng(56)
ds = TensorDataset(mf.from_numpy(g.standard_normal((9, 3)).astype(np.float32)), mf.from_numpy(g.standard_normal((9, 1)).astype(np.float32)))
loader = DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds, shuffle=False))
net = nn.Linear(3, 1); init_(net, 56)
sse = mf.zeros(1)
with mf.no_grad():
    for x, y in loader:
        sse += ((net(x) - y) ** 2).sum()
dist.all_reduce(sse)
print("RESULT", rank, json.dumps({"mse": sse.item() / len(loader.dataset), "n_sampler": len(loader.sampler), "n_batches": len(loader)}))
dist.destroy_process_group()
