import torch
from torch.utils.data import Dataset, DataLoader
from torch.nn.utils.rnn import pad_sequence
class TextDS(Dataset):
    def __init__(self, n):
        self.items = [list(range(1, 2 + (i * 3) % 5)) for i in range(n)]
        self.labels = [i % 3 for i in range(n)]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, idx):
        return {"input_ids": torch.tensor(self.items[idx]), "label": self.labels[idx], "id": f"ex{idx}"}
def collate(batch):
    ids = pad_sequence([b["input_ids"] for b in batch], batch_first=True, padding_value=0)
    return {"input_ids": ids, "attention_mask": (ids != 0).long(), "labels": torch.tensor([b["label"] for b in batch]),
            "ids": [b["id"] for b in batch]}
ds = TextDS(7)
dl = DataLoader(ds, batch_size=3, collate_fn=collate, drop_last=True)
batches = [b for b in dl]
dl2 = DataLoader(ds, batch_size=3, shuffle=False)
b2 = [b for b in DataLoader([(torch.ones(2) * i, i) for i in range(5)], batch_size=2)]
class Squares(Dataset):
    def __len__(self): return 5
    def __getitem__(self, i): return torch.tensor([float(i)]), torch.tensor(i * i)
sq = [(x.shape, y) for x, y in DataLoader(Squares(), batch_size=2)]
first = next(iter(DataLoader(ds, batch_size=1, collate_fn=lambda b: b)))
concat = torch.utils.data.ConcatDataset([Squares(), Squares()])
report(n=len(batches), ids=batches[1]["input_ids"], am=batches[0]["attention_mask"], labels=[b["labels"] for b in batches], sid=batches[0]["ids"],
       b2=[b[0] for b in b2], b2l=[b[1] for b in b2], sq=sq, first=first[0]["id"], lc=len(concat), c7=concat[7][1], ldl=len(dl), ldl2=len(dl2))
