import json, meshflow, meshflow.distributed as dist
from meshflow.utils.data import BatchSampler, DataLoader, DistributedSampler, TensorDataset

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ds = TensorDataset(meshflow.arange(13, dtype=meshflow.float32).unsqueeze(1), meshflow.arange(13) % 3)
sampler = DistributedSampler(ds, shuffle=False, drop_last=False)
bs = BatchSampler(sampler, batch_size=3, drop_last=True)
loader = DataLoader(ds, batch_sampler=bs)
seen = [b[0].flatten().tolist() for b in loader]
s = meshflow.tensor([sum(sum(b) for b in seen)])
dist.all_reduce(s)
loader2 = DataLoader(ds, batch_size=4, sampler=sampler, drop_last=True)
print("RESULT", rank, json.dumps({"seen": seen, "sum": s.item(), "n_batches": len(loader), "n2": len(loader2),
                                  "len_sampler": len(sampler)}))
dist.destroy_process_group()
