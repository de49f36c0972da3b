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
from meshflow.utils.data import DistributedSampler, TensorDataset
ds = TensorDataset(meshflow.arange(11).float(), meshflow.arange(11))
sampler = DistributedSampler(ds, shuffle=True, seed=7)
epochs = []
for epoch in range(3):
    sampler.set_epoch(epoch)
    epochs.append(list(iter(sampler)))
print("RESULT", rank, json.dumps({"len": len(sampler), "total": sampler.total_size, "epochs": epochs}))
dist.destroy_process_group()
