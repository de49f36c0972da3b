import torch
from torch.utils.data import DataLoader, TensorDataset, SequentialSampler, BatchSampler, SubsetRandomSampler, WeightedRandomSampler, Subset, ConcatDataset

ds = TensorDataset(torch.arange(10).float(), torch.arange(10) % 3)
seq = list(SequentialSampler(ds))
bs = list(BatchSampler(SequentialSampler(ds), batch_size=4, drop_last=False))
bs2 = list(BatchSampler(range(10), 3, True))
g = torch.Generator().manual_seed(1)
srs = sorted(list(SubsetRandomSampler([1, 3, 5, 7], generator=g)))
w = list(WeightedRandomSampler([0, 0, 1, 0], num_samples=5, replacement=True))
dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, False))
firsts = [x.tolist() for x, _ in dl]
sub = Subset(ds, [9, 0, 4])
cat = ConcatDataset([sub, ds])
g2 = torch.Generator().manual_seed(0)
shuffled = sorted(torch.cat([x for x, _ in DataLoader(ds, batch_size=3, shuffle=True, generator=g2)]).tolist())
report(seq=seq, bs=bs, bs2=bs2, srs=srs, w=w, firsts=firsts, sub=[sub[i][0].item() for i in range(3)], cat=len(cat),
       cat11=cat[11][0].item(), cum=cat.cumulative_sizes, shuffled=shuffled)
