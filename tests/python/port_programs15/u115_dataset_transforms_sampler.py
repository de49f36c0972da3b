import torch
from torch.utils.data import Dataset, DataLoader, WeightedRandomSampler, SequentialSampler, BatchSampler, SubsetRandomSampler


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


class Normalize:
    def __init__(self, m, s):
        self.m, self.s = m, s

    def __call__(self, x):
        return (x - self.m) / self.s


class ImgDS(Dataset):
    def __init__(self, n, transform=None):
        self.x = torch.arange(n * 4, dtype=torch.float32).view(n, 1, 2, 2)
        self.y = torch.arange(n) % 3
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        s = self.x[idx]
        if self.transform:
            s = self.transform(s)
        return s, self.y[idx]


ds = ImgDS(10, Compose([Normalize(10.0, 5.0), lambda t: t.flip(-1)]))
seq = list(BatchSampler(SequentialSampler(ds), batch_size=4, drop_last=False))
dl = DataLoader(ds, batch_sampler=seq)
first = next(iter(dl))
counts = torch.zeros(3)
class_w = 1.0 / torch.bincount(ds.y).float()
sw = class_w[ds.y]
sampler = WeightedRandomSampler(sw, num_samples=30, replacement=True)
n_drawn = 0
for _, yb in DataLoader(ds, batch_size=5, sampler=sampler):
    counts += torch.bincount(yb, minlength=3)
    n_drawn += len(yb)
sub = DataLoader(ds, batch_size=3, sampler=SubsetRandomSampler([1, 4, 7]))
seen = sorted(int(v) for _, yb in sub for v in yb)
report(seq=seq, first_x=first[0][0, 0], first_y=first[1], n_drawn=n_drawn, sw=sw[:4], seen=seen, len_dl=len(dl),
       tensor_idx=ds[torch.tensor(2)][1])
