import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=1.0)
s1 = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
s2 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
ch = torch.optim.lr_scheduler.ChainedScheduler([s1, s2])
lrs = []
for _ in range(5):
    opt.step()
    ch.step()
    lrs.append(round(opt.param_groups[0]["lr"], 7))
opt2 = torch.optim.SGD([p], lr=0.1)
ms = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[2, 4, 4], gamma=0.1)
l2 = []
for _ in range(6):
    opt2.step()
    ms.step()
    l2.append(round(ms.get_last_lr()[0], 9))
opt3 = torch.optim.SGD([p], lr=0.1)
poly = torch.optim.lr_scheduler.PolynomialLR(opt3, total_iters=4, power=2.0)
l3 = []
for _ in range(5):
    opt3.step()
    poly.step()
    l3.append(round(poly.get_last_lr()[0], 9))
report(lrs=lrs, l2=l2, l3=l3)
