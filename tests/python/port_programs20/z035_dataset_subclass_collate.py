import torch
from torch.utils.data import Dataset, DataLoader
from torch.nn.utils.rnn import pad_sequence


class Toy(Dataset):
    def __init__(self, n):
        self.items = [(torch.arange(i % 4 + 1), i % 2) for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        seq, lab = self.items[i]
        return {"ids": seq, "label": lab, "name": f"s{i}"}


def collate(batch):
    ids = pad_sequence([b["ids"] for b in batch], batch_first=True, padding_value=-1)
    return {"ids": ids, "label": torch.tensor([b["label"] for b in batch]), "len": torch.tensor([len(b["ids"]) for b in batch])}


dl = DataLoader(Toy(7), batch_size=3, collate_fn=collate)
batches = [b for b in dl]
dl2 = DataLoader(torch.utils.data.Subset(Toy(8), [0, 4, 5]), batch_size=2)
b2 = next(iter(dl2))
report(ids=[b["ids"] for b in batches], labels=[b["label"] for b in batches], lens=[b["len"] for b in batches],
       default=[b2["ids"], b2["label"], b2["name"]], keys=sorted(b2), n=len(dl))
