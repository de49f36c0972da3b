import torch
from torch.utils.data import Dataset, DataLoader, random_split, Subset, ConcatDataset, default_collate


class Pairs(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.full((i % 3 + 1,), float(i)), "y": i % 2, "name": f"item{i}"}


def pad_collate(batch):
    lens = torch.tensor([len(b["x"]) for b in batch])
    xs = torch.nn.utils.rnn.pad_sequence([b["x"] for b in batch], batch_first=True, padding_value=-1)
    ys = torch.tensor([b["y"] for b in batch])
    return xs, lens, ys, [b["name"] for b in batch]


ds = Pairs(7)
dl = DataLoader(ds, batch_size=3, collate_fn=pad_collate)
batches = list(dl)
sub = Subset(ds, [6, 0, 3])
cat = ConcatDataset([sub, Pairs(2)])
a, b = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(42))
fr = random_split(range(10), [0.5, 0.5])
dc = default_collate([(torch.tensor([1, 2]), 3.0, {"k": 1}), (torch.tensor([3, 4]), 4.0, {"k": 2})])
dl2 = DataLoader(list(range(10)), batch_size=4, drop_last=True)
report(first=batches[0][0], lens=batches[0][1], names=batches[-1][3], nb=len(dl), catlen=len(cat), cat3=cat[3]["name"],
       split=[len(a), len(b)], frl=[len(f) for f in fr], dc0=dc[0], dc1=dc[1], dck=dc[2]["k"], dl2=[t.tolist() for t in dl2],
       nsum=sorted(list(a) + list(b)) == list(range(10)))
