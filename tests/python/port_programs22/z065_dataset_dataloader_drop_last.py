import torch
from torch.utils.data import DataLoader, TensorDataset

X = torch.arange(22, dtype=torch.float32).view(11, 2)
Y = torch.arange(11)
ds = TensorDataset(X, Y)
r = {"len": len(ds), "item": ds[3], "slice": ds[2:4]}
for dl in (False, True):
    loader = DataLoader(ds, batch_size=4, shuffle=False, drop_last=dl)
    r[f"n_{dl}"] = len(loader)
    r[f"shapes_{dl}"] = [list(xb.shape) for xb, _ in loader]
    r[f"last_{dl}"] = [yb for _, yb in loader][-1]
r["bs1"] = next(iter(DataLoader(ds, batch_size=None)))
r["types"] = [type(b).__name__ for b in next(iter(DataLoader(ds, batch_size=2)))]
g = torch.Generator().manual_seed(0)
shuffled = torch.cat([yb for _, yb in DataLoader(ds, batch_size=3, shuffle=True, generator=g)])
r["perm"] = sorted(shuffled.tolist()) == list(range(11))
report(**r)
