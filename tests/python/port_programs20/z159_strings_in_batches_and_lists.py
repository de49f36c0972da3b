import torch
from torch.utils.data import Dataset, DataLoader


class Text(Dataset):
    def __init__(self):
        self.rows = [("hello world", 1), ("foo", 0), ("bar baz qux", 1), ("x", 0), ("y z", 1)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return {"text": text, "label": torch.tensor(label), "n": len(text.split()), "tokens": text.split()[:1]}


batches = list(DataLoader(Text(), batch_size=2))
report(texts=[b["text"] for b in batches], labels=[b["label"] for b in batches], ns=[b["n"] for b in batches],
       tokens=[b["tokens"] for b in batches], types=[type(batches[0]["text"]).__name__, type(batches[0]["n"]).__name__])
