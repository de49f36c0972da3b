import collections
import torch
from torch.utils.data import DataLoader
from torch.utils.data.dataloader import default_collate

Point = collections.namedtuple("Point", ["x", "y"])
batch = [{"img": torch.ones(2, 2) * i, "meta": {"id": i, "name": f"n{i}"}, "pt": Point(i, float(i) / 2),
          "lst": [i, torch.tensor([i, i + 1])]} for i in range(3)]
out = default_collate(batch)
dl = DataLoader([(torch.tensor([1.0, 2.0]), 3), (torch.tensor([4.0, 5.0]), 6)], batch_size=2)
b0 = next(iter(dl))
report(img=out["img"].shape, ids=out["meta"]["id"], names=out["meta"]["name"], ptx=out["pt"].x, pty=out["pt"].y,
       ptype=type(out["pt"]).__name__, lst0=out["lst"][0], lst1=out["lst"][1], b0=b0[0], b1=b0[1], b1d=b0[1].dtype)
