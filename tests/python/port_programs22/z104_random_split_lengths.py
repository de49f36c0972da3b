import torch
from torch.utils.data import random_split, TensorDataset

ds = TensorDataset(torch.arange(20.), torch.arange(20))
a, b, c = random_split(ds, [10, 6, 4], generator=torch.Generator().manual_seed(42))
f1, f2 = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
g1, g2, g3 = random_split(range(11), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
all_idx = sorted(a.indices + b.indices + c.indices)
d1, _ = random_split(ds, [5, 15], generator=torch.Generator().manual_seed(7))
d2, _ = random_split(ds, [5, 15], generator=torch.Generator().manual_seed(7))
report(lens=[len(a), len(b), len(c)], cover=all_idx == list(range(20)), flens=[len(f1), len(f2)], glens=[len(g1), len(g2), len(g3)],
       same=d1.indices == d2.indices, type=type(a).__name__, item_type=type(a[0]).__name__)
