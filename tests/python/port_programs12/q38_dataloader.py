import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, Subset, ConcatDataset, default_collate, WeightedRandomSampler, BatchSampler, SequentialSampler
class Pairs(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "y": i % 3, "name": f"s{i}", "ids": torch.arange(i % 4 + 1)}
def collate(batch):
    ids = [b["ids"] for b in batch]
    L = max(len(t) for t in ids)
    padded = torch.stack([torch.cat([t, t.new_zeros(L - len(t))]) for t in ids])
    return {"x": default_collate([b["x"] for b in batch]), "y": torch.tensor([b["y"] for b in batch]), "ids": padded, "names": [b["name"] for b in batch]}
ds = Pairs(10)
dl = DataLoader(ds, batch_size=4, collate_fn=collate, drop_last=True)
batches = [(b["x"].sum().item(), b["y"].tolist(), b["ids"].shape, b["names"]) for b in dl]
dflt = next(iter(DataLoader(TensorDataset(torch.arange(6.0).view(3, 2), torch.tensor([0, 1, 0])), batch_size=2)))
tr, va = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(42))
fr = random_split(range(10), [0.5, 0.5])
sub = Subset(ds, [1, 3, 5])
cat = ConcatDataset([TensorDataset(torch.zeros(2, 1)), TensorDataset(torch.ones(3, 1))])
dc = default_collate([{"a": 1, "b": (torch.ones(2), 2.0)}, {"a": 2, "b": (torch.zeros(2), 3.0)}])
bs = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
ws = list(WeightedRandomSampler([0.0, 0.0, 1.0], num_samples=4, replacement=True))
shuf = DataLoader(range(8), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(0))
allb = sorted(sum([b.tolist() for b in shuf], []))
it = DataLoader(ds, batch_size=None)
first = next(iter(it))
report(batches=batches, n=len(dl), dflt=dflt, lens=[len(tr), len(va), len(fr[0])], disjoint=len(set(tr) | set(va)) == 10, sub=[sub[i]["y"] for i in range(3)], cat=[len(cat), cat[3][0]],
       dc=dc, bs=bs, ws=ws, allb=allb, first=first["x"], ty=type(first["y"]).__name__)
