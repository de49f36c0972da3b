import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader, default_collate
from collections import namedtuple

Pair = namedtuple("Pair", ["x", "y"])


class NP(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"img": np.full((2, 2), i, dtype=np.float32), "label": i % 2, "w": float(i) / 2, "pair": Pair(np.int64(i), [i, -i])}


b = next(iter(DataLoader(NP(), batch_size=3)))
c = default_collate([(torch.tensor([1.0]), 2), (torch.tensor([3.0]), 4)])
report(img=b["img"], label=b["label"], w=b["w"], px=b["pair"].x, py=b["pair"].y, c=c, types=[type(b["pair"]).__name__, type(c).__name__],
       wdt=b["w"].dtype)
