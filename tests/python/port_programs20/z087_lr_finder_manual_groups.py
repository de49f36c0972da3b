import torch
import torch.nn as nn

m = det(nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=1e-4)
x, y = data(8, 3), data(8, 1, seed=2)
lrs, losses = [], []
lr = 1e-4
for i in range(8):
    for g in opt.param_groups:
        g["lr"] = lr
    opt.zero_grad()
    l = nn.functional.mse_loss(m(x), y)
    l.backward()
    opt.step()
    lrs.append(lr)
    losses.append(l.item())
    lr *= 3
report(lrs=lrs, losses=losses, best=lrs[min(range(len(losses)), key=losses.__getitem__)])
