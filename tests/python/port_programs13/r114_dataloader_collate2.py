import collections
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, SubsetRandomSampler
from torch.utils.data.dataloader import default_collate
Point = collections.namedtuple("Point", ["x", "y"])
class DS(Dataset):
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return {"img": np.full((2, 2), i, dtype=np.float32), "meta": {"id": i, "name": f"n{i}"}, "pt": Point(i, float(i) / 2), "tags": [i, i + 1]}
b = next(iter(DataLoader(DS(), batch_size=3)))
seen = []
def init(worker_id):
    seen.append(worker_id)
dl = DataLoader(DS(), batch_size=2, sampler=list(range(4, -1, -1)), worker_init_fn=init)
order = [batch["meta"]["id"].tolist() for batch in dl]
c = default_collate([(1, 2.0, True), (3, 4.0, False)])
report(img=b["img"][:, 0, 0], imgdt=b["img"].dtype, ids=b["meta"]["id"], names=b["meta"]["name"], ptx=b["pt"].x, pty=b["pt"].y, pttype=type(b["pt"]).__name__, tags=[t.tolist() for t in b["tags"]],
       order=order, c=[x for x in c], cdt=[str(x.dtype) for x in c])
