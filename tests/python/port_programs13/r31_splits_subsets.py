import torch
from torch.utils.data import TensorDataset, random_split, Subset, ConcatDataset, DataLoader, SequentialSampler, BatchSampler
X = torch.arange(20, dtype=torch.float32).view(10, 2)
y = torch.arange(10) % 3
ds = TensorDataset(X, y)
g = torch.Generator().manual_seed(42)
train, val = random_split(ds, [8, 2], generator=g)
tr2, va2, te2 = random_split(ds, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(0))
sub = Subset(ds, [9, 0, 4])
cat = ConcatDataset([sub, TensorDataset(X[:2] * -1, y[:2])])
xs = [cat[i][0].tolist() for i in range(len(cat))]
bs = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True))
tot = 0  # which rows train holds is the generator's draw (meshflow's generator, not torch's values): only their total
for xb, yb in DataLoader(ConcatDataset([train, val]), batch_size=4):
    tot += xb.sum().item()
report(lens=[len(train), len(val)], lens3=[len(tr2), len(va2), len(te2)], sub=sub[1][0], xs=xs, bs=bs, tot=tot,
       idx_t=sorted(train.indices + val.indices), t=ds[3], n=len(cat), cum=cat.cumulative_sizes)
