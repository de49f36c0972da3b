import torch
from torch.utils.data import Dataset, DataLoader


class Records(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "label": i % 3, "meta": {"id": i, "name": f"r{i}"},
                "pair": (torch.tensor(i), float(i) / 2)}


dl = DataLoader(Records(7), batch_size=3, shuffle=False)
batches = list(dl)
b0 = batches[0]
last = batches[-1]
report(n=len(dl), keys=sorted(b0), x=b0["x"], label=b0["label"], label_dtype=b0["label"].dtype, ids=b0["meta"]["id"],
       names=b0["meta"]["name"], pair0=b0["pair"][0], pair1=b0["pair"][1], pair1_dtype=b0["pair"][1].dtype,
       last_x=last["x"], n_drop=len(DataLoader(Records(7), batch_size=3, drop_last=True)))
