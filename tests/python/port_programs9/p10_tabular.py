import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader, random_split
rs = np.random.RandomState(0)
X = rs.randn(100, 6).astype(np.float32)
w = rs.randn(6).astype(np.float32)
yv = (X @ w > 0).astype(np.int64)
X_t = torch.from_numpy(X); y_t = torch.from_numpy(yv)
mean, std = X_t.mean(dim=0), X_t.std(dim=0)
X_t = (X_t - mean) / std
ds = TensorDataset(X_t, y_t)
train_ds, val_ds = random_split(ds, [80, 20], generator=torch.Generator().manual_seed(42))
train_ds, val_ds = torch.utils.data.Subset(ds, list(range(80))), torch.utils.data.Subset(ds, list(range(80, 100)))
train_dl = DataLoader(train_ds, batch_size=16, shuffle=False)
val_dl = DataLoader(val_ds, batch_size=8)
model = nn.Sequential(nn.Linear(6, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 2))
det(model)
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
hist = []
for epoch in range(3):
    model.train(); total = 0.0; n = 0
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad(); loss.backward(); opt.step()
        total += loss.item() * xb.size(0); n += xb.size(0)
    model.eval(); correct = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            correct += (model(xb).argmax(1) == yb).type(torch.float).sum().item()
    hist.append((total / n, correct / len(val_ds)))
report(hist=hist, nbatches=len(train_dl), lens=[len(train_ds), len(val_ds)], rv=model[1].running_var,
       first=[t.shape for t in next(iter(val_dl))])
