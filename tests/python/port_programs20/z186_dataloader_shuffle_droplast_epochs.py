import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.arange(11).float(), torch.arange(11) * 2)
g = torch.Generator().manual_seed(3)
dl = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True, generator=g)
seen = []
for epoch in range(2):
    ep = []
    for xb, yb in dl:
        assert torch.equal(yb, (xb * 2).long())
        ep.append(len(xb))
    seen.append(ep)
dl2 = DataLoader(ds, batch_size=4, shuffle=False, drop_last=True)
report(seen=seen, n=len(dl), first=[x.tolist() for x, _ in dl2], dtype=str(next(iter(dl2))[1].dtype))
