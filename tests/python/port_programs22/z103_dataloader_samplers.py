import torch
from torch.utils.data import BatchSampler, DataLoader, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler, TensorDataset, RandomSampler

ds = TensorDataset(torch.arange(10.))
bs = list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False))
bs_drop = list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True))
loader = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, False))
g = torch.Generator().manual_seed(1)
sub = sorted(list(SubsetRandomSampler([1, 3, 5, 7], generator=g)))
w = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True)
rs = RandomSampler(range(7), num_samples=12, replacement=True)
perm = sorted(list(RandomSampler(range(7))))
report(bs=bs, bs_drop=bs_drop, batches=[b[0] for b in loader], sub=sub, w=list(w), rs_len=len(list(rs)), perm=perm,
       lens=[len(BatchSampler(range(10), 4, d)) for d in (False, True)], samp_len=len(SequentialSampler(ds)))
