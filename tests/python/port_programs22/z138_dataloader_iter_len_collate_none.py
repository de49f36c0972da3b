import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset

class Range(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(torch.arange(self.n).float().view(-1, 1))

class Pairs(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.tensor([i, i * i]), torch.tensor(i % 3)

it = [b for b in DataLoader(Range(7), batch_size=3)]
it_drop = [b for b in DataLoader(Range(7), batch_size=3, drop_last=True)]
nob = [b for b in DataLoader(Pairs(), batch_size=None)][:2]
pairs = list(DataLoader(Pairs(), batch_size=4))
ident = next(iter(DataLoader(Pairs(), batch_size=2, collate_fn=lambda b: b)))
report(it=it, it_drop=len(it_drop), nob=nob, pairs=pairs, ident_len=len(ident), ident_type=type(ident).__name__, n=len(DataLoader(Pairs(), batch_size=4)))
