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
from meshflow.utils.data import DataLoader, DistributedSampler, TensorDataset
ds = TensorDataset(meshflow.arange(7, dtype=meshflow.float32).unsqueeze(1) * 10)
s = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False, drop_last=True)
loader = DataLoader(ds, batch_size=2, sampler=s)
batches = [b[0].squeeze(1).tolist() for b in loader]
print("RESULT", rank, json.dumps({"len_sampler": len(s), "len_loader": len(loader), "batches": batches, "indices": list(s)}))
dist.destroy_process_group()
