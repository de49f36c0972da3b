import math
import torch
import torch.nn as nn

model = det(nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-4)
x, y = data(12, 4), data(12, 1, seed=2)
gamma = (1.0 / 1e-4) ** (1 / 9)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
lrs, losses = [], []
best = float("inf")
for i in range(10):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    lrs.append(opt.param_groups[0]["lr"]); losses.append(loss.item())
    best = min(best, loss.item())
    if loss.item() > 4 * best or math.isnan(loss.item()):
        break
    sched.step()
m2 = det(nn.Linear(4, 1))
o2 = torch.optim.SGD(m2.parameters(), lr=0.1, momentum=0.9)
oc = torch.optim.lr_scheduler.OneCycleLR(o2, max_lr=0.2, total_steps=8, pct_start=0.25, anneal_strategy="cos")
oc_lrs, moms = [], []
for i in range(8):
    o2.step(); oc.step()
    oc_lrs.append(round(o2.param_groups[0]["lr"], 7)); moms.append(round(o2.param_groups[0]["momentum"], 7))
report(stopped_at=len(lrs), lrs=lrs, oc_lrs=oc_lrs, moms=moms)
