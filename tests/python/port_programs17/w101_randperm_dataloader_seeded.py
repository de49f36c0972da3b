import torch
from torch.utils.data import DataLoader, TensorDataset, random_split, RandomSampler

ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
g = torch.Generator().manual_seed(42)
tr, va = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(1))
dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=False)
batches = [b[0].tolist() for b in dl]
perm = torch.randperm(8, generator=torch.Generator().manual_seed(7))
rs = list(RandomSampler(range(6), generator=torch.Generator().manual_seed(3)))
report(batches=batches, tr=list(tr.indices), va=list(va.indices), perm=perm, rs=rs, n=len(dl))
