import torch
from torch.utils.data import WeightedRandomSampler, RandomSampler, SequentialSampler, BatchSampler, DataLoader, TensorDataset
w = [0.0, 0.0, 1.0, 0.0]
s = list(WeightedRandomSampler(w, num_samples=5, replacement=True))
rs = RandomSampler(range(10), generator=torch.Generator().manual_seed(0))
perm = sorted(list(rs))
rs2 = list(RandomSampler(range(10), replacement=True, num_samples=4))
ds = TensorDataset(torch.arange(10.0))
dl = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(3))
sizes = [b[0].shape[0] for b in dl]
total = sorted(torch.cat([b[0] for b in dl]).tolist())
report(s=s, perm=perm, n_rs2=len(rs2), in_range=all(0 <= i < 10 for i in rs2), sizes=sizes, ntotal=len(total), uniq=len(set(total)), lens=[len(rs), len(dl)])
