import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader, default_collate


class Tab(Dataset):
    def __init__(self):
        rs = np.random.RandomState(0)
        self.num = rs.standard_normal((7, 3)).astype(np.float32)
        self.cat = rs.randint(0, 4, size=(7, 2))
        self.y = rs.randint(0, 2, size=7)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"num": self.num[i], "cat": self.cat[i], "y": int(self.y[i]), "id": f"row{i}", "w": float(i) / 10}


dl = DataLoader(Tab(), batch_size=3, shuffle=False)
batches = list(dl)
b0 = batches[0]
manual = default_collate([Tab()[i] for i in range(2)])
report(n=len(batches), keys=sorted(b0), num_dtype=b0["num"].dtype, cat_dtype=b0["cat"].dtype, y=b0["y"], y_dtype=b0["y"].dtype, ids=b0["id"], w=b0["w"],
       w_dtype=b0["w"].dtype, last_shape=batches[-1]["num"].shape, manual_cat=manual["cat"], tuple_collate=default_collate([(1, 2.0), (3, 4.0)]))
