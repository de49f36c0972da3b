import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

X = data(40, 4)
y = (X.sum(1) > 0).long()
ds = TensorDataset(X, y)
loader = DataLoader(ds, batch_size=16, shuffle=False, drop_last=False)
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
sizes = []
hist = []
for epoch in range(3):
    run = 0.0
    for xb, yb in loader:
        sizes.append(len(xb))
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        run += loss.item() * xb.size(0)
    hist.append(run / len(loader.dataset))
g = torch.Generator().manual_seed(0)
a, b = random_split(ds, [30, 10], generator=g)
report(hist=hist, sizes=sizes, nb=len(loader), la=len(a), lb=len(b), item0=[t.tolist() for t in ds[0]],
       types=[type(a).__name__], dl_len=len(DataLoader(ds, batch_size=16, drop_last=True)))
