import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler, RandomSampler

ds = TensorDataset(torch.arange(10).float(), torch.arange(10) % 3)
g = torch.Generator()
g.manual_seed(0)
dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
seen = sorted(int(v) for xb, _ in dl for v in xb)
lens = [len(xb) for xb, _ in dl]
weights = [0.0 if i % 2 else 1.0 for i in range(10)]
sampler = WeightedRandomSampler(weights, num_samples=20, replacement=True, generator=torch.Generator().manual_seed(1))
picked = list(sampler)
rs = RandomSampler(ds, replacement=False, generator=torch.Generator().manual_seed(2))
perm = sorted(list(rs))
report(seen=seen, lens=lens, even=all(p % 2 == 0 for p in picked), n=len(picked), perm=perm, n_rs=len(rs))
