import json, meshflow, meshflow.distributed as dist
from meshflow.utils.data import DataLoader, Dataset, DistributedSampler

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
class Squares(Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i): return meshflow.tensor([float(i)]), i * i
out = {}
for n in (7, 8, 1):
    s = DistributedSampler(Squares(n), shuffle=False, drop_last=False)
    out[f"idx{n}"] = list(s)
    out[f"len{n}"] = len(s)
s = DistributedSampler(Squares(7), num_replicas=world, rank=rank, shuffle=False, drop_last=True)
out["drop"] = list(s)
loader = DataLoader(Squares(7), batch_size=2, sampler=DistributedSampler(Squares(7), shuffle=False))
batches = [(x.flatten().tolist(), y.tolist()) for x, y in loader]
out["batches"] = batches
total = meshflow.tensor([sum(sum(y) for _, y in batches)], dtype=meshflow.int64)
dist.all_reduce(total)
out["total"] = total.item()  # counts the padded repeat
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
