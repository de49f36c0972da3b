import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler, Subset, SubsetRandomSampler,
                              TensorDataset, WeightedRandomSampler)

ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
sub = Subset(ds, [1, 3, 5, 7])
bs = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
bs2 = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True))
g = torch.Generator().manual_seed(1)
rs = list(RandomSampler(ds, generator=g))
w = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True)
srs = sorted(SubsetRandomSampler([2, 4, 6]))
dl = DataLoader(sub, batch_size=3, drop_last=False)
report(bs=bs, bs2=bs2, rs_sorted=sorted(rs), w=list(w), srs=srs, sub=[sub[i][0].item() for i in range(len(sub))],
       dl=[b[0] for b in dl], dl_len=len(dl), ds2=ds[4])
