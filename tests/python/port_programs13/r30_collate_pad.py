import torch
from torch.utils.data import Dataset, DataLoader
from torch.nn.utils.rnn import pad_sequence
class TextDS(Dataset):
    def __init__(self):
        self.items = [(torch.arange(1, n + 1), n % 3) for n in (3, 5, 2, 6, 4, 1, 7)]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        toks, lab = self.items[i]
        return {"input_ids": toks, "label": lab, "text": f"s{i}"}
def collate(batch):
    ids = [b["input_ids"] for b in batch]
    lengths = torch.tensor([len(t) for t in ids])
    padded = pad_sequence(ids, batch_first=True, padding_value=0)
    mask = torch.arange(padded.size(1))[None, :] < lengths[:, None]
    return {"input_ids": padded, "attention_mask": mask.long(), "labels": torch.tensor([b["label"] for b in batch]), "texts": [b["text"] for b in batch]}
dl = DataLoader(TextDS(), batch_size=3, shuffle=False, collate_fn=collate, drop_last=False)
out = []
for batch in dl:
    out.append([list(batch["input_ids"].shape), batch["attention_mask"].sum(1).tolist(), batch["labels"].tolist(), batch["texts"]])
default = next(iter(DataLoader([(torch.ones(2) * i, i, {"k": float(i)}) for i in range(4)], batch_size=2)))
report(out=out, nb=len(dl), d0=default[0], d1=default[1], d2=default[2]["k"], types=[type(x).__name__ for x in default])
