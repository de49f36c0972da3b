import torch
from torch.utils.data import DataLoader, TensorDataset, RandomSampler

ds = TensorDataset(torch.arange(6).float())
g = torch.Generator().manual_seed(0)
s = RandomSampler(ds, replacement=True, num_samples=10, generator=g)
dl = DataLoader(ds, batch_size=4, sampler=s)
sizes = [b[0].shape[0] for b in dl]
vals = torch.cat([b[0] for b in dl])
s2 = RandomSampler(ds, generator=torch.Generator().manual_seed(1))
perm = sorted(list(s2))
report(sizes=sizes, in_range=bool(((vals >= 0) & (vals < 6)).all()), n=len(s), perm=perm, nb=len(dl))
