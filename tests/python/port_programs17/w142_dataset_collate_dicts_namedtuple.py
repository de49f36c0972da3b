import collections
import torch
from torch.utils.data import Dataset, DataLoader, ConcatDataset, Subset
from torch.utils.data.dataloader import default_collate

Pair = collections.namedtuple("Pair", ["x", "y"])


class DS(Dataset):
    def __init__(self, n, off):
        self.n, self.off = n, off

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([i + self.off, 2.0 * i]), "y": i % 2, "name": f"s{i}", "p": Pair(torch.tensor(i), 1.5)}


cat = ConcatDataset([DS(3, 0), DS(4, 100)])
sub = Subset(cat, [0, 4, 6])
batches = list(DataLoader(cat, batch_size=3))
b0 = batches[0]
sb = next(iter(DataLoader(sub, batch_size=3)))
dc = default_collate([(1, 2.0, True), (3, 4.0, False)])
report(n=len(cat), nb=len(batches), x=b0["x"], y=b0["y"], yd=b0["y"].dtype, name=b0["name"], px=b0["p"].x, py=b0["p"].y, typ=type(b0["p"]).__name__,
       sx=sb["x"], last=batches[-1]["x"], dc=[t for t in dc], dcd=[t.dtype for t in dc], cum=cat.cumulative_sizes)
