import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

ds = TensorDataset(torch.arange(10.0))
tr, va = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
a, b, c = random_split(range(9), [4, 3, 2], generator=torch.Generator().manual_seed(0))
allidx = sorted(tr.indices + va.indices)
report(lens=[len(tr), len(va)], allidx=allidx, abc=[len(a), len(b), len(c)], disjoint=len(set(a.indices) & set(b.indices)) == 0,
       dl=len(DataLoader(tr, batch_size=3)))
