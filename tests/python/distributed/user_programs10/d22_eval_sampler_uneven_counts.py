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
from meshflow.utils.data import TensorDataset, DataLoader, DistributedSampler
g = np.random.default_rng(22)
ds = TensorDataset(mf.from_numpy(g.standard_normal((11, 3)).astype(np.float32)), mf.from_numpy(g.integers(0, 2, 11)))
net = nn.Linear(3, 2); init_(net, 22)
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
loader = DataLoader(ds, batch_size=4, sampler=sampler)
net.eval()
hits = mf.tensor([0.0, 0.0])
with mf.no_grad():
    for x, y in loader:
        hits[0] += (net(x).argmax(1) == y).sum().item(); hits[1] += len(y)
dist.all_reduce(hits)
print("RESULT", rank, json.dumps({"idx": list(sampler), "hits": hits.tolist(), "batches": len(loader)}))
dist.destroy_process_group()
