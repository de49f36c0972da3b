import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ChainedScheduler, ConstantLR, ExponentialLR, StepLR

p = [nn.Parameter(torch.zeros(2))]
opt = torch.optim.SGD(p, lr=1.0)
sched = ChainedScheduler([ConstantLR(opt, factor=0.1, total_iters=2), ExponentialLR(opt, gamma=0.9)])
lrs = []
for _ in range(5):
    lrs.append(opt.param_groups[0]["lr"])
    opt.step()
    sched.step()
opt2 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
s2 = ChainedScheduler([StepLR(opt2, step_size=2, gamma=0.5), ExponentialLR(opt2, gamma=0.8)])
l2 = []
for _ in range(5):
    opt2.step()
    s2.step()
    l2.append(s2.get_last_lr()[0])
sd = s2.state_dict()
report(lrs=lrs, l2=l2, n=len(sd["_schedulers"]), last=sched.get_last_lr())
