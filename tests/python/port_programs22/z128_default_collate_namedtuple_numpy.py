import collections
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate

Point = collections.namedtuple("Point", ["x", "y"])
pts = [Point(torch.tensor([float(i)]), i) for i in range(3)]
c = default_collate(pts)

class DictDS(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"img": np.full((2, 2), i, dtype=np.float32), "label": np.int64(i % 2), "meta": {"id": i, "f": np.float64(i) / 4}}

batch = next(iter(DataLoader(DictDS(), batch_size=3)))
scalars = default_collate([np.float32(1.5), np.float32(2.5)])
report(type=type(c).__name__, cx=c.x, cy=c.y, img=batch["img"], img_dtype=batch["img"].dtype, label=batch["label"],
       meta_id=batch["meta"]["id"], meta_f=batch["meta"]["f"], f_dtype=batch["meta"]["f"].dtype, scalars=scalars,
       strs=default_collate([("a", 1), ("b", 2)]))
