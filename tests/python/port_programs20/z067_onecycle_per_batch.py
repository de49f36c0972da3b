import torch
import torch.nn as nn

m = det(nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=4, pct_start=0.25)
x, y = data(16, 3), data(16, 1, seed=2)
lrs, moms, ls = [], [], []
for epoch in range(2):
    for i in range(4):
        opt.zero_grad()
        l = nn.functional.mse_loss(m(x[i * 4:(i + 1) * 4]), y[i * 4:(i + 1) * 4])
        l.backward()
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
        moms.append(opt.param_groups[0]["momentum"])
        ls.append(l.item())
report(lrs=lrs[:-1], moms=moms[:-1], ls=ls)
