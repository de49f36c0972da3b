import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler, Subset,
                              SubsetRandomSampler, TensorDataset)

ds = TensorDataset(torch.arange(10).float().unsqueeze(1), torch.arange(10) % 2)
bs = list(BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=False))
bs_drop = list(BatchSampler(range(10), 3, True))
dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, False))
sizes = [len(x) for x, y in dl]
g = torch.Generator().manual_seed(3)
rs = list(RandomSampler(ds, generator=g))
srs = sorted(SubsetRandomSampler([1, 4, 7], generator=torch.Generator().manual_seed(0)))
sub = Subset(ds, [9, 0, 5])
xs = torch.cat([x for x, _ in DataLoader(sub, batch_size=2)])
rs_repl = len(list(RandomSampler(ds, replacement=True, num_samples=15)))
report(bs=bs, bs_drop=bs_drop, sizes=sizes, rs_sorted=sorted(rs), srs=srs, xs=xs, rs_repl=rs_repl, sub_len=len(sub), item=sub[1][1])
