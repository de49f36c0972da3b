import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(16, 6)
y = (data(16, 3, seed=9) > 0.3).float()
model = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3)))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
hist = []
for _ in range(6):
    logits = model(x)
    p = logits.sigmoid()
    pt = torch.where(y == 1, p, 1 - p)
    focal = (-(1 - pt) ** 2 * torch.log(pt.clamp(min=1e-6))).mean()
    soft_dice = 1 - (2 * (p * y).sum(0) + 1) / (p.sum(0) + y.sum(0) + 1)
    loss = focal + soft_dice.mean()
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    pred = model(x).sigmoid() > 0.5
tp = (pred & y.bool()).sum(0).float()
prec = tp / pred.sum(0).clamp(min=1)
rec = tp / y.sum(0).clamp(min=1)
report(hist=hist, prec=prec, rec=rec, exact=(pred == y.bool()).all(1).float().mean().item(),
       mlsm=F.multilabel_soft_margin_loss(model(x), y).item(), mlm=F.multilabel_margin_loss(model(x)[:2], torch.tensor([[0, 2, -1], [1, -1, 0]])).item())
