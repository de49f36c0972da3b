import torch
from torch.utils.data import Dataset, DataLoader, SequentialSampler, BatchSampler, SubsetRandomSampler, random_split


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}


ds = Squares(10)
dl = DataLoader(ds, batch_size=4)
first = next(iter(dl))
bs = list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True))
dl2 = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, False), collate_fn=lambda b: [d["y"] for d in b])
g = torch.Generator().manual_seed(0)
tr, va = random_split(ds, [7, 3], generator=g)
sub = DataLoader(ds, batch_size=2, sampler=SubsetRandomSampler([1, 3, 5, 7], generator=g))
dl3 = DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(1))
seen = sorted(i for b in dl3 for i in b["y"].tolist())
report(x=first["x"], y=first["y"], ydt=first["y"].dtype, name=first["name"], bs=bs, dl2=list(dl2), lens=[len(tr), len(va)],
       sub=sorted(i for b in sub for i in b["y"].tolist()), seen=seen, nb=len(dl3), split_disjoint=len(set(tr.indices) & set(va.indices)))
