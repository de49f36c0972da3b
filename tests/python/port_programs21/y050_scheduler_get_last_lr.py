import torch
import torch.nn as nn

m = nn.Linear(2, 1)
opt = torch.optim.SGD([{"params": m.weight}, {"params": m.bias, "lr": 0.5}], lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
lrs = []
for epoch in range(5):
    opt.step()
    s.step()
    lrs.append(s.get_last_lr())
opt2 = torch.optim.Adam(m.parameters(), lr=1.0)
warm = torch.optim.lr_scheduler.LambdaLR(opt2, lambda e: min(1.0, (e + 1) / 3))
cos = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD(m.parameters(), lr=1.0), T_max=4, eta_min=0.1)
a, c = [], []
for _ in range(5):
    a.append(warm.get_last_lr()[0])
    c.append(cos.get_last_lr()[0])
    opt2.step()
    warm.step()
    cos.optimizer.step()
    cos.step()
ms = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(m.parameters(), lr=1.0), milestones=[1, 3], gamma=0.1)
e = []
for _ in range(4):
    ms.optimizer.step()
    ms.step()
    e.append(ms.get_last_lr()[0])
report(lrs=lrs, warm=a, cos=c, ms=e, sd=sorted(s.state_dict().keys()), last_epoch=s.last_epoch,
       exp=torch.optim.lr_scheduler.ExponentialLR(torch.optim.SGD(m.parameters(), lr=2.0), 0.9).get_last_lr())
