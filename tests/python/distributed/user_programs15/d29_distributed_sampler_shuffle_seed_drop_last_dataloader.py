import json
import numpy as np
import meshflow
import meshflow.distributed as dist
from meshflow.utils.data import TensorDataset, DataLoader, DistributedSampler

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ds = TensorDataset(meshflow.arange(13).float().unsqueeze(1), meshflow.arange(13) % 3)
sampler = DistributedSampler(ds, shuffle=True, seed=7, drop_last=True)
loader = DataLoader(ds, batch_size=2, sampler=sampler, drop_last=False)
epochs = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    idx = list(iter(sampler))
    batches = [(x.flatten().tolist(), y.tolist()) for x, y in loader]
    epochs.append({"idx": idx, "batches": batches})
sizes = meshflow.tensor([len(epochs[0]["idx"])])
dist.all_reduce(sizes)
print("RESULT", rank, json.dumps({"epochs": epochs, "len": len(sampler), "all": sizes.item(), "nb": len(loader)}))
dist.destroy_process_group()
