import json, meshflow as mf
import meshflow.distributed as dist
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ds = TensorDataset(mf.arange(11, dtype=mf.float32) * 2, mf.arange(11))
res = {}
for drop in [False, True]:
    sampler = DistributedSampler(ds, shuffle=True, seed=123, drop_last=drop)
    loader = DataLoader(ds, batch_size=2, sampler=sampler)
    ep = []
    for epoch in range(3):
        sampler.set_epoch(epoch)
        ep.append([b[1].tolist() for b in loader])
    res[str(drop)] = [ep, len(sampler), len(loader)]
s2 = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
res["plain"] = list(iter(s2))
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
