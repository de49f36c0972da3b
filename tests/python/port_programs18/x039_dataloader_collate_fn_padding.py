import torch
from torch.utils.data import DataLoader, Dataset


class Seqs(Dataset):
    def __init__(self):
        self.items = [[1, 2, 3], [4], [5, 6], [7, 8, 9, 10], [11, 12]]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return {"ids": torch.tensor(self.items[i]), "label": i % 2}


def collate(batch):
    L = max(len(b["ids"]) for b in batch)
    ids = torch.full((len(batch), L), 0, dtype=torch.long)
    mask = torch.zeros(len(batch), L, dtype=torch.bool)
    for i, b in enumerate(batch):
        ids[i, : len(b["ids"])] = b["ids"]
        mask[i, : len(b["ids"])] = True
    return {"ids": ids, "mask": mask, "labels": torch.tensor([b["label"] for b in batch])}


dl = DataLoader(Seqs(), batch_size=2, shuffle=False, collate_fn=collate)
batches = [b for b in dl]
ps = torch.nn.utils.rnn.pad_sequence([torch.tensor(x) for x in Seqs().items], batch_first=True, padding_value=-1)
report(n=len(dl), ids=[b["ids"] for b in batches], masks=[b["mask"].sum(1) for b in batches],
       labels=[b["labels"] for b in batches], ps=ps)
