import numpy as np
import torch
import torch.nn as nn

rs = np.random.RandomState(0)
X = rs.standard_normal((64, 6)).astype(np.float32)
y = (X[:, 0] * 2 - X[:, 1] + 0.5 * X[:, 2] ** 2 > 0).astype(np.float32)
mu, sd = X.mean(0), X.std(0)
Xt = torch.from_numpy((X - mu) / sd)
yt = torch.from_numpy(y).unsqueeze(1)
model = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.SiLU(), nn.Dropout(0.0), nn.Linear(16, 1))
det(model)
opt = torch.optim.NAdam(model.parameters(), lr=0.01, betas=(0.9, 0.999), weight_decay=1e-4, momentum_decay=4e-3)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5]))
idx = torch.from_numpy(np.arange(64))
hist = []
for epoch in range(3):
    model.train()
    for b in idx.split(16):
        opt.zero_grad()
        loss = crit(model(Xt[b]), yt[b])
        loss.backward()
        opt.step()
    hist.append(loss.item())
model.eval()
with torch.no_grad():
    p = torch.sigmoid(model(Xt))
acc = ((p > 0.5).float() == yt).float().mean()
tp = ((p > 0.5) & (yt > 0.5)).sum()
report(hist=hist, acc=acc, tp=tp, p=p[:5, 0])
