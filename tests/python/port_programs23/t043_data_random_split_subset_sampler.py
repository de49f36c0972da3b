import torch
from torch.utils.data import TensorDataset, DataLoader, Subset, SequentialSampler, BatchSampler, ConcatDataset

x = torch.arange(20, dtype=torch.float32).view(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
sub = Subset(ds, [1, 3, 5, 7])
gen = torch.Generator().manual_seed(42)
a, b = torch.utils.data.random_split(ds, [7, 3], generator=gen)
lens = [len(a), len(b)]
disjoint = set(a.indices).isdisjoint(b.indices) and len(set(a.indices) | set(b.indices)) == 10
batches = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
batches_drop = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True))
cat = ConcatDataset([sub, Subset(ds, [0])])
dl = DataLoader(sub, batch_size=3, drop_last=True)
report(sub=[sub[i][1] for i in range(len(sub))], lens=lens, disjoint=disjoint, batches=batches, batches_drop=batches_drop,
       cat_len=len(cat), cat_last=list(cat[4]), dl=[list(bt) for bt in dl], frac=[len(s) for s in torch.utils.data.random_split(ds, [0.5, 0.5], generator=gen)])
