import torch
import numpy as np
from torch.utils.data import DataLoader
from torch.utils.data.dataloader import default_collate

items = [{"x": torch.tensor([i, i + 1.0]), "y": i, "w": float(i) / 2, "name": f"s{i}", "np": np.array([i, 2 * i]),
          "pair": (i, torch.tensor(i * 3)), "lst": [i, i + 10]} for i in range(3)]
c = default_collate(items)
tuples = default_collate([(torch.ones(2) * i, i) for i in range(4)])
loader_batch = next(iter(DataLoader(items, batch_size=2)))
report(x=c["x"], y=c["y"], w=c["w"], name=c["name"], np=c["np"], pair=c["pair"], lst=c["lst"], t=tuples,
       types={k: type(v).__name__ for k, v in c.items()}, y_dtype=c["y"].dtype, w_dtype=c["w"].dtype, np_dtype=c["np"].dtype,
       lb_keys=sorted(loader_batch), lb_x=loader_batch["x"], bools=default_collate([True, False]))
